//! The referee, which runs engine processes against each other: [`process`] (starting,
//! talking to and ending an engine process), [`game`] (one game between two engines under a
//! time control), [`runner`] (matches: games in parallel, openings, signals), [`records`]
//! (the JSON and PGN records, resume), [`stats`] (score, Elo, SPRT), [`check`] (`referee
//! check`, an engine's protocol examined).

pub mod check;
pub mod game;
pub mod process;
pub mod records;
pub mod runner;
pub mod stats;
