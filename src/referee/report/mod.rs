//! `referee report RECORDS --html FILE` and `--html FILE` on a match or tournament: one
//! self-contained HTML page with a match's result, its plots and a viewer of every game.
//!
//! [`data`] builds what the page shows from the game records (the positions by the project's
//! rules, in [`boards`], the figures by its statistics); [`page`] renders it. This module reads the records a
//! user names, and keeps a running match's page up to date ([`Live`]).
//!
//! A page is always written whole: to a temporary file beside it, renamed over it, so a
//! browser reloading it during a match sees the last page or the new one, never half of one.

pub mod boards;
pub mod data;
pub mod page;

use super::merge;
use super::outdir;
use super::runner::Sprt;
use super::tournament;
use crate::record::{replace, GameRecord, MAX_LINE};
use crate::sys::lines::{FileLine, FileLines};
use data::MatchRecords;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The page's title: the match, or the tournament's engines.
pub fn title(matches: &[MatchRecords]) -> String {
    let mut variants: Vec<&str> = matches.iter().map(|m| m.variant.as_str()).collect();
    variants.dedup();
    let variants = variants.join(", ");
    match matches {
        [m] => format!("{} vs {}, {variants}", m.names[0], m.names[1]),
        _ => {
            let mut names: Vec<&str> = Vec::new();
            for m in matches {
                for n in &m.names {
                    if !names.contains(&n.as_str()) {
                        names.push(n);
                    }
                }
            }
            format!("Tournament: {}, {variants}", names.join(", "))
        }
    }
}

/// Renders the page of `matches` and writes it to `path`, whole.
pub fn write(path: &Path, matches: &[MatchRecords]) -> Result<(), String> {
    let page = data::page(&title(matches), matches).map_err(|e| e.to_string())?;
    let html = page::render(&page)?;
    replace(path, &html).map_err(|e| format!("--html {}: {e}", path.display()))
}

/// What `referee report` read: the matches and the lines it dropped.
#[derive(Debug, Default)]
pub struct Read {
    /// One entry per match, in the order first met.
    pub matches: Vec<MatchRecords>,
    /// Lines or games left out, and why.
    pub warnings: Vec<String>,
}

impl Read {
    /// The match of engines `a` (South in odd rounds) and `b` under `variant`, made if new.
    fn entry(&mut self, a: &str, b: &str, variant: &str) -> &mut MatchRecords {
        let found = self
            .matches
            .iter()
            .position(|m| m.names[0] == a && m.names[1] == b && m.variant == variant);
        let i = found.unwrap_or_else(|| {
            self.matches.push(MatchRecords {
                names: [a.to_string(), b.to_string()],
                variant: variant.to_string(),
                sprt: None,
                records: Vec::new(),
            });
            self.matches.len() - 1
        });
        &mut self.matches[i]
    }

    /// Adds `record` to its match (engine A is South in odd rounds), unless that match already
    /// holds its round.
    fn add(&mut self, record: GameRecord, from: &str) {
        let (a, b) = if record.round % 2 == 1 {
            (&record.south, &record.north)
        } else {
            (&record.north, &record.south)
        };
        let (a, b) = (a.clone(), b.clone());
        let m = self.entry(&a, &b, &record.variant.clone());
        // The SPRT the records carry is the match's; a match resumed with other settings
        // has two, and the later one (the one its last run printed) is kept.
        let twice = m.records.iter().any(|r| r.round == record.round);
        let round = record.round;
        let mut other_sprt = false;
        if !twice {
            if let Some(sprt) = record.sprt.map(|s| s.sprt()) {
                other_sprt = m.sprt.is_some_and(|old| old != sprt);
                m.sprt = Some(sprt);
            }
            m.records.push(record);
        }
        if other_sprt {
            self.warnings.push(format!(
                "{from}: round {round} of {a} vs {b} carries another SPRT than the records \
                 before it; the last one read is the match's"
            ));
        }
        if twice {
            self.warnings.push(format!(
                "{from}: round {round} of {a} vs {b} is already read; the first is kept"
            ));
        }
    }
}

/// Reads the records a user named: JSON lines files (`--jsonout`, a shard's file,
/// `merged.jsonl`) and the `--out-dir` directories of sharded matches and tournaments (merged
/// as `referee merge` merges them). Games are grouped into matches by their engines and rule
/// set. `sprt`, if given, is every match's; otherwise a directory's match has its own.
pub fn read(paths: &[PathBuf], sprt: Option<Sprt>) -> Result<Read, String> {
    let mut read = Read::default();
    for path in paths {
        if path.is_dir() {
            read_dir(path, &mut read)?;
        } else {
            read_file(path, &mut read)?;
        }
    }
    if read.matches.is_empty() {
        return Err("no games in the records given".to_string());
    }
    if let Some(s) = sprt {
        for m in &mut read.matches {
            m.sprt = Some(s);
        }
    }
    Ok(read)
}

