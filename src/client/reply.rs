//! What an engine says, typed: the one parser of engine replies that the referee's games,
//! `referee check` and the page share. Only validated values come out of it: a score is a number, never
//! the engine's text, so nothing an engine writes reaches a record unchecked.

use crate::said::EngineScore;
use std::fmt;

/// The fields of an `info` line that the referee and the page keep. Each number is checked;
/// the variation stays the engine's text, borrowed from the line, for the rules to read (the
/// page plays it on its board; nothing else reads it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Info<'a> {
    /// `depth N`.
    pub depth: Option<u32>,
    /// `score cp N` or `score mate N`.
    pub score: Option<EngineScore>,
    /// `multipv K`: which of the engine's best lines this is.
    pub multipv: Option<u32>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `pv ...`: the variation's moves as written, from its first word to its last (`""` when
    /// `pv` names none). It runs up to the next keyword of an `info` line or the line's end.
    pub pv: Option<&'a str>,
}

/// The words an `info` line's fields start with, as the UCI protocol lists them: a variation
/// ends at one.
const INFO_KEYWORDS: [&str; 20] = [
    "depth",
    "seldepth",
    "time",
    "nodes",
    "pv",
    "multipv",
    "score",
    "lowerbound",
    "upperbound",
    "wdl",
    "currmove",
    "currmovenumber",
    "hashfull",
    "nps",
    "tbhits",
    "sbhits",
    "cpuload",
    "string",
    "refutation",
    "currline",
];

