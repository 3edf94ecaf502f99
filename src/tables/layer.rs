//! What a layer's solvers share: a position's moves as steps inside the layer or out of it
//! ([`moves`]), the best exit ([`best_exit`]), what a solve reads ([`Lower`]), reports
//! ([`Progress`]) and returns ([`Solved`]). Both solvers, and the other passes over a layer
//! (`paths`, `rounds`, `points`), import these from here; [`solve`](super::solve) picks the
//! solver.

use super::index::{from_side, rank, seeds};
use super::value::Value;
use crate::rules::{Board, Side, Variant};

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

/// The best the mover can take by leaving the layer with one of `steps`, each bound at its
/// best (`None` when no step leaves it); each in-layer child's index goes to `inside`.
///
/// Generic over `lower` so that a solver's reads of the smaller layers inline; a caller with a
/// `&dyn Lower` still passes it.
#[inline]
pub fn best_exit(
    steps: &[Step],
    lower: &(impl Lower + ?Sized),
    mut inside: impl FnMut(u64),
) -> Option<(u8, u8)> {
    let mut best: Option<(u8, u8)> = None;
    for step in steps {
        match *step {
            Step::Inside(j) => inside(j),
            Step::Exit {
                gain,
                same_side,
                layer,
                index,
            } => {
                let v = lower.value(layer, index).after_exit(gain, same_side, layer);
                best = Some(best.map_or((v.lo, v.hi), |(l, h)| (l.max(v.lo), h.max(v.hi))));
            }
        }
    }
    best
}

/// The values of the smaller layers, as [`Value::encode`] wrote them.
pub trait Lower: Sync {
    /// The value at `index` of `layer`.
    fn value(&self, layer: usize, index: u64) -> Value;

    /// Lets go of the memory the reads so far brought in where it can be brought in again
    /// (the pages of a memory-mapped file), so that a solve's reads of the smaller layers do
    /// not pile up beside the layer it solves. By default, nothing.
    fn release(&self) {}
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
    /// Positions evaluated in all (their moves generated and their children read), every
    /// pass counted.
    pub evaluated: u64,
}

impl Solved {
    /// What a solver found, in the order of the fields.
    #[cfg(feature = "native")]
    pub(super) fn new(
        bytes: Vec<u8>,
        ranks: Vec<u8>,
        passes: u32,
        unsettled: u64,
        evaluated: u64,
    ) -> Solved {
        Solved {
            bytes,
            ranks,
            passes,
            unsettled,
            evaluated,
        }
    }
}
