//! `awari train`: the evaluation's network fitted to `awari datagen`'s positions.
//!
//! Each position's target is a blend of its game's result (1 won, ½ drawn, 0 lost for the
//! side to move) and its search score seen through the logistic curve
//! `p = 1 / (1 + e^(-K·score/100))`, `λ·result + (1 - λ)·p`; `K` is fitted first (as `awari
//! tune` does) to the scores and results of the training positions. The network's output `y`
//! (in seeds) is read through the same curve, `sigmoid(K·y)`, and fitted by mean squared
//! error with Adam on mini-batches, each batch's gradient summed over the threads (rayon).
//! Hand-written: the network has one hidden layer over 14 set inputs of 242, so the forward
//! and backward passes are a few loops; a tensor crate would bring a large dependency tree
//! for no speed (it would not see the inputs' sparseness). Whole games are held out for
//! validation (every game whose number is a multiple of 20), so no position of a validation
//! game is trained on; the validation loss is printed per epoch beside that of the hand
//! evaluation's terms read through the same curve.

use crate::rng::Rng;
use crate::rules::{Board, Variant};
use crate::search::network::{features, FloatNetwork, ACTIVE, HIDDEN, INPUTS, MAX_WEIGHT};
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
    /// The game result's share of the target (the rest is the search score's).
    pub lambda: f32,
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
    /// The stores' difference, own minus opponent's, in seeds (the network's output is
    /// added to it).
    pub material: f32,
    /// The target probability for the side to move.
    pub target: f32,
}

/// Whether a record belongs to the held-out games.
pub fn held_out(r: &Record) -> bool {
    r.game % 20 == 0
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The curve's `K` that fits the records' search scores to their results best (mean squared
/// error, golden-section search on 0..5).
pub fn fit_k(records: &[Record]) -> f64 {
    let error = |k: f64| {
        records
            .iter()
            .map(|r| (f64::from(r.result) / 2.0 - sigmoid(k * f64::from(r.score) / 100.0)).powi(2))
            .sum::<f64>()
            / records.len().max(1) as f64
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

/// The samples of `records` under the curve `k` and the blend `lambda`.
pub fn samples(records: &[Record], k: f64, lambda: f32) -> Vec<Sample> {
    records
        .iter()
        .map(|r| {
            let p = sigmoid(k * f64::from(r.score) / 100.0) as f32;
            Sample {
                active: features(&r.houses, r.stores, r.side),
                material: f32::from(r.stores[r.side.index()])
                    - f32::from(r.stores[r.side.opponent().index()]),
                target: lambda * f32::from(r.result) / 2.0 + (1.0 - lambda) * p,
            }
        })
        .collect()
}

/// Where each part of the network lies in the flat parameter vector.
const W1: usize = 0;
const B1: usize = INPUTS * HIDDEN;
const W2: usize = B1 + HIDDEN;
const B2: usize = W2 + HIDDEN;
const PARAMS: usize = B2 + 1;

fn unflatten(p: &[f32]) -> FloatNetwork {
    FloatNetwork {
        w1: p[W1..B1].to_vec(),
        b1: p[B1..W2].to_vec(),
        w2: p[W2..B2].to_vec(),
        b2: p[B2],
    }
}

fn flatten(n: &FloatNetwork) -> Vec<f32> {
    let mut p = Vec::with_capacity(PARAMS);
    p.extend_from_slice(&n.w1);
    p.extend_from_slice(&n.b1);
    p.extend_from_slice(&n.w2);
    p.push(n.b2);
    p
}

/// A network of small random weights (the seed's), every unit starting within its clip.
pub fn initial(seed: u64) -> FloatNetwork {
    let mut rng = Rng::new(seed);
    let mut uniform = |a: f32| (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 * a - a;
    FloatNetwork {
        w1: (0..INPUTS * HIDDEN).map(|_| uniform(0.15)).collect(),
        b1: (0..HIDDEN).map(|_| 0.5 + uniform(0.1)).collect(),
        w2: (0..HIDDEN).map(|_| uniform(0.1)).collect(),
        b2: 0.0,
    }
}

/// Mean squared error of `net` on `samples` under the curve `k`.
pub fn loss(net: &FloatNetwork, samples: &[Sample], k: f32) -> f64 {
    let sum: f64 = samples
        .par_iter()
        .map_init(
            || [0f32; HIDDEN],
            |h, s| {
                let y = s.material + net.forward(&s.active, h);
                let p = 1.0 / (1.0 + (-k * y).exp());
                f64::from((p - s.target) * (p - s.target))
            },
        )
        .sum();
    sum / samples.len().max(1) as f64
}

/// The gradient of the summed squared error over `batch`, added into `grad`.
fn gradient(p: &[f32], batch: &[Sample], k: f32, grad: &mut [f32]) {
    let mut acc = [0f32; HIDDEN];
    for s in batch {
        acc.copy_from_slice(&p[B1..W2]);
        for &i in &s.active {
            let row = &p[W1 + usize::from(i) * HIDDEN..][..HIDDEN];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
        let mut y = s.material + p[B2];
        for (a, w) in acc.iter().zip(&p[W2..B2]) {
            y += a.clamp(0.0, 1.0) * w;
        }
        let q = 1.0 / (1.0 + (-k * y).exp());
        let dy = 2.0 * (q - s.target) * q * (1.0 - q) * k;
        grad[B2] += dy;
        let mut dh = [0f32; HIDDEN];
        for j in 0..HIDDEN {
            let a = acc[j];
            grad[W2 + j] += dy * a.clamp(0.0, 1.0);
            dh[j] = if a > 0.0 && a < 1.0 {
                dy * p[W2 + j]
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
                        gradient(&p, part, k, &mut g);
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
                if g == 0.0 && m[i] == 0.0 {
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
        let (t, val) = pool.install(|| (loss(&net, train, k), loss(&net, validation, k)));
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

/// Mean squared error of an evaluation (score units) on `records`' samples `samples` under
/// the curve `k`: the hand evaluation's, for comparison with the network's.
pub fn eval_loss(
    records: &[Record],
    samples: &[Sample],
    k: f64,
    eval: &(dyn Fn(&Board) -> i32 + Sync),
) -> f64 {
    let sum: f64 = records
        .par_iter()
        .zip(samples)
        .map(|(r, s)| {
            let score = r.board(Variant::Oware).map_or(0, |b| eval(&b));
            (sigmoid(k * f64::from(score) / 100.0) - f64::from(s.target)).powi(2)
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

/// The held-out positions within the tables' reach (`reach` seeds on the board at most, with
/// the tables' value recorded), at most `most` of them, spread over the records.
pub fn table_positions(records: &[Record], reach: u32, most: usize) -> Vec<Board> {
    let all: Vec<&Record> = records
        .iter()
        .filter(|r| held_out(r) && r.table != NO_TABLE && r.on_board() <= reach)
        .collect();
    let step = all.len().div_ceil(most.max(1)).max(1);
    all.iter()
        .step_by(step)
        .filter_map(|r| r.board(Variant::Oware))
        .collect()
}
