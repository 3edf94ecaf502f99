//! The tables of text the engine writes for `eval` and `help`. Kept apart from the threads
//! that write them, so that what a line says can be read (and changed) in one place; a
//! search's `info` lines and what the tables say of a position are [`crate::info`]'s.

use crate::rules::Board;
use crate::search::eval::{Evaluator, Terms, WEIGHTS};
use crate::uci::options::OPTIONS;

/// `eval`'s lines: each term, its weight and its share, from the side to move's view.
pub(super) fn eval_lines(board: &Board, e: &Evaluator) -> Vec<String> {
    let (t, w) = (Terms::of(board), &e.weights);
    // The terms of this rule set (or weighed by an option), with the weight's sign.
    let rows = std::iter::once(("stores (own - opponent's)", t.stores, 100)).chain(
        WEIGHTS
            .iter()
            .map(|x| (x.label, (x.term)(&t), x.sign * (x.get)(w)))
            .filter(|&(_, value, weight)| value != 0 || weight != 0),
    );
    let mut lines = vec![format!(
        "eval of {board} for {} (100 = one seed):",
        board.side_to_move().name()
    )];
    // Oware's network, first: the table of terms ends with their total.
    if board.variant() == crate::rules::Variant::Oware {
        use crate::search::network::Network;
        let (network, role) = match e.network {
            Some(network) => (network, "in use (UseNetwork true); the terms below are not"),
            None => (
                Network::shipped(),
                "the shipped one, not in use (UseNetwork false)",
            ),
        };
        // Its checksum names it: which file `EvalFile` loaded (the header of a weights file
        // holds the same number).
        lines.push(format!(
            "network: {} (checksum {:016x}, {role})",
            network.evaluate(board),
            network.checksum()
        ));
    }
    lines.push(format!(
        "{:<50} {:>6} {:>7} {:>7}",
        "term", "value", "weight", "score"
    ));
    for (name, value, weight) in rows {
        lines.push(format!(
            "{name:<50} {value:>6} {weight:>7} {:>7}",
            value * weight
        ));
    }
    lines.push(format!(
        "{:<50} {:>6} {:>7} {:>7}",
        "total",
        "",
        "",
        t.score(w)
    ));
    lines
}

/// `help`'s lines: the commands, then each option with its help.
pub(super) fn help_lines() -> Vec<String> {
    [
        "commands (protocol.md has them all):",
        "  uci | isready | ucinewgame | quit | stop | ponderhit | debug on|off",
        "  setoption name <name> [value <value>]",
        "  position startpos|fen <notation> [moves <list>]    e.g. position startpos moves FfEa",
        "  go [depth D] [nodes N] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS]",
        "     [movestogo N] [infinite] [ponder] [searchmoves <moves>]  |  go perft D",
        "  d (board) | eval (evaluation terms) | bench [depth] | help",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain(
        OPTIONS
            .iter()
            .map(|o| format!("  option {}: {}", o.name, o.help)),
    )
    .collect()
}
