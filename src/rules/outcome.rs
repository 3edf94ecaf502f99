//! How a game ended: why, who won, and the final count of each side's seeds.

use super::side::Side;
use std::fmt;

/// Why a game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// A store holds more than half the seeds, or both hold exactly half (oware, awari).
    Majority,
    /// The opponent of the side to move has no seeds and no move gives it any (oware, awari).
    NoFeedingMove,
    /// The position (houses, stores, side to move) occurred before since the last capture
    /// (oware).
    Repetition,
    /// A row is empty: either row (ahl, kalah), or the row of the side to move (ayoayo).
    EmptyRow,
    /// Awari: the last move captured every seed of the opponent's row; the mover wins.
    GrandSlam,
    /// Awari: ply 250 was reached; the stores decide.
    MoveLimit,
    /// The side to move has no permissible move: no seeds at all (oware, from a set-up
    /// position) or only endless relay sowings (ayoayo).
    NoMoves,
}

impl EndReason {
    /// A short identifier, for records and protocol lines (`majority`, `grand-slam`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Majority => "majority",
            EndReason::NoFeedingMove => "no-feeding-move",
            EndReason::Repetition => "repetition",
            EndReason::EmptyRow => "empty-row",
            EndReason::GrandSlam => "grand-slam",
            EndReason::MoveLimit => "move-limit",
            EndReason::NoMoves => "no-moves",
        }
    }

    /// A sentence for people.
    pub const fn describe(self) -> &'static str {
        match self {
            EndReason::Majority => "a store holds a majority of the seeds",
            EndReason::NoFeedingMove => "the opponent has no seeds and no move can give it any",
            EndReason::Repetition => "the position repeated since the last capture",
            EndReason::EmptyRow => "a row is empty",
            EndReason::GrandSlam => "a grand slam captured the whole opposing row",
            EndReason::MoveLimit => "the move limit was reached",
            EndReason::NoMoves => "the side to move has no permissible move",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Why it ended.
    pub reason: EndReason,
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Each side's seeds once the rule set's end-of-game collection is done (South, North):
    /// the figures that decide the game (except a grand slam, which wins outright).
    pub stores: [u8; 2],
}

impl fmt::Display for Outcome {
    /// E.g. `South wins 26-22 (a store holds a majority of the seeds)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [s, n] = self.stores;
        match self.winner {
            Some(w) => write!(f, "{w} wins {s}-{n} ({})", self.reason),
            None => write!(f, "draw {s}-{n} ({})", self.reason),
        }
    }
}
