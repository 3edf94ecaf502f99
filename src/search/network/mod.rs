//! The evaluation's network (oware): a small two-layer network over the seed counts, in
//! integers for speed. doc/network.md describes it and its weights file.
//!
//! The input is one-hot per house and per store, seen from the side to move: each of the 12
//! houses (the mover's six in sowing order, then the opponent's) in [`HOUSE_BUCKETS`] buckets
//! of its count (0, 1, ..., 23, 24 or more: a kroo of 15 to 30 seeds is where oware's middle
//! game is decided, and a network that lumped "15 or more" together could not tell 16 seeds
//! from 23), each store in [`STORE_BUCKETS`] (0, ..., 23, 24 or more), the mover's first. So
//! every position has exactly [`ACTIVE`] inputs set, and the hidden layer is the bias plus
//! [`ACTIVE`] rows of the first matrix, computed directly at each leaf (there is no
//! accumulator kept along the search's moves: a sowing changes up to 12 houses, each a row
//! out and a row in, for each side's view, which costs more than the 14 rows of one view).
//! [`HIDDEN`] clipped-ReLU units (0 to 1) then give the output through one of
//! [`OUTPUT_BUCKETS`] output layers, chosen by the seeds left on the board (what a house is
//! worth with 40 seeds in play is not what it is worth with 12): a score in the engine's units
//! (100 = one seed) for the side to move, added to the stores' difference (own minus
//! opponent's, 100 a seed): the network learns what the seeds on the board are worth beyond
//! the seeds already won.
//!
//! Integers: the first layer's weights and biases are `i16`, scaled by [`QA`], and its sums
//! stay `i16` (the quantizer bounds the weights, and a file is held to that bound when read,
//! so that no sum of [`ACTIVE`] + 1 of them can overflow: `i16` lanes are twice as many per
//! vector instruction as `i32`'s); the clipped units are then 0..=[`QA`]. The output weights
//! are `i16` scaled by [`QB`], summed in `i32`; the output bias is kept in score units. The
//! sums run on AVX2 where the processor has it (chosen once, at run time), written with its
//! intrinsics, and elsewhere on the compiler's vectors for the target's baseline; a test holds
//! the two to the same sums.

mod file;

pub use file::{from_bytes, to_bytes, FileError, LENGTH, MAGIC, VERSION};

use crate::rules::{Board, Side};
use std::fmt;
use std::sync::OnceLock;

/// Buckets of a house's seed count: 0 to 23 seeds, then 24 or more.
pub const HOUSE_BUCKETS: usize = 25;
/// Buckets of a store's seeds: 0 to 23, then 24 or more.
pub const STORE_BUCKETS: usize = 25;
/// Inputs: 12 houses and 2 stores, one-hot.
pub const INPUTS: usize = 12 * HOUSE_BUCKETS + 2 * STORE_BUCKETS;
/// Inputs set in every position: one per house and per store.
pub const ACTIVE: usize = 14;
/// Hidden units.
pub const HIDDEN: usize = 64;
/// Output layers, one per range of the seeds on the board ([`output_bucket`]).
pub const OUTPUT_BUCKETS: usize = 4;
/// The seeds on the board from which each output bucket after the first starts: 0-14,
/// 15-22, 23-32, 33 or more.
pub const OUTPUT_EDGES: [u32; OUTPUT_BUCKETS - 1] = [15, 23, 33];
/// The first layer's scale: a float weight `w` is `round(w * QA)`; a unit's clip is `QA`.
pub const QA: i32 = 64;
/// The output layer's scale.
pub const QB: i32 = 64;
/// The largest first-layer weight or bias, in float: (ACTIVE + 1) of them sum within `i16`.
pub const MAX_WEIGHT: f32 = (i16::MAX as f32) / (QA as f32) / (ACTIVE as f32 + 1.0);
/// The largest first-layer weight or bias in integers ([`MAX_WEIGHT`] quantized, either
/// sign): a file holding one beyond it is refused, since its sums could leave `i16`.
pub const MAX_FIRST: i16 = i16::MAX / (ACTIVE as i16 + 1);
/// The largest output weight in integers, either sign (the quantizer's clip).
pub const MAX_OUTPUT: i16 = i16::MAX;
/// The largest output bias, in float (seeds, either sign): far beyond any position's worth,
/// and small enough that the output never leaves `i32`.
pub const MAX_BIAS: f32 = 100.0;

