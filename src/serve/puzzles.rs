//! The page's puzzle mode: the shipped puzzles (`puzzles/oware.txt`, made by `awari puzzles`
//! and compiled in), one at a time, and a move judged against the puzzle's answer. The server
//! keeps the answer until a move is played: the page is sent the position and its legal moves,
//! then, for a move, whether it was right and what the tables say of every move. Nothing is
//! kept per page: a puzzle is asked for by its number.

use super::view::BoardView;
use crate::puzzles::{parse_file, Puzzle};
use crate::rules::Move;
use crate::tables::probe::show;
use once_cell::sync::Lazy;
use serde_json::json;

/// The page's script of the puzzle mode.
#[cfg(feature = "native")]
pub const SCRIPT: &str = include_str!("puzzles.js");

/// The shipped puzzles, read once. The file is compiled in and its every line checked by
/// the tests (`tests/puzzles.rs`), so it cannot fail to read in a built binary.
static PUZZLES: Lazy<Vec<Puzzle>> = Lazy::new(|| {
    parse_file(include_str!("../../puzzles/oware.txt")).expect("the shipped puzzles read")
});

/// The shipped puzzles.
pub fn all() -> &'static [Puzzle] {
    &PUZZLES
}

/// The answer to a `GET /api/puzzles/...` request (`path`, with its query read by `query`):
/// its status and JSON body. `puzzle?n=N`: puzzle N (from 0) without its answer;
/// `answer?n=N&move=M`: whether M is its answer, the answer, and every move's value.
pub fn answer<'a>(path: &str, query: impl Fn(&str) -> Option<&'a str>) -> (u16, String) {
    let refused = |message: String| (400, json!({ "error": message }).to_string());
    let puzzles = all();
    let Some(n) = query("n").and_then(|n| n.parse::<usize>().ok()) else {
        return refused("n: a puzzle's number".to_string());
    };
    let Some(puzzle) = puzzles.get(n) else {
        return refused(format!("n: from 0 to {}", puzzles.len().saturating_sub(1)));
    };
    match path {
        "/api/puzzles/puzzle" => (200, posed(n, puzzle).to_string()),
        "/api/puzzles/answer" => {
            let m = query("move").and_then(|m| m.parse::<Move>().ok());
            let Some(m) = m.filter(|m| puzzle.value_of(*m).is_some()) else {
                return refused("move: one of the puzzle's legal moves".to_string());
            };
            (200, judged(puzzle, m).to_string())
        }
        _ => (404, json!({ "error": "not found" }).to_string()),
    }
}

/// Who is to move, in words.
fn mover(puzzle: &Puzzle) -> &'static str {
    puzzle.board.side_to_move().name()
}

/// A puzzle as posed: the position and its legal moves, not the answer.
fn posed(n: usize, puzzle: &Puzzle) -> serde_json::Value {
    let legal: String = puzzle.moves.iter().map(|(m, _)| m.to_string()).collect();
    json!({
        "n": n,
        "count": all().len(),
        "id": puzzle.id,
        "variant": puzzle.board.variant().name(),
        "board": BoardView::of(&puzzle.board),
        "legal": legal,
        "goal": puzzle.goal.name(),
        "task": format!("{} to move and {}: one move only keeps the {}", mover(puzzle),
            puzzle.goal.name(), puzzle.goal.name()),
        "source": format!("{}, ply {}", puzzle.source, puzzle.ply),
    })
}

/// A move judged: right or wrong, the answer, and each move's value.
fn judged(puzzle: &Puzzle, m: Move) -> serde_json::Value {
    let right = m == puzzle.answer;
    let total = puzzle.board.total_seeds();
    let moves: Vec<_> = puzzle
        .moves
        .iter()
        .map(|(x, v)| {
            json!({ "move": x.to_string(), "value": show(*v), "answer": *x == puzzle.answer })
        })
        .collect();
    let played = puzzle.value_of(m).map(show).unwrap_or_default();
    let verdict = if right {
        format!("Right: {m} keeps the {}.", puzzle.goal.name())
    } else {
        // The answer is not in the verdict: the page offers a retry before it shows it.
        format!(
            "Wrong: {m} ends with {played} of {total} seeds and loses the {}.",
            puzzle.goal.name()
        )
    };
    json!({
        "right": right,
        "move": m.to_string(),
        "answer": puzzle.answer.to_string(),
        "verdict": verdict,
        "line": format!("{} {}: {} ends with {} of {total} seeds, both sides playing perfectly",
            puzzle.answer, puzzle.goal.name(), mover(puzzle), puzzle.score),
        "moves": moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_puzzles_read_and_moves_are_judged() {
        assert!(all().len() >= 200);
        let first = &all()[0];
        let wrong = first
            .moves
            .iter()
            .find(|(m, _)| *m != first.answer)
            .unwrap()
            .0;
        let rows = [
            ("/api/puzzles/puzzle", Some("0"), None, 200, "\"legal\""),
            (
                "/api/puzzles/answer",
                Some("0"),
                Some(first.answer.to_string()),
                200,
                "\"right\":true",
            ),
            (
                "/api/puzzles/answer",
                Some("0"),
                Some(wrong.to_string()),
                200,
                "\"right\":false",
            ),
            (
                "/api/puzzles/answer",
                Some("0"),
                Some("x".to_string()),
                400,
                "move:",
            ),
            ("/api/puzzles/answer", Some("0"), None, 400, "move:"),
            (
                "/api/puzzles/puzzle",
                Some("100000"),
                None,
                400,
                "n: from 0",
            ),
            ("/api/puzzles/puzzle", Some("-1"), None, 400, "n: a puzzle"),
            ("/api/puzzles/puzzle", None, None, 400, "n: a puzzle"),
            ("/api/puzzles/other", Some("0"), None, 404, "not found"),
        ];
        for (path, n, m, status, want) in rows {
            let (got, body) = answer(path, |k| match k {
                "n" => n,
                "move" => m.as_deref(),
                _ => None,
            });
            assert_eq!(got, status, "{path} {n:?} {m:?}: {body}");
            assert!(body.contains(want), "{path} {n:?} {m:?}: {body}");
        }
        let (_, posed) = answer("/api/puzzles/puzzle", |k| (k == "n").then_some("0"));
        assert!(
            !posed.contains("\"answer\""),
            "the answer is not sent with the puzzle: {posed}"
        );
    }
}
