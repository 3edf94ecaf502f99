//! The position the page views: the game as it stood after some ply, for the analysis to
//! search that position (with the history that leads to it, which oware's repetition rule
//! reads) rather than the game's last one.

use crate::rules::Game;

/// `game` as it stood after `ply` moves (the whole game for `None`, or a ply past its end).
pub fn game_at(game: &Game, ply: Option<usize>) -> Game {
    match ply {
        Some(p) if p < game.moves().len() => {
            let mut past = Game::new(*game.start());
            for &m in &game.moves()[..p] {
                // The moves were played by the rules already: they are legal again.
                if past.play(m).is_err() {
                    break;
                }
            }
            past
        }
        _ => game.clone(),
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
        let cases = [
            (None, 4),
            (Some(0), 0),
            (Some(2), 2),
            (Some(4), 4),
            (Some(9), 4),
        ];
        for (ply, n) in cases {
            let past = game_at(&game, ply);
            assert_eq!(past.moves(), &game.moves()[..n], "{ply:?}");
            assert_eq!(past.board(), &game.positions()[n], "{ply:?}");
        }
    }
}
