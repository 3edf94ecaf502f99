//! The propagating solver ([`propagate`](super::propagate)) for the layers whose pairs of
//! bounds do not fit a byte (22 seeds and more): every position's whole state in one 32-bit
//! word, four bytes a position and nothing beside them.
//!
//! A word holds, from its low bits:
//! - its bounds `lo` and `hi` (stage 1's `s` and `n - t`), five bits each;
//! - the best bounds its exits give, `xlo` and `xhi`, five bits each;
//! - its rank, eight bits;
//! - four flags: the game is over here, to evaluate, changed in the last pass, and "the rank's
//!   bits hold a new `hi`".
//!
//! Five bits hold every bound up to [`MOST_SEEDS`] seeds. Stage 2's logs live in the word too: a
//! position that changes in a pass writes its new `lo` over `xlo` and, when its `hi` moved, its
//! new `hi` over its rank, both committed (and the rank set to the pass) after the pass. Neither
//! is lost: `xlo` is read only in stage 2's first pass, after which `lo` is never below it (a
//! pass only raises `lo`, to at least the best of the exits and the children), and a rank is the
//! pass in which `hi` last fell, which a position whose `hi` falls is given anew.
//!
//! The flags are the sets of the narrow solver, so each pass reads every word to find its
//! positions (four bytes a position, where the narrow solver's sets skip 64 positions a word).
//!
//! While the exits are read the words are not there yet: the exits go to two bytes a position,
//! in segments after each of which the smaller layers' mapped pages are let go, and then move
//! into the words 65,536 positions (`PIECE`) at a time, each piece of exits let go as it is
//! moved. The words are held in runs of [`RUN_BITS`], each mapped for itself, and at the end
//! their pages go a piece at a time as the values and ranks come out of them.

use super::index::{layer_size, rank};
use super::layer::{Lower, Progress, Solved};
use super::passes::{bounds_passes, core_passes, Set, Store, Walk, BLOCK};
use super::propagate::{first_core_pass, read_exits};
use super::rule::finish;
use super::steps::Children;
use crate::rules::Variant;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, Ordering::Relaxed};

/// The most seeds a layer solved here may hold: a bound takes five bits.
pub const MOST_SEEDS: usize = 31;

/// Positions per run of words (and of exits), as a power of two: 64 MiB of words. A multiple
/// of the solver's blocks of 4,096 positions.
pub const RUN_BITS: u32 = 24;
/// Positions whose exits move into the words, or whose words into the values and ranks, before
/// their pages are let go: at the last piece of exits, and at the first piece of words, a
/// piece's two bytes a position are beside the whole layer's four (128 KiB; a million positions
/// made it 2 MiB).
const PIECE: usize = 1 << 16;

const LO: u32 = 0;
const HI: u32 = 5;
const XLO: u32 = 10;
const XHI: u32 = 15;
const RANK: u32 = 20;
const FIVE: u32 = 31;
const PAIR: u32 = 0x3ff;
/// The game is over at this position: no exits, no moves.
const OVER: u32 = 1 << 28;
/// To evaluate in the coming pass.
const DIRTY: u32 = 1 << 29;
/// Changed in the pass just done.
const CHANGED: u32 = 1 << 30;
/// Stage 2: the rank's low five bits hold the new `hi`, to commit.
const HI_LOGGED: u32 = 1 << 31;

/// The exits of a position whose game is over, in the two-byte runs of the first pass.
const OVER_EXITS: u16 = u16::MAX;

/// A run of `len` atomics of type `T` in memory mapped for it alone: zero until written,
/// resident only where written, and given back to the system when it goes (an allocator may keep
/// what it frees for later).
struct Run<T> {
    map: memmap2::MmapMut,
    len: usize,
    kind: std::marker::PhantomData<T>,
}

/// The atomics a [`Run`] may hold: integers, for which every bit pattern, zero included, is a
/// value.
trait Atomic: Sync {}
impl Atomic for AtomicU16 {}
impl Atomic for AtomicU32 {}

