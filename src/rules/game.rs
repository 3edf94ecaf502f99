//! A game: a start position and the moves played from it. It adds to the `Copy` board what a
//! board cannot hold, the positions since the last capture, for oware's repetition rule, and
//! it applies move lists all or nothing.

use super::board::{Board, IllegalMove, IllegalReason, Status};
use super::mv::{parse_move_list, Move, MoveList, MoveParseError};
use super::outcome::{EndReason, Outcome};
use std::fmt;

/// A start position and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// `boards[0]` is the start; `boards[k]` the position after `moves[..k]`.
    boards: Vec<Board>,
    moves: Vec<Move>,
}

/// Why a move list could not be applied. The game is left as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MovesError {
    /// A character that is not a move letter.
    Parse(MoveParseError),
    /// The move at `index` (0-based) of the list is illegal where it was played.
    Illegal {
        /// 0-based index of the move in the list.
        index: usize,
        /// The move, the side to move and why.
        error: IllegalMove,
    },
}

impl fmt::Display for MovesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MovesError::Parse(e) => write!(f, "move list: {e}"),
            MovesError::Illegal { index, error } => {
                write!(f, "move list: move {} {error}", index + 1)
            }
        }
    }
}

impl std::error::Error for MovesError {}

impl From<MoveParseError> for MovesError {
    fn from(e: MoveParseError) -> Self {
        MovesError::Parse(e)
    }
}

impl Game {
    /// A game starting at `start`, with no history before it.
    pub fn new(start: Board) -> Game {
        Game {
            boards: vec![start],
            moves: Vec::new(),
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &Board {
        &self.boards[0]
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        self.boards
            .last()
            .expect("a game always has its start position")
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position of the game, the start first and the current one last.
    pub fn positions(&self) -> &[Board] {
        &self.boards
    }

    /// Keys of the positions before the current one since the last capture, oldest first:
    /// the history a search needs for oware's repetition rule (empty in other variants).
    pub fn keys_since_capture(&self) -> Vec<u64> {
        if !self.board().variant().has_repetition() {
            return Vec::new();
        }
        let stores = self.board().stores();
        let earlier = &self.boards[..self.boards.len() - 1];
        let since = earlier
            .iter()
            .rposition(|b| b.stores() != stores)
            .map_or(0, |i| i + 1);
        earlier[since..].iter().map(Board::key).collect()
    }

    /// Oware: whether the current position (houses, stores, side to move) occurred before,
    /// since the last capture. Compares whole positions, not just keys.
    pub fn is_repetition(&self) -> bool {
        let now = self.board();
        now.variant().has_repetition()
            && self.boards[..self.boards.len() - 1]
                .iter()
                .rev()
                .take_while(|b| b.stores() == now.stores())
                .any(|b| b.houses() == now.houses() && b.side_to_move() == now.side_to_move())
    }

    /// Whether the game goes on (with the legal moves) or is over, repetition included.
    pub fn status(&self) -> Status {
        match self.board().status() {
            Status::Ongoing(_) if self.is_repetition() => {
                Status::Over(self.board().outcome_when(EndReason::Repetition))
            }
            status => status,
        }
    }

    /// The legal moves; empty when the game is over.
    pub fn legal_moves(&self) -> MoveList {
        match self.status() {
            Status::Ongoing(moves) => moves,
            Status::Over(_) => MoveList::EMPTY,
        }
    }

    /// The result, if the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.status() {
            Status::Ongoing(_) => None,
            Status::Over(outcome) => Some(outcome),
        }
    }

    /// Plays `m` if it is legal; otherwise says why and changes nothing.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if let Status::Over(outcome) = self.status() {
            return Err(IllegalMove {
                mv: m,
                side: self.board().side_to_move(),
                reason: IllegalReason::GameOver(outcome.reason),
            });
        }
        let next = self.board().try_play(m)?;
        self.boards.push(next);
        self.moves.push(m);
        Ok(())
    }

    /// Plays all of `moves`, or none of them if one is illegal.
    pub fn play_all(&mut self, moves: &[Move]) -> Result<(), MovesError> {
        let before = self.moves.len();
        for (index, &m) in moves.iter().enumerate() {
            if let Err(error) = self.play(m) {
                self.boards.truncate(before + 1);
                self.moves.truncate(before);
                return Err(MovesError::Illegal { index, error });
            }
        }
        Ok(())
    }

    /// Parses a move list (`FfEa` or `F f E a`) and plays it all, or nothing.
    pub fn play_text(&mut self, text: &str) -> Result<(), MovesError> {
        let moves = parse_move_list(text)?;
        self.play_all(&moves)
    }

    /// Takes back the last move, returning it; `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.boards.pop();
        Some(m)
    }
}
