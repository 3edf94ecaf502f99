//! `awari tables build --mpi`: the build as the ranks of an MPI job (the `mpi` feature).
//!
//! Each rank owns a contiguous share of every layer's positions and holds only that share:
//! per position its bounds, the bounds a pass found, its rank byte and what its exits give
//! (eight bytes), and three bits (to evaluate in this pass and in the next, changed).
//! The passes are those of [`propagate`](super::propagate): a pass evaluates only the
//! positions one of whose children changed in the pass before, their children played from
//! the index, and marks the parents (un-sown, [`parents`]) of those that changed. The values
//! of children that another rank owns travel in two batched exchanges per round of up to
//! `BLOCK` positions to evaluate (`MPI_Alltoallv`: the indices asked for, then their two
//! bytes), and the marks for parents another rank owns in a third. Every rank runs the same
//! number of rounds in a pass (as many as the rank with the most positions to evaluate needs),
//! so the exchanges line up, and what a rank holds beside its share is a round's worth.
//!
//! The bytes are those of the single-process build: stage 1 (the safe core) tends to its
//! greatest fixed point whatever order the positions are updated in, and stage 2 reads only
//! the last pass's bounds (every rank answers from them while it keeps the next ones apart),
//! so the pass at which a bound moved, the rank byte, is the same too.
//!
//! Rank 0 writes each layer: its own share and then the others', streamed to it in blocks, with
//! the checksum computed on the way, under a temporary name renamed when whole; then every
//! rank maps the file for the layers above. The directory must be one that every rank sees (a
//! shared file system across hosts). A rank that dies takes the job down (MPI's own rule); the
//! layers written before stay whole and a new run resumes after them.

mod agree;
mod exchange;

use self::agree::agree_on_the_build;
use self::exchange::{agree, all_to_all, all_to_all_counted, by_rank, Bits, Traffic, BLOCK};
use super::build::{
    layers, peak_memory, BuildError, BuildOptions, Built, Found, Opened, Summary, Workers,
};
use super::file::{layer_path, table_header, FileError, Layer, HEADER};
use super::index::{layer_size, next, rank, unrank};
use super::layer::{best_exit, moves, Moves};
use super::rule::{exits, finish, Bounds, Core, NO_EXIT};
use super::steps::{children, parents};
use crate::rules::Variant;
use mpi::collective::SystemOperation;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use std::io::{Seek, SeekFrom, Write};

/// Bytes of a message that carries a share of a layer file to rank 0.
const STREAM: usize = 1 << 22;
/// `row` of a position where the game is over (its value is in `xlo`).
const OVER: u8 = u8::MAX;

/// Which positions of a layer of `size` each of `ranks` ranks owns: rank `r` holds
/// `start(r)..start(r + 1)`.
#[derive(Clone, Copy)]
struct Shares {
    size: u64,
    ranks: usize,
}

impl Shares {
    fn start(self, r: usize) -> u64 {
        (u128::from(self.size) * r as u128 / self.ranks as u128) as u64
    }

    fn len(self, r: usize) -> u64 {
        self.start(r + 1) - self.start(r)
    }

    /// The rank that owns position `j`.
    fn owner(self, j: u64) -> usize {
        let mut r = (u128::from(j) * self.ranks as u128 / u128::from(self.size.max(1))) as usize;
        r = r.min(self.ranks - 1);
        while self.start(r) > j {
            r -= 1;
        }
        while self.start(r + 1) <= j {
            r += 1;
        }
        r
    }
}

/// One rank's share of a layer being solved.
struct Share {
    start: u64,
    /// Bounds: `s`/`t` in stage 1, then `lo`/`hi`.
    a: Vec<u8>,
    b: Vec<u8>,
    /// What the exits give (best lower and upper bound, or [`NO_EXIT`]); the value where the
    /// game is over.
    xlo: Vec<u8>,
    xhi: Vec<u8>,
    /// The side to move's row, or [`OVER`].
    row: Vec<u8>,
    /// Stage 2: the bounds the pass under way found, committed at its end, and each position's
    /// rank byte.
    next_a: Vec<u8>,
    next_b: Vec<u8>,
    ranks: Vec<u8>,
}

