//! `awari book build`: the opening book, whole, one shard of it (`--shard`, `--out-dir`), or
//! the merge of the shards' parts (`--from`). The searches and games are the library's
//! ([`crate::tools::book`], [`crate::tools::jobs`]); here are the flags, their checks and
//! the writing of the book file.

use super::say;
use super::sharded::{given, shard_of};
use crate::rules::Variant;
use crate::sys::stderr;
use crate::tools::book::BuildOptions;
use crate::uci::options::MAX_THREADS;
use clap::{ArgMatches, Subcommand};
use std::path::{Path, PathBuf};

#[derive(Subcommand)]
pub(super) enum BookCommand {
    /// Score every move of every position up to PLIES plies from the start, and of the main
    /// lines up to LINE_PLIES, by a search to DEPTH, play GAMES self-play games for each
    /// move's record (wins/draws/losses), and write
    /// the book (the shipped one is book/oware.txt). On a cluster: --shard and --out-dir, then
    /// --from.
    Build(BookArgs),
}

#[derive(clap::Args)]
pub(super) struct BookArgs {
    /// Rule set.
    #[arg(long, default_value = "oware")]
    variant: Variant,
    /// Every position up to this many plies from the start.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(0..=8))]
    plies: u32,
    /// Beyond --plies, the main lines up to this many plies from the start: from a position
    /// of --plies plies or more, only the moves within --line-margin of the best lead on (0,
    /// or no more than --plies: no main lines).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=8))]
    line_plies: u32,
    /// The main lines go on through the moves within this many centi-seeds of the best...
    #[arg(long, default_value_t = 25, value_parser = clap::value_parser!(i32).range(0..=10_000))]
    line_margin: i32,
    /// ... by a search to this depth (it only picks the lines; --depth scores them).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=60))]
    line_depth: u32,
    /// Search depth of each move.
    #[arg(long, default_value_t = 22, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: u32,
    /// Self-play games from the start for the moves' records (0: none).
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u32).range(0..=10_000_000))]
    games: u32,
    /// Search depth of the games' moves after the book.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=30))]
    game_depth: u32,
    /// In the games, book moves within this many centi-seeds of the best are chosen at
    /// random.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(i32).range(0..=10_000))]
    explore: i32,
    /// Seed of the games' random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads, 1 to 256 (default: every core, at most 256).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS))]
    threads: Option<u16>,
    /// The file to write (the book; with --from, the merged book).
    #[arg(long, required_unless_present = "out_dir", conflicts_with = "out_dir")]
    out: Option<PathBuf>,
    /// Do only one shard of the build, for a cluster, into --out-dir: K/N (K from 0 to N-1),
    /// auto (a Slurm job array: SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN of
    /// SLURM_ARRAY_TASK_COUNT) or auto/N (a Kubernetes Indexed Job: JOB_COMPLETION_INDEX of N).
    /// Needs --out-dir. The shard searches positions i mod N = K; then, if every shard's
    /// searches are in DIR, plays games i mod N = K; if not, it stops after its searches. So
    /// run the shards twice (a second job array after the first: what is done is kept), then
    /// --from. E.g. --shard auto --out-dir /shared/book
    #[arg(long, requires = "out_dir", value_name = "K/N|auto|auto/N")]
    shard: Option<String>,
    /// The shared directory of a sharded build: book.json (the settings, written by the first
    /// shard, checked by every other), book-searches-K-of-N.json and book-games-K-of-N.json
    /// per shard. Without --shard, the whole build as one shard (0/1).
    #[arg(long, value_name = "DIR", conflicts_with = "from")]
    out_dir: Option<PathBuf>,
    /// Merge the shards' parts in DIR (their --out-dir) into the book --out names: the same
    /// book the unsharded build makes. Refused while a shard's part is missing. Settings given
    /// with it must be the build's; those left out are DIR/book.json's. E.g.
    /// awari book build --from /shared/book --out book.txt
    #[arg(long, value_name = "DIR", conflicts_with = "shard")]
    from: Option<PathBuf>,
}

/// `awari book build`: the whole book, one shard of it, or the merge of the shards'.
pub(super) fn run(args: &BookArgs, matches: Option<&ArgMatches>) -> Result<(), String> {
    use crate::tools::jobs::{book_manifest, book_merge, book_shard, BOOK_MANIFEST};
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS as usize)),
        usize::from,
    );
    let shard = shard_of(args.shard.as_deref(), args.out_dir.as_deref())?;
    // Held to the end: it keeps a FIFO output's reader waiting for the write.
    let _outputs = super::check_files(|files| {
        if let Some(dir) = &args.from {
            files.reads_dir("--from", dir, is_part, 1);
        }
        if let Some(dir) = &args.out_dir {
            files.writes_dir("--out-dir", dir, is_part, 1);
        }
        if let Some(out) = &args.out {
            files.writes("--out", out);
        }
    })?;
    let started = std::time::Instant::now();
    let progress = |done: usize, total: usize| {
        if done % 20 == 0 || done == total {
            stderr::line(format_args!("book: {done} of {total} positions"));
        }
    };
    let options = options_of(args);
    if let Some(dir) = &args.from {
        let out = args.out.as_deref().ok_or("--from needs --out FILE")?;
        let manifest = book_manifest(dir)?;
        crate::cluster::outdir::check_given(
            &dir.join(BOOK_MANIFEST),
            &manifest,
            &given(matches, &options),
        )?;
        let book = book_merge(dir, &manifest, threads)?;
        return write_book(&book, &manifest.options, out, started);
    }
    if let Some(dir) = &args.out_dir {
        return book_shard(dir, shard, &options, threads, &progress, &mut say);
    }
    let out = args
        .out
        .as_deref()
        .ok_or("give --out FILE (or --out-dir DIR)")?;
    let mut book = crate::tools::book::build(&options, threads, &progress)?;
    stderr::line(format_args!(
        "book: searched in {:.1} s; {} self-play games at depth {}",
        started.elapsed().as_secs_f64(),
        options.games,
        options.game_depth
    ));
    book.play_games(
        options.games,
        options.game_depth,
        options.explore,
        options.seed,
        threads,
    )?;
    write_book(&book, &options, out, started)
}

/// The build the flags ask for.
pub(super) fn options_of(args: &BookArgs) -> BuildOptions {
    BuildOptions {
        variant: args.variant,
        plies: args.plies as usize,
        depth: args.depth,
        games: args.games as usize,
        game_depth: args.game_depth,
        explore: args.explore,
        seed: args.seed,
        line_plies: args.line_plies as usize,
        line_margin: args.line_margin,
        line_depth: args.line_depth,
    }
}

/// A file of a sharded build's directory: its settings or a shard's part.
fn is_part(name: &str) -> bool {
    name == crate::tools::jobs::BOOK_MANIFEST
        || (name.starts_with("book-") && name.ends_with(".json"))
}

/// Writes `book` to `out` whole ([`crate::sys::write::replace`]) and says so.
fn write_book(
    book: &crate::search::book::Book,
    options: &BuildOptions,
    out: &Path,
    started: std::time::Instant,
) -> Result<(), String> {
    let text = book.to_text(&options.header());
    crate::sys::write::replace(out, text.as_bytes()).map_err(|e| e.to_string())?;
    say(format!(
        "book: {} positions, {} bytes, {:.1} s -> {}",
        text.lines().filter(|l| !l.starts_with('#')).count(),
        text.len(),
        started.elapsed().as_secs_f64(),
        out.display()
    ));
    Ok(())
}
