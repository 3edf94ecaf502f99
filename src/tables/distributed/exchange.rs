//! What the ranks send each other while they solve a layer: the batched exchanges
//! (`MPI_Alltoallv`) and what was sent ([`Traffic`]).

use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

/// Positions of a drain in a round: the children of each rank's are asked for at once, and its
/// marks sent at once.
pub(super) const ROUND: usize = 1 << 16;

/// What the ranks sent each other: for the figures, and the estimate of larger layers.
#[derive(Clone, Copy, Default)]
pub(super) struct Traffic {
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
        let mine = [self.asks, self.marks];
        let mut all = [0u64; 2];
        world.all_reduce_into(&mine[..], &mut all[..], SystemOperation::sum());
        Traffic {
            asks: all[0],
            marks: all[1],
            exchanges: self.exchanges,
        }
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
