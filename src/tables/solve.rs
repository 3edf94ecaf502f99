//! Solving one layer: the values of every position with `n` seeds on the board, from the
//! values of the smaller layers (a capture leaves fewer seeds) and of the layer itself (moves
//! without capture keep them all).
//!
//! The values are bounds, `lo <= hi`, on the seeds the side to move ends the game with; `lo`
//! is what it can force without ever counting on a repetition, `hi` what the opponent cannot
//! stop it from reaching on the same terms (see [`Value`] and `protocol.md`, section 8). They
//! are computed by iterating to the fixed point from `lo = 0`, `hi = n`: each pass takes, for
//! every position, the best of its moves, and a position whose bounds meet is settled and never
//! looked at again. In kalah a move that keeps every seed on the board moves seeds towards the
//! mover's store and never back, so the layer has no cycles and every position settles.

use super::index::{from_side, layer_size, next, rank, seeds, unrank};
use super::value::Value;
use crate::rules::{Board, Side, Variant};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// Where a move leads, from the mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Seeds left the board (a capture, or kalah's store): the game goes on in a smaller
    /// layer. `same_side`: the mover moves again (kalah's extra move).
    Exit {
        /// Seeds the mover gained.
        gain: usize,
        /// The mover moves again.
        same_side: bool,
        /// The smaller layer.
        layer: usize,
        /// The position's index there, seen from its side to move.
        index: u64,
    },
    /// No seed left the board: the opponent moves in this layer, at this index.
    Inside(u64),
}

/// The moves of a position, or the seeds its side to move ends with when the game is over.
pub enum Moves {
    /// The game goes on: up to six steps.
    Steps([Step; 6], usize),
    /// The game is over here: the side to move ends with this many of the board's seeds.
    Over(usize),
}

/// The moves of the position whose houses, seen from the side to move, are `houses`.
///
/// The rules are the project's own ([`Board`]) with empty stores, so that a store majority
/// never ends the game: it cannot change who wins (a side past half the seeds stays past
/// half), only how many seeds the loser would still have collected.
#[inline]
pub fn moves(variant: Variant, houses: [u8; 12]) -> Moves {
    let board = Board::from_parts(variant, houses, [0, 0], Side::South, false, 0)
        .expect("a layer holds at most 48 seeds and no bonus");
    let legal = match board.moves_or_end() {
        Ok(legal) => legal,
        Err(_) => return Moves::Over(board.row_seeds(Side::South) as usize),
    };
    let mut steps = [Step::Inside(0); 6];
    let mut len = 0;
    for m in legal {
        let child = board.play_unchecked(m);
        let gain = usize::from(child.store(Side::South));
        let side = child.side_to_move();
        let seen = from_side(child.houses(), side);
        steps[len] = if gain == 0 && side == Side::North {
            Step::Inside(rank(&seen))
        } else {
            Step::Exit {
                gain,
                same_side: side == Side::South,
                layer: seeds(&seen),
                index: rank(&seen),
            }
        };
        len += 1;
    }
    Moves::Steps(steps, len)
}

/// The values of the smaller layers, as [`Value::encode`] wrote them.
pub trait Lower: Sync {
    /// The value at `index` of `layer`.
    fn value(&self, layer: usize, index: u64) -> Value;
}

/// Counts the positions a solve has evaluated, for progress lines.
pub trait Progress: Sync {
    /// `positions` more evaluated.
    fn advance(&self, positions: u64);
    /// A pass over the layer begins with `positions` to evaluate.
    fn pass(&self, number: u32, positions: u64);
}

/// No progress shown.
pub struct Quiet;

impl Progress for Quiet {
    fn advance(&self, _: u64) {}
    fn pass(&self, _: u32, _: u64) {}
}

/// What solving a layer found.
pub struct Solved {
    /// Each position's value, encoded ([`Value::encode`]).
    pub bytes: Vec<u8>,
    /// Each position's distance for its opponent: the pass of stage 2 in which its `hi` last
    /// fell (0: it never did, its `hi` is the opponent's safe core; 255 stands for 255 or
    /// more). The side to move at a position `P` keeps its `lo` and makes progress by moving to
    /// a position `Q` with `hi(Q) = n - lo(P)` of the least rank: every reply then leads to a
    /// position where it can do so again with a smaller rank, until it leaves the layer through
    /// a good exit or reaches its core, without passing any position twice.
    pub ranks: Vec<u8>,
    /// Passes over the layer until nothing changed, both stages.
    pub passes: u32,
    /// Positions whose bounds did not meet (their value depends on repetition).
    pub unsettled: u64,
    /// Positions evaluated in all, every pass counted.
    pub evaluated: u64,
}

const CHUNK: u64 = 1 << 14;
/// `xlo`/`xhi` of a position with no exit.
const NO_EXIT: u8 = u8::MAX;
/// `count` of a position where the game is over (its value is in `xlo`).
const OVER: u8 = u8::MAX;

