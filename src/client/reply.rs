//! What an engine says, typed: the one parser of engine replies that the referee's games,
//! `referee check`, the page and the Python client (through `awari._native`) share. Only
//! validated values come out of it: a score is a number, never the engine's text, so nothing an
//! engine writes reaches a record unchecked. The texts it keeps (moves, a variation, a name, an
//! `info string`) are slices of the line, which their users check or quote.
//! `tests/data/replies.json` is the table of lines it is tested on, with the Python binding.

use crate::said::{EngineScore, Worth};
use std::fmt;

/// Which side of the true score an engine's score is, when it is only a bound (`score cp 35
/// lowerbound`): an aspiration search that failed high or low says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// `lowerbound`: the score is at least this.
    Lower,
    /// `upperbound`: the score is at most this.
    Upper,
}

/// The fields of an `info` line, each number checked. The variation and the move being
/// searched stay the engine's text, borrowed from the line, for the rules to read: this room
/// knows nothing of moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Info<'a> {
    /// `depth N`.
    pub depth: Option<u32>,
    /// `seldepth N`: the deepest ply reached, extensions included.
    pub seldepth: Option<u32>,
    /// `time N`: milliseconds searched.
    pub time: Option<u64>,
    /// `score cp N` or `score mate N`.
    pub score: Option<EngineScore>,
    /// `lowerbound` or `upperbound` right after the score's number: the score is only a bound.
    /// A later score replaces it (with its own bound or none).
    pub bound: Option<ScoreBound>,
    /// `tables` right after the score (and its bound, if any): the score is the endgame
    /// tables' proven result, 100 times its seed margin (protocol.md, "Answers from the
    /// engine"). A later score replaces it (with its own mark or none). [`Info::worth`] reads
    /// the two together.
    pub tables: bool,
    /// `multipv K`: which of the engine's best lines this is.
    pub multipv: Option<u32>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `nps N`: nodes per second.
    pub nps: Option<u64>,
    /// `hashfull N`: how full the hash table is, in permille.
    pub hashfull: Option<u32>,
    /// `tbhits N`: endgame table probes that found a value.
    pub tbhits: Option<u64>,
    /// `currmove M`: the move being searched, as written (one word).
    pub currmove: Option<&'a str>,
    /// `pv ...`: the variation's moves as written, from its first word to its last (`""` when
    /// `pv` names none). It runs up to the next keyword of an `info` line or the line's end.
    pub pv: Option<&'a str>,
    /// `string ...`: the rest of the line after the word `string`, trimmed (`""` when none).
    pub string: Option<&'a str>,
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
    /// What the line's score says the position is worth (the side to move's view): the
    /// tables' proven result where the score is marked `tables` and is exact, an estimate or a
    /// `mate` otherwise. A bound is never a proven result. `None` without a score.
    pub fn worth(&self) -> Option<Worth> {
        let score = self.score?;
        Some(Worth::of(score, self.tables && self.bound.is_none()))
    }

    /// Reads an `info` line (its first word is `info`). A value that is not a number of its
    /// kind is left out and does not replace an earlier one; the value of a field read is not
    /// taken for a keyword, and a keyword is not taken for a value; `string` ends the line's
    /// fields, since the rest is free text.
    fn parse(line: &'a str) -> Info<'a> {
        // Each word with where it starts, so that a variation of several words is one slice.
        let words: Vec<(usize, &'a str)> = words_at(line).skip(1).collect();
        let mut info = Info::default();
        let word = |i: usize| words.get(i).map(|&(_, w)| w);
        let mut i = 0;
        while let Some(key) = word(i) {
            let value = word(i + 1);
            // How many words the field took, its key among them.
            let took = match key {
                "string" => {
                    let at = words[i].0 + key.len();
                    info.string = Some(line[at..].trim());
                    break;
                }
                "depth" => read(&mut info.depth, value),
                "seldepth" => read(&mut info.seldepth, value),
                "time" => read(&mut info.time, value),
                "multipv" => read(&mut info.multipv, value),
                "nodes" => read(&mut info.nodes, value),
                "nps" => read(&mut info.nps, value),
                "hashfull" => read(&mut info.hashfull, value),
                "tbhits" => read(&mut info.tbhits, value),
                "currmove" => match value {
                    Some(m) if !INFO_KEYWORDS.contains(&m) => {
                        info.currmove = Some(m);
                        2
                    }
                    _ => 1,
                },
                "score" => {
                    let n = word(i + 2).map(str::parse::<i32>);
                    let score = match (value, n) {
                        (Some("cp"), Some(Ok(n))) => Some(EngineScore::Cp(n)),
                        (Some("mate"), Some(Ok(n))) => Some(EngineScore::Mate(n)),
                        _ => None,
                    };
                    match score {
                        Some(score) => {
                            info.score = Some(score);
                            info.bound = match word(i + 3) {
                                Some("lowerbound") => Some(ScoreBound::Lower),
                                Some("upperbound") => Some(ScoreBound::Upper),
                                _ => None,
                            };
                            let at = i + 3 + usize::from(info.bound.is_some());
                            info.tables = word(at) == Some("tables");
                            at - i + usize::from(info.tables)
                        }
                        None => 1,
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
                    1 + moves
                }
                _ => 1,
            };
            i += took;
        }
        info
    }
}

/// Reads a field's number into `field` when `value` is one of its kind, and says how many
/// words the field took: 2, or 1 when the value is missing or not a number, so that the word
/// after the key is read as a key.
fn read<T: std::str::FromStr>(field: &mut Option<T>, value: Option<&str>) -> usize {
    match value.map(str::parse) {
        Some(Ok(n)) => {
            *field = Some(n);
            2
        }
        _ => 1,
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
    /// `bestmove M [ponder P]`: the move as written (`""` when none; the rules read it), and
    /// the ponder move as written, when the line names one.
    BestMove(&'a str, Option<&'a str>),
    /// `info ...`.
    Info(Info<'a>),
    /// `option name ...`: an option the engine offers, announced before `uciok`.
    Option(EngineOption<'a>),
    /// Anything else (ignored).
    Other,
}

impl<'a> Reply<'a> {
    /// Reads one line. Values that are not numbers are left out of an `info`; of its text only
    /// the variation, the move searched and the free `string` are kept.
    pub fn parse(line: &'a str) -> Reply<'a> {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("uciok") => Reply::UciOk,
            Some("readyok") => Reply::ReadyOk,
            Some("id") if words.next() == Some("name") => {
                let rest = line.trim_start()["id".len()..].trim_start()["name".len()..].trim();
                Reply::IdName(rest)
            }
            Some("bestmove") => {
                let mv = words.next().unwrap_or("");
                let ponder = match (words.next(), words.next()) {
                    (Some("ponder"), Some(p)) => Some(p),
                    _ => None,
                };
                Reply::BestMove(mv, ponder)
            }
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
                | (Expect::BestMove, Reply::BestMove(..))
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

    /// A row of `tests/data/replies.json`, the table of replies that this reader and the Python
    /// binding's (`python/tests/test_reply.py`) both run: a line and every field read from it.
    /// A field the row leaves out is one the reader must not give.
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Row {
        case: String,
        line: String,
        reply: String,
        depth: Option<u32>,
        seldepth: Option<u32>,
        time: Option<u64>,
        score: Option<EngineScore>,
        bound: Option<String>,
        /// The score marked `tables`.
        tables: Option<bool>,
        multipv: Option<u32>,
        nodes: Option<u64>,
        nps: Option<u64>,
        hashfull: Option<u32>,
        tbhits: Option<u64>,
        currmove: Option<String>,
        pv: Option<String>,
        /// The variation read as moves: the binding's, which reads `pv` with the rules.
        moves: Option<Vec<String>>,
        string: Option<String>,
        #[serde(rename = "move")]
        mv: Option<String>,
        ponder: Option<String>,
        name: Option<String>,
        #[serde(rename = "type")]
        kind: Option<String>,
        default: Option<String>,
        min: Option<i64>,
        max: Option<i64>,
        var: Option<Vec<String>>,
    }

    impl Row {
        /// What the reader must give for the row's line.
        fn expected(&self) -> Reply<'_> {
            let name = self.name.as_deref().unwrap_or_default();
            match self.reply.as_str() {
                "uciok" => Reply::UciOk,
                "readyok" => Reply::ReadyOk,
                "id" => Reply::IdName(name),
                "bestmove" => {
                    Reply::BestMove(self.mv.as_deref().unwrap_or(""), self.ponder.as_deref())
                }
                "info" => Reply::Info(Info {
                    depth: self.depth,
                    seldepth: self.seldepth,
                    time: self.time,
                    score: self.score,
                    bound: self.bound.as_deref().map(|b| match b {
                        "lower" => ScoreBound::Lower,
                        "upper" => ScoreBound::Upper,
                        _ => panic!("{}: bound {b:?} is neither lower nor upper", self.case),
                    }),
                    tables: self.tables.unwrap_or(false),
                    multipv: self.multipv,
                    nodes: self.nodes,
                    nps: self.nps,
                    hashfull: self.hashfull,
                    tbhits: self.tbhits,
                    currmove: self.currmove.as_deref(),
                    pv: self.pv.as_deref(),
                    string: self.string.as_deref(),
                }),
                "option" => Reply::Option(EngineOption {
                    name,
                    kind: self.kind.as_deref(),
                    default: self.default.as_deref(),
                    min: self.min,
                    max: self.max,
                    vars: self.var.iter().flatten().map(String::as_str).collect(),
                }),
                "other" => Reply::Other,
                other => panic!("{}: no reply is called {other:?}", self.case),
            }
        }
    }

    /// Every line of the shared table read as the table says.
    #[test]
    fn replies() {
        let table = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/replies.json"
        ));
        let rows: Vec<Row> = serde_json::from_str(table).expect("tests/data/replies.json reads");
        assert!(rows.len() > 50, "{} rows", rows.len());
        for row in &rows {
            assert!(
                row.moves.is_none() || row.pv.is_some(),
                "{}: moves without a pv",
                row.case
            );
            assert_eq!(
                Reply::parse(&row.line),
                row.expected(),
                "{}: {:?}",
                row.case,
                row.line
            );
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
}
