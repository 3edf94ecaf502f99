//! Match statistics as chess engine testers know them from fishtest: Elo with a 95% interval,
//! likelihood of superiority, normalized Elo, and the generalized SPRT's log-likelihood ratio
//! for trinomial (loss, draw, win) and pentanomial (game-pair) results.
//!
//! The LLR follows fishtest's `LLRcalc.py`: the results are an empirical distribution over
//! scores; for each hypothesis the maximum-likelihood distribution that satisfies it is found
//! (a one-parameter family `p_i / (1 + x·φ_i)`, `x` solved by bisection), and the LLR is
//! `N · Σ p_i · ln(q1_i / q0_i)`. The tests reproduce fishtest's reference values.

use crate::record::{EloModel, SprtSettings};
use std::f64::consts::LN_10;

/// Zero counts are replaced by this, as fishtest does, so that every outcome keeps a little
/// probability (a zero would pin the maximum-likelihood distributions).
const REGULARIZE: f64 = 1e-3;

/// Normalized Elo per unit of `t` (the score's distance from 1/2 in standard deviations).
pub const NELO_PER_T: f64 = 800.0 / LN_10;

/// The two-sided 95% quantile of the normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Results as an empirical distribution: scores `a_i` (0..1) with probabilities `p_i`.
#[derive(Clone, Debug)]
struct Pdf {
    /// Number of trials (games, or pairs).
    count: f64,
    points: Vec<(f64, f64)>,
}

impl Pdf {
    /// Counts of losses..wins (3) or of pair scores 0, 1/2, 1, 3/2, 2 (5).
    fn of(counts: &[u64]) -> Pdf {
        let regular: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0 { REGULARIZE } else { c as f64 })
            .collect();
        let count: f64 = regular.iter().sum();
        let last = (counts.len() - 1) as f64;
        let points = regular
            .iter()
            .enumerate()
            .map(|(i, &c)| (i as f64 / last, c / count))
            .collect();
        Pdf { count, points }
    }

    /// Mean and variance.
    fn stats(points: &[(f64, f64)]) -> (f64, f64) {
        let n: f64 = points.iter().map(|p| p.1).sum();
        let mu = points.iter().map(|(a, p)| a * p).sum::<f64>() / n;
        let var = points
            .iter()
            .map(|(a, p)| p * (a - mu).powi(2))
            .sum::<f64>()
            / n;
        (mu, var)
    }
}

