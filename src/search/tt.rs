//! The transposition table: scores, bounds and best moves of searched positions, keyed by the
//! rules core's Zobrist keys, in a fixed amount of memory (the `Hash` option).
//!
//! An entry is one 64-bit word: its fields and, above them, the low bits of its position's key
//! (the bucket it is in stands for the key's high bits). Buckets of four entries fill half a
//! cache line. A store replaces the entry of the same key, or else the bucket's least valuable
//! entry: shallow and from older searches first, so deep results of the current search survive.
//!
//! Half the 16 bytes an entry would take holding the whole key: the same work in half the memory,
//! which the probes reach sooner (what it gained: doc/figures.md). A probe takes another position's
//! entry for its own only when both keys agree on the bucket and on the stored bits: at most once
//! in about 134 million probes (four entries a bucket, 2^-29 each), which alpha-beta tolerates (the
//! move such an entry suggests is checked for legality).
//!
//! The threads of a search (`Threads`) share one table without locks: an entry is written and
//! read as one atomic word, so a probe never sees half of one store and half of another.

use crate::rules::Move;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The true score is at least this (a beta cutoff).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
}

/// One probe result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The best (or refuting) move found, if any.
    pub mv: Option<Move>,
    /// The depth the score was searched to.
    pub depth: i32,
    /// The score, as stored (the search adjusts mate scores to its own ply).
    pub score: i32,
    /// What the score bounds.
    pub bound: Bound,
}

/// One entry: the key's low 29 bits above its packed [`Fields`]. Zero = empty.
#[derive(Default)]
#[repr(transparent)]
struct Entry(AtomicU64);

/// Bits of an entry taken by its fields (score 16, move 4, depth 7, meta 8).
const FIELD_BITS: u32 = 35;

/// An entry's fields, unpacked.
#[derive(Clone, Copy)]
struct Fields {
    score: i16,
    /// Move house + 1; 0 for none (4 bits).
    mv: u8,
    /// 7 bits: a deeper result is stored as 127 (searches go to depth 100 at most).
    depth: u8,
    /// Generation (6 bits) << 2 | bound (1 exact, 2 lower, 3 upper; 0 = empty entry).
    meta: u8,
}

impl Fields {
    fn pack(self) -> u64 {
        u64::from(self.score as u16)
            | u64::from(self.mv) << 16
            | u64::from(self.depth) << 20
            | u64::from(self.meta) << 27
    }

    fn unpack(word: u64) -> Fields {
        Fields {
            score: word as u16 as i16,
            mv: (word >> 16) as u8 & 15,
            depth: (word >> 20) as u8 & 127,
            meta: Entry::meta(word),
        }
    }
}

/// The part of `key` an entry keeps, in place.
#[inline]
fn tag(key: u64) -> u64 {
    key << FIELD_BITS
}

impl Entry {
    /// The entry's key bits (as [`tag`] places them) and fields.
    #[inline]
    fn read(&self) -> (u64, Fields) {
        let word = self.0.load(Relaxed);
        (Entry::key_bits(word), Fields::unpack(word))
    }

    /// A word's key bits, as [`tag`] places them.
    #[inline]
    fn key_bits(word: u64) -> u64 {
        word >> FIELD_BITS << FIELD_BITS
    }

    /// A word's generation and bound ([`Fields::meta`]): 0 for an empty entry.
    #[inline]
    fn meta(word: u64) -> u8 {
        (word >> 27) as u8
    }

    #[inline]
    fn write(&self, key: u64, fields: Fields) {
        self.0.store(tag(key) | fields.pack(), Relaxed);
    }
}

const BUCKET: usize = 4;

#[derive(Default)]
#[repr(C, align(32))]
struct Bucket([Entry; BUCKET]);

/// The buckets, in memory mapped for the table alone and unmapped when it goes. (A `Vec` would
/// put tables of megabytes in the allocator's arenas, which keep them: one long engine run of
/// `Hash` changes and `bench` would grow to gigabytes.)
///
/// On Linux the map is asked for huge pages (`MADV_HUGEPAGE`, 2 MiB on x86-64) and starts on a
/// 2 MiB boundary. Every probe lands on a random page of the table, so with 4 KiB pages nearly
/// every probe (and every prefetch, which the processor does not drop on a TLB miss) walks the
/// page tables first; in a virtual machine that walk is two levels deep. Where the system gives
/// no huge pages (`transparent_hugepage` set to `never`) the advice changes nothing.
#[cfg(feature = "native")]
struct Buckets {
    map: memmap2::MmapMut,
    /// Where the buckets start in `map`: the first 2 MiB boundary.
    start: usize,
    len: usize,
}

