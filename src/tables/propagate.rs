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
//! Neither children nor parents are stored: both come from the position's index, as Romein
//! and Bal did when they solved awari. A position's children are its moves played on the
//! houses its index unranks to (walking a run of indices costs a step each), each ranked. Its
//! parents are found by un-sowing: a move that keeps every seed on the board (oware without
//! capture, kalah short of the store) empties its origin and sows the houses after it in
//! turn, skipping the origin, one seed each. Every way to take back such a sowing from an
//! empty house of the mover's row is a candidate; the true parents are among them, and the
//! others (illegal moves, captures the board after them does not rule out) only cost a look.
//!
//! Stage 1 (the cores) is a largest fixed point, the same whatever order the positions are
//! evaluated in: a position that changes marks its parents at once, and a pass also evaluates
//! the ones it has yet to reach. Stage 2 keeps passes apart, for the ranks: a pass leaves the
//! bounds as they were and writes each position's new bounds, in order, to a log of its run of
//! positions (with a bit in the set of the changed); after the pass they are committed from
//! the logs and the parents marked.
//!
//! What a position costs, up to 21 seeds: its bounds (1 byte: a pair `lo <= hi <= 21` has 253
//! values), the best its exits give (1), its rank (1), a bit in each of two sets (to evaluate,
//! changed) and a byte in a log for each position that changes in a pass (pass 1 logs in the
//! rank bytes, all 0 until it is committed): 3.25 bytes and the largest log after pass 1 (a
//! fifth of a byte in the layers measured). From 22 seeds on a pair no longer fits a byte, and
//! [`packed`](super::packed) keeps each position's whole state, logs and sets included, in one
//! 32-bit word. The exits are read from the smaller layers, memory-mapped, in a pass of
//! their own that holds nothing else of the layer, their pages let go every sixteenth of it and
//! at its end ([`Lower::release`]); stage 1's first pass follows, from the children's rows.
//!
//! What it costs in time: every evaluation plays the position's moves and ranks the children
//! (the index's walk gives the houses of runs of positions), where keeping them took some 18
//! bytes a position.

use super::index::{from_side, layer_size, next, rank, seeds, unrank};
use super::layer::{Lower, Progress, Solved};
use super::passes::{bounds_passes, core_passes, Set, Store, Walk, BLOCK};
use super::rule::{solved, Core};
use super::steps::{board, children};
use crate::rules::{Side, Variant};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
/// The largest layer whose pairs of bounds fit one byte (`Narrow`).
pub const NARROW_UP_TO: usize = 21;
/// Runs of the first pass, after each of which the smaller layers' pages are let go.
pub(super) const SEGMENTS: usize = 16;

/// `(lo, hi)` at `hi * (hi + 1) / 2 + lo`: every pair of a layer of up to [`NARROW_UP_TO`]
/// seeds in one byte (at most 252), 255 to spare for [`Narrow::OVER`]; read and written whole by
/// the threads.
struct Narrow(Vec<AtomicU8>);

/// The pair of each [`Narrow`] byte.
static NARROW_PAIRS: [(u8, u8); 256] = narrow_pairs();

const fn narrow_pairs() -> [(u8, u8); 256] {
    let mut t = [(u8::MAX, u8::MAX); 256];
    let mut hi = 0;
    while hi <= NARROW_UP_TO {
        let mut lo = 0;
        while lo <= hi {
            t[hi * (hi + 1) / 2 + lo] = (lo as u8, hi as u8);
            lo += 1;
        }
        hi += 1;
    }
    t
}

impl Narrow {
    /// The exits of a position where the game is over: no pair.
    const OVER: u8 = u8::MAX;

    /// `size` positions, each `(0, 0)`.
    fn new(size: usize) -> Narrow {
        Narrow((0..size).map(|_| AtomicU8::new(0)).collect())
    }

    #[inline]
    fn pack((lo, hi): (u8, u8)) -> u8 {
        debug_assert!(lo <= hi && usize::from(hi) <= NARROW_UP_TO);
        (u16::from(hi) * (u16::from(hi) + 1) / 2 + u16::from(lo)) as u8
    }

    #[inline]
    fn unpack(raw: u8) -> (u8, u8) {
        NARROW_PAIRS[usize::from(raw)]
    }

    #[inline]
    fn raw(&self, i: usize) -> u8 {
        self.0[i].load(Ordering::Relaxed)
    }

