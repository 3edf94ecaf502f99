//! The perfect index of a layer: every way `n` seeds lie in the 12 houses gets one number in
//! `0..C(n + 11, 11)`, with no gaps, so a layer's values are a plain array of bytes.
//!
//! Positions are stored from the side to move's point of view (its row first, as houses
//! `0..6`): oware and kalah play the same from either seat, so a North-to-move position has the
//! value of the South-to-move position with the rows swapped, and one array serves both.
//!
//! The ranking is the combinatorial number system of stars and bars, read house by house:
//! the configurations with a smaller count in the first house where two differ come first.

use crate::rules::{Board, Side};

/// Houses on the board.
const HOUSES: usize = 12;
/// The largest seed count a layer can have (the tables never go near it; it bounds the
/// binomial table).
pub const MAX_LAYER: usize = 48;

/// `BINOMIAL[a][b]` = C(a, b) for a <= MAX_LAYER + 11, b <= 11.
static BINOMIAL: [[u64; HOUSES]; MAX_LAYER + HOUSES] = binomials();

const fn binomials() -> [[u64; HOUSES]; MAX_LAYER + HOUSES] {
    let mut t = [[0u64; HOUSES]; MAX_LAYER + HOUSES];
    let mut a = 0;
    while a < MAX_LAYER + HOUSES {
        t[a][0] = 1;
        let mut b = 1;
        while b < HOUSES && b <= a {
            t[a][b] = t[a - 1][b - 1] + if b < a { t[a - 1][b] } else { 0 };
            b += 1;
        }
        a += 1;
    }
    t
}

/// Configurations of `seeds` seeds in `houses` houses: C(seeds + houses - 1, houses - 1).
#[inline]
fn configurations(seeds: usize, houses: usize) -> u64 {
    BINOMIAL[seeds + houses - 1][houses - 1]
}

/// Positions in layer `n`: C(n + 11, 11).
///
/// # Panics
/// If `n` exceeds [`MAX_LAYER`].
pub fn layer_size(n: usize) -> u64 {
    assert!(
        n <= MAX_LAYER,
        "layer {n} is beyond the index's {MAX_LAYER}"
    );
    configurations(n, HOUSES)
}

/// Positions in all layers up to `n`: C(n + 12, 12).
pub fn positions_up_to(n: usize) -> u64 {
    (0..=n).map(layer_size).sum()
}

/// Seeds on the board.
#[inline]
pub fn seeds(houses: &[u8; 12]) -> usize {
    houses.iter().map(|&h| usize::from(h)).sum()
}

/// `BEYOND[i][l]` = C(l + 11 - i, 12 - i) for `1 <= i <= 11` (see [`rank`]).
static BEYOND: [[u64; MAX_LAYER + 1]; HOUSES] = beyond();

const fn beyond() -> [[u64; MAX_LAYER + 1]; HOUSES] {
    let mut t = [[0u64; MAX_LAYER + 1]; HOUSES];
    let mut i = 1;
    while i < HOUSES {
        let mut l = 0;
        while l <= MAX_LAYER {
            t[i][l] = BINOMIAL[l + 11 - i][12 - i];
            l += 1;
        }
        i += 1;
    }
    t
}

/// The index of `houses` within its layer.
///
/// House by house, the configurations whose house `i` holds fewer seeds than `houses[i]` (the
/// others before it equal) number C(l_i + 11 - i, 11 - i) - C(l_(i+1) + 11 - i, 11 - i), `l_i`
/// being the seeds in houses `i..`. Summed, and each pair of terms with the same `l_i` joined
/// by Pascal's rule, that is C(n + 11, 11) - 1 - the sum over `i` in `1..12` of
/// C(l_i + 11 - i, 12 - i): one look-up a house, from the last house's end.
#[inline(always)]
pub fn rank(houses: &[u8; 12]) -> u64 {
    let mut left = 0;
    let mut beyond = 0;
    for i in (1..HOUSES).rev() {
        left += usize::from(houses[i]);
        beyond += BEYOND[i][left];
    }
    let n = left + usize::from(houses[0]);
    configurations(n, HOUSES) - 1 - beyond
}

/// The houses at index `r` of layer `n`; the inverse of [`rank`].
///
/// # Panics
/// If `r` is not below [`layer_size`]`(n)`.
pub fn unrank(n: usize, mut r: u64) -> [u8; 12] {
    assert!(r < layer_size(n), "index {r} is outside layer {n}");
    let mut houses = [0u8; 12];
    let mut left = n;
    for (i, house) in houses.iter_mut().enumerate().take(HOUSES - 1) {
        let rest = HOUSES - 1 - i;
        let mut x = 0;
        loop {
            let with_x = configurations(left - x, rest);
            if r < with_x {
                break;
            }
            r -= with_x;
            x += 1;
        }
        *house = x as u8;
        left -= x;
    }
    houses[HOUSES - 1] = left as u8;
    houses
}

/// The configuration after `houses` in index order, or `None` after the last one. Walking a
/// layer with it costs far less than unranking every index.
#[inline]
pub fn next(houses: &mut [u8; 12]) -> bool {
    // The last house takes whatever is left, so the order is: move one seed from the suffix
    // into the rightmost house that can grow, then put the rest of the suffix at the end.
    let mut tail = usize::from(houses[HOUSES - 1]);
    for i in (0..HOUSES - 1).rev() {
        if tail > 0 {
            houses[i] += 1;
            for h in houses.iter_mut().skip(i + 1) {
                *h = 0;
            }
            houses[HOUSES - 1] = (tail - 1) as u8;
            return true;
        }
        tail += usize::from(houses[i]);
    }
    false
}

/// The houses seen from `side`: its own row first.
#[inline]
pub fn from_side(houses: [u8; 12], side: Side) -> [u8; 12] {
    match side {
        Side::South => houses,
        Side::North => {
            let mut r = [0u8; 12];
            r[..6].copy_from_slice(&houses[6..]);
            r[6..].copy_from_slice(&houses[..6]);
            r
        }
    }
}

/// A board's layer and index: seeds on the board, and the rank of its houses seen from the
/// side to move.
#[inline]
pub fn locate(board: &Board) -> (usize, u64) {
    let h = from_side(board.houses(), board.side_to_move());
    (seeds(&h), rank(&h))
}
