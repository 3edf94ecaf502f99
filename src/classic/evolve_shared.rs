//! The evolution spread over a cluster's shards (`referee evolve --shard K/N --out-dir DIR`):
//! each generation's round robin is dealt out game by game (game `k` to shard `k mod N`), and
//! the shared directory is the only channel between the shards.
//!
//! - `evolve.json`: the evolution's settings, written by the first shard, checked by the
//!   others (a shard of another evolution is refused, naming what differs).
//! - `generation-G/shard-K-of-N.json`: shard K's results in generation G, written whole (a
//!   temporary name, then a rename), with a fingerprint of the generation's members.
//!
//! Every shard waits for every part of a generation, adds the points up and makes the next
//! generation itself: the seeded generator makes the same members in every shard, so no shard
//! leads. A shard that has written its part and still misses another's after waiting as long
//! as its own part took plays that part itself (the games are deterministic, so a part played
//! twice is the same part): the evolution finishes even when some tasks never start, and a
//! requeued shard reuses every part already written.

use super::evolve::{play_games, points, Config};
use super::evolved::EvolvedWeights;
use crate::cluster::manifest::ManifestFile;
use crate::cluster::shard::Shard;
use crate::rules::Side;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// `evolve.json`: what decides the evolution's games and members.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Settings {
    variant: String,
    population: usize,
    survivors: usize,
    generations: usize,
    depth: u32,
    max_plies: usize,
    seed: u64,
}

impl Settings {
    fn of(config: &Config) -> Settings {
        Settings {
            variant: config.variant.name().to_string(),
            population: config.population,
            survivors: config.survivors,
            generations: config.generations,
            depth: config.depth,
            max_plies: config.max_plies,
            seed: config.seed,
        }
    }
}

/// `evolve.json`.
const MANIFEST: ManifestFile<'static, Settings> = ManifestFile {
    name: "evolve.json",
    job: "evolution",
    kind: "an evolution's settings",
    differs: |there, here| (there != here).then(|| format!("{there:?} there, {here:?} here")),
};

/// One shard's results in one generation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Part {
    /// [`fingerprint`] of the generation's members.
    members: String,
    /// (game number, 0 South won / 1 North won / 2 a draw).
    results: Vec<(usize, u8)>,
}

