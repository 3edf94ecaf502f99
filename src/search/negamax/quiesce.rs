//! Quiescence search (`Quiescence`): past the horizon, only captures (and kalah's and ahl's
//! extra moves) are played, until the position is quiet.

use super::super::eval::evaluate_in;
use super::super::ordering::Picker;
use super::super::score::{finished, MAX_PLY, TB_BOUND};
use super::guards::{ends, node_guards, Guards};
use super::prune::{least_capture, DELTA, QUIESCENCE_PLIES};
use super::{variant, Node, Searcher, Window};
use crate::rules::{Board, EndReason};
use std::ops::ControlFlow;

impl Searcher<'_> {
    /// Quiescence search (`Quiescence`): the score of `board`, `qply` plies beyond the horizon,
    /// in `window`. The side to move may stand pat on its evaluation or play on with a
    /// tactical move (a capture; in kalah and ahl an extra move too), until the position is
    /// quiet or [`QUIESCENCE_PLIES`] deep. A capture that cannot raise alpha even with
    /// [`DELTA`] to spare is not searched (delta pruning), except where the game's end is near
    /// ([`guards`](super::guards)): there every capture is searched, and so is every
    /// move that ends the game. Nothing is stored in the transposition table.
    pub(super) fn quiesce<const V: u8>(
        &mut self,
        board: &Board,
        node: Node,
        window: Window,
        qply: i32,
    ) -> i32 {
        self.visit(node.ply);
        if self.ledger.aborted {
            return 0;
        }
        let variant = variant::<V>();
        let moves = match board.moves_or_end_in(variant) {
            Ok(moves) => moves,
            Err(reason) => return finished(board, reason, node.ply),
        };
        // Past the horizon's own node every position follows a capture or an extra move
        // (kalah, ahl: no repetition rule): none can repeat.
        if qply == 0
            && variant.has_repetition()
            && self.repetitions.repeats(board.key(), node.since)
        {
            return finished(board, EndReason::Repetition, node.ply);
        }
        let known = match self.probe_tables(board, node.ply, window, true) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(known) => known,
        };
        let stand = evaluate_in(variant, board, &self.evaluator)
            .clamp(-TB_BOUND + 1, TB_BOUND - 1)
            .clamp(known.0, known.1);
        if stand >= window.beta || qply >= QUIESCENCE_PLIES || node.ply >= MAX_PLY - 1 {
            return stand;
        }
        let mut best = stand;
        let mut window = Window {
            alpha: window.alpha.max(stand),
            ..window
        };
        let me = board.side_to_move();
        let least = least_capture(variant);
        let mut picker = Picker::new();
        picker.play(variant, board, moves, |_| {});
        let repeats = |key| self.repetitions.repeats_below(key, node.since);
        let mut found = node_guards(variant, board, moves.len());
        if picker
            .boards()
            .any(|child| ends(variant, board, child, repeats).is_some())
        {
            found = found.with(Guards::MOVE_ENDS_GAME);
        }
        let guarded = self.guarded(found);
        let next = node.child(node.since, 0);
        while let Some(child) = picker.next(&self.heuristics, node.ply) {
            let same = child.board.side_to_move() == me;
            let gain = child.gain();
            let end = match guarded {
                true => ends(variant, board, child.board, |key| {
                    self.repetitions.repeats_below(key, node.since)
                }),
                false => None,
            };
            let futile = gain < least || (!guarded && stand + 100 * gain + DELTA <= window.alpha);
            if !same && end.is_none() && futile {
                continue;
            }
            // A repetition is seen here: past the horizon's node the line is not kept.
            let score = if end == Some(EndReason::Repetition) {
                -finished(child.board, EndReason::Repetition, node.ply + 1)
            } else if same {
                self.quiesce::<V>(child.board, next, window, qply + 1)
            } else {
                -self.quiesce::<V>(child.board, next, window.negated(), qply + 1)
            };
            if self.ledger.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score >= window.beta {
                    break;
                }
                window.alpha = window.alpha.max(score);
            }
        }
        best.clamp(known.0, known.1)
    }
}
