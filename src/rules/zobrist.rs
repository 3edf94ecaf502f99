//! Zobrist keys: one random 64-bit number per (house, seed count), per (store, seed count), for
//! North to move, for ahl's pending bonus move and for kalah-empty's rule. A position's key is the XOR of the numbers of
//! its features, so a move updates it by XOR-ing out old counts and XOR-ing in new ones.
//!
//! The tables are built at compile time (SplitMix64 from a fixed seed), so keys are the same in
//! every run and every build: a key printed today identifies the same position tomorrow.
//! The ply count is deliberately left out: it is not part of what makes two positions the same.

use crate::rng::splitmix64;

const fn table<const N: usize>(seed: u64) -> [[u64; 256]; N] {
    let mut t = [[0u64; 256]; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let mut count = 0;
        while count < 256 {
            let (s, r) = splitmix64(state);
            state = s;
            t[i][count] = r;
            count += 1;
        }
        i += 1;
    }
    t
}

/// Key parts for house `i` holding `n` seeds: `HOUSE[i][n]`.
pub static HOUSE: [[u64; 256]; 12] = table::<12>(0x6177_6172_6920_6831);
/// `HOUSE[i][n] ^ HOUSE[i][n + 1]`: what one more seed in house `i` (holding `n`) changes in
/// the key, one load where sowing would otherwise need two.
pub static HOUSE_STEP: [[u64; 256]; 12] = steps(&HOUSE);

const fn steps<const N: usize>(t: &[[u64; 256]; N]) -> [[u64; 256]; N] {
    let mut s = [[0u64; 256]; N];
    let mut i = 0;
    while i < N {
        let mut n = 0;
        while n < 255 {
            s[i][n] = t[i][n] ^ t[i][n + 1];
            n += 1;
        }
        i += 1;
    }
    s
}

/// Key parts for store `s` holding `n` seeds: `STORE[s][n]`.
pub static STORE: [[u64; 256]; 2] = table::<2>(0x6177_6172_6920_7332);
/// XOR-ed in when North is to move.
pub const NORTH_TO_MOVE: u64 = splitmix64(0x6e6f_7274_6833).1;
/// XOR-ed in while an ahl bonus move is pending.
pub const BONUS: u64 = splitmix64(0x626f_6e75_7334).1;
/// XOR-ed into the key of every kalah-empty board: the same houses play on differently under
/// kalah's two readings, so a transposition table that outlives a change of rule set must not
/// take one's entry for the other's. (The first five rule sets' keys had no such part when
/// they were fixed; adding one now would change every key printed so far.)
pub const EMPTY_CAPTURE: u64 = splitmix64(0x656d_7074_7935).1;
