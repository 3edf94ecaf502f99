//! Move ordering: the order in which the search tries a node's moves. Alpha-beta cuts off
//! sooner the sooner it meets the best move, so the likeliest refutations go first: the
//! transposition table's move (the others are ordered only when it has not refuted), then
//! captures (largest first), then the killers (the quiet moves that last refuted at the same
//! ply), then the other moves by history (how deep the searches were that they refuted), ties
//! in house order.
//!
//! Each search thread has its own [`Heuristics`]; a [`Picker`] lives for one node.
//!
//! The search calls the small functions here at every node: they are `#[inline]` so that
//! builds without link-time optimization (the `ci` profile) can inline them across codegen
//! units.

use crate::rules::{Board, Move, MoveList, Variant};
use crate::search::score::MAX_PLY;
use std::mem::MaybeUninit;

/// Captures go first, largest first: their order is this plus the seeds won.
const CAPTURE: i32 = 1 << 24;
/// The first killer orders as this plus one, the second as this.
const KILLER: i32 = 1 << 22;
/// History stops growing here, below the killers.
const HISTORY_MAX: i32 = 1 << 20;

/// A move handed over by a [`Picker`]: the move, the position it leads to and its ordering.
#[derive(Clone, Copy)]
pub(super) struct Child<'a> {
    order: i32,
    /// Seeds the move adds to the mover's store (a capture, or a sowing through the store).
    gain: i32,
    pub(super) mv: Move,
    pub(super) board: &'a Board,
}

impl Child<'_> {
    /// Whether the move adds nothing to the mover's store: when such a move refutes, it is the
    /// ordering that missed it, so it is remembered (a capture goes early anyway).
    #[inline]
    pub(super) fn is_quiet(&self) -> bool {
        self.gain == 0
    }

    /// Seeds the move adds to the mover's store (a capture, or a sowing through the store).
    #[inline]
    pub(super) fn gain(&self) -> i32 {
        self.gain
    }

    /// Whether the move is neither a capture nor a killer: the moves that late move reduction
    /// may search shallower, being unlikely to refute.
    #[inline]
    pub(super) fn is_plain(&self) -> bool {
        self.gain == 0 && self.order < KILLER
    }
}

/// What one search thread has learnt about quiet moves: the killers of each ply and the
/// history of each house.
pub(super) struct Heuristics {
    /// Two killer moves per ply, as house + 1 (0 = none).
    killers: [[u8; 2]; MAX_PLY],
    /// By house; 16 of them, so that a house's index needs no bounds check (`house & 15`).
    history: [i32; 16],
}

impl Heuristics {
    /// Nothing learnt yet.
    pub(super) fn new() -> Heuristics {
        Heuristics {
            killers: [[0; 2]; MAX_PLY],
            history: [0; 16],
        }
    }

    /// A new iteration: the history so far counts half, so that what the deeper searches
    /// find weighs more.
    pub(super) fn age(&mut self) {
        for h in &mut self.history {
            *h /= 2;
        }
    }

    /// A quiet move refuted the opponent at `ply`, `depth` plies from the horizon: remember it.
    #[inline]
    pub(super) fn reward(&mut self, ply: usize, m: Move, depth: i32) {
        let house = m.house() as u8 + 1;
        if self.killers[ply][0] != house {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = house;
        }
        let h = &mut self.history[m.house() & 15];
        *h = (*h + depth * depth).min(HISTORY_MAX);
    }

    /// The order of a move that wins no seeds, at `ply`. Every value is read and one chosen,
    /// with no branch: which applies is as hard to foresee as the moves.
    #[inline]
    fn quiet_order(&self, ply: usize, m: Move) -> i32 {
        let house = m.house() as u8 + 1;
        let [first, second] = self.killers[ply];
        let history = self.history[m.house() & 15];
        let order = if second == house { KILLER } else { history };
        if first == house {
            KILLER + 1
        } else {
            order
        }
    }
}

