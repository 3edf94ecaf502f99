//! Tournaments of more than two engines: who plays whom (round-robin or gauntlet), the
//! standings built from the matches' totals, and, with `--out-dir`, the directory that holds
//! one sub-directory per match (each a match's shared directory, see [`super::outdir`]) and
//! `tournament.json`, which names the engines and the kind for `referee merge`.

use super::runner::Totals;
use crate::cluster::manifest::ManifestFile;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// `tournament.json`: the engines in order and how they are paired.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Settled {
    engines: Vec<String>,
    kind: String,
    /// The matches' directories, in the order they are played.
    matches: Vec<String>,
}

/// The sub-directory of the match between engines `a` and `b`: `A-vs-B`, each name as
/// [`dir_name`] writes it.
pub fn match_dir(names: &[&str], (a, b): (usize, usize)) -> String {
    format!("{}-vs-{}", dir_name(names[a]), dir_name(names[b]))
}

/// An engine's name as a directory's name holds it: characters other than letters, digits,
/// `-` and `.` written `_`. Distinct names may be written alike (`P/Q`, `P_Q`).
pub fn dir_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Makes `dir` the directory of this tournament: writes `tournament.json`, or checks the one
/// there and says what differs.
pub fn settle(
    dir: &Path,
    names: &[&str],
    pairings: &[(usize, usize)],
    kind: Format,
) -> Result<(), String> {
    let here = Settled {
        engines: names.iter().map(|n| n.to_string()).collect(),
        kind: kind.name().to_string(),
        matches: pairings.iter().map(|&p| match_dir(names, p)).collect(),
    };
    let mut unique = here.matches.clone();
    unique.sort();
    unique.dedup();
    if unique.len() != here.matches.len() {
        return Err(
            "--out-dir: two matches of the tournament have the same directory name".to_string(),
        );
    }
    Ok(MANIFEST.settle(dir, &here)?)
}

/// `tournament.json`.
const MANIFEST: ManifestFile<'static, Settled> = ManifestFile {
    name: "tournament.json",
    job: "tournament",
    kind: "a tournament manifest of this referee",
    differs: |there, here| {
        (there != here).then(|| {
            format!(
                "{} ({}) there, {} ({}) here",
                there.engines.join(", "),
                there.kind,
                here.engines.join(", "),
                here.kind
            )
        })
    },
};

fn read(dir: &Path) -> Result<Option<Settled>, String> {
    Ok(MANIFEST.read(dir)?)
}

/// The engines and kind of the tournament in `dir`, if it holds one.
pub fn read_settled(dir: &Path) -> Result<Option<(Vec<String>, Format)>, String> {
    Ok(read(dir)?.map(|t| {
        let kind = if t.kind == Format::Gauntlet.name() {
            Format::Gauntlet
        } else {
            Format::RoundRobin
        };
        (t.engines, kind)
    }))
}

/// The match directories of the tournament in `dir`, in the order they are played.
pub fn match_dirs(dir: &Path) -> Result<Vec<PathBuf>, String> {
    match read(dir)? {
        Some(t) => Ok(t.matches.iter().map(|m| dir.join(m)).collect()),
        None => Err(format!(
            "{}: neither match.json nor tournament.json: not the --out-dir of a referee match",
            dir.display()
        )),
    }
}

/// How more than two engines are paired.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Everyone plays everyone.
    #[default]
    RoundRobin,
    /// The first engine plays each of the others.
    Gauntlet,
}

impl Format {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
        }
    }
}

/// The matches among `n` engines, as pairs of indices (the first is engine A of its match).
/// Two engines play one match whatever the kind.
pub fn pairings(n: usize, kind: Format) -> Vec<(usize, usize)> {
    match (n, kind) {
        (0 | 1, _) => Vec::new(),
        (2, _) => vec![(0, 1)],
        (n, Format::RoundRobin) => (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect(),
        (n, Format::Gauntlet) => (1..n).map(|b| (0, b)).collect(),
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
        assert_eq!(pairings(2, Format::Gauntlet), vec![(0, 1)]);
        assert_eq!(
            pairings(3, Format::RoundRobin),
            vec![(0, 1), (0, 2), (1, 2)]
        );
        assert_eq!(pairings(4, Format::Gauntlet), vec![(0, 1), (0, 2), (0, 3)]);
        assert_eq!(pairings(5, Format::RoundRobin).len(), 10);
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
