//! The exceptions of `awari._native`. Both are `ValueError`s, as Python's own parsers raise for
//! text they cannot take, and each carries what a program needs to act on it without reading
//! the message: where the text went wrong, or which move was refused and why.

use awari::rules::{IllegalMove, IllegalReason, MovesError, NotationError as Notation};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pyo3::create_exception!(
    awari,
    NotationError,
    PyValueError,
    "Text that is not a position, a move or a move list; `column` is where it goes wrong \
     (1-based), or None when the text as a whole is wrong."
);

pyo3::create_exception!(
    awari,
    IllegalMoveError,
    PyValueError,
    "A move that is not legal in the position: `move` (its letter), `reason` (game-over, \
     not-your-house, empty-house, must-feed or endless) and, for a move list, `index`, the \
     0-based place of the refused move in it (None for a single move)."
);

/// The code `IllegalMoveError.reason` holds: stable words a program can compare, where the
/// message is for people.
fn reason_code(reason: IllegalReason) -> &'static str {
    match reason {
        IllegalReason::GameOver(_) => "game-over",
        IllegalReason::NotYourHouse => "not-your-house",
        IllegalReason::EmptyHouse => "empty-house",
        IllegalReason::MustFeed => "must-feed",
        IllegalReason::Endless => "endless",
    }
}

/// `NotationError(message)` with its `column`.
pub fn notation(py: Python<'_>, message: String, column: Option<usize>) -> PyErr {
    let err = NotationError::new_err(message);
    // Setting an attribute on a fresh exception object cannot fail short of memory; if it did,
    // that error is the one to raise.
    if let Err(e) = err.value(py).setattr("column", column) {
        return e;
    }
    err
}

/// A position's notation error, its column included.
pub fn from_notation(py: Python<'_>, e: &Notation) -> PyErr {
    let column = (e.field > 0).then_some(e.column);
    notation(py, e.to_string(), column)
}

/// `IllegalMoveError` for `e`, the `index`-th move of a list when there was one.
pub fn illegal(py: Python<'_>, e: &IllegalMove, index: Option<usize>) -> PyErr {
    let message = match index {
        Some(i) => format!("move {} of the list: {e}", i + 1),
        None => e.to_string(),
    };
    let err = IllegalMoveError::new_err(message);
    let value = err.value(py);
    let set = value
        .setattr("move", e.mv.to_char().to_string())
        .and_then(|()| value.setattr("reason", reason_code(e.reason)))
        .and_then(|()| value.setattr("index", index));
    match set {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// A move list that could not be read or played: nothing of it was played.
pub fn from_moves(py: Python<'_>, e: &MovesError) -> PyErr {
    match e {
        MovesError::Parse(p) => notation(py, format!("move list: {p}"), Some(p.offset + 1)),
        MovesError::Illegal { index, error } => illegal(py, error, Some(*index)),
    }
}
