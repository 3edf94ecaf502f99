//! The line protocol's text, parsed into typed commands with `nom`. Parsing only reads the
//! line: whether a position or a move is legal is checked afterwards, against the rules.
//!
//! As UCI asks, an unknown word is skipped and the rest of the line read: words before the
//! command (`joho debug on` is `debug on`) and unknown arguments of `go` (`go fast depth 5`
//! is `go depth 5`). What was skipped is returned, so the loop can say so. Everything else is
//! strict: a known keyword missing its number, or junk after a command that takes no
//! arguments, refuses the whole line, so a typo never starts a different search.

use crate::search::time::Limits;
use nom::branch::alt;
use nom::bytes::complete::{take_till1, take_while1};
use nom::character::complete::{char, digit1};
use nom::combinator::{eof, map, map_res, opt, peek, recognize, rest, value};
use nom::sequence::{pair, preceded, terminated};
use nom::IResult;
use std::fmt;

/// One line of input, typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command<'a> {
    /// A blank line: nothing to do.
    Empty,
    /// `uci`
    Uci,
    /// `debug on|off`
    Debug(bool),
    /// `isready`
    IsReady,
    /// `setoption name N [value V]`
    SetOption {
        /// The name as typed (may hold spaces).
        name: &'a str,
        /// The value as typed, if any.
        value: Option<&'a str>,
    },
    /// `register ...`: accepted and ignored, as UCI allows.
    Register,
    /// `ucinewgame`
    UciNewGame,
    /// `position startpos|fen F [moves M]`
    Position {
        /// Where the game starts.
        start: Start<'a>,
        /// The move list as typed (concatenated or spaced); empty for none.
        moves: &'a str,
    },
    /// `go ...`
    Go(Go),
    /// `stop`
    Stop,
    /// `ponderhit`
    PonderHit,
    /// `quit`
    Quit,
    /// `d`: the board, for people.
    Display,
    /// `eval`: the evaluation and its terms.
    Eval,
    /// `bench [depth]`
    Bench(Option<u32>),
    /// `help`
    Help,
}

/// The start of `position`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start<'a> {
    /// `startpos`: the variant's start.
    StartPos,
    /// `fen F`: a position in the notation of protocol.md.
    Fen(&'a str),
}

/// The arguments of `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// Depth, nodes, time limits, `infinite`, `ponder`.
    pub limits: Limits,
    /// `go perft D`: count the tree instead of searching.
    pub perft: Option<u32>,
    /// `go searchmoves M...`: the root moves to search, as typed (words joined by a space),
    /// to be read and checked against the position.
    pub searchmoves: Option<String>,
}

/// A line read as UCI reads it: its command, and the unknown words skipped on the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed<'a> {
    /// The command.
    pub command: Command<'a>,
    /// Unknown words skipped, in order: before the command, or among `go`'s arguments.
    pub skipped: Vec<&'a str>,
}

/// Why a line could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The command word (or the unknown word).
    pub command: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.command, self.message)
    }
}

impl std::error::Error for ParseError {}

fn is_space(c: char) -> bool {
    c.is_whitespace()
}

/// One or more blanks (spaces, tabs; a CR before the line end too).
fn ws(i: &str) -> IResult<&str, &str> {
    take_while1(is_space)(i)
}

/// A word: the text up to the next blank.
fn word(i: &str) -> IResult<&str, &str> {
    take_till1(is_space)(i)
}

/// A keyword standing alone as a word.
fn keyword<'a>(k: &'static str) -> impl FnMut(&'a str) -> IResult<&'a str, &'a str> {
    move |i: &'a str| {
        let (rest, w) = word(i)?;
        if w == k {
            Ok((rest, w))
        } else {
            Err(nom::Err::Error(nom::error::Error::new(
                i,
                nom::error::ErrorKind::Tag,
            )))
        }
    }
}

/// An unsigned number that fits its type (overflow is an error, not a wrap), as a whole word.
fn unsigned<T: std::str::FromStr>(i: &str) -> IResult<&str, T> {
    terminated(map_res(digit1, str::parse), peek(alt((ws, eof))))(i)
}

