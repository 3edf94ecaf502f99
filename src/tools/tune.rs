//! `awari tune`: the evaluation's weights fitted to game results by the Texel method.
//!
//! Self-play games at a fixed depth, each from a few random opening moves, give positions
//! labelled with the result of their game (1 for a win of the side to move, ½ a draw, 0 a loss).
//! Every position after the opening is kept, captures on or not: the search has no quiescence
//! search, so its leaves are positions of every kind, and the exposure terms (`a2`, `a3`) are
//! there to weigh the captures on. The model is a logistic curve of the evaluation,
//! `p = 1 / (1 + e^(-K·eval/100))`: first `K` is fitted with the weights the games were played
//! with, then the weights, by gradient descent (Adam) on the mean squared error between `p` and
//! the result. The evaluation is linear in its terms, so each position's terms are computed
//! once. The store weight (100 per seed) fixes the scale; every weight whose term the rule
//! set has is fitted, the others are left as they are.

use crate::cluster::shard::Shard;
use crate::rng::Rng;
use crate::rules::{Board, Game, Side, Variant};
use crate::search::eval::{Terms, Weights, WEIGHTS};
use crate::search::fixed::search_to_depth;
use crate::search::tt::HashTable;
use crate::tables::Tables;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// What `awari tune` does. Each field is named as its flag's argument (`opening_plies`:
/// `--opening-plies`), and a sharded run's manifest holds those that decide the samples under
/// the same names ([`crate::tools::jobs::TuneManifest`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TuneOptions {
    /// The rule set of the games.
    pub variant: Variant,
    /// Self-play games to play.
    pub games: usize,
    /// The search depth of every move.
    pub depth: u32,
    /// Random moves at the start of each game.
    pub opening_plies: usize,
    /// The seed of the openings: the same seed gives the same games.
    pub seed: u64,
    /// Threads playing games at once. Not in a manifest: the games are the same on any
    /// number (one read back from a manifest plays on one).
    #[serde(skip, default = "one_thread")]
    pub threads: usize,
}

/// The threads of options read back from a manifest.
fn one_thread() -> usize {
    1
}

/// One labelled position: its terms and its game's result for its side to move.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// The evaluation's terms, from the side to move's view.
    pub terms: Terms,
    /// 1 won, 0.5 drawn, 0 lost (for the side to move).
    pub result: f64,
}

/// Numbers in a [`Sample`]'s row ([`Sample::row`]).
pub const ROW: usize = 13;

impl Sample {
    /// The sample as numbers, for a file: the result in half points (2 won, 1 drawn, 0 lost),
    /// then the terms in [`Terms`]' order.
    pub fn row(&self) -> [i32; ROW] {
        let t = &self.terms;
        [
            (self.result * 2.0) as i32,
            t.stores,
            t.a2,
            t.a3,
            t.b2,
            t.b3,
            t.row,
            t.mobility,
            t.kroo,
            t.tempo,
            t.capture,
            t.threat,
            t.free,
        ]
    }

    /// The sample of a [`Sample::row`].
    pub fn from_row(row: [i32; ROW]) -> Result<Sample, String> {
        let [half, stores, a2, a3, b2, b3, row_, mobility, kroo, tempo, capture, threat, free] =
            row;
        if !(0..=2).contains(&half) {
            return Err(format!("a result of {half} half points"));
        }
        let terms = Terms {
            stores,
            a2,
            a3,
            b2,
            b3,
            row: row_,
            mobility,
            kroo,
            tempo,
            capture,
            threat,
            free,
        };
        Ok(Sample {
            terms,
            result: f64::from(half) / 2.0,
        })
    }
}

/// Each weight's term in a position, with the sign it enters the score with ([`WEIGHTS`]'
/// order).
fn features(t: &Terms) -> [f64; WEIGHTS.len()] {
    std::array::from_fn(|i| f64::from(WEIGHTS[i].sign * (WEIGHTS[i].term)(t)))
}

/// Which weights the samples can fit: those whose term is not always 0 (a rule set's own
/// terms), in [`WEIGHTS`]' order.
pub fn fitted(samples: &[Sample]) -> [bool; WEIGHTS.len()] {
    std::array::from_fn(|i| samples.iter().any(|s| (WEIGHTS[i].term)(&s.terms) != 0))
}

/// Plays `options.games` games with `weights` and returns their positions, labelled.
/// Deterministic for a given seed (each game has its own seed and its own table).
///
/// With endgame `tables`, the searches probe them as the engine does, and a game ends at its
/// first position the tables know exactly: its result is then the tables' (perfect play from
/// there), not that of the moves a fixed-depth search would have made, and the positions from
/// there on are not samples (the search never evaluates them).
pub fn self_play(
    options: &TuneOptions,
    weights: &Weights,
    tables: Option<&Tables>,
) -> Result<Vec<Sample>, String> {
    Ok(play_shard(options, weights, tables, Shard::WHOLE)?
        .into_iter()
        .flat_map(|(_, samples)| samples)
        .collect())
}

