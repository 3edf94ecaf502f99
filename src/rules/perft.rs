//! Perft: the number of leaves of the game tree at exactly a given depth. A finished game has
//! no leaves below it; a node at the last depth counts 1 even if its game is over. The counts
//! check the rules against other implementations (`protocol.md` lists reference figures).
//!
//! The last ply is counted, not played: below a live node at depth 1 there is one leaf per
//! legal move, whatever those moves lead to.

use super::board::Board;
use super::game::Game;
use super::mv::Move;
use std::sync::atomic::{AtomicBool, Ordering};

/// Walks the tree, keeping the keys of the positions since the last capture for oware's
/// repetition rule.
struct Walker<'a> {
    /// Keys of the current line's positions, root's history first.
    keys: Vec<u64>,
    repetition: bool,
    /// Checked at every node three plies or more above the leaves, so that a deep count
    /// answers a stop within a few thousand leaves; once set, the walk unwinds at once.
    stop: Option<&'a AtomicBool>,
    stopped: bool,
}

impl<'a> Walker<'a> {
    fn new(game: &Game, stop: Option<&'a AtomicBool>) -> Walker<'a> {
        Walker {
            keys: game.keys_since_capture(),
            repetition: game.board().variant().has_repetition(),
            stop,
            stopped: false,
        }
    }

    /// Leaves `depth` plies below `board`; `keys[since..]` are the earlier positions since
    /// the last capture.
    fn leaves(&mut self, board: &Board, depth: u32, since: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.repetition && self.keys[since..].contains(&board.key()) {
            return 0;
        }
        let Ok(moves) = board.moves_or_end() else {
            return 0;
        };
        if depth == 1 {
            return moves.len() as u64;
        }
        if depth >= 3 {
            if let Some(stop) = self.stop {
                self.stopped |= stop.load(Ordering::Relaxed);
            }
        }
        if self.stopped {
            return 0;
        }
        self.keys.push(board.key());
        let mut total = 0;
        for m in moves {
            total += self.child(board, m, depth - 1, since);
        }
        self.keys.pop();
        total
    }

    /// Leaves `depth` plies below the position after `m`; `board`'s key is already pushed.
    #[inline]
    fn child(&mut self, board: &Board, m: Move, depth: u32, since: usize) -> u64 {
        let child = board.play_unchecked(m);
        // A capture changes a store and starts a new repetition window.
        let since = if child.stores() == board.stores() {
            since
        } else {
            self.keys.len()
        };
        self.leaves(&child, depth, since)
    }
}

/// The number of leaves `depth` plies below the game's current position.
pub fn perft(game: &Game, depth: u32) -> u64 {
    Walker::new(game, None).leaves(game.board(), depth, 0)
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
        .map(|m| (m, walker.child(&board, m, depth - 1, 0)))
        .collect();
    (!walker.stopped).then_some(counts)
}
