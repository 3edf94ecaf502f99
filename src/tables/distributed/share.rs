//! One rank's share of a layer as a [`Store`]: the passes of the single-process solvers
//! ([`passes`](super::super::passes)) run on it unchanged, and the store alone knows that the
//! layer is split between ranks.
//!
//! A rank holds its share's positions only: per position its pair, the pair stage 2's pass
//! under way found (its log), what its exits give and its rank byte (seven bytes), and a bit in
//! each of the two sets. What the passes ask of the positions other ranks own is answered in
//! rounds of some [`ROUND`] positions of a drain, every rank taking part in every round until
//! none has a position left, so that the exchanges line up:
//! - before a round of a drain of [`Set::Dirty`] (a pass that evaluates, and so reads each
//!   position's children), the pairs of the round's children that other ranks own, asked of
//!   them in one batched exchange and answered in another from what they hold then;
//! - after every round, the marks for positions other ranks own, in a third. Such a mark is not
//!   filtered by the pair it would move (the owner holds it): evaluating a position that no
//!   change reaches changes nothing.
//!
//! Counts ([`Store::count`], the totals of a drain) are the job's, summed over the ranks, so
//! that every rank runs the same passes.

use super::exchange::{all_to_all, all_to_all_counted, by_rank, Traffic, ROUND};
use super::Shares;
use crate::rules::Variant;
use crate::tables::build::Opened;
use crate::tables::index::{layer_size, rank, unrank};
use crate::tables::passes::{Set, Store, Walk, BLOCK};
use crate::tables::propagate::{best_exits, first_core_run};
use crate::tables::steps::children;
use ahash::AHashMap;
use mpi::collective::SystemOperation;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use std::sync::atomic::{AtomicU16, AtomicU64, AtomicU8, Ordering};
use std::sync::Mutex;
use std::thread::ThreadId;

/// What the exits of a position where the game is over give: no pair.
const OVER: u16 = u16::MAX;
/// In [`Round::kids`], a child another rank owns: its slot in [`Round::far`] below this bit.
const FAR: u64 = 1 << 63;

/// The children of a round's positions, ranked once when their pairs are fetched, for the
/// evaluations that follow.
#[derive(Default)]
struct Round {
    /// The round's positions whose game goes on, by place, each with where its children start
    /// in `kids`; then `usize::MAX` and the end of `kids`.
    at: Vec<(usize, usize)>,
    /// Each child: its place in this share, or [`FAR`] and its slot in `far`.
    kids: Vec<u64>,
    /// The pairs of the children other ranks own, as they gave them.
    far: Vec<u16>,
    /// The entry of `at` last read (the positions are evaluated in order).
    cursor: usize,
}

fn pack((lo, hi): (u8, u8)) -> u16 {
    u16::from(lo) | u16::from(hi) << 8
}

fn unpack(raw: u16) -> (u8, u8) {
    (raw as u8, (raw >> 8) as u8)
}

/// The job's communicator, for a [`Share`] that the passes hold as a [`Store`], which must be
/// `Sync`. MPI is started at its lowest thread level, so only the thread that made this calls
/// MPI through it: [`World::get`] checks.
struct World<'w> {
    comm: &'w SimpleCommunicator,
    thread: ThreadId,
}

// SAFETY: the communicator is reached only through `World::get`, which panics on any thread but
// the one that made the `World`, so however a `&World` is shared, MPI is called from that thread
// alone, as its thread level requires.
unsafe impl Sync for World<'_> {}

impl World<'_> {
    fn get(&self) -> &SimpleCommunicator {
        assert_eq!(
            std::thread::current().id(),
            self.thread,
            "MPI called from a thread other than the build's"
        );
        self.comm
    }
}

/// A set of a share's places, a bit each.
struct Bits(Vec<AtomicU64>);

impl Bits {
    fn new(len: usize) -> Bits {
        Bits((0..len.div_ceil(64)).map(|_| AtomicU64::new(0)).collect())
    }

    /// Adds place `k`; whether it was new.
    fn insert(&self, k: usize) -> bool {
        let bit = 1u64 << (k % 64);
        self.0[k / 64].fetch_or(bit, Ordering::Relaxed) & bit == 0
    }