/// The network's inputs set in a position given by its parts, from `side`'s view (`side` to
/// move): house inputs first, then the stores'.
pub fn features(houses: &[u8; 12], stores: [u8; 2], side: Side) -> [u16; ACTIVE] {
    let (own, theirs) = match side {
        Side::South => (0, 6),
        Side::North => (6, 0),
    };
    let mut out = [0u16; ACTIVE];
    for i in 0..6 {
        let b = |n: u8| usize::from(n).min(HOUSE_BUCKETS - 1);
        out[i] = (i * HOUSE_BUCKETS + b(houses[own + i])) as u16;
        out[6 + i] = ((6 + i) * HOUSE_BUCKETS + b(houses[theirs + i])) as u16;
    }
    let s = |n: u8| usize::from(n).min(STORE_BUCKETS - 1);
    let (me, you) = (side.index(), side.opponent().index());
    out[12] = (12 * HOUSE_BUCKETS + s(stores[me])) as u16;
    out[13] = (12 * HOUSE_BUCKETS + STORE_BUCKETS + s(stores[you])) as u16;
    out
}

/// The output layer for a position with `houses` on the board: by the seeds there.
pub fn output_bucket(houses: &[u8; 12]) -> usize {
    bucket_of_seeds(houses.iter().map(|&h| u32::from(h)).sum())
}

/// The output layer for a position with `on_board` seeds in its houses.
#[inline]
fn bucket_of_seeds(on_board: u32) -> usize {
    OUTPUT_EDGES.iter().filter(|&&e| on_board >= e).count()
}

/// The network, in integers.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// The first layer: a row of [`HIDDEN`] weights per input.
    pub w1: Vec<[i16; HIDDEN]>,
    /// The first layer's biases.
    pub b1: [i16; HIDDEN],
    /// The output weights, a row per output bucket.
    pub w2: [[i16; HIDDEN]; OUTPUT_BUCKETS],
    /// The output biases, in score units, one per output bucket.
    pub b2: [i32; OUTPUT_BUCKETS],
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Network({INPUTS}x{HIDDEN}x{OUTPUT_BUCKETS}, checksum {:016x})",
            self.checksum()
        )
    }
}

/// The hidden layer and the output's sum (before its scale and bias), the loops the compiler
/// vectorizes for the target's baseline ([`sums_portable`]); [`sums_avx2`] computes the same
/// with AVX2's intrinsics.
#[inline(always)]
#[cfg_attr(
    all(target_arch = "wasm32", target_feature = "simd128"),
    allow(dead_code)
)]
fn sums(net: &Network, active: &[u16; ACTIVE], bucket: usize) -> i32 {
    let mut acc = net.b1;
    for &i in active {
        let row = &net.w1[usize::from(i)];
        for (a, w) in acc.iter_mut().zip(row) {
            // The quantizer's bound ([`MAX_FIRST`], which a file is held to when read) keeps
            // every sum within i16; wrapping is what the machine does and the bound makes it
            // never happen.
            *a = a.wrapping_add(*w);
        }
    }
    let mut sum = 0i32;
    for (a, w) in acc.iter().zip(&net.w2[bucket]) {
        sum += i32::from((*a).clamp(0, QA as i16)) * i32::from(*w);
    }
    sum
}

