//! The referee's parts: so far the match statistics ([`stats`]); the engine processes, the
//! game loop and the match scheduling come with the referee's issue.

pub mod stats;
