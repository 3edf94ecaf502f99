//! An engine as a command line names it: the KEY=VALUE words of `--engine` (the referee's and
//! `awari serve`'s) and the time controls they and `--tc` write, each checked with an error
//! that names the word; and the check, before any game, that the engine named starts here.

use super::limit::Limit;
use super::process::Spec;
use std::path::PathBuf;
use std::time::Duration;

/// Longest clock period, increment or move time: a week, in seconds.
pub const MAX_SECONDS: f64 = 7.0 * 86_400.0;
/// Deepest fixed depth.
pub const MAX_DEPTH: u32 = 1000;
/// Most moves per clock period.
pub const MAX_MOVES_PER_PERIOD: u32 = 10_000;

/// What is wrong with an engine's words or a time control, or why the engine named cannot
/// start: each says the word at fault, for a person, as the command line prints it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WordError {
    /// A time control that is not `[moves/]seconds[+increment]` within the bounds (`engine`:
    /// given as an `--engine` word).
    Tc {
        /// The text given.
        text: String,
        /// Given as an `--engine tc=` word.
        engine: bool,
    },
    /// An `--engine` word that is not `KEY=VALUE`.
    NotKeyValue(String),
    /// An unknown key.
    UnknownKey(String),
    /// A `dir=` that is not a directory: the word.
    NotADirectory(String),
    /// A number outside its range: the word, and the range.
    Number {
        /// The flag and word.
        word: String,
        /// The least and the most.
        range: (String, String),
    },
    /// An option's value with a line break: the word.
    LineBreak(String),
    /// No `cmd=`: the words.
    NoCommand(String),
    /// The engine cannot be started here.
    CannotStart {
        /// Its name.
        name: String,
        /// Why.
        why: String,
        /// Its `cmd=` has no `/`, so it was looked up on the `PATH`.
        looked_up: bool,
    },
}

impl std::fmt::Display for WordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WordError::Tc { text, engine } => write!(
                f,
                "{}tc {text}: expected [moves/]seconds[+increment], e.g. 10+0.1 (moves 1 to \
                 {MAX_MOVES_PER_PERIOD}, seconds above 0 and at most {MAX_SECONDS})",
                if *engine { "--engine " } else { "" }
            ),
            WordError::NotKeyValue(word) => write!(f, "--engine {word}: expected KEY=VALUE"),
            WordError::UnknownKey(key) => write!(f, "--engine: unknown key '{key}'"),
            WordError::NotADirectory(w) => write!(f, "{w}: not a directory"),
            WordError::Number { word, range } => write!(
                f,
                "{word}: expected a whole number from {} to {}",
                range.0, range.1
            ),
            WordError::LineBreak(w) => write!(f, "{w}: a value cannot hold a line break"),
            WordError::NoCommand(words) => write!(f, "--engine {words}: cmd=PATH is required"),
            WordError::CannotStart {
                name,
                why,
                looked_up,
            } => write!(
                f,
                "engine {name} cannot be started here: {why}{}",
                if *looked_up {
                    "; a cmd= without a / is looked up on the PATH"
                } else {
                    ""
                }
            ),
        }
    }
}

impl std::error::Error for WordError {}

/// The commands speak in words: the error is its sentence.
impl From<WordError> for String {
    fn from(e: WordError) -> String {
        e.to_string()
    }
}

/// Seconds as a duration, within `0..=MAX_SECONDS`.
fn seconds(text: &str) -> Option<Duration> {
    let v: f64 = text.parse().ok()?;
    if !(0.0..=MAX_SECONDS).contains(&v) {
        return None;
    }
    Duration::try_from_secs_f64(v).ok()
}

/// Parses `[moves/]seconds[+increment]`: 1 to 10,000 moves, a period of more than 0 and at
/// most a week, an increment of at most a week.
pub fn parse_tc(text: &str) -> Result<Limit, WordError> {
    let bad = || WordError::Tc {
        text: text.to_string(),
        engine: false,
    };
    let (moves, rest) = match text.split_once('/') {
        Some((m, r)) => {
            let m = m.parse::<u32>().map_err(|_| bad())?;
            if !(1..=MAX_MOVES_PER_PERIOD).contains(&m) {
                return Err(bad());
            }
            (Some(m), r)
        }
        None => (None, text),
    };
    let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
    let base = seconds(base).ok_or_else(bad)?;
    if base.is_zero() {
        return Err(bad());
    }
    Ok(Limit::Clock {
        moves,
        base,
        inc: seconds(inc).ok_or_else(bad)?,
    })
}

/// A number of `what` within `range`, or an error naming the word.
fn number<T>(word: &str, value: &str, range: std::ops::RangeInclusive<T>) -> Result<T, WordError>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    match value.parse::<T>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(WordError::Number {
            word: word.to_string(),
            range: (range.start().to_string(), range.end().to_string()),
        }),
    }
}