/// [`sums`] on AVX2, written out with its intrinsics: the hidden layer's 64 sums stay in four
/// registers from the bias to the output. Compiled from [`sums`], they went through memory at
/// every row (the compiler kept the array of 64 `i16` on the stack): over twice the
/// instructions (figures.md, "Where a node's work goes").
///
/// # Safety
/// The processor must have AVX2 (`is_x86_feature_detected!("avx2")`).
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn sums_avx2(net: &Network, active: &[u16; ACTIVE], bucket: usize) -> i32 {
    use std::arch::x86_64::*;
    const _: () = assert!(HIDDEN == 64, "four registers of 16 lanes");
    let mut acc = [0, 1, 2, 3].map(|k| lanes(&net.b1, k));
    for &i in active {
        let row = &net.w1[usize::from(i)];
        for (k, a) in acc.iter_mut().enumerate() {
            *a = _mm256_add_epi16(*a, lanes(row, k));
        }
    }
    let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16));
    let w2 = &net.w2[bucket];
    let mut sum = _mm256_setzero_si256();
    for (k, a) in acc.into_iter().enumerate() {
        let unit = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
        // Pairs of unit (0..=64) times weight (i16) sum within i32.
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(unit, lanes(w2, k)));
    }
    let half = _mm_add_epi32(
        _mm256_castsi256_si128(sum),
        _mm256_extracti128_si256(sum, 1),
    );
    let quarter = _mm_add_epi32(half, _mm_unpackhi_epi64(half, half));
    let eighth = _mm_add_epi32(quarter, _mm_shuffle_epi32(quarter, 0b01));
    _mm_cvtsi128_si32(eighth)
}

/// [`features`] on AVX2: the 14 counts in one vector, put in the side to move's order by one
/// shuffle, cut to their last bucket and offset to their inputs all at once (the scalar loop
/// took as many instructions as a third of the sums). The last two are 0 and not inputs.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
fn features_avx2(houses: &[u8; 12], stores: [u8; 2], side: Side) -> [u16; 16] {
    use std::arch::x86_64::*;
    const _: () = assert!(HOUSE_BUCKETS == STORE_BUCKETS && ACTIVE == 14);
    /// The count each input reads, by the side to move (-128: none, read as 0).
    const ORDER: [[i8; 16]; 2] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, -128, -128],
        [6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 13, 12, -128, -128],
    ];
    /// Each input's first index: the houses', then the stores'.
    const FIRST: [i16; 16] = {
        let mut first = [0; 16];
        let mut i = 0;
        while i < ACTIVE {
            first[i] = (i * HOUSE_BUCKETS) as i16;
            i += 1;
        }
        first
    };
    let mut bytes = [0u8; 16];
    bytes[..12].copy_from_slice(houses);
    bytes[12..14].copy_from_slice(&stores);
    // SAFETY: 16 bytes, the whole array, unaligned.
    let counts = unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) };
    // SAFETY: as above.
    let order = unsafe { _mm_loadu_si128(ORDER[side.index()].as_ptr().cast()) };
    // SAFETY: 16 `i16`, the whole array, unaligned.
    let first = unsafe { _mm256_loadu_si256(FIRST.as_ptr().cast()) };
    let top = _mm_set1_epi8((HOUSE_BUCKETS - 1) as i8);
    let buckets = _mm_min_epu8(_mm_shuffle_epi8(counts, order), top);
    let inputs = _mm256_add_epi16(_mm256_cvtepu8_epi16(buckets), first);
    let mut out = [0u16; 16];
    // SAFETY: as above, written.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), inputs) };
    out
}

/// The network's part of the score of a position given by its parts ([`features`]' and
/// [`sums`]' work), on AVX2.
///
/// # Safety
/// The processor must have AVX2 (`is_x86_feature_detected!("avx2")`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn board_sums_avx2(
    net: &Network,
    houses: &[u8; 12],
    stores: [u8; 2],
    side: Side,
    bucket: usize,
) -> i32 {
    let inputs = features_avx2(houses, stores, side);
    let active: &[u16; ACTIVE] = inputs[..ACTIVE].try_into().expect("14 of 16");
    // SAFETY: this function's own requirement.
    unsafe { sums_avx2(net, active, bucket) }
}

/// Units `16 * k` to `16 * k + 15` of `row`, as one vector.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
fn lanes(row: &[i16; HIDDEN], k: usize) -> std::arch::x86_64::__m256i {
    let part = &row[16 * k..][..16];
    // SAFETY: `part` is 16 `i16`, the 32 bytes read (unaligned).
    unsafe { std::arch::x86_64::_mm256_loadu_si256(part.as_ptr().cast()) }
}

