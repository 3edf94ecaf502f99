//! What an engine says, typed: the one parser of engine replies that the referee's games,
//! `referee check` and the page share. Only validated values come out of it: a score is a number, never
//! the engine's text, so nothing an engine writes reaches a record unchecked.

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

/// The fields of an `info` line the referee keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// `depth N`.
    pub depth: Option<u32>,
    /// `score cp N` or `score mate N`.
    pub score: Option<EngineScore>,
}

/// One line from an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply<'a> {
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `id name ...`.
    IdName(&'a str),
    /// `bestmove M [ponder P]`: the move as written (the rules read it).
    BestMove(&'a str),
    /// `info ...`.
    Info(Info),
    /// `option name ...`: an option the engine offers, announced before `uciok`.
    Option(EngineOption<'a>),
    /// Anything else (ignored).
    Other,
}

impl<'a> Reply<'a> {
    /// Reads one line. Values that are not numbers are left out of an `info`, never kept as
    /// text.
    pub fn parse(line: &'a str) -> Reply<'a> {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("uciok") => Reply::UciOk,
            Some("readyok") => Reply::ReadyOk,
            Some("id") if words.next() == Some("name") => {
                let rest = line.trim_start()["id".len()..].trim_start()["name".len()..].trim();
                Reply::IdName(rest)
            }
            Some("bestmove") => Reply::BestMove(words.next().unwrap_or("")),
            Some("option") => match EngineOption::parse(line) {
                Some(option) => Reply::Option(option),
                None => Reply::Other,
            },
            Some("info") => {
                let words: Vec<&str> = words.collect();
                let mut info = Info::default();
                let mut i = 0;
                while i < words.len() {
                    match words[i] {
                        // The rest of the line is free text.
                        "string" => break,
                        "depth" => {
                            if let Some(Ok(d)) = words.get(i + 1).map(|w| w.parse()) {
                                info.depth = Some(d);
                            }
                        }
                        "score" => {
                            let n = words.get(i + 2).map(|w| w.parse::<i32>());
                            match (words.get(i + 1).copied(), n) {
                                (Some("cp"), Some(Ok(n))) => info.score = Some(EngineScore::Cp(n)),
                                (Some("mate"), Some(Ok(n))) => {
                                    info.score = Some(EngineScore::Mate(n))
                                }
                                _ => {}
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                Reply::Info(info)
            }
            _ => Reply::Other,
        }
    }
}

/// An `option` line: `option name N type T [default D] [min A] [max B] [var V]...`. Its name,
/// default and vars may hold spaces: each runs up to the next keyword. A number that does not
/// parse leaves its bound out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption<'a> {
    /// `name`.
    pub name: &'a str,
    /// `type` (`check`, `spin`, `combo`, `button`, `string`), as written.
    pub kind: Option<&'a str>,
    /// `default`, as written (an empty `<empty>` string stays as written too).
    pub default: Option<&'a str>,
    /// `min`, for a `spin`.
    pub min: Option<i64>,
    /// `max`, for a `spin`.
    pub max: Option<i64>,
    /// Each `var`, for a `combo`.
    pub vars: Vec<&'a str>,
}

impl<'a> EngineOption<'a> {
    /// Reads an `option` line; `None` when it names no option.
    fn parse(line: &'a str) -> Option<EngineOption<'a>> {
        const KEYWORDS: [&str; 6] = ["name", "type", "default", "min", "max", "var"];
        // Each word with where it starts, so that a value of several words is one slice.
        let base = line.as_ptr() as usize;
        let words: Vec<(usize, &'a str)> = line
            .split_whitespace()
            .map(|w| (w.as_ptr() as usize - base, w))
            .collect();
        let mut option = EngineOption {
            name: "",
            kind: None,
            default: None,
            min: None,
            max: None,
            vars: Vec::new(),
        };
        let mut i = 1;
        while i < words.len() {
            let key = words[i].1;
            let start = i + 1;
            let mut end = start;
            while end < words.len() && !KEYWORDS.contains(&words[end].1) {
                end += 1;
            }
            let value = match (words.get(start), words.get(end - 1)) {
                (Some(&(from, _)), Some(&(to, last))) if end > start => {
                    &line[from..to + last.len()]
                }
                _ => "",
            };
            match key {
                "name" => option.name = value,
                "type" => option.kind = Some(value),
                "default" => option.default = Some(value),
                "min" => option.min = value.parse().ok(),
                "max" => option.max = value.parse().ok(),
                "var" => option.vars.push(value),
                _ => {}
            }
            i = end.max(start);
        }
        (!option.name.is_empty()).then_some(option)
    }
}

/// The reply a command waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// `uciok`, after `uci`.
    UciOk,
    /// `readyok`, after `isready`.
    ReadyOk,
    /// `bestmove`, after `go` (or `stop`).
    BestMove,
}

impl Expect {
    /// Whether `reply` is the one expected.
    pub fn matches(self, reply: &Reply<'_>) -> bool {
        matches!(
            (self, reply),
            (Expect::UciOk, Reply::UciOk)
                | (Expect::ReadyOk, Reply::ReadyOk)
                | (Expect::BestMove, Reply::BestMove(_))
        )
    }
}

impl fmt::Display for Expect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Expect::UciOk => "uciok",
            Expect::ReadyOk => "readyok",
            Expect::BestMove => "bestmove",
        })
    }
}

/// An engine's text made safe to quote in a record: control characters replaced, at most
/// 60 characters.
pub fn quote(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(60)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().count() > 60 {
        out.push_str("...");
    }
    format!("{out:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies() {
        let rows = [
            ("uciok", Reply::UciOk),
            ("readyok  ", Reply::ReadyOk),
            ("id name awari 0.1", Reply::IdName("awari 0.1")),
            ("bestmove C ponder a", Reply::BestMove("C")),
            ("bestmove", Reply::BestMove("")),
            (
                "info depth 7 seldepth 9 score cp -35 nodes 100 pv CaE",
                Reply::Info(Info {
                    depth: Some(7),
                    score: Some(EngineScore::Cp(-35)),
                }),
            ),
            (
                "info score mate 3 depth 12",
                Reply::Info(Info {
                    depth: Some(12),
                    score: Some(EngineScore::Mate(3)),
                }),
            ),
            // Not numbers: left out, never kept as text.
            (
                "info depth x score cp 5} {",
                Reply::Info(Info {
                    depth: None,
                    score: None,
                }),
            ),
            (
                "info depth 4294967296 score cp 99999999999",
                Reply::Info(Info::default()),
            ),
            (
                "info string depth 3 score cp 1",
                Reply::Info(Info::default()),
            ),
            ("frobnicate", Reply::Other),
            ("", Reply::Other),
        ];
        for (line, expected) in rows {
            assert_eq!(Reply::parse(line), expected, "{line:?}");
        }
    }

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

    #[test]
    fn expected_replies() {
        let rows = [
            (Expect::UciOk, "uciok", true),
            (Expect::UciOk, "uciokay", false),
            (Expect::ReadyOk, " readyok ", true),
            (Expect::ReadyOk, "info string readyok", false),
            (Expect::BestMove, "bestmove C ponder a", true),
            (Expect::BestMove, "bestmoves C", false),
            (Expect::BestMove, "info string bestmove C", false),
        ];
        for (expect, line, matches) in rows {
            assert_eq!(
                expect.matches(&Reply::parse(line)),
                matches,
                "{expect} {line:?}"
            );
        }
    }

    #[test]
    fn quoting() {
        assert_eq!(quote("bestmove A\r}"), "\"bestmove A?}\"");
        assert!(quote(&"x".repeat(100)).ends_with("...\""));
    }

    #[test]
    fn option_lines() {
        let spin = EngineOption {
            name: "MultiPV",
            kind: Some("spin"),
            default: Some("1"),
            min: Some(1),
            max: Some(6),
            vars: vec![],
        };
        let combo = EngineOption {
            name: "Opening Book",
            kind: Some("combo"),
            default: Some("a b"),
            min: None,
            max: None,
            vars: vec!["a b", "none"],
        };
        let cases: [(&str, Reply<'_>); 5] = [
            (
                "option name MultiPV type spin default 1 min 1 max 6",
                Reply::Option(spin),
            ),
            (
                "option  name Opening Book type combo default a b var a b var none",
                Reply::Option(combo),
            ),
            (
                "option name Hash type spin default 16 min x max 99999999999",
                Reply::Option(EngineOption {
                    name: "Hash",
                    kind: Some("spin"),
                    default: Some("16"),
                    min: None,
                    max: Some(99_999_999_999),
                    vars: vec![],
                }),
            ),
            ("option type spin", Reply::Other),
            ("option", Reply::Other),
        ];
        for (line, want) in cases {
            assert_eq!(Reply::parse(line), want, "{line}");
        }
    }
}