impl<T: Atomic> Run<T> {
    fn new(len: usize) -> Run<T> {
        let bytes = (len * std::mem::size_of::<T>()).max(1);
        let map = memmap2::MmapOptions::new()
            .len(bytes)
            .map_anon()
            .unwrap_or_else(|e| panic!("cannot map {bytes} bytes for a layer's solve: {e}"));
        Run {
            map,
            len,
            kind: std::marker::PhantomData,
        }
    }

    #[inline]
    fn items(&self) -> &[T] {
        // SAFETY: the map is page-aligned (more than any atomic's alignment), at least `len`
        // items long and lives as long as `self`; every bit pattern is a valid `T` (an atomic
        // integer, `Atomic`), and atomics are shared through `&`.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<T>(), self.len) }
    }

    /// Gives the pages of items `from..to` back to the system; they read 0 after.
    fn release(&self, from: usize, to: usize) {
        let size = std::mem::size_of::<T>();
        let page = 4096;
        // Whole pages inside the range only.
        let start = (from * size).div_ceil(page) * page;
        let end = (to * size) / page * page;
        if end > start {
            // SAFETY: the map is private and anonymous: the released pages read as zeros
            // afterwards, a value of every `T`; nothing holds a reference into them that expects
            // otherwise (the caller is done with those items).
            let _ = unsafe {
                self.map.unchecked_advise_range(
                    memmap2::UncheckedAdvice::DontNeed,
                    start,
                    end - start,
                )
            };
        }
    }
}

/// The words of a layer, in runs of `1 << bits` positions.
struct Words {
    runs: Vec<Run<AtomicU32>>,
    bits: u32,
}

impl Words {
    #[inline(always)]
    fn at(&self, i: usize) -> &AtomicU32 {
        &self.runs[i >> self.bits].items()[i & ((1 << self.bits) - 1)]
    }

    #[inline(always)]
    fn load(&self, i: usize) -> u32 {
        self.at(i).load(Relaxed)
    }

    /// Replaces the bits of `mask` in word `i` by `bits`, whole, whatever other threads set
    /// meanwhile in its other bits (flags).
    #[inline(always)]
    fn replace(&self, i: usize, mask: u32, bits: u32) {
        let _ = self
            .at(i)
            .fetch_update(Relaxed, Relaxed, |w| Some((w & !mask) | bits));
    }
}

/// The flag of a set.
#[inline]
fn flag(set: Set) -> u32 {
    match set {
        Set::Dirty => DIRTY,
        Set::Changed => CHANGED,
    }
}

/// The packed solver's [`Store`]: everything in the words. Stage 2's log is in the word too:
/// a position that changes writes its new `lo` over its exits' `lo` and, when its `hi` fell,
/// its new `hi` over its rank (`HI_LOGGED`); the commit puts them in place and sets the rank.
impl Store for Words {
    type Log = ();
    type Logged = ();

    #[inline(always)]
    fn exits(&self, i: usize) -> Option<(u8, u8)> {
        let w = self.load(i);
        (w & OVER == 0).then(|| exits_of(w))
    }

    #[inline(always)]
    fn pair(&self, i: usize) -> (u8, u8) {
        pair(self.load(i))
    }

    #[inline(always)]
    fn set_pair(&self, i: usize, p: (u8, u8)) {
        self.replace(i, PAIR, pair_bits(p));
    }

    #[inline(always)]
    fn mark(&self, set: Set, i: usize) -> bool {
        self.at(i).fetch_or(flag(set), Relaxed) & flag(set) == 0
    }

    fn mark_all(&self) {
        self.runs
            .par_iter()
            .flat_map(|run| run.items().par_iter())
            .for_each(|w| {
                w.fetch_or(DIRTY, Relaxed);
            });
    }

    fn count(&self, set: Set) -> u64 {
        let flag = flag(set);
        self.runs
            .par_iter()
            .flat_map(|run| run.items().par_chunks(BLOCK))
            .map(|block| block.iter().filter(|w| w.load(Relaxed) & flag != 0).count() as u64)
            .sum()
    }

