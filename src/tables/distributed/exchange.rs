//! What the ranks send each other while they solve a layer: the batched exchanges
//! (`MPI_Alltoallv`), what they agree on at the end of a round and of a pass, and what was sent
//! ([`Traffic`]).

use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

/// Positions evaluated in a round: each rank's moves for them, and the exchanges, at once.
pub(super) const BLOCK: u64 = 1 << 16;

/// What the passes evaluated and sent: for the figures, and the estimate of larger layers.
#[derive(Clone, Copy, Default)]
pub(super) struct Traffic {
    /// Positions evaluated (every pass counted).
    pub(super) evaluated: u64,
    /// Children's bounds asked of other ranks (an index sent, two bytes back).
    pub(super) asks: u64,
    /// Parents marked on other ranks (an index sent).
    pub(super) marks: u64,
    /// Batched exchanges (each an `MPI_Alltoall` of counts, then an `MPI_Alltoallv` of the
    /// items), the same on every rank.
    pub(super) exchanges: u64,
}

impl Traffic {
    /// Bytes that crossed between ranks.
    pub(super) fn bytes(self) -> u64 {
        self.asks * 10 + self.marks * 8
    }

    /// Every rank's counts summed (the exchanges are every rank's).
    pub(super) fn summed(self, world: &SimpleCommunicator) -> Traffic {
        let mine = [self.evaluated, self.asks, self.marks];
        let mut all = [0u64; 3];
        world.all_reduce_into(&mine[..], &mut all[..], SystemOperation::sum());
        Traffic {
            evaluated: all[0],
            asks: all[1],
            marks: all[2],
            exchanges: self.exchanges,
        }
    }
}

/// One bit per position of a share.
pub(super) struct Bits(Vec<u64>);

impl Bits {
    pub(super) fn new(len: usize) -> Bits {
        Bits(vec![0; len.div_ceil(64)])
    }

    pub(super) fn set(&mut self, k: usize) {
        self.0[k / 64] |= 1 << (k % 64);
    }

    pub(super) fn clear(&mut self) {
        self.0.fill(0);
    }

    /// How many places are set.
    pub(super) fn count(&self) -> u64 {
        self.0.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    /// The places set, in order.
    pub(super) fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    w * 64 + b
                })
            })
        })
    }
}

/// `MPI_Alltoallv` of `items`, grouped by the rank each goes to (`counts[r]` of them for rank
/// `r`, in that order): returns what the other ranks sent this one, and how many from each.
/// The counts travel first, in an exchange of their own.
pub(super) fn all_to_all<T: Equivalence + Default + Clone>(
    world: &SimpleCommunicator,
    items: &[T],
    counts: &[i32],
) -> (Vec<T>, Vec<i32>) {
    let mut got_counts = vec![0i32; counts.len()];
    world.all_to_all_into(counts, &mut got_counts[..]);
    (
        all_to_all_counted(world, items, counts, &got_counts),
        got_counts,
    )
}

/// [`all_to_all`] where this rank already knows how many items each rank sends it
/// (`got_counts`): the answers to its own questions.
pub(super) fn all_to_all_counted<T: Equivalence + Default + Clone>(
    world: &SimpleCommunicator,
    items: &[T],
    counts: &[i32],
    got_counts: &[i32],
) -> Vec<T> {
    let mut got = vec![T::default(); got_counts.iter().map(|&c| c as usize).sum()];
    let sent_displs = displacements(counts);
    let sent = Partition::new(items, counts, &sent_displs[..]);
    let displs = displacements(got_counts);
    let mut into = PartitionMut::new(&mut got[..], got_counts, &displs[..]);
    world.all_to_all_varcount_into(&sent, &mut into);
    got
}

/// The rounds every rank runs in a pass, `marked` being the positions this one has to
/// evaluate: as many as the rank with the most needs, `BLOCK` positions a round, so that the
/// exchanges line up. The same collective gives the largest of every rank's `changes`, 0
/// once the passes are over.
pub(super) fn agree(world: &SimpleCommunicator, changes: u64, marked: u64) -> (u64, u64) {
    let mine = [changes, marked.div_ceil(BLOCK)];
    let mut all = [0u64; 2];
    world.all_reduce_into(&mine[..], &mut all[..], SystemOperation::max());
    (all[0], all[1])
}

/// Groups `(rank, item)` pairs by rank, for [`all_to_all`]: the items in rank order (each
/// rank's in the order given) and the count for each rank; and where each pair went.
pub(super) fn by_rank<T: Copy + Default>(
    pairs: &[(u32, T)],
    ranks: usize,
) -> (Vec<T>, Vec<i32>, Vec<usize>) {
    let mut counts = vec![0i32; ranks];
    for &(r, _) in pairs {
        counts[r as usize] += 1;
    }
    let mut cursor: Vec<usize> = displacements(&counts)
        .into_iter()
        .map(|d| d as usize)
        .collect();
    let mut items = vec![T::default(); pairs.len()];
    let mut slots = Vec::with_capacity(pairs.len());
    for &(r, item) in pairs {
        let at = cursor[r as usize];
        items[at] = item;
        slots.push(at);
        cursor[r as usize] += 1;
    }
    (items, counts, slots)
}

pub(super) fn displacements(counts: &[i32]) -> Vec<i32> {
    counts
        .iter()
        .scan(0i32, |sum, &c| {
            let at = *sum;
            *sum += c;
            Some(at)
        })
        .collect()
}
