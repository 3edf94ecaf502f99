//! The review of a game: the engine's score of every position, and each move judged by what it
//! lost against the engine's best. Only numbers come in (scores from the driver, which runs
//! the engine): the judging is pure, and tested as a table.

use super::view;
use crate::rules::{Move, Side};
use serde::Serialize;

/// A review of the game: the engine's score of every position, and each move that lost seeds
/// against the engine's best.
#[derive(Clone, Debug, Serialize)]
pub struct Review {
    /// The generation reviewed.
    pub generation: u64,
    /// Milliseconds per position.
    pub ms: u64,
    /// The positions scored so far (South's view, seeds): one per ply, then the end.
    pub evals: Vec<f64>,
    /// The moves judged so far.
    pub moves: Vec<Judged>,
    /// Whether every position is scored.
    pub done: bool,
}

/// One move of a review.
#[derive(Clone, Debug, Serialize)]
pub struct Judged {
    /// Its ply, from 1.
    pub ply: usize,
    /// The move.
    pub mv: char,
    /// The engine's best move there.
    pub best: Option<char>,
    /// Seeds it lost against the best (its mover's view).
    pub loss: f64,
    /// `inaccuracy` (a seed or more), `mistake` (2), `blunder` (4), or none.
    pub mark: Option<&'static str>,
}

/// A score in seeds from South's view; a forced win counts as 50 seeds.
pub fn seeds(score: view::Score) -> f64 {
    match score {
        view::Score::Cp(n) => f64::from(n) / 100.0,
        view::Score::Mate(n) => 50.0f64.copysign(f64::from(n)),
    }
}

/// What a move lost: `before` and `after` are South's view; the mover's view decides.
pub fn judge(ply: usize, mv: Move, best: Option<char>, before: f64, after: f64) -> Judged {
    let sign = if mv.side() == Side::South { 1.0 } else { -1.0 };
    let loss = if best == Some(mv.to_char()) {
        0.0
    } else {
        ((before - after) * sign).max(0.0)
    };
    let mark = if loss >= 4.0 {
        Some("blunder")
    } else if loss >= 2.0 {
        Some("mistake")
    } else if loss >= 1.0 {
        Some("inaccuracy")
    } else {
        None
    };
    Judged {
        ply,
        mv: mv.to_char(),
        best,
        loss: (loss * 100.0).round() / 100.0,
        mark,
    }
}
