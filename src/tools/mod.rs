//! The jobs built on the search, each a command of `awari`: [`tune`] (evaluation weights fitted
//! to self-play games), [`book`] (building the opening book the search plays from),
//! [`jobs`] (tune and book runs in shards, for a cluster), [`prove`] (a kalah or ahl position's
//! exact value, proven), [`datagen`] and [`train`] (the evaluation network's self-play
//! positions and its training), and [`pool`] (their thread pools); their fixed-depth search
//! is the search's own ([`crate::search::fixed`]). They use the search as any user would;
//! the search knows nothing of them.

pub mod book;
pub mod datagen;
pub mod jobs;
pub mod pool;
pub mod prove;
pub mod train;
pub mod tune;

/// The longest self-play game the tools play, in plies: one still going then (a cycle
/// neither side leaves, in a rule set without oware's repetition rule) counts for nothing,
/// rather than holding a tuning run or a book build forever.
pub const MAX_GAME_PLIES: usize = 600;