/// The moves of one node, played out and handed over in the order they are to be searched.
///
/// Every move is played out at once, at most nodes before the node reads its transposition
/// table entry, since playing them out (and asking for each child's entry) is work the
/// processor does while that entry, asked for by the parent, is still on its way from memory;
/// one ply from the horizon, where futility does not apply, only once the table has not ended
/// the node; and not at all at a node futility cuts off. Their order is worked out only when
/// they are first handed over, and, after a table move, only once that has been searched, so
/// that what its search taught the killers and history counts.
///
/// Each move handed over is the best of those left, found by comparing all six keys at once
/// rather than by sorting: most nodes end after one or two moves, and a sort's comparisons,
/// which the processor cannot foresee, cost more than the few scans made.
///
/// The children's boards are an array of their own, apart from the moves and their orders: a
/// board beside them in one struct put it at an offset the compiler filled, at every node, by
/// copying the parent's board through unaligned temporaries, which stalled the loads after
/// them. (What both choices saved: doc/figures.md.)
pub(super) struct Picker {
    /// The children's boards, those below `len` written by [`Picker::play`]: left unwritten
    /// before, as most nodes have fewer than six moves: copying the parent's board into every
    /// one first would be a call to `memcpy` at every node.
    boards: [MaybeUninit<Board>; 6],
    moves: [Move; 6],
    /// Seeds each move adds to the mover's store (a capture, or a sowing through the store).
    gains: [i32; 6],
    /// Once ordered, each child's order packed with its index, `order << 3 | (7 - index)`:
    /// the largest is handed over next, and of equal orders the first move. 0 for a child
    /// handed over already, or none.
    keys: [u32; 6],
    /// The children played out.
    len: usize,
    /// The table's move (its index), handed over first, before the others are ordered; 6 for
    /// none.
    first: usize,
    /// Whether the table's move is still to be handed over.
    first_pending: bool,
    /// Whether `keys` hold the orders yet: not before the first move is handed over.
    ordered: bool,
}

impl Picker {
    /// No moves yet.
    #[inline]
    pub(super) fn new() -> Picker {
        let house_0 = Move::new(0).expect("house 0");
        Picker {
            boards: [MaybeUninit::uninit(); 6],
            moves: [house_0; 6],
            gains: [0; 6],
            keys: [0; 6],
            len: 0,
            first: 6,
            first_pending: false,
            ordered: false,
        }
    }

    /// Plays every move of `moves` out of `board`, a board of `variant` (once only);
    /// `prefetch` is shown each child's position as it is played out.
    #[inline]
    pub(super) fn play(
        &mut self,
        variant: Variant,
        board: &Board,
        moves: MoveList,
        prefetch: impl Fn(&Board),
    ) {
        debug_assert_eq!(self.len, 0, "the moves are played out once");
        let me = board.side_to_move();
        let mut n = 0;
        for m in moves {
            if n == self.boards.len() {
                break;
            }
            // The child is played where it stays: returned by value, its bytes, just written
            // one by one, would be copied out again while the processor still holds them.
            let child = self.boards[n].write(*board);
            child.make_unchecked_in(variant, m);
            prefetch(child);
            self.gains[n] = i32::from(child.store(me)) - i32::from(board.store(me));
            self.moves[n] = m;
            n += 1;
        }
        self.len = n;
    }

    /// The positions the moves played out lead to, in the order of the moves.
    #[inline]
    pub(super) fn boards(&self) -> impl Iterator<Item = &Board> {
        // SAFETY: the boards below `len` are those `play` wrote.
        self.boards[..self.len]
            .iter()
            .map(|b| unsafe { b.assume_init_ref() })
    }

    /// Puts `first` (one of the moves, if any) first: it is handed over before the others are
    /// ordered.
    #[inline]
    pub(super) fn put_first(&mut self, first: Option<Move>) {
        let Some(m) = first else { return };
        if let Some(i) = (0..self.len).find(|&i| self.moves[i] == m) {
            self.first = i;
            self.first_pending = true;
        }
    }

