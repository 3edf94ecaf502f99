//! `awari datagen`: self-play positions for the network's training, whole or one shard
//! (`--shard K/N`, `--out-dir`), with a progress bar. The games and the file format are the
//! library's ([`crate::tools::datagen`]); here are the flags, their checks and the lines
//! printed.

use super::say;
use super::sharded::shard_of;
use crate::cluster::shard::Shard;
use crate::rules::Variant;
use crate::search::network::Network;
use crate::tables::Tables;
use crate::tools::datagen::{read_openings, run_shard, DatagenDone, DatagenOptions};
use std::path::PathBuf;

#[derive(clap::Args)]
pub(super) struct DatagenArgs {
    /// Rule set of the games.
    #[arg(long, default_value = "oware")]
    variant: Variant,
    /// Self-play games, all shards together.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=4_000_000_000))]
    games: u64,
    /// Search depth of every move.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// Random moves after each game's opening line.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=40))]
    random_plies: u32,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Opening suite (one line of moves per line, `#` comments): game i starts from line
    /// i mod L. E.g. tournament/openings/oware.txt. Without it every game starts from the
    /// start position.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Endgame tables (oware, kalah): the searches probe them and each position they reach
    /// gets their exact value.
    #[arg(long)]
    tables: Option<PathBuf>,
    /// The evaluation the searches use: the network (oware only; oware's default, as the
    /// engine's) or the hand evaluation's terms (the other rule sets' default).
    #[arg(long, value_enum)]
    eval: Option<Eval>,
    /// The network's weights file (as the engine's EvalFile option) instead of the shipped
    /// network; implies --eval network.
    #[arg(long, value_name = "PATH")]
    eval_file: Option<PathBuf>,
    /// Also draw this many positions from the --tables' layers, each with its exact value,
    /// into datagen-tables.bin (written by shard 0): a layer from 8 seeds (or the tables'
    /// reach, if smaller) to the reach drawn uniformly, then a position of it, a side to move
    /// and a split of the stores at random.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=100_000_000))]
    table_samples: u64,
    /// Threads playing games (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// Play only one shard of the games, for a cluster: K/N (game i is shard i mod N's),
    /// auto (a Slurm job array) or auto/N (a Kubernetes Indexed Job).
    #[arg(long, value_name = "K/N|auto|auto/N")]
    shard: Option<String>,
    /// The run's directory: datagen.json (the settings, checked by every shard) and
    /// datagen-K-of-N.bin per shard (datagen-K-of-N.bin.part while it runs; an interrupted
    /// shard started again resumes from it).
    #[arg(long, value_name = "DIR")]
    out_dir: PathBuf,
}

/// The evaluation of the self-play searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Eval {
    /// The network (`UseNetwork`): oware only.
    Network,
    /// The hand evaluation's terms.
    Terms,
}

/// A file of a run's directory: its settings, a shard's positions or their `.part`.
fn is_run_file(name: &str) -> bool {
    name == crate::tools::datagen::MANIFEST
        || (name.starts_with("datagen-") && (name.ends_with(".bin") || name.ends_with(".bin.part")))
}

pub(super) fn run(args: &DatagenArgs) -> Result<(), String> {
    // Held to the end: it keeps a FIFO output's reader waiting for the write.
    let _outputs = super::check_files(|files| {
        if let Some(path) = &args.openings {
            files.reads("--openings", path);
        }
        if let Some(path) = &args.eval_file {
            files.reads("--eval-file", path);
        }
        if let Some(dir) = &args.tables {
            files.reads_dir("--tables", dir, super::is_table_file, 1);
        }
        files.writes_dir("--out-dir", &args.out_dir, is_run_file, 1);
    })?;
    let shard = shard_of(args.shard.as_deref(), Some(&args.out_dir))?;
    let options = options_of(args)?;
    let tables = super::open_tables(args.tables.as_deref(), args.variant)?;
    let eval = match options.network {
        Some(n) => format!("network {:016x}", n.checksum()),
        None => "terms".to_string(),
    };
    say(format!(
        "datagen {} games {} depth {} random plies {} seed {} openings {} eval {eval} shard \
         {shard}",
        args.variant,
        args.games,
        args.depth,
        args.random_plies,
        args.seed,
        options.openings.len()
    ));
    let done = play(args, shard, &options, tables.as_ref())?;
    tell(shard, &done);
    Ok(())
}

