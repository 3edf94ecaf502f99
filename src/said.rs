//! What an engine says that the program keeps, as checked values: a score ([`EngineScore`]),
//! what that score says a position is worth ([`Worth`]: an estimate, or a result proven by a
//! search, the endgame tables or the game's end) and, for a move it played, the last of its
//! thinking about it ([`Said`]). A room of its own,
//! above the engine client that reads these values from an engine's lines and the records that
//! write them down, so that a record needs nothing of the process client. It imports nothing
//! of the crate.

use std::fmt;

/// A score as an engine reports it (in JSON: `{"cp":35}`, `{"mate":-3}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineScore {
    /// Centi-seeds from the side to move's point of view.
    Cp(i32),
    /// A forced win (positive) or loss (negative) in this many moves.
    Mate(i32),
}

impl fmt::Display for EngineScore {
    /// `cp 35`, `mate -3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineScore::Cp(n) => write!(f, "cp {n}"),
            EngineScore::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

impl std::str::FromStr for EngineScore {
    type Err = String;

    /// Reads what [`EngineScore`]'s `Display` writes (`cp 35`, `mate -3`), or the same with a colon.
    fn from_str(text: &str) -> Result<EngineScore, String> {
        let mut words = text.split([' ', ':']);
        let score = match (words.next(), words.next().map(str::parse::<i32>)) {
            (Some("cp"), Some(Ok(n))) => EngineScore::Cp(n),
            (Some("mate"), Some(Ok(n))) => EngineScore::Mate(n),
            _ => return Err(format!("not a score: {text:?}")),
        };
        match words.next() {
            None => Ok(score),
            Some(_) => Err(format!("not a score: {text:?}")),
        }
    }
}

/// A result by the rules, for one side: proven results compare by it, worst first, so that a
/// result kept or bettered is `>=` the one before.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// The side loses.
    Loss,
    /// Neither side wins.
    Draw,
    /// The side wins.
    Win,
}

impl Verdict {
    /// The result of ending `margin` seeds ahead (negative: behind): the side with more seeds
    /// wins, as every rule set here has it.
    pub fn of_margin(margin: i32) -> Verdict {
        match margin.signum() {
            1 => Verdict::Win,
            -1 => Verdict::Loss,
            _ => Verdict::Draw,
        }
    }

    /// The same result for the other side.
    pub fn flipped(self) -> Verdict {
        match self {
            Verdict::Win => Verdict::Loss,
            Verdict::Draw => Verdict::Draw,
            Verdict::Loss => Verdict::Win,
        }
    }
}

/// What a position is worth, as an engine said it, from the side to move's point of view: an
/// estimate, or a result that is proven. A score alone ([`EngineScore`]) cannot tell the
/// endgame tables' proven result from an estimate (both are `cp`, protocol.md, "Answers from
/// the engine"): whoever judges positions reads this instead, so that a proven result is never
/// weighed as a guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Worth {
    /// An estimate, in centi-seeds (100 a seed of store difference).
    Estimate(i32),
    /// A forced win (positive) or loss (negative) in this many plies; `mate 0` proves nothing.
    Mate(i32),
    /// The endgame tables' result: proven by the rules, with the seeds the side ends ahead
    /// (negative: behind) on the line shown.
    Tables {
        /// The proven result.
        result: Verdict,
        /// The seed margin.
        margin: i32,
    },
    /// The game is over: its result, and the seeds the side to move ended ahead.
    Over {
        /// The result.
        result: Verdict,
        /// The seed margin (stores).
        margin: i32,
    },
}

impl Worth {
    /// What an engine's score says: `tables` when the engine marked it as the endgame tables'
    /// result (`score cp 800 tables`). Such a score is 100 times the seed margin, so one that
    /// is not a whole number of seeds, or a `mate`, is read as it is, unmarked.
    pub fn of(score: EngineScore, tables: bool) -> Worth {
        match score {
            EngineScore::Cp(n) if tables && n % 100 == 0 => Worth::Tables {
                result: Verdict::of_margin(n),
                margin: n / 100,
            },
            EngineScore::Cp(n) => Worth::Estimate(n),
            EngineScore::Mate(n) => Worth::Mate(n),
        }
    }

    /// The proven result for the side to move, `None` for an estimate (and `mate 0`).
    pub fn proven(self) -> Option<Verdict> {
        match self {
            Worth::Estimate(_) => None,
            Worth::Mate(n) => match n.signum() {
                1 => Some(Verdict::Win),
                -1 => Some(Verdict::Loss),
                _ => None,
            },
            Worth::Tables { result, .. } | Worth::Over { result, .. } => Some(result),
        }
    }