    #[inline]
    fn put(&self, i: usize, raw: u8) {
        self.0[i].store(raw, Ordering::Relaxed);
    }

    #[inline]
    fn get(&self, i: usize) -> (u8, u8) {
        Narrow::unpack(self.raw(i))
    }

    #[inline]
    fn set(&self, i: usize, pair: (u8, u8)) {
        self.put(i, Narrow::pack(pair));
    }

    /// Every position's pair.
    fn into_pairs(self) -> impl Iterator<Item = (u8, u8)> {
        self.0.into_iter().map(|a| Narrow::unpack(a.into_inner()))
    }
}

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

    /// Calls `f` with every position of the set, a [`Walk`] that gives its houses and the
    /// state of its run of positions (one of `states` per [`BLOCK`], in order), in parallel,
    /// a run in increasing order, emptying the set (a position added meanwhile is seen if its
    /// word has not been emptied yet), and `done` with the count and the state of each run
    /// after it; returns the number of positions, the sum of what `f` returned, and the states.
    fn drain<T: Send>(
        &self,
        n: usize,
        states: Vec<T>,
        f: impl Fn(usize, &mut Walk, &mut T) -> u64 + Sync,
        done: impl Fn(u64, &mut T) + Sync,
    ) -> (u64, u64, Vec<T>) {
        assert_eq!(states.len(), self.0.len().div_ceil(BLOCK / 64));
        let runs: Vec<(u64, u64, T)> = self
            .0
            .par_chunks(BLOCK / 64)
            .zip(states.into_par_iter())
            .enumerate()
            .map(|(b, (words, mut state))| {
                let (mut count, mut sum) = (0, 0);
                let mut walk = Walk::new(n);
                for (w, word) in words.iter().enumerate() {
                    if word.load(Ordering::Relaxed) == 0 {
                        continue;
                    }
                    let mut bits = word.swap(0, Ordering::Relaxed);
                    count += u64::from(bits.count_ones());
                    while bits != 0 {
                        let i = b * BLOCK + w * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        sum += f(i, &mut walk, &mut state);
                    }
                }
                done(count, &mut state);
                (count, sum, state)
            })
            .collect();
        totals(runs)
    }
}

/// The positions, the sum and the state of each run of a drain: the totals of the positions
/// and the sums, and the states in order.
fn totals<T>(runs: Vec<(u64, u64, T)>) -> (u64, u64, Vec<T>) {
    let (mut count, mut sum) = (0, 0);
    let states = runs
        .into_iter()
        .map(|(c, s, state)| {
            count += c;
            sum += s;
            state
        })
        .collect();
    (count, sum, states)
}

fn atomics(size: usize) -> Vec<AtomicU8> {
    (0..size).map(|_| AtomicU8::new(0)).collect()
}

/// The best bounds the mover of the layer's position `houses` (seen from its side to move) can
/// leave the layer with, `(0, 0)` when no move leaves it (it raises no bound); `None` when the
/// game is over there.
#[inline]
pub(super) fn best_exits(
    variant: Variant,
    houses: [u8; 12],
    lower: &impl Lower,
) -> Option<(u8, u8)> {
    let board = board(variant, houses);
    let legal = board.moves_or_end().ok()?;
    let (mut lo, mut hi) = (0u8, 0u8);
    for m in legal {
        let child = board.play_unchecked(m);
        let gain = child.store(Side::South);
        let side = child.side_to_move();
        if gain == 0 && side == Side::North {
            continue;
        }
        let seen = from_side(child.houses(), side);
        let layer = seeds(&seen);
        let v = lower.value(layer, rank(&seen));
        let (l, h) = if side == Side::South {
            (gain + v.lo, gain + v.hi)
        } else {
            (gain + layer as u8 - v.hi, gain + layer as u8 - v.lo)
        };
        lo = lo.max(l);
        hi = hi.max(h);
    }
    Some((lo, hi))
}

