//! Perft: the number of leaves of the game tree at exactly a given depth. A finished game has
//! no leaves below it; a node at the last depth counts 1 even if its game is over. The counts
//! check the rules against other implementations (`protocol.md` lists reference figures).
//!
//! The last ply is counted, not played: below a live node at depth 1 there is one leaf per
//! legal move, whatever those moves lead to.

use super::board::Board;
use super::game::Game;
use super::mv::{Move, MoveList};
use super::variant::Variant;
use std::sync::atomic::{AtomicBool, Ordering};

/// Walks the tree, keeping the keys of the positions since the last capture for oware's
/// repetition rule. Its methods are compiled once for each rule set (`V` is `Variant as u8`,
/// as in the search): playing a move and telling the legal moves are then that rule set's code
/// alone, with no branch on the rule set at every node.
struct Walker<'a> {
    /// Keys of the current line's positions, root's history first.
    keys: Vec<u64>,
    /// Checked at every node three plies or more above the leaves, so that a deep count
    /// answers a stop within a few thousand leaves; once set, the walk unwinds at once.
    stop: Option<&'a AtomicBool>,
    stopped: bool,
}

impl<'a> Walker<'a> {
    fn new(game: &Game, stop: Option<&'a AtomicBool>) -> Walker<'a> {
        Walker {
            keys: game.keys_since_capture(),
            stop,
            stopped: false,
        }
    }

    /// Leaves `depth` plies below `board`; `keys[since..]` are the earlier positions since
    /// the last capture.
    fn leaves<const V: u8>(&mut self, board: &Board, depth: u32, since: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        // The last key is the parent's, with the other side to move.
        if self.repeats::<V>(board.key(), since, self.keys.len().saturating_sub(1)) {
            return 0;
        }
        let Ok(moves) = board.moves_or_end_in(variant::<V>()) else {
            return 0;
        };
        if depth == 1 {
            return moves.len() as u64;
        }
        if depth == 2 {
            return self.two::<V>(board, moves, since);
        }
        if let Some(stop) = self.stop {
            self.stopped |= stop.load(Ordering::Relaxed);
        }
        if self.stopped {
            return 0;
        }
        self.keys.push(board.key());
        let mut total = 0;
        for m in moves {
            total += self.child::<V>(board, m, depth - 1, since);
        }
        self.keys.pop();
        total
    }

    /// [`Walker::leaves`] of a live `board` two plies above the leaves, with its legal
    /// `moves`: each child's legal moves are counted in one loop, without a call for each
    /// child or pushing `board`'s key (it has the other side to move: no child repeats it).
    #[inline]
    fn two<const V: u8>(&self, board: &Board, moves: MoveList, since: usize) -> u64 {
        let mut total = 0;
        for m in moves {
            let mut child = *board;
            child.make_unchecked_in(variant::<V>(), m);
            // A capture starts a new repetition window, which holds nothing yet.
            // The last key is `board`'s parent's, with the child's side to move.
            if child.stores() == board.stores()
                && self.repeats::<V>(child.key(), since, self.keys.len())
            {
                continue;
            }
            if let Ok(replies) = child.moves_or_end_in(variant::<V>()) {
                total += replies.len() as u64;
            }
        }
        total
    }

    /// Oware: whether the position of `key` repeats one of `keys[since..end]`, the earlier
    /// positions since the last capture with the same side to move at `end - 1`, `end - 3`, ...
    /// Sides alternate and the side to move is part of the key, so only those can be equal.
    #[inline]
    fn repeats<const V: u8>(&self, key: u64, since: usize, end: usize) -> bool {
        if !variant::<V>().has_repetition() {
            return false;
        }
        let earlier = self.keys.get(since..end).unwrap_or(&[]);
        earlier.iter().rev().step_by(2).any(|&k| k == key)
    }

    /// Leaves `depth` plies below the position after `m`; `board`'s key is already pushed.
    #[inline]
    fn child<const V: u8>(&mut self, board: &Board, m: Move, depth: u32, since: usize) -> u64 {
        let mut child = *board;
        child.make_unchecked_in(variant::<V>(), m);
        // A capture changes a store and starts a new repetition window.
        let since = if child.stores() == board.stores() {
            since
        } else {
            self.keys.len()
        };
        self.leaves::<V>(&child, depth, since)
    }

    /// [`Walker::child`] for the board's own rule set.
    fn child_in(&mut self, board: &Board, m: Move, depth: u32, since: usize) -> u64 {
        match board.variant() {
            Variant::Oware => self.child::<{ Variant::Oware as u8 }>(board, m, depth, since),
            Variant::Awari => self.child::<{ Variant::Awari as u8 }>(board, m, depth, since),
            Variant::Ahl => self.child::<{ Variant::Ahl as u8 }>(board, m, depth, since),
            Variant::Kalah => self.child::<{ Variant::Kalah as u8 }>(board, m, depth, since),
            Variant::Ayoayo => self.child::<{ Variant::Ayoayo as u8 }>(board, m, depth, since),
            Variant::KalahEmpty => {
                self.child::<{ Variant::KalahEmpty as u8 }>(board, m, depth, since)
            }
        }
    }

    /// [`Walker::leaves`] for the board's own rule set.
    fn leaves_in(&mut self, board: &Board, depth: u32) -> u64 {
        match board.variant() {
            Variant::Oware => self.leaves::<{ Variant::Oware as u8 }>(board, depth, 0),
            Variant::Awari => self.leaves::<{ Variant::Awari as u8 }>(board, depth, 0),
            Variant::Ahl => self.leaves::<{ Variant::Ahl as u8 }>(board, depth, 0),
            Variant::Kalah => self.leaves::<{ Variant::Kalah as u8 }>(board, depth, 0),
            Variant::Ayoayo => self.leaves::<{ Variant::Ayoayo as u8 }>(board, depth, 0),
            Variant::KalahEmpty => self.leaves::<{ Variant::KalahEmpty as u8 }>(board, depth, 0),
        }
    }
}

/// The rule set whose number (`Variant as u8`) is `V`.
#[inline(always)]
const fn variant<const V: u8>() -> Variant {
    Variant::ALL[V as usize]
}

/// The number of leaves `depth` plies below the game's current position.
pub fn perft(game: &Game, depth: u32) -> u64 {
    Walker::new(game, None).leaves_in(game.board(), depth)
}

/// The leaves below each legal move of the current position (`depth` counted from the current
/// position, so each move's figure is a perft of `depth - 1`). Empty when `depth` is 0 or the
/// game is over.
pub fn divide(game: &Game, depth: u32) -> Vec<(Move, u64)> {
    divide_until(game, depth, &AtomicBool::new(false)).expect("never stopped")
}

/// [`divide`], ended early when `stop` is set: `None` then (the counts would be partial).
pub fn divide_until(game: &Game, depth: u32, stop: &AtomicBool) -> Option<Vec<(Move, u64)>> {
    if depth == 0 {
        return Some(Vec::new());
    }
    let mut walker = Walker::new(game, Some(stop));
    let board = *game.board();
    walker.keys.push(board.key());
    let counts = game
        .legal_moves()
        .map(|m| (m, walker.child_in(&board, m, depth - 1, 0)))
        .collect();
    (!walker.stopped).then_some(counts)
}
