//! A sharded run's directory: `datagen.json`, the settings every shard must share, and each
//! shard's data file in it. The settings are checked before any game is played, so a shard
//! started with other settings is refused rather than mixing two runs in one directory.

use super::format::checksum;
use super::DatagenOptions;
use crate::cluster::shard::Shard;
use crate::tables::Tables;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The settings that decide a run's records: every shard's must be these (`datagen.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatagenManifest {
    /// The rule set.
    pub variant: String,
    /// Games, all shards together.
    pub games: u64,
    /// The search depth of every move.
    pub depth: u32,
    /// Random moves after the opening line.
    pub random_plies: u32,
    /// The seed of the random moves.
    pub seed: u64,
    /// The opening lines' checksum (FNV-1a of the lines joined by newlines) and count.
    pub openings: (u64, usize),
    /// The endgame tables' reach in seeds, if the games used tables.
    pub tables: Option<u64>,
    /// The searches' evaluation: `network` or `terms`.
    pub eval: String,
    /// The network's checksum
    /// ([`Network::checksum`](crate::search::network::Network::checksum), 16 hex digits) when
    /// `eval` is `network`.
    pub network: Option<String>,
    /// Positions drawn from the tables' layers (see [`table_samples`](super::table_samples)).
    pub table_samples: u64,
    /// Shards of the run.
    pub shards: u64,
}

impl DatagenManifest {
    /// The settings of the run `options` (with `tables`) in `shard.count` shards.
    pub fn of(options: &DatagenOptions, tables: Option<&Tables>, shard: Shard) -> DatagenManifest {
        let joined = options.openings.join("\n");
        DatagenManifest {
            variant: options.variant.to_string(),
            games: options.games,
            depth: options.depth,
            random_plies: options.random_plies,
            seed: options.seed,
            openings: (checksum(joined.as_bytes()), options.openings.len()),
            tables: tables.and_then(Tables::reach).map(|r| r as u64),
            eval: if options.network.is_some() {
                "network"
            } else {
                "terms"
            }
            .to_string(),
            network: options.network.map(|n| format!("{:016x}", n.checksum())),
            table_samples: options.table_samples,
            shards: shard.count,
        }
    }

    /// The hash that ties a `.part` to its run and shard: FNV-1a of the settings (as
    /// `datagen.json` writes them) and the shard's number.
    pub fn hash(&self, shard: Shard) -> u64 {
        let text = serde_json::to_string(self).unwrap_or_default();
        checksum(format!("{text} shard {}", shard.index).as_bytes())
    }
}

/// The manifest's file in the out-directory.
pub const MANIFEST: &str = "datagen.json";

pub(super) fn manifest_file() -> crate::cluster::manifest::ManifestFile<'static, DatagenManifest> {
    crate::cluster::manifest::ManifestFile {
        name: MANIFEST,
        job: "datagen run",
        kind: "a datagen manifest of this awari",
        differs: |a, b| {
            let mut b = b.clone();
            b.shards = a.shards;
            (a != &b).then(|| format!("its settings are {a:?}, these are {b:?}"))
        },
    }
}

/// The settings of the run whose files are in `dir` (its `datagen.json`), if it has them.
pub fn read_manifest(dir: &Path) -> Result<Option<DatagenManifest>, String> {
    Ok(manifest_file().read(dir)?)
}

/// The data file of `shard` in `dir`: `datagen-K-of-N.bin`.
pub fn shard_path(dir: &Path, shard: Shard) -> PathBuf {
    dir.join(format!("datagen-{}-of-{}.bin", shard.index, shard.count))
}
