//! A small seeded pseudo-random generator (SplitMix64). Reproducible runs need a generator
//! whose sequence is fixed by its seed on every platform and every version; this one is ten
//! lines, so no crate is pulled in for it.

/// The seed of item `index` of a run seeded with `seed` (a game of a tuning run or a book
/// build): the items' generators differ, and each depends on the run's seed and its own number
/// alone, so a shard of the run plays exactly the items the whole run would.
pub fn item_seed(seed: u64, index: u64) -> u64 {
    seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// SplitMix64: fast, statistically sound for games and tests, not for cryptography.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator whose sequence is fixed by `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0), without modulo bias worth speaking of (Lemire's method).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}
