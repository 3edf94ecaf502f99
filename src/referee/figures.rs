//! A match's result as text, each figure computed and formatted once: the lines the referee
//! prints at a match's end ([`Figures::lines`], which `referee merge` prints too) and the rows
//! of the report page's table ([`Figures::rows`]) are two layouts of the same strings, so
//! they cannot drift apart.

use super::runner::Totals;
use super::stats::{self, Sprt, Verdict};

/// The openings a match of `games` games plays from a suite of `suite`, as its first line
/// says them: each opening serves one pair, so a match of fewer pairs than its suite has
/// openings plays only the first (`10 of 36 openings`). The match and `referee merge` both
/// say it so.
pub fn openings_used(games: u64, suite: usize) -> String {
    let suite = suite.max(1) as u64;
    let pairs = games / 2;
    if pairs < suite {
        format!("{pairs} of {suite} openings")
    } else if suite == 1 {
        "1 opening".to_string()
    } else {
        format!("{suite} openings")
    }
}

/// A match's figures from engine A's side, formatted.
#[derive(Clone, Debug, PartialEq)]
pub struct Figures {
    /// Engine A and B.
    pub names: [String; 2],
    /// Games counted.
    pub games: u64,
    /// A's wins, draws and losses: `+3 =1 -2`.
    pub record: String,
    /// A's score: `54.2%`.
    pub score: String,
    /// With games counted: the Elo and its 95% margin (`+12.3 +/- 4.5`), or, when one engine
    /// scored every point, the bound the games prove at 95% (`> +316.6`, `< -316.6`).
    pub elo: Option<String>,
    /// With games counted: the likelihood that A is the stronger, `71.3%`.
    pub los: Option<String>,
    /// With complete pairs: their counts by A's score in them, `[0, 1, 3, 1, 0]`.
    pub pairs: Option<String>,
    /// When finite: the pairs' Elo and their normalized Elo, each with its margin.
    pub pair_elo: Option<[String; 2]>,
    /// With an SPRT and complete pairs: what it says.
    pub sprt: Option<SprtFigures>,
    /// With a forfeit: each engine's, `A 1, B 0`.
    pub forfeits: Option<String>,
    /// Games that were no contest.
    pub no_contest: u64,
}

/// The SPRT's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtFigures {
    /// Its hypotheses: `SPRT nElo0=0 nElo1=5`.
    pub name: String,
    /// The LLR and the bounds: `LLR 1.234 (-2.944, 2.944)`.
    pub llr: String,
    /// The verdict on the LLR.
    pub verdict: Verdict,
}

impl Figures {
    /// The figures of `totals` between engines `names`, with `sprt`'s if given.
    pub fn of(totals: &Totals, names: [&str; 2], sprt: Option<Sprt>) -> Figures {
        let t = totals;
        let n = t.games();
        let score = if n == 0 {
            0.0
        } else {
            100.0 * (t.wins as f64 + 0.5 * t.draws as f64) / n as f64
        };
        let trinomial = [t.losses, t.draws, t.wins];
        let pairs = t.pairs.iter().sum::<u64>();
        Figures {
            names: names.map(str::to_string),
            games: n,
            record: format!("+{} ={} -{}", t.wins, t.draws, t.losses),
            score: format!("{score:.1}%"),
            elo: (n > 0).then(|| match stats::finite_elo(&trinomial) {
                Some(e) => e.to_string(),
                None => {
                    // What the winner is at least, and so the loser at most.
                    let bound = stats::one_sided_bound(n).unwrap_or(0.0);
                    if t.wins == n {
                        format!("> {bound:+.1}")
                    } else {
                        format!("< {:+.1}", -bound)
                    }
                }
            }),
            los: (n > 0).then(|| format!("{:.1}%", 100.0 * stats::los(t.wins, t.losses))),
            pairs: (pairs > 0).then(|| format!("{:?}", t.pairs)),
            pair_elo: stats::finite_elo(&t.pairs)
                .map(|e| [e.to_string(), stats::normalized_elo(&t.pairs).to_string()]),
            // The verdict even when every pair went one way (no finite Elo): the SPRT that
            // stopped the match says so.
            sprt: sprt.filter(|_| pairs > 0).map(|s| {
                let llr = s.llr(&t.pairs);
                let (lower, upper) = s.bounds();
                SprtFigures {
                    name: format!("SPRT nElo0={} nElo1={}", s.elo0, s.elo1),
                    llr: format!("LLR {llr:.3} ({lower:.3}, {upper:.3})"),
                    verdict: s.verdict(llr),
                }
            }),
            forfeits: (t.forfeits != [0, 0]).then(|| {
                format!(
                    "{} {}, {} {}",
                    names[0], t.forfeits[0], names[1], t.forfeits[1]
                )
            }),
            no_contest: t.no_contest,
        }
    }

