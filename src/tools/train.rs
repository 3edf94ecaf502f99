//! `awari train`: the evaluation's network fitted to `awari datagen`'s positions.
//!
//! A position's target is a probability for the side to move read through the logistic
//! curve `p = 1 / (1 + e^(-K·seeds))`. Where the endgame tables gave the position's exact
//! value, the target is the curve at the exact final margin, and the error in seeds
//! (`(y - margin)`, scaled by the curve's slope at 0, `K/4`, times `--exact-weight`) is
//! added: the curve alone flattens large margins, and the tables know them to the seed.
//! Elsewhere the target blends the game's result (1 won, ½ drawn, 0 lost) and the search
//! score, `λ·result + (1 - λ)·p(score)`. `K` is fitted first (as `awari tune` does) to the
//! scores and results of the training positions. The network's output `y` (in seeds, added
//! to the stores' difference) is fitted by mean squared error with Adam on mini-batches, each
//! batch's gradient summed over the threads (rayon). Hand-written: the network has one hidden
//! layer over 14 set inputs of a few hundred, so the forward and backward passes are a few
//! loops; a tensor crate would bring a large dependency tree for no speed (it would not see
//! the inputs' sparseness), and the test below checks the gradient against finite
//! differences.
//!
//! Validation holds out whole opening lines (every game of every 20th line of the run's
//! suite), not game numbers: games of one line and the same random plies are one game, and
//! holding out by number put copies of training games among the held-out ones.

use crate::rng::Rng;
use crate::rules::{Board, Variant};
use crate::search::network::{
    features, output_bucket, FloatNetwork, ACTIVE, HIDDEN, INPUTS, MAX_WEIGHT, OUTPUT_BUCKETS,
};
use crate::tables::Tables;
use crate::tools::datagen::{Record, NO_TABLE};
use rayon::prelude::*;

/// What `awari train` does.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per step.
    pub batch: usize,
    /// Adam's step size.
    pub rate: f32,
    /// The game result's share of the target where the tables did not reach (the rest is
    /// the search score's).
    pub lambda: f32,
    /// The weight of the error in seeds at positions the tables valued exactly.
    pub exact_weight: f32,
    /// The seed of the initial weights and of the order of the positions.
    pub seed: u64,
    /// Threads computing a batch's gradient.
    pub threads: usize,
}

/// One training position: its inputs and its target.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// The inputs set.
    pub active: [u16; ACTIVE],
    /// Its output bucket (by the seeds on the board).
    pub bucket: u8,
    /// The stores' difference, own minus opponent's, in seeds (the network's output is
    /// added to it).
    pub material: f32,
    /// The target probability for the side to move.
    pub target: f32,
    /// The exact final margin in seeds by the tables; NaN where they did not reach.
    pub margin: f32,
}

