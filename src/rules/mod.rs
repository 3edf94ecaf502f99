//! The game itself, under six rule sets: board, moves, sowing and captures, game end,
//! notation, Zobrist keys and perft. Nothing here knows about search, protocol or matches;
//! the engine, the referee and the classic opponents all build on it.
//!
//! ```
//! use awari::rules::{perft, Board, EndReason, Game, Move, Variant};
//!
//! // Text becomes a position or moves first; legality is checked against the position.
//! let mut game = Game::new(Board::start(Variant::Oware));
//! game.play_text("FfEa").unwrap();
//! assert_eq!(game.board().to_string(), "6-5-5-5-0-1-0-7-7-6-5-1-0-0-S");
//! assert!(game.play_text("b").is_err()); // North's house, South to move: nothing is played
//!
//! // Copy-make for search: the board is a small Copy value.
//! let board = *game.board();
//! let next = board.play_unchecked(Move::from_char('A').unwrap());
//! assert_eq!(next.key(), next.recompute_key());
//!
//! // A finished game says why and who won.
//! let end = Board::from_notation(Variant::Oware, "0-0-0-0-0-3-0-0-0-0-1-0-25-19-N").unwrap();
//! let outcome = end.outcome().unwrap();
//! assert_eq!(outcome.reason, EndReason::Majority);
//! assert_eq!(outcome.to_string(), "South wins 28-20 (a store holds a majority of the seeds)");
//!
//! assert_eq!(perft(&Game::new(Board::start(Variant::Kalah)), 4), 942);
//! ```

mod board;
pub mod diagram;
pub mod exposed;
mod game;
mod mv;
mod notation;
mod outcome;
mod perft;
pub mod row;
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
pub use perft::{divide, divide_until, perft};
pub use side::Side;
pub use variant::{UnknownVariant, Variant};
