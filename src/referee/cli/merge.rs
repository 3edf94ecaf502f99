//! `referee merge`: the report of a match or tournament played in shards, and its merged
//! records.

use crate::referee::merge;
use crate::referee::outdir;
use crate::referee::report::data::MatchRecords;
use crate::referee::tournament::{self, Format, Standings};
use std::path::Path;
use std::process::ExitCode;

/// `referee merge DIR`: the report of a match, or of each match of a tournament and its
/// standings, played into `dir` in any number of shards.
pub(super) fn merge(dir: &Path, html: Option<&Path>) -> ExitCode {
    let result = (|| -> Result<bool, String> {
        // Held to the end: it keeps a FIFO output's reader waiting for the write.
        let _outputs = match html {
            Some(path) => {
                let mut files = crate::sys::outputs::Files::default();
                files.writes_dir("the merged directory", dir, outdir::is_own, 2);
                files.writes("--html", path);
                Some(files.check()?)
            }
            None => None,
        };
        let mut pages = Vec::new();
        let matches = match outdir::read_manifest(dir)? {
            Some(_) => vec![dir.to_path_buf()],
            None => tournament::match_dirs(dir)?,
        };
        let mut complete = true;
        let mut standings: Option<(Vec<String>, Standings, Format)> =
            tournament::read_settled(dir)?.map(|(names, kind)| {
                let n = names.len();
                (names, Standings::new(n), kind)
            });
        for (i, match_dir) in matches.iter().enumerate() {
            if i > 0 {
                say!();
            }
            if outdir::read_manifest(match_dir)?.is_none() {
                // A tournament's match no shard has started yet.
                say!("{}: not started", match_dir.display());
                complete = false;
                continue;
            }
            let merged = merge::merge_dir(match_dir)?;
            for w in &merged.warnings {
                crate::sys::stderr::line(format_args!(
                    "warning: merge {}: {w}",
                    match_dir.display()
                ));
            }
            for line in merged.report() {
                say!("{line}");
            }
            let json = match_dir.join("merged.jsonl");
            let pgn = match_dir.join("merged.pgn");
            merged.write(&json, &pgn)?;
            say!(
                "{} games written to {} and {}",
                merged.records.len(),
                json.display(),
                pgn.display()
            );
            complete &= merged.verdict.is_some()
                || merged.records.len() as u64 == merged.manifest.schedule.games;
            if html.is_some() {
                let s = &merged.manifest.schedule;
                pages.push(MatchRecords {
                    names: s.names.clone(),
                    variant: s.variant.clone(),
                    sprt: merged.manifest.sprt(),
                    records: merged.records.clone(),
                });
            }
            if let Some((names, standings, _)) = &mut standings {
                let s = &merged.manifest.schedule;
                let index = |name: &str| names.iter().position(|n| n == name);
                if let (Some(a), Some(b)) = (index(&s.names[0]), index(&s.names[1])) {
                    standings.add(a, b, &merged.tally().totals);
                }
            }
        }
        if let Some((names, standings, kind)) = standings {
            say!("\nstandings ({}):", kind.name());
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            for line in standings.table(&names) {
                say!("{line}");
            }
        }
        if let Some(path) = html {
            crate::referee::report::write(path, &pages)?;
            say!("the report page written to {}", path.display());
        }
        Ok(complete)
    })();
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            crate::sys::stderr::line(format_args!("error: merge: {e}"));
            ExitCode::from(2)
        }
    }
}
