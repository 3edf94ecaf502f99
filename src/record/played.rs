//! A game as it was played, before it is written down: its start, each move with what the
//! engine said of it, and how it ended. The referee fills one per game; the page makes one of
//! a game played on it, for the same downloads.

use crate::rules::{Board, EndReason, Move, Side};
use crate::said::Said;
use std::fmt;
use std::time::Duration;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The rules ended it.
    Rules(EndReason),
    /// The move limit: adjudicated on the stores (plus rows where the rules collect them).
    Adjudicated,
    /// An engine failed; it lost.
    Forfeit {
        /// The side that failed.
        side: Side,
        /// What it did.
        reason: String,
    },
    /// Nobody's result: a bad opening, or neither engine started. Left out of the statistics.
    NoContest(String),
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::Rules(r) => write!(f, "{}", r.describe()),
            Termination::Adjudicated => write!(f, "adjudicated at the move limit"),
            Termination::Forfeit { side, reason } => write!(f, "{side} forfeits: {reason}"),
            Termination::NoContest(reason) => write!(f, "no contest: {reason}"),
        }
    }
}

/// One move as played: what the engine said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The move.
    pub mv: Move,
    /// What the engine said of it: the last score and depth of its best line.
    pub said: Said,
    /// Time the referee measured and charged, from the synchronisation before `go` to
    /// `bestmove`.
    pub time: Duration,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Record {
    /// The start position.
    pub start: Board,
    /// The opening moves (not the engines').
    pub opening: Vec<Move>,
    /// The engines' moves.
    pub moves: Vec<Played>,
    /// The winner, or `None` for a draw (or no contest).
    pub winner: Option<Side>,
    /// Final stores as scored.
    pub stores: [u8; 2],
    /// How it ended.
    pub termination: Termination,
}

impl Record {
    /// `1-0` (South won), `0-1`, `1/2-1/2`, or `*` for no contest.
    pub fn result_tag(&self) -> &'static str {
        match (self.winner, &self.termination) {
            (_, Termination::NoContest(_)) => "*",
            (Some(Side::South), _) => "1-0",
            (Some(Side::North), _) => "0-1",
            (None, _) => "1/2-1/2",
        }
    }

    /// Whether the game counts for anyone.
    pub fn is_contest(&self) -> bool {
        !matches!(self.termination, Termination::NoContest(_))
    }

    /// The side that forfeited, if one did.
    pub fn forfeited(&self) -> Option<Side> {
        match self.termination {
            Termination::Forfeit { side, .. } => Some(side),
            _ => None,
        }
    }

    /// A game no engine played: no contest, for `reason`.
    pub fn no_contest(start: Board, opening: Vec<Move>, reason: String) -> Record {
        Record {
            start,
            opening,
            moves: Vec::new(),
            winner: None,
            stores: start.stores(),
            termination: Termination::NoContest(reason),
        }
    }
}