/// The games of [`self_play`] that are `shard`'s (game `i`, from 0, is shard `i mod N`'s),
/// each with its number, in order: the games of every shard, put in order, are
/// [`self_play`]'s, since each game's seed comes from the seed and its number alone.
pub fn play_shard(
    options: &TuneOptions,
    weights: &Weights,
    tables: Option<&Tables>,
    shard: Shard,
) -> Result<Vec<(u64, Vec<Sample>)>, String> {
    let pool = crate::tools::pool::threads(options.threads)?;
    let mine: Vec<u64> = (0..options.games as u64)
        .filter(|&i| shard.owns_item(i))
        .collect();
    Ok(pool.install(|| {
        mine.into_par_iter()
            .map(|i| (i, one_game(options, weights, tables, i)))
            .collect()
    }))
}

fn one_game(
    options: &TuneOptions,
    weights: &Weights,
    tables: Option<&Tables>,
    index: u64,
) -> Vec<Sample> {
    let mut rng = Rng::new(crate::rng::item_seed(options.seed, index));
    let mut game = Game::new(Board::start(options.variant));
    for _ in 0..options.opening_plies {
        let moves: Vec<_> = game.legal_moves().into_iter().collect();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len() as u64) as usize];
        game.play(m).expect("a legal move");
    }
    let mut table = HashTable::new(1);
    let mut seen = Vec::new();
    // The result for South: from the end of the game, or from the tables.
    let mut south = game.outcome().map(|o| result_for(o.winner, Side::South));
    while south.is_none() && game.moves().len() < super::MAX_GAME_PLIES {
        let board = *game.board();
        if let Some(settled) = tables.and_then(|t| settled(t, &board)) {
            south = Some(settled);
            break;
        }
        seen.push((board.side_to_move(), Terms::of(&board)));
        let found = search_to_depth(&game, options.depth, (*weights).into(), tables, &mut table);
        let Some(m) = found.best else {
            break;
        };
        game.play(m).expect("the search plays legal moves");
        south = game.outcome().map(|o| result_for(o.winner, Side::South));
    }
    let Some(south) = south else {
        return Vec::new();
    };
    seen.into_iter()
        .map(|(side, terms)| Sample {
            terms,
            result: if side == Side::South {
                south
            } else {
                1.0 - south
            },
        })
        .collect()
}

/// 1 won, ½ drawn, 0 lost, for `side`, when `winner` won.
pub(crate) fn result_for(winner: Option<Side>, side: Side) -> f64 {
    match winner {
        None => 0.5,
        Some(w) if w == side => 1.0,
        Some(_) => 0.0,
    }
}

/// The result for South of `board` when the tables know its value exactly: the side to move
/// ends with that many of the board's seeds, the opponent with the rest, each added to its
/// store. `None` when the tables do not reach it or give only bounds.
pub fn settled(tables: &Tables, board: &Board) -> Option<f64> {
    let own = i32::from(tables.probe(board)?.exact()?);
    let me = board.side_to_move();
    let on_board: i32 = board.houses().iter().map(|&h| i32::from(h)).sum();
    let margin =
        i32::from(board.store(me)) + own - i32::from(board.store(me.opponent())) - (on_board - own);
    let winner = match margin.signum() {
        1 => Some(me),
        -1 => Some(me.opponent()),
        _ => None,
    };
    Some(result_for(winner, Side::South))
}