/// [`sums`] compiled for the target's baseline (SSE2 on x86-64), or on WebAssembly's 128-bit
/// vectors where the module is built with them ([`sums_simd128`]).
fn sums_portable(net: &Network, active: &[u16; ACTIVE], bucket: usize) -> i32 {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return sums_simd128(net, active, bucket);
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    sums(net, active, bucket)
}

/// [`sums`] with WebAssembly's 128-bit vectors written out: the 64 hidden sums in eight
/// vectors from the bias to the output, and the output's products summed in pairs
/// (`i32x4.dot_i16x8_s`). With the loops of [`sums`] left to the compiler (with `simd128`),
/// `awari bench`'s positions took 7% to 15% longer in all (figures.md, "The engine in
/// WebAssembly").
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn sums_simd128(net: &Network, active: &[u16; ACTIVE], bucket: usize) -> i32 {
    use std::arch::wasm32::*;
    const LANES: usize = HIDDEN / 8;
    /// The `k`th eight weights of a row.
    #[inline(always)]
    fn eight(row: &[i16; HIDDEN], k: usize) -> v128 {
        let chunk = &row[8 * k..8 * k + 8];
        // SAFETY: `chunk` is eight live `i16`s, sixteen bytes; `v128_load` reads them
        // unaligned.
        unsafe { v128_load(chunk.as_ptr().cast::<v128>()) }
    }
    let mut acc: [v128; LANES] = std::array::from_fn(|k| eight(&net.b1, k));
    for &i in active {
        let row = &net.w1[usize::from(i)];
        for (k, a) in acc.iter_mut().enumerate() {
            // Wrapping, as in `sums`: the quantizer's bound keeps every sum within i16.
            *a = i16x8_add(*a, eight(row, k));
        }
    }
    let zero = i16x8_splat(0);
    let top = i16x8_splat(QA as i16);
    let mut total = i32x4_splat(0);
    for (k, a) in acc.iter().enumerate() {
        let clamped = i16x8_min(i16x8_max(*a, zero), top);
        total = i32x4_add(total, i32x4_dot_i16x8(clamped, eight(&net.w2[bucket], k)));
    }
    i32x4_extract_lane::<0>(total)
        + i32x4_extract_lane::<1>(total)
        + i32x4_extract_lane::<2>(total)
        + i32x4_extract_lane::<3>(total)
}

/// Whether this processor runs [`sums_avx2`]: asked once.
#[cfg(target_arch = "x86_64")]
fn has_avx2() -> bool {
    static AVX2: OnceLock<bool> = OnceLock::new();
    *AVX2.get_or_init(|| std::arch::is_x86_feature_detected!("avx2"))
}

impl Network {
    /// The checksum of the network's weights (the one its file's header holds): which
    /// network it is, for records of what a tool's searches used.
    pub fn checksum(&self) -> u64 {
        file::checksum(&to_bytes(self)[file::HEADER..])
    }

