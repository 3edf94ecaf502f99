//! The static evaluation: what a position is worth to the side to move, in centipawn-like
//! units where 100 = one seed of store difference (the protocol's `score cp`).
//!
//! Beyond the stores, the terms are those of the evolved-player paper (houses exposed to a
//! capture of 2 or 3 seeds on the next move, for each side) plus a row term for the rule sets
//! that give each side the seeds left on its row at the end. The weights live in [`Weights`],
//! one place, and each is an engine option so they can be tuned without a rebuild.

use crate::classic::evolved::exposed;
use crate::rules::{Board, Variant};

/// The evaluation weights, in score units (100 = one seed). Each is an engine option
/// (`Eval...`); see [`Weights::DEFAULT`] for the values and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per opponent house holding 1 seed that a move of the side to move ends in (a capture
    /// of 2 is on): the paper's `a2`.
    pub a2: i32,
    /// Per opponent house holding 2 seeds that a move of the side to move ends in (a capture
    /// of 3 is on): the paper's `a3`.
    pub a3: i32,
    /// Per own house holding 1 seed that an opponent's move ends in: the paper's `b2`
    /// (counted against the side to move, so a positive weight is a penalty).
    pub b2: i32,
    /// Per own house holding 2 seeds that an opponent's move ends in: the paper's `b3`.
    pub b3: i32,
    /// Per seed on the side to move's row minus the opponent's, in the rule sets where each
    /// side collects its own row at the end (oware, kalah, ayoayo).
    pub row: i32,
}

impl Weights {
    /// The defaults. The side to move can take one exposed house right away, so its chances
    /// (`a2`, `a3`) weigh more than its own exposure (`b2`, `b3`), which it may still defend;
    /// a seed on one's own row is a fraction of a stored seed because it may yet be sown away.
    pub const DEFAULT: Weights = Weights {
        a2: 40,
        a3: 60,
        b2: 25,
        b3: 35,
        row: 10,
    };
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

/// The terms of one position, each counted from the side to move's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    /// Own store minus opponent's store, in seeds.
    pub stores: i32,
    /// Opponent houses exposed to a capture of 2 by a move of the side to move.
    pub a2: i32,
    /// Opponent houses exposed to a capture of 3.
    pub a3: i32,
    /// Own houses exposed to a capture of 2 by an opponent's move.
    pub b2: i32,
    /// Own houses exposed to a capture of 3.
    pub b3: i32,
    /// Seeds on the own row minus the opponent's (0 where rows are not collected at the end).
    pub row: i32,
}

impl Terms {
    /// The terms of `board`.
    pub fn of(board: &Board) -> Terms {
        let me = board.side_to_move();
        let you = me.opponent();
        let stores = i32::from(board.store(me)) - i32::from(board.store(you));
        let (mut terms, collects) = match board.variant() {
            Variant::Oware | Variant::Awari => {
                let houses = board.houses();
                let (a2, a3) = exposed(&houses, me);
                let (b2, b3) = exposed(&houses, you);
                let terms = Terms {
                    a2,
                    a3,
                    b2,
                    b3,
                    ..Terms::default()
                };
                (terms, board.variant() == Variant::Oware)
            }
            Variant::Kalah | Variant::Ayoayo => (Terms::default(), true),
            Variant::Ahl => (Terms::default(), false),
        };
        terms.stores = stores;
        if collects {
            terms.row = board.row_seeds(me) as i32 - board.row_seeds(you) as i32;
        }
        terms
    }

    /// The score of these terms under `w`.
    #[inline]
    pub fn score(&self, w: &Weights) -> i32 {
        100 * self.stores + w.a2 * self.a2 + w.a3 * self.a3 - w.b2 * self.b2 - w.b3 * self.b3
            + w.row * self.row
    }
}

/// The static evaluation of `board` for the side to move: [`Terms::score`] of
/// [`Terms::of`], computed without building the terms (this runs at every leaf).
#[inline]
pub fn evaluate(board: &Board, w: &Weights) -> i32 {
    let me = board.side_to_move();
    let you = me.opponent();
    let stores = board.stores();
    let mut score = 100 * (i32::from(stores[me.index()]) - i32::from(stores[you.index()]));
    let variant = board.variant();
    if matches!(variant, Variant::Oware | Variant::Awari) {
        let houses = board.houses();
        let (a2, a3) = exposed(&houses, me);
        let (b2, b3) = exposed(&houses, you);
        score += w.a2 * a2 + w.a3 * a3 - w.b2 * b2 - w.b3 * b3;
    }
    if variant != Variant::Awari && variant != Variant::Ahl {
        score += w.row * (board.row_seeds(me) as i32 - board.row_seeds(you) as i32);
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows of (notation, a2, a3, b2, b3) for oware, from South's (the mover's) view.
    #[test]
    fn exposure_table() {
        let rows = [
            // Start: nothing holds 1 or 2.
            ("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", 0, 0, 0, 0),
            // F (1 seed) reaches a (1 seed): a capture of 2; North's a..f have nothing to hit.
            ("0-0-0-0-0-1-1-0-0-0-0-0-0-0-S", 1, 0, 0, 0),
            // E (2 seeds) reaches a (2 seeds): a capture of 3; a (2) reaches c, empty.
            ("0-0-0-0-2-0-2-0-0-0-0-0-0-0-S", 0, 1, 0, 0),
            // North's f (1 seed) reaches A (1 seed): South's A exposed to a capture of 2.
            ("1-0-0-0-0-0-0-0-0-0-0-1-0-0-S", 0, 0, 1, 0),
            // A 12-seed sowing skips its origin: 12 from F ends in a (12 + 1 lap) holding 0+2.
            ("0-0-0-0-0-12-0-0-0-0-0-0-0-0-S", 1, 0, 0, 0),
        ];
        for (text, a2, a3, b2, b3) in rows {
            let board = Board::from_notation(Variant::Oware, text).unwrap();
            let t = Terms::of(&board);
            assert_eq!((t.a2, t.a3, t.b2, t.b3), (a2, a3, b2, b3), "{text}");
            assert_eq!(
                evaluate(&board, &Weights::DEFAULT),
                t.score(&Weights::DEFAULT)
            );
        }
    }

    /// The leaf evaluation equals the score of the terms `eval` shows, in every rule set.
    #[test]
    fn evaluate_equals_the_shown_terms() {
        use crate::rng::Rng;
        use crate::rules::Game;
        let mut rng = Rng::new(11);
        let weights = Weights {
            a2: 3,
            a3: -5,
            b2: 7,
            b3: 11,
            row: 13,
        };
        for variant in Variant::ALL {
            for _ in 0..50 {
                let mut game = Game::new(Board::start(variant));
                loop {
                    let board = *game.board();
                    assert_eq!(
                        evaluate(&board, &weights),
                        Terms::of(&board).score(&weights)
                    );
                    let moves: Vec<_> = game.legal_moves().collect();
                    if moves.is_empty() || game.moves().len() > 300 {
                        break;
                    }
                    game.play(moves[rng.below(moves.len() as u64) as usize])
                        .unwrap();
                }
            }
        }
    }
}