impl<'a> Info<'a> {
    /// Reads an `info` line (its first word is `info`). A value that is not a number of its
    /// kind is left out and does not replace an earlier one; the value of a field read is not
    /// taken for a keyword; `string` ends the line's fields, since the rest is free text.
    fn parse(line: &'a str) -> Info<'a> {
        // Each word with where it starts, so that a variation of several words is one slice.
        let words: Vec<(usize, &'a str)> = words_at(line).skip(1).collect();
        let mut info = Info::default();
        let word = |i: usize| words.get(i).map(|&(_, w)| w);
        let mut i = 0;
        while let Some(key) = word(i) {
            // How many words the field took, its key among them.
            let mut took = 1;
            match key {
                "string" => break,
                "depth" => {
                    if let Some(Ok(n)) = word(i + 1).map(str::parse) {
                        info.depth = Some(n);
                        took = 2;
                    }
                }
                "multipv" => {
                    if let Some(Ok(n)) = word(i + 1).map(str::parse) {
                        info.multipv = Some(n);
                        took = 2;
                    }
                }
                "nodes" => {
                    if let Some(Ok(n)) = word(i + 1).map(str::parse) {
                        info.nodes = Some(n);
                        took = 2;
                    }
                }
                "score" => {
                    let n = word(i + 2).map(str::parse::<i32>);
                    let score = match (word(i + 1), n) {
                        (Some("cp"), Some(Ok(n))) => Some(EngineScore::Cp(n)),
                        (Some("mate"), Some(Ok(n))) => Some(EngineScore::Mate(n)),
                        _ => None,
                    };
                    if score.is_some() {
                        info.score = score;
                        took = 3;
                    }
                }
                "pv" => {
                    let moves = words[i + 1..]
                        .iter()
                        .take_while(|(_, w)| !INFO_KEYWORDS.contains(w))
                        .count();
                    info.pv = Some(match (words.get(i + 1), words.get(i + moves)) {
                        (Some(&(from, _)), Some(&(to, last))) if moves > 0 => {
                            &line[from..to + last.len()]
                        }
                        _ => "",
                    });
                    took = 1 + moves;
                }
                _ => {}
            }
            i += took;
        }
        info
    }
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
    Info(Info<'a>),
    /// `option name ...`: an option the engine offers, announced before `uciok`.
    Option(EngineOption<'a>),
    /// Anything else (ignored).
    Other,
}

impl<'a> Reply<'a> {
    /// Reads one line. Values that are not numbers are left out of an `info`; of its text only
    /// the variation is kept, for the rules to read.
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
            Some("info") => Reply::Info(Info::parse(line)),
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
        let words: Vec<(usize, &'a str)> = words_at(line).collect();
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

/// `line`'s words, each with the byte offset where it starts: a value of several words is then
/// one slice of the line.
fn words_at(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let base = line.as_ptr() as usize;
    line.split_whitespace()
        .map(move |w| (w.as_ptr() as usize - base, w))
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
                "info depth 7 score cp -35",
                Reply::Info(Info {
                    depth: Some(7),
                    score: Some(EngineScore::Cp(-35)),
                    ..Info::default()
                }),
            ),
            ("info", Reply::Info(Info::default())),
            ("infos depth 7", Reply::Other),
            ("frobnicate", Reply::Other),
            ("", Reply::Other),
        ];
        for (line, expected) in rows {
            assert_eq!(Reply::parse(line), expected, "{line:?}");
        }
    }

    /// `info` lines, each with the fields read from it.
    #[test]
    fn info_lines() {
        let cp = |n| Some(EngineScore::Cp(n));
        let rows: [(&str, Info<'_>); 21] = [
            (
                "info depth 7 seldepth 9 multipv 2 score cp -35 nodes 100 nps 5 time 20 pv C a E",
                Info {
                    depth: Some(7),
                    score: cp(-35),
                    multipv: Some(2),
                    nodes: Some(100),
                    pv: Some("C a E"),
                },
            ),
            (
                "info score mate -3 depth 12 pv CaE",
                Info {
                    depth: Some(12),
                    score: Some(EngineScore::Mate(-3)),
                    pv: Some("CaE"),
                    ..Info::default()
                },
            ),
            // A variation at the end, its spacing kept; the line's own trailing space not.
            (
                "info\tdepth 3   pv  F  e\tA  ",
                Info {
                    depth: Some(3),
                    pv: Some("F  e\tA"),
                    ..Info::default()
                },
            ),
            // A variation ends at the next keyword.
            (
                "info pv F e depth 4 score cp 5 lowerbound",
                Info {
                    depth: Some(4),
                    score: cp(5),
                    pv: Some("F e"),
                    ..Info::default()
                },
            ),
            (
                "info score cp 20 upperbound pv A",
                Info {
                    score: cp(20),
                    pv: Some("A"),
                    ..Info::default()
                },
            ),
            // `pv` naming no move.
            (
                "info depth 3 pv",
                Info {
                    depth: Some(3),
                    pv: Some(""),
                    ..Info::default()
                },
            ),
            (
                "info pv multipv 2",
                Info {
                    multipv: Some(2),
                    pv: Some(""),
                    ..Info::default()
                },
            ),
            // The rest of the line after `string` is free text.
            ("info string depth 3 score cp 1 pv F", Info::default()),
            (
                "info depth 3 string pv F",
                Info {
                    depth: Some(3),
                    ..Info::default()
                },
            ),
            (
                "info depth 3 pv F e string depth 9",
                Info {
                    depth: Some(3),
                    pv: Some("F e"),
                    ..Info::default()
                },
            ),
            // Values that are not numbers of their kind: left out, never kept as text.
            ("info depth x score cp 5} {", Info::default()),
            (
                "info depth 4294967296 score cp 99999999999 nodes 18446744073709551616",
                Info::default(),
            ),
            ("info depth -1 multipv -2 nodes -3", Info::default()),
            ("info multipv x nodes 1e3 score mate 1.5", Info::default()),
            ("info score points 5 score cp", Info::default()),
            ("info depth", Info::default()),
            // A bad value leaves an earlier good one as it was.
            (
                "info depth 5 score cp 1 depth x score cp y",
                Info {
                    depth: Some(5),
                    score: cp(1),
                    ..Info::default()
                },
            ),
            // A later good value replaces an earlier one.
            (
                "info depth 5 depth 6 multipv 1 multipv 3",
                Info {
                    depth: Some(6),
                    multipv: Some(3),
                    ..Info::default()
                },
            ),
            // A field's value is not read as a keyword; a missing one lets the next word be.
            (
                "info nodes depth 3",
                Info {
                    depth: Some(3),
                    ..Info::default()
                },
            ),
            (
                "info multipv 18446744073709551615 nodes 18446744073709551615",
                Info {
                    nodes: Some(u64::MAX),
                    ..Info::default()
                },
            ),
            (
                "info currmove A currmovenumber 1 hashfull 3 tbhits 0 wdl 1 2 3 depth 2",
                Info {
                    depth: Some(2),
                    ..Info::default()
                },
            ),
        ];
        for (line, expected) in rows {
            assert_eq!(Reply::parse(line), Reply::Info(expected), "{line:?}");
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