/// Solves `Σ p_i φ_i / (1 + x φ_i) = 0` for `x` with every `1 + x φ_i > 0` (the function is
/// decreasing there), by bisection; `None` when the `φ_i` do not take both signs, as then no
/// distribution has `Σ q_i φ_i = 0`.
fn secular(p: &[f64], phi: &[f64]) -> Option<f64> {
    let max = phi.iter().cloned().fold(f64::MIN, f64::max);
    let min = phi.iter().cloned().fold(f64::MAX, f64::min);
    if !(max > 0.0 && min < 0.0) {
        return None;
    }
    let f = |x: f64| {
        p.iter()
            .zip(phi)
            .map(|(p, v)| p * v / (1.0 + x * v))
            .sum::<f64>()
    };
    let (mut lo, mut hi) = (-1.0 / max, -1.0 / min);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The maximum-likelihood distribution near `pdf` whose mean is `s`.
fn mle_expected(pdf: &Pdf, s: f64) -> Vec<f64> {
    let p: Vec<f64> = pdf.points.iter().map(|x| x.1).collect();
    let phi: Vec<f64> = pdf.points.iter().map(|x| x.0 - s).collect();
    // Scores 0 and 1 are always among the points, and `s` lies strictly between them.
    let x = secular(&p, &phi).expect("an expected score lies strictly between 0 and 1");
    p.iter().zip(&phi).map(|(p, v)| p / (1.0 + x * v)).collect()
}

/// `(mean - reference) / sd` of the distribution `q` over the scores `a`.
fn t_value(a: &[f64], q: &[f64], reference: f64) -> f64 {
    let points: Vec<(f64, f64)> = a.iter().cloned().zip(q.iter().cloned()).collect();
    let (mu, var) = Pdf::stats(&points);
    (mu - reference) / var.sqrt()
}

/// `p` exponentially tilted towards high scores (`tilt > 0`) or low ones: `p_i · e^(tilt·a_i)`,
/// normalized (through the largest exponent, so that no term overflows).
fn tilted(a: &[f64], p: &[f64], tilt: f64) -> Vec<f64> {
    let logs: Vec<f64> = a.iter().zip(p).map(|(a, p)| p.ln() + tilt * a).collect();
    let top = logs.iter().cloned().fold(f64::MIN, f64::max);
    let w: Vec<f64> = logs.iter().map(|l| (l - top).exp()).collect();
    let sum: f64 = w.iter().sum();
    w.iter().map(|w| w / sum).collect()
}

/// A distribution near `p` whose t-value is `t`: `p` tilted until it is (bisection on the
/// tilt). Tilting moves the mass to either end, so the t-value reaches any value: the
/// tilt's bracket is widened until it holds `t`.
fn tilted_to_t(a: &[f64], p: &[f64], reference: f64, t: f64) -> Vec<f64> {
    let t_of = |tilt: f64| t_value(a, &tilted(a, p, tilt), reference);
    let (mut lo, mut hi) = (-1.0, 1.0);
    for _ in 0..64 {
        if t_of(lo) <= t {
            break;
        }
        lo *= 2.0;
    }
    for _ in 0..64 {
        if t_of(hi) >= t {
            break;
        }
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if t_of(mid) < t {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    tilted(a, p, 0.5 * (lo + hi))
}

/// The maximum-likelihood distribution near `pdf` whose `(mean - reference) / sd` is `t`.
///
/// fishtest's iteration, started from a distribution that satisfies the constraint: each step
/// solves the constraint linearized at the previous distribution, which has a solution when
/// that distribution satisfies it (the shifted gradient then has mean 0, so takes both
/// signs). fishtest's uniform start does not satisfy it, and for a `t` beyond about 0.9 (a few
/// hundred normalized Elo) its first step has no solution.
fn mle_t_value(pdf: &Pdf, reference: f64, t: f64) -> Vec<f64> {
    let p: Vec<f64> = pdf.points.iter().map(|x| x.1).collect();
    let a: Vec<f64> = pdf.points.iter().map(|x| x.0).collect();
    let mut q = tilted_to_t(&a, &p, reference, t);
    for _ in 0..100 {
        let points: Vec<(f64, f64)> = a.iter().cloned().zip(q.iter().cloned()).collect();
        let (mu, var) = Pdf::stats(&points);
        let sigma = var.sqrt();
        // The constraint's gradient, shifted so that its mean is 0 exactly when it holds.
        let phi: Vec<f64> = a
            .iter()
            .map(|ai| ai - reference - t * sigma * (1.0 + ((mu - ai) / sigma).powi(2)) / 2.0)
            .collect();
        // An iterate that strays far enough from the constraint to leave no solution ends
        // the iteration at the last distribution found.
        let Some(x) = secular(&p, &phi) else {
            break;
        };
        let next: Vec<f64> = p.iter().zip(&phi).map(|(p, v)| p / (1.0 + x * v)).collect();
        let change = next
            .iter()
            .zip(&q)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        q = next;
        if change < 1e-12 {
            break;
        }
    }
    q
}

fn llr(pdf: &Pdf, q0: &[f64], q1: &[f64]) -> f64 {
    pdf.count
        * pdf
            .points
            .iter()
            .zip(q0.iter().zip(q1))
            .map(|((_, p), (a, b))| p * (b / a).ln())
            .sum::<f64>()
}

/// The expected score of an Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of an expected score.
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The generalized SPRT's log-likelihood ratio of `elo1` against `elo0` (logistic Elo) for
/// `counts`: losses, draws, wins (3), or game pairs scoring 0, 1/2, 1, 3/2, 2 (5).
pub fn llr_logistic(elo0: f64, elo1: f64, counts: &[u64]) -> f64 {
    let pdf = Pdf::of(counts);
    let q0 = mle_expected(&pdf, score_of_elo(elo0));
    let q1 = mle_expected(&pdf, score_of_elo(elo1));
    llr(&pdf, &q0, &q1)
}

/// The same in normalized Elo (per game; a pair's standard deviation is √2 times a game's).
pub fn llr_normalized(nelo0: f64, nelo1: f64, counts: &[u64]) -> f64 {
    let pdf = Pdf::of(counts);
    let scale = if counts.len() == 5 { 2f64.sqrt() } else { 1.0 };
    let t = |nelo: f64| nelo / NELO_PER_T * scale;
    let q0 = mle_t_value(&pdf, 0.5, t(nelo0));
    let q1 = mle_t_value(&pdf, 0.5, t(nelo1));
    llr(&pdf, &q0, &q1)
}

/// An Elo estimate with its 95% half-interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The estimate.
    pub elo: f64,
    /// Half the width of the 95% interval.
    pub margin: f64,
}

/// `+12.3 +/- 4.5` with the precision given (1 decimal without one); an estimate that rounds
/// to zero shows none of the sign its floating point may carry: `0.0`, never `-0.0`.
impl std::fmt::Display for Estimate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let decimals = f.precision().unwrap_or(1);
        let elo = format!("{:+.*}", decimals, self.elo);
        let zero = elo[1..].bytes().all(|b| b == b'0' || b == b'.');
        let elo = if zero { &elo[1..] } else { &elo[..] };
        write!(f, "{elo} +/- {:.*}", decimals, self.margin)
    }
}