impl Share {
    /// Share `start..start + len` of layer `n`, with what its positions' exits give (read from
    /// the smaller layers, `lower`) and which games are over; its bounds not yet set.
    fn new(variant: Variant, n: usize, start: u64, len: usize, lower: &Opened) -> Share {
        let mut share = Share {
            start,
            a: vec![0; len],
            b: vec![0; len],
            xlo: vec![0; len],
            xhi: vec![0; len],
            row: vec![0; len],
            next_a: Vec::new(),
            next_b: Vec::new(),
            ranks: Vec::new(),
        };
        if len > 0 {
            let mut houses = unrank(n, start);
            for k in 0..len {
                match moves(variant, houses) {
                    Moves::Over(v) => {
                        share.row[k] = OVER;
                        share.xlo[k] = v as u8;
                        share.xhi[k] = v as u8;
                    }
                    Moves::Steps(steps, count) => {
                        share.row[k] = houses[..6].iter().sum();
                        let exit = best_exit(&steps[..count], lower, |_| {});
                        share.xlo[k] = exit.map_or(NO_EXIT, |(lo, _)| lo);
                        share.xhi[k] = exit.map_or(NO_EXIT, |(_, hi)| hi);
                    }
                }
                next(&mut houses);
            }
        }
        share
    }

    fn local(&self, j: u64) -> usize {
        (j - self.start) as usize
    }

    /// The bounds of position `j`, which this rank owns.
    fn pair(&self, j: u64) -> [u8; 2] {
        let k = self.local(j);
        [self.a[k], self.b[k]]
    }
}

/// What a rank found solving its share.
struct Solved {
    bytes: Vec<u8>,
    ranks: Vec<u8>,
    passes: u32,
    unsettled: u64,
    /// The job's traffic, all ranks summed.
    traffic: Traffic,
}

