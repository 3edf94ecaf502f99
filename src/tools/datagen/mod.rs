//! `awari datagen`: self-play positions for training the evaluation's network, in a compact
//! binary file (doc/network.md describes it).
//!
//! Game `i` starts from line `i mod L` of an opening suite (none: the start position), then
//! plays a few random moves drawn from its own stream ([`crate::rng::item_seed`]), then a
//! search of fixed depth chooses every move to the end of the game, evaluating with the
//! network or the rule set's terms ([`DatagenOptions::network`], one of the run's settings).
//! Every position from there is a record: the board, the ply, the search's score for the side
//! to move, the tables' exact value where they reach, and the game's result for the side to
//! move. A game is a function of the settings and its number alone, so shards (`--shard K/N`:
//! game `i` is shard `i mod N`'s) and a run resumed after an interruption give the same
//! records.
//!
//! While a shard runs, each finished game is appended to `FILE.part` at once ([`part`]:
//! what a resumed run keeps of it, and why). When every game is done the records, sorted by
//! game and ply, are written whole under the data file's name ([`format`](mod@format)) and
//! the `.part` is removed. The run's settings are in its directory's `datagen.json`
//! ([`manifest`]), checked by every shard.
//!
//! A run may also draw positions straight from the endgame tables ([`samples`]), each
//! with its exact value: they need no search, so shard 0 writes them all at once.
//!
//! The rooms: [`format`](mod@format) (the data file), [`games`] (the self-play games),
//! [`manifest`] (the run's directory), [`part`] (a shard's `.part` while it runs),
//! [`samples`] (positions from the tables); here, the run of one shard, which ties them
//! together.

pub mod format;
pub mod games;
pub mod manifest;
pub mod part;
pub mod samples;

pub use format::{
    checksum, file_bytes, parse, read, Record, HEADER, MAGIC, NO_TABLE, RECORD, VERSION,
};
pub use games::{play_game, read_openings};
pub use manifest::{read_manifest, shard_path, DatagenManifest, MANIFEST};
pub use part::{game_block, part_header, BLOCK_HEADER, PART_HEADER, PART_MAGIC};
pub use samples::{table_samples, write_table_samples, FIRST_SAMPLED_LAYER, TABLE_SAMPLES};

use crate::cluster::shard::Shard;
use crate::rules::Variant;
use crate::search::eval::Evaluator;
use crate::search::network::Network;
use crate::tables::Tables;
use manifest::manifest_file;
use part::{part_of, reopen, resume};
use rayon::prelude::*;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What `awari datagen` does.
#[derive(Clone, Debug)]
pub struct DatagenOptions {
    /// The rule set.
    pub variant: Variant,
    /// Games, all shards together.
    pub games: u64,
    /// The search depth of every move.
    pub depth: u32,
    /// Random moves after the opening line.
    pub random_plies: u32,
    /// The seed of the random moves.
    pub seed: u64,
    /// The opening lines (moves as text); empty: every game from the start position.
    pub openings: Vec<String>,
    /// Threads playing games at once.
    pub threads: usize,
    /// The network the searches evaluate with (oware only); `None`: the rule set's terms
    /// ([`Evaluator::terms`]).
    pub network: Option<&'static Network>,
    /// Positions drawn from the endgame tables' layers ([`table_samples`]), written by shard 0
    /// into [`TABLE_SAMPLES`].
    pub table_samples: u64,
}

impl DatagenOptions {
    /// What the searches evaluate with: the rule set's weights, or oware's `network`.
    pub fn evaluator(&self) -> Evaluator {
        Evaluator {
            network: self.network,
            ..Evaluator::terms(self.variant)
        }
    }
}

/// What a shard's run did.
pub struct DatagenDone {
    /// The data file.
    pub path: PathBuf,
    /// Records in it.
    pub records: usize,
    /// Games of the shard.
    pub games: u64,
    /// Games found done in the `.part` of an interrupted run.
    pub resumed: u64,
    /// Records made by this run, and the seconds it took.
    pub made: (usize, f64),
    /// Whether the data file was there already (nothing played).
    pub already: bool,
    /// Shard 0 of a run with `--table-samples`: [`write_table_samples`]' answer.
    pub samples: Option<(PathBuf, usize, bool)>,
}