/// A fit: the weights, the curve's `K`, and the mean squared error before and after.
#[derive(Clone, Debug)]
pub struct Fit {
    /// The fitted weights (the others as given).
    pub weights: Weights,
    /// The logistic curve's scale: `p = 1 / (1 + e^(-K·eval/100))`.
    pub k: f64,
    /// Mean squared error with the given weights.
    pub error_before: f64,
    /// Mean squared error with the fitted weights.
    pub error_after: f64,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of the curve `k` with evaluations `evals`.
fn error(samples: &[Sample], evals: &[f64], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .zip(evals)
        .map(|(s, &e)| (s.result - sigmoid(k * e / 100.0)).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// Fits `K` with `start`, then every weight whose term the samples have ([`fitted`]) by
/// `steps` steps of Adam; the others keep `start`'s values (their gradient is 0).
pub fn fit(samples: &[Sample], start: &Weights, steps: usize) -> Fit {
    let evals: Vec<f64> = samples
        .iter()
        .map(|s| f64::from(s.terms.score(start)))
        .collect();
    // K by golden-section search: the error is unimodal in K.
    let (mut lo, mut hi) = (0.0_f64, 5.0_f64);
    let phi = (5.0_f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if error(samples, &evals, a) < error(samples, &evals, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    let k = (lo + hi) / 2.0;
    let error_before = error(samples, &evals, k);
    // The stores' weight (100 per seed) fixes the scale and does not move.
    let fixed: Vec<f64> = samples
        .iter()
        .map(|s| f64::from(100 * s.terms.stores))
        .collect();
    let features: Vec<[f64; WEIGHTS.len()]> = samples.iter().map(|s| features(&s.terms)).collect();
    let mut w: [f64; WEIGHTS.len()] = std::array::from_fn(|i| f64::from((WEIGHTS[i].get)(start)));
    let (mut m, mut v) = ([0.0; WEIGHTS.len()], [0.0; WEIGHTS.len()]);
    let (rate, b1, b2, eps) = (1.0, 0.9, 0.999, 1e-8);
    let n = samples.len().max(1) as f64;
    for step in 1..=steps {
        let mut grad = [0.0; WEIGHTS.len()];
        for ((s, f), &base) in samples.iter().zip(&features).zip(&fixed) {
            let e = base + f.iter().zip(&w).map(|(x, y)| x * y).sum::<f64>();
            let p = sigmoid(k * e / 100.0);
            let d = -2.0 * (s.result - p) * p * (1.0 - p) * k / 100.0;
            for (g, x) in grad.iter_mut().zip(f) {
                *g += d * x / n;
            }
        }
        for i in 0..WEIGHTS.len() {
            m[i] = b1 * m[i] + (1.0 - b1) * grad[i];
            v[i] = b2 * v[i] + (1.0 - b2) * grad[i] * grad[i];
            let mh = m[i] / (1.0 - b1.powi(step as i32));
            let vh = v[i] / (1.0 - b2.powi(step as i32));
            w[i] -= rate * mh / (vh.sqrt() + eps);
        }
    }
    let mut weights = *start;
    for (x, value) in WEIGHTS.iter().zip(w) {
        (x.set)(
            &mut weights,
            value.round().clamp(-10_000.0, 10_000.0) as i32,
        );
    }
    let evals: Vec<f64> = samples
        .iter()
        .map(|s| f64::from(s.terms.score(&weights)))
        .collect();
    Fit {
        weights,
        k,
        error_before,
        error_after: error(samples, &evals, k),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results drawn from a known curve of a known weight are fitted back to that weight.
    #[test]
    fn a_known_weight_is_recovered() {
        let mut rng = Rng::new(7);
        let truth = 30.0;
        let k = 1.0;
        let samples: Vec<Sample> = (0..20_000)
            .map(|_| {
                let terms = Terms {
                    stores: rng.below(9) as i32 - 4,
                    mobility: rng.below(13) as i32 - 6,
                    ..Terms::default()
                };
                let e = 100.0 * f64::from(terms.stores) + truth * f64::from(terms.mobility);
                let p = sigmoid(k * e / 100.0);
                let result = if (rng.below(1_000_000) as f64) < p * 1e6 {
                    1.0
                } else {
                    0.0
                };
                Sample { terms, result }
            })
            .collect();
        let start = Weights {
            mobility: 0,
            ..Weights::OWARE
        };
        let fit = fit(&samples, &start, 300);
        assert!(fit.error_after < fit.error_before, "{fit:?}");
        assert!(
            (fit.weights.mobility - 30).abs() <= 6,
            "mobility fitted to {}",
            fit.weights.mobility
        );
    }

    #[test]
    fn self_play_is_deterministic_and_labels_every_position() {
        let options = TuneOptions {
            variant: Variant::Oware,
            games: 4,
            depth: 2,
            opening_plies: 4,
            seed: 1,
            threads: 2,
        };
        let a = self_play(&options, &Weights::OWARE, None).unwrap();
        let b = self_play(&options, &Weights::OWARE, None).unwrap();
        assert!(!a.is_empty());
        // The same samples, not only as many.
        let same = |s: &Sample| (s.terms, s.result);
        assert_eq!(
            a.iter().map(same).collect::<Vec<_>>(),
            b.iter().map(same).collect::<Vec<_>>()
        );
        assert!(a.iter().all(|s| [0.0, 0.5, 1.0].contains(&s.result)));
        assert!(a.iter().all(|s| s.terms.tempo == 1));
        // The shards' games, in order, are the whole run's, and their samples read back.
        let mut games: Vec<(u64, Vec<Sample>)> = (0..3)
            .flat_map(|index| {
                play_shard(&options, &Weights::OWARE, None, Shard { index, count: 3 }).unwrap()
            })
            .collect();
        games.sort_by_key(|&(i, _)| i);
        assert_eq!(
            games.iter().map(|(i, _)| *i).collect::<Vec<_>>(),
            [0, 1, 2, 3]
        );
        let shards: Vec<Sample> = games.into_iter().flat_map(|(_, s)| s).collect();
        assert_eq!(shards.len(), a.len());
        for (x, y) in shards.iter().zip(&a) {
            let back = Sample::from_row(x.row()).unwrap();
            assert_eq!((back.terms, back.result), (y.terms, y.result));
        }
        assert!(Sample::from_row([3; ROW]).is_err());
    }
}