/// Runs passes until one changes nothing on any rank, each over the positions marked in
/// `dirty` (every one that `first` picks in the first pass), `BLOCK` of them a round. A
/// marked position's children are played from its index; the bounds of those another rank
/// owns come from it in one exchange per round (it answers with what it holds then).
/// `update` gets the pass number (from 1), the position's place in the share and its
/// children's bounds, and says whether it changed; the parents of a position that changed
/// are marked for the next pass, on whichever rank owns them, in a third exchange per round;
/// `commit` gets the places that changed at the end of a pass. Returns the passes run.
#[allow(clippy::too_many_arguments)]
fn passes(
    world: &SimpleCommunicator,
    me: usize,
    variant: Variant,
    n: usize,
    share: &mut Share,
    shares: Shares,
    first: impl Fn(&Share, usize) -> bool,
    mut update: impl FnMut(&mut Share, u32, usize, &[[u8; 2]]) -> bool,
    mut commit: impl FnMut(&mut Share, &Bits),
    traffic: &mut Traffic,
) -> u32 {
    let len = share.a.len();
    // To evaluate in this pass, and in the next; changed in this pass.
    let mut dirty = Bits::new(len);
    let mut next_dirty = Bits::new(len);
    let mut changed = Bits::new(len);
    for k in 0..len {
        if first(share, k) {
            dirty.set(k);
        }
    }
    let mut pass = 0;
    let (_, mut rounds) = agree(world, 0, dirty.count());
    loop {
        pass += 1;
        let mut changes = 0u64;
        // The marked positions in order, `BLOCK` a round: a pass with few of them (most passes
        // after the first few) is one round, however large the share.
        let mut marked = dirty.ones();
        for _ in 0..rounds {
            // The children of the round's marked positions: (place, child index, owner).
            let mut counts: Vec<(usize, u8)> = Vec::new();
            let mut kids: Vec<u64> = Vec::new();
            let mut far: Vec<(u32, u64)> = Vec::new();
            let mut marks: Vec<(u32, u64)> = Vec::new();
            for k in marked.by_ref().take(BLOCK as usize) {
                let houses = unrank(n, share.start + k as u64);
                let before = kids.len();
                children(variant, &houses, |child| kids.push(rank(child)));
                counts.push((k, (kids.len() - before) as u8));
            }
            let mut where_far = vec![usize::MAX; kids.len()];
            for (c, &j) in kids.iter().enumerate() {
                let owner = shares.owner(j);
                if owner != me {
                    where_far[c] = far.len();
                    far.push((owner as u32, j));
                }
            }
            traffic.evaluated += counts.len() as u64;
            traffic.asks += far.len() as u64;
            traffic.exchanges += 2;
            let (asks, ask_counts, slots) = by_rank(&far, shares.ranks);
            let (asked, asked_counts) = all_to_all(world, &asks, &ask_counts);
            let answers: Vec<u16> = asked
                .iter()
                .map(|&j| u16::from_le_bytes(share.pair(j)))
                .collect();
            // What each rank sends back is what this one asked it.
            let back = all_to_all_counted(world, &answers, &asked_counts, &ask_counts);
            let mut at = 0;
            let mut values: Vec<[u8; 2]> = Vec::with_capacity(6);
            for (k, count) in counts {
                values.clear();
                for c in at..at + usize::from(count) {
                    values.push(match where_far[c] {
                        usize::MAX => share.pair(kids[c]),
                        f => back[slots[f]].to_le_bytes(),
                    });
                }
                at += usize::from(count);
                if update(share, pass, k, &values) {
                    changed.set(k);
                    changes += 1;
                    // Its parents, here or on their owners, are evaluated in the next pass.
                    let houses = unrank(n, share.start + k as u64);
                    parents(variant, &houses, |p| {
                        let owner = shares.owner(p);
                        if owner == me {
                            next_dirty.set(share.local(p));
                        } else {
                            marks.push((owner as u32, p));
                        }
                    });
                }
            }
            traffic.marks += marks.len() as u64;
            traffic.exchanges += 1;
            let (sent, sent_counts, _) = by_rank(&marks, shares.ranks);
            let (marked, _) = all_to_all(world, &sent, &sent_counts);
            for p in marked {
                next_dirty.set(share.local(p));
            }
        }
        drop(marked);
        commit(share, &changed);
        changed.clear();
        std::mem::swap(&mut dirty, &mut next_dirty);
        next_dirty.clear();
        let (most, next_rounds) = agree(world, changes, dirty.count());
        if most == 0 {
            return pass;
        }
        rounds = next_rounds;
    }
}

/// Solves this rank's share of layer `n`.
fn solve_share(world: &SimpleCommunicator, variant: Variant, n: usize, lower: &Opened) -> Solved {
    let me = world.rank() as usize;
    let shares = Shares {
        size: layer_size(n),
        ranks: world.size() as usize,
    };
    let nb = n as u8;
    let (start, len) = (shares.start(me), shares.len(me) as usize);
    let mut share = Share::new(variant, n, start, len, lower);

    let mut traffic = Traffic::default();
    // Stage 1: the safe core, from above (see `sweep`), updated in place.
    for k in 0..len {
        let own = if share.row[k] == OVER {
            share.xlo[k]
        } else {
            share.row[k]
        };
        share.a[k] = own;
        share.b[k] = nb - own;
    }
    let first = passes(
        world,
        me,
        variant,
        n,
        &mut share,
        shares,
        |s, k| s.row[k] != OVER,
        |s, _, k, kids| {
            if s.row[k] == OVER {
                return false;
            }
            let mut core = Core::new(nb, exits(s.xlo[k], s.xhi[k]));
            for &[cs, ct] in kids {
                core.child((cs, ct));
            }
            let (new_s, new_t) = core.held((s.a[k], s.b[k]));
            let changed = (new_s, new_t) != (s.a[k], s.b[k]);
            s.a[k] = new_s;
            s.b[k] = new_t;
            changed
        },
        |_, _| {},
        &mut traffic,
    );

    // Stage 2: the bounds, from the core; each pass reads the last pass's bounds only.
    for h in &mut share.b {
        *h = nb - *h;
    }
    share.next_a = share.a.clone();
    share.next_b = share.b.clone();
    share.ranks = vec![0u8; len];
    let second = passes(
        world,
        me,
        variant,
        n,
        &mut share,
        shares,
        |s, k| s.row[k] != OVER && s.a[k] != s.b[k],
        |s, pass, k, kids| {
            let (old_lo, old_hi) = (s.a[k], s.b[k]);
            if s.row[k] == OVER || old_lo == old_hi {
                return false;
            }
            let mut bounds = Bounds::new(nb, exits(s.xlo[k], s.xhi[k]));
            for &[clo, chi] in kids {
                bounds.child((clo, chi));
            }
            let (new_lo, new_hi) = bounds.held((old_lo, old_hi));
            s.next_a[k] = new_lo;
            if new_hi != old_hi {
                s.next_b[k] = new_hi;
                s.ranks[k] = pass.min(255) as u8;
            }
            (new_lo, new_hi) != (old_lo, old_hi)
        },
        |s, changed| {
            for k in changed.ones() {
                s.a[k] = s.next_a[k];
                s.b[k] = s.next_b[k];
            }
        },
        &mut traffic,
    );
    share.next_a = Vec::new();
    share.next_b = Vec::new();

    let mut unsettled = 0;
    let bytes = (0..len)
        .map(|k| {
            finish(
                n,
                start + k as u64,
                (share.a[k], share.b[k]),
                &mut unsettled,
            )
        })
        .collect();
    let mut all_unsettled = 0u64;
    world.all_reduce_into(&unsettled, &mut all_unsettled, SystemOperation::sum());
    Solved {
        bytes,
        ranks: std::mem::take(&mut share.ranks),
        passes: first + second,
        unsettled: all_unsettled,
        traffic: traffic.summed(world),
    }
}