    /// The score of `board` for its side to move (100 = one seed).
    #[inline]
    pub fn evaluate(&self, board: &Board) -> i32 {
        let me = board.side_to_move();
        let stores = board.stores();
        let houses = board.houses();
        let material = i32::from(stores[me.index()]) - i32::from(stores[me.opponent().index()]);
        let on_board = board.seeds_on_board();
        debug_assert_eq!(bucket_of_seeds(on_board), output_bucket(&houses));
        let bucket = bucket_of_seeds(on_board);
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: the processor has AVX2, asked just above.
            let sum = unsafe { board_sums_avx2(self, &houses, stores, me, bucket) };
            return 100 * material + self.output(sum, bucket);
        }
        100 * material + self.evaluate_features(&features(&houses, stores, me), bucket)
    }

    /// The network's part of the score of the position whose inputs are `active` and whose
    /// output bucket is `bucket` (without the stores' difference).
    #[inline]
    pub fn evaluate_features(&self, active: &[u16; ACTIVE], bucket: usize) -> i32 {
        #[cfg(target_arch = "x86_64")]
        let sum = match has_avx2() {
            // SAFETY: the processor has AVX2, asked just above.
            true => unsafe { sums_avx2(self, active, bucket) },
            false => sums_portable(self, active, bucket),
        };
        #[cfg(not(target_arch = "x86_64"))]
        let sum = sums_portable(self, active, bucket);
        self.output(sum, bucket)
    }

    /// The output, in score units, of the output layer `bucket` whose sum is `sum`.
    #[inline]
    fn output(&self, sum: i32, bucket: usize) -> i32 {
        (i64::from(sum) * 100 / i64::from(QA * QB)) as i32 + self.b2[bucket]
    }

    /// The network compiled into the program (`oware.nnue`, trained by `awari train`).
    pub fn shipped() -> &'static Network {
        static SHIPPED: OnceLock<Network> = OnceLock::new();
        SHIPPED.get_or_init(|| {
            from_bytes(include_bytes!("oware.nnue")).expect("the shipped network reads")
        })
    }

    /// The network of the weights file `path`, read once and kept for the program's life
    /// (the search's [`crate::search::eval::Evaluator`] holds it by reference): a file read
    /// again is the same network. An empty path is the shipped network. A file of another
    /// length than a network's is refused by its size, read no further than its header.
    pub fn load(path: &str) -> Result<&'static Network, String> {
        use std::collections::HashMap;
        use std::sync::Mutex;
        static LOADED: OnceLock<Mutex<HashMap<String, &'static Network>>> = OnceLock::new();
        if path.is_empty() {
            return Ok(Network::shipped());
        }
        let io = |e: std::io::Error| format!("{path}: {e}");
        #[cfg(feature = "native")]
        let mut input = crate::sys::files::open_regular(std::path::Path::new(path)).map_err(io)?;
        #[cfg(not(feature = "native"))]
        let mut input = std::fs::File::open(path).map_err(io)?;
        let size = input.metadata().map_err(io)?.len();
        let network = file::read(&mut input, size)
            .map_err(io)?
            .map_err(|e| format!("{path}: {e}"))?;
        let mut loaded = LOADED
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        // One leaked copy per distinct network: a file set again and again costs nothing more.
        let key = format!("{path}\0{:?}", network);
        Ok(*loaded
            .entry(key)
            .or_insert_with(|| Box::leak(Box::new(network))))
    }
}

/// The network in floats, as `awari train` fits it; [`FloatNetwork::quantize`] gives the
/// integer one.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    /// The first layer, `INPUTS` rows of `HIDDEN`, row-major.
    pub w1: Vec<f32>,
    /// The first layer's biases.
    pub b1: Vec<f32>,
    /// The output weights, `OUTPUT_BUCKETS` rows of `HIDDEN`.
    pub w2: Vec<f32>,
    /// The output biases, in seeds, one per output bucket.
    pub b2: Vec<f32>,
}

impl FloatNetwork {
    /// The hidden layer's clipped units of `active`, into `hidden`; returns the network's
    /// part of the output in seeds (100 score units) through the output bucket `bucket`,
    /// without the stores' difference.
    pub fn forward(
        &self,
        active: &[u16; ACTIVE],
        bucket: usize,
        hidden: &mut [f32; HIDDEN],
    ) -> f32 {
        hidden.copy_from_slice(&self.b1);
        for &i in active {
            let row = &self.w1[usize::from(i) * HIDDEN..][..HIDDEN];
            for (h, w) in hidden.iter_mut().zip(row) {
                *h += w;
            }
        }
        let mut y = self.b2[bucket];
        for (h, w) in hidden.iter_mut().zip(&self.w2[bucket * HIDDEN..][..HIDDEN]) {
            *h = h.clamp(0.0, 1.0);
            y += *h * w;
        }
        y
    }

    /// Keeps the weights within what the integers hold ([`MAX_WEIGHT`], [`MAX_OUTPUT`],
    /// [`MAX_BIAS`]).
    pub fn clip(&mut self) {
        for w in self.w1.iter_mut().chain(self.b1.iter_mut()) {
            *w = w.clamp(-MAX_WEIGHT, MAX_WEIGHT);
        }
        let most = f32::from(MAX_OUTPUT) / QB as f32;
        for w in self.w2.iter_mut() {
            *w = w.clamp(-most, most);
        }
        for b in self.b2.iter_mut() {
            *b = b.clamp(-MAX_BIAS, MAX_BIAS);
        }
    }