/// The run the flags ask for, each checked: the opening suite read and its lines legal, the
/// evaluation one that can play the rule set (the network is oware's), the network's file
/// loaded, and tables named when samples are to be drawn from them. All of it before any
/// tables are opened or any game played, so a mistyped flag costs nothing.
fn options_of(args: &DatagenArgs) -> Result<DatagenOptions, String> {
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let openings = match &args.openings {
        None => Vec::new(),
        Some(path) => read_openings(path, args.variant)
            .map_err(|e| format!("--openings {}: {e}", path.display()))?,
    };
    let network = network_of(args)?;
    if args.table_samples > 0 && args.tables.is_none() {
        return Err("--table-samples needs --tables (the tables it draws from)".into());
    }
    Ok(DatagenOptions {
        variant: args.variant,
        games: args.games,
        depth: args.depth,
        random_plies: args.random_plies,
        seed: args.seed,
        openings,
        threads,
        network,
        table_samples: args.table_samples,
    })
}

/// The network the searches evaluate with, `None` for the terms: `--eval` if given, else the
/// network when a file of one is named or the rule set is oware (as the engine plays), else
/// the terms. A network asked for another rule set is refused, not replaced by the terms.
fn network_of(args: &DatagenArgs) -> Result<Option<&'static Network>, String> {
    let eval = match (args.eval, &args.eval_file) {
        (Some(Eval::Terms), Some(_)) => {
            return Err("--eval-file is a network's: not with --eval terms".into())
        }
        (Some(eval), None) => eval,
        (_, Some(_)) => Eval::Network,
        (None, None) if args.variant == Variant::Oware => Eval::Network,
        (None, None) => Eval::Terms,
    };
    if eval == Eval::Network && args.variant != Variant::Oware {
        return Err(format!(
            "--eval network: the network evaluates oware only, not {} (--eval terms)",
            args.variant
        ));
    }
    Ok(match (eval, &args.eval_file) {
        (Eval::Terms, _) => None,
        (Eval::Network, None) => Some(Network::shipped()),
        (Eval::Network, Some(path)) => {
            Some(Network::load(&path.to_string_lossy()).map_err(|e| format!("--eval-file {e}"))?)
        }
    })
}

/// The shard's games played with a progress bar on the terminal (games done, positions made
/// and their rate), and the `.part`'s dropped games said as warnings as they are found.
fn play(
    args: &DatagenArgs,
    shard: Shard,
    options: &DatagenOptions,
    tables: Option<&Tables>,
) -> Result<DatagenDone, String> {
    let bar = indicatif::ProgressBar::new(shard.items_of(args.games));
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} games, {msg} [{elapsed_precise}, eta {eta}]",
        )
        .expect("a valid template"),
    );
    let started = std::time::Instant::now();
    let done = run_shard(
        &args.out_dir,
        shard,
        options,
        tables,
        &mut |line| crate::sys::stderr::line(format_args!("warning: {line}")),
        &mut |games, made| {
            bar.set_position(games);
            let rate = made as f64 / started.elapsed().as_secs_f64().max(1e-3);
            bar.set_message(format!("{made} positions ({rate:.0}/s)"));
        },
    )?;
    bar.finish_and_clear();
    Ok(done)
}

/// The lines that say what the shard did: the tables' samples (written now or found), then
/// either that its file was there already or what it played, resumed and wrote, at what rate.
fn tell(shard: Shard, done: &DatagenDone) {
    if let Some((path, count, now)) = &done.samples {
        let how = if *now { "written" } else { "there already" };
        say(format!(
            "{count} positions drawn from the tables -> {} ({how})",
            path.display()
        ));
    }
    if done.already {
        say(format!(
            "shard {shard}: {} holds its {} positions already: nothing played",
            done.path.display(),
            done.records
        ));
        return;
    }
    let (made, seconds) = done.made;
    let resumed = if done.resumed > 0 {
        format!(" ({} games resumed from the .part)", done.resumed)
    } else {
        String::new()
    };
    say(format!(
        "shard {shard}: {} games{resumed}, {} positions -> {}; {made} made in {seconds:.1} s \
         ({:.0} positions/s)",
        done.games,
        done.records,
        done.path.display(),
        made as f64 / seconds.max(1e-3)
    ));
}
