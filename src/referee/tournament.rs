//! Tournaments of more than two engines: who plays whom (round-robin or gauntlet), and the
//! standings built from the matches' totals.

use super::runner::Totals;

/// How more than two engines are paired.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// Everyone plays everyone.
    #[default]
    RoundRobin,
    /// The first engine plays each of the others.
    Gauntlet,
}

impl Kind {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Kind::RoundRobin => "round-robin",
            Kind::Gauntlet => "gauntlet",
        }
    }
}

/// The matches among `n` engines, as pairs of indices (the first is engine A of its match).
/// Two engines play one match whatever the kind.
pub fn pairings(n: usize, kind: Kind) -> Vec<(usize, usize)> {
    match (n, kind) {
        (0 | 1, _) => Vec::new(),
        (2, _) => vec![(0, 1)],
        (n, Kind::RoundRobin) => (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect(),
        (n, Kind::Gauntlet) => (1..n).map(|b| (0, b)).collect(),
    }
}

/// Points and games per engine.
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    /// (points, games counted) per engine, in the order given.
    pub rows: Vec<(f64, u64)>,
}

impl Standings {
    /// Standings of `n` engines with nothing played.
    pub fn new(n: usize) -> Standings {
        Standings {
            rows: vec![(0.0, 0); n],
        }
    }

    /// Adds the match of `a` (engine A) against `b`.
    pub fn add(&mut self, a: usize, b: usize, totals: &Totals) {
        let half = 0.5 * totals.draws as f64;
        self.rows[a].0 += totals.wins as f64 + half;
        self.rows[b].0 += totals.losses as f64 + half;
        self.rows[a].1 += totals.games();
        self.rows[b].1 += totals.games();
    }

    /// The table's lines, best first (ties in the order given).
    pub fn table(&self, names: &[&str]) -> Vec<String> {
        let mut order: Vec<usize> = (0..self.rows.len()).collect();
        order.sort_by(|&x, &y| self.rows[y].0.total_cmp(&self.rows[x].0));
        order
            .iter()
            .enumerate()
            .map(|(rank, &i)| {
                let (points, games) = self.rows[i];
                format!("{:>3}. {:<20} {points:>6.1} / {games}", rank + 1, names[i])
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_of_each_kind() {
        assert_eq!(pairings(2, Kind::Gauntlet), vec![(0, 1)]);
        assert_eq!(pairings(3, Kind::RoundRobin), vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(pairings(4, Kind::Gauntlet), vec![(0, 1), (0, 2), (0, 3)]);
        assert_eq!(pairings(5, Kind::RoundRobin).len(), 10);
    }

    #[test]
    fn standings_add_up() {
        let mut s = Standings::new(3);
        let t = Totals {
            wins: 3,
            draws: 2,
            losses: 1,
            ..Totals::default()
        };
        s.add(0, 1, &t);
        s.add(2, 0, &t);
        assert_eq!(s.rows, vec![(6.0, 12), (2.0, 6), (4.0, 6)]);
        let table = s.table(&["a", "b", "c"]);
        assert!(
            table[0].contains(" a ") && table[2].contains(" b "),
            "{table:?}"
        );
    }
}
