//! A row of six houses as one 64-bit word, house `c` of the row in byte `c` and the top two
//! bytes 0, and tests on all six houses at once: the move generator and the evaluations run
//! them at every node of a search, where a loop over the houses costs a branch or a shift per
//! house. Each test answers with the top bit of each byte ([`HIGH`]), and [`bits`] gathers
//! those into one bit per house.

/// The top bit of every byte.
pub const HIGH: u64 = 0x8080_8080_8080_8080;
const LOW: u64 = !HIGH;
const ONES: u64 = 0x0101_0101_0101_0101;

/// The six houses from `first` on (a row: 0 for South's, 6 for North's) as a word.
#[inline]
pub fn word(houses: &[u8; 12], first: usize) -> u64 {
    of(&houses[first..first + 6])
}

/// A row's six houses (a slice of six) as a word.
#[inline]
pub fn of(row: &[u8]) -> u64 {
    let mut bytes = [0u8; 8];
    bytes[..6].copy_from_slice(row);
    u64::from_le_bytes(bytes)
}

/// The seeds in a row's word.
#[inline]
pub fn sum(word: u64) -> u32 {
    // The product's top byte is the sum of the bytes: no partial sum carries over into the
    // next byte while the row holds at most 255 seeds.
    (word.wrapping_mul(ONES) >> 56) as u32
}

/// Set where the byte is not 0.
#[inline]
pub fn nonzero(word: u64) -> u64 {
    ((word & LOW).wrapping_add(LOW) | word) & HIGH
}

/// Set where the byte is `k`. (The top two bytes of a row's word are 0: `k` 0 sets theirs.)
#[inline]
pub fn equal(word: u64, k: u8) -> u64 {
    !nonzero(word ^ u64::from(k).wrapping_mul(ONES)) & HIGH
}

/// Set where the byte is `k` (1 to 128) or more.
#[inline]
pub fn at_least(word: u64, k: u8) -> u64 {
    debug_assert!((1..=128).contains(&k));
    // A byte with its top bit set, less `k`, borrows from no other byte; it keeps its top bit
    // where the byte was `k` or more, and a byte of 128 or more had it already.
    (((word | HIGH) - u64::from(k) * ONES) | word) & HIGH
}

/// How many bytes a test's answer sets. (A multiplication, as [`sum`]: `count_ones` is a
/// dozen instructions on processors without `popcnt`, which portable builds cannot assume.)
#[inline]
pub fn count(mask: u64) -> u32 {
    sum(mask >> 7)
}

/// The top bits of a test's answer gathered into the low bits, byte `c`'s at bit `c`.
#[inline]
pub fn bits(mask: u64) -> u32 {
    ((mask >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every test against its definition, byte by byte, on rows of small and large counts.
    #[test]
    fn tests_agree_with_the_houses_one_by_one() {
        let mut rows = vec![[0u8; 6], [255; 6], [1, 2, 3, 4, 5, 6]];
        let mut state = 7u64;
        for _ in 0..20_000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let pick = |i: u32| {
                let b = (state >> (8 * i)) as u8;
                // Mostly the small counts of play, sometimes any byte.
                if b & 0x80 == 0 {
                    b % 16
                } else {
                    b
                }
            };
            rows.push(std::array::from_fn(|i| pick(i as u32)));
        }
        for row in rows {
            let mut houses = [0u8; 12];
            houses[6..].copy_from_slice(&row);
            let w = word(&houses, 6);
            assert_eq!(word(&houses, 0), 0);
            let want = |test: &dyn Fn(u8) -> bool| {
                (0..6)
                    .filter(|&c| test(row[c]))
                    .map(|c| 1u32 << c)
                    .sum::<u32>()
            };
            assert_eq!(bits(nonzero(w)), want(&|n| n != 0), "{row:?}");
            assert_eq!(count(nonzero(w)), want(&|n| n != 0).count_ones(), "{row:?}");
            for k in [0, 1, 2, 3, 11, 12, 13, 14, 127, 128, 200, 255] {
                assert_eq!(bits(equal(w, k)) & 0x3f, want(&|n| n == k), "{row:?} = {k}");
            }
            for k in [1, 2, 11, 12, 13, 14, 127, 128] {
                assert_eq!(bits(at_least(w, k)), want(&|n| n >= k), "{row:?} >= {k}");
            }
            let total: u32 = row.iter().map(|&n| u32::from(n)).sum();
            if total <= 255 {
                assert_eq!(sum(w), total, "{row:?}");
            }
        }
    }
}
