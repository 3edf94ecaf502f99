//! `awari tables`: building the endgame tables and probing a position in them; the work is
//! [`crate::tables`]'s.

use super::say;
use crate::rules::{Board, Game, Variant};
use crate::sys::stderr;
use crate::tables::probe::{probe_lines, supported};
use crate::tables::Tables;
use crate::uci::options::MAX_THREADS;
use clap::Subcommand;
use std::path::PathBuf;

#[derive(Subcommand)]
pub(super) enum TablesCommand {
    /// Compute every position with at most SEEDS seeds on the board, layer by layer; resumes
    /// after the last whole layer file.
    Build {
        /// Rule set: oware, kalah or kalah-empty.
        #[arg(long, default_value = "oware")]
        variant: Variant,
        /// The largest seed count to build.
        #[arg(long, default_value_t = 18)]
        seeds: usize,
        /// Worker threads, 1 to 256 (default: every core, at most 256).
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS))]
        threads: Option<u16>,
        /// Directory for the layer files (default: the platform's data directory, awari/tables).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Run as one rank of an MPI job (`mpirun -np N awari tables build --mpi ...`): each
        /// rank solves a share of every layer on one thread, rank 0 writes the files (the same
        /// bytes); the directory must be one every rank sees. Needs a build with the `mpi`
        /// feature.
        #[arg(long, conflicts_with = "threads")]
        mpi: bool,
    },
    /// Prove exact path-game values (oware: the value from an empty history, with the
    /// repetition rule) for positions whose table bounds differ, by rounds of safe cores and a
    /// history-following search with a node budget per question, and work out point values
    /// for play where they still differ; print the exact share per layer and write a paths
    /// file per layer (oware-NN.awpv) beside the tables, which engines open with them. A layer
    /// whose paths file is already there is read from it: delete the files to prove again
    /// with other settings.
    Paths {
        /// The largest seed count to prove (the tables must reach it; default: as far as they
        /// do).
        #[arg(long)]
        seeds: Option<usize>,
        /// Nodes each question (can the side to move end with at least k seeds?) may search; 0:
        /// no path search, the rounds of safe cores only.
        #[arg(long, default_value_t = 2_000)]
        budget: u64,
        /// The path search runs in the layers up to this seed count; the larger ones get the
        /// rounds of safe cores only (the search's cost grows fast with the layer).
        #[arg(long, default_value_t = 7)]
        search_seeds: usize,
        /// Worker threads, 1 to 256 (default: every core, at most 256).
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS))]
        threads: Option<u16>,
        /// Directory of the layer files (default: as for build).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Print the figures only: write no file, and read none.
        #[arg(long)]
        dry_run: bool,
    },
    /// Check every layer file of a directory whole, and the paths files beside them: header,
    /// size, checksum and every value byte (what an engine checks on a thread of its own after
    /// opening them); fails if one is unsound.
    Verify {
        /// Rule set: oware, kalah or kalah-empty.
        #[arg(long, default_value = "oware")]
        variant: Variant,
        /// Directory of the layer files (default: as for build).
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// Print a position's table value, then the value each legal move leads to.
    Probe {
        /// Rule set: oware, kalah or kalah-empty.
        #[arg(long, default_value = "oware")]
        variant: Variant,
        /// Directory of the layer files (default: as for build).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// The position (notation of doc/rules.md).
        #[arg(long)]
        fen: String,
        /// Moves to play first, concatenated (FfEa) or spaced ("F f E a").
        #[arg(long)]
        moves: Option<String>,
    },
}

/// `tables build --mpi`: this process is one rank of the job.
#[cfg(feature = "mpi")]
fn build_mpi(options: &crate::tables::build::BuildOptions) -> Result<(), String> {
    use mpi::traits::CommunicatorCollectives;
    let universe = mpi::initialize().ok_or("MPI was already started in this process")?;
    let world = universe.world();
    match crate::tables::distributed::build(&world, options, &mut std::io::stdout().lock()) {
        Ok(_) => Ok(()),
        Err(e) => {
            // Every rank returns the same error at the same point (the ranks agree on the build
            // first). Each says it before any exits: mpirun ends the job as soon as one rank
            // exits with an error, and a rank still writing would be cut off.
            eprintln!("error: {e}");
            world.barrier();
            drop(universe);
            std::process::exit(2)
        }
    }
}

/// `tables build --mpi` in a build without the `mpi` feature.
#[cfg(not(feature = "mpi"))]
fn build_mpi(_: &crate::tables::build::BuildOptions) -> Result<(), String> {
    Err(
        "--mpi: this awari was built without MPI; build it with `cargo build --release \
         --features mpi` (an MPI library and libclang installed: see doc/tables.md)"
            .into(),
    )
}

/// The threads `--threads` asks for, else one per core, at most [`MAX_THREADS`] either way.
fn threads_or_cores(threads: Option<u16>) -> usize {
    threads.map_or_else(
        || {
            let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
            cores.min(MAX_THREADS as usize)
        },
        usize::from,
    )
}

fn tables_dir(dir: Option<PathBuf>) -> Result<PathBuf, String> {
    dir.or_else(crate::tables::probe::default_dir)
        .ok_or_else(|| "no data directory on this platform: name one with --dir".to_string())
}

/// The directory of tables to read: it must exist (a misspelt `--dir` would otherwise read as
/// a directory with no tables).
fn existing_tables_dir(dir: Option<PathBuf>) -> Result<PathBuf, String> {
    let dir = tables_dir(dir)?;
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(format!(
            "{}: no such directory (awari tables build --dir {} builds tables there)",
            dir.display(),
            dir.display()
        ))
    }
}

