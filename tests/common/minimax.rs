//! The game-theoretic result of small endgames by plain full-width minimax over `Game`, with
//! none of the search's code: what the search's answers are checked against. (Also a module of
//! `tests/quiescence.rs`, a program of its own.)

use awari::rules::Game;

/// The game-theoretic result for the side to move, if every line is decided within `depth`
/// plies: 1 win, 0 draw, -1 loss. Plain minimax over `Game`, which applies every rule itself
/// (repetition included).
pub fn solve(game: &mut Game, depth: u32) -> Option<i32> {
    let me = game.board().side_to_move();
    if let Some(outcome) = game.outcome() {
        return Some(match outcome.winner {
            None => 0,
            Some(w) if w == me => 1,
            Some(_) => -1,
        });
    }
    if depth == 0 {
        return None;
    }
    let mut best = Some(-1);
    for m in game.legal_moves() {
        game.play(m).expect("a listed move is legal");
        let same = game.board().side_to_move() == me;
        let v = solve(game, depth - 1).map(|v| if same { v } else { -v });
        game.undo();
        best = match (best, v) {
            (_, Some(1)) => return Some(1),
            (Some(b), Some(v)) => Some(b.max(v)),
            _ => None,
        };
    }
    best
}