/// Elo from `counts` (3 or 5 as above), the interval from the score's standard error (for
/// pairs, the pairs' own variance: what pairing buys).
pub fn elo(counts: &[u64]) -> Estimate {
    let pdf = Pdf::of(counts);
    let (mu, var) = Pdf::stats(&pdf.points);
    let se = (var / pdf.count).sqrt();
    let elo = elo_of_score(mu);
    // The logistic's slope at the score turns a score interval into Elo.
    let slope = 400.0 / (LN_10 * mu * (1.0 - mu));
    Estimate {
        elo,
        margin: Z95 * se * slope,
    }
}

/// Elo from `counts` as [`elo`], or `None` when it is not finite: nothing counted, or one
/// side scored every point (all losses, or all wins).
pub fn finite_elo(counts: &[u64]) -> Option<Estimate> {
    let n: u64 = counts.iter().sum();
    let all_one_way = counts[0] == n || counts[counts.len() - 1] == n;
    if n == 0 || all_one_way {
        return None;
    }
    let e = elo(counts);
    (e.elo.is_finite() && e.margin.is_finite()).then_some(e)
}

/// The Elo difference that `games` games, every one won by the same engine, prove at 95%
/// (one-sided): the winner is at least this much stronger (the loser at most its negative).
/// A game's score lies in [0, 1], so with an expected score `s` a game is won with probability
/// at most `s` (Markov's inequality) and `games` independent games are all won with
/// probability at most `s^games`, draws or not; every `s` below `0.05^(1/games)` makes the
/// result less likely than 5%. `None` without games.
pub fn one_sided_bound(games: u64) -> Option<f64> {
    (games > 0).then(|| elo_of_score(0.05f64.powf(1.0 / games as f64)))
}

/// Normalized Elo from `counts`, with its 95% half-interval.
pub fn normalized_elo(counts: &[u64]) -> Estimate {
    let pdf = Pdf::of(counts);
    let (mu, var) = Pdf::stats(&pdf.points);
    let scale = if counts.len() == 5 { 2f64.sqrt() } else { 1.0 };
    let sigma = var.sqrt();
    let t = (mu - 0.5) / sigma / scale;
    let games = pdf.count * if counts.len() == 5 { 2.0 } else { 1.0 };
    Estimate {
        elo: t * NELO_PER_T,
        margin: Z95 * NELO_PER_T / games.sqrt(),
    }
}

/// Likelihood of superiority: the probability that the first engine is the stronger, from
/// its wins and losses (draws say nothing about it).
pub fn los(wins: u64, losses: u64) -> f64 {
    if wins + losses == 0 {
        return 0.5;
    }
    let (w, l) = (wins as f64, losses as f64);
    0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
}

/// The error function, by Abramowitz and Stegun's formula 7.1.26 (within 1.5e-7: plenty for a
/// likelihood shown as a percentage; std has no `erf`).
pub fn erf(x: f64) -> f64 {
    if x == 0.0 {
        return 0.0;
    }
    let sign = x.signum();
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// The SPRT's bounds on the LLR: accept H0 at or below `lower`, H1 at or above `upper`.
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// SPRT parameters (normalized Elo, on game pairs). With `alpha + beta < 1`, as the command
/// line requires, the lower bound is below 0 and the upper above it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// H0's normalized Elo.
    pub elo0: f64,
    /// H1's normalized Elo.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// What the SPRT says of an LLR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The LLR reached the lower bound.
    AcceptH0,
    /// The LLR reached the upper bound.
    AcceptH1,
    /// The LLR lies between the bounds: more games are needed.
    Continue,
}

impl Verdict {
    /// The hypothesis accepted, `H0` or `H1`, if either is.
    pub fn accepted(self) -> Option<&'static str> {
        match self {
            Verdict::AcceptH0 => Some("H0"),
            Verdict::AcceptH1 => Some("H1"),
            Verdict::Continue => None,
        }
    }
}

/// `H0 accepted`, `H1 accepted` or `undecided`.
impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.accepted() {
            Some(h) => write!(f, "{h} accepted"),
            None => f.write_str("undecided"),
        }
    }
}