/// The size of a huge page, and the alignment the table's map is given.
#[cfg(feature = "native")]
const HUGE_PAGE: usize = 2 << 20;

#[cfg(feature = "native")]
impl Buckets {
    /// `n` empty buckets, their pages made resident now, not at the first search, whose time
    /// that would eat.
    fn new(n: usize) -> std::io::Result<Buckets> {
        let bytes = n
            .checked_mul(std::mem::size_of::<Bucket>())
            .ok_or_else(|| std::io::Error::other("too large"))?;
        // Small tables (a test's) are not worth the extra 2 MiB.
        let spare = if bytes >= HUGE_PAGE { HUGE_PAGE } else { 0 };
        let mut map = memmap2::MmapOptions::new().len(bytes + spare).map_anon()?;
        let start = map.as_ptr().align_offset(HUGE_PAGE).min(spare);
        #[cfg(target_os = "linux")]
        if spare > 0 {
            // Advice only: a system without huge pages keeps small ones.
            let _ = map.advise_range(memmap2::Advice::HugePage, start, bytes);
        }
        // Touch every page (a huge one is filled at its first touch).
        for page in map[start..start + bytes].chunks_mut(4096) {
            page[0] = 0;
        }
        Ok(Buckets { map, start, len: n })
    }

    /// Every bucket empty again: their bytes zeroed at once, the empty entry's bits. (A loop
    /// over the entries, one by one, was not made a `memset` by the compiler: `ucinewgame`
    /// then took about 0.6 s at `Hash 4096`, against 0.4 s; figures.md.)
    fn clear(&mut self) {
        let bytes = self.len * std::mem::size_of::<Bucket>();
        self.map[self.start..self.start + bytes].fill(0);
    }
}

#[cfg(feature = "native")]
impl std::ops::Deref for Buckets {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: from `start` (a page boundary or a 2 MiB one, both multiples of a bucket's
        // 32 bytes, its size and its alignment) the map holds `len` buckets; it lives as long as
        // `self`, and every bit pattern, all zeros included (a fresh anonymous map), is a valid
        // `Bucket`: it is made of atomic integers.
        unsafe {
            std::slice::from_raw_parts(self.map[self.start..].as_ptr().cast::<Bucket>(), self.len)
        }
    }
}

#[cfg(feature = "native")]
impl std::ops::DerefMut for Buckets {
    fn deref_mut(&mut self) -> &mut [Bucket] {
        let len = self.len;
        let start = self.map[self.start..].as_mut_ptr();
        // SAFETY: as for `deref`, and `&mut self` makes the borrow unique.
        unsafe { std::slice::from_raw_parts_mut(start.cast::<Bucket>(), len) }
    }
}

/// The buckets without an operating system to map memory from (WebAssembly): a boxed slice,
/// whose memory goes back to the allocator when the table goes (a wasm instance's memory only
/// grows anyway).
#[cfg(not(feature = "native"))]
struct Buckets(Box<[Bucket]>);

#[cfg(not(feature = "native"))]
impl Buckets {
    /// `n` empty buckets, or an error where the memory cannot be had.
    fn new(n: usize) -> std::io::Result<Buckets> {
        let mut cells = Vec::new();
        cells
            .try_reserve_exact(n)
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        cells.resize_with(n, Bucket::default);
        Ok(Buckets(cells.into_boxed_slice()))
    }

    /// Every bucket empty again.
    fn clear(&mut self) {
        self.0.fill_with(Bucket::default);
    }
}

#[cfg(not(feature = "native"))]
impl std::ops::Deref for Buckets {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        &self.0
    }
}

#[cfg(not(feature = "native"))]
impl std::ops::DerefMut for Buckets {
    fn deref_mut(&mut self) -> &mut [Bucket] {
        &mut self.0
    }
}

/// The memory the system says it can give without swapping (`MemAvailable` in
/// `/proc/meminfo`), where it says (Linux).
fn available_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib.saturating_mul(1024))
}

/// The table.
pub struct HashTable {
    buckets: Buckets,
    generation: u8,
}

impl HashTable {
    /// Bytes per bucket (half a cache line).
    pub const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();

