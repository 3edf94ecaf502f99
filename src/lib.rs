//! awari: an engine and match referee for Awari, the sowing game of the mancala family, under
//! six rule sets (`oware`, `awari`, `ahl`, `kalah`, `ayoayo`, `kalah-empty`).
//!
//! Module map, one room per job. Arrows go one way: each module builds only on those listed
//! above it, never on one below.
//! - [`rng`]: the seeded generator of every reproducible random choice (the Zobrist keys'
//!   included). It imports nothing.
//! - [`said`]: what an engine says that the program keeps, as checked values (a score, and
//!   the last of its thinking about a move it played), for the engine client that reads them
//!   and the records that write them. It imports nothing.
//! - [`rules`]: the game only (board, moves, six rule sets, notation, Zobrist keys, perft).
//!   Everything else builds on it and it imports nothing from them.
//! - [`sys`]: files, pipes, the processor's cache, signals, the subreaper, the registry of
//!   live engines and `/proc`, wrapped once.
//! - [`tables`]: endgame tables for oware and kalah, built by retrograde analysis.
//! - [`search`]: the engine's search (iterative deepening alpha-beta, ordering, transposition
//!   table, evaluation and oware's network, time, threads, scores, the table root, the
//!   optional features' switches). It knows nothing of the
//!   protocol's text or of the tools built on it.
//! - [`info`]: what this engine says of a search as its protocol writes it (`info` lines, what
//!   the tables say of a position), for the protocol's loop and the page's engine alike.
//! - [`cluster`]: heavy jobs in shards on a cluster and the directory they share, for the
//!   tools and the referee alike.
//! - [`classic`]: the classic opponents (`greedy`, `basic`, `evolved`) behind one
//!   [`classic::player::Player`] type, and the evolution that fits `evolved`'s weights.
//! - [`tools`]: jobs built on the search (bench, tune, the opening book, the prover, the
//!   network's training data and its training, their runs in shards).
//! - [`uci`]: the engine's line protocol (text parsed with `nom` into typed commands), its
//!   options, the loop and its worker thread; it plays the classic opponents when the
//!   `Opponent` option asks, and runs `bench` and the book from [`tools`].
//! - [`play`]: a person against the engine or a classic opponent (`awari play`, in a
//!   terminal).
//! - [`client`]: the engine client: an engine driven as a child process (started, written
//!   to, read within limits, ended for sure), its replies typed, the search limits and their
//!   `go` lines, the handshake, what an engine said of a move folded from its lines, an
//!   engine as `--engine` words name it. The referee and the page both stand on it; it builds
//!   only on [`sys`] and [`said`].
//! - [`record`]: a game's record, as a JSON line and as PGN, written by the referee for its
//!   matches and by the page for its downloads. It builds on [`rules`] and [`said`], not on
//!   [`client`].
//! - [`referee`]: games and matches between engine processes, their records and statistics.
//!   It checks moves with [`rules`] and meets engines only through [`client`].
//! - [`puzzles`]: positions after a mistake where one move alone keeps the result the endgame
//!   tables prove, found in game records (`awari puzzles`) and written one a line.
//! - [`serve`]: `awari serve`, a local web page to play, watch and analyse games against
//!   any engine, driven through [`client`]. It imports nothing from the referee.
//! - [`cli`]: the `awari` command line (the engine, `perft`, `bench`, `play`, `tune`, `book`,
//!   `tables`, `solve`, `datagen`, `train`, `serve`); `src/bin/awari.rs` only calls it. The referee's is [`referee::cli`].
//!
//! Without the `native` feature (on by default) the library is [`rng`], [`said`], [`rules`], the
//! [`search`] on one thread and the [`tables`] read from bytes: no file, process, signal or
//! memory map, for WebAssembly (`web/engine`).
//!
//! `protocol.md` describes the rules, the notation and the command-line and line protocols.

pub mod classic;
#[cfg(feature = "native")]
pub mod cli;
pub mod client;
#[cfg(feature = "native")]
pub mod cluster;
pub mod info;
#[cfg(feature = "native")]
pub mod play;
pub mod puzzles;
pub mod record;
#[cfg(feature = "native")]
pub mod referee;
pub mod rng;
pub mod rules;
pub mod said;
pub mod search;
pub mod serve;
pub mod sys;
pub mod tables;
#[cfg(feature = "native")]
pub mod tools;
#[cfg(feature = "native")]
pub mod uci;