    /// The score a reader of scores alone keeps (a record): a result as its margin in `cp`.
    pub fn score(self) -> EngineScore {
        match self {
            Worth::Estimate(n) => EngineScore::Cp(n),
            Worth::Mate(n) => EngineScore::Mate(n),
            Worth::Tables { margin, .. } | Worth::Over { margin, .. } => {
                EngineScore::Cp(margin.saturating_mul(100))
            }
        }
    }

    /// The same worth from the other side's point of view.
    pub fn flipped(self) -> Worth {
        match self {
            Worth::Estimate(n) => Worth::Estimate(n.saturating_neg()),
            Worth::Mate(n) => Worth::Mate(n.saturating_neg()),
            Worth::Tables { result, margin } => Worth::Tables {
                result: result.flipped(),
                margin: margin.saturating_neg(),
            },
            Worth::Over { result, margin } => Worth::Over {
                result: result.flipped(),
                margin: margin.saturating_neg(),
            },
        }
    }
}

/// What an engine said of a move it played, as a record keeps it: the last depth and score of
/// its best line (the first of its `multipv` lines), each left out when it gave none, and
/// whether that score was the endgame tables' proven result. The engine client folds an
/// engine's `info` lines into one (`crate::client::thinking`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Said {
    /// The last score of its best line.
    pub score: Option<EngineScore>,
    /// The last depth of its best line.
    pub depth: Option<u32>,
    /// Whether the last score was marked as the endgame tables' result (`score cp 800
    /// tables`, exact): a proven result, not an estimate.
    pub tables: bool,
}

impl Said {
    /// What the last score says the position was worth, `None` without one.
    pub fn worth(&self) -> Option<Worth> {
        self.score.map(|score| Worth::of(score, self.tables))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_back() {
        for s in [
            EngineScore::Cp(0),
            EngineScore::Cp(-35),
            EngineScore::Mate(7),
            EngineScore::Mate(-2),
        ] {
            assert_eq!(s.to_string().parse::<EngineScore>(), Ok(s));
            assert_eq!(
                s.to_string().replace(' ', ":").parse::<EngineScore>(),
                Ok(s)
            );
        }
        for bad in ["cp", "cp x", "cp 5}", "mate 1 2", "depth 3"] {
            assert!(bad.parse::<EngineScore>().is_err(), "{bad}");
        }
    }

    /// Rows of (what, score, marked `tables`?) -> the worth read, and what it proves.
    #[test]
    fn a_marked_score_is_a_proven_result() {
        use Verdict::{Draw, Loss, Win};
        let rows = [
            (
                "an estimate",
                EngineScore::Cp(800),
                false,
                Worth::Estimate(800),
                None,
            ),
            (
                "a tables win",
                EngineScore::Cp(800),
                true,
                Worth::Tables {
                    result: Win,
                    margin: 8,
                },
                Some(Win),
            ),
            (
                "a tables draw",
                EngineScore::Cp(0),
                true,
                Worth::Tables {
                    result: Draw,
                    margin: 0,
                },
                Some(Draw),
            ),
            (
                "a tables loss",
                EngineScore::Cp(-200),
                true,
                Worth::Tables {
                    result: Loss,
                    margin: -2,
                },
                Some(Loss),
            ),
            (
                "not whole seeds",
                EngineScore::Cp(250),
                true,
                Worth::Estimate(250),
                None,
            ),
            (
                "a mate",
                EngineScore::Mate(3),
                true,
                Worth::Mate(3),
                Some(Win),
            ),
            (
                "a mated side",
                EngineScore::Mate(-4),
                false,
                Worth::Mate(-4),
                Some(Loss),
            ),
            ("mate 0", EngineScore::Mate(0), false, Worth::Mate(0), None),
        ];
        for (what, score, tables, want, proven) in rows {
            let got = Worth::of(score, tables);
            assert_eq!(got, want, "{what}");
            assert_eq!(got.proven(), proven, "{what}");
            assert_eq!(got.score(), score, "{what}");
            assert_eq!(got.flipped().flipped(), got, "{what}");
            assert_eq!(
                got.flipped().proven(),
                proven.map(Verdict::flipped),
                "{what}"
            );
        }
        let over = Worth::Over {
            result: Win,
            margin: 4,
        };
        assert_eq!(
            over.flipped(),
            Worth::Over {
                result: Loss,
                margin: -4
            }
        );
        assert_eq!(over.score(), EngineScore::Cp(400));
        assert!(Loss < Draw && Draw < Win);
    }
}
