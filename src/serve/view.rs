//! What the page is sent, as JSON: a board, the legal moves with each illegal house's reason,
//! how the game ended, scores from South's point of view. The page decides nothing: it draws
//! these.

use crate::rules::{Board, Game, IllegalReason, Move, Side};
use crate::said::Worth;
use serde::Serialize;

/// A board, as drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardView {
    /// The notation of the position.
    pub fen: String,
    /// Houses `A`-`F`, then `a`-`f`.
    pub houses: [u8; 12],
    /// South's store, North's.
    pub stores: [u8; 2],
    /// `S` or `N`.
    pub side: char,
    /// Ahl: the side to move is making its bonus move.
    pub bonus: bool,
}

impl BoardView {
    /// The view of `board`.
    pub fn of(board: &Board) -> BoardView {
        BoardView {
            fen: board.to_string(),
            houses: board.houses(),
            stores: board.stores(),
            side: board.side_to_move().letter(),
            bonus: board.bonus_pending(),
        }
    }
}

/// A score from South's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Score {
    /// Centi-seeds: an estimate.
    Cp(i32),
    /// A forced win (positive: South's) in this many moves.
    Mate(i32),
    /// A proven result with its seed margin (positive: South ends ahead, and wins; 0: a draw):
    /// the endgame tables', or a finished game's.
    Tables(i32),
}

impl Score {
    /// What an engine said a position is worth (the side to move's view), from South's.
    pub fn from_engine(worth: Worth, to_move: Side) -> Score {
        let worth = if to_move == Side::South {
            worth
        } else {
            worth.flipped()
        };
        match worth {
            Worth::Estimate(n) => Score::Cp(n),
            Worth::Mate(n) => Score::Mate(n),
            Worth::Tables { margin, .. } | Worth::Over { margin, .. } => Score::Tables(margin),
        }
    }
}

/// A house of the side to move that cannot be sown, and why, in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Illegal {
    /// The house's letter.
    pub house: char,
    /// Why: `empty`, `must-feed`, `endless`.
    pub reason: &'static str,
    /// The reason in a sentence.
    pub text: String,
}

/// The moves of `game`'s position: the legal ones' letters, and each other house of the side
/// to move with its reason (none once the game is over).
pub fn moves(game: &Game) -> (String, Vec<Illegal>) {
    let board = game.board();
    if game.outcome().is_some() {
        return (String::new(), Vec::new());
    }
    let legal = game.legal_moves();
    let side = board.side_to_move();
    let mut letters = String::new();
    let mut illegal = Vec::new();
    for column in 0..6 {
        let Some(m) = Move::new(side.first_house() + column) else {
            continue;
        };
        if legal.contains(m) {
            letters.push(m.to_char());
            continue;
        }
        let Err(e) = board.try_play(m) else { continue };
        let reason = match e.reason {
            IllegalReason::EmptyHouse => "empty",
            IllegalReason::MustFeed => "must-feed",
            IllegalReason::Endless => "endless",
            IllegalReason::NotYourHouse => "not-yours",
            IllegalReason::GameOver(_) => "over",
        };
        let text = match e.reason {
            IllegalReason::EmptyHouse => format!("house {m} is empty"),
            IllegalReason::MustFeed => format!(
                "{}'s row is empty: a move must give it seeds, and {m} gives none",
                side.opponent().name()
            ),
            IllegalReason::Endless => format!("{m}'s relay sowing never ends"),
            _ => e.to_string(),
        };
        illegal.push(Illegal {
            house: m.to_char(),
            reason,
            text,
        });
    }
    (letters, illegal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn illegal_houses_say_why() {
        let board =
            Board::from_notation(Variant::Oware, "0-0-0-0-1-3-0-0-0-0-0-0-20-24-S").unwrap();
        let (legal, illegal) = moves(&Game::new(board));
        assert_eq!(legal, "F");
        let reasons: Vec<(char, &str)> = illegal.iter().map(|i| (i.house, i.reason)).collect();
        assert_eq!(
            reasons,
            [
                ('A', "empty"),
                ('B', "empty"),
                ('C', "empty"),
                ('D', "empty"),
                ('E', "must-feed")
            ]
        );
        assert_eq!(
            Score::from_engine(Worth::Estimate(30), Side::North),
            Score::Cp(-30)
        );
        // North loses by 2: South's proven win by 2.
        let lost = Worth::Tables {
            result: crate::said::Verdict::Loss,
            margin: -2,
        };
        assert_eq!(Score::from_engine(lost, Side::North), Score::Tables(2));
        assert_eq!(Score::from_engine(lost, Side::South), Score::Tables(-2));
    }
}
