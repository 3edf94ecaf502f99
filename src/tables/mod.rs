//! Endgame tables: the value of every oware or kalah position with few seeds on the board,
//! built by retrograde analysis layer by layer (a layer is a seed count) and stored one byte
//! per position.
//!
//! - [`index`]: the perfect index of a layer (combinatorial ranking of the houses).
//! - [`value`]: what an entry means ([`Value`]: bounds on the seeds the side to move ends with;
//!   when they meet, the value is exact).
//! - [`layer`]: what a layer's solvers share: moves as steps, what a solve reads and returns.
//! - [`solve`]: one layer from the smaller ones, by either solver.
//! - `rule`: what every solver computes at a position, written once.
//! - `passes`: the propagating solvers' passes, over a store of either solver's shape.
//! - [`propagate`]: the solver builds use, passes over only what changed.
//! - [`steps`]: a position's children played and its parents un-sown, from its houses.
//! - [`sweep`]: the first solver, passes over whole layers; the reference.
//! - [`file`](mod@file): layer files (header, checksum, written whole or not at all).
//! - [`build`]: `awari tables build`.
//! - [`paths`]: `awari tables paths`: exact path-game values where the bounds differ.
//! - [`rounds`]: tighter bounds by rounds of safe cores that lean on earlier rounds.
//! - [`points`]: a guess for play where the bounds differ (each side its own row on a cycle).
//! - [`probe`]: tables opened for play ([`Tables`]), once per process; [`problem`]: what is
//!   wrong with their files.
//!
//! Without the `native` feature only the reader is here (`index`, `value`, `layer`, `points`,
//! `file`'s checks and `probe`, whose `Tables::from_bytes` takes the files' bytes from the
//! embedder): no solver, no file, no memory map.
//!
//! Stores are not part of a table position: they cannot change how the seeds left on the board
//! are best played (`protocol.md`, section 8, says why and what a value means).

#[cfg(feature = "native")]
pub mod build;
#[cfg(feature = "mpi")]
pub mod distributed;
pub mod file;
mod graph;
pub mod index;
pub mod layer;
#[cfg(feature = "native")]
pub mod packed;
#[cfg(feature = "native")]
mod passes;
#[cfg(feature = "native")]
pub mod paths;
pub mod points;
pub mod probe;
pub mod problem;
#[cfg(feature = "native")]
pub mod propagate;
#[cfg(feature = "native")]
pub mod rounds;
#[cfg(feature = "native")]
mod rule;
#[cfg(feature = "native")]
pub mod solve;
#[cfg(feature = "native")]
pub mod steps;
#[cfg(feature = "native")]
pub mod sweep;
pub mod value;

pub use probe::Tables;
pub use problem::Problem;
pub use value::Value;