/// Rank 0: writes layer `n` from every rank's share (its own, then the others' as they stream
/// in), values first, then ranks. The others: stream their shares to rank 0.
fn write_shares(
    world: &SimpleCommunicator,
    options: &BuildOptions,
    n: usize,
    solved: &Solved,
) -> std::io::Result<()> {
    let me = world.rank() as usize;
    let size = layer_size(n);
    let shares = Shares {
        size,
        ranks: world.size() as usize,
    };
    if me != 0 {
        for part in [&solved.bytes, &solved.ranks] {
            for piece in part.chunks(STREAM) {
                world.process_at_rank(0).send(piece);
            }
        }
        return Ok(());
    }
    let path = layer_path(&options.dir, options.variant, n);
    crate::sys::write::replace_name_with(&path, |file| {
        file.write_all(&[0u8; HEADER])?;
        let mut crc = crc32fast::Hasher::new();
        let mut buffer = vec![0u8; STREAM];
        for own in [&solved.bytes, &solved.ranks] {
            crc.update(own);
            file.write_all(own)?;
            for r in 1..shares.ranks {
                let mut left = shares.len(r) as usize;
                while left > 0 {
                    let piece = &mut buffer[..left.min(STREAM)];
                    world.process_at_rank(r as i32).receive_into(piece);
                    crc.update(piece);
                    file.write_all(piece)?;
                    left -= piece.len();
                }
            }
        }
        file.seek(SeekFrom::Start(0))?;
        file.write_all(&table_header(options.variant, n, size, crc.finalize()))
    })
    .map_err(|e| std::io::Error::new(e.error.kind(), e.to_string()))
}

/// Rank 0 ends the whole job (every rank) with `message` on standard error.
fn fail(world: &SimpleCommunicator, message: &str) -> ! {
    eprintln!("awari tables build --mpi: rank {}: {message}", world.rank());
    world.abort(1)
}

/// Builds the tables `options` asks for as one rank of the MPI job `world`; rank 0 writes the
/// files and one line per layer to `out`. `options.threads` is not used: each rank computes on
/// one thread, and the ranks are the parallelism. An error on one rank ends the job.
pub fn build(
    world: &SimpleCommunicator,
    options: &BuildOptions,
    out: &mut dyn Write,
) -> Result<Summary, BuildError> {
    agree_on_the_build(world, options)?;
    options.check()?;
    if world.rank() == 0 {
        if let Err(e) = options.prepare(out) {
            fail(world, &e.to_string());
        }
    }
    world.barrier();
    layers(options, out, &mut Ranks(world))
}

