//! The referee: one game ([`game`]) between engines driven through the engine client
//! ([`crate::client`]), a match ([`runner`]) and tournaments of matches
//! ([`tournament`]), the records ([`crate::record`]), each checked against its moves
//! ([`verify`]), resuming from them
//! ([`resume`]), a sharded match's directory ([`outdir`]) and its shards merged ([`merge`]),
//! the statistics ([`stats`]) and the text that shows them ([`figures`]), the HTML report page
//! ([`report`]), the compliance test ([`check`]) and the command line ([`cli`]).

pub mod check;
pub mod cli;
pub mod figures;
pub mod game;
pub mod merge;
pub mod outdir;
pub mod report;
pub mod resume;
pub mod runner;
pub mod stats;
pub mod tournament;
pub mod verify;
