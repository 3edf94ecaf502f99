//! `referee merge`: the records of a sharded match (its `--out-dir`) made one match again:
//! every shard's games checked against the match's manifest, taken once each in round order,
//! counted as the unsharded match counts them, reported with the same lines, and written as
//! one JSON lines file and one PGN.
//!
//! An unfinished run is merged as far as it goes, with the number of games still missing. When
//! the shards' SPRT decided, the match is the games that SPRT counted; games the other shards
//! finished after it are left out, and said so.

use super::figures::{openings_used, Figures};
use super::outdir::{self, Manifest, Verdict};
use super::resume;
use super::runner::Tally;
use crate::record::{replace, GameRecord};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A merged match.
#[derive(Clone, Debug)]
pub struct Merged {
    /// What the match is.
    pub manifest: Manifest,
    /// One record per round played, in round order.
    pub records: Vec<GameRecord>,
    /// Lines dropped (damaged, cut short, no contest, a round recorded twice), and why.
    pub warnings: Vec<String>,
    /// The shards' SPRT verdict, if it decided.
    pub verdict: Option<Verdict>,
    /// Games finished after the SPRT decided, left out.
    pub after_verdict: usize,
}

/// Reads and checks every shard's records in `dir`.
pub fn merge_dir(dir: &Path) -> Result<Merged, String> {
    let manifest = outdir::read_manifest(dir)?.ok_or_else(|| {
        format!(
            "{}: no match.json: not the --out-dir of a referee match",
            dir.display()
        )
    })?;
    let mut warnings = Vec::new();
    let mut rounds: BTreeMap<u64, (GameRecord, PathBuf)> = BTreeMap::new();
    for path in outdir::shard_files(dir)? {
        let read = resume::read_schedule(&path, &manifest.schedule, "merge")?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        warnings.extend(read.warnings.iter().map(|w| format!("{name}: {w}")));
        for record in read.records {
            match rounds.get(&record.round) {
                Some((_, first)) => warnings.push(format!(
                    "{name}: round {} is also in {}; the first is kept",
                    record.round,
                    first.display()
                )),
                None => {
                    rounds.insert(record.round, (record, path.clone()));
                }
            }
        }
    }
    let verdict = outdir::read_verdict(dir)?;
    let mut after_verdict = 0;
    if let Some(v) = &verdict {
        let counted: std::collections::HashSet<u64> = v.rounds.iter().copied().collect();
        let before = rounds.len();
        rounds.retain(|r, _| counted.contains(r));
        after_verdict = before - rounds.len();
        if rounds.len() < counted.len() {
            return Err(format!(
                "{}: the SPRT counted {} games, the shards' files hold {} of them",
                dir.display(),
                counted.len(),
                rounds.len()
            ));
        }
    }
    Ok(Merged {
        manifest,
        records: rounds.into_values().map(|(r, _)| r).collect(),
        warnings,
        verdict,
        after_verdict,
    })
}

impl Merged {
    /// The totals, counted as the match counts them (engine A's point of view).
    pub fn tally(&self) -> Tally {
        Tally::of_records(&self.records)
    }

    /// The report: the match's first line, then the lines an unsharded match prints at its
    /// end, then what is missing or was left out.
    pub fn report(&self) -> Vec<String> {
        let s = &self.manifest.schedule;
        let mut lines = vec![
            format!(
                "{} vs {}, {}, {} games, {}",
                s.names[0],
                s.names[1],
                s.variant,
                s.games,
                openings_used(s.games, s.openings.len())
            ),
            String::new(),
        ];
        let names = [s.names[0].as_str(), s.names[1].as_str()];
        lines.extend(Figures::of(&self.tally().totals, names, self.manifest.sprt()).lines());
        match &self.verdict {
            Some(v) => {
                lines.push(format!(
                    "the SPRT over all shards decided (shard {} saw it first) after {} games",
                    v.shard,
                    self.records.len()
                ));
                if self.after_verdict > 0 {
                    lines.push(format!(
                        "{} games finished after that are left out (they stay in the shard files)",
                        self.after_verdict
                    ));
                }
            }
            None => {
                let missing = s.games - self.records.len() as u64;
                if missing > 0 {
                    lines.push(format!(
                        "unfinished: {missing} of the {} games are not in the records yet",
                        s.games
                    ));
                }
            }
        }
        lines
    }

    /// Writes the records in round order to `json` and `pgn`, each replaced whole.
    pub fn write(&self, json: &Path, pgn: &Path) -> Result<(), String> {
        let lines: String = self.records.iter().map(|r| r.json() + "\n").collect();
        replace(json, &lines).map_err(|e| format!("{}: {e}", json.display()))?;
        let text: String = self.records.iter().map(GameRecord::pgn).collect();
        replace(pgn, &text).map_err(|e| format!("{}: {e}", pgn.display()))
    }
}