/// A clock or an increment, as a whole word: from -2^63 (GUIs send negative clocks after an
/// overstep) to 2^64-1 (what an unsigned clock can hold, some GUIs' "no limit"). Above 2^63-1
/// it is read as 2^63-1 milliseconds, which no game outlasts (292 million years).
fn clock(i: &str) -> IResult<&str, i64> {
    let in_range = |text: &str| {
        let n = text.parse::<i128>().map_err(|_| ())?;
        if n < i128::from(i64::MIN) || n > i128::from(u64::MAX) {
            return Err(());
        }
        Ok(n.min(i128::from(i64::MAX)) as i64)
    };
    terminated(
        map_res(recognize(pair(opt(char('-')), digit1)), in_range),
        peek(alt((ws, eof))),
    )(i)
}

/// Blanks then the end of the line.
fn end(i: &str) -> IResult<&str, &str> {
    preceded(opt(ws), eof)(i)
}

/// Parses one line (without its line break; a trailing CR is allowed). Unknown words before
/// the first command word are skipped; a line with no command word is an unknown command.
pub fn parse(line: &str) -> Result<Parsed<'_>, ParseError> {
    let line = line.trim_matches(is_space);
    let mut skipped = Vec::new();
    let mut rest_of = line;
    loop {
        let Ok((args, w)) = word(rest_of) else {
            return match skipped.first() {
                None => Ok(Parsed {
                    command: Command::Empty,
                    skipped,
                }),
                Some(&first) => Err(ParseError {
                    command: first.to_string(),
                    message: "unknown command (try 'help')".to_string(),
                }),
            };
        };
        if let Some(parsed) = command(w, args) {
            let (command, mut more) = parsed?;
            skipped.append(&mut more);
            return Ok(Parsed { command, skipped });
        }
        skipped.push(w);
        rest_of = args.trim_start_matches(is_space);
    }
}

/// One command from its word and the text after it, with `go`'s skipped arguments; `None`
/// when `command` is not a command word. The `match` below is the one list of command words.
fn command<'a>(
    command: &'a str,
    args: &'a str,
) -> Option<Result<(Command<'a>, Vec<&'a str>), ParseError>> {
    let fail = |message: String| ParseError {
        command: command.to_string(),
        message,
    };
    let bare = |c: Command<'a>| {
        if args.trim().is_empty() {
            Ok((c, Vec::new()))
        } else {
            Err(fail(format!("takes no arguments, got '{}'", args.trim())))
        }
    };
    let none = |r: Result<Command<'a>, String>| r.map(|c| (c, Vec::new())).map_err(fail);
    Some(match command {
        "uci" => bare(Command::Uci),
        "isready" => bare(Command::IsReady),
        "ucinewgame" => bare(Command::UciNewGame),
        "stop" => bare(Command::Stop),
        "ponderhit" => bare(Command::PonderHit),
        "quit" => bare(Command::Quit),
        "d" => bare(Command::Display),
        "eval" => bare(Command::Eval),
        "help" => bare(Command::Help),
        "register" => Ok((Command::Register, Vec::new())),
        "debug" => none(debug(args)),
        "bench" => none(bench(args)),
        "setoption" => none(setoption(args)),
        "position" => none(position(args)),
        "go" => go(args).map_err(fail),
        _ => return None,
    })
}

fn debug(args: &str) -> Result<Command<'_>, String> {
    let on = alt((value(true, keyword("on")), value(false, keyword("off"))));
    match preceded(ws, on)(args).and_then(|(i, on)| end(i).map(|_| on)) {
        Ok(on) => Ok(Command::Debug(on)),
        Err(_) => Err("expected 'on' or 'off'".to_string()),
    }
}

fn bench(args: &str) -> Result<Command<'_>, String> {
    let mut depth = opt(preceded(ws, unsigned::<u32>));
    match depth(args).and_then(|(i, d)| end(i).map(|_| d)) {
        Ok(d) => Ok(Command::Bench(d)),
        Err(_) => Err(format!("expected an optional depth, got '{}'", args.trim())),
    }
}

/// `setoption name <name...> [value <value...>]`: names and values may hold spaces.
fn setoption(args: &str) -> Result<Command<'_>, String> {
    let Ok((after, _)) = preceded(ws, keyword("name"))(args) else {
        return Err("expected 'name <option> [value <value>]'".to_string());
    };
    // The name runs to the word `value`, which must stand alone.
    let mut name = after;
    let mut value = None;
    let mut rest_of = after;
    while let Ok((r, _)) = ws(rest_of) {
        let Ok((r2, w)) = word(r) else { break };
        if w == "value" {
            name = &after[..after.len() - rest_of.len()];
            value = Some(r2.trim_matches(is_space));
            break;
        }
        rest_of = r2;
    }
    let name = name.trim_matches(is_space);
    if name.is_empty() {
        return Err("the option name is missing".to_string());
    }
    Ok(Command::SetOption { name, value })
}