    /// A table of at most `mb` mebibytes (at least one bucket).
    ///
    /// # Panics
    /// If the memory cannot be had; [`HashTable::try_new`] says so instead.
    pub fn new(mb: usize) -> HashTable {
        HashTable::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of at most `mb` mebibytes, or why not: a size the allocator refuses is an
    /// error, not an abort (`setoption name Hash value 32768` on a smaller machine).
    pub fn try_new(mb: usize) -> Result<HashTable, String> {
        let n = (mb.saturating_mul(1 << 20) / HashTable::BUCKET_BYTES).max(1);
        // The system may grant a mapping it cannot back (overcommit): populating it would then
        // get the engine killed. A size above what the system says is available is refused.
        if let Some(available) = available_bytes() {
            if n.saturating_mul(HashTable::BUCKET_BYTES) as u64 > available {
                return Err(format!(
                    "{mb} MiB is more than the memory available ({} MiB)",
                    available >> 20
                ));
            }
        }
        let buckets = Buckets::new(n).map_err(|e| {
            format!(
                "cannot allocate a {mb} MiB hash table ({} bytes: {e})",
                n.saturating_mul(HashTable::BUCKET_BYTES)
            )
        })?;
        Ok(HashTable {
            buckets,
            generation: 0,
        })
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * HashTable::BUCKET_BYTES
    }

    /// Forgets everything (`ucinewgame`).
    pub fn clear(&mut self) {
        self.buckets.clear();
        self.generation = 0;
    }

    /// Starts a new search: older entries become cheaper to replace.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
    }

