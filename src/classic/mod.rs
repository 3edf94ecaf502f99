//! The classic opponents the game is known through, beside the strong engine: `greedy` (a
//! JavaScript tutorial's), `basic` (the 1978 BASIC Computer Games program, with its learning)
//! and `evolved` (the evolved player of a research paper). Each is a function from a position
//! to a move, built on the rules only; [`player::Player`] gives them one type, with their state
//! and a time limit, for the engine's `Opponent` option and `awari play` alike. Nothing here
//! knows of the engine. Without the `native` feature they play as ever, but keep nothing in
//! files (`basic` learns for the run only) and `evolve` is not here.

pub mod basic;
#[cfg(feature = "native")]
pub mod evolve;
#[cfg(feature = "native")]
pub mod evolve_shared;
pub mod evolved;
#[cfg(feature = "native")]
mod files;
pub mod greedy;
pub mod opponent;
pub mod player;