    /// The integer network: every weight rounded to its scale (first-layer weights clipped to
    /// [`MAX_WEIGHT`], the output's to [`MAX_OUTPUT`] and [`MAX_BIAS`]): within the bounds a
    /// weights file is held to.
    pub fn quantize(&self) -> Network {
        let q1 = |w: f32| (w.clamp(-MAX_WEIGHT, MAX_WEIGHT) * QA as f32).round() as i16;
        let most = f32::from(MAX_OUTPUT) / QB as f32;
        Network {
            w1: self
                .w1
                .chunks_exact(HIDDEN)
                .map(|row| std::array::from_fn(|j| q1(row[j])))
                .collect(),
            b1: std::array::from_fn(|j| q1(self.b1[j])),
            w2: std::array::from_fn(|b| {
                std::array::from_fn(|j| {
                    (self.w2[b * HIDDEN + j].clamp(-most, most) * QB as f32).round() as i16
                })
            }),
            b2: std::array::from_fn(|b| {
                (self.b2[b].clamp(-MAX_BIAS, MAX_BIAS) * 100.0).round() as i32
            }),
        }
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use std::io::Write;

    /// A weight drawn from `-max..=max`, or one of the two bounds a quarter of the time.
    fn weight(rng: &mut Rng, max: i16) -> i16 {
        match rng.below(8) {
            0 => max,
            1 => -max,
            _ => (rng.below(2 * max as u64 + 1) as i64 - i64::from(max)) as i16,
        }
    }

    /// AVX2's inputs and sums are the portable ones, on random networks whose weights reach
    /// the bounds a file is held to, for random positions (counts up to 59, past the last
    /// bucket, both sides to move) and every output bucket.
    #[test]
    fn avx2_inputs_and_sums_are_the_portable_ones() {
        if !has_avx2() {
            // As tests/common's `skipped`: said whatever the outcome, or a failure where
            // `AWARI_REQUIRE` names the need (CI sets `all`).
            let required = std::env::var("AWARI_REQUIRE")
                .is_ok_and(|list| list.split(',').any(|n| matches!(n.trim(), "all" | "avx2")));
            assert!(
                !required,
                "this test needs AVX2, and AWARI_REQUIRE requires it"
            );
            let _ = writeln!(
                std::io::stderr(),
                "skipped: avx2_inputs_and_sums_are_the_portable_ones: this processor has no AVX2"
            );
            return;
        }
        let mut rng = Rng::new(45);
        for _ in 0..20 {
            let net = Network {
                w1: (0..INPUTS)
                    .map(|_| std::array::from_fn(|_| weight(&mut rng, MAX_FIRST)))
                    .collect(),
                b1: std::array::from_fn(|_| weight(&mut rng, MAX_FIRST)),
                w2: std::array::from_fn(|_| std::array::from_fn(|_| weight(&mut rng, MAX_OUTPUT))),
                b2: [0; OUTPUT_BUCKETS],
            };
            for _ in 0..500 {
                let houses: [u8; 12] = std::array::from_fn(|_| rng.below(60) as u8);
                let stores = [rng.below(60) as u8, rng.below(60) as u8];
                let side = [Side::South, Side::North][rng.below(2) as usize];
                let active = features(&houses, stores, side);
                // SAFETY: the processor has AVX2, asked above.
                let fast = unsafe { features_avx2(&houses, stores, side) };
                assert_eq!(fast[..ACTIVE], active, "{houses:?} {stores:?} {side:?}");
                let bucket = rng.below(OUTPUT_BUCKETS as u64) as usize;
                // SAFETY: the processor has AVX2, asked above.
                let fast = unsafe { sums_avx2(&net, &active, bucket) };
                assert_eq!(
                    fast,
                    sums_portable(&net, &active, bucket),
                    "{active:?} {bucket}"
                );
            }
        }
    }
}