/// Whether a record belongs to the held-out positions: every game of every 20th opening
/// line, the run's `lines` (the suite's length; 0 or 1 when the games started from one
/// position, and then every 20th game).
pub fn held_out(r: &Record, lines: u64) -> bool {
    let key = match lines {
        0 | 1 => u64::from(r.game),
        n => u64::from(r.game) % n,
    };
    key % 20 == 0
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The curve's `K` that fits the records' search scores to their results best (mean squared
/// error, golden-section search on 0..5). The curve relates a search's score to the game's
/// result, so it is fitted on the records beyond the tables where there are any: within them
/// the score is the exact margin, which predicts the result perfectly and would drive `K` to
/// its bound.
pub fn fit_k(records: &[Record]) -> f64 {
    let beyond = records.iter().any(|r| r.table == NO_TABLE);
    let fitted = || {
        records
            .iter()
            .filter(move |r| !beyond || r.table == NO_TABLE)
    };
    let count = fitted().count();
    let error = |k: f64| {
        fitted()
            .map(|r| (f64::from(r.result) / 2.0 - sigmoid(k * f64::from(r.score) / 100.0)).powi(2))
            .sum::<f64>()
            / count.max(1) as f64
    };
    let (mut lo, mut hi) = (0.0_f64, 5.0_f64);
    let phi = (5.0_f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if error(a) < error(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// The exact final margin of a record the tables valued, for its side to move, in seeds.
fn record_margin(r: &Record) -> Option<f32> {
    (r.table != NO_TABLE).then(|| {
        let (me, you) = (r.side.index(), r.side.opponent().index());
        f32::from(r.stores[me]) + 2.0 * f32::from(r.table)
            - f32::from(r.stores[you])
            - r.on_board() as f32
    })
}

/// The samples of `records` under the curve `k` and the blend `lambda`.
pub fn samples(records: &[Record], k: f64, lambda: f32) -> Vec<Sample> {
    records
        .iter()
        .map(|r| {
            let margin = record_margin(r);
            let target = match margin {
                Some(m) => sigmoid(k * f64::from(m)) as f32,
                None => {
                    let p = sigmoid(k * f64::from(r.score) / 100.0) as f32;
                    lambda * f32::from(r.result) / 2.0 + (1.0 - lambda) * p
                }
            };
            Sample {
                active: features(&r.houses, r.stores, r.side),
                bucket: output_bucket(&r.houses) as u8,
                material: f32::from(r.stores[r.side.index()])
                    - f32::from(r.stores[r.side.opponent().index()]),
                target,
                margin: margin.unwrap_or(f32::NAN),
            }
        })
        .collect()
}

/// A sample's error for an output `y` (seeds, stores' difference included) under the curve
/// `k` and the exact margin's weight `mu`, and its derivative in `y`.
fn error(s: &Sample, y: f32, k: f32, mu: f32) -> (f32, f32) {
    let q = 1.0 / (1.0 + (-k * y).exp());
    let mut e = (q - s.target) * (q - s.target);
    let mut dy = 2.0 * (q - s.target) * q * (1.0 - q) * k;
    if !s.margin.is_nan() {
        let slope = k / 4.0;
        let d = slope * (y - s.margin);
        e += mu * d * d;
        dy += 2.0 * mu * d * slope;
    }
    (e, dy)
}

/// Where each part of the network lies in the flat parameter vector.
const W1: usize = 0;
const B1: usize = INPUTS * HIDDEN;
const W2: usize = B1 + HIDDEN;
const B2: usize = W2 + OUTPUT_BUCKETS * HIDDEN;
const PARAMS: usize = B2 + OUTPUT_BUCKETS;

fn unflatten(p: &[f32]) -> FloatNetwork {
    FloatNetwork {
        w1: p[W1..B1].to_vec(),
        b1: p[B1..W2].to_vec(),
        w2: p[W2..B2].to_vec(),
        b2: p[B2..].to_vec(),
    }
}

fn flatten(n: &FloatNetwork) -> Vec<f32> {
    let mut p = Vec::with_capacity(PARAMS);
    p.extend_from_slice(&n.w1);
    p.extend_from_slice(&n.b1);
    p.extend_from_slice(&n.w2);
    p.extend_from_slice(&n.b2);
    p
}

/// A network of small random weights (the seed's), every unit starting within its clip.
pub fn initial(seed: u64) -> FloatNetwork {
    let mut rng = Rng::new(seed);
    let mut uniform = |a: f32| (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 * a - a;
    FloatNetwork {
        w1: (0..INPUTS * HIDDEN).map(|_| uniform(0.15)).collect(),
        b1: (0..HIDDEN).map(|_| 0.5 + uniform(0.1)).collect(),
        w2: (0..OUTPUT_BUCKETS * HIDDEN).map(|_| uniform(0.1)).collect(),
        b2: vec![0.0; OUTPUT_BUCKETS],
    }
}

/// The mean error of `net` on `samples` under the curve `k` (the squared error of the curve,
/// plus the error in seeds at the exact margins, weighted by `mu`).
pub fn loss(net: &FloatNetwork, samples: &[Sample], k: f32, mu: f32) -> f64 {
    let sum: f64 = samples
        .par_iter()
        .map_init(
            || [0f32; HIDDEN],
            |h, s| {
                let y = s.material + net.forward(&s.active, usize::from(s.bucket), h);
                f64::from(error(s, y, k, mu).0)
            },
        )
        .sum();
    sum / samples.len().max(1) as f64
}

/// The gradient of the summed error over `batch` at the parameters `p`, added into `grad`.
fn gradient(p: &[f32], batch: &[Sample], k: f32, mu: f32, grad: &mut [f32]) {
    let mut acc = [0f32; HIDDEN];
    for s in batch {
        acc.copy_from_slice(&p[B1..W2]);
        for &i in &s.active {
            let row = &p[W1 + usize::from(i) * HIDDEN..][..HIDDEN];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
        let bucket = usize::from(s.bucket);
        let w2 = W2 + bucket * HIDDEN;
        let mut y = s.material + p[B2 + bucket];
        for (a, w) in acc.iter().zip(&p[w2..w2 + HIDDEN]) {
            y += a.clamp(0.0, 1.0) * w;
        }
        let dy = error(s, y, k, mu).1;
        grad[B2 + bucket] += dy;
        let mut dh = [0f32; HIDDEN];
        for j in 0..HIDDEN {
            let a = acc[j];
            grad[w2 + j] += dy * a.clamp(0.0, 1.0);
            dh[j] = if a > 0.0 && a < 1.0 {
                dy * p[w2 + j]
            } else {
                0.0
            };
            grad[B1 + j] += dh[j];
        }
        for &i in &s.active {
            let row = &mut grad[W1 + usize::from(i) * HIDDEN..][..HIDDEN];
            for (g, d) in row.iter_mut().zip(&dh) {
                *g += d;
            }
        }
    }
}

/// An epoch's figures.
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    /// Its number, from 1.
    pub epoch: usize,
    /// Mean squared error on the training positions, after it.
    pub train: f64,
    /// Mean squared error on the held-out positions, after it.
    pub validation: f64,
}

/// Fits a network to `train` from [`initial`] under the curve `k`, reporting each epoch's
/// losses (the held-out ones on `validation`); returns the network of the epoch whose
/// held-out loss was least.
pub fn train(
    train: &[Sample],
    validation: &[Sample],
    k: f32,
    options: &TrainOptions,
    report: &mut dyn FnMut(Epoch),
) -> Result<FloatNetwork, String> {
    let pool = crate::tools::pool::threads(options.threads)?;
    let mut p = flatten(&initial(options.seed));
    let (mut m, mut v) = (vec![0f32; PARAMS], vec![0f32; PARAMS]);
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = Rng::new(options.seed ^ 0x5eed);
    let mut step = 0i32;
    let chunk = (options.batch / options.threads.max(1)).max(64);
    let mut batch = Vec::with_capacity(options.batch);
    // The network of the epoch with the least held-out loss: past it, more epochs only fit
    // the training games' noise.
    let mut best: Option<(f64, FloatNetwork)> = None;
    for epoch in 1..=options.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        for ids in order.chunks(options.batch.max(1)) {
            batch.clear();
            batch.extend(ids.iter().map(|&i| train[i]));
            let grad = pool.install(|| {
                batch
                    .par_chunks(chunk)
                    .map(|part| {
                        let mut g = vec![0f32; PARAMS];
                        gradient(&p, part, k, options.exact_weight, &mut g);
                        g
                    })
                    .reduce(
                        || vec![0f32; PARAMS],
                        |mut a, b| {
                            a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                            a
                        },
                    )
            });
            step += 1;
            let n = batch.len() as f32;
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            for i in 0..PARAMS {
                let g = grad[i] / n;
                // Adam, every parameter at every step: a parameter no sample has touched yet
                // has moments of zero and a step of zero, so it is passed over, and that is
                // all the loop leaves out (it is not lazy Adam, which would also leave out
                // the moments' decay of a parameter idle in this batch).
                if g == 0.0 && m[i] == 0.0 && v[i] == 0.0 {
                    continue;
                }
                m[i] = b1 * m[i] + (1.0 - b1) * g;
                v[i] = b2 * v[i] + (1.0 - b2) * g * g;
                p[i] -= options.rate * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
            }
            // Within what the integer network holds.
            let most = f32::from(i16::MAX) / crate::search::network::QB as f32;
            for w in &mut p[W1..W2] {
                *w = w.clamp(-MAX_WEIGHT, MAX_WEIGHT);
            }
            for w in &mut p[W2..B2] {
                *w = w.clamp(-most, most);
            }
        }
        let net = unflatten(&p);
        let mu = options.exact_weight;
        let (t, val) = pool.install(|| (loss(&net, train, k, mu), loss(&net, validation, k, mu)));
        report(Epoch {
            epoch,
            train: t,
            validation: val,
        });
        if best.as_ref().is_none_or(|(v, _)| val < *v) {
            best = Some((val, net));
        }
    }
    Ok(best.map_or_else(|| unflatten(&p), |(_, net)| net))
}

/// The mean error (as [`loss`] measures the network's) of an evaluation (score
/// units) on `records`' samples `samples` under the curve `k` and the exact margins' weight
/// `mu`: the hand evaluation's, for comparison with the network's.
pub fn eval_loss(
    records: &[Record],
    samples: &[Sample],
    k: f64,
    mu: f32,
    eval: &(dyn Fn(&Board) -> i32 + Sync),
) -> f64 {
    let sum: f64 = records
        .par_iter()
        .zip(samples)
        .map(|(r, s)| {
            let score = r.board(Variant::Oware).map_or(0, |b| eval(&b));
            f64::from(error(s, score as f32 / 100.0, k as f32, mu).0)
        })
        .sum();
    sum / records.len().max(1) as f64
}

/// How well an evaluation agrees with the endgame tables.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Agreement {
    /// Positions measured.
    pub positions: usize,
    /// Pairs of sibling moves whose exact values differ.
    pub pairs: usize,
    /// Of those, the pairs the evaluation orders as the tables do (a tie counts one half).
    pub ordered: f64,
    /// Mean absolute difference, in seeds, between the evaluation (score / 100) and the
    /// exact final margin of the side to move.
    pub mae: f64,
}

/// The final seed margin, for the side to move, of a position whose exact value the tables
/// give (`own`: the board's seeds it takes with best play).
fn margin(board: &Board, own: u8) -> i32 {
    let me = board.side_to_move();
    let on_board: i32 = board.houses().iter().map(|&h| i32::from(h)).sum();
    i32::from(board.store(me)) + 2 * i32::from(own)
        - i32::from(board.store(me.opponent()))
        - on_board
}

/// Measures `eval` on `boards` (each within the tables' reach): its error against the exact
/// margin, and how it orders the moves whose children the tables score exactly (moves that
/// end the game are left out: every evaluation scores them alike).
pub fn agreement(
    boards: &[Board],
    tables: &Tables,
    eval: &(dyn Fn(&Board) -> i32 + Sync),
) -> Agreement {
    let per: Vec<(usize, f64, f64, bool)> = boards
        .par_iter()
        .map(|board| {
            let Some(own) = tables.probe(board).and_then(|v| v.exact()) else {
                return (0, 0.0, 0.0, false);
            };
            let error = (f64::from(eval(board)) / 100.0 - f64::from(margin(board, own))).abs();
            let mut moves = Vec::new();
            for m in board.legal_moves() {
                let child = board.play(m);
                if child.outcome().is_some() {
                    continue;
                }
                if let Some(own) = tables.probe(&child).and_then(|v| v.exact()) {
                    moves.push((-margin(&child, own), -eval(&child)));
                }
            }
            let (mut pairs, mut ordered) = (0, 0.0);
            for (i, a) in moves.iter().enumerate() {
                for b in &moves[i + 1..] {
                    if a.0 == b.0 {
                        continue;
                    }
                    pairs += 1;
                    ordered += match (a.1 - b.1).signum() * (a.0 - b.0).signum() {
                        1 => 1.0,
                        0 => 0.5,
                        _ => 0.0,
                    };
                }
            }
            (pairs, ordered, error, true)
        })
        .collect();
    let positions = per.iter().filter(|x| x.3).count();
    Agreement {
        positions,
        pairs: per.iter().map(|x| x.0).sum(),
        ordered: per.iter().map(|x| x.1).sum(),
        mae: per.iter().map(|x| x.2).sum::<f64>() / positions.max(1) as f64,
    }
}

/// The positions of `records` (the held-out positions of games, as the caller gives them)
/// within the tables' reach (`reach` seeds on the board at most, with the tables' value
/// recorded), at most `most` of them, spread over the records.
pub fn table_positions(records: &[Record], reach: u32, most: usize) -> Vec<Board> {
    let all: Vec<&Record> = records
        .iter()
        .filter(|r| r.table != NO_TABLE && r.on_board() <= reach)
        .collect();
    let step = all.len().div_ceil(most.max(1)).max(1);
    all.iter()
        .step_by(step)
        .filter_map(|r| r.board(Variant::Oware))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random samples: boards of every output bucket, houses up to 21 seeds, half of them
    /// with an exact margin.
    fn random_samples(rng: &mut Rng, n: usize) -> Vec<Sample> {
        (0..n)
            .map(|i| {
                let base = [0, 1, 1, 2, 3, 4, 6, 20][i % 8];
                let houses: [u8; 12] = std::array::from_fn(|_| base + rng.below(2) as u8);
                let stores = [rng.below(20) as u8, rng.below(20) as u8];
                let side = match rng.below(2) {
                    0 => crate::rules::Side::South,
                    _ => crate::rules::Side::North,
                };
                Sample {
                    active: features(&houses, stores, side),
                    bucket: output_bucket(&houses) as u8,
                    material: f32::from(stores[side.index()])
                        - f32::from(stores[side.opponent().index()]),
                    target: rng.below(1000) as f32 / 1000.0,
                    margin: match i % 2 {
                        0 => rng.below(41) as f32 - 20.0,
                        _ => f32::NAN,
                    },
                }
            })
            .collect()
    }

    /// The hand-written gradient against central differences of the summed error, parameter
    /// by parameter, for parameters of every part of the network (first-layer rows the samples
    /// select, biases, every output bucket's weights and bias). A unit whose sum lies within
    /// the step of its clip's kinks is skipped: there the difference straddles the kink.
    #[test]
    fn gradient_matches_finite_differences() {
        let mut rng = Rng::new(5);
        let batch = random_samples(&mut rng, 16);
        let mut p = flatten(&initial(3));
        // Spread the output weights and biases so that every term matters.
        for w in &mut p[W2..] {
            *w += rng.below(2000) as f32 / 1000.0 - 1.0;
        }
        let (k, mu) = (0.35f32, 0.7f32);
        let mut grad = vec![0f32; PARAMS];
        gradient(&p, &batch, k, mu, &mut grad);
        let total = |p: &[f32]| -> f64 {
            let net = unflatten(p);
            let mut h = [0f32; HIDDEN];
            batch
                .iter()
                .map(|s| {
                    let y = s.material + net.forward(&s.active, usize::from(s.bucket), &mut h);
                    f64::from(error(s, y, k, mu).0)
                })
                .sum()
        };
        let step = 1e-2f32;
        // Units near a kink at these parameters, where a difference is not a derivative.
        let near_kink = |p: &[f32]| -> Vec<bool> {
            let mut near = vec![false; HIDDEN];
            for s in &batch {
                for (j, n) in near.iter_mut().enumerate() {
                    let a = p[B1 + j]
                        + s.active
                            .iter()
                            .map(|&i| p[W1 + usize::from(i) * HIDDEN + j])
                            .sum::<f32>();
                    *n |= a.abs() < 0.03 || (a - 1.0).abs() < 0.03;
                }
            }
            near
        };
        let near = near_kink(&p);
        let touched: Vec<usize> = batch[0].active.iter().map(|&i| usize::from(i)).collect();
        let mut checked = 0;
        let mut params: Vec<usize> = Vec::new();
        for &i in &touched[..3] {
            params.extend((0..HIDDEN).step_by(7).map(|j| W1 + i * HIDDEN + j));
        }
        params.extend((0..HIDDEN).step_by(5).map(|j| B1 + j));
        for b in 0..OUTPUT_BUCKETS {
            params.extend((0..HIDDEN).step_by(9).map(|j| W2 + b * HIDDEN + j));
            params.push(B2 + b);
        }
        for &i in &params {
            let unit = match i {
                i if i < B1 => (i - W1) % HIDDEN,
                i if i < W2 => i - B1,
                _ => usize::MAX,
            };
            if unit != usize::MAX && near[unit] {
                continue;
            }
            let mut up = p.clone();
            up[i] += step;
            let mut down = p.clone();
            down[i] -= step;
            let numeric = (total(&up) - total(&down)) / (2.0 * f64::from(step));
            let analytic = f64::from(grad[i]);
            let scale = numeric.abs().max(analytic.abs()).max(1e-3);
            assert!(
                (numeric - analytic).abs() / scale < 0.02,
                "parameter {i}: gradient {analytic}, finite difference {numeric}"
            );
            checked += 1;
        }
        assert!(
            checked > params.len() / 2,
            "only {checked} of {} parameters checked",
            params.len()
        );
        // Every output bucket's bias moved the error: the samples reach each bucket.
        for b in 0..OUTPUT_BUCKETS {
            assert!(grad[B2 + b] != 0.0, "no sample in output bucket {b}");
        }
    }

    /// Opening lines, not game numbers, decide what is held out: games `i` and `i + lines`
    /// start from the same line and fall on the same side.
    #[test]
    fn validation_holds_out_whole_opening_lines() {
        let record = |game: u32| Record {
            houses: [4; 12],
            stores: [0, 0],
            side: crate::rules::Side::South,
            result: 1,
            table: NO_TABLE,
            ply: 4,
            score: 0,
            game,
        };
        let lines = 37;
        for game in 0..2000 {
            assert_eq!(
                held_out(&record(game), lines),
                held_out(&record(game % 37), lines),
                "game {game}"
            );
        }
        let held = (0..2000).filter(|&g| held_out(&record(g), lines)).count();
        // Lines 0 and 20 of 37: 2 of 37 of the games.
        assert!((100..=115).contains(&held), "{held} held out");
        // Without a suite, every 20th game.
        assert_eq!((0..2000).filter(|&g| held_out(&record(g), 0)).count(), 100);
    }
}