/// `position startpos|fen <notation> [moves <list>]`.
fn position(args: &str) -> Result<Command<'_>, String> {
    let start = alt((
        map(keyword("startpos"), |_| None),
        map(preceded(pair(keyword("fen"), ws), word), Some),
    ));
    let Ok((after, fen)) = preceded(ws, start)(args) else {
        return Err("expected 'startpos' or 'fen <position>'".to_string());
    };
    let start = fen.map_or(Start::StartPos, Start::Fen);
    if end(after).is_ok() {
        return Ok(Command::Position { start, moves: "" });
    }
    match preceded(pair(ws, keyword("moves")), rest)(after) {
        Ok((_, moves)) => Ok(Command::Position {
            start,
            moves: moves.trim_matches(is_space),
        }),
        Err(_) => Err(format!(
            "expected 'moves <list>' after the position, got '{}'",
            after.trim()
        )),
    }
}

/// The keywords of UCI's `go`, those this engine knows and `mate`, which it skips: each ends
/// the move list of a `searchmoves` before it.
const GO_KEYWORDS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// `go` with its arguments in any order; a repeated one takes the last value. Unknown words
/// are skipped (and returned). `searchmoves` takes every word up to the next keyword as its
/// moves (none is an error), never skipping one: a word that is not a move refuses the `go`
/// once it is checked against the position, since ignoring it would search moves the GUI
/// excluded.
fn go(mut args: &str) -> Result<(Command<'static>, Vec<&str>), String> {
    let mut go = Go::default();
    let mut skipped = Vec::new();
    loop {
        if end(args).is_ok() {
            return Ok((Command::Go(go), skipped));
        }
        let Ok((after, key)) = preceded(ws, word)(args) else {
            return Err(format!("cannot read '{}'", args.trim()));
        };
        let number = |i| preceded(ws, unsigned::<u64>)(i).map_err(|_| needs(key, after));
        let clock = |i| preceded(ws, clock)(i).map_err(|_| needs(key, after));
        let l = &mut go.limits;
        args = match key {
            "infinite" => {
                l.infinite = true;
                after
            }
            "ponder" => {
                l.ponder = true;
                after
            }
            "depth" | "perft" | "movestogo" => {
                let (r, n) = preceded(ws, unsigned::<u32>)(after).map_err(|_| needs(key, after))?;
                match key {
                    "depth" => l.depth = Some(n),
                    "perft" => go.perft = Some(n),
                    _ => l.movestogo = Some(n),
                }
                r
            }
            "nodes" => {
                let (r, n) = number(after)?;
                l.nodes = Some(n);
                r
            }
            "movetime" => {
                let (r, n) = number(after)?;
                l.movetime = Some(n);
                r
            }
            "wtime" | "btime" | "winc" | "binc" => {
                let (r, n) = clock(after)?;
                match key {
                    "wtime" => l.time[0] = Some(n),
                    "btime" => l.time[1] = Some(n),
                    "winc" => l.inc[0] = Some(n),
                    _ => l.inc[1] = Some(n),
                }
                r
            }
            "searchmoves" => {
                let mut words = Vec::new();
                let mut r = after;
                while let Ok((next, w)) = preceded(ws, word)(r) {
                    if GO_KEYWORDS.contains(&w) {
                        break;
                    }
                    words.push(w);
                    r = next;
                }
                if words.is_empty() {
                    return Err("'searchmoves' needs at least one move".to_string());
                }
                go.searchmoves = Some(words.join(" "));
                r
            }
            _ => {
                skipped.push(key);
                after
            }
        };
    }
}

/// The message for a keyword missing its number.
fn needs(key: &str, after: &str) -> String {
    let found = after.split_whitespace().next().unwrap_or("nothing");
    format!("'{key}' needs a number that fits, got '{found}'")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyword_is_a_whole_word() {
        assert!(keyword("fen")("fence").is_err());
        assert_eq!(keyword("fen")("fen x"), Ok((" x", "fen")));
    }
}
