//! The end of a game as the page draws it. Most rule sets count the seeds left in a row into
//! its owner's final count ([`Outcome::stores`]); the rules' last board still has them in the
//! row. The page moves them into the store, house by house, so that the board and the result
//! agree: this says which houses go to which store, and the board once they have.

use super::view::BoardView;
use crate::rules::{Board, Outcome};
use serde::Serialize;

/// The end as drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ending {
    /// The houses gathered, in order, each with the store it goes to (0 South, 1 North).
    pub gathered: Vec<(usize, usize)>,
    /// The board once they are: its stores are the final count.
    pub board: BoardView,
}

/// The end of the game whose last board is `board` and whose result is `outcome`. A side's
/// row is gathered into its store when its final count is its store and its row (the rule
/// sets that count a row count it to its owner); where the result counts the stores only,
/// the row stays where it is.
pub fn ending(board: &Board, outcome: &Outcome) -> Ending {
    let mut view = BoardView::of(board);
    let mut gathered = Vec::new();
    for side in 0..2 {
        let row = side * 6..side * 6 + 6;
        let seeds: u32 = view.houses[row.clone()].iter().map(|&h| u32::from(h)).sum();
        let stored = u32::from(view.stores[side]);
        if seeds > 0 && stored + seeds == u32::from(outcome.stores[side]) {
            let sown: Vec<usize> = row.filter(|&h| view.houses[h] > 0).collect();
            for house in sown {
                gathered.push((house, side));
                view.houses[house] = 0;
            }
            view.stores[side] = outcome.stores[side];
        }
    }
    Ending {
        gathered,
        board: view,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Game, Move, Variant};

    /// Plays games in every rule set by a fixed choice of moves (the `k`-th legal move,
    /// wrapping) to their end, and checks each end: the board's stores are the final count,
    /// no seed is lost, and only rows counted are emptied.
    #[test]
    fn every_ending_draws_the_final_count_with_no_seed_lost() {
        let mut ends = std::collections::HashSet::new();
        for variant in Variant::ALL {
            for k in 0..40usize {
                let mut game = Game::new(Board::start(variant));
                let mut i = 0usize;
                while game.outcome().is_none() {
                    let legal: Vec<Move> = (0..12)
                        .filter_map(Move::new)
                        .filter(|&m| game.legal_moves().contains(m))
                        .collect();
                    let m = legal[(k * 7 + i * (k + 3)) % legal.len()];
                    game.play(m).unwrap();
                    i += 1;
                }
                let outcome = game.outcome().unwrap();
                let board = game.board();
                let end = ending(board, &outcome);
                let total = |v: &BoardView| {
                    v.houses.iter().map(|&h| u32::from(h)).sum::<u32>()
                        + v.stores.iter().map(|&s| u32::from(s)).sum::<u32>()
                };
                let what = format!("{variant} game {k}: {}", game.board());
                assert_eq!(end.board.stores, outcome.stores, "{what}");
                assert_eq!(total(&end.board), total(&BoardView::of(board)), "{what}");
                for (house, side) in &end.gathered {
                    assert_eq!(
                        house / 6,
                        *side,
                        "{what}: a house goes to its owner's store"
                    );
                    assert!(board.houses()[*house] > 0, "{what}");
                }
                ends.insert((
                    variant.name(),
                    outcome.reason.name(),
                    !end.gathered.is_empty(),
                ));
            }
        }
        // The games reached endings with rows gathered and without.
        assert!(ends.iter().any(|e| e.2), "{ends:?}");
        assert!(ends.iter().any(|e| !e.2), "{ends:?}");
    }
}
