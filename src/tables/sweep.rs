//! The sweeping solver this crate used first: every pass evaluates every position of the
//! layer, from the moves of each worked out once and kept. Kept beside
//! [`propagate`](super::propagate), which replaced it, as the reference whose value and rank
//! bytes the propagating solver must reproduce (`tests/tables_solvers.rs`, and
//! `awari tables build --solver sweep`).

use super::index::{layer_size, next, unrank};
use super::layer::{best_exit, moves, Lower, Moves, Progress, Solved};
use super::rule::{exits, solved, Bounds, Core, NO_EXIT};
use crate::rules::Variant;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

const CHUNK: u64 = 1 << 14;
/// `count` of a position where the game is over (its value is in `xlo`).
const OVER: u8 = u8::MAX;

/// The moves of a run of positions, worked out once and kept for every pass: the best bounds
/// the exits give, and the indices of the positions the other moves lead to.
struct Chunk {
    start: u64,
    /// In-layer moves per position, or [`OVER`].
    count: Vec<u8>,
    children: Vec<u32>,
    /// The best lower / upper bound an exit gives the side to move ([`NO_EXIT`] if none); for
    /// a finished game, its value.
    xlo: Vec<u8>,
    xhi: Vec<u8>,
    /// The side to move's own row, the most a repetition can give it.
    row: Vec<u8>,
}

impl Chunk {
    fn new(variant: Variant, n: usize, start: u64, end: u64, lower: &impl Lower) -> Chunk {
        let len = (end - start) as usize;
        let mut c = Chunk {
            start,
            count: Vec::with_capacity(len),
            children: Vec::with_capacity(len * 4),
            xlo: Vec::with_capacity(len),
            xhi: Vec::with_capacity(len),
            row: Vec::with_capacity(len),
        };
        let mut houses = unrank(n, start);
        for _ in start..end {
            c.row.push(houses[..6].iter().sum());
            match moves(variant, houses) {
                Moves::Over(v) => {
                    c.count.push(OVER);
                    c.xlo.push(v as u8);
                    c.xhi.push(v as u8);
                }
                Moves::Steps(steps, len) => {
                    let mut inside = 0u8;
                    let exit = best_exit(&steps[..len], lower, |j| {
                        c.children.push(j as u32);
                        inside += 1;
                    });
                    c.count.push(inside);
                    c.xlo.push(exit.map_or(NO_EXIT, |(lo, _)| lo));
                    c.xhi.push(exit.map_or(NO_EXIT, |(_, hi)| hi));
                }
            }
            next(&mut houses);
        }
        c
    }
}

/// Passes over every position whose game goes on, until one changes nothing; returns the
/// positions evaluated. `update` gets the pass number (from 1), the position's chunk, its place
/// there and the indices its moves lead to, and says whether anything changed; `after` runs at
/// the end of each pass. Generic, not `dyn`, so that `update` inlines into the loop over the
/// positions.
fn run(
    chunks: &[Chunk],
    progress: &impl Progress,
    passes: &mut u32,
    update: impl Fn(u32, &Chunk, usize, &[u32]) -> bool + Sync,
    after: impl Fn(),
) -> u64 {
    let size: u64 = chunks.iter().map(|c| c.count.len() as u64).sum();
    let changed = AtomicU64::new(0);
    let mut evaluated = 0;
    let mut pass = 0;
    loop {
        pass += 1;
        *passes += 1;
        progress.pass(*passes, size);
        chunks.par_iter().for_each(|c| {
            let mut offset = 0;
            let mut count_changed = 0;
            for (k, &count) in c.count.iter().enumerate() {
                if count == OVER {
                    continue;
                }
                let kids = &c.children[offset..offset + usize::from(count)];
                offset += usize::from(count);
                if update(pass, c, k, kids) {
                    count_changed += 1;
                }
            }
            changed.fetch_add(count_changed, Ordering::Relaxed);
            progress.advance(c.count.len() as u64);
        });
        evaluated += size;
        after();
        if changed.swap(0, Ordering::Relaxed) == 0 {
            return evaluated;
        }
    }
}

