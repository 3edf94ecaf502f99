//! awari: an engine and match referee for Awari, the sowing game of the mancala family, under
//! five rule sets (`oware`, `awari`, `ahl`, `kalah`, `ayoayo`).
//!
//! Module map:
//! - [`rules`]: the game only (board, moves, five rule sets, notation, Zobrist keys, perft).
//!   Everything else builds on it and it imports nothing from them.
//! - [`rng`]: a seeded generator for reproducible random play.
//!
//! `protocol.md` describes the rules, the notation and the command-line and line protocols.

#![deny(missing_docs)]

pub mod classic;
pub mod engine;
pub mod lines;
pub mod referee;
pub mod rng;
pub mod rules;
pub mod tables;