impl Sprt {
    /// Whether the parameters make a test: Elo values within ±1000 with `elo1` above `elo0`,
    /// `alpha` and `beta` in 0..1 with a sum below 1 (from 1 on the bounds cross and the test
    /// decides on its first pair, whatever the games say). The error says what is wrong.
    pub fn check(&self) -> Result<(), crate::record::SprtError> {
        // One check for the command line's SPRT and a record's ([`SprtSettings::check`]).
        SprtSettings::from(*self).check()
    }

    /// The bounds on the LLR, lower and upper.
    pub fn bounds(&self) -> (f64, f64) {
        sprt_bounds(self.alpha, self.beta)
    }

    /// The LLR of complete pairs counted by A's score in them (0, 1/2, 1, 3/2, 2).
    pub fn llr(&self, pairs: &[u64; 5]) -> f64 {
        llr_normalized(self.elo0, self.elo1, pairs)
    }

    /// The verdict on `llr`: H1 at or above the upper bound, H0 at or below the lower, else
    /// continue. Every place that decides (the match that stops, the shards' verdict file,
    /// the reports) asks here.
    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::AcceptH1
        } else if llr <= lower {
            Verdict::AcceptH0
        } else {
            Verdict::Continue
        }
    }
}

// A record carries its SPRT's settings; the record room knows nothing of the statistics, so
// the conversions both ways live here.

impl From<Sprt> for SprtSettings {
    fn from(s: Sprt) -> SprtSettings {
        SprtSettings {
            elo0: s.elo0,
            elo1: s.elo1,
            alpha: s.alpha,
            beta: s.beta,
            model: EloModel::Normalized,
        }
    }
}

