//! Why a board cannot be built or a move cannot be played: typed errors with a hand-written
//! `Display`, so a caller can both match on the reason and show it to a person.

use super::{MAX_RELAYS, MAX_SEEDS};
use crate::rules::{EndReason, Move, Side, Variant};
use std::fmt;

/// Why a board could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// More seeds in play than [`MAX_SEEDS`].
    TooManySeeds(u32),
    /// Seeds per house for a start position out of 1..=21.
    SeedsPerHouse(u32),
    /// A pending bonus move in a variant that has none (only ahl has one).
    BonusNotInVariant(Variant),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::TooManySeeds(n) => {
                write!(f, "{n} seeds in play; at most {MAX_SEEDS} are supported")
            }
            SetupError::SeedsPerHouse(n) => {
                write!(f, "{n} seeds per house; it must be 1 to 21")
            }
            SetupError::BonusNotInVariant(v) => {
                write!(
                    f,
                    "a pending bonus move (`+`) exists only in ahl, not in {v}"
                )
            }
        }
    }
}

impl std::error::Error for SetupError {}

/// Why a move is not legal in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    /// The game is already over.
    GameOver(EndReason),
    /// The house belongs to the side not to move.
    NotYourHouse,
    /// The house is empty.
    EmptyHouse,
    /// The opponent's row is empty and this move does not give it seeds, while another does.
    MustFeed,
    /// Ayoayo: this relay sowing never ends (more than [`MAX_RELAYS`] relays).
    Endless,
}

/// A move that is not legal, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
    /// The side to move when it was tried.
    pub side: Side,
    /// Why it is illegal.
    pub reason: IllegalReason,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.mv;
        match self.reason {
            IllegalReason::GameOver(r) => write!(f, "`{m}`: the game is over ({r})"),
            IllegalReason::NotYourHouse => write!(
                f,
                "`{m}` is {}'s house and {} is to move",
                m.side(),
                self.side
            ),
            IllegalReason::EmptyHouse => write!(f, "`{m}`: house {m} is empty"),
            IllegalReason::MustFeed => write!(
                f,
                "`{m}`: {}'s row is empty and this move gives it no seeds while another would",
                self.side.opponent()
            ),
            IllegalReason::Endless => write!(
                f,
                "`{m}`: its relay sowing never ends (more than {MAX_RELAYS} relays)"
            ),
        }
    }
}

impl std::error::Error for IllegalMove {}
