//! `awari puzzles`: puzzles found in game records with the endgame tables, written as a puzzle
//! file. The finding and the file format are the library's ([`crate::puzzles`]); here are the
//! flags, their checks and the lines printed.

use super::say;
use std::path::PathBuf;

#[derive(clap::Args)]
pub(super) struct PuzzlesArgs {
    /// Game records: JSON lines files (the referee's --jsonout, a shard's file, merged.jsonl,
    /// the page's download).
    #[arg(required = true, value_name = "RECORDS")]
    records: Vec<PathBuf>,
    /// Endgame tables of the games' rule set (oware, kalah), from `awari tables build --dir`.
    #[arg(long, value_name = "DIR")]
    tables: PathBuf,
    /// The puzzle file to write (replaced whole; doc/formats.md).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Stop after this many puzzles.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    max: u64,
}

pub(super) fn run(args: &PuzzlesArgs) -> Result<(), String> {
    // Held to the end: it keeps a FIFO output's reader waiting for the write.
    let _outputs = super::check_files(|files| {
        for path in &args.records {
            files.reads("RECORDS", path);
        }
        files.reads_dir("--tables", &args.tables, super::is_table_file, 1);
        files.writes("--out", &args.out);
    })?;
    if !args.tables.is_dir() {
        return Err(format!(
            "--tables {}: no such directory",
            args.tables.display()
        ));
    }
    let max = usize::try_from(args.max).unwrap_or(usize::MAX);
    let mut finder = crate::puzzles::find::Finder::new(&args.tables, max);
    for path in &args.records {
        if finder.full() {
            break;
        }
        finder.read(path)?;
    }
    for warning in &finder.warnings {
        say(format!("warning: tables: {warning}"));
    }
    crate::sys::write::replace(&args.out, finder.text().as_bytes())
        .map_err(|e| format!("--out {e}"))?;
    say(format!(
        "{} puzzles from {} games -> {}",
        finder.puzzles.len(),
        finder.games,
        args.out.display()
    ));
    Ok(())
}