impl SprtSettings {
    /// The SPRT these settings describe.
    pub fn sprt(self) -> Sprt {
        match self.model {
            EloModel::Normalized => Sprt {
                elo0: self.elo0,
                elo1: self.elo1,
                alpha: self.alpha,
                beta: self.beta,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    /// fishtest's reference values (computed by its `LLRcalc.py`).
    #[test]
    fn fishtest_reference_values() {
        let pairs = [39, 8843, 26675, 9240, 44];
        let games = [22569, 44137, 22976];
        let n = llr_normalized(0.5, 2.5, &pairs);
        assert!(close(n, 2.941675, 5e-6), "pentanomial normalized LLR {n}");
        let l = llr_logistic(0.5, 2.5, &pairs);
        assert!(close(l, 0.555517, 5e-6), "pentanomial logistic LLR {l}");
        let g = llr_normalized(0.5, 2.5, &games);
        assert!(close(g, 1.058825, 5e-6), "trinomial normalized LLR {g}");
        let e = elo(&games);
        assert!(
            close(e.elo, 1.58, 0.005) && close(e.margin, 1.62, 0.005),
            "{e:?}"
        );
        let e = elo(&pairs);
        assert!(
            close(e.elo, 1.58, 0.005) && close(e.margin, 1.03, 0.005),
            "{e:?}"
        );
    }

    /// Every hypothesis the command line accepts (-1000 to 1000 normalized Elo) gives a finite
    /// LLR, with distributions that satisfy their hypothesis, whatever the results.
    #[test]
    fn every_accepted_hypothesis_has_a_finite_llr() {
        let results: [[u64; 5]; 8] = [
            [0, 0, 1, 0, 0],
            [0, 0, 0, 0, 1],
            [1, 0, 0, 0, 0],
            [0, 1, 3, 0, 0],
            [3, 0, 0, 2, 10],
            [0, 0, 0, 0, 50],
            [50, 0, 0, 0, 0],
            [100, 300, 500, 300, 100],
        ];
        let elos = [
            -1000.0, -999.0, -400.0, -300.0, 0.0, 5.0, 300.0, 400.0, 999.0, 1000.0,
        ];
        for counts in &results {
            let pdf = Pdf::of(counts);
            let a: Vec<f64> = pdf.points.iter().map(|x| x.0).collect();
            for &elo in &elos {
                let t = elo / NELO_PER_T * 2f64.sqrt();
                let q = mle_t_value(&pdf, 0.5, t);
                let sum: f64 = q.iter().sum();
                assert!(close(sum, 1.0, 1e-9), "{counts:?} at {elo}: sums to {sum}");
                let got = t_value(&a, &q, 0.5);
                assert!(close(got, t, 1e-6), "{counts:?} at {elo}: t {got}, not {t}");
            }
            for &elo0 in &elos {
                for &elo1 in elos.iter().filter(|&&e| e > elo0) {
                    let llr = llr_normalized(elo0, elo1, counts);
                    assert!(llr.is_finite(), "{counts:?} {elo0}..{elo1}: {llr}");
                }
            }
        }
        // A wide hypothesis is decided as it should be: fifty won pairs accept a 400 Elo
        // advantage, fifty drawn pairs reject it.
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 400.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert_eq!(sprt.verdict(sprt.llr(&[0, 0, 0, 0, 50])), Verdict::AcceptH1);
        assert_eq!(sprt.verdict(sprt.llr(&[0, 0, 50, 0, 0])), Verdict::AcceptH0);
        assert_eq!(sprt.verdict(sprt.llr(&[0, 0, 1, 0, 0])), Verdict::Continue);
    }

    #[test]
    fn small_cases() {
        assert!(close(los(10, 10), 0.5, 1e-12));
        assert!(los(30, 10) > 0.99);
        assert!(close(erf(0.5), 0.520_499_877_8, 2e-7));
        assert!(close(elo_of_score(score_of_elo(123.0)), 123.0, 1e-9));
        let (lower, upper) = sprt_bounds(0.05, 0.05);
        assert!(close(lower, -2.944439, 1e-6) && close(upper, 2.944439, 1e-6));
        // Equal results give a symmetric LLR around the midpoint of the hypotheses.
        let even = [100, 300, 100];
        assert!(llr_normalized(-2.0, 2.0, &even).abs() < 1e-6);
    }

    #[test]
    fn the_verdict_compares_the_llr_with_both_bounds() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lower, upper) = sprt.bounds();
        for (llr, verdict) in [
            (upper, Verdict::AcceptH1),
            (upper + 1.0, Verdict::AcceptH1),
            (upper - 1e-9, Verdict::Continue),
            (0.0, Verdict::Continue),
            (-1e-9, Verdict::Continue),
            (lower + 1e-9, Verdict::Continue),
            (lower, Verdict::AcceptH0),
            (lower - 1.0, Verdict::AcceptH0),
            (f64::NAN, Verdict::Continue),
        ] {
            assert_eq!(sprt.verdict(llr), verdict, "LLR {llr}");
        }
        assert_eq!(Verdict::AcceptH0.to_string(), "H0 accepted");
        assert_eq!(Verdict::Continue.to_string(), "undecided");
    }

    #[test]
    fn an_even_score_is_zero_elo_without_a_sign() {
        let even = elo(&[10, 5, 10]);
        assert!(even.elo.abs() < 1e-9, "{even:?}");
        assert_eq!(even.to_string(), format!("0.0 +/- {:.1}", even.margin));
        let rounds_to_zero = Estimate {
            elo: -0.04,
            margin: 12.0,
        };
        assert_eq!(rounds_to_zero.to_string(), "0.0 +/- 12.0");
        assert_eq!(format!("{rounds_to_zero:.0}"), "0 +/- 12");
        let e = Estimate {
            elo: -3.26,
            margin: 1.0,
        };
        assert_eq!(e.to_string(), "-3.3 +/- 1.0");
        assert_eq!(
            format!(
                "{:.0}",
                Estimate {
                    elo: 7.6,
                    margin: 30.2
                }
            ),
            "+8 +/- 30"
        );
        assert_eq!(finite_elo(&[0, 0, 4]), None, "all wins");
        assert_eq!(finite_elo(&[0, 0, 0]), None, "nothing counted");
        assert!(finite_elo(&[1, 0, 4]).is_some());
    }

    /// 20 games all won: a win chance of 0.8609 or more (0.8609^20 = 5%), +316.6 Elo (the
    /// figures worked out by hand); more games prove more, and a score at the bound makes
    /// the all-won result exactly 5% likely when no game can be drawn.
    #[test]
    fn a_clean_sweep_proves_a_one_sided_bound() {
        assert_eq!(one_sided_bound(0), None);
        let twenty = one_sided_bound(20).unwrap();
        assert!(close(twenty, 316.64, 0.01), "{twenty}");
        assert!(close(one_sided_bound(100).unwrap(), 606.79, 0.01));
        assert!(one_sided_bound(1).unwrap() < 0.0, "one game proves little");
        for n in [1, 2, 20, 1000] {
            let s = score_of_elo(one_sided_bound(n).unwrap());
            assert!(close(s.powi(n as i32), 0.05, 1e-9), "{n} games: {s}");
            assert!(one_sided_bound(n + 1).unwrap() > one_sided_bound(n).unwrap());
        }
    }
}