/// Plays `shard`'s games of the run `options` into `dir` (resuming its `.part`), with the
/// evaluation of `options` and the `tables`, and writes its data file; shard 0 first writes
/// the run's samples of the tables, if it has any. `dropped` gets a line
/// for each part of the `.part` that is dropped (and played again), before any game is played;
/// `progress` the games done and the records made after each batch.
pub fn run_shard(
    dir: &Path,
    shard: Shard,
    options: &DatagenOptions,
    tables: Option<&Tables>,
    dropped: &mut dyn FnMut(&str),
    progress: &mut dyn FnMut(u64, usize),
) -> Result<DatagenDone, String> {
    let manifest = DatagenManifest::of(options, tables, shard);
    let file = manifest_file();
    file.settle(dir, &manifest)?;
    if let Some(there) = file.read(dir)? {
        if there.shards != shard.count {
            return Err(format!(
                "--out-dir {}: its run has {} shards, not {}",
                dir.display(),
                there.shards,
                shard.count
            ));
        }
    }
    let samples = match (options.table_samples, tables) {
        (0, _) => None,
        (_, None) => return Err("--table-samples needs --tables (the tables it draws from)".into()),
        (_, Some(_)) if shard.index != 0 => None,
        (_, Some(tables)) => Some(write_table_samples(dir, options, tables)?),
    };
    let path = shard_path(dir, shard);
    let games = shard.items_of(options.games);
    if path.exists() {
        let (_, records) = read(&path)?;
        return Ok(DatagenDone {
            path,
            records: records.len(),
            games,
            resumed: 0,
            made: (0, 0.0),
            already: true,
            samples,
        });
    }
    let part = part_of(&path);
    let run = manifest.hash(shard);
    let found = resume(&part, run, shard, options)?;
    found.dropped.iter().for_each(|line| dropped(line));
    let kept = found.games;
    let done: std::collections::BTreeSet<u32> = kept.iter().map(|(g, _)| *g).collect();
    let resumed = done.len() as u64;
    let mut out = reopen(&part, run, shard, &kept)?;
    let mut records: Vec<Record> = kept.into_iter().flat_map(|(_, r)| r).collect();
    let left: Vec<u64> = (0..options.games)
        .filter(|&i| shard.owns_item(i) && !done.contains(&(i as u32)))
        .collect();
    let pool = crate::tools::pool::threads(options.threads)?;
    let started = std::time::Instant::now();
    let mut made = 0;
    let mut finished = resumed;
    progress(finished, made);
    for batch in left.chunks(options.threads.max(1) * 4) {
        let played: Vec<(u64, Vec<Record>)> = pool.install(|| {
            batch
                .par_iter()
                .map(|&i| (i, play_game(options, tables, i)))
                .collect()
        });
        for (i, game) in played {
            // A game of no records is written too: it is done.
            out.write_all(&game_block(run, i as u32, &game))
                .and_then(|()| out.flush())
                .map_err(|e| format!("{}: {e}", part.display()))?;
            made += game.len();
            records.extend(game);
        }
        finished += batch.len() as u64;
        progress(finished, made);
    }
    records.sort_by_key(|r| (r.game, r.ply));
    crate::sys::write::replace(&path, &file_bytes(options.variant, &records))
        .map_err(|e| e.to_string())?;
    std::fs::remove_file(&part).map_err(|e| format!("{}: {e}", part.display()))?;
    Ok(DatagenDone {
        path,
        records: records.len(),
        games,
        resumed,
        made: (made, started.elapsed().as_secs_f64()),
        already: false,
        samples,
    })
}

#[cfg(test)]
mod tests {
    use super::games::whole_game;
    use super::*;

    #[test]
    fn records_round_trip_and_files_are_checked() {
        let options = DatagenOptions {
            variant: Variant::Oware,
            games: 2,
            depth: 2,
            random_plies: 4,
            seed: 3,
            openings: vec!["AaBb".into()],
            threads: 1,
            network: None,
            table_samples: 0,
        };
        let records = play_game(&options, None, 1);
        assert!(!records.is_empty());
        assert_eq!(records, play_game(&options, None, 1));
        for r in &records {
            assert_eq!(Record::from_bytes(&r.to_bytes()), Some(*r));
            assert!(r.board(Variant::Oware).is_some());
        }
        let bytes = file_bytes(Variant::Oware, &records);
        assert_eq!(parse(&bytes).unwrap(), (Variant::Oware, records.clone()));
        assert!(parse(&bytes[..bytes.len() - 1])
            .unwrap_err()
            .contains("cut short"));
        let mut damaged = bytes.clone();
        damaged[HEADER + 3] ^= 1;
        assert!(parse(&damaged).unwrap_err().contains("checksum"));
        for variant in Variant::ALL {
            let options = DatagenOptions {
                variant,
                depth: 1,
                ..options.clone()
            };
            for i in 0..4 {
                let records = play_game(&options, None, i);
                assert_eq!(
                    whole_game(variant, i as u32, &records),
                    Ok(()),
                    "{variant} {i}"
                );
                if records.len() > 2 {
                    let mut gap = records.clone();
                    gap.remove(1);
                    assert!(
                        whole_game(variant, i as u32, &gap).is_err(),
                        "{variant} {i}"
                    );
                }
            }
        }
        assert!(
            parse(b"P1\n3 2\n255\n........................................")
                .unwrap_err()
                .contains("not an awari position file")
        );
    }
}
