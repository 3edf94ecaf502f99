//! awari: an engine and match referee for Awari, the sowing game of the mancala family, under
//! five rule sets (`oware`, `awari`, `ahl`, `kalah`, `ayoayo`).
//!
//! Module map, each building only on those above it:
//! - [`rules`]: the game only (board, moves, five rule sets, notation, Zobrist keys, perft).
//!   Everything else builds on it and it imports nothing from them.
//! - [`rng`]: a seeded generator for reproducible random play; [`shard`]: the part of a heavy
//!   job (a match, a tuning or book run) one task of a cluster does; [`outdir`]: the shared
//!   directory of a tuning or book run in shards; [`lines`]: reading lines from a pipe without
//!   trusting it (the engine's input, the referee's engines); [`files`]: opening files a user
//!   names without blocking on them; [`prefetch`]: a cache-line hint for the searches.
//! - [`tables`]: endgame tables for oware and kalah, built by retrograde analysis.
//! - [`classic`]: the classic opponents (`greedy`, `basic`, `evolved`) behind one
//!   [`classic::player::Player`] type, and the evolution that fits `evolved`'s weights.
//! - [`engine`]: the line protocol, its options, the search and its worker thread; it plays
//!   the classic opponents through `Player` when the `Opponent` option asks.
//! - [`human`]: `awari play`, a person against the engine or a classic opponent.
//! - [`referee`]: engine processes, games and matches between them, their records and
//!   statistics.
//! - [`cli`]: the `awari` command line (the engine, `perft`, `bench`, `play`, `tune`, `book`,
//!   `tables`); `src/bin/awari.rs` only calls it. The referee's is [`referee::cli`].
//!
//! `protocol.md` describes the rules, the notation and the command-line and line protocols.

#![deny(missing_docs)]

pub mod classic;
pub mod cli;
pub mod engine;
pub mod files;
pub mod human;
pub mod lines;
pub mod outdir;
pub mod pool;
pub mod prefetch;
pub mod referee;
pub mod rng;
pub mod rules;
pub mod shard;
pub mod tables;
