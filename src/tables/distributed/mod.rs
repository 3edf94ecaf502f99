//! `awari tables build --mpi`: the build as the ranks of an MPI job (the `mpi` feature).
//!
//! Each rank owns a contiguous share of every layer's positions and holds only that share
//! (`share.rs`: seven bytes and two bits a position). The passes are the single-process
//! solvers' own (`passes.rs`), run by every rank on its share as their store: the share answers
//! for the children another rank owns with what it asked that rank for, and sends the marks for
//! parents another rank owns, in batched exchanges (`MPI_Alltoallv`) a round of up to some
//! 65,536 positions at a time. Every rank runs the same rounds and the same passes, so the
//! exchanges line up, and what a rank holds beside its share is a round's worth.
//!
//! The bytes are those of the single-process build, for its reasons: stage 1 (the safe core)
//! tends to its greatest fixed point whatever order the positions are updated in, and stage 2
//! reads only the last pass's bounds (every rank answers from them while it logs the next ones
//! apart), so the pass at which a bound moved, the rank byte, is the same too.
//!
//! Rank 0 writes each layer: its own share and then the others', streamed to it in blocks, with
//! the checksum computed on the way, under a temporary name renamed when whole; then every
//! rank maps the file for the layers above. The directory must be one that every rank sees (a
//! shared file system across hosts). A rank that dies takes the job down (MPI's own rule); the
//! layers written before stay whole and a new run resumes after them.

mod agree;
mod exchange;
mod share;

use self::agree::agree_on_the_build;
use self::exchange::Traffic;
use self::share::Share;
use super::build::{
    layers, peak_memory, BuildError, BuildOptions, Built, Found, Opened, Summary, Workers,
};
use super::file::{layer_path, table_header, FileError, Layer, HEADER};
use super::index::layer_size;
use super::layer::Quiet;
use super::passes::{bounds_passes, core_passes};
use super::rule::finish;
use crate::rules::Variant;
use mpi::collective::SystemOperation;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use std::io::{Seek, SeekFrom, Write};

/// Bytes of a message that carries a share of a layer file to rank 0.
const STREAM: usize = 1 << 22;

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

/// What a rank found solving its share.
struct Solved {
    bytes: Vec<u8>,
    ranks: Vec<u8>,
    passes: u32,
    unsettled: u64,
    evaluated: u64,
    /// The job's traffic, all ranks summed.
    traffic: Traffic,
}

/// Solves this rank's share of layer `n`: the passes of the single-process solvers, on the
/// share as their [`Store`](super::passes::Store).
fn solve_share(world: &SimpleCommunicator, variant: Variant, n: usize, lower: &Opened) -> Solved {
    let share = Share::new(world, variant, n, lower);
    // The exits and stage 1's first pass are pass 0 and 1, as in the single-process build.
    let mut passes = 1;
    let mut evaluated = layer_size(n);
    evaluated += core_passes(variant, n, &share, &Quiet, &mut passes);
    evaluated += bounds_passes(variant, n, &share, &Quiet, &mut passes);
    let traffic = share.traffic().summed(world);
    let start = Shares {
        size: layer_size(n),
        ranks: world.size() as usize,
    }
    .start(world.rank() as usize);
    let (pairs, ranks) = share.into_pairs();
    let mut unsettled = 0;
    let bytes = pairs
        .enumerate()
        .map(|(k, pair)| finish(n, start + k as u64, pair, &mut unsettled))
        .collect();
    let mut all_unsettled = 0u64;
    world.all_reduce_into(&unsettled, &mut all_unsettled, SystemOperation::sum());
    Solved {
        bytes,
        ranks,
        passes,
        unsettled: all_unsettled,
        evaluated,
        traffic,
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
            evaluated: solved.evaluated,
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
