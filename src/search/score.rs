//! Scores: what a search's numbers mean. Finished games score above every table result, table
//! results above every evaluation, so that one comparison orders them all; [`Score`] reads a
//! number back as the protocol shows it.
//!
//! Kept apart from the search so that the search and the tables' root play
//! ([`table_root`](crate::search::table_root)) share them without importing each other.

use crate::rules::{Board, EndReason};
use crate::tables::Value;

/// Plies a line may reach (iterations are capped below it).
pub const MAX_PLY: usize = 128;
/// The score of a game won at the root; a win `p` plies away scores `MATE - p`.
pub const MATE: i32 = 30_000;
/// Scores beyond this (either sign) are finished games, not evaluations.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Beyond every score: the widest window.
pub const INF: i32 = MATE + 1;
/// A game the tables prove won scores `TB_WIN + 10 * margin` (lost: the negative).
pub const TB_WIN: i32 = 20_000;
/// Scores beyond this (either sign), up to [`MATE_BOUND`], are table results; evaluations stay
/// below it.
pub const TB_BOUND: i32 = TB_WIN - 1_000;

/// A score as the protocol shows it: centi-seeds, or plies to the end of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// 100 per seed of advantage.
    Cp(i32),
    /// The side to move wins (positive) or loses (negative) the game this many plies from now.
    Mate(i32),
    /// A result resting on the endgame tables: the side to move ends this many seeds ahead
    /// (negative: behind), counting the stores, on the principal variation. The result (win or
    /// loss) is proven; the margin is what the tables give at the line's end (protocol.md,
    /// section 8).
    Tables(i32),
}

impl Score {
    /// Reads a search score.
    pub fn of(score: i32) -> Score {
        if score > MATE_BOUND {
            Score::Mate(MATE - score)
        } else if score < -MATE_BOUND {
            Score::Mate(-(MATE + score))
        } else if score.abs() >= TB_BOUND {
            Score::Tables(score.signum() * (score.abs() - TB_WIN) / 10)
        } else {
            Score::Cp(score)
        }
    }
}

/// The score of a game the side to move ends `margin` seeds ahead (negative: behind).
pub fn table_score(margin: i32) -> i32 {
    match margin.signum() {
        1 => TB_WIN + 10 * margin,
        -1 => -(TB_WIN - 10 * margin),
        _ => 0,
    }
}

/// The scores a table value gives `board`'s side to move, with the stores counted: the least
/// and the most.
pub fn table_scores(board: &Board, value: Value) -> (i32, i32) {
    let me = board.side_to_move();
    let stores = i32::from(board.store(me)) - i32::from(board.store(me.opponent()));
    let seeds: i32 = board.houses().iter().map(|&h| i32::from(h)).sum();
    let margin = |v: u8| stores + 2 * i32::from(v) - seeds;
    (table_score(margin(value.lo)), table_score(margin(value.hi)))
}

/// The score of a point value ([`points`](crate::tables::points)) for `board`'s side to move,
/// as an evaluation: 100 per seed of the margin it gives, stores counted, kept below the table
/// results (it is a guess, not a proven result).
pub fn point_score(board: &Board, point: u8) -> i32 {
    let me = board.side_to_move();
    let stores = i32::from(board.store(me)) - i32::from(board.store(me.opponent()));
    let seeds: i32 = board.houses().iter().map(|&h| i32::from(h)).sum();
    (100 * (stores + 2 * i32::from(point) - seeds)).clamp(-TB_BOUND + 1, TB_BOUND - 1)
}

/// The score of a finished game for its side to move, `ply` plies from the root.
pub fn finished(board: &Board, reason: EndReason, ply: usize) -> i32 {
    match board.outcome_when(reason).winner {
        None => 0,
        Some(w) if w == board.side_to_move() => MATE - ply as i32,
        Some(_) => -(MATE - ply as i32),
    }
}

/// The most seeds a table result can be won by.
const MOST_SEEDS: i32 = 48;

/// The scores a position can be worth, lowest first: finished games lost, table results lost,
/// evaluations (and draws), table results won, finished games won.
const POSSIBLE: [(i32, i32); 5] = [
    (-MATE, -(MATE - MAX_PLY as i32)),
    (-(TB_WIN + 10 * MOST_SEEDS), -(TB_WIN + 10)),
    (-(TB_BOUND - 1), TB_BOUND - 1),
    (TB_WIN + 10, TB_WIN + 10 * MOST_SEEDS),
    (MATE - MAX_PLY as i32, MATE),
];

/// A bound as the protocol may show it: the nearest score a position can be worth on the side
/// that keeps the bound true (the greatest possible score at or below an upper bound, the least
/// at or above a lower one). A search's window edges fall between the ranges (`score cp
/// -89800 upperbound` was seen): as bounds they say no more than the snapped value, and a GUI
/// shows them as they are.
pub fn possible_bound(score: i32, upper: bool) -> i32 {
    if upper {
        POSSIBLE
            .iter()
            .rev()
            .find(|&&(lo, _)| lo <= score)
            .map_or(POSSIBLE[0].0, |&(_, hi)| hi.min(score))
    } else {
        POSSIBLE
            .iter()
            .find(|&&(_, hi)| hi >= score)
            .map_or(POSSIBLE[4].1, |&(lo, _)| lo.max(score))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_snap_to_scores_a_position_can_be_worth() {
        let mate_in = |p: i32| MATE - p;
        // (score, upper bound?, shown)
        let rows = [
            (150, true, 150),
            (150, false, 150),
            // Between a table loss and a lost game (`cp -89800` as the protocol showed it).
            (-(TB_WIN + 8980), true, -mate_in(MAX_PLY as i32)),
            (-(TB_WIN + 8980), false, -(TB_WIN + 480)),
            (mate_in(641), false, mate_in(MAX_PLY as i32)),
            (mate_in(641), true, TB_WIN + 480),
            (TB_BOUND + 5, true, TB_BOUND - 1),
            (TB_BOUND + 5, false, TB_WIN + 10),
            (INF, true, MATE),
            (INF, false, MATE),
            (-INF, true, -MATE),
            (-INF, false, -MATE),
            (mate_in(3), true, mate_in(3)),
            (-(TB_WIN + 30), false, -(TB_WIN + 30)),
        ];
        for (score, upper, shown) in rows {
            assert_eq!(possible_bound(score, upper), shown, "{score} upper {upper}");
        }
    }
}
