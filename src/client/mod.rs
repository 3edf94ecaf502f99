//! The engine client: an engine of the line protocol driven as a child process, for the
//! referee's games and for the page (`awari serve`) alike. [`process`] starts one (never
//! through a shell), writes to it, reads its output within limits and ends it for sure;
//! [`reply`] types what it says (`uciok`, `readyok`, `id name`, `option`, `info`,
//! `bestmove`); [`handshake`] starts an engine and does the handshake (`uci` up to `uciok`,
//! its settings, `isready` up to `readyok`), the one the referee, `referee check` and the
//! page share; [`thinking`] folds what an engine says while it thinks into what is kept of
//! its move ([`crate::said::Said`]); [`limit`] is what a search is limited by and the `go`
//! line that asks for it; [`words`] reads an engine as a command line names it
//! (`--engine cmd=... tc=...`).
//!
//! It builds only on [`crate::sys`] (the registry of live engines, the subreaper,
//! the interrupt handler, `/proc`) and [`crate::said`] (the values it reads out of an
//! engine's lines), and knows nothing of the rules, of matches or of the page: a move is
//! text to it, which its users check.
//!
//! Without the `native` feature only [`reply`], [`thinking`] and [`limit`] are here: what an
//! engine's lines mean, not the process that says them.

#[cfg(feature = "native")]
pub mod handshake;
pub mod limit;
#[cfg(feature = "native")]
pub mod process;
pub mod reply;
pub mod thinking;
#[cfg(feature = "native")]
pub mod words;

#[cfg(feature = "native")]
pub use handshake::{Hello, Refusal};
pub use limit::Limit;
#[cfg(feature = "native")]
pub use process::{Exit, Failure, OutputLimits, Process, Spec};
pub use reply::{EngineOption, Expect, Reply};
