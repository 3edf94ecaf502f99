//! The position the page views: the game as it stood after some ply, or a variation's
//! position, for the analysis to search that position (with the history that leads to it,
//! which oware's repetition rule reads) rather than the game's last one.

use crate::rules::{parse_move_list, Game, Move, Side};
use serde::Serialize;

/// `game` as it stood, or would stand, after the moves `at` from its start (the whole game
/// for `None`). The moves were checked when they were asked for ([`read_at`]).
pub fn game_at(game: &Game, at: Option<&[Move]>) -> Game {
    match at {
        Some(moves) if moves != game.moves() => {
            let mut past = Game::new(*game.start());
            for &m in moves {
                if past.play(m).is_err() {
                    break;
                }
            }
            past
        }
        _ => game.clone(),
    }
}

/// The moves of a position asked for as text (`EaBb`: from the game's start), checked by the
/// rules: a past position of the game or one of a variation.
pub fn read_at(game: &Game, text: &str) -> Result<Vec<Move>, String> {
    let moves = parse_move_list(text).map_err(|e| format!("at: {e}"))?;
    let mut there = Game::new(*game.start());
    for &m in &moves {
        there.play(m).map_err(|e| {
            let before = crate::rules::format_move_list(there.moves());
            format!("at: after {before:?}: {e}")
        })?;
    }
    Ok(moves)
}

/// How a game ended, as the page draws it.
#[derive(Serialize)]
pub struct Over {
    text: String,
    reason: &'static str,
    winner: Option<char>,
    stores: [u8; 2],
    /// The rows' seeds counted into the stores, as the page draws them.
    end: super::ending::Ending,
}

/// How `game` ended, if it has.
pub fn over(game: &Game) -> Option<Over> {
    game.outcome().map(|o| Over {
        text: o.to_string(),
        reason: o.reason.name(),
        winner: o.winner.map(Side::letter),
        stores: o.stores,
        end: super::ending::ending(game.board(), &o),
    })
}

/// A position of the game's tree that the page views (a past one of the game, or one of a
/// variation): what it needs to draw it and to let a person play on from it.
#[derive(Serialize)]
pub struct Position {
    /// The moves from the start that lead to it.
    pub at: String,
    /// The board.
    pub board: super::view::BoardView,
    /// The side to move's legal moves (whoever plays it: the page decides whether a click
    /// plays one).
    pub legal: String,
    /// Its other houses, and why.
    pub illegal: Vec<super::view::Illegal>,
    /// How the game ended there, if it did.
    pub over: Option<Over>,
    /// What the endgame tables say of its moves, within their reach.
    pub table_values: Option<super::tables::Values>,
}

impl Position {
    /// The position of `game` (a game played to the position viewed).
    pub fn of(game: &Game) -> Position {
        let (legal, illegal) = super::view::moves(game);
        Position {
            at: crate::rules::format_move_list(game.moves()),
            board: super::view::BoardView::of(game.board()),
            legal,
            illegal,
            over: over(game),
            table_values: super::tables::of(game),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Board, Variant};

    #[test]
    fn a_ply_gives_the_position_after_that_many_moves() {
        let mut game = Game::new(Board::start(Variant::Oware));
        game.play_text("FfEa").unwrap();
        // (ply, the position's moves)
        let cases = [(None, 4), (Some(0), 0), (Some(2), 2), (Some(4), 4)];
        for (ply, n) in cases {
            let at = ply.map(|p| &game.moves()[..p]);
            let past = game_at(&game, at);
            assert_eq!(past.moves(), &game.moves()[..n], "{ply:?}");
            assert_eq!(past.board(), &game.positions()[n], "{ply:?}");
        }
        // A variation's position.
        let at = read_at(&game, "FfD").unwrap();
        assert_eq!(game_at(&game, Some(&at)).moves(), &at[..]);
        // (what is asked for, what the error says)
        let cases = [("Fx", "at: "), ("FF", "at: after \"F\": ")];
        for (text, says) in cases {
            let e = read_at(&game, text).unwrap_err();
            assert!(e.starts_with(says), "{text}: {e}");
        }
    }
}