/// An engine from its KEY=VALUE words (`cmd=`, `name=`, `dir=`, `arg=`, `option.NAME=` and a
/// limit: `tc=`, `movetime=`, `depth=`, `nodes=`), with its limit: `limit` unless it names its
/// own.
pub fn engine(words: &[String], limit: Limit) -> Result<(Spec, Limit), WordError> {
    let mut spec = Spec::default();
    let mut own_limit = None;
    for word in words {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| WordError::NotKeyValue(word.clone()))?;
        let w = format!("--engine {word}");
        match key {
            "cmd" => spec.command = PathBuf::from(value),
            "name" => spec.name = value.to_string(),
            "dir" => {
                let dir = PathBuf::from(value);
                if !dir.is_dir() {
                    return Err(WordError::NotADirectory(w));
                }
                spec.dir = Some(dir);
            }
            "arg" => spec.args.push(value.to_string()),
            "tc" => {
                let tc = parse_tc(value).map_err(|_| WordError::Tc {
                    text: value.to_string(),
                    engine: true,
                })?;
                own_limit = Some(tc);
            }
            "movetime" => {
                let ms = number(&w, value, 1..=604_800_000u64)?;
                own_limit = Some(Limit::MoveTime(Duration::from_millis(ms)));
            }
            "depth" => own_limit = Some(Limit::Depth(number(&w, value, 1..=MAX_DEPTH)?)),
            "nodes" => own_limit = Some(Limit::Nodes(number(&w, value, 1..=u64::MAX)?)),
            _ => match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => {
                    if value.contains(['\n', '\r']) {
                        return Err(WordError::LineBreak(w));
                    }
                    spec.options.push((name.to_string(), value.to_string()))
                }
                _ => return Err(WordError::UnknownKey(key.to_string())),
            },
        }
    }
    if spec.command.as_os_str().is_empty() {
        return Err(WordError::NoCommand(words.join(" ")));
    }
    if spec.name.is_empty() {
        spec.name = spec
            .command
            .file_name()
            .map_or("engine".to_string(), |n| n.to_string_lossy().into_owned());
    }
    Ok((spec, own_limit.unwrap_or(limit)))
}

/// Whether the engine `spec` names can be started here ([`super::process::can_start`]),
/// checked before it is needed: an engine that cannot start would lose every game of a match,
/// or fail only when a page chooses it. The error names the engine and the command, and says
/// that a `cmd=` without a `/` is looked up on the `PATH`.
pub fn check_start(spec: &Spec) -> Result<(), WordError> {
    super::process::can_start(spec).map_err(|why| WordError::CannotStart {
        name: spec.name.clone(),
        why,
        looked_up: spec.command.components().count() == 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        let clock = |moves, base: u64, inc: u64| Limit::Clock {
            moves,
            base: Duration::from_millis(base),
            inc: Duration::from_millis(inc),
        };
        assert_eq!(parse_tc("10+0.1"), Ok(clock(None, 10_000, 100)));
        assert_eq!(parse_tc("40/60"), Ok(clock(Some(40), 60_000, 0)));
        assert_eq!(parse_tc("0.5"), Ok(clock(None, 500, 0)));
        for bad in [
            "", "0", "1e19", "inf", "NaN", "-1", "10+-1", "0/10", "20000/10", "x/10", "10+",
            "604801", "10+1e9",
        ] {
            assert!(parse_tc(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn engine_words() {
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let default = Limit::Depth(3);
        let (spec, limit) =
            engine(&words(&["cmd=/bin/x", "arg=-v", "option.Hash=64"]), default).unwrap();
        assert_eq!(spec.name, "x");
        assert_eq!(spec.options, vec![("Hash".to_string(), "64".to_string())]);
        assert_eq!(limit, default);
        let (_, limit) = engine(&words(&["cmd=x", "depth=4"]), default).unwrap();
        assert_eq!(limit, Limit::Depth(4));
        for (bad, says) in [
            (&["cmd=x", "depth=4294967296"][..], "from 1 to 1000"),
            (&["cmd=x", "depth=0"], "from 1 to 1000"),
            (&["cmd=x", "nodes=-1"], "whole number"),
            (&["cmd=x", "movetime=1e3"], "whole number"),
            (&["cmd=x", "tc=1e19"], "tc 1e19"),
            (
                &["cmd=x", "dir=/nonexistent/dir"],
                "dir=/nonexistent/dir: not a directory",
            ),
            (&["name=x"], "cmd=PATH is required"),
            (&["cmd=x", "colour=red"], "unknown key"),
            (&["cmd=x", "option.A=1\n2"], "line break"),
        ] {
            match engine(&words(bad), default) {
                Err(e) => assert!(e.to_string().contains(says), "{bad:?}: {e}"),
                Ok(_) => panic!("{bad:?} accepted"),
            }
        }
    }
}