    fn count(&self) -> u64 {
        self.0
            .iter()
            .map(|w| u64::from(w.load(Ordering::Relaxed).count_ones()))
            .sum()
    }

    /// The places in the set from word `from` on, in order, taken out of it into `places` a
    /// word at a time until it holds [`ROUND`] or more; moves `from` past the words taken.
    fn take(&self, from: &mut usize, places: &mut Vec<usize>) {
        places.clear();
        while *from < self.0.len() && places.len() < ROUND {
            let w = *from;
            *from += 1;
            if self.0[w].load(Ordering::Relaxed) == 0 {
                continue;
            }
            let mut bits = self.0[w].swap(0, Ordering::Relaxed);
            while bits != 0 {
                places.push(w * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
    }
}

/// One rank's share of layer `n`: positions `start..start + len`.
pub(super) struct Share<'w> {
    world: World<'w>,
    variant: Variant,
    n: usize,
    shares: Shares,
    start: usize,
    /// Each position's pair, [`pack`]ed.
    pairs: Vec<AtomicU16>,
    /// Stage 2's log: the pair the pass under way found, committed after it.
    next: Vec<AtomicU16>,
    /// What the exits give, [`pack`]ed; [`OVER`] where the game is over.
    exits: Vec<u16>,
    ranks: Vec<AtomicU8>,
    dirty: Bits,
    changed: Bits,
    /// The children of the round's positions.
    round: Mutex<Round>,
    /// The round's marks for positions other ranks own: (owner, index).
    marks: Mutex<Vec<(u32, u64)>>,
    traffic: Mutex<Traffic>,
}

impl<'w> Share<'w> {
    /// This rank's share of layer `n`, through stage 1's first pass: what each position's exits
    /// give (read from the smaller layers, `lower`), and its pair from its children's rows
    /// ([`first_core_run`]); the positions that pass lowered are in [`Set::Changed`].
    pub(super) fn new(
        comm: &'w SimpleCommunicator,
        variant: Variant,
        n: usize,
        lower: &Opened,
    ) -> Share<'w> {
        let me = comm.rank() as usize;
        let shares = Shares {
            size: layer_size(n),
            ranks: comm.size() as usize,
        };
        let (start, len) = (shares.start(me) as usize, shares.len(me) as usize);
        let mut exits = Vec::with_capacity(len);
        if len > 0 {
            let mut houses = unrank(n, start as u64);
            for _ in 0..len {
                exits.push(best_exits(variant, houses, lower).map_or(OVER, pack));
                crate::tables::index::next(&mut houses);
            }
        }
        let share = Share {
            world: World {
                comm,
                thread: std::thread::current().id(),
            },
            variant,
            n,
            shares,
            start,
            pairs: (0..len).map(|_| AtomicU16::new(0)).collect(),
            next: (0..len).map(|_| AtomicU16::new(0)).collect(),
            exits,
            ranks: (0..len).map(|_| AtomicU8::new(0)).collect(),
            dirty: Bits::new(len),
            changed: Bits::new(len),
            round: Mutex::new(Round::default()),
            marks: Mutex::new(Vec::new()),
            traffic: Mutex::new(Traffic::default()),
        };
        let nb = n as u8;
        first_core_run(
            variant,
            n,
            start..start + len,
            |i| share.exits(i),
            |i, row, core| {
                // Stage 1's `(s, t)` is kept as `(s, n - t)`, as the passes read it.
                let (s, t) = core.unwrap_or((row, nb - row));
                share.set_pair(i, (s, nb - t));
                if core.is_some_and(|st| st != (row, nb - row)) {
                    share.changed.insert(i - start);
                }
            },
        );
        share
    }

    /// The place in the share of position `i`, if this rank owns it.
    #[inline]
    fn place(&self, i: u64) -> Option<usize> {
        let k = i.wrapping_sub(self.start as u64) as usize;
        (k < self.pairs.len()).then_some(k)
    }

    fn set(&self, set: Set) -> &Bits {
        match set {
            Set::Dirty => &self.dirty,
            Set::Changed => &self.changed,
        }
    }

    /// Ranks the children of the positions `places` (those whose game goes on) and asks the
    /// other ranks for the pairs of those they own (each once), kept for the round.
    fn fetch_children(&self, world: &SimpleCommunicator, places: &[usize]) {
        let mut round = self.round.lock().expect("the round");
        let round = &mut *round;
        round.at.clear();
        round.kids.clear();
        round.cursor = 0;
        // Each far child's slot in `far`, and the rank that owns it.
        let mut slots: AHashMap<u64, u32> = AHashMap::new();
        let mut far: Vec<(u32, u64)> = Vec::new();
        let mut walk = Walk::new(self.n);
        for &k in places {
            if self.exits[k] == OVER {
                continue;
            }
            round.at.push((k, round.kids.len()));
            children(self.variant, &walk.houses(self.start + k), |child| {
                let j = rank(child);
                round.kids.push(match self.place(j) {
                    Some(place) => place as u64,
                    None => {
                        let slot = *slots.entry(j).or_insert_with(|| {
                            far.push((self.shares.owner(j) as u32, j));
                            far.len() as u32 - 1
                        });
                        FAR | u64::from(slot)
                    }
                });
            });
        }
        round.at.push((usize::MAX, round.kids.len()));
        let (asks, ask_counts, sent_to) = by_rank(&far, self.shares.ranks);
        let (asked, asked_counts) = all_to_all(world, &asks, &ask_counts);
        let said: Vec<u16> = asked
            .iter()
            .map(|&j| {
                let k = self.place(j).expect("asked only of the rank that owns it");
                self.pairs[k].load(Ordering::Relaxed)
            })
            .collect();
        // What each rank sends back is what this one asked it.
        let back = all_to_all_counted(world, &said, &asked_counts, &ask_counts);
        round.far = sent_to.into_iter().map(|at| back[at]).collect();
        let mut traffic = self.traffic.lock().expect("the traffic");
        traffic.asks += far.len() as u64;
        traffic.exchanges += 2;
    }

    /// Sends the round's marks to the ranks that own them, and takes theirs for this one.
    fn send_marks(&self, world: &SimpleCommunicator) {
        let marks = std::mem::take(&mut *self.marks.lock().expect("the round's marks"));
        let (sent, sent_counts, _) = by_rank(&marks, self.shares.ranks);
        let (got, _) = all_to_all(world, &sent, &sent_counts);
        for p in got {
            self.dirty
                .insert(self.place(p).expect("a mark sent to the rank that owns it"));
        }
        let mut traffic = self.traffic.lock().expect("the traffic");
        traffic.marks += marks.len() as u64;
        traffic.exchanges += 1;
    }

    /// What the exchanges carried, this rank's.
    pub(super) fn traffic(&self) -> Traffic {
        *self.traffic.lock().expect("the traffic")
    }

    /// Each position's final pair, in order, and its rank byte.
    pub(super) fn into_pairs(self) -> (impl Iterator<Item = (u8, u8)>, Vec<u8>) {
        let ranks = self.ranks.into_iter().map(AtomicU8::into_inner).collect();
        let pairs = self.pairs.into_iter().map(|p| unpack(p.into_inner()));
        (pairs, ranks)
    }
}

impl Store for Share<'_> {
    type Log = ();
    type Logged = ();