pub(super) fn run(command: TablesCommand) -> Result<(), String> {
    match command {
        TablesCommand::Build {
            variant,
            seeds,
            threads,
            dir,
            mpi,
        } => build(variant, seeds, threads, dir, mpi),
        TablesCommand::Paths {
            seeds,
            budget,
            search_seeds,
            threads,
            dir,
            dry_run,
        } => paths(seeds, budget, search_seeds, threads, dir, dry_run),
        TablesCommand::Verify { variant, dir } => verify(variant, dir),
        TablesCommand::Probe {
            variant,
            dir,
            fen,
            moves,
        } => probe(variant, dir, &fen, moves.as_deref()),
    }
}

/// `tables build`: the layers up to `seeds` built into the directory, here or as one rank of
/// an MPI job. The directory is checked first, on every rank: one that cannot take the
/// layers' files would otherwise be found out after a layer's solve (hours).
fn build(
    variant: Variant,
    seeds: usize,
    threads: Option<u16>,
    dir: Option<PathBuf>,
    mpi: bool,
) -> Result<(), String> {
    use crate::tables::build::BuildOptions;
    use std::io::IsTerminal;
    let dir = tables_dir(dir)?;
    let _outputs = super::check_files(|files| {
        files.writes_dir("--dir", &dir, super::is_table_file, 1);
    })?;
    let options = BuildOptions {
        variant,
        seeds,
        threads: threads_or_cores(threads),
        dir,
        bars: std::io::stderr().is_terminal() && !mpi,
    };
    if mpi {
        return build_mpi(&options);
    }
    crate::tables::build::build(&options, &mut std::io::stdout().lock())
        .map_err(|e| e.to_string())?;
    Ok(())
}

/// `tables paths`: the exact path values proven for the oware tables of the directory, layer
/// by layer up to `seeds` (default: their reach), each layer's file written beside them unless
/// `dry_run`. The directory is checked as writable before the first proof.
fn paths(
    seeds: Option<usize>,
    budget: u64,
    search_seeds: usize,
    threads: Option<u16>,
    dir: Option<PathBuf>,
    dry_run: bool,
) -> Result<(), String> {
    let dir = existing_tables_dir(dir)?;
    let _outputs = super::check_files(|files| {
        if !dry_run {
            files.writes_dir("--dir", &dir, super::is_table_file, 1);
        }
    })?;
    let tables = Tables::open(&dir, Variant::Oware);
    for problem in tables.problems() {
        stderr::line(format_args!("warning: {problem}"));
    }
    let seeds = match seeds.or_else(|| tables.reach()) {
        Some(seeds) => seeds,
        None => return Err(format!("no oware tables in {}", dir.display())),
    };
    let pool = crate::tools::pool::threads(threads_or_cores(threads))?;
    pool.install(|| {
        crate::tables::paths::prove_tables(
            &tables,
            seeds,
            budget,
            search_seeds,
            !dry_run,
            &mut std::io::stdout().lock(),
        )
    })?;
    Ok(())
}

/// `tables verify`: every layer and paths file of the directory checked whole, each unsound
/// one said, and a failure if any is, or if there is nothing to check (a script would read
/// nothing checked as sound tables).
fn verify(variant: Variant, dir: Option<PathBuf>) -> Result<(), String> {
    if !supported(variant) {
        return Err(format!(
            "--variant {variant}: tables exist for oware and kalah (both readings)"
        ));
    }
    let dir = existing_tables_dir(dir)?;
    let start = std::time::Instant::now();
    let tables = Tables::open(&dir, variant);
    let problems = tables.problems();
    if tables.count() == 0 && problems.is_empty() {
        return Err(format!("no {variant} layer files in {}", dir.display()));
    }
    for problem in &problems {
        stderr::line(format_args!("error: {problem}"));
    }
    say(format!(
        "{} {variant} layers in {}, {} paths files, complete up to {}, {} unsound, checked in {:.2} s",
        tables.count(),
        dir.display(),
        tables.paths_count(),
        tables
            .reach()
            .map_or_else(|| "none".to_string(), |r| format!("{r} seeds")),
        problems.len(),
        start.elapsed().as_secs_f64()
    ));
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{} unsound layer file(s)", problems.len()))
    }
}

/// `tables probe`: the value of the position `fen` after `moves`, then of each legal move.
/// Only the layers the probe reads are checked (the position's and its moves'), so a probe
/// answers at once however large the tables.
fn probe(
    variant: Variant,
    dir: Option<PathBuf>,
    fen: &str,
    moves: Option<&str>,
) -> Result<(), String> {
    use crate::tables::index::seeds;
    if !supported(variant) {
        return Err(format!(
            "--variant {variant}: tables exist for oware and kalah (both readings)"
        ));
    }
    let dir = existing_tables_dir(dir)?;
    let board = Board::from_notation(variant, fen).map_err(|e| format!("--fen: {e}"))?;
    let mut game = Game::new(board);
    if let Some(moves) = moves {
        game.play_text(moves).map_err(|e| format!("--moves: {e}"))?;
    }
    let tables = Tables::open_unverified(&dir, variant);
    let board = *game.board();
    let read: Vec<usize> = std::iter::once(board)
        .chain(game.legal_moves().map(|m| board.play_unchecked(m)))
        .map(|b| seeds(&b.houses()))
        .collect();
    tables.verify_layers(|n| read.contains(&n));
    for problem in tables.problems() {
        stderr::line(format_args!("warning: {problem}"));
    }
    for line in probe_lines(&tables, &game)? {
        say(line);
    }
    Ok(())
}
