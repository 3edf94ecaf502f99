//! The shared directory of a sharded match (`--out-dir`): the only channel between the shards
//! of a match, their merge, and the SPRT they run together. Nothing else connects them, so a
//! cluster needs only a directory every node mounts.
//!
//! - `match.json`: what the match is ([`Manifest`]); the first shard to start writes it, every
//!   other shard and `referee merge` check theirs against it, so records of two matches never
//!   mix in one directory.
//! - `shard-K-of-N.jsonl` and `.pgn`: shard K's records, appended one whole line per game
//!   (one writer per file); a shard started again (a requeued job) resumes its own file.
//! - `sprt.json`: written once, by the first shard that sees the SPRT over all the records
//!   decide: the verdict and the rounds it counted. Every shard stops when it sees it (within
//!   one game), and `merge` reports the match as the SPRT ended it.
//!
//! Every file is written whole under a temporary name and renamed, or appended a line at a
//! time; a reader treats a last line without its line break as not yet written.

use super::resume::Schedule;
use super::runner::{Config, Sprt, Tally};
use crate::cluster::manifest::ManifestFile;
use crate::cluster::shard::Shard;
use crate::record::GameRecord;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// What one match is: everything that decides its games, and so must be the same for every
/// shard whose records are merged (engine commands and paths may differ between nodes; their
/// names, options and time controls may not).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The engines, time controls, rule set, games and openings (in the order played, so the
    /// opening order and its seed too).
    #[serde(flatten)]
    pub schedule: Schedule,
    /// The `setoption` pairs of engine A and of B.
    pub options: [Vec<(String, String)>; 2],
    /// The ply at which games are adjudicated, and how.
    pub max_plies: usize,
    /// `rules`, `stores` or `rows`.
    pub scoring: String,
    /// Milliseconds a clock may run below zero.
    pub time_margin_ms: u64,
    /// The SPRT that stops the match, if any: elo0, elo1, alpha, beta.
    pub sprt: Option<[f64; 4]>,
}

impl Manifest {
    /// The manifest of the match `config` plays.
    pub fn of(config: &Config) -> Manifest {
        let [a, b] = &config.engines;
        Manifest {
            schedule: Schedule::of(config),
            options: [a.spec.options.clone(), b.spec.options.clone()],
            max_plies: config.max_plies,
            scoring: format!("{:?}", config.scoring).to_lowercase(),
            time_margin_ms: u64::try_from(config.margin.as_millis()).unwrap_or(u64::MAX),
            sprt: config.sprt.map(|s| [s.elo0, s.elo1, s.alpha, s.beta]),
        }
    }

    /// The SPRT, if the match has one.
    pub fn sprt(&self) -> Option<Sprt> {
        self.sprt.map(|[elo0, elo1, alpha, beta]| Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// What differs between the match of this manifest (`there`) and `here`, if anything.
    fn differs(&self, here: &Manifest) -> Option<String> {
        let (a, b) = (&self.schedule, &here.schedule);
        let pairs: [(&str, String, String); 9] = [
            ("the engines", a.names.join(" vs "), b.names.join(" vs ")),
            (
                "the time controls",
                a.time_controls.join(" vs "),
                b.time_controls.join(" vs "),
            ),
            ("the variant", a.variant.clone(), b.variant.clone()),
            (
                "the number of games",
                a.games.to_string(),
                b.games.to_string(),
            ),
            (
                "the engine options",
                format!("{:?}", self.options),
                format!("{:?}", here.options),
            ),
            (
                "the move limit",
                format!("{} ({})", self.max_plies, self.scoring),
                format!("{} ({})", here.max_plies, here.scoring),
            ),
            (
                "the time margin",
                self.time_margin_ms.to_string(),
                here.time_margin_ms.to_string(),
            ),
            (
                "the SPRT",
                format!("{:?}", self.sprt),
                format!("{:?}", here.sprt),
            ),
            (
                "the openings",
                format!("{} openings", a.openings.len()),
                format!("{} openings", b.openings.len()),
            ),
        ];
        for (what, there, here) in pairs {
            if there != here {
                return Some(format!("{what}: {there} there, {here} here"));
            }
        }
        if let Some(i) = (0..a.openings.len()).find(|&i| a.openings[i] != b.openings[i]) {
            let show = |(start, moves): &(String, String)| format!("{start} {moves}");
            return Some(format!(
                "the openings (suite, order or --seed): number {} is {} there, {} here",
                i + 1,
                show(&a.openings[i]),
                show(&b.openings[i])
            ));
        }
        None
    }
}

/// `match.json`.
const MANIFEST: ManifestFile<'static, Manifest> = ManifestFile {
    name: "match.json",
    job: "match",
    kind: "a match manifest of this referee",
    differs: Manifest::differs,
};

/// The manifest's path in `dir`.
pub fn manifest_path(dir: &Path) -> PathBuf {
    MANIFEST.path(dir)
}

/// Reads the manifest of `dir`, if it has one.
pub fn read_manifest(dir: &Path) -> Result<Option<Manifest>, String> {
    Ok(MANIFEST.read(dir)?)
}

/// Makes `dir` the directory of `manifest`'s match: creates it and writes the manifest, or
/// checks the one there (another shard's) and says what differs.
pub fn settle(dir: &Path, manifest: &Manifest) -> Result<(), String> {
    Ok(MANIFEST.settle(dir, manifest)?)
}

/// Shard `shard`'s record file with extension `ext` (`jsonl`, `pgn`) in `dir`.
pub fn shard_path(dir: &Path, shard: Shard, ext: &str) -> PathBuf {
    dir.join(format!("shard-{}-of-{}.{ext}", shard.index, shard.count))
}

/// The shards' JSON lines files in `dir`, in name order.
pub fn shard_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("shard-") && n.ends_with(".jsonl"))
        })
        .collect();
    files.sort();
    Ok(files)
}

