//! The propagating solver: the fixed points of [`solve`](super::solve), each pass evaluating
//! only the positions that a change of one of their children in the pass before can move.
//!
//! A pass computes a position's bounds from its children's as the last pass left them, and
//! keeps the better of that and what the position held; if no child changed since the
//! position was last evaluated, that is what it holds already. So evaluating only the parents
//! of the positions that changed gives, pass for pass, the bounds and the pass numbers (the
//! ranks) of the sweeping solver that evaluates everything ([`sweep`](super::sweep)), and
//! evaluating a position that is no parent after all changes nothing. A parent is not even
//! marked when the change cannot move it: a bound that is the best of the moves only moves
//! when the move that gave it got worse than the bound.
//!
//! The parents are found by un-sowing, not stored: a move that keeps every seed on the board
//! (oware without capture, kalah short of the store) empties its origin and sows the houses
//! after it in turn, skipping the origin, one seed each. Every way to take back such a
//! sowing from an empty house of the mover's row is a candidate; the true parents are among
//! them, and the others (illegal moves, captures the board after them does not rule out) only
//! cost a look. The children's indices are kept from the first pass, block by block, as long as
//! they fit in 6 GiB; the other blocks play their moves again at each evaluation.
//!
//! Stage 1 (the cores) is a largest fixed point, the same whatever order the positions are
//! evaluated in: a position that changes marks its parents at once, and a pass also evaluates
//! the ones it has yet to reach. Stage 2 keeps passes apart, for the ranks: a pass writes the
//! new bounds beside the old ones and they are committed, and the parents marked, after it.
//!
//! What a position costs: its bounds and the next pass's (4 bytes), the best its exits give
//! (2, read from the smaller layers once), its rank (1), a bit in each of two sets (to
//! evaluate, changed), and its children (some 18 bytes) while the cache has room: at 24 seeds,
//! 417 million positions, some 3 GB and 6 GiB of children.

use super::index::{from_side, layer_size, next, rank, seeds, unrank};
use super::layer::{Lower, Progress, Solved};
use super::value::Value;
use crate::rules::{Board, Side, Variant};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, AtomicU64, AtomicU8, Ordering};

/// `xlo`/`xhi` of a position with no exit.
const NO_EXIT: u8 = u8::MAX;
/// `xhi` of a position where the game is over (its value is in `xlo`).
const OVER: u8 = u8::MAX - 1;
/// Positions per task; a multiple of 64, so that a task owns whole words of the bit sets.
const BLOCK: usize = 1 << 12;

/// A set of positions of the layer, one bit each, shared by the threads.
struct Bits(Vec<AtomicU64>);

impl Bits {
    fn new(size: usize) -> Bits {
        Bits((0..size.div_ceil(64)).map(|_| AtomicU64::new(0)).collect())
    }

    /// Adds `i`; whether it was new.
    #[inline]
    fn insert(&self, i: u64) -> bool {
        let bit = 1u64 << (i % 64);
        self.0[(i / 64) as usize].fetch_or(bit, Ordering::Relaxed) & bit == 0
    }

    /// Puts every position of a layer of `size` in the set.
    fn fill(&self, size: usize) {
        self.0.par_iter().enumerate().for_each(|(w, word)| {
            let bits = (size - w * 64).min(64);
            word.store(u64::MAX >> (64 - bits), Ordering::Relaxed);
        });
    }

    /// How many positions the set holds.
    fn count(&self) -> u64 {
        self.0
            .par_iter()
            .map(|w| u64::from(w.load(Ordering::Relaxed).count_ones()))
            .sum()
    }

