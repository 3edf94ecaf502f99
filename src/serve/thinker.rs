//! What the session's driver asks of an engine, whichever it is: a child process spoken to over
//! its line protocol (`engine`, on a server) or this program's search in the same process
//! (`inproc`, in the page's WebAssembly worker). The driver decides what to search and when;
//! a thinker only searches, and passes on the protocol's lines as it goes, so that both are
//! read by the same code (`info::parse`, `thinking::hear`).

use super::kinds::Kind;
use crate::client::limit::Limit;
use crate::rules::{Game, Variant};
use std::time::Duration;

/// How long a search may go on.
#[derive(Clone, Debug, PartialEq)]
pub enum Go {
    /// A move under a kind's limit.
    Limit(Limit),
    /// This long (a hint, a position of a review).
    MoveTime(Duration),
    /// Until stopped (the analysis).
    Infinite,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ended {
    /// With this best move (the protocol's text of it).
    Best(String),
    /// Stopped when asked.
    Stopped,
    /// An endless search that returned after a slice of its work, to be asked again for more:
    /// where nothing can tell it to stop while it runs (a page's worker reads its messages only
    /// between slices). It resumes where it was, from what its table kept.
    Sliced,
}

/// An engine the driver can start, tell of a game and ask to search.
pub trait Thinker: Sized {
    /// Starts an engine of `kind`.
    fn start(kind: &Kind) -> Result<Self, String>;

    /// The kind it was started as (its id).
    fn kind(&self) -> &str;

    /// The most lines it can give at once (0: it offers no choice, one line).
    fn multipv(&self) -> u32;

    /// Tells it of game `number` of `variant`, unless it knows it.
    fn new_game(&mut self, number: u64, variant: Variant) -> Result<(), String>;

    /// The lines it gives from the next search on.
    fn set_lines(&mut self, lines: u32) -> Result<(), String>;

    /// Searches `game`'s position for as long as `go` says, passing each `info` line to `info`;
    /// `stop` is asked as it goes, and when it says so the search ends as
    /// [`Ended::Stopped`].
    fn search(
        &mut self,
        game: &Game,
        go: &Go,
        info: &mut dyn FnMut(&str),
        stop: &dyn Fn() -> bool,
    ) -> Result<Ended, String>;
}
