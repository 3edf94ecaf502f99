//! Before any work, the ranks agree on what they build: ranks given different builds would
//! solve different layers (and wait for each other for ever) or mix rule sets.

use super::super::build::{BuildError, BuildOptions};
use super::super::file::layer_path;
use super::super::value::MAX_ENCODED_LAYER;
use crate::rules::Variant;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

/// What a rank was asked to build and what it finds there, the same on every rank of a sound
/// job: the rule set, the seeds, the directory (a hash of its path as given) and the layer files
/// present in it (a bit each).
fn the_build(options: &BuildOptions) -> [u64; 4] {
    use std::hash::{Hash, Hasher};
    let mut dir = std::collections::hash_map::DefaultHasher::new();
    options.dir.hash(&mut dir);
    let present = (0..=options.seeds.min(MAX_ENCODED_LAYER))
        .filter(|&n| layer_path(&options.dir, options.variant, n).is_file())
        .fold(0u64, |bits, n| bits | 1 << n);
    [
        options.variant as u64,
        options.seeds as u64,
        dir.finish(),
        present,
    ]
}

/// Every rank checks, before anything else, that all were given the same build and see the same
/// layer files: ranks that differ would solve different layers (and wait for each other for
/// ever) or mix rule sets. The same error, naming the first difference, on every rank; after
/// it, every rank checks the same options and finds the same faults in them.
pub(super) fn agree_on_the_build(
    world: &SimpleCommunicator,
    options: &BuildOptions,
) -> Result<(), BuildError> {
    let mine = the_build(options);
    let mut all = vec![0u64; 4 * world.size() as usize];
    world.all_gather_into(&mine[..], &mut all[..]);
    let builds: Vec<&[u64]> = all.chunks(4).collect();
    match differences(&builds) {
        None => Ok(()),
        Some(what) => Err(BuildError::Ranks(format!(
            "the MPI ranks were not given the same build: {what} (rank {}: --variant {} --seeds {} --dir {})",
            world.rank(),
            options.variant,
            options.seeds,
            options.dir.display()
        ))),
    }
}

/// The first way a rank's build (see [`the_build`]) differs from rank 0's, in words.
fn differences(builds: &[&[u64]]) -> Option<String> {
    let first = builds[0];
    let (r, other) = builds.iter().enumerate().find(|(_, b)| **b != first)?;
    let variant = |v: u64| {
        Variant::ALL
            .into_iter()
            .find(|x| *x as u64 == v)
            .map_or("?", Variant::name)
    };
    Some(if first[0] != other[0] {
        format!(
            "--variant {} on rank 0, {} on rank {r}",
            variant(first[0]),
            variant(other[0])
        )
    } else if first[1] != other[1] {
        format!("--seeds {} on rank 0, {} on rank {r}", first[1], other[1])
    } else if first[2] != other[2] {
        format!("rank 0 and rank {r} name different directories")
    } else {
        format!(
            "rank 0 sees layer files {} in the directory, rank {r} {}: it must be one directory that every rank sees",
            layers(first[3]),
            layers(other[3])
        )
    })
}

/// The layers of a set of bits, as ranges: `0-9, 12`, or `none`.
fn layers(bits: u64) -> String {
    let mut ranges: Vec<String> = Vec::new();
    let mut n = 0;
    while n < 64 {
        if bits >> n & 1 == 0 {
            n += 1;
            continue;
        }
        let from = n;
        while n < 64 && bits >> n & 1 == 1 {
            n += 1;
        }
        ranges.push(match n - 1 - from {
            0 => from.to_string(),
            _ => format!("{from}-{}", n - 1),
        });
    }
    match ranges.is_empty() {
        true => "none".to_string(),
        false => ranges.join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::{differences, layers};

    /// What every rank says when the ranks' builds differ: the first difference, rank 0's
    /// against the first rank that differs.
    #[test]
    fn the_first_difference_between_the_ranks_is_named() {
        let oware = [0, 12, 7, 0b111];
        // (the ranks' builds, what is said)
        let rows: [(&[[u64; 4]], Option<&str>); 6] = [
            (&[oware, oware, oware], None),
            (&[oware, [0, 13, 7, 0b111]], Some("--seeds 12 on rank 0, 13 on rank 1")),
            (&[oware, oware, [3, 12, 7, 0b111]], Some("--variant oware on rank 0, kalah on rank 2")),
            (&[oware, [0, 12, 8, 0b111]], Some("rank 0 and rank 1 name different directories")),
            (
                &[oware, [0, 12, 7, 0]],
                Some("rank 0 sees layer files 0-2 in the directory, rank 1 none: it must be one directory that every rank sees"),
            ),
            (&[[0, 12, 7, 0b1011], oware], Some("rank 0 sees layer files 0-1, 3 in the directory, rank 1 0-2: it must be one directory that every rank sees")),
        ];
        for (builds, said) in rows {
            let builds: Vec<&[u64]> = builds.iter().map(|b| &b[..]).collect();
            assert_eq!(differences(&builds).as_deref(), said, "{builds:?}");
        }
        assert_eq!(layers(1 << 5), "5");
    }
}
