//! The text the engine writes that is more than a word: a search report's `info` line, what
//! the tables say of a position, and the `eval` and `help` tables. Kept apart from the threads
//! that write them, so that what a line says can be read (and changed) in one place.

use crate::rules::{format_move_list, Board, Game};
use crate::search::eval::{Evaluator, Terms, WEIGHTS};
use crate::search::table_root::Root;
use crate::search::tt::Bound;
use crate::search::{self, Report, Score};
use crate::tables::Tables;
use crate::uci::options::OPTIONS;

/// An `info` line for one search report from `game`'s position. `drawn`: the tables prove
/// the position a draw (its value is exact and gives neither side more seeds), so that every
/// score of 0 its search reports is that proven draw.
pub fn info_line(r: &Report, game: &Game, drawn: bool) -> String {
    let ms = r.time.as_millis() as u64;
    let nps = r.nodes.saturating_mul(1000) / ms.max(1);
    let score = match Score::of(r.score) {
        Score::Cp(cp) => format!("cp {cp}"),
        // `mate` for UCI clients, then `cp` for those that read only `cp` (Aualé): a proven
        // result must not show as an even game.
        Score::Mate(n) => format!("mate {n} cp {}", 100 * mate_margin(game, &r.pv, n)),
        Score::Tables(margin) => format!("cp {}", 100 * margin),
    };
    let bound = match r.bound {
        Some(Bound::Lower) => " lowerbound",
        Some(Bound::Upper) => " upperbound",
        _ => "",
    };
    // `tables` after an exact score that is the tables' proven result, for the readers that
    // judge positions (a review) to tell it from an estimate; GUIs skip a word they do not
    // know, and those that read only `cp` still see the margin.
    let proven = match Score::of(r.score) {
        Score::Tables(_) => true,
        Score::Cp(0) => drawn,
        _ => false,
    };
    let tables = if proven && r.bound.is_none() {
        " tables"
    } else {
        ""
    };
    let pv = if r.pv.is_empty() {
        String::new()
    } else {
        format!(" pv {}", format_move_list(&r.pv))
    };
    // Only with `MultiPV` above 1, as UCI has it: the plain line stays as Aualé reads it.
    let multipv = r.multipv.map_or(String::new(), |k| format!(" multipv {k}"));
    format!(
        "info depth {} seldepth {}{multipv} score {score}{bound}{tables} nodes {} nps {nps} time {ms} hashfull {} tbhits {}{pv}",
        r.depth, r.seldepth, r.nodes, r.hashfull, r.tbhits
    )
}

/// The seeds the side to move ends ahead (negative: behind) in a game proven to end in `plies`
/// plies (`mate` N): the final margin of the principal variation when it reaches the end, else
/// one seed, the least a result can be decided by.
fn mate_margin(game: &Game, pv: &[crate::rules::Move], plies: i32) -> i32 {
    let me = game.board().side_to_move();
    let mut line = game.clone();
    for &m in pv {
        if line.play(m).is_err() {
            break;
        }
    }
    match line.outcome() {
        Some(o) => {
            let margin =
                i32::from(o.stores[me.index()]) - i32::from(o.stores[me.opponent().index()]);
            // A line whose end disagrees with the proven result (it should not) is not shown.
            if margin.signum() == plies.signum() {
                margin
            } else {
                plies.signum()
            }
        }
        None => plies.signum(),
    }
}

/// Whether the tables prove `board` a draw: its value is exact, and gives the side to move as
/// many seeds as its opponent, stores counted.
pub(super) fn drawn(tables: Option<&Tables>, board: &Board) -> bool {
    tables.and_then(|t| t.probe(board)).is_some_and(|value| {
        value.exact().is_some() && search::table_scores(board, value) == (0, 0)
    })
}

/// What the tables say of `board`, with its stores counted, if it is within their reach:
/// `tables: value 7: South ends with 7 of the 12 seeds on the board and wins by 4`.
pub(super) fn describe(tables: &Tables, board: &Board) -> Option<String> {
    let value = tables.probe(board)?;
    let seeds: u32 = board.houses().iter().map(|&h| u32::from(h)).sum();
    let (lower, upper) = search::table_scores(board, value);
    let result = |score: i32| match Score::of(score) {
        Score::Tables(m) if m > 0 => format!("wins by {m}"),
        Score::Tables(m) => format!("loses by {}", -m),
        _ => "draws".to_string(),
    };
    let side = board.side_to_move().name();
    // What `awari tables paths` proved beyond the bounds, and its guess, where its file is.
    let paths = match (value.exact(), tables.path(board)) {
        (None, Some((path, point))) => match path.exact() {
            Some(v) => format!("; paths: value {v} (proven from an empty history)"),
            None => format!("; paths: {}..{}, point value {point}", path.lo, path.hi),
        },
        _ => String::new(),
    };
    let line = match value.exact() {
        Some(v) => format!(
            "tables: value {v}: {side} ends with {v} of the {seeds} seeds on the board and {}",
            result(lower)
        ),
        None => format!(
            "tables: value {}..{}: {side} ends with {} to {} of the {seeds} seeds on the board \
             (a repetition decides) and {} at worst, {} at best",
            value.lo,
            value.hi,
            value.lo,
            value.hi,
            result(lower),
            result(upper)
        ),
    };
    Some(line + &paths)
}

/// After a search at a bounded table root (`None` where the tables chose alone): how many moves
/// kept the tables' guarantee, and what the search's score proves beyond the bounds. Scores in
/// the range of table results and finished games rest on proven results alone on the side that
/// decides them (evaluations stay below), so such a score proves a win or a loss; not a margin.
pub(super) fn beyond_line(root: &Root, board: &Board, score: i32) -> Option<String> {
    if root.settled() {
        return None;
    }
    let side = board.side_to_move().name();
    let wins = |s: i32| {
        matches!(Score::of(s), Score::Mate(p) if p > 0)
            || matches!(Score::of(s), Score::Tables(m) if m > 0)
    };
    let proof = if wins(score) && !wins(root.bounds.0) {
        format!("proves that {side} wins, which the bounds leave open")
    } else {
        "proves nothing beyond the bounds".to_string()
    };
    Some(format!(
        "tables: searched among the {} moves that keep the lower bound; the search {proof}",
        root.allowed.len()
    ))
}

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
