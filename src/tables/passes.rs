//! The passes of the propagating solvers, written once: which positions each pass visits and
//! what it does there, over a [`Store`], the interface to where a solver keeps a layer's state.
//!
//! The narrow solver ([`propagate`](super::propagate)) keeps a pair of bounds in a byte, with
//! its sets of positions as bit sets and stage 2's logs in lists of their own; the packed one
//! ([`packed`](super::packed)) keeps each position's whole state, sets and logs included, in one
//! 32-bit word; the MPI build's store is a rank's share of the layer (`distributed/share.rs`),
//! which answers for the positions other ranks own with what it asked them for, and sends them
//! its marks, a round of a drain at a time. All three run these passes, so all give the
//! sweeping solver's bytes for the same reasons ([`propagate`](super::propagate) says why), and
//! the rule at each position is [`rule`](super::rule)'s.
//!
//! A pass goes through the positions of a set in runs of [`BLOCK`], in parallel, each run in
//! increasing order, so that a [`Walk`] finds the houses of the next position from the last
//! one's; a run carries a state of the store's through the pass (stage 2's log).

use super::index::{layer_size, next, rank, unrank};
use super::layer::Progress;
use super::rule::{bounds_reach, core_reaches, Bounds, Core};
use super::steps::{children, parents};
use crate::rules::Variant;

/// Positions per run of a pass; a multiple of 64, so that a run owns whole words of a bit set.
pub(super) const BLOCK: usize = 1 << 12;

/// A set of a layer's positions that the passes keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Set {
    /// To evaluate in the coming pass: a drain of it reads each position's children
    /// ([`Store::children_pairs`]; a store that must fetch them first does so for the positions
    /// it is about to visit).
    Dirty,
    /// Changed in the pass just done (stage 2: its new pair logged, not yet committed).
    Changed,
}

/// Where a propagating solver keeps a layer's state while it solves it: each position's pair
/// (stage 1's `(s, n - t)`, which becomes stage 2's `(lo, hi)`), the best bounds its exits
/// give, its rank, the two [`Set`]s, and stage 2's log of the pairs a pass found, committed
/// after the pass. Shared by the threads of a pass: every method takes `&self`.
pub(super) trait Store: Sync {
    /// What a run of positions carries of stage 2's log while a pass writes it.
    type Log: Send + Default;
    /// ... and while it is committed.
    type Logged: Send;

    /// The best bounds position `i`'s exits give (`(0, 0)` where no move leaves the layer),
    /// `None` where the game is over. After stage 2's first pass only its `hi` is read: a
    /// store may keep logs in the room of its `lo`.
    fn exits(&self, i: usize) -> Option<(u8, u8)>;

    /// Position `i`'s pair.
    fn pair(&self, i: usize) -> (u8, u8);

    /// Sets position `i`'s pair, in place (stage 1).
    fn set_pair(&self, i: usize, pair: (u8, u8));

    /// Adds position `i` to `set`; whether it was not there.
    fn mark(&self, set: Set, i: usize) -> bool;

    /// Adds position `i` to `set` if `reaches` says a change can move its pair; whether it was
    /// added and not there. A store that cannot read that pair where it is (the MPI one, for a
    /// position another rank owns) adds it anyway: evaluating a position that no change
    /// reaches changes nothing.
    #[inline(always)]
    fn mark_if(&self, set: Set, i: usize, reaches: impl FnOnce((u8, u8)) -> bool) -> bool {
        reaches(self.pair(i)) && self.mark(set, i)
    }

    /// Puts every position of the layer in [`Set::Dirty`] (or at least every one whose game
    /// goes on and whose pair is open: a pass skips the others).
    fn mark_all(&self);

    /// How many positions `set` holds (in a store split between processes, all of them: every
    /// process asks at the same point of the passes).
    fn count(&self, set: Set) -> u64;

