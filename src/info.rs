//! What this engine says of a search, as its line protocol writes it: a search report's `info`
//! line, and what the endgame tables say of a position (`info string tables: ...`). The
//! protocol's loop (`uci`) writes them, and so will the page's engine in WebAssembly, so that
//! the page reads the same lines from either. It builds on the rules, the search and the
//! tables, and needs no operating system.

use crate::rules::{format_move_list, Board, Game};
use crate::search::table_root::Root;
use crate::search::tt::Bound;
use crate::search::{self, Found, Report, Score};
use crate::tables::Tables;

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
pub fn drawn(tables: Option<&Tables>, board: &Board) -> bool {
    tables.and_then(|t| t.probe(board)).is_some_and(|value| {
        value.exact().is_some() && search::table_scores(board, value) == (0, 0)
    })
}

/// What the tables say of `board`, with its stores counted, if it is within their reach:
/// `tables: value 7: South ends with 7 of the 12 seeds on the board and wins by 4`.
pub fn describe(tables: &Tables, board: &Board) -> Option<String> {
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
pub fn beyond_line(root: &Root, board: &Board, score: i32) -> Option<String> {
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

/// What the tables say after a search of `game`'s position that found `found`, as `info string`
/// texts: the position's value ([`describe`]) and what the search proved beyond its bounds
/// ([`beyond_line`]), the second also given apart (the protocol keeps it for `d`); or, beyond
/// the tables' reach, the result a search proved from table results and finished games alone.
pub fn tables_said(
    tables: Option<&Tables>,
    game: &Game,
    found: &Found,
) -> (Vec<String>, Option<String>) {
    let board = game.board();
    if let Some(line) = tables.and_then(|t| describe(t, board)) {
        let root = found.table_root.as_ref();
        let beyond = root.and_then(|r| beyond_line(r, board, found.score));
        return (
            std::iter::once(line).chain(beyond.clone()).collect(),
            beyond,
        );
    }
    match Score::of(found.score) {
        // Evaluations stay below the table scores, so a completed iteration scoring in their
        // range rests on proven results alone (table results and finished games) on the side
        // that decides it: the result is proven. Not the margin: a finished game scores as a
        // win or a loss whatever its margin, above or below every table result.
        Score::Tables(margin) => (
            vec![format!(
                "tables: the search proves that {} {}",
                board.side_to_move().name(),
                if margin > 0 { "wins" } else { "loses" },
            )],
            None,
        ),
        _ => (Vec::new(), None),
    }
}