    /// Asks the CPU to start loading `key`'s bucket: the search calls it for each child when
    /// it generates them, so that the probe a moment later finds the line in cache. Without
    /// it, probes that miss the cache take about a third of the search's time.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::sys::prefetch::prefetch(&self.buckets[self.index(key)]);
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let bucket = &self.buckets[self.index(key)];
        let tag = tag(key);
        let e = bucket.0.iter().find_map(|e| {
            let (k, f) = e.read();
            (k == tag && f.meta != 0).then_some(f)
        })?;
        let bound = match e.meta & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit {
            mv: e.mv.checked_sub(1).and_then(|h| Move::new(usize::from(h))),
            depth: i32::from(e.depth),
            score: i32::from(e.score),
            bound,
        })
    }

    /// Stores a result; `score` must fit an i16 (the search's scores do). Threads may store
    /// at once: at worst one result is lost, or an entry is torn and then never believed.
    ///
    /// The bucket's words are compared as they are, each field unpacked only where needed:
    /// unpacking all four entries first went through a copy of them on the stack at every
    /// node. Always inlined: as a call, from the search compiled once per rule set, it saved
    /// and restored six registers each time.
    #[inline(always)]
    pub fn store(&self, key: u64, mv: Option<Move>, depth: i32, score: i32, bound: Bound) {
        let generation = self.generation;
        let bucket = &self.buckets[self.index(key)].0;
        let words: [u64; BUCKET] = std::array::from_fn(|j| bucket[j].0.load(Relaxed));
        let tag = tag(key);
        let same = words
            .iter()
            .position(|&w| Entry::key_bits(w) == tag && Entry::meta(w) != 0);
        let slot = same.unwrap_or_else(|| {
            // The least valuable: empty first, then shallow and old.
            let value = |w: u64| {
                let meta = Entry::meta(w);
                if meta == 0 {
                    return i32::MIN;
                }
                let age = i32::from(generation.wrapping_sub(meta >> 2) & 63);
                i32::from(Fields::unpack(w).depth) - 4 * age
            };
            (0..BUCKET).min_by_key(|&j| value(words[j])).unwrap_or(0)
        });
        let mv = match mv {
            Some(m) => m.house() as u8 + 1,
            // Keep the old move of the same position: still the best guess for ordering.
            None if same.is_some() => Fields::unpack(words[slot]).mv,
            None => 0,
        };
        let bound_bits = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        bucket[slot].write(
            key,
            Fields {
                score: score as i16,
                mv,
                depth: depth.clamp(0, 127) as u8,
                meta: generation << 2 | bound_bits,
            },
        );
    }

    /// Per mille of the first 1,000 entries used by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.iter().take(1000 / BUCKET);
        let entries = sample.len() * BUCKET;
        let used = sample
            .flat_map(|b| b.0.iter())
            .filter(|e| {
                let meta = e.read().1.meta;
                meta != 0 && meta >> 2 == self.generation
            })
            .count();
        (used * 1000 / entries.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_probe_replace() {
        let mut t = HashTable::new(1);
        assert_eq!(std::mem::size_of::<Bucket>(), 32);
        assert_eq!(std::mem::align_of::<Bucket>(), 32);
        assert_eq!(t.probe(42), None);
        let a = Move::new(3);
        t.store(42, a, 7, -123, Bound::Lower);
        let hit = t.probe(42).unwrap();
        assert_eq!(
            (hit.mv, hit.depth, hit.score, hit.bound),
            (a, 7, -123, Bound::Lower)
        );
        // The same key without a move keeps the old move.
        t.store(42, None, 9, 5, Bound::Upper);
        let hit = t.probe(42).unwrap();
        assert_eq!(
            (hit.mv, hit.depth, hit.score, hit.bound),
            (a, 9, 5, Bound::Upper)
        );
        t.clear();
        assert_eq!(t.probe(42), None);
        // A full table is emptied, every bucket.
        let keys: Vec<u64> = (0..200_000u64)
            .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for &k in &keys {
            t.store(k, a, 3, 1, Bound::Exact);
        }
        assert!(t.hashfull() > 900, "{}", t.hashfull());
        t.clear();
        assert_eq!(t.hashfull(), 0);
        assert!(keys.iter().all(|&k| t.probe(k).is_none()));
    }

    #[test]
    fn a_table_of_huge_pages_starts_on_their_boundary_and_holds_every_bucket() {
        // 4 MiB: two huge pages, at a 2 MiB boundary so that each bucket is in one of them.
        let t = HashTable::new(4);
        assert_eq!(t.buckets.len(), (4 << 20) / HashTable::BUCKET_BYTES);
        assert_eq!(t.buckets.as_ptr() as usize % HUGE_PAGE, 0);
        // The first and the last bucket are the table's own: empty, then kept.
        for key in [0, u64::MAX] {
            assert_eq!(t.probe(key), None);
            t.store(key, Move::new(2), 3, 44, Bound::Exact);
            assert_eq!(t.probe(key).map(|h| h.score), Some(44));
        }
        assert_eq!(t.index(0), 0);
        assert_eq!(t.index(u64::MAX), t.buckets.len() - 1);
    }

    #[test]
    fn fields_keep_their_extremes() {
        let t = HashTable::new(1);
        // (key, move, depth stored, depth read, score, bound)
        let rows = [
            (1, Move::new(0), 0, 0, i32::from(i16::MIN), Bound::Upper),
            (
                2,
                Move::new(11),
                127,
                127,
                i32::from(i16::MAX),
                Bound::Lower,
            ),
            (3, None, 200, 127, -1, Bound::Exact),
            (u64::MAX, Move::new(6), 64, 64, 0, Bound::Exact),
        ];
        for (key, mv, depth, read, score, bound) in rows {
            t.store(key, mv, depth, score, bound);
            let hit = t.probe(key).unwrap_or_else(|| panic!("{key}"));
            assert_eq!(
                hit,
                Hit {
                    mv,
                    depth: read,
                    score,
                    bound
                },
                "{key}"
            );
        }
    }

    #[test]
    fn an_entry_keeps_the_low_29_bits_of_its_key() {
        // A one-bucket table: the bucket stands for none of the key's bits.
        let t = HashTable {
            buckets: Buckets::new(1).unwrap(),
            generation: 0,
        };
        let key = 0x0123_4567_89ab_cdef;
        t.store(key, Move::new(1), 5, 77, Bound::Exact);
        // Keys that differ in a kept bit are other positions.
        for bit in [0, 13, 28] {
            assert_eq!(t.probe(key ^ 1 << bit), None, "bit {bit}");
        }
        // One that differs above them only reads as this one: in a table of many buckets,
        // the bucket's index tells them apart when they differ in its bits.
        assert_eq!(t.probe(key ^ 1 << 29).map(|h| h.score), Some(77));
        assert_eq!(t.probe(key).map(|h| h.score), Some(77));
    }

    #[test]
    fn a_full_bucket_keeps_the_deepest() {
        // A one-bucket table: every key lands in the same bucket.
        let t = HashTable {
            buckets: Buckets::new(1).unwrap(),
            generation: 0,
        };
        for (key, depth) in [(1, 10), (2, 3), (3, 12), (4, 8)] {
            t.store(key, None, depth, 0, Bound::Exact);
        }
        t.store(5, None, 1, 0, Bound::Exact);
        assert_eq!(t.probe(2), None, "the shallowest goes");
        for key in [1, 3, 4, 5] {
            assert!(t.probe(key).is_some(), "{key}");
        }
        assert_eq!(t.hashfull(), 1000);
    }
}