    /// The blocks are found from their number and the totals summed as they come: a list of
    /// the blocks, or of their counts, would be bytes a position beside the words (some 0.01:
    /// 1.8 MiB at 193 million positions). The states are none but stage 2's logs, which the
    /// words hold: the list of them is of a type of no size.
    fn drain<T: Send>(
        &self,
        n: usize,
        set: Set,
        states: Vec<T>,
        f: impl Fn(usize, &mut Walk, &mut T) -> u64 + Sync,
        done: impl Fn(u64, &mut T) + Sync,
    ) -> (u64, u64, Vec<T>) {
        let flag = flag(set);
        let bits = self.bits;
        // Every run but the last is whole, and a whole run holds whole blocks.
        let per_run = (1usize << bits) / BLOCK;
        let blocks: usize = self.runs.iter().map(|r| r.len.div_ceil(BLOCK)).sum();
        assert_eq!(states.len(), blocks);
        let (count, sum) = (AtomicU64::new(0), AtomicU64::new(0));
        let states = states
            .into_par_iter()
            .enumerate()
            .map(|(b, mut state)| {
                let (c, k) = (b / per_run, b % per_run);
                let items = self.runs[c].items();
                let block = &items[k * BLOCK..((k + 1) * BLOCK).min(items.len())];
                let start = (c << bits) + k * BLOCK;
                let (mut block_count, mut block_sum) = (0, 0);
                let mut walk = Walk::new(n);
                for (i, word) in block.iter().enumerate() {
                    if word.load(Relaxed) & flag == 0 {
                        continue;
                    }
                    word.fetch_and(!flag, Relaxed);
                    block_count += 1;
                    block_sum += f(start + i, &mut walk, &mut state);
                }
                done(block_count, &mut state);
                count.fetch_add(block_count, Relaxed);
                sum.fetch_add(block_sum, Relaxed);
                state
            })
            .collect();
        (count.into_inner(), sum.into_inner(), states)
    }

    #[inline(always)]
    fn log(&self, i: usize, _: u32, (lo, hi): (u8, u8), was: (u8, u8), _: &mut ()) {
        let (mut mask, mut bits) = ((FIVE << XLO) | CHANGED, (u32::from(lo) << XLO) | CHANGED);
        if hi != was.1 {
            mask |= (0xff << RANK) | HI_LOGGED;
            bits |= (u32::from(hi) << RANK) | HI_LOGGED;
        }
        self.replace(i, mask, bits);
    }

    fn logged((): ()) {}

    #[inline(always)]
    fn children_pairs(
        &self,
        variant: Variant,
        _: usize,
        houses: &[u8; 12],
        mut f: impl FnMut((u8, u8)),
    ) {
        for c in Children::of(variant, houses).iter() {
            f(self.pair(rank(c) as usize));
        }
    }

    #[inline(always)]
    fn commit(&self, j: usize, pass: u32, _: &mut ()) -> ((u8, u8), (u8, u8)) {
        let w = self.load(j);
        let was = pair(w);
        let lo = ((w >> XLO) & FIVE) as u8;
        let (hi, rank_bits) = match w & HI_LOGGED != 0 {
            true => (((w >> RANK) & FIVE) as u8, pass.min(255) << RANK),
            false => (was.1, w & (0xff << RANK)),
        };
        self.replace(
            j,
            PAIR | (0xff << RANK) | HI_LOGGED,
            pair_bits((lo, hi)) | rank_bits,
        );
        (was, (lo, hi))
    }
}

/// The best bounds a word's exits give (where the game goes on; stage 2's logs overwrite its
/// `lo` after stage 2's first pass).
#[inline]
fn exits_of(w: u32) -> (u8, u8) {
    (((w >> XLO) & FIVE) as u8, ((w >> XHI) & FIVE) as u8)
}

/// The bounds `(lo, hi)` of a word.
#[inline]
fn pair(w: u32) -> (u8, u8) {
    (((w >> LO) & FIVE) as u8, ((w >> HI) & FIVE) as u8)
}

/// The bits of bounds `(lo, hi)`.
#[inline]
fn pair_bits((lo, hi): (u8, u8)) -> u32 {
    debug_assert!(lo <= hi && usize::from(hi) <= MOST_SEEDS);
    (u32::from(lo) << LO) | (u32::from(hi) << HI)
}

