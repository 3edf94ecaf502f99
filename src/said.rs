//! What an engine says that the program keeps, as checked values: a score ([`EngineScore`])
//! and, for a move it played, the last of its thinking about it ([`Said`]). A room of its own,
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

/// What an engine said of a move it played, as a record keeps it: the last depth and score of
/// its best line (the first of its `multipv` lines), each left out when it gave none. The
/// engine client folds an engine's `info` lines into one (`crate::client::thinking`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Said {
    /// The last score of its best line.
    pub score: Option<EngineScore>,
    /// The last depth of its best line.
    pub depth: Option<u32>,
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
}
