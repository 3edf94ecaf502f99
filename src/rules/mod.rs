//! The game itself, under five rule sets: board, moves, sowing and captures, game end,
//! notation, Zobrist keys and perft. Nothing here knows about search, protocol or matches;
//! the engine, the referee and the classic opponents all build on it.

mod board;
mod game;
mod mv;
mod notation;
mod outcome;
mod perft;
mod side;
mod variant;
pub mod zobrist;

pub use board::{
    relay_sow, Board, IllegalMove, IllegalReason, SetupError, Status, MAX_RELAYS, MAX_SEEDS,
};
pub use game::{Game, MovesError};
pub use mv::{format_move_list, parse_move_list, Move, MoveList, MoveParseError};
pub use notation::{NotationError, NotationErrorKind};
pub use outcome::{EndReason, Outcome};
pub use perft::{divide, perft};
pub use side::Side;
pub use variant::{UnknownVariant, Variant};
