//! The values written inside the flags: an engine's KEY=VALUE words (`--engine`, read by
//! [`crate::client::words`], which `awari serve` reads them with too) as a contestant, and the
//! SPRT's parameters (`--sprt`), each checked with an error that names the word.

use crate::client::limit::Limit;
use crate::client::words::engine;
use crate::referee::runner::Contestant;
use crate::referee::stats::Sprt;

/// An engine from its KEY=VALUE words ([`crate::client::words::engine`]); `limit` unless it
/// names its own.
pub fn contestant(words: &[String], limit: Limit) -> Result<Contestant, String> {
    let (spec, limit) = engine(words, limit)?;
    Ok(Contestant { spec, limit })
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