    #[inline]
    fn exits(&self, i: usize) -> Option<(u8, u8)> {
        match self.exits[i - self.start] {
            OVER => None,
            x => Some(unpack(x)),
        }
    }

    #[inline]
    fn pair(&self, i: usize) -> (u8, u8) {
        unpack(self.pairs[i - self.start].load(Ordering::Relaxed))
    }

    #[inline]
    fn set_pair(&self, i: usize, pair: (u8, u8)) {
        self.pairs[i - self.start].store(pack(pair), Ordering::Relaxed);
    }

    /// A position another rank owns is marked there after the round (and counts as new).
    fn mark(&self, set: Set, i: usize) -> bool {
        match self.place(i as u64) {
            Some(k) => self.set(set).insert(k),
            None => {
                assert_eq!(set, Set::Dirty, "only a mark to evaluate crosses ranks");
                let owner = self.shares.owner(i as u64) as u32;
                self.marks
                    .lock()
                    .expect("the round's marks")
                    .push((owner, i as u64));
                true
            }
        }
    }

    fn mark_if(&self, set: Set, i: usize, reaches: impl FnOnce((u8, u8)) -> bool) -> bool {
        match self.place(i as u64) {
            Some(_) => reaches(self.pair(i)) && self.mark(set, i),
            None => self.mark(set, i),
        }
    }