    /// Calls `f` with every position of `set`, a [`Walk`] that gives its houses and the state
    /// of its run (one of `states` per [`BLOCK`], in order), a run in increasing order (runs in
    /// parallel where the store can), taking each out of the set (a position added meanwhile
    /// is seen now or stays in the set for the next drain), and `done` with the count and the
    /// state of each run after it; returns the number of positions, the sum of what `f`
    /// returned (both the whole layer's where a store is split between processes), and the
    /// states.
    fn drain<T: Send>(
        &self,
        n: usize,
        set: Set,
        states: Vec<T>,
        f: impl Fn(usize, &mut Walk, &mut T) -> u64 + Sync,
        done: impl Fn(u64, &mut T) + Sync,
    ) -> (u64, u64, Vec<T>);

    /// Stage 2's pass `pass` found the pair `now` at position `i`, which held `was`: logs it
    /// (in `log`, its run's, or in the store) and puts `i` in [`Set::Changed`]. A rank the
    /// store sets now must be the one [`Store::commit`] would set.
    fn log(&self, i: usize, pass: u32, now: (u8, u8), was: (u8, u8), log: &mut Self::Log);

    /// Calls `f` with the pair of each child of the layer's position `i`, whose houses are
    /// `houses` ([`children`]).
    /// The callback that ranks a child and reads its pair is copied by the compiler into each
    /// of the six moves' places where a store's read is small (the narrow store's byte); where
    /// it is not (the packed words: a run, then a word) it was kept out of line, at a tenth of
    /// the passes' time, and such a store gathers the children first ([`Children`]). The MPI
    /// store ranked them when it fetched the round's children, and finds them by `i`.
    #[inline(always)]
    fn children_pairs(
        &self,
        variant: Variant,
        _i: usize,
        houses: &[u8; 12],
        mut f: impl FnMut((u8, u8)),
    ) {
        children(variant, houses, |c| f(self.pair(rank(c) as usize)));
    }

    /// A run's log once its run is done with it: what it need not hold any more can go.
    fn written(_log: &mut Self::Log) {}

    /// A run's log, written, to be committed.
    fn logged(log: Self::Log) -> Self::Logged;

    /// Commits position `j`'s pair logged in pass `pass` (read from `logged`, its run's, in
    /// the order the pass logged them, or from the store), its rank `pass` where its `hi` fell;
    /// returns its pairs before and after.
    fn commit(&self, j: usize, pass: u32, logged: &mut Self::Logged) -> ((u8, u8), (u8, u8));
}

/// The states of the runs of a pass over layer `n`, fresh.
fn fresh<T: Default>(n: usize) -> Vec<T> {
    (0..(layer_size(n) as usize).div_ceil(BLOCK))
        .map(|_| T::default())
        .collect()
}

/// Stage 1 after its first pass, from above: in place, in any order (the largest fixed point
/// below the start is one, however it is reached), until no core shrinks. `store` holds each
/// position's `(s, n - t)`, and [`Set::Changed`] the positions the first pass lowered from their
/// own rows. A parent's `s` can only fall below a child's new `t` if that fell, and its `t`
/// below the child's new `s` likewise; a position that changes marks the parents it can move
/// at once, so that a pass also evaluates those it has yet to reach. Counts its passes on
/// `passes` and returns the positions it evaluated.
pub(super) fn core_passes(
    variant: Variant,
    n: usize,
    store: &impl Store,
    progress: &impl Progress,
    passes: &mut u32,
) -> u64 {
    let nb = n as u8;
    let st = move |i: usize| {
        let (s, u) = store.pair(i);
        (s, nb - u)
    };
    let mark_parents = move |houses: &[u8; 12], now: (u8, u8), was: (u8, u8)| {
        parents(variant, houses, move |p| {
            store.mark_if(Set::Dirty, p as usize, |(s, u)| {
                core_reaches(now, was, (s, nb - u))
            });
        });
    };
    store.drain(
        n,
        Set::Changed,
        fresh::<()>(n),
        |j, walk, _| {
            let houses = walk.houses(j);
            let row: u8 = houses[..6].iter().sum();
            mark_parents(&houses, st(j), (row, nb - row));
            0
        },
        |_, _| {},
    );
    let mut evaluated = 0;
    loop {
        let marked = store.count(Set::Dirty);
        if marked == 0 {
            return evaluated;
        }
        *passes += 1;
        progress.pass(*passes, marked);
        let evaluate = move |i: usize, walk: &mut Walk, _: &mut ()| {
            let Some(exits) = store.exits(i) else {
                return 0;
            };
            let was = st(i);
            let mut core = Core::new(nb, exits);
            let houses = walk.houses(i);
            store.children_pairs(variant, i, &houses, |(s, u)| core.child((s, nb - u)));
            let now = core.held(was);
            if now != was {
                store.set_pair(i, (now.0, nb - now.1));
                mark_parents(&houses, now, was);
            }
            0
        };
        let (count, _, _) = store.drain(n, Set::Dirty, fresh(n), evaluate, |count, _| {
            progress.advance(count)
        });
        evaluated += count;
    }
}

