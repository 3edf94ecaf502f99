//! The transposition table: scores, bounds and best moves of searched positions, keyed by the
//! rules core's Zobrist keys, in a fixed amount of memory (the `Hash` option).
//!
//! Buckets of four 16-byte entries fill one 64-byte cache line. A store replaces the entry of
//! the same key, or else the bucket's least valuable entry: shallow and from older searches
//! first, so deep results of the current search survive.

use crate::rules::Move;

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

#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    score: i16,
    /// Move house + 1; 0 for none.
    mv: u8,
    depth: u8,
    /// Generation (6 bits) << 2 | bound (1 exact, 2 lower, 3 upper; 0 = empty entry).
    meta: u8,
    _pad: [u8; 3],
}

const BUCKET: usize = 4;

#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Bucket([Entry; BUCKET]);

/// The table.
pub struct Table {
    buckets: Vec<Bucket>,
    generation: u8,
}

impl Table {
    /// Bytes per bucket (a cache line).
    pub const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();

    /// A table of at most `mb` mebibytes (at least one bucket).
    ///
    /// # Panics
    /// If the memory cannot be had; [`Table::try_new`] says so instead.
    pub fn new(mb: usize) -> Table {
        Table::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of at most `mb` mebibytes, or why not: a size the allocator refuses is an
    /// error, not an abort (`setoption name Hash value 32768` on a smaller machine).
    pub fn try_new(mb: usize) -> Result<Table, String> {
        let n = (mb.saturating_mul(1 << 20) / Table::BUCKET_BYTES).max(1);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(n).map_err(|_| {
            format!(
                "cannot allocate a {mb} MiB hash table ({} bytes)",
                n.saturating_mul(Table::BUCKET_BYTES)
            )
        })?;
        buckets.resize(n, Bucket::default());
        Ok(Table {
            buckets,
            generation: 0,
        })
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * Table::BUCKET_BYTES
    }

    /// Forgets everything (`ucinewgame`).
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
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
    /// it generates them, so that the probe a moment later finds the line in cache. Probes
    /// that miss the cache were a third of the search's time before this.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket: *const Bucket = &self.buckets[self.index(key)];
            // SAFETY: a prefetch is only a hint: it reads nothing into the program and cannot
            // fault, and the pointer is to a live element of `buckets` anyway.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    bucket.cast::<i8>(),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let bucket = &self.buckets[self.index(key)];
        let e = bucket.0.iter().find(|e| e.key == key && e.meta != 0)?;
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

    /// Stores a result; `score` must fit an i16 (the search's scores do).
    #[inline]
    pub fn store(&mut self, key: u64, mv: Option<Move>, depth: i32, score: i32, bound: Bound) {
        let generation = self.generation;
        let i = self.index(key);
        let bucket = &mut self.buckets[i].0;
        let slot = match bucket.iter().position(|e| e.key == key && e.meta != 0) {
            Some(same) => same,
            None => {
                // The least valuable: empty first, then shallow and old.
                let value = |e: &Entry| {
                    if e.meta == 0 {
                        return i32::MIN;
                    }
                    let age = i32::from(generation.wrapping_sub(e.meta >> 2) & 63);
                    i32::from(e.depth) - 4 * age
                };
                (0..BUCKET).min_by_key(|&j| value(&bucket[j])).unwrap_or(0)
            }
        };
        let e = &mut bucket[slot];
        let mv = match mv {
            Some(m) => m.house() as u8 + 1,
            // Keep the old move of the same position: still the best guess for ordering.
            None if e.key == key => e.mv,
            None => 0,
        };
        let bound_bits = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        *e = Entry {
            key,
            score: score as i16,
            mv,
            depth: depth.clamp(0, 255) as u8,
            meta: generation << 2 | bound_bits,
            _pad: [0; 3],
        };
    }

    /// Per mille of the first 1,000 entries used by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.iter().take(1000 / BUCKET);
        let entries = sample.len() * BUCKET;
        let used = sample
            .flat_map(|b| b.0.iter())
            .filter(|e| e.meta != 0 && e.meta >> 2 == self.generation)
            .count();
        (used * 1000 / entries.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_probe_replace() {
        let mut t = Table::new(1);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
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
    }

    #[test]
    fn a_full_bucket_keeps_the_deepest() {
        // A one-bucket table: every key lands in the same bucket.
        let mut t = Table {
            buckets: vec![Bucket::default(); 1],
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