/// The first pass of both propagating solvers: every position's [`best_exits`] of layer `n`,
/// given to `keep` with its index, read in [`SEGMENTS`] runs after each of which the smaller
/// layers' pages are let go ([`Lower::release`]), so that nothing else of the layer is held
/// meanwhile but what `keep` keeps.
pub(super) fn read_exits(
    variant: Variant,
    n: usize,
    lower: &impl Lower,
    progress: &impl Progress,
    keep: impl Fn(usize, Option<(u8, u8)>) + Sync,
) {
    let size = layer_size(n) as usize;
    let blocks = size.div_ceil(BLOCK);
    progress.pass(0, size as u64);
    let per_segment = blocks.div_ceil(SEGMENTS).max(1);
    for first in (0..blocks).step_by(per_segment) {
        (first..(first + per_segment).min(blocks))
            .into_par_iter()
            .for_each(|b| {
                let start = b * BLOCK;
                let end = (start + BLOCK).min(size);
                let mut houses = unrank(n, start as u64);
                for i in start..end {
                    keep(i, best_exits(variant, houses, lower));
                    next(&mut houses);
                }
                progress.advance((end - start) as u64);
            });
        lower.release();
    }
}

/// Stage 1's first pass over layer `n` in both propagating solvers, from the cores' starting
/// values (each side's own row, also the value of a finished game, see `moves`), which a
/// child's houses give without reading anything: `keep` gets each position's index, its side to
/// move's row and its new `(s, t)` (`None` where the game is over, `exits` saying `None`;
/// elsewhere `exits` gives the best its exits give). In parallel, [`BLOCK`] positions a run.
pub(super) fn first_core_pass(
    variant: Variant,
    n: usize,
    exits: impl Fn(usize) -> Option<(u8, u8)> + Sync,
    keep: impl Fn(usize, u8, Option<(u8, u8)>) + Sync,
) {
    let size = layer_size(n) as usize;
    (0..size.div_ceil(BLOCK)).into_par_iter().for_each(|b| {
        let start = b * BLOCK;
        first_core_run(variant, n, start..(start + BLOCK).min(size), &exits, &keep);
    });
}

/// [`first_core_pass`] over the positions `run` of layer `n`, in order, on this thread (the
/// MPI build's share of a layer is one run).
pub(super) fn first_core_run(
    variant: Variant,
    n: usize,
    run: std::ops::Range<usize>,
    exits: impl Fn(usize) -> Option<(u8, u8)>,
    mut keep: impl FnMut(usize, u8, Option<(u8, u8)>),
) {
    let nb = n as u8;
    if run.is_empty() {
        return;
    }
    let mut houses = unrank(n, run.start as u64);
    for i in run {
        let row: u8 = houses[..6].iter().sum();
        keep(
            i,
            row,
            exits(i).map(|best| {
                // A child's pair starts from its own row.
                let mut core = Core::new(nb, best);
                children(variant, &houses, |c| {
                    let own: u8 = c[..6].iter().sum();
                    core.child((own, nb - own));
                });
                core.held((row, nb - row))
            }),
        );
        next(&mut houses);
    }
}

/// Solves layer `n` (at most [`NARROW_UP_TO`] seeds, a pair of bounds in a byte) of `variant`
/// by propagation, with the smaller layers in `lower`, on the current rayon pool; the same bytes
/// as [`solve_layer_sweeping`](super::sweep::solve_layer_sweeping). Larger layers are
/// [`packed`](super::packed)'s.
pub fn solve_layer_propagating(
    variant: Variant,
    n: usize,
    lower: &impl Lower,
    progress: &impl Progress,
) -> Solved {
    assert!(
        n <= NARROW_UP_TO,
        "layer {n}: a pair of bounds takes more than a byte"
    );
    let size = layer_size(n) as usize;
    let nb = n as u8;

    // The exits, read once, in runs after each of which the smaller layers' pages are let go:
    // nothing else of the layer is held meanwhile.
    let exits = Narrow::new(size);
    read_exits(variant, n, lower, progress, |i, best| match best {
        Some(pair) => exits.set(i, pair),
        None => exits.put(i, Narrow::OVER),
    });

    // The first pass of stage 1, from the cores' starting values (a side's own row, also the
    // value of a finished game, see `moves`), which a child's houses give without reading
    // anything. Stage 1's `(s, t)` is stored as `(s, n - t)`, a pair `lo <= hi` (`s + t <= n`),
    // which is where stage 2's bounds start from. A position that changed held its own row
    // before.
    let st = Narrow::new(size);
    let set_st = |i: usize, (s, t): (u8, u8)| st.set(i, (s, nb - t));
    let changed = Bits::new(size);
    let exits_at = |i: usize| match exits.raw(i) {
        Narrow::OVER => None,
        x => Some(Narrow::unpack(x)),
    };
    first_core_pass(variant, n, exits_at, |i, row, core| match core {
        None => set_st(i, (row, nb - row)),
        Some(st) => {
            set_st(i, st);
            if st != (row, nb - row) {
                changed.insert(i as u64);
            }
        }
    });
    let mut evaluated = size as u64;
    let mut passes = 1;
    let store = NarrowStore {
        exits,
        pairs: st,
        ranks: atomics(size),
        dirty: Bits::new(size),
        changed,
    };
    evaluated += core_passes(variant, n, &store, progress, &mut passes);
    evaluated += bounds_passes(variant, n, &store, progress, &mut passes);

    // The pairs become the file's value bytes, and the ranks its rank bytes, each in place
    // where the sizes allow.
    let NarrowStore {
        pairs,
        ranks,
        exits,
        dirty,
        changed,
    } = store;
    drop((exits, dirty, changed));
    let ranks = ranks.into_iter().map(AtomicU8::into_inner).collect();
    solved(n, pairs.into_pairs(), ranks, passes, evaluated)
}