/// Solves layer `n` (22 to [`MOST_SEEDS`] seeds; any layer for the tests) of `variant` by
/// propagation, with the smaller layers in `lower`, on the current rayon pool: the same bytes
/// as [`solve_layer_propagating`](super::propagate::solve_layer_propagating)'s one-byte pairs
/// and the sweeping solver.
pub fn solve_layer_packed(
    variant: Variant,
    n: usize,
    lower: &impl Lower,
    progress: &impl Progress,
) -> Solved {
    solve_in_runs(variant, n, lower, progress, RUN_BITS)
}

/// [`solve_layer_packed`] with runs of `1 << run_bits` positions (at least a block of 4,096):
/// small runs let the tests' small layers cross from one run to the next.
pub fn solve_in_runs(
    variant: Variant,
    n: usize,
    lower: &impl Lower,
    progress: &impl Progress,
    run_bits: u32,
) -> Solved {
    assert!(n <= MOST_SEEDS, "layer {n}: at most {MOST_SEEDS} seeds");
    assert!(1 << run_bits >= BLOCK, "a run holds whole blocks");
    let size = layer_size(n) as usize;
    let nb = n as u8;
    let chunk = 1usize << run_bits;
    let chunks = size.div_ceil(chunk);
    let chunk_len = |c: usize| (size - c * chunk).min(chunk);

    // The exits, two bytes a position, read once, in runs after each of which the smaller
    // layers' pages are let go.
    let exits: Vec<Run<AtomicU16>> = (0..chunks).map(|c| Run::new(chunk_len(c))).collect();
    read_exits(variant, n, lower, progress, |i, best| {
        let x = match best {
            Some((lo, hi)) => u16::from(lo) | u16::from(hi) << 5,
            None => OVER_EXITS,
        };
        exits[i >> run_bits].items()[i & (chunk - 1)].store(x, Relaxed);
    });

    // The exits into the words, a piece at a time, each piece of exits let go once moved (the
    // words' pages become resident only as they are written).
    let mut words = Words {
        runs: Vec::with_capacity(chunks),
        bits: run_bits,
    };
    for run in exits {
        let moved = Run::<AtomicU32>::new(run.len);
        for from in (0..run.len).step_by(PIECE) {
            let to = (from + PIECE).min(run.len);
            moved.items()[from..to]
                .par_iter()
                .zip(run.items()[from..to].par_iter())
                .for_each(|(w, x)| {
                    let x = x.load(Relaxed);
                    w.store(
                        match x {
                            OVER_EXITS => OVER,
                            _ => (u32::from(x & 31) << XLO) | (u32::from(x >> 5) << XHI),
                        },
                        Relaxed,
                    );
                });
            run.release(from, to);
        }
        drop(run);
        words.runs.push(moved);
    }

    // Stage 1's first pass, from the cores' starting values (a side's own row), stored as
    // `(s, n - t)`; see the narrow solver.
    let exits_at = |i: usize| {
        let w = words.load(i);
        (w & OVER == 0).then(|| exits_of(w))
    };
    first_core_pass(variant, n, exits_at, |i, row, core| match core {
        None => words.replace(i, PAIR, pair_bits((row, row))),
        Some((s, t)) => {
            let flag = match (s, t) != (row, nb - row) {
                true => CHANGED,
                false => 0,
            };
            words.replace(i, PAIR | CHANGED, pair_bits((s, nb - t)) | flag);
        }
    });
    let mut evaluated = size as u64;
    let mut passes = 1;

    evaluated += core_passes(variant, n, &words, progress, &mut passes);
    evaluated += bounds_passes(variant, n, &words, progress, &mut passes);

    // The words become the file's value bytes and rank bytes, their pages let go a piece at a
    // time as they are read.
    let mut unsettled = 0;
    let mut bytes = Vec::with_capacity(size);
    let mut ranks = Vec::with_capacity(size);
    for (c, run) in words.runs.into_iter().enumerate() {
        for from in (0..run.len).step_by(PIECE) {
            let to = (from + PIECE).min(run.len);
            for (k, w) in run.items()[from..to].iter().enumerate() {
                let w = w.load(Relaxed);
                let index = (c * chunk + from + k) as u64;
                bytes.push(finish(n, index, pair(w), &mut unsettled));
                ranks.push((w >> RANK) as u8);
            }
            run.release(from, to);
        }
    }
    Solved::new(bytes, ranks, passes, unsettled, evaluated)
}
