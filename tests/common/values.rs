//! What the tests of the table values share: boards with empty stores, tables built for a
//! test, and the order of moves the tables suggest (which the proofs follow; what they prove
//! comes from the rules alone).

use awari::rules::{Board, Move, Side, Variant};
use awari::tables::probe::after_move;
use awari::tables::Tables;
use std::cmp::Reverse;

use super::{scratch, Scratch};

/// Tables of `variant` up to `seeds` built into a scratch folder of their own, opened, with
/// no problems.
pub fn tables(variant: Variant, seeds: usize, tag: &str) -> (Scratch, Tables) {
    let dir = scratch("values", tag);
    super::build_tables(&dir, variant, seeds);
    let tables = Tables::open(&dir, variant);
    assert!(tables.problems().is_empty());
    (dir, tables)
}

/// A position with empty stores, `side` to move.
pub fn board(variant: Variant, houses: [u8; 12], side: Side) -> Board {
    Board::from_parts(variant, houses, [0, 0], side, false, 0).unwrap()
}

/// The seeds on the board.
pub fn on_board(b: &Board) -> i32 {
    b.houses().iter().map(|&h| i32::from(h)).sum()
}

/// A position as the tables see it: the houses and the side to move.
pub type Position = ([u8; 12], Side);

/// `b` as a [`Position`].
pub fn position(b: &Board) -> Position {
    (b.houses(), b.side_to_move())
}

/// The moves of `b` in the order the tables suggest for its side to move: the best value they
/// guarantee first, then captures, then the least rank (the tables' converting move).
pub fn suggested(tables: &Tables, b: &Board) -> Vec<Move> {
    type Preference = (u8, bool, Reverse<u8>);
    let me = b.side_to_move();
    let mut order: Vec<(Move, Preference)> = b
        .legal_moves()
        .map(|m| {
            let c = b.play_unchecked(m);
            let lo = after_move(tables, b, m).map_or(0, |v| v.lo);
            let captures = c.store(me) > 0;
            let rank = if captures {
                0
            } else {
                tables.rank(&c).unwrap_or(u8::MAX)
            };
            (m, (lo, captures, Reverse(rank)))
        })
        .collect();
    order.sort_by_key(|&(_, key)| Reverse(key));
    order.into_iter().map(|(m, _)| m).collect()
}