/// The build as one rank of an MPI job: rank 0 looks at the files, writes them and speaks.
struct Ranks<'a>(&'a SimpleCommunicator);

impl Workers for Ranks<'_> {
    fn named(&self) -> String {
        let ranks = self.0.size();
        format!("{ranks} MPI rank{}", if ranks == 1 { "" } else { "s" })
    }

    fn say(&self, out: &mut dyn Write, line: &str) {
        if self.0.rank() == 0 {
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
        }
    }

    fn found(&mut self, options: &BuildOptions, n: usize) -> Found {
        // Rank 0 decides whether the layer's file is whole, and says so to every rank; every
        // rank maps it afterwards (`open`).
        let mut found = Found::Missing;
        let mut whole = 0u8;
        if self.0.rank() == 0 {
            match Layer::open(&options.dir, options.variant, n) {
                Ok(_) => whole = 1,
                Err(e) if e.is_missing() => {}
                Err(e) => found = Found::Unsound(e),
            }
        }
        self.0.process_at_rank(0).broadcast_into(&mut whole);
        match whole {
            1 => Found::Whole(None),
            _ => found,
        }
    }

    fn solve(
        &mut self,
        options: &BuildOptions,
        n: usize,
        lower: &Opened,
        _: Option<(f64, usize)>,
    ) -> Result<Built, BuildError> {
        let world = self.0;
        let solved = solve_share(world, options.variant, n, lower);
        if let Err(e) = write_shares(world, options, n, &solved) {
            fail(world, &BuildError::Write(n, e).to_string());
        }
        if world.rank() == 0 {
            if let Err(e) = Layer::open(&options.dir, options.variant, n) {
                fail(world, &BuildError::Reread(n, e).to_string());
            }
        }
        let own_max = solved.ranks.iter().max().copied().unwrap_or(0);
        let mut max_rank = 0u8;
        world.all_reduce_into(&own_max, &mut max_rank, SystemOperation::max());
        let traffic = solved.traffic;
        Ok(Built {
            passes: solved.passes,
            unsettled: solved.unsettled,
            evaluated: traffic.evaluated,
            max_rank,
            layer: None,
            more: format!(
                ", {} values and {} marks between ranks ({:.1} MB) in {} exchanges",
                traffic.asks,
                traffic.marks,
                traffic.bytes() as f64 / 1e6,
                traffic.exchanges,
            ),
        })
    }

    fn open(
        &mut self,
        options: &BuildOptions,
        n: usize,
        _: Option<Layer>,
    ) -> Result<Layer, BuildError> {
        self.0.barrier();
        // Rank 0 checked the file whole; the others map it as it is.
        match open_written(options, n) {
            Ok(layer) => Ok(layer),
            Err(e) => fail(self.0, &format!("layer {n}: cannot open: {e}")),
        }
    }

    fn peak(&mut self) -> (Option<u64>, String) {
        let peak = peak_memory().unwrap_or(0);
        let mut peaks = vec![0u64; self.0.size() as usize];
        self.0.all_gather_into(&peak, &mut peaks[..]);
        let said = peaks
            .iter()
            .enumerate()
            .map(|(r, &b)| format!("{r}: {:.1} MiB", b as f64 / 1048576.0))
            .collect::<Vec<_>>()
            .join(", ");
        (Some(peak), format!("per rank {said}"))
    }
}

fn open_written(options: &BuildOptions, n: usize) -> Result<Layer, FileError> {
    Layer::open_unverified(&options.dir, options.variant, n)
}

#[cfg(test)]
mod tests {
    use super::Shares;

    #[test]
    fn every_position_has_one_owner_and_the_shares_cover_the_layer() {
        for (size, ranks) in [(0, 1), (1, 4), (3, 4), (10, 3), (1000, 7), (65_537, 2)] {
            let s = Shares { size, ranks };
            assert_eq!(s.start(0), 0);
            assert_eq!(s.start(ranks), size);
            for j in 0..size {
                let r = s.owner(j);
                assert!(s.start(r) <= j && j < s.start(r + 1), "{size} {ranks} {j}");
            }
        }
    }
}
