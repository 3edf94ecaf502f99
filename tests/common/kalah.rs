//! Kalah as the tests model it on their own, in both readings (`kalah` and `kalah-empty`): the
//! sowing written from doc/rules.md, a perft, a plain memoized full-width minimax and a
//! full-window alpha-beta. Nothing here uses the engine (neither the rules core nor the search
//! nor the tables) except to read a board's parts, so the engine's answers can be checked
//! against it.

use awari::rules::{Board, Variant};
use std::collections::HashMap;

/// A kalah position: houses `A..F a..f`, stores (South, North), the side to move (0 South,
/// 1 North), and the reading: whether a last seed alone in an own house goes to the store
/// even when the facing house is empty.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Kalah {
    pub houses: [u8; 12],
    pub stores: [u8; 2],
    pub side: usize,
    pub empty_capture: bool,
}

impl Kalah {
    /// `board`'s position, in its reading (a board of another rule set is read as kalah).
    pub fn of(board: &Board) -> Kalah {
        Kalah {
            houses: board.houses(),
            stores: board.stores(),
            side: board.side_to_move().index(),
            empty_capture: board.variant() == Variant::KalahEmpty,
        }
    }

    pub fn row(&self, side: usize) -> u32 {
        self.houses[6 * side..6 * side + 6]
            .iter()
            .map(|&h| u32::from(h))
            .sum()
    }

    /// doc/rules.md's kalah: sow counter-clockwise through the own store (place 6 for South,
    /// 13 for North, houses at places 0-5 and 7-12), skipping the opponent's; a last seed in
    /// the own store moves again; a last seed alone in an own house takes the facing house's
    /// seeds with it when there are any, and in kalah-empty goes to the store alone when there
    /// are none.
    pub fn sow(&self, house: usize) -> Kalah {
        let mut k = *self;
        let me = k.side;
        let place_of = |h: usize| if h < 6 { h } else { h + 1 };
        let own_store = if me == 0 { 6 } else { 13 };
        let mut seeds = std::mem::take(&mut k.houses[house]);
        let mut place = place_of(house);
        while seeds > 0 {
            place = (place + 1) % 14;
            if place == 19 - own_store {
                continue;
            }
            if place == own_store {
                k.stores[me] += 1;
            } else {
                k.houses[if place < 6 { place } else { place - 1 }] += 1;
            }
            seeds -= 1;
        }
        if place != own_store {
            let last = if place < 6 { place } else { place - 1 };
            let facing = k.houses[11 - last];
            if last / 6 == me && k.houses[last] == 1 && (facing > 0 || k.empty_capture) {
                k.stores[me] += k.houses[last] + facing;
                k.houses[last] = 0;
                k.houses[11 - last] = 0;
            }
            k.side = 1 - me;
        }
        k
    }

    /// A row is empty: the game is over, each side taking its own row.
    pub fn over(&self) -> bool {
        self.row(0) == 0 || self.row(1) == 0
    }

    /// The side to move's moves: its houses with seeds.
    pub fn moves(&self) -> impl Iterator<Item = usize> + '_ {
        (6 * self.side..6 * self.side + 6).filter(|&h| self.houses[h] > 0)
    }

    /// The memo's key: 5 bits a house (houses of more than 31 seeds do not occur in the
    /// positions tested), the side, and the reading.
    fn key(&self) -> u64 {
        debug_assert!(self.houses.iter().all(|&h| h < 32));
        let key = self
            .houses
            .iter()
            .fold(self.side as u64, |key, &h| key << 5 | u64::from(h.min(31)));
        key | u64::from(self.empty_capture) << 63
    }
}

/// Positions at exactly `depth` plies (a sowing is a ply), as `awari perft` counts them: a
/// finished game has none below it.
pub fn perft(k: &Kalah, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if k.over() {
        return 0;
    }
    k.moves().map(|h| perft(&k.sow(h), depth - 1)).sum()
}

/// What best play from `k` adds to its side to move's margin (own store minus the opponent's)
/// by the end of the game. Stores only ever add, so this depends on the houses, the side to
/// move and the reading alone, which is all the memo keeps.
pub fn gain(k: &Kalah, memo: &mut HashMap<u64, i8>) -> i32 {
    let me = k.side;
    if k.over() {
        return k.row(me) as i32 - k.row(1 - me) as i32;
    }
    let key = k.key();
    if let Some(&v) = memo.get(&key) {
        return i32::from(v);
    }
    let v = k
        .moves()
        .map(|h| {
            let child = k.sow(h);
            let earned = i32::from(child.stores[me]) - i32::from(k.stores[me]);
            let v = gain(&child, memo);
            earned + if child.side == me { v } else { -v }
        })
        .max()
        .expect("a game not over has a move");
    memo.insert(key, v as i8);
    v
}

/// The final margin (own store minus the opponent's) that best play gives `k`'s side to move.
pub fn minimax(k: &Kalah, memo: &mut HashMap<u64, i8>) -> i32 {
    i32::from(k.stores[k.side]) - i32::from(k.stores[1 - k.side]) + gain(k, memo)
}

/// A second solver, for starts too large for the plain minimax (its memo would hold most
/// positions of up to 24 or 36 seeds): full-window fail-soft alpha-beta over the same `gain`,
/// remembering for each position (houses, side and reading) the bounds its searches proved.
/// Moves from the store backwards; no null windows, no MTD(f), no cut-offs from the children's
/// entries.
pub fn alpha_beta(
    k: &Kalah,
    mut alpha: i32,
    mut beta: i32,
    memo: &mut HashMap<u64, (i8, i8)>,
) -> i32 {
    let me = k.side;
    if k.over() {
        return k.row(me) as i32 - k.row(1 - me) as i32;
    }
    let key = k.key();
    let n = (k.row(0) + k.row(1)) as i32;
    let (lo, hi) = memo
        .get(&key)
        .map_or((-n, n), |&(l, h)| (i32::from(l), i32::from(h)));
    if lo >= beta || lo == hi {
        return lo;
    }
    if hi <= alpha {
        return hi;
    }
    alpha = alpha.max(lo);
    beta = beta.min(hi);
    let (low, high) = (alpha, beta);
    let mut best = i32::MIN;
    for h in (6 * me..6 * me + 6).rev().filter(|&h| k.houses[h] > 0) {
        let child = k.sow(h);
        let earned = i32::from(child.stores[me]) - i32::from(k.stores[me]);
        let v = if child.side == me {
            earned + alpha_beta(&child, alpha - earned, beta - earned, memo)
        } else {
            earned - alpha_beta(&child, earned - beta, earned - alpha, memo)
        };
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    let bounds = if best <= low {
        (lo, best)
    } else if best >= high {
        (best, hi)
    } else {
        (best, best)
    };
    memo.insert(key, (bounds.0 as i8, bounds.1 as i8));
    best
}

/// The final margin for `k`'s side to move by [`alpha_beta`].
pub fn alpha_beta_margin(k: &Kalah, memo: &mut HashMap<u64, (i8, i8)>) -> i32 {
    let n = (k.row(0) + k.row(1)) as i32;
    i32::from(k.stores[k.side]) - i32::from(k.stores[1 - k.side])
        + alpha_beta(k, -n - 1, n + 1, memo)
}