fn read_file(path: &Path, read: &mut Read) -> Result<(), String> {
    let name = path.display().to_string();
    let mut lines = FileLines::open(path, MAX_LINE).map_err(|e| format!("{name}: {e}"))?;
    let (mut good, mut bad) = (0, Vec::new());
    while let Some((n, line)) = lines.next_line().map_err(|e| format!("{name}: {e}"))? {
        let line = match line {
            FileLine::Text(line) | FileLine::Cut(line) => line,
            FileLine::TooLong(length) => {
                bad.push(format!(
                    "{name}: line {n}: not a game record ({length} bytes, longer than any record)"
                ));
                continue;
            }
        };
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match GameRecord::from_json(line) {
            Ok(record) => match record.verify() {
                Ok(()) => {
                    good += 1;
                    read.add(record, &name);
                }
                Err(e) => bad.push(format!(
                    "{name}: line {}: round {} refused, its end does not follow from its moves \
                     ({e})",
                    n, record.round
                )),
            },
            Err(e) => bad.push(format!("{name}: line {n}: not a game record ({e})")),
        }
    }
    if good == 0 {
        return Err(match bad.first() {
            Some(first) => format!(
                "{first}; no line of it is a game record (give the --jsonout file, not the PGN)"
            ),
            None => format!("{name}: no games in it"),
        });
    }
    read.warnings.extend(bad);
    Ok(())
}

fn read_dir(dir: &Path, read: &mut Read) -> Result<(), String> {
    let dirs = match outdir::read_manifest(dir)? {
        Some(_) => vec![dir.to_path_buf()],
        None => tournament::match_dirs(dir)?,
    };
    for match_dir in dirs {
        if outdir::read_manifest(&match_dir)?.is_none() {
            read.warnings
                .push(format!("{}: not started", match_dir.display()));
            continue;
        }
        let merged = merge::merge_dir(&match_dir)?;
        let from = match_dir.display().to_string();
        read.warnings
            .extend(merged.warnings.iter().map(|w| format!("{from}: {w}")));
        // The match is on the page even with no game yet (a tournament's match to come), with
        // its SPRT, whatever file named its games first.
        let s = &merged.manifest.schedule;
        let m = read.entry(&s.names[0], &s.names[1], &s.variant);
        m.sprt = m.sprt.or(merged.manifest.sprt());
        for record in merged.records {
            read.add(record, &from);
        }
    }
    Ok(())
}

/// The page of a running match or tournament, written again after each game.
///
/// Writing a page costs time that grows with the games in it; so that a long match does not
/// spend its time rewriting pages, a page is written after a game only once ten times as
/// long as the last write took has passed since it (after every game while pages are
/// small), and always at the end.
pub struct Live {
    path: PathBuf,
    matches: Vec<MatchRecords>,
    last: Option<Instant>,
    cost: Duration,
}

impl Live {
    /// A page at `path`, checked at once by writing it (empty): a path that cannot be written
    /// is an error before any game is played.
    pub fn new(path: &Path) -> Result<Live, String> {
        let live = Live {
            path: path.to_path_buf(),
            matches: Vec::new(),
            last: None,
            cost: Duration::ZERO,
        };
        let page = data::Page {
            title: "awari referee: no games yet".to_string(),
            matches: Vec::new(),
            tournament: None,
        };
        replace(path, &page::render(&page)?)
            .map_err(|e| format!("--html {}: {e}", path.display()))?;
        Ok(live)
    }

    /// Starts the next match, with the games it already holds (a resumed match's).
    pub fn begin(
        &mut self,
        names: [String; 2],
        variant: String,
        sprt: Option<Sprt>,
        records: Vec<GameRecord>,
    ) {
        self.matches.push(MatchRecords {
            names,
            variant,
            sprt,
            records,
        });
    }

    /// Adds a finished game to the current match and writes the page if it is time.
    pub fn add(&mut self, record: GameRecord) -> Result<(), String> {
        if let Some(m) = self.matches.last_mut() {
            m.records.push(record);
        }
        let due = self
            .last
            .is_none_or(|last| last.elapsed() >= self.cost * 10);
        if due {
            self.write()?;
        }
        Ok(())
    }

    /// Writes the page now.
    pub fn write(&mut self) -> Result<(), String> {
        let started = Instant::now();
        let result = write(&self.path, &self.matches);
        self.cost = started.elapsed();
        self.last = Some(Instant::now());
        result
    }
}