/// Whether `name` is one of the files a match's or a tournament's directory holds (the
/// manifests, the shards' records, the verdict, the merged records), existing yet or not: no
/// other output may be written under such a name there.
pub fn is_own(name: &str) -> bool {
    matches!(
        name,
        "match.json" | "tournament.json" | "sprt.json" | "merged.jsonl" | "merged.pgn"
    ) || (name.starts_with("shard-") && (name.ends_with(".jsonl") || name.ends_with(".pgn")))
}

/// The SPRT verdict file of `dir`.
pub fn verdict_path(dir: &Path) -> PathBuf {
    dir.join("sprt.json")
}

/// Where the SPRT over all shards decided: what it said and the games it counted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Verdict {
    /// `H1` or `H0`.
    pub accepted: String,
    /// The log-likelihood ratio then.
    pub llr: f64,
    /// The shard that saw it first.
    pub shard: String,
    /// The rounds counted, ascending.
    pub rounds: Vec<u64>,
}

/// Reads the verdict of `dir`, if the SPRT decided.
pub fn read_verdict(dir: &Path) -> Result<Option<Verdict>, String> {
    let path = verdict_path(dir);
    match crate::sys::files::read_regular(&path) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| format!("{}: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// Every shard's records in a shared directory, read as they grow: each call to
/// [`Union::refresh`] reads only what was appended since the last, whole lines only.
pub struct Union {
    dir: PathBuf,
    schedule: Schedule,
    /// Bytes read so far, per file.
    read: BTreeMap<PathBuf, u64>,
    /// A's half points (`None`: no contest) per round, the first record of a round kept.
    results: BTreeMap<u64, Option<u8>>,
}

impl Union {
    /// Nothing read yet of `dir`'s records of the match `schedule` describes.
    pub fn new(dir: &Path, schedule: Schedule) -> Union {
        Union {
            dir: dir.to_path_buf(),
            schedule,
            read: BTreeMap::new(),
            results: BTreeMap::new(),
        }
    }

    /// Reads what the shards appended since the last call. Lines that are not records of this
    /// match are skipped: a shard's own resume and `merge` report them.
    pub fn refresh(&mut self) -> Result<(), String> {
        for path in shard_files(&self.dir)? {
            let offset = self.read.get(&path).copied().unwrap_or(0);
            let mut file = match crate::sys::files::open_regular(&path) {
                Ok(f) => f,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(format!("{}: {e}", path.display())),
            };
            let mut bytes = Vec::new();
            file.seek(SeekFrom::Start(offset))
                .and_then(|_| file.read_to_end(&mut bytes))
                .map_err(|e| format!("{}: {e}", path.display()))?;
            // Only whole lines: the rest is being written.
            let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            for line in bytes[..whole].split(|&b| b == b'\n') {
                // What merge refuses is not counted here either.
                let Ok(record) = GameRecord::from_json(line) else {
                    continue;
                };
                if record.verify().is_err() {
                    continue;
                }
                if self.schedule.belongs(&record).is_ok() {
                    let points = record.result.half_points(record.round % 2 == 1);
                    self.results.entry(record.round).or_insert(points);
                }
            }
            self.read.insert(path, offset + whole as u64);
        }
        Ok(())
    }

    /// The tally of every game read.
    pub fn tally(&self) -> Tally {
        let mut tally = Tally::default();
        for (&round, &points) in &self.results {
            tally.add(round, points);
        }
        tally
    }

    /// After [`Union::refresh`]: whether the SPRT has decided, over every shard's records or
    /// by another shard's verdict. The first shard to see a decision writes the verdict.
    pub fn sprt_decided(&mut self, sprt: &Sprt, shard: Shard) -> Result<bool, String> {
        if read_verdict(&self.dir)?.is_some() {
            return Ok(true);
        }
        let tally = self.tally();
        let Some(accepted) = tally.sprt_verdict(sprt).accepted() else {
            return Ok(false);
        };
        let verdict = Verdict {
            accepted: accepted.to_string(),
            llr: sprt.llr(&tally.totals.pairs),
            shard: shard.to_string(),
            rounds: self
                .results
                .iter()
                .filter(|(_, p)| p.is_some())
                .map(|(&r, _)| r)
                .collect(),
        };
        // The first verdict stays: a shard deciding at the same moment leaves it alone.
        let text = serde_json::to_string(&verdict).expect("a verdict serializes") + "\n";
        match crate::sys::write::create_new(&verdict_path(&self.dir), text.as_bytes()) {
            Ok(()) => Ok(true),
            Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => Ok(true),
            Err(e) => Err(e.to_string()),
        }
    }
}
