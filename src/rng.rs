//! A small seeded pseudo-random generator (SplitMix64). Reproducible runs need a generator
//! whose sequence is fixed by its seed on every platform and every version; this one is ten
//! lines, so no crate is pulled in for it. Its step is a `const fn` ([`splitmix64`]), so the
//! tables built at compile time (the Zobrist keys) come from the same generator, and this
//! module imports nothing, so every other one (the rules included) may build on it.

/// SplitMix64's increment: the fractional part of the golden ratio in 64 bits. It is odd, so
/// the state runs through all 2^64 values before it repeats.
const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64's output function (Stafford's "Mix13" variant of MurmurHash3's finalizer): a
/// bijection of `u64` in which every output bit depends on every input bit. `mix64(0)` is 0.
pub const fn mix64(z: u64) -> u64 {
    let z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One step of SplitMix64 from `state`: the next state and the 64 random bits it gives.
/// `splitmix64(x).1` alone is also a good hash of `x`: the first output of a generator seeded
/// with `x`.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(GAMMA);
    (state, mix64(state))
}

/// The seed of item `index` of a run seeded with `seed` (a game of a tuning run or a book
/// build): the items' generators differ, and each depends on the run's seed and its own number
/// alone, so a shard of the run plays exactly the items the whole run would.
///
/// Why this formula: the generator seeded with `s` draws `mix64(s + γ)`, `mix64(s + 2γ)`, ...,
/// so two generators draw the same numbers, one shifted, exactly when their seeds differ by a
/// small multiple of γ. The obvious seeds, the run's seed plus (or XOR) `index·γ`, are such
/// seeds: with `seed ^ index·γ` and seed 1, item 2 replays item 0 two draws later. Here the
/// item seeds are instead the outputs of a second SplitMix64 generator, seeded with the run's
/// seed through `mix64`: distinct for distinct indices (`γ` is odd and `mix64` a bijection),
/// and spread over all 64 bits with no arithmetic relation between them, so two items' streams
/// of `n` draws meet with a chance of about `2n / 2^64`. The run's seed is mixed first so that
/// the item seeds are not the run seed's own stream, and runs whose seeds differ by a multiple
/// of γ do not play each other's items.
pub const fn item_seed(seed: u64, index: u64) -> u64 {
    splitmix64(mix64(seed).wrapping_add(index.wrapping_mul(GAMMA))).1
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
        let (state, out) = splitmix64(self.0);
        self.0 = state;
        out
    }

    /// A number in `0..n` (`n` > 0), without modulo bias worth speaking of (Lemire's method).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn draws(seed: u64, n: usize) -> Vec<u64> {
        let mut rng = Rng::new(seed);
        (0..n).map(|_| rng.next_u64()).collect()
    }

    /// The sequence is SplitMix64's, value for value: the first outputs of Vigna's reference
    /// `splitmix64.c` for seed 0 (0xe220a8397b1dcdaf, ...) and seed 1234567 (6457827717110365317,
    /// ..., the values Rosetta Code's "Pseudo-random numbers/Splitmix64" publishes), checked
    /// again with a Python transcription of the reference (`x += γ; z = x; z = (z ^ z >> 30) *
    /// 0xbf58476d1ce4e5b9; z = (z ^ z >> 27) * 0x94d049bb133111eb; z ^ z >> 31`, modulo 2^64).
    #[test]
    fn the_sequence_is_the_reference_splitmix64() {
        assert_eq!(
            draws(0, 5),
            [
                0xe220_a839_7b1d_cdaf,
                0x6e78_9e6a_a1b9_65f4,
                0x06c4_5d18_8009_454f,
                0xf88b_b8a8_724c_81ec,
                0x1b39_896a_51a8_749b,
            ]
        );
        assert_eq!(
            draws(1_234_567, 5),
            [
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423,
                4_593_380_528_125_082_431,
                16_408_922_859_458_223_821,
            ]
        );
        // The const step is the same generator.
        assert_eq!(splitmix64(0), (GAMMA, 0xe220_a839_7b1d_cdaf));
    }

    /// Item seeds are fixed too, so a run's games are the same in every version. The values
    /// are from the same Python transcription: `mix(mix(seed) + (index + 1)·γ)`.
    #[test]
    fn item_seeds_are_fixed() {
        assert_eq!(
            (0..3).map(|i| item_seed(1, i)).collect::<Vec<_>>(),
            [
                0xbfef_8030_ddc2_d772,
                0x5f55_2ce4_82f2_aa47,
                0x7033_5fc3_daf3_d8a7
            ]
        );
        assert_eq!(
            (0..3).map(|i| item_seed(3, i)).collect::<Vec<_>>(),
            [
                0xd0bb_866a_ae32_8182,
                0x6f62_0338_7a58_2791,
                0x669b_b27a_971c_d2e4
            ]
        );
    }

    /// How many draws the stream of seed `b` runs ahead of the stream of seed `a` (`b = a +
    /// k·γ`), as a signed distance: `k = (b - a)·γ⁻¹` modulo 2^64.
    fn shift(a: u64, b: u64) -> i64 {
        // γ⁻¹ modulo 2^64 by Newton's iteration (each step doubles the correct low bits; an
        // odd number is its own inverse modulo 8, so five steps give 96 > 64).
        let mut inverse = GAMMA;
        for _ in 0..5 {
            inverse = inverse.wrapping_mul(2u64.wrapping_sub(GAMMA.wrapping_mul(inverse)));
        }
        assert_eq!(GAMMA.wrapping_mul(inverse), 1);
        b.wrapping_sub(a).wrapping_mul(inverse) as i64
    }

    #[test]
    fn the_shift_measure_finds_shifted_streams() {
        let a = 12_345;
        let b = GAMMA.wrapping_mul(5).wrapping_add(a);
        assert_eq!(shift(a, b), 5);
        assert_eq!(shift(b, a), -5);
        assert_eq!(draws(a, 8)[5..], draws(b, 3)[..]);
    }

    /// Items 0..=64 of a few runs: no two of their streams (of any run) come within 2^32 draws
    /// of each other, and their first 1000 draws share no value.
    #[test]
    fn items_streams_do_not_overlap() {
        let seeds: Vec<(u64, u64, u64)> = [0, 1, 2, 3, 7, 0x5eed, u64::MAX]
            .into_iter()
            .flat_map(|seed| (0..=64).map(move |i| (seed, i, item_seed(seed, i))))
            .collect();
        for (n, &(seed_a, item_a, a)) in seeds.iter().enumerate() {
            for &(seed_b, item_b, b) in &seeds[n + 1..] {
                let k = shift(a, b);
                assert!(
                    k.unsigned_abs() > 1 << 32,
                    "item {item_b} of seed {seed_b} is item {item_a} of seed {seed_a} {k} draws on"
                );
            }
        }
        let mut seen = HashMap::new();
        for &(seed, item, s) in &seeds {
            for (draw, value) in draws(s, 1000).into_iter().enumerate() {
                if let Some(first) = seen.insert(value, (seed, item, draw)) {
                    panic!(
                        "{value:#x}: drawn by {first:?} and by {:?}",
                        (seed, item, draw)
                    );
                }
            }
        }
    }
}