    /// Calls `f` with every position of the set and a [`Walk`] that gives its houses, in
    /// parallel, emptying the set (a position added meanwhile is seen if its word has not been
    /// emptied yet), and `done` with the count of each run of positions after it; returns the
    /// number of positions and the sum of what `f` returned.
    fn drain(
        &self,
        n: usize,
        f: impl Fn(usize, &mut Walk) -> u64 + Sync,
        done: impl Fn(u64) + Sync,
    ) -> (u64, u64) {
        self.0
            .par_chunks(BLOCK / 64)
            .enumerate()
            .map(|(b, words)| {
                let (mut count, mut sum) = (0, 0);
                let mut walk = Walk {
                    n,
                    at: usize::MAX,
                    houses: [0; 12],
                };
                for (w, word) in words.iter().enumerate() {
                    if word.load(Ordering::Relaxed) == 0 {
                        continue;
                    }
                    let mut bits = word.swap(0, Ordering::Relaxed);
                    count += u64::from(bits.count_ones());
                    while bits != 0 {
                        let i = b * BLOCK + w * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        sum += f(i, &mut walk);
                    }
                }
                done(count);
                (count, sum)
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    }
}

/// The houses of the positions of a run, in increasing order, each found from the last when it
/// is near.
struct Walk {
    n: usize,
    /// The position `houses` holds (`usize::MAX`: none yet).
    at: usize,
    houses: [u8; 12],
}

impl Walk {
    #[inline]
    fn houses(&mut self, i: usize) -> &[u8; 12] {
        if self.at < i && i - self.at <= 16 {
            while self.at < i {
                next(&mut self.houses);
                self.at += 1;
            }
        } else if self.at != i {
            self.houses = unrank(self.n, i as u64);
            self.at = i;
        }
        &self.houses
    }
}

/// The in-layer children of a block of positions, as indices, kept from the first pass while
/// memory allows (`CACHE`), so that a pass reads them instead of playing the moves again.
struct Kids {
    /// Where each position's children begin in `kids`, and where the last one's end.
    start: Vec<u16>,
    kids: Vec<u32>,
}

/// Bytes the children of a layer's blocks may take, at most: all of them up to 23 seeds, some
/// 85% at 24 seeds, where the rest of a solve takes some 3.0 GB and the smaller layers' values
/// 0.8 GB more (9.6 GiB in all, under the 12 GiB a build may use).
const CACHE: u64 = 6 << 30;

fn atomics(size: usize) -> Vec<AtomicU8> {
    (0..size).map(|_| AtomicU8::new(0)).collect()
}

/// Two bytes per position, read and written together (one cache line for both): `(s, t)`,
/// then `(lo, hi)`.
struct Pairs(Vec<AtomicU16>);

impl Pairs {
    fn new(size: usize) -> Pairs {
        Pairs((0..size).map(|_| AtomicU16::new(0)).collect())
    }

    #[inline]
    fn get(&self, i: usize) -> (u8, u8) {
        let [a, b] = self.0[i].load(Ordering::Relaxed).to_le_bytes();
        (a, b)
    }

    #[inline]
    fn set(&self, i: usize, (a, b): (u8, u8)) {
        self.0[i].store(u16::from_le_bytes([a, b]), Ordering::Relaxed);
    }
}

/// The position whose houses, seen from the side to move, are `houses`, with empty stores (see
/// [`moves`](super::layer::moves) for why).
#[inline]
fn board(variant: Variant, houses: [u8; 12]) -> Board {
    Board::from_parts(variant, houses, [0, 0], Side::South, false, 0)
        .expect("a layer holds at most 48 seeds and no bonus")
}

/// The rows swapped: the houses seen from the other side.
#[inline]
fn swapped(houses: &[u8; 12]) -> [u8; 12] {
    let mut r = [0u8; 12];
    r[..6].copy_from_slice(&houses[6..]);
    r[6..].copy_from_slice(&houses[..6]);
    r
}

/// Whether a sowing that ended in the opponent's house `last` (of the board after it, seen
/// from the mover) takes seeds in oware: 2s and 3s backwards from there, unless they are all
/// the opponent has (a grand slam takes nothing in oware).
#[inline]
fn oware_takes(after: &[u8; 12], last: usize) -> bool {
    if last < 6 || !matches!(after[last], 2 | 3) {
        return false;
    }
    let mut taken = 0u32;
    let mut house = last + 1;
    while house > 6 && matches!(after[house - 1], 2 | 3) {
        house -= 1;
        taken += u32::from(after[house]);
    }
    taken != after[6..].iter().map(|&h| u32::from(h)).sum::<u32>()
}

/// Calls `f` with the houses, seen from its side to move, of every position a move of the
/// layer's position `houses` (seen from its side to move, its game not over) leads to without
/// leaving the layer: no seed taken, the opponent to move. The rules of
/// [`Board`] on raw houses, without its keys and counters: the moves of
/// [`moves`](super::layer::moves) that are [`Step::Inside`](super::layer::Step::Inside) (a
/// test checks they agree).
#[inline]
pub fn children(variant: Variant, houses: &[u8; 12], mut f: impl FnMut(&[u8; 12])) {
    match variant {
        Variant::Kalah | Variant::KalahEmpty => {
            for origin in 0..6 {
                let sown = usize::from(houses[origin]);
                // Past house 5 the sowing reaches the store.
                if sown == 0 || origin + sown > 5 {
                    continue;
                }
                let mut after = *houses;
                after[origin] = 0;
                for h in &mut after[origin + 1..=origin + sown] {
                    *h += 1;
                }
                let last = origin + sown;
                // A last seed alone in its house takes the facing house's seeds, if any (in
                // kalah-empty, itself alone if none).
                if after[last] == 1 && (after[11 - last] != 0 || variant.captures_facing_empty()) {
                    continue;
                }
                f(&swapped(&after));
            }
        }
        _ => {
            let starving = houses[6..].iter().all(|&h| h == 0);
            for origin in 0..6 {
                let sown = usize::from(houses[origin]);
                // An opponent with no seeds must be fed.
                if sown == 0 || (starving && origin + sown < 6) {
                    continue;
                }
                let mut after = *houses;
                after[origin] = 0;
                let mut house = origin;
                for _ in 0..sown {
                    house = if house == 11 { 0 } else { house + 1 };
                    if house == origin {
                        house = if house == 11 { 0 } else { house + 1 };
                    }
                    after[house] += 1;
                }
                if !oware_takes(&after, house) {
                    f(&swapped(&after));
                }
            }
        }
    }
}

/// Calls `f` with the index of every position that might lead to `houses` (seen from its side
/// to move) by a move that keeps every seed on the board: every way to take back a sowing
/// that ended there (see the module's documentation) that [`children`] would not rule out by
/// a look at the board after it.
#[inline]
pub fn parents(variant: Variant, houses: &[u8; 12], mut f: impl FnMut(u64)) {
    // The board after the move, seen from the mover.
    let after = swapped(houses);
    let starving = after[6..].iter().all(|&h| h == 0);
    for origin in 0..6 {
        if after[origin] != 0 {
            continue;
        }
        let mut before = after;
        let mut house = origin;
        for sown in 1u8.. {
            house = if house == 11 { 0 } else { house + 1 };
            if house == origin {
                house = if house == 11 { 0 } else { house + 1 };
            }
            // A larger sowing would take this seed back too: none can end here.
            if before[house] == 0 {
                break;
            }
            before[house] -= 1;
            before[origin] = sown;
            let keeps = match variant {
                // Short of the store, and not a last seed alone facing seeds.
                Variant::Kalah | Variant::KalahEmpty => {
                    if house > 5 {
                        break;
                    }
                    !(after[house] == 1
                        && (after[11 - house] != 0 || variant.captures_facing_empty()))
                }
                // No capture, and no sowing short of an opponent who has nothing.
                _ => !(oware_takes(&after, house) || (starving && house < 6 && house > origin)),
            };
            if keeps {
                f(rank(&before));
            }
        }
    }
}

/// Calls `f` with the index of each child of position `i` that stays in the layer: the ones
/// its block kept, or its moves played again.
#[inline]
fn each_child(
    variant: Variant,
    cache: &[Option<Kids>],
    i: usize,
    walk: &mut Walk,
    mut f: impl FnMut(usize),
) {
    match &cache[i / BLOCK] {
        Some(kids) => {
            let k = i % BLOCK;
            let (from, to) = (kids.start[k], kids.start[k + 1]);
            for &j in &kids.kids[usize::from(from)..usize::from(to)] {
                f(j as usize);
            }
        }
        None => children(variant, walk.houses(i), |c| f(rank(c) as usize)),
    }
}

/// Marks in `dirty`, for the next pass, the parents of the positions in `changed` (emptying
/// it) that their change can move. `commit(child)` commits the child's change and returns the
/// test for each of its parents: one closure, so that what the commit saw (which bounds moved)
/// reaches the test without state shared between them. Returns how many it marked.
fn mark<A: Fn(usize) -> bool>(
    variant: Variant,
    n: usize,
    changed: &Bits,
    dirty: &Bits,
    commit: impl Fn(usize) -> A + Sync,
) -> u64 {
    changed
        .drain(
            n,
            |j, walk| {
                let affects = commit(j);
                let mut new = 0;
                parents(variant, walk.houses(j), |p| {
                    if affects(p as usize) {
                        new += u64::from(dirty.insert(p));
                    }
                });
                new
            },
            |_| {},
        )
        .1
}

/// Solves layer `n` of `variant` by propagation, with the smaller layers in `lower`, on the
/// current rayon pool; the same bytes as [`solve_layer_sweeping`](super::sweep::solve_layer_sweeping).
pub fn solve_layer_propagating(
    variant: Variant,
    n: usize,
    lower: &impl Lower,
    progress: &impl Progress,
) -> Solved {
    let size = layer_size(n) as usize;
    let nb = n as u8;

    // The exits, read once, and the first pass of stage 1, from the cores' starting values
    // (a side's own row), which a child's houses give without reading anything. `old` keeps
    // what a position held before its last change, for the marking.
    progress.pass(0, size as u64);
    let mut xlo = vec![0u8; size];
    let mut xhi = vec![0u8; size];
    let (st, old) = (Pairs::new(size), Pairs::new(size));
    let changed = Bits::new(size);
    // Children are kept while their bytes stay within `CACHE`, and never past the indices a
    // `u32` holds.
    let room = AtomicU64::new(if u32::try_from(size).is_ok() {
        CACHE
    } else {
        0
    });
    let cache: Vec<Option<Kids>> = xlo
        .par_chunks_mut(BLOCK)
        .zip(xhi.par_chunks_mut(BLOCK))
        .enumerate()
        .map(|(b, (xl, xh))| {
            let start = b * BLOCK;
            let mut houses = unrank(n, start as u64);
            let keep = room.load(Ordering::Relaxed) > 0;
            let mut kids = Kids {
                start: Vec::with_capacity(if keep { xl.len() + 1 } else { 0 }),
                kids: Vec::with_capacity(if keep { xl.len() * 4 } else { 0 }),
            };
            for k in 0..xl.len() {
                if keep {
                    kids.start.push(kids.kids.len() as u16);
                }
                let i = start + k;
                let row: u8 = houses[..6].iter().sum();
                let board = board(variant, houses);
                match board.moves_or_end() {
                    Err(_) => {
                        let v = board.row_seeds(Side::South) as u8;
                        (xl[k], xh[k]) = (v, OVER);
                        st.set(i, (v, nb - v));
                    }
                    Ok(legal) => {
                        let (mut lo, mut hi) = (None::<u8>, None::<u8>);
                        // Stage 1's first pass: a child's core starts at its mover's own row
                        // (also the value of a finished game, see `moves`).
                        let (mut best, mut worst) = (None::<u8>, nb);
                        for m in legal {
                            let child = board.play_unchecked(m);
                            let gain = child.store(Side::South);
                            let side = child.side_to_move();
                            let seen = from_side(child.houses(), side);
                            if gain == 0 && side == Side::North {
                                if keep {
                                    kids.kids.push(rank(&seen) as u32);
                                }
                                let own: u8 = seen[..6].iter().sum();
                                best = Some(best.map_or(nb - own, |x| x.max(nb - own)));
                                worst = worst.min(own);
                                continue;
                            }
                            let layer = seeds(&seen);
                            let v = lower.value(layer, rank(&seen));
                            let (l, h) = if side == Side::South {
                                (gain + v.lo, gain + v.hi)
                            } else {
                                (gain + layer as u8 - v.hi, gain + layer as u8 - v.lo)
                            };
                            lo = Some(lo.map_or(l, |x| x.max(l)));
                            hi = Some(hi.map_or(h, |x| x.max(h)));
                        }
                        (xl[k], xh[k]) = (lo.unwrap_or(NO_EXIT), hi.unwrap_or(NO_EXIT));
                        let best = best.unwrap_or(0).max(lo.unwrap_or(0));
                        let worst = worst.min(hi.map_or(nb, |h| nb - h));
                        let (new_s, new_t) = (row.min(best), (nb - row).min(worst));
                        st.set(i, (new_s, new_t));
                        if (new_s, new_t) != (row, nb - row) {
                            old.set(i, (row, nb - row));
                            changed.insert(i as u64);
                        }
                    }
                }
                next(&mut houses);
            }
            progress.advance(xl.len() as u64);
            if !keep {
                return None;
            }
            kids.start.push(kids.kids.len() as u16);
            let bytes = (2 * kids.start.len() + 4 * kids.kids.len()) as u64;
            room.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |r| {
                r.checked_sub(bytes)
            })
            .ok()
            .map(|_| kids)
        })
        .collect();
    let (xlo, xhi) = (&xlo, &xhi);
    let mut evaluated = size as u64;
    let mut passes = 1;
    let dirty = Bits::new(size);

    // Stage 1, from above: in place, in any order (the largest fixed point below the start is
    // one, however it is reached), until no core shrinks. A parent's `s` can only fall below
    // a child's new `t` if that fell, and its `t` below the child's new `s` likewise; a
    // position that changes marks the parents it can move at once, so that a pass also
    // evaluates those it has yet to reach.
    let affects = |(sj, tj): (u8, u8), (was_s, was_t): (u8, u8), p: usize| {
        let (sp, tp) = st.get(p);
        (tj != was_t && tj < sp) || (sj != was_s && sj < tp)
    };
    mark(variant, n, &changed, &dirty, |j| {
        let (now, was) = (st.get(j), old.get(j));
        move |p| affects(now, was, p)
    });
    drop(old);
    loop {
        let marked = dirty.count();
        if marked == 0 {
            break;
        }
        passes += 1;
        progress.pass(passes, marked);
        evaluated += dirty
            .drain(
                n,
                |i, walk| {
                    if xhi[i] == OVER {
                        return 0;
                    }
                    let (was_s, was_t) = st.get(i);
                    // The side to move stays safe through one move; the other side through all.
                    let mut best = if xlo[i] == NO_EXIT { 0 } else { xlo[i] };
                    let mut worst = if xhi[i] == NO_EXIT { nb } else { nb - xhi[i] };
                    each_child(variant, &cache, i, walk, |j| {
                        let (sj, tj) = st.get(j);
                        best = best.max(tj);
                        worst = worst.min(sj);
                    });
                    let (new_s, new_t) = (was_s.min(best), was_t.min(worst));
                    if (new_s, new_t) != (was_s, was_t) {
                        st.set(i, (new_s, new_t));
                        parents(variant, walk.houses(i), |p| {
                            if affects((new_s, new_t), (was_s, was_t), p as usize) {
                                dirty.insert(p);
                            }
                        });
                    }
                    0
                },
                |count| progress.advance(count),
            )
            .0;
    }

    // Stage 2, from the cores: pass `k` reads the bounds pass `k - 1` left and writes the
    // new ones to `next_lo` and `next_hi`, committed when its parents are marked, so that a
    // rank is the pass of the sweeping solver. A parent's `lo` can only rise if a child's new
    // `hi` leaves it more, and its `hi` only fall if a child's new `lo` leaves it less.
    let bounds = st;
    bounds.0.par_iter().enumerate().for_each(|(i, _)| {
        let (s, t) = bounds.get(i);
        bounds.set(i, (s, nb - t));
    });
    let next = Pairs::new(size);
    let ranks = atomics(size);
    let mut pass = 0u32;
    loop {
        pass += 1;
        let marked = if pass == 1 {
            dirty.fill(size);
            size as u64
        } else {
            mark(variant, n, &changed, &dirty, |j| {
                let ((lj, hj), (was_l, was_h)) = (next.get(j), bounds.get(j));
                bounds.set(j, (lj, hj));
                let (lo_moved, hi_moved) = (lj != was_l, hj != was_h);
                let bounds = &bounds;
                move |p| {
                    let (lp, hp) = bounds.get(p);
                    lp != hp && ((hi_moved && nb - hj > lp) || (lo_moved && nb - lj < hp))
                }
            })
        };
        if marked == 0 {
            break;
        }
        passes += 1;
        progress.pass(passes, marked);
        let rank_now = pass.min(255) as u8;
        let evaluate = |i: usize, walk: &mut Walk| {
            let (was_lo, was_hi) = bounds.get(i);
            if was_lo == was_hi {
                return 0;
            }
            let mut best_lo = if xlo[i] == NO_EXIT { 0 } else { xlo[i] };
            let mut best_hi = if xhi[i] == NO_EXIT { 0 } else { xhi[i] };
            each_child(variant, &cache, i, walk, |j| {
                let (lj, hj) = bounds.get(j);
                best_lo = best_lo.max(nb - hj);
                best_hi = best_hi.max(nb - lj);
            });
            let (new_lo, new_hi) = (was_lo.max(best_lo), was_hi.min(best_hi));
            if (new_lo, new_hi) != (was_lo, was_hi) {
                next.set(i, (new_lo, new_hi));
                if new_hi != was_hi {
                    ranks[i].store(rank_now, Ordering::Relaxed);
                }
                changed.insert(i as u64);
            }
            0
        };
        evaluated += dirty.drain(n, evaluate, |count| progress.advance(count)).0;
    }
    drop((next, dirty, changed, cache));

    let mut unsettled = 0;
    let bytes = (0..size)
        .map(|i| {
            let (lo, hi) = bounds.get(i);
            let v = Value { lo, hi };
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
        evaluated,
    }
}