/// The moves of a run of positions, worked out once and kept for every pass: the best bounds
/// the exits give, and the indices of the positions the other moves lead to.
struct Chunk {
    start: u64,
    /// In-layer moves per position, or [`OVER`].
    count: Vec<u8>,
    children: Vec<u32>,
    /// The best lower / upper bound an exit gives the side to move ([`NO_EXIT`] if none); for
    /// a finished game, its value.
    xlo: Vec<u8>,
    xhi: Vec<u8>,
    /// The side to move's own row, the most a repetition can give it.
    row: Vec<u8>,
}

impl Chunk {
    fn new(variant: Variant, n: usize, start: u64, end: u64, lower: &dyn Lower) -> Chunk {
        let len = (end - start) as usize;
        let mut c = Chunk {
            start,
            count: Vec::with_capacity(len),
            children: Vec::with_capacity(len * 4),
            xlo: Vec::with_capacity(len),
            xhi: Vec::with_capacity(len),
            row: Vec::with_capacity(len),
        };
        let mut houses = unrank(n, start);
        for _ in start..end {
            c.row.push(houses[..6].iter().sum());
            match moves(variant, houses) {
                Moves::Over(v) => {
                    c.count.push(OVER);
                    c.xlo.push(v as u8);
                    c.xhi.push(v as u8);
                }
                Moves::Steps(steps, len) => {
                    let (mut xlo, mut xhi, mut inside) = (None::<u8>, None::<u8>, 0u8);
                    for step in &steps[..len] {
                        match *step {
                            Step::Inside(j) => {
                                c.children.push(j as u32);
                                inside += 1;
                            }
                            Step::Exit {
                                gain,
                                same_side,
                                layer,
                                index,
                            } => {
                                let v = lower.value(layer, index);
                                let g = gain as u8;
                                let (l, h) = if same_side {
                                    (g + v.lo, g + v.hi)
                                } else {
                                    (g + layer as u8 - v.hi, g + layer as u8 - v.lo)
                                };
                                xlo = Some(xlo.map_or(l, |x| x.max(l)));
                                xhi = Some(xhi.map_or(h, |x| x.max(h)));
                            }
                        }
                    }
                    c.count.push(inside);
                    c.xlo.push(xlo.unwrap_or(NO_EXIT));
                    c.xhi.push(xhi.unwrap_or(NO_EXIT));
                }
            }
            next(&mut houses);
        }
        c
    }
}

