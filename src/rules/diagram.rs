//! A position drawn for a person, with its notation, legal moves and result: what the
//! engine's `d` prints, and the Python bindings' board too.

use super::{format_move_list, Game, Side, Status};

/// The lines that draw `game` (the engine's `d` prints them).
///
/// North's row is drawn from its `f` (on South's left) to `a`, so that sowing runs
/// counter-clockwise as on a real board:
///
/// ```text
///        f   e   d   c   b   a
///      [ 4][ 4][ 4][ 4][ 4][ 4]      North
///   0                            0
///      [ 4][ 4][ 4][ 4][ 4][ 4]      South
///        A   B   C   D   E   F
/// ```
pub fn diagram(game: &Game) -> Vec<String> {
    let board = game.board();
    let row = |side: Side| -> String {
        let mut cells: Vec<String> = board
            .row(side)
            .iter()
            .map(|n| format!("[{n:>2}]"))
            .collect();
        if side == Side::North {
            cells.reverse();
        }
        cells.concat()
    };
    let to_move = |side: Side| {
        if board.side_to_move() == side {
            "  <- to move"
        } else {
            ""
        }
    };
    let mut lines = vec![
        String::new(),
        "       f   e   d   c   b   a".to_string(),
        format!(
            "     {}      North{}",
            row(Side::North),
            to_move(Side::North)
        ),
        format!(
            "{:>4}{:>29}      stores: North left, South right",
            board.store(Side::North),
            board.store(Side::South)
        ),
        format!(
            "     {}      South{}",
            row(Side::South),
            to_move(Side::South)
        ),
        "       A   B   C   D   E   F".to_string(),
        String::new(),
        format!("Variant: {}", board.variant()),
        format!("Position: {board}"),
        format!("Key: {:016x}", board.key()),
    ];
    if !game.moves().is_empty() {
        lines.push(format!("Moves: {}", format_move_list(game.moves())));
        lines.push(format!("Start: {}", game.start()));
    }
    if board.bonus_pending() {
        lines.push("Bonus move: this is the bonus move, it cannot earn another".to_string());
    }
    match game.status() {
        Status::Ongoing(moves) => lines.push(format!(
            "{} to move; legal moves: {moves}",
            board.side_to_move().name()
        )),
        Status::Over(outcome) => lines.push(format!("Game over: {outcome}")),
    }
    lines
}