    /// Only the positions whose game goes on and whose pair is open: the others a pass skips.
    fn mark_all(&self) {
        for (k, pair) in self.pairs.iter().enumerate() {
            let (lo, hi) = unpack(pair.load(Ordering::Relaxed));
            if self.exits[k] != OVER && lo != hi {
                self.dirty.insert(k);
            }
        }
    }

    fn count(&self, set: Set) -> u64 {
        let mine = self.set(set).count();
        let mut all = 0u64;
        self.world
            .get()
            .all_reduce_into(&mine, &mut all, SystemOperation::sum());
        all
    }

    /// On this thread, in rounds of [`ROUND`] positions or a few more (whole words of the set)
    /// until no rank has any left; the totals are the job's.
    fn drain<T: Send>(
        &self,
        n: usize,
        set: Set,
        mut states: Vec<T>,
        f: impl Fn(usize, &mut Walk, &mut T) -> u64 + Sync,
        done: impl Fn(u64, &mut T) + Sync,
    ) -> (u64, u64, Vec<T>) {
        let world = self.world.get();
        let bits = self.set(set);
        let mut walk = Walk::new(n);
        let (mut count, mut sum) = (0u64, 0u64);
        // The run of positions under way and how many of its positions were seen.
        let mut run: Option<(usize, u64)> = None;
        let mut from = 0;
        let mut these = Vec::with_capacity(ROUND + 63);
        loop {
            bits.take(&mut from, &mut these);
            let mut most = 0u64;
            world.all_reduce_into(&(these.len() as u64), &mut most, SystemOperation::max());
            if most == 0 {
                break;
            }
            if set == Set::Dirty {
                self.fetch_children(world, &these);
            }
            for &k in &these {
                let i = self.start + k;
                let b = i / BLOCK;
                match run {
                    Some((r, seen)) if r != b => {
                        done(seen, &mut states[r]);
                        run = Some((b, 1));
                    }
                    Some((r, seen)) => run = Some((r, seen + 1)),
                    None => run = Some((b, 1)),
                }
                sum += f(i, &mut walk, &mut states[b]);
            }
            count += these.len() as u64;
            self.send_marks(world);
        }
        if let Some((r, seen)) = run {
            done(seen, &mut states[r]);
        }
        let mine = [count, sum];
        let mut all = [0u64; 2];
        world.all_reduce_into(&mine[..], &mut all[..], SystemOperation::sum());
        (all[0], all[1], states)
    }

    /// Each child's pair: this rank's own, or the one its owner gave for the round (ranked
    /// when the round fetched them).
    #[inline]
    fn children_pairs(&self, _: Variant, i: usize, _: &[u8; 12], mut f: impl FnMut((u8, u8))) {
        let mut round = self.round.lock().expect("the round");
        let k = i - self.start;
        let mut c = round.cursor;
        while round.at[c].0 < k {
            c += 1;
        }
        assert_eq!(round.at[c].0, k, "a position the round fetched");
        round.cursor = c;
        for &kid in &round.kids[round.at[c].1..round.at[c + 1].1] {
            let raw = match kid & FAR {
                0 => self.pairs[kid as usize].load(Ordering::Relaxed),
                _ => round.far[(kid & !FAR) as usize],
            };
            f(unpack(raw));
        }
    }

    fn log(&self, i: usize, pass: u32, now: (u8, u8), was: (u8, u8), _: &mut ()) {
        let k = i - self.start;
        self.next[k].store(pack(now), Ordering::Relaxed);
        // Ranks are not read in a pass: the rank is set now rather than at the commit.
        if now.1 != was.1 {
            self.ranks[k].store(pass.min(255) as u8, Ordering::Relaxed);
        }
        self.changed.insert(k);
    }

    fn logged(_: ()) {}

    fn commit(&self, j: usize, _: u32, _: &mut ()) -> ((u8, u8), (u8, u8)) {
        let k = j - self.start;
        let now = self.next[k].load(Ordering::Relaxed);
        let was = self.pairs[k].swap(now, Ordering::Relaxed);
        (unpack(was), unpack(now))
    }
}