/// Solves layer `n` of `variant`, with the smaller layers in `lower`, on the current rayon
/// pool.
///
/// Two fixed points, each reached by passes over the layer until nothing changes:
/// 1. The safe core, from above. `s(X)`: the largest `k` such that the side to move at `X` can
///    keep every position from here on at `k` or more seeds of its own row, unless the game
///    leaves the layer through an exit worth `k` or more to it; `t(X)`: the same for the side
///    not to move at `X`. Inside such a core a repetition can only happen at a position
///    worth `k`.
/// 2. The bounds, from the core: `lo(X)` rises from `s(X)` and `hi(X)` falls from
///    `n - t(X)`, each the best of the moves (exits, and the opponent's bounds after moves
///    that stay in the layer). A side that forces its way into its core or out through a good
///    exit never passes a position twice on the way, so no repetition can spoil the bound.
pub fn solve_layer(
    variant: Variant,
    n: usize,
    lower: &dyn Lower,
    progress: &dyn Progress,
) -> Solved {
    let size = layer_size(n);
    let nb = n as u8;
    let chunks_n = size.div_ceil(CHUNK);
    progress.pass(0, size);
    let chunks: Vec<Chunk> = (0..chunks_n)
        .into_par_iter()
        .map(|c| {
            let start = c * CHUNK;
            let end = (start + CHUNK).min(size);
            let chunk = Chunk::new(variant, n, start, end, lower);
            progress.advance(end - start);
            chunk
        })
        .collect();
    let evaluated = AtomicU64::new(size);
    let changed = AtomicU64::new(0);
    let mut passes = 0;

    // Stage 1: the safe core, from above.
    let s: Vec<AtomicU8> = (0..size).map(|_| AtomicU8::new(0)).collect();
    let t: Vec<AtomicU8> = (0..size).map(|_| AtomicU8::new(0)).collect();
    chunks.par_iter().for_each(|c| {
        for (k, &count) in c.count.iter().enumerate() {
            let i = c.start as usize + k;
            let (own, other) = if count == OVER {
                (c.xlo[k], nb - c.xlo[k])
            } else {
                (c.row[k], nb - c.row[k])
            };
            s[i].store(own, Ordering::Relaxed);
            t[i].store(other, Ordering::Relaxed);
        }
    });
    // Passes over every position whose game goes on, until one changes nothing. `update` gets
    // the pass number (from 1), the position's chunk, its place there and the indices its moves
    // lead to, and says whether anything changed; `after` runs at the end of each pass.
    type Update<'u> = dyn Fn(u32, &Chunk, usize, &[u32]) -> bool + Sync + 'u;
    let run = |passes: &mut u32, update: &Update<'_>, after: &dyn Fn()| {
        let mut pass = 0;
        loop {
            pass += 1;
            *passes += 1;
            progress.pass(*passes, size);
            chunks.par_iter().for_each(|c| {
                let mut offset = 0;
                let mut count_changed = 0;
                for (k, &count) in c.count.iter().enumerate() {
                    if count == OVER {
                        continue;
                    }
                    let kids = &c.children[offset..offset + usize::from(count)];
                    offset += usize::from(count);
                    if update(pass, c, k, kids) {
                        count_changed += 1;
                    }
                }
                changed.fetch_add(count_changed, Ordering::Relaxed);
                progress.advance(c.count.len() as u64);
            });
            evaluated.fetch_add(size, Ordering::Relaxed);
            after();
            if changed.swap(0, Ordering::Relaxed) == 0 {
                break;
            }
        }
    };
    run(
        &mut passes,
        &|_, c, k, kids| {
            let i = c.start as usize + k;
            let (old_s, old_t) = (s[i].load(Ordering::Relaxed), t[i].load(Ordering::Relaxed));
            // The side to move stays safe through one move; the other side through all of them.
            let mut best = if c.xlo[k] == NO_EXIT { 0 } else { c.xlo[k] };
            let mut worst = if c.xhi[k] == NO_EXIT {
                nb
            } else {
                nb - c.xhi[k]
            };
            for &j in kids {
                best = best.max(t[j as usize].load(Ordering::Relaxed));
                worst = worst.min(s[j as usize].load(Ordering::Relaxed));
            }
            let (new_s, new_t) = (old_s.min(best), old_t.min(worst));
            if (new_s, new_t) != (old_s, old_t) {
                s[i].store(new_s, Ordering::Relaxed);
                t[i].store(new_t, Ordering::Relaxed);
                true
            } else {
                false
            }
        },
        &|| {},
    );

    // Stage 2: the bounds, from the core. Each pass reads only the last pass's bounds (they
    // are copied over at its end), so the pass at which a bound last moved is a distance: see
    // `Solved::ranks`.
    let lo = s;
    let hi = t;
    hi.par_iter().for_each(|h| {
        h.store(nb - h.load(Ordering::Relaxed), Ordering::Relaxed);
    });
    let copy = |from: &[AtomicU8]| -> Vec<AtomicU8> {
        from.par_iter()
            .map(|x| AtomicU8::new(x.load(Ordering::Relaxed)))
            .collect()
    };
    let (next_lo, next_hi) = (copy(&lo), copy(&hi));
    let ranks: Vec<AtomicU8> = (0..size).map(|_| AtomicU8::new(0)).collect();
    let sync = |to: &[AtomicU8], from: &[AtomicU8]| {
        to.par_iter().zip(from.par_iter()).for_each(|(t, f)| {
            t.store(f.load(Ordering::Relaxed), Ordering::Relaxed);
        });
    };
    run(
        &mut passes,
        &|pass, c, k, kids| {
            let i = c.start as usize + k;
            let (old_lo, old_hi) = (lo[i].load(Ordering::Relaxed), hi[i].load(Ordering::Relaxed));
            if old_lo == old_hi {
                return false;
            }
            let mut best_lo = if c.xlo[k] == NO_EXIT { 0 } else { c.xlo[k] };
            let mut best_hi = if c.xhi[k] == NO_EXIT { 0 } else { c.xhi[k] };
            for &j in kids {
                best_lo = best_lo.max(nb - hi[j as usize].load(Ordering::Relaxed));
                best_hi = best_hi.max(nb - lo[j as usize].load(Ordering::Relaxed));
            }
            let (new_lo, new_hi) = (old_lo.max(best_lo), old_hi.min(best_hi));
            if new_lo != old_lo {
                next_lo[i].store(new_lo, Ordering::Relaxed);
            }
            if new_hi != old_hi {
                next_hi[i].store(new_hi, Ordering::Relaxed);
                ranks[i].store(pass.min(255) as u8, Ordering::Relaxed);
            }
            (new_lo, new_hi) != (old_lo, old_hi)
        },
        &|| {
            sync(&lo, &next_lo);
            sync(&hi, &next_hi);
        },
    );
    drop((next_lo, next_hi));

    let mut unsettled = 0;
    let bytes = (0..size as usize)
        .map(|i| {
            let v = Value {
                lo: lo[i].load(Ordering::Relaxed),
                hi: hi[i].load(Ordering::Relaxed),
            };
            assert!(v.lo <= v.hi, "layer {n} index {i}: bounds crossed: {v:?}");
            unsettled += u64::from(v.lo != v.hi);
            v.encode(n)
        })
        .collect();
    Solved {
        bytes,
        ranks: ranks.into_iter().map(AtomicU8::into_inner).collect(),
        passes,
        unsettled,
        evaluated: evaluated.load(Ordering::Relaxed),
    }
}