/// A fingerprint of a generation's members: FNV-1a over their weights' bits.
fn fingerprint(members: &[EvolvedWeights]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for w in members.iter().flat_map(|m| m.0) {
        for b in w.to_bits().to_le_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// Writes `text` to `path` whole ([`crate::sys::write::replace`]).
fn write_whole(path: &Path, text: &str) -> Result<(), String> {
    crate::sys::write::replace(path, text.as_bytes()).map_err(|e| e.to_string())
}

/// An evolution's shard and its shared directory.
pub struct Shared {
    dir: PathBuf,
    shard: Shard,
    config: Config,
}

impl Shared {
    /// Makes `dir` the directory of this evolution (writes `evolve.json`, or checks the one
    /// there and says what differs).
    pub fn settle(dir: &Path, shard: Shard, config: &Config) -> Result<Shared, String> {
        MANIFEST.settle(dir, &Settings::of(config))?;
        Ok(Shared {
            dir: dir.to_path_buf(),
            shard,
            config: config.clone(),
        })
    }

    fn part_path(&self, generation: usize, index: u64) -> PathBuf {
        self.dir
            .join(format!("generation-{generation:04}"))
            .join(format!("shard-{index}-of-{}.json", self.shard.count))
    }

    /// Reads shard `index`'s part of `generation`, if written; an error if it is of other
    /// members or damaged.
    fn read_part(
        &self,
        generation: usize,
        index: u64,
        members: &str,
    ) -> Result<Option<Part>, String> {
        let path = self.part_path(generation, index);
        let part: Part = match std::fs::read(&path) {
            Ok(bytes) => {
                serde_json::from_slice(&bytes).map_err(|e| format!("{}: {e}", path.display()))?
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        if part.members != members {
            return Err(format!(
                "{}: results of other members ({} there, {members} here): another evolution's?",
                path.display(),
                part.members
            ));
        }
        Ok(Some(part))
    }

    /// Plays shard `index`'s games of `generation` and writes its part.
    fn play_part(
        &self,
        generation: usize,
        index: u64,
        members: &[EvolvedWeights],
    ) -> Result<(), String> {
        let shard = Shard {
            index,
            count: self.shard.count,
        };
        let mut results: Vec<(usize, u8)> =
            play_games(&self.config, members, &|k| shard.owns_item(k as u64))
                .into_iter()
                .map(|(k, winner)| {
                    let code = match winner {
                        Some(Side::South) => 0,
                        Some(Side::North) => 1,
                        None => 2,
                    };
                    (k, code)
                })
                .collect();
        results.sort_unstable();
        let path = self.part_path(generation, index);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        let part = Part {
            members: fingerprint(members),
            results,
        };
        write_whole(
            &path,
            &(serde_json::to_string(&part).expect("serializes") + "\n"),
        )
    }

    /// The round robin of `generation` over every shard: this shard's part played here, the
    /// others read (or played here when they are long in coming); points per member.
    pub fn round_robin(
        &self,
        generation: usize,
        members: &[EvolvedWeights],
    ) -> Result<Vec<u32>, String> {
        let print = fingerprint(members);
        let count = self.shard.count;
        let started = Instant::now();
        if self
            .read_part(generation, self.shard.index, &print)?
            .is_none()
        {
            self.play_part(generation, self.shard.index, members)?;
        }
        // As long as the own part took (at least 0.1 s) before taking over another shard's.
        let patience = started.elapsed().max(Duration::from_millis(100));
        let mut waited = Instant::now();
        loop {
            let mut parts = Vec::new();
            let mut missing = Vec::new();
            for index in 0..count {
                match self.read_part(generation, index, &print)? {
                    Some(part) => parts.push(part),
                    None => missing.push(index),
                }
            }
            if missing.is_empty() {
                let mut results: Vec<(usize, Option<Side>)> = parts
                    .iter()
                    .flat_map(|p| &p.results)
                    .map(|&(k, code)| {
                        let winner = match code {
                            0 => Some(Side::South),
                            1 => Some(Side::North),
                            _ => None,
                        };
                        (k, winner)
                    })
                    .collect();
                results.sort_unstable_by_key(|&(k, _)| k);
                let all = super::evolve::games(members.len()).len();
                if results.len() != all || results.iter().enumerate().any(|(i, &(k, _))| i != k) {
                    return Err(format!(
                        "generation {generation}: the shards' parts hold {} results for {all} games",
                        results.len()
                    ));
                }
                return Ok(points(members.len(), &results));
            }
            if waited.elapsed() >= patience {
                // The next missing part after this shard's, so that idle shards spread out.
                let next = missing
                    .iter()
                    .copied()
                    .min_by_key(|&i| (i + count - self.shard.index) % count)
                    .expect("a part is missing");
                self.play_part(generation, next, members)?;
                waited = Instant::now();
                continue;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classic::evolve::{evolve, evolve_with};
    use crate::rules::Variant;

    fn config() -> Config {
        Config {
            population: 4,
            survivors: 2,
            generations: 3,
            depth: 1,
            max_plies: 60,
            seed: 5,
            concurrency: 1,
            variant: Variant::Awari,
        }
    }

    fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("awari-evolve-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn shards_together_evolve_what_one_machine_does() {
        let config = config();
        let alone = evolve(&config, &mut |_, _| {});
        let dir = scratch("together");
        // Three shards at once, as a job array's tasks.
        let rankings: Vec<_> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..3)
                .map(|index| {
                    let (dir, config) = (&dir, &config);
                    scope.spawn(move || {
                        let shared =
                            Shared::settle(dir, Shard { index, count: 3 }, config).unwrap();
                        evolve_with(config, &mut |g, m| shared.round_robin(g, m), &mut |_, _| {})
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for ranking in rankings {
            assert_eq!(ranking.unwrap(), alone);
        }
        // One shard alone (the others never started) finishes too, from the parts written.
        let lone = scratch("lone");
        let shared = Shared::settle(&lone, Shard { index: 1, count: 3 }, &config).unwrap();
        let ranking = evolve_with(
            &config,
            &mut |g, m| shared.round_robin(g, m),
            &mut |_, _| {},
        );
        assert_eq!(ranking.unwrap(), alone);
        // Another evolution's shard is refused.
        let mut other = config.clone();
        other.seed = 6;
        let e = Shared::settle(&lone, Shard { index: 0, count: 3 }, &other)
            .err()
            .unwrap();
        assert!(e.contains("holds another evolution"), "{e}");
        // A part of other members is refused, not counted.
        let stale = lone.join("generation-0001").join("shard-0-of-3.json");
        let text = std::fs::read_to_string(&stale).unwrap();
        let part: Part = serde_json::from_str(&text).unwrap();
        std::fs::write(&stale, text.replace(&part.members, "0000000000000000")).unwrap();
        let again = Shared::settle(&lone, Shard { index: 1, count: 3 }, &config).unwrap();
        let e = evolve_with(&config, &mut |g, m| again.round_robin(g, m), &mut |_, _| {})
            .err()
            .unwrap();
        assert!(e.contains("results of other members"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
        let _ = std::fs::remove_dir_all(&lone);
    }
}