    /// The next move to search, at `ply`; `None` when all have been handed over.
    #[inline(always)]
    pub(super) fn next(&mut self, heuristics: &Heuristics, ply: usize) -> Option<Child<'_>> {
        let (i, order) = if self.first_pending {
            // The table's move, never ordered: its order, 0, means nothing (it is searched
            // first, unreduced).
            self.first_pending = false;
            (self.first, 0)
        } else {
            if !self.ordered {
                self.order(heuristics, ply);
            }
            // A tree of comparisons, not a chain: three steps deep rather than six.
            let k = &self.keys;
            let best = (k[0].max(k[1]).max(k[2].max(k[3]))).max(k[4].max(k[5]));
            if best == 0 {
                return None;
            }
            let i = 7 - (best & 7) as usize;
            self.keys[i] = 0;
            (i, (best >> 3) as i32)
        };
        debug_assert!(i < self.len);
        // SAFETY: only indices below `len` are handed over, the boards `play` wrote.
        let board = unsafe { self.boards[i].assume_init_ref() };
        Some(Child {
            order,
            gain: self.gains[i],
            mv: self.moves[i],
            board,
        })
    }

    /// Orders the children not handed over yet: captures (largest first), killers, then by
    /// history, ties in the order of the moves.
    fn order(&mut self, heuristics: &Heuristics, ply: usize) {
        for i in 0..self.len {
            let gain = self.gains[i];
            // Both worked out, one chosen: no branch (see `quiet_order`).
            let quiet = heuristics.quiet_order(ply, self.moves[i]);
            let order = if gain > 0 { CAPTURE + gain } else { quiet };
            self.keys[i] = (order as u32) << 3 | (7 - i as u32);
        }
        // The table's move, if there was one, was handed over before.
        if self.first < 6 {
            self.keys[self.first] = 0;
        }
        self.ordered = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use std::cmp::Reverse;

    /// One node's ordering: each move's gain, the ply's killers (house + 1), the history of
    /// each house and the table's move (a house), for South's six moves of the start.
    struct Case {
        gains: [i32; 6],
        killers: [u8; 2],
        history: [i32; 6],
        first: Option<usize>,
    }

    /// The order the module's doc promises, by a stable sort: the table's move, then captures
    /// (largest first), the killers (the first one first), the rest by history, ties in the
    /// order of the moves.
    fn expected(case: &Case) -> Vec<usize> {
        let order = |h: usize| match case.gains[h] {
            g if g > 0 => CAPTURE + g,
            _ if usize::from(case.killers[0]) == h + 1 => KILLER + 1,
            _ if usize::from(case.killers[1]) == h + 1 => KILLER,
            _ => case.history[h],
        };
        let mut rest: Vec<usize> = (0..6).filter(|&h| Some(h) != case.first).collect();
        rest.sort_by_key(|&h| Reverse(order(h)));
        case.first.into_iter().chain(rest).collect()
    }

    /// The houses a picker hands over for `case`, at ply 3.
    fn handed(case: &Case) -> Vec<usize> {
        let board = Board::start(Variant::Oware);
        let mut picker = Picker::new();
        picker.play(Variant::Oware, &board, board.legal_moves(), |_| {});
        assert_eq!(picker.len, 6);
        picker.gains = case.gains;
        let mut heuristics = Heuristics::new();
        heuristics.killers[3] = case.killers;
        heuristics.history[..6].copy_from_slice(&case.history);
        picker.put_first(case.first.map(|h| Move::new(h).expect("a house")));
        std::iter::from_fn(|| picker.next(&heuristics, 3).map(|c| c.mv.house())).collect()
    }

    #[test]
    fn moves_are_handed_over_in_order() {
        let cases = [
            // All equal: the order of the moves.
            Case {
                gains: [0; 6],
                killers: [0, 0],
                history: [0; 6],
                first: None,
            },
            // Captures, largest first, equal ones in move order, then the rest.
            Case {
                gains: [0, 3, 0, 1, 0, 3],
                killers: [0, 0],
                history: [0; 6],
                first: None,
            },
            // The killers before the history, the first killer first.
            Case {
                gains: [0; 6],
                killers: [4, 6],
                history: [0, 9, 0, 0, 0, 1],
                first: None,
            },
            // The table's move first, even a quiet one among captures.
            Case {
                gains: [2, 0, 5, 0, 0, 0],
                killers: [1, 0],
                history: [0, 0, 0, 0, 7, 0],
                first: Some(4),
            },
            // History decides among quiet moves; the top of the range still below the killers.
            Case {
                gains: [0; 6],
                killers: [2, 0],
                history: [5, HISTORY_MAX, 5, 0, HISTORY_MAX, 1],
                first: Some(0),
            },
        ];
        for case in &cases {
            assert_eq!(handed(case), expected(case));
        }
        let mut rng = Rng::new(22);
        for _ in 0..20_000 {
            let mut value = |n: u64| rng.below(n) as i32;
            let gains = std::array::from_fn(|_| [0, 0, 0, 1, 2, 3, 12][value(7) as usize]);
            let history =
                std::array::from_fn(|_| [0, 1, 4, 4, 100, HISTORY_MAX][value(6) as usize]);
            let killers = [value(7) as u8, value(7) as u8];
            let first = [None, Some(value(6) as usize)][value(2) as usize];
            let case = Case {
                gains,
                killers,
                history,
                first,
            };
            assert_eq!(handed(&case), expected(&case));
        }
    }
}
