//! What the last search proved beyond the tables' bounds, kept for the position it searched so
//! that `d` can show it beside them. Written by the worker when a search at a bounded table
//! root ends, read by the reader; a `position` that differs (the history included, since the
//! repetition rule reads it) finds nothing.

use crate::rules::{Board, Game};
use std::sync::{Arc, Mutex};

/// A line and the positions of the game it is about.
type Kept = Option<(Vec<Board>, String)>;

/// The last proof and the game it is about.
#[derive(Clone, Default)]
pub(super) struct Proven(Arc<Mutex<Kept>>);

impl Proven {
    /// Keeps `line` for `game`.
    pub(super) fn set(&self, game: &Game, line: String) {
        if let Ok(mut last) = self.0.lock() {
            *last = Some((game.positions().to_vec(), line));
        }
    }

    /// The line kept for `game`, if the last search was of the same game.
    pub(super) fn get(&self, game: &Game) -> Option<String> {
        let last = self.0.lock().ok()?;
        let (positions, line) = last.as_ref()?;
        (positions.as_slice() == game.positions()).then(|| line.clone())
    }
}
