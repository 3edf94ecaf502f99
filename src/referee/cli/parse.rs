//! The values written inside the flags: time controls (`--tc`, `tc=`), an engine's KEY=VALUE
//! words (`--engine`) and the SPRT's parameters (`--sprt`), each checked with an error that
//! names the word.

use super::{MAX_DEPTH, MAX_MOVES_PER_PERIOD, MAX_SECONDS};
use crate::client::limit::Limit;
use crate::client::process::Spec;
use crate::referee::runner::Contestant;
use crate::referee::stats::Sprt;
use std::path::PathBuf;
use std::time::Duration;

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
pub fn parse_tc(text: &str) -> Result<Limit, String> {
    let bad = || {
        format!(
            "tc {text}: expected [moves/]seconds[+increment], e.g. 10+0.1 (moves 1 to \
             {MAX_MOVES_PER_PERIOD}, seconds above 0 and at most {MAX_SECONDS})"
        )
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
fn number<T>(word: &str, value: &str, range: std::ops::RangeInclusive<T>) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    match value.parse::<T>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(format!(
            "{word}: expected a whole number from {} to {}",
            range.start(),
            range.end()
        )),
    }
}

/// An engine from its KEY=VALUE words; `limit` unless it names its own.
pub fn contestant(words: &[String], limit: Limit) -> Result<Contestant, String> {
    let mut spec = Spec::default();
    let mut own_limit = None;
    for word in words {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("--engine {word}: expected KEY=VALUE"))?;
        let w = format!("--engine {word}");
        match key {
            "cmd" => spec.command = PathBuf::from(value),
            "name" => spec.name = value.to_string(),
            "dir" => {
                let dir = PathBuf::from(value);
                if !dir.is_dir() {
                    return Err(format!("{w}: not a directory"));
                }
                spec.dir = Some(dir);
            }
            "arg" => spec.args.push(value.to_string()),
            "tc" => own_limit = Some(parse_tc(value).map_err(|e| format!("--engine {e}"))?),
            "movetime" => {
                let ms = number(&w, value, 1..=604_800_000u64)?;
                own_limit = Some(Limit::MoveTime(Duration::from_millis(ms)));
            }
            "depth" => own_limit = Some(Limit::Depth(number(&w, value, 1..=MAX_DEPTH)?)),
            "nodes" => own_limit = Some(Limit::Nodes(number(&w, value, 1..=u64::MAX)?)),
            _ => match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => {
                    if value.contains(['\n', '\r']) {
                        return Err(format!("{w}: a value cannot hold a line break"));
                    }
                    spec.options.push((name.to_string(), value.to_string()))
                }
                _ => return Err(format!("--engine: unknown key '{key}'")),
            },
        }
    }
    if spec.command.as_os_str().is_empty() {
        return Err(format!(
            "--engine {}: cmd=PATH is required",
            words.join(" ")
        ));
    }
    if spec.name.is_empty() {
        spec.name = spec
            .command
            .file_name()
            .map_or("engine".to_string(), |n| n.to_string_lossy().into_owned());
    }
    Ok(Contestant {
        spec,
        limit: own_limit.unwrap_or(limit),
    })
}

/// Parses `elo0=.. elo1=.. alpha=.. beta=..` (any of them; the rest default to 0, 5, 0.05,
/// 0.05): finite Elo values with elo0 below elo1, alpha and beta in (0, 1) with a sum below 1.
pub fn parse_sprt(words: &[String]) -> Result<Sprt, String> {
    let mut s = Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    for w in words {
        let (k, v) = w
            .split_once('=')
            .ok_or_else(|| format!("--sprt {w}: expected KEY=VALUE"))?;
        let v: f64 = v
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| format!("--sprt {w}: not a number"))?;
        match k {
            "elo0" if v.abs() <= 1000.0 => s.elo0 = v,
            "elo1" if v.abs() <= 1000.0 => s.elo1 = v,
            "alpha" if v > 0.0 && v < 1.0 => s.alpha = v,
            "beta" if v > 0.0 && v < 1.0 => s.beta = v,
            _ => {
                return Err(format!(
                    "--sprt {w}: expected elo0 or elo1 (-1000 to 1000), alpha or beta (in 0..1)"
                ))
            }
        }
    }
    s.check().map_err(|e| format!("--sprt: {e}"))?;
    Ok(s)
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
        let c = contestant(&words(&["cmd=/bin/x", "arg=-v", "option.Hash=64"]), default).unwrap();
        assert_eq!(c.spec.name, "x");
        assert_eq!(c.spec.options, vec![("Hash".to_string(), "64".to_string())]);
        assert_eq!(c.limit, default);
        let c = contestant(&words(&["cmd=x", "depth=4"]), default).unwrap();
        assert_eq!(c.limit, Limit::Depth(4));
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
            match contestant(&words(bad), default) {
                Err(e) => assert!(e.contains(says), "{bad:?}: {e}"),
                Ok(_) => panic!("{bad:?} accepted"),
            }
        }
    }

    #[test]
    fn sprt_parameters() {
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let s = parse_sprt(&words(&["elo0=1", "elo1=4", "alpha=0.1"])).unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (1.0, 4.0, 0.1, 0.05));
        for bad in [
            &["elo0=5", "elo1=5"][..],
            &["alpha=1"],
            &["beta=0"],
            &["elo1=inf"],
            &["elo1=NaN"],
            &["elo1=1e9"],
            &["gamma=1"],
            &["elo1"],
            &["alpha=0.5", "beta=0.5"],
            &["alpha=0.99", "beta=0.99"],
        ] {
            assert!(parse_sprt(&words(bad)).is_err(), "{bad:?}");
        }
    }
}