/// The narrow solver's [`Store`]: a byte for each position's pair, one for its exits and one
/// for its rank, a bit in each set, and stage 2's logs in a list per run of positions, the
/// pairs a pass found in the order it found them. Pass 1 of stage 2 logs in the rank bytes
/// instead, all 0 until it is committed, so that its log (most of the layer changes in it)
/// costs nothing.
struct NarrowStore {
    exits: Narrow,
    pairs: Narrow,
    ranks: Vec<AtomicU8>,
    dirty: Bits,
    changed: Bits,
}

impl NarrowStore {
    #[inline]
    fn set(&self, set: Set) -> &Bits {
        match set {
            Set::Dirty => &self.dirty,
            Set::Changed => &self.changed,
        }
    }
}

impl Store for NarrowStore {
    type Log = Vec<u8>;
    type Logged = std::vec::IntoIter<u8>;

    #[inline]
    fn exits(&self, i: usize) -> Option<(u8, u8)> {
        match self.exits.raw(i) {
            Narrow::OVER => None,
            x => Some(Narrow::unpack(x)),
        }
    }

    #[inline]
    fn pair(&self, i: usize) -> (u8, u8) {
        self.pairs.get(i)
    }

    #[inline]
    fn set_pair(&self, i: usize, pair: (u8, u8)) {
        self.pairs.set(i, pair);
    }

    #[inline]
    fn mark(&self, set: Set, i: usize) -> bool {
        self.set(set).insert(i as u64)
    }

    fn mark_all(&self) {
        self.dirty.fill(self.pairs.0.len());
    }

    fn count(&self, set: Set) -> u64 {
        self.set(set).count()
    }

    fn drain<T: Send>(
        &self,
        n: usize,
        set: Set,
        states: Vec<T>,
        f: impl Fn(usize, &mut Walk, &mut T) -> u64 + Sync,
        done: impl Fn(u64, &mut T) + Sync,
    ) -> (u64, u64, Vec<T>) {
        self.set(set).drain(n, states, f, done)
    }

    #[inline]
    fn log(&self, i: usize, pass: u32, now: (u8, u8), was: (u8, u8), log: &mut Vec<u8>) {
        let new = Narrow::pack(now);
        if pass == 1 {
            self.ranks[i].store(new, Ordering::Relaxed);
        } else {
            log.push(new);
            // Ranks are not read in a pass: the rank is set now rather than at the commit.
            if now.1 != was.1 {
                self.ranks[i].store(pass.min(255) as u8, Ordering::Relaxed);
            }
        }
        self.changed.insert(i as u64);
    }

    fn written(log: &mut Vec<u8>) {
        log.shrink_to_fit();
    }

    fn logged(log: Vec<u8>) -> std::vec::IntoIter<u8> {
        log.into_iter()
    }

    #[inline]
    fn commit(&self, j: usize, pass: u32, logged: &mut Self::Logged) -> ((u8, u8), (u8, u8)) {
        let new = match pass {
            1 => self.ranks[j].load(Ordering::Relaxed),
            _ => logged.next().expect("a logged pair per changed position"),
        };
        let was = self.pairs.get(j);
        self.pairs.put(j, new);
        let now = Narrow::unpack(new);
        if pass == 1 {
            self.ranks[j].store(u8::from(now.1 != was.1), Ordering::Relaxed);
        }
        (was, now)
    }
}