/// Solves layer `n` of `variant`, with the smaller layers in `lower`, on the current rayon
/// pool: the two fixed points of [`solve`](super::solve), each by passes over every position
/// whose game goes on until one changes nothing.
pub fn solve_layer_sweeping(
    variant: Variant,
    n: usize,
    lower: &impl Lower,
    progress: &impl Progress,
) -> Solved {
    let size = layer_size(n);
    let nb = n as u8;
    let chunks_n = size.div_ceil(CHUNK);
    progress.pass(0, size);
    let chunks: Vec<Chunk> = (0..chunks_n)
        .into_par_iter()
        .map(|c| {
            let start = c * CHUNK;
            let end = (start + CHUNK).min(size);
            let chunk = Chunk::new(variant, n, start, end, lower);
            progress.advance(end - start);
            chunk
        })
        .collect();
    let mut evaluated = size;
    let mut passes = 0;

    // Stage 1: the safe core, from above.
    let s: Vec<AtomicU8> = (0..size).map(|_| AtomicU8::new(0)).collect();
    let t: Vec<AtomicU8> = (0..size).map(|_| AtomicU8::new(0)).collect();
    chunks.par_iter().for_each(|c| {
        for (k, &count) in c.count.iter().enumerate() {
            let i = c.start as usize + k;
            let (own, other) = if count == OVER {
                (c.xlo[k], nb - c.xlo[k])
            } else {
                (c.row[k], nb - c.row[k])
            };
            s[i].store(own, Ordering::Relaxed);
            t[i].store(other, Ordering::Relaxed);
        }
    });
    evaluated += run(
        &chunks,
        progress,
        &mut passes,
        |_, c, k, kids| {
            let i = c.start as usize + k;
            let (old_s, old_t) = (s[i].load(Ordering::Relaxed), t[i].load(Ordering::Relaxed));
            let mut core = Core::new(nb, exits(c.xlo[k], c.xhi[k]));
            for &j in kids {
                let j = j as usize;
                core.child((s[j].load(Ordering::Relaxed), t[j].load(Ordering::Relaxed)));
            }
            let (new_s, new_t) = core.held((old_s, old_t));
            if (new_s, new_t) != (old_s, old_t) {
                s[i].store(new_s, Ordering::Relaxed);
                t[i].store(new_t, Ordering::Relaxed);
                true
            } else {
                false
            }
        },
        || {},
    );

    // Stage 2: the bounds, from the core. Each pass reads only the last pass's bounds (they
    // are copied over at its end), so the pass at which a bound last moved is a distance: see
    // `Solved::ranks`.
    let lo = s;
    let hi = t;
    hi.par_iter().for_each(|h| {
        h.store(nb - h.load(Ordering::Relaxed), Ordering::Relaxed);
    });
    let copy = |from: &[AtomicU8]| -> Vec<AtomicU8> {
        from.par_iter()
            .map(|x| AtomicU8::new(x.load(Ordering::Relaxed)))
            .collect()
    };
    let (next_lo, next_hi) = (copy(&lo), copy(&hi));
    let ranks: Vec<AtomicU8> = (0..size).map(|_| AtomicU8::new(0)).collect();
    let sync = |to: &[AtomicU8], from: &[AtomicU8]| {
        to.par_iter().zip(from.par_iter()).for_each(|(t, f)| {
            t.store(f.load(Ordering::Relaxed), Ordering::Relaxed);
        });
    };
    evaluated += run(
        &chunks,
        progress,
        &mut passes,
        |pass, c, k, kids| {
            let i = c.start as usize + k;
            let (old_lo, old_hi) = (lo[i].load(Ordering::Relaxed), hi[i].load(Ordering::Relaxed));
            if old_lo == old_hi {
                return false;
            }
            let mut bounds = Bounds::new(nb, exits(c.xlo[k], c.xhi[k]));
            for &j in kids {
                let j = j as usize;
                bounds.child((lo[j].load(Ordering::Relaxed), hi[j].load(Ordering::Relaxed)));
            }
            let (new_lo, new_hi) = bounds.held((old_lo, old_hi));
            if new_lo != old_lo {
                next_lo[i].store(new_lo, Ordering::Relaxed);
            }
            if new_hi != old_hi {
                next_hi[i].store(new_hi, Ordering::Relaxed);
                ranks[i].store(pass.min(255) as u8, Ordering::Relaxed);
            }
            (new_lo, new_hi) != (old_lo, old_hi)
        },
        || {
            sync(&lo, &next_lo);
            sync(&hi, &next_hi);
        },
    );
    drop((next_lo, next_hi));

    let bounds =
        (0..size as usize).map(|i| (lo[i].load(Ordering::Relaxed), hi[i].load(Ordering::Relaxed)));
    let ranks = ranks.into_iter().map(AtomicU8::into_inner).collect();
    solved(n, bounds, ranks, passes, evaluated)
}
