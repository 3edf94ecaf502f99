//! `awari tune`: the Texel fit of the evaluation's weights to self-play games, whole, one
//! shard of the games (`--shard`, `--out-dir`), or the fit of the shards' samples (`--from`).
//! The games and the fit are the library's ([`crate::tools::tune`], [`crate::tools::jobs`]);
//! here are the flags, their checks and the lines printed.

use super::say;
use super::sharded::{given, shard_of};
use crate::rules::Variant;
use crate::tools::tune::TuneOptions;
use crate::uci::options::MAX_THREADS;
use clap::ArgMatches;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub(super) struct TuneArgs {
    /// Rule set of the games.
    #[arg(long, default_value = "oware")]
    variant: Variant,
    /// Self-play games.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    games: u32,
    /// Search depth of every move.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// Random moves at the start of each game.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(0..=40))]
    opening_plies: u32,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads playing games, 1 to 256 (default: every core, at most 256).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS))]
    threads: Option<u16>,
    /// Steps of gradient descent.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    steps: u32,
    /// Endgame tables (oware, kalah) for the games' searches; a game then ends, with the
    /// tables' result, at its first position they know exactly.
    #[arg(long)]
    tables: Option<PathBuf>,
    /// Play only one shard of the games, for a cluster, and write their samples to --out-dir
    /// without fitting: K/N (game i is shard i mod N's; K from 0 to N-1), auto (a Slurm job
    /// array: SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN of SLURM_ARRAY_TASK_COUNT) or auto/N
    /// (a Kubernetes Indexed Job: JOB_COMPLETION_INDEX of N). Needs --out-dir. E.g.
    /// --shard 3/10 --out-dir /shared/tune
    #[arg(long, requires = "out_dir", value_name = "K/N|auto|auto/N")]
    shard: Option<String>,
    /// The shared directory of a sharded run: tune.json (the settings, written by the first
    /// shard, checked by every other) and tune-shard-K-of-N.json per shard. Without --shard,
    /// the whole run as one shard (0/1): the samples are kept, the fit is left to --from.
    #[arg(long, value_name = "DIR", conflicts_with = "from")]
    out_dir: Option<PathBuf>,
    /// Fit the samples the shards wrote to DIR (their --out-dir) instead of playing games: the
    /// same fit and lines as the unsharded run. Refused while a shard's file is missing
    /// (see --allow-missing). Settings given with it must be the run's; those left out are
    /// DIR/tune.json's. E.g. awari tune --from /shared/tune --steps 2000
    #[arg(long, value_name = "DIR", conflicts_with_all = ["shard", "tables"])]
    from: Option<PathBuf>,
    /// With --from: fit even if some shards' files are missing, without their games.
    #[arg(long, requires = "from")]
    allow_missing: bool,
}

pub(super) fn run(args: &TuneArgs, matches: Option<&ArgMatches>) -> Result<(), String> {
    use crate::search::eval::Weights;
    // Held to the end: it keeps a FIFO output's reader waiting for the write.
    let _outputs = super::check_files(|files| {
        if let Some(dir) = &args.tables {
            files.reads_dir("--tables", dir, super::is_table_file, 1);
        }
        if let Some(dir) = &args.from {
            files.reads_dir("--from", dir, is_part, 1);
        }
        if let Some(dir) = &args.out_dir {
            files.writes_dir("--out-dir", dir, is_part, 1);
        }
    })?;
    let options = options_of(args);
    if let Some(dir) = &args.from {
        return run_from(args, &options, matches, dir);
    }
    let threads = options.threads;
    let shard = shard_of(args.shard.as_deref(), args.out_dir.as_deref())?;
    let mut head = format!(
        "tune {} games {} depth {} opening plies {} seed {} threads {threads}",
        args.variant, args.games, args.depth, args.opening_plies, args.seed
    );
    if args.out_dir.is_some() {
        head.push_str(&format!(" shard {shard}"));
    }
    say(head);
    let started = std::time::Instant::now();
    let tables = super::open_tables(args.tables.as_deref(), args.variant)?;
    let shipped = Weights::of(args.variant);
    if let Some(dir) = &args.out_dir {
        let done = crate::tools::jobs::tune_shard(dir, shard, &options, &shipped, tables.as_ref())?;
        say_positions(&done.samples, started);
        let games = format!("{} of the {} games", done.games, args.games);
        let what = if done.already {
            format!(
                "{} holds its {games} already: nothing played",
                done.path.display()
            )
        } else {
            format!("{games} -> {}", done.path.display())
        };
        say(format!(
            "shard {shard}: {what}; `awari tune --from {}` fits every shard's samples",
            dir.display()
        ));
        return Ok(());
    }
    let samples = crate::tools::tune::self_play(&options, &shipped, tables.as_ref())?;
    say_positions(&samples, started);
    say_fit(&samples, &shipped, args.steps as usize);
    Ok(())
}