/// Stage 2, from the cores in `store` (stage 1's pairs, `(s, n - t)`): pass `k` reads the
/// bounds pass `k - 1` left and logs the new ones, committed when their parents are marked, so
/// that a rank is the pass of the sweeping solver. A parent's `lo` can only rise if a child's
/// new `hi` leaves it more, and its `hi` only fall if a child's new `lo` leaves it less.
/// Counts its passes on `passes` and returns the positions it evaluated.
pub(super) fn bounds_passes<S: Store>(
    variant: Variant,
    n: usize,
    store: &S,
    progress: &impl Progress,
    passes: &mut u32,
) -> u64 {
    let size = layer_size(n);
    let nb = n as u8;
    let mut evaluated = 0;
    let mut pass = 0u32;
    let mut logs: Vec<S::Log> = Vec::new();
    loop {
        pass += 1;
        let marked = if pass == 1 {
            store.mark_all();
            size
        } else {
            let logged = std::mem::take(&mut logs)
                .into_iter()
                .map(S::logged)
                .collect();
            let commit = move |j: usize, walk: &mut Walk, logged: &mut S::Logged| {
                let (was, now) = store.commit(j, pass - 1, logged);
                let moved = (now.0 != was.0, now.1 != was.1);
                let mut marked = 0;
                parents(variant, &walk.houses(j), |p| {
                    marked += u64::from(store.mark_if(Set::Dirty, p as usize, |parent| {
                        bounds_reach(nb, now, moved, parent)
                    }));
                });
                marked
            };
            store.drain(n, Set::Changed, logged, commit, |_, _| {}).1
        };
        if marked == 0 {
            return evaluated;
        }
        *passes += 1;
        progress.pass(*passes, marked);
        let first = pass == 1;
        let evaluate = move |i: usize, walk: &mut Walk, log: &mut S::Log| {
            let was = store.pair(i);
            if was.0 == was.1 {
                return 0;
            }
            let Some((xlo, xhi)) = store.exits(i) else {
                return 0;
            };
            // After the first pass `lo` is at least the exits' `lo`: see `Store::exits`.
            let mut best = Bounds::new(nb, (if first { xlo } else { 0 }, xhi));
            store.children_pairs(variant, i, &walk.houses(i), |pair| best.child(pair));
            let now = best.held(was);
            if now != was {
                store.log(i, pass, now, was, log);
            }
            0
        };
        let (count, _, written) = store.drain(n, Set::Dirty, fresh(n), evaluate, |count, log| {
            progress.advance(count);
            S::written(log);
        });
        evaluated += count;
        logs = written;
    }
}

/// The houses of the positions of a run, in increasing order, each found from the last when it
/// is near.
pub(super) struct Walk {
    n: usize,
    /// The position `houses` holds (`usize::MAX`: none yet).
    at: usize,
    houses: [u8; 12],
}

impl Walk {
    /// A walk over positions of layer `n`, at none yet.
    pub(super) fn new(n: usize) -> Walk {
        Walk {
            n,
            at: usize::MAX,
            houses: [0; 12],
        }
    }

    #[inline(always)]
    pub(super) fn houses(&mut self, i: usize) -> [u8; 12] {
        if self.at < i && i - self.at <= 16 {
            while self.at < i {
                next(&mut self.houses);
                self.at += 1;
            }
        } else if self.at != i {
            self.houses = unrank(self.n, i as u64);
            self.at = i;
        }
        self.houses
    }
}
