//! A layer position's children, played, and its parents, un-sown, both from its houses alone
//! (no move list is stored): what the propagating solvers and the MPI build walk, and what
//! `tests/tables_solvers.rs` checks against the rules.

use super::index::rank;
use crate::rules::{Board, Side, Variant};

/// The position whose houses, seen from the side to move, are `houses`, with empty stores (see
/// [`moves`](super::layer::moves) for why).
#[inline]
pub(super) fn board(variant: Variant, houses: [u8; 12]) -> Board {
    Board::from_parts(variant, houses, [0, 0], Side::South, false, 0)
        .expect("a layer holds at most 48 seeds and no bonus")
}

/// The rows swapped: the houses seen from the other side.
#[inline]
fn swapped(houses: &[u8; 12]) -> [u8; 12] {
    let mut r = [0u8; 12];
    r[..6].copy_from_slice(&houses[6..]);
    r[6..].copy_from_slice(&houses[..6]);
    r
}

/// Whether a sowing that ended in the opponent's house `last` (of the board after it, seen
/// from the mover) takes seeds in oware: 2s and 3s backwards from there, unless they are all
/// the opponent has (a grand slam takes nothing in oware).
#[inline]
fn oware_takes(after: &[u8; 12], last: usize) -> bool {
    if last < 6 || !matches!(after[last], 2 | 3) {
        return false;
    }
    let mut taken = 0u32;
    let mut house = last + 1;
    while house > 6 && matches!(after[house - 1], 2 | 3) {
        house -= 1;
        taken += u32::from(after[house]);
    }
    taken != after[6..].iter().map(|&h| u32::from(h)).sum::<u32>()
}

/// Calls `f` with the houses, seen from its side to move, of every position a move of the
/// layer's position `houses` (seen from its side to move, its game not over) leads to without
/// leaving the layer: no seed taken, the opponent to move. The rules of
/// [`Board`] on raw houses, without its keys and counters: the moves of
/// [`moves`](super::layer::moves) that are [`Step::Inside`](super::layer::Step::Inside) (a
/// test checks they agree).
#[inline(always)]
pub fn children(variant: Variant, houses: &[u8; 12], mut f: impl FnMut(&[u8; 12])) {
    match variant {
        Variant::Kalah | Variant::KalahEmpty => {
            for origin in 0..6 {
                let sown = usize::from(houses[origin]);
                // Past house 5 the sowing reaches the store.
                if sown == 0 || origin + sown > 5 {
                    continue;
                }
                let mut after = *houses;
                after[origin] = 0;
                for h in &mut after[origin + 1..=origin + sown] {
                    *h += 1;
                }
                let last = origin + sown;
                // A last seed alone in its house takes the facing house's seeds, if any (in
                // kalah-empty, itself alone if none).
                if after[last] == 1 && (after[11 - last] != 0 || variant.captures_facing_empty()) {
                    continue;
                }
                f(&swapped(&after));
            }
        }
        _ => {
            let starving = houses[6..].iter().all(|&h| h == 0);
            for origin in 0..6 {
                let sown = usize::from(houses[origin]);
                // An opponent with no seeds must be fed.
                if sown == 0 || (starving && origin + sown < 6) {
                    continue;
                }
                let mut after = *houses;
                after[origin] = 0;
                let mut house = origin;
                for _ in 0..sown {
                    house = if house == 11 { 0 } else { house + 1 };
                    if house == origin {
                        house = if house == 11 { 0 } else { house + 1 };
                    }
                    after[house] += 1;
                }
                if !oware_takes(&after, house) {
                    f(&swapped(&after));
                }
            }
        }
    }
}

/// The children of [`children`], at most one a house, gathered in an array for a loop in the
/// caller, for a callback too large for the compiler to copy into the six places `children`
/// calls it (see `Store::children_pairs` in [`passes`](super::passes)).
pub(super) struct Children {
    list: [[u8; 12]; 6],
    len: usize,
}

impl Children {
    /// The children of the layer's position `houses`.
    #[inline(always)]
    pub(super) fn of(variant: Variant, houses: &[u8; 12]) -> Children {
        let mut all = Children {
            list: [[0; 12]; 6],
            len: 0,
        };
        children(variant, houses, |c| {
            all.list[all.len] = *c;
            all.len += 1;
        });
        all
    }

    /// The children's houses, seen from their side to move.
    #[inline(always)]
    pub(super) fn iter(&self) -> impl Iterator<Item = &[u8; 12]> {
        self.list[..self.len].iter()
    }
}

/// Calls `f` with the index of every position that might lead to `houses` (seen from its side
/// to move) by a move that keeps every seed on the board: every way to take back a sowing
/// that ended there (see the module's documentation) that [`children`] would not rule out by
/// a look at the board after it. Always inlined, as [`children`] is: the solvers' passes,
/// generic over their store, call both from closures the compiler otherwise leaves as calls,
/// and the packed solver's layer 22 took a fifth longer (doc/figures.md).
#[inline(always)]
pub fn parents(variant: Variant, houses: &[u8; 12], mut f: impl FnMut(u64)) {
    // The board after the move, seen from the mover.
    let after = swapped(houses);
    let starving = after[6..].iter().all(|&h| h == 0);
    for origin in 0..6 {
        if after[origin] != 0 {
            continue;
        }
        let mut before = after;
        let mut house = origin;
        for sown in 1u8.. {
            house = if house == 11 { 0 } else { house + 1 };
            if house == origin {
                house = if house == 11 { 0 } else { house + 1 };
            }
            // A larger sowing would take this seed back too: none can end here.
            if before[house] == 0 {
                break;
            }
            before[house] -= 1;
            before[origin] = sown;
            let keeps = match variant {
                // Short of the store, and not a last seed alone facing seeds.
                Variant::Kalah | Variant::KalahEmpty => {
                    if house > 5 {
                        break;
                    }
                    !(after[house] == 1
                        && (after[11 - house] != 0 || variant.captures_facing_empty()))
                }
                // No capture, and no sowing short of an opponent who has nothing.
                _ => !(oware_takes(&after, house) || (starving && house < 6 && house > origin)),
            };
            if keeps {
                f(rank(&before));
            }
        }
    }
}
