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
    /// Per own house holding seeds minus the opponent's (oware, awari): a measure of the moves
    /// each side has, and of how far it is from running out of them.
    pub mobility: i32,
    /// Per own house of 12 seeds or more (a "kroo", which laps the board and can capture in
    /// the opponent's row on its second pass) minus the opponent's (oware, awari).
    pub kroo: i32,
    /// For being the side to move (oware, awari).
    pub tempo: i32,
}

impl Weights {
    /// The defaults: `row` as first chosen (a seed on one's own row is a fraction of a stored
    /// seed, as it may yet be sown away); the others fitted by `awari tune` in two rounds
    /// (README, "Fitted evaluation"), each round's games played with the weights of the round
    /// before, each adopted after an SPRT against them (tournament/README.md).
    pub const DEFAULT: Weights = Weights {
        a2: 130,
        a3: 148,
        b2: 68,
        b3: 41,
        row: 10,
        mobility: 89,
        kroo: 25,
        tempo: -27,
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
    /// Own houses holding seeds minus the opponent's (oware, awari).
    pub mobility: i32,
    /// Own houses of 12 seeds or more minus the opponent's (oware, awari).
    pub kroo: i32,
    /// 1 for the side to move (oware, awari).
    pub tempo: i32,
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
                let (mobility, kroo) = houses_and_kroos(&houses, me);
                let terms = Terms {
                    a2,
                    a3,
                    b2,
                    b3,
                    mobility,
                    kroo,
                    tempo: 1,
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
            + w.mobility * self.mobility
            + w.kroo * self.kroo
            + w.tempo * self.tempo
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
        let (mobility, kroo) = houses_and_kroos(&houses, me);
        score += w.a2 * a2 + w.a3 * a3 - w.b2 * b2 - w.b3 * b3
            + w.mobility * mobility
            + w.kroo * kroo
            + w.tempo;
    }
    if variant != Variant::Awari && variant != Variant::Ahl {
        score += w.row * (board.row_seeds(me) as i32 - board.row_seeds(you) as i32);
    }
    score
}

/// Own houses holding seeds minus the opponent's, and own houses of 12 seeds or more minus
/// the opponent's, for `me`.
#[inline]
fn houses_and_kroos(houses: &[u8; 12], me: crate::rules::Side) -> (i32, i32) {
    let first = me.first_house();
    let (mut mobility, mut kroo) = (0, 0);
    for (h, &n) in houses.iter().enumerate() {
        let sign = if (first..first + 6).contains(&h) {
            1
        } else {
            -1
        };
        mobility += sign * i32::from(n > 0);
        kroo += sign * i32::from(n >= 12);
    }
    (mobility, kroo)
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
            mobility: 17,
            kroo: 19,
            tempo: 23,
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