    /// The lines the referee prints at a match's end.
    pub fn lines(&self) -> Vec<String> {
        let [a, b] = &self.names;
        let mut lines = vec![format!(
            "{a} vs {b}: {} games, {}, score {}",
            self.games, self.record, self.score
        )];
        if let (Some(elo), Some(los)) = (&self.elo, &self.los) {
            lines.push(format!("Elo {elo} (95%), LOS {los}"));
        }
        match (&self.pairs, &self.pair_elo) {
            (Some(pairs), Some([elo, nelo])) => lines.push(format!(
                "pairs (0, 1/2, 1, 3/2, 2 points): {pairs}; Elo {elo}, normalized Elo {nelo}"
            )),
            (Some(pairs), None) => lines.push(format!("pairs (0, 1/2, 1, 3/2, 2 points): {pairs}")),
            (None, _) => {}
        }
        if let Some(s) = &self.sprt {
            let verdict = match s.verdict {
                Verdict::Continue => String::new(),
                decided => format!(" {decided}"),
            };
            lines.push(format!("{}: {}{verdict}", s.name, s.llr));
        }
        if let Some(forfeits) = &self.forfeits {
            lines.push(format!("forfeits: {forfeits}"));
        }
        if self.no_contest > 0 {
            lines.push(format!(
                "no contest: {} games (not counted)",
                self.no_contest
            ));
        }
        lines
    }

