//! The referee's parts so far: engine processes ([`process`]) and match statistics
//! ([`stats`]); the game loop and the match scheduling come with the rest of its issue.

pub mod check;
pub mod game;
pub mod process;
pub mod records;
pub mod runner;
pub mod stats;
