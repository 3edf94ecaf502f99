//! `referee report`: the HTML page of matches already played.

use super::parse::parse_sprt;
use crate::referee::figures::Figures;
use crate::referee::runner::Tally;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `referee report RECORDS --html FILE`: the page of matches already played, and each
/// match's result printed as the match printed it. Exit status 0
/// when it is written, 2 when the records cannot be read or the page cannot be written.
pub(super) fn report(records: &[PathBuf], html: &Path, sprt: Option<&[String]>) -> ExitCode {
    let result = (|| -> Result<usize, String> {
        let sprt = sprt.map(parse_sprt).transpose()?;
        // A page written over its own records would lose them.
        let mut files = crate::sys::outputs::Files::default();
        for r in records {
            if r.is_dir() {
                files.reads_dir(
                    "the records directory",
                    r,
                    crate::referee::outdir::is_own,
                    2,
                );
            } else {
                files.reads("the records", r);
            }
        }
        files.writes("--html", html);
        // Held to the end: it keeps a FIFO output's reader waiting for the write.
        let _outputs = files.check()?;
        let read = crate::referee::report::read(records, sprt)?;
        for w in &read.warnings {
            crate::sys::stderr::line(format_args!("warning: report: {w}"));
        }
        crate::referee::report::write(html, &read.matches)?;
        // Each match's result as the match printed it at its end, its SPRT's verdict too.
        for m in &read.matches {
            let totals = Tally::of_records(&m.records).totals;
            for line in Figures::of(&totals, [&m.names[0], &m.names[1]], m.sprt).lines() {
                say!("{line}");
            }
            say!();
        }
        Ok(read.matches.iter().map(|m| m.records.len()).sum())
    })();
    match result {
        Ok(games) => {
            say!("{games} games written to {}", html.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            crate::sys::stderr::line(format_args!("error: report: {e}"));
            ExitCode::from(2)
        }
    }
}