    /// The rows of the report page's table: (what, value).
    pub fn rows(&self) -> Vec<(String, String)> {
        let mut rows = vec![
            ("games".to_string(), self.games.to_string()),
            (format!("{} W / D / L", self.names[0]), self.record.clone()),
            ("score".to_string(), self.score.clone()),
        ];
        if let (Some(elo), Some(los)) = (&self.elo, &self.los) {
            rows.push(("Elo (95%)".to_string(), elo.clone()));
            rows.push(("LOS".to_string(), los.clone()));
        }
        if let Some(pairs) = &self.pairs {
            rows.push((
                "pairs (0, 1/2, 1, 3/2, 2 points)".to_string(),
                pairs.clone(),
            ));
        }
        if let Some([elo, nelo]) = &self.pair_elo {
            rows.push(("pair Elo".to_string(), elo.clone()));
            rows.push(("normalized Elo".to_string(), nelo.clone()));
        }
        if let Some(s) = &self.sprt {
            rows.push((s.name.clone(), format!("{} {}", s.llr, s.verdict)));
        }
        if let Some(forfeits) = &self.forfeits {
            rows.push(("forfeits".to_string(), forfeits.clone()));
        }
        if self.no_contest > 0 {
            rows.push(("no contest".to_string(), self.no_contest.to_string()));
        }
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt() -> Sprt {
        Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    #[test]
    fn the_lines_and_the_rows_show_the_same_figures() {
        let totals = Totals {
            wins: 7,
            draws: 2,
            losses: 3,
            pairs: [0, 1, 2, 2, 1],
            forfeits: [0, 1],
            no_contest: 1,
        };
        let f = Figures::of(&totals, ["a", "b"], Some(sprt()));
        let lines = f.lines();
        let e = stats::elo(&[3, 2, 7]);
        assert_eq!(lines[0], "a vs b: 12 games, +7 =2 -3, score 66.7%");
        assert_eq!(
            lines[1],
            format!(
                "Elo {:+.1} +/- {:.1} (95%), LOS {}",
                e.elo,
                e.margin,
                f.los.clone().unwrap()
            )
        );
        assert!(lines[2].starts_with("pairs (0, 1/2, 1, 3/2, 2 points): [0, 1, 2, 2, 1]; Elo +"));
        assert!(
            lines[3].starts_with("SPRT nElo0=0 nElo1=5: LLR "),
            "{lines:?}"
        );
        assert_eq!(lines[4], "forfeits: a 0, b 1");
        assert_eq!(lines[5], "no contest: 1 games (not counted)");
        // Every value in the rows is in the lines, as the lines write it.
        let rows = f.rows();
        for (what, value) in &rows {
            let value = value.trim_end_matches(" undecided");
            let shown = match what.as_str() {
                "games" => lines[0].contains(&format!("{value} games")),
                "no contest" => lines[5].contains(&format!("{value} games")),
                _ => lines.iter().any(|l| l.contains(value)),
            };
            assert!(shown, "{what}: {value} not in {lines:?}");
        }
        assert_eq!(rows.len(), 11, "{rows:?}");
    }

    #[test]
    fn an_even_match_is_zero_elo_without_a_sign() {
        let totals = Totals {
            wins: 2,
            draws: 1,
            losses: 2,
            pairs: [0, 0, 1, 1, 0],
            ..Totals::default()
        };
        let f = Figures::of(&totals, ["a", "b"], None);
        let elo = f.elo.clone().unwrap();
        assert!(elo.starts_with("0.0 +/- "), "{elo}");
        assert!(f.lines()[1].starts_with("Elo 0.0 +/- "), "{:?}", f.lines());
        assert!(!f.lines().concat().contains("-0.0"), "{:?}", f.lines());
    }

    #[test]
    fn one_sided_matches_show_the_bound_they_prove_in_either_layout() {
        let totals = Totals {
            wins: 4,
            pairs: [0, 0, 0, 0, 2],
            ..Totals::default()
        };
        let f = Figures::of(&totals, ["a", "b"], Some(sprt()));
        // 0.05^(1/4) = 0.4729: four wins prove little.
        assert_eq!(f.lines()[1], "Elo > -18.9 (95%), LOS 97.7%");
        assert_eq!(
            f.lines()[2],
            "pairs (0, 1/2, 1, 3/2, 2 points): [0, 0, 0, 0, 2]"
        );
        let rows = f.rows();
        assert!(rows.contains(&("Elo (95%)".to_string(), "> -18.9".to_string())));
        assert!(!rows.iter().any(|r| r.0 == "pair Elo"), "{rows:?}");
        assert_eq!(f.pair_elo, None);
        let lost = Totals {
            losses: 20,
            pairs: [10, 0, 0, 0, 0],
            ..Totals::default()
        };
        let f = Figures::of(&lost, ["a", "b"], None);
        assert_eq!(f.lines()[1], "Elo < -316.6 (95%), LOS 0.0%");
    }

    #[test]
    fn a_match_won_in_every_pair_still_gives_the_sprt_verdict() {
        let totals = Totals {
            wins: 150,
            pairs: [0, 0, 0, 0, 75],
            ..Totals::default()
        };
        let sprt10 = Sprt {
            elo1: 10.0,
            ..sprt()
        };
        let f = Figures::of(&totals, ["a", "b"], Some(sprt10));
        assert_eq!(f.sprt.as_ref().unwrap().verdict, Verdict::AcceptH1);
        assert!(f.lines()[1].starts_with("Elo > +"), "{:?}", f.lines());
        assert!(f.lines().last().unwrap().ends_with(") H1 accepted"));
        assert!(f.rows().last().unwrap().1.ends_with(") H1 accepted"));
        let even = Totals {
            wins: 1,
            losses: 1,
            pairs: [0, 0, 1, 0, 0],
            ..Totals::default()
        };
        let f = Figures::of(&even, ["a", "b"], Some(sprt()));
        assert_eq!(f.sprt.as_ref().unwrap().verdict, Verdict::Continue);
        assert!(f.lines().last().unwrap().ends_with(')'), "{:?}", f.lines());
        assert!(f.rows().last().unwrap().1.ends_with(") undecided"));
    }
}