/// The run the flags ask for.
pub(super) fn options_of(args: &TuneArgs) -> TuneOptions {
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS as usize)),
        usize::from,
    );
    TuneOptions {
        variant: args.variant,
        games: args.games as usize,
        depth: args.depth,
        opening_plies: args.opening_plies as usize,
        seed: args.seed,
        threads,
    }
}

/// A file of a sharded run's directory: its settings or a shard's samples.
fn is_part(name: &str) -> bool {
    name == crate::tools::jobs::TUNE_MANIFEST
        || (name.starts_with("tune-shard-") && name.ends_with(".json"))
}

/// `awari tune --from DIR`: the fit of every shard's samples; the settings of `options` that
/// the command line gave must be the run's.
fn run_from(
    args: &TuneArgs,
    options: &TuneOptions,
    matches: Option<&ArgMatches>,
    dir: &Path,
) -> Result<(), String> {
    use crate::tools::jobs::{tune_gather, tune_manifest, TUNE_MANIFEST};
    let started = std::time::Instant::now();
    let manifest = tune_manifest(dir)?;
    crate::cluster::outdir::check_given(
        &dir.join(TUNE_MANIFEST),
        &manifest,
        &given(matches, options),
    )?;
    let n = manifest.shards;
    let settings = &manifest.options;
    say(format!(
        "tune {} games {} depth {} opening plies {} seed {} from {} ({n} shards)",
        settings.variant,
        settings.games,
        settings.depth,
        settings.opening_plies,
        settings.seed,
        dir.display()
    ));
    if let Some(reach) = manifest.tables {
        say(format!(
            "tables to {reach} seeds (the shards' games used them)"
        ));
    }
    let run = tune_gather(dir, &manifest)?;
    if run.found == 0 {
        return Err(format!(
            "--from {}: no shard's samples there yet (tune-shard-K-of-{n}.json)",
            dir.display()
        ));
    }
    if !run.missing.0.is_empty() {
        let what = format!(
            "shard(s) {} of {n} missing ({} of the {} games)",
            run.missing.1, run.missing_games, manifest.options.games
        );
        if !args.allow_missing {
            return Err(format!(
                "--from {}: {what}: run them (awari tune ... --shard K/{n} --out-dir {}), or fit \
                 without their games with --allow-missing",
                dir.display(),
                dir.display()
            ));
        }
        say(format!(
            "warning: {what}: fitting without their games (--allow-missing)"
        ));
    }
    say_positions(&run.samples, started);
    say_fit(&run.samples, &manifest.weights()?, args.steps as usize);
    Ok(())
}

/// The samples' line of `awari tune`.
fn say_positions(samples: &[crate::tools::tune::Sample], started: std::time::Instant) {
    let results = |r: f64| samples.iter().filter(|s| s.result == r).count();
    say(format!(
        "positions {} (labelled: {} won, {} drawn, {} lost by the side to move) in {:.1} s",
        samples.len(),
        results(1.0),
        results(0.5),
        results(0.0),
        started.elapsed().as_secs_f64()
    ));
}

/// Fits the weights to `samples` from `start` and prints them as engine options.
fn say_fit(
    samples: &[crate::tools::tune::Sample],
    start: &crate::search::eval::Weights,
    steps: usize,
) {
    use crate::search::eval::WEIGHTS;
    use crate::tools::tune::{fit, fitted};
    let found = fit(samples, start, steps);
    say(format!(
        "K {:.4}; mean squared error {:.6} with the defaults, {:.6} fitted",
        found.k, found.error_before, found.error_after
    ));
    for (weight, fitted) in WEIGHTS.iter().zip(fitted(samples)) {
        if fitted {
            let value = (weight.get)(&found.weights);
            say(format!("setoption name {} value {value}", weight.option));
        }
    }
}
