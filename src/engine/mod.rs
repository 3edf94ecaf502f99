//! The engine: the line protocol (parsed with `nom` into typed commands), its options, and the
//! search behind it (iterative deepening alpha-beta with a transposition table).
//!
//! One file per concept: [`protocol`] (text to commands), [`options`] (the one table),
//! [`uci`] (the loop: reader and worker threads), [`search`] (with `ordering`, its move
//! ordering, and `threads`, its helper threads and what they share), [`tt`], [`eval`],
//! [`time`], [`bench`](mod@bench), [`solve`] (proving a kalah or ahl position's exact value), [`fixed`] (a fixed-depth search for the tools), [`book`]
//! (the opening book), [`diagram`], [`tune`] (`awari tune`: weights fitted to games), [`jobs`]
//! (`awari tune` and `awari book build` in shards, for a cluster).

pub mod bench;
pub mod book;
pub mod diagram;
pub mod eval;
pub mod fixed;
pub mod jobs;
pub mod options;
mod ordering;
pub mod protocol;
pub mod score;
pub mod search;
pub mod solve;
pub mod table_root;
mod threads;
pub mod time;
pub mod tt;
pub mod tune;
pub mod uci;

pub use uci::{run, run_with_tables};
