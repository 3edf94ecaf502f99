//! The `awari` command: with no arguments it speaks the engine protocol on stdin/stdout
//! (`engine::run`); `awari bench` measures the search, `awari perft` counts the game tree,
//! `awari play` plays a person in the terminal (`human`), `awari tables` builds and probes the
//! endgame tables. Only argument parsing lives here; the work is in the library.

use awari::engine::bench::{bench, perft_lines};
use awari::engine::options::Opponent;
use awari::engine::search::Control;
use awari::rules::{Board, Game, Variant};
use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "awari",
    version,
    about = "An Awari engine: oware, awari, ahl, kalah and ayoayo",
    after_help = "With no command, awari is the engine: it speaks the UCI-like line protocol of\n\
                  protocol.md on stdin/stdout, e.g.\n  \
                  printf 'position startpos moves FfEa\\ngo depth 12\\n' | awari\n\
                  Positions use the notation of protocol.md, e.g. 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S.\n\
                  Examples: awari play; awari bench; awari bench --threads 2;\n  \
                  awari perft --variant oware --depth 11;\n  \
                  awari tables build (endgame tables; the engine then finds them by itself);\n  \
                  awari tune --variant kalah --games 10000 --depth 8 (refit a rule set's weights;\n  \
                  add --tables DIR to end the games with the endgame tables' results);\n  \
                  awari book build --plies 3 --depth 22 --games 4000 --out book.txt;\n  \
                  on a cluster, each task of a job array: awari tune ... --shard auto --out-dir\n  \
                  /shared/tune, then once: awari tune --from /shared/tune (README)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the game tree at exactly DEPTH plies, per root move (divide).
    Perft(PerftArgs),
    /// Play against the computer in the terminal, as in the 1978 BASIC program.
    Play(PlayArgs),
    /// Search the fixed bench positions; prints nodes (a signature of the search) and speed.
    Bench {
        /// Search every position to this depth instead of its own.
        #[arg(long)]
        depth: Option<u32>,
        /// Probe the endgame tables of this directory (oware and kalah positions).
        #[arg(long)]
        tables: Option<PathBuf>,
        /// Search threads (lazy SMP); above 1 the node count varies from run to run.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
    },
    /// Fit the evaluation's weights to self-play games (the Texel method); prints the weights
    /// as engine options, the data size and the fit's error.
    Tune(TuneArgs),
    /// The opening book: build it.
    #[command(subcommand)]
    Book(BookCommand),
    /// Endgame tables: build them, or look a position up.
    #[command(subcommand)]
    Tables(TablesCommand),
}

#[derive(Subcommand)]
enum BookCommand {
    /// Score every move of every position up to PLIES plies from the start by a search to
    /// DEPTH, play GAMES self-play games for each move's record (wins/draws/losses), and write
    /// the book (the shipped one is book/oware.txt). On a cluster: --shard and --out-dir, then
    /// --from.
    Build(BookArgs),
}

#[derive(clap::Args)]
struct BookArgs {
    /// Rule set.
    #[arg(long, default_value = "oware")]
    variant: Variant,
    /// Plies from the start.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(0..=8))]
    plies: u32,
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
    /// Threads (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
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

#[derive(Subcommand)]
enum TablesCommand {
    /// Compute every position with at most SEEDS seeds on the board, layer by layer; resumes
    /// after the last whole layer file.
    Build {
        /// Rule set: oware or kalah.
        #[arg(long, default_value = "oware")]
        variant: Variant,
        /// The largest seed count to build.
        #[arg(long, default_value_t = 18)]
        seeds: usize,
        /// Worker threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// Directory for the layer files (default: the platform's data directory, awari/tables).
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// Print a position's table value, then the value each legal move leads to.
    Probe {
        /// Rule set: oware or kalah.
        #[arg(long, default_value = "oware")]
        variant: Variant,
        /// Directory of the layer files (default: as for build).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// The position (notation of protocol.md).
        #[arg(long)]
        fen: String,
        /// Moves to play first, concatenated (FfEa) or spaced ("F f E a").
        #[arg(long)]
        moves: Option<String>,
    },
}

#[derive(clap::Args)]
struct PlayArgs {
    /// Rule set.
    #[arg(long, default_value = "ahl")]
    variant: Variant,
    /// The computer (default: basic in ahl, engine elsewhere).
    #[arg(long, value_enum)]
    opponent: Option<Opponent>,
    /// Search depth of the engine (default 8) or of evolved (default 7).
    #[arg(long)]
    depth: Option<u32>,
    /// Who moves first (the computer then plays South).
    #[arg(long, value_enum, default_value_t = First::You)]
    first: First,
    /// basic's memory of the games it did not win (it learns as you play).
    #[arg(long = "learn-file")]
    learn_file: Option<PathBuf>,
    /// Seed for greedy's random choice between equal moves.
    #[arg(long)]
    seed: Option<u64>,
    /// Start every game from this position (notation of protocol.md) instead of the start.
    #[arg(long)]
    fen: Option<String>,
}

/// Who moves first in `awari play`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum First {
    You,
    Computer,
}

#[derive(clap::Args)]
struct TuneArgs {
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
    /// Threads playing games (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
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

#[derive(clap::Args)]
struct PerftArgs {
    /// Rule set: oware, awari, ahl, kalah or ayoayo.
    #[arg(long, default_value = "oware")]
    variant: Variant,
    /// Plies to count to.
    #[arg(long)]
    depth: u32,
    /// Start from this position instead of the variant's start (notation of protocol.md).
    #[arg(long)]
    fen: Option<String>,
    /// Moves to play first, concatenated (FfEa) or spaced ("F f E a").
    #[arg(long)]
    moves: Option<String>,
    /// Seeds per house in the start position (1-21), e.g. 6 for Kalah(6,6).
    #[arg(long, conflicts_with = "fen")]
    seeds: Option<u32>,
}

fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    match cli.command {
        Some(Command::Perft(args)) => match run_perft(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("error: {message}");
                ExitCode::from(2)
            }
        },
        Some(Command::Tune(args)) => match run_tune(&args, matches.subcommand_matches("tune")) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("error: {message}");
                ExitCode::from(2)
            }
        },
        Some(Command::Play(args)) => match run_play(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("error: {message}");
                ExitCode::from(2)
            }
        },
        Some(Command::Book(BookCommand::Build(args))) => {
            let matches = matches
                .subcommand_matches("book")
                .and_then(|m| m.subcommand_matches("build"));
            match run_book(&args, matches) {
                Ok(()) => ExitCode::SUCCESS,
                Err(message) => {
                    eprintln!("error: {message}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Command::Tables(command)) => match run_tables(command) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("error: {message}");
                ExitCode::from(2)
            }
        },
        Some(Command::Bench {
            depth,
            tables,
            threads,
        }) => {
            bench(
                depth,
                tables.as_deref(),
                usize::from(threads),
                &Control::new(false),
                &mut say,
            );
            ExitCode::SUCCESS
        }
        None => match awari::engine::run(std::io::stdin().lock(), std::io::stdout()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
    }
}

/// The game the user asked for: a start or a given position, then the given moves.
fn setup(args: &PerftArgs) -> Result<Game, String> {
    let start = match (&args.fen, args.seeds) {
        (Some(fen), _) => {
            Board::from_notation(args.variant, fen).map_err(|e| format!("--fen: {e}"))?
        }
        (None, Some(seeds)) => {
            Board::start_with_seeds(args.variant, seeds).map_err(|e| format!("--seeds: {e}"))?
        }
        (None, None) => Board::start(args.variant),
    };
    let mut game = Game::new(start);
    if let Some(moves) = &args.moves {
        game.play_text(moves).map_err(|e| format!("--moves: {e}"))?;
    }
    Ok(game)
}

/// Among `settings` (argument id, value), those the command line gave.
fn given<'a>(
    matches: Option<&ArgMatches>,
    settings: &[(&'a str, String)],
) -> Vec<(&'a str, String)> {
    settings
        .iter()
        .filter(|(id, _)| {
            matches.and_then(|m| m.value_source(id)) == Some(ValueSource::CommandLine)
        })
        .cloned()
        .collect()
}

/// The shard `--shard` names (the whole job without it); it needs `--out-dir`.
fn shard_of(text: Option<&str>, out_dir: Option<&Path>) -> Result<awari::shard::Shard, String> {
    match (text, out_dir) {
        (None, _) => Ok(awari::shard::Shard::WHOLE),
        (Some(text), None) => Err(format!(
            "--shard {text} needs --out-dir DIR, the directory every shard writes its part to"
        )),
        (Some(text), Some(_)) => awari::shard::Shard::parse(text, &|k| std::env::var(k).ok()),
    }
}

fn run_tune(args: &TuneArgs, matches: Option<&ArgMatches>) -> Result<(), String> {
    use awari::engine::eval::Weights;
    use awari::engine::tune::TuneOptions;
    if let Some(dir) = &args.from {
        return run_tune_from(args, matches, dir);
    }
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let options = TuneOptions {
        variant: args.variant,
        games: args.games as usize,
        depth: args.depth,
        opening_plies: args.opening_plies as usize,
        seed: args.seed,
        threads,
    };
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
    let tables = match &args.tables {
        None => None,
        Some(_) if !awari::tables::probe::supported(args.variant) => {
            return Err(format!(
                "--tables: there are endgame tables for oware and kalah only, not {}",
                args.variant
            ));
        }
        Some(dir) => {
            let tables = awari::tables::Tables::open(dir, args.variant);
            for problem in tables.problems() {
                say(format!("warning: tables: {problem}"));
            }
            let reach = tables.reach().ok_or_else(|| {
                format!(
                    "--tables {}: no {} tables there (awari tables build --variant {} --dir ...)",
                    dir.display(),
                    args.variant,
                    args.variant
                )
            })?;
            say(format!("tables to {reach} seeds from {}", dir.display()));
            Some(tables)
        }
    };
    let shipped = Weights::of(args.variant);
    if let Some(dir) = &args.out_dir {
        let done =
            awari::engine::jobs::tune_shard(dir, shard, &options, &shipped, tables.as_ref())?;
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
    let samples = awari::engine::tune::self_play(&options, &shipped, tables.as_ref());
    say_positions(&samples, started);
    say_fit(&samples, &shipped, args.steps as usize);
    Ok(())
}

/// `awari tune --from DIR`: the fit of every shard's samples.
fn run_tune_from(args: &TuneArgs, matches: Option<&ArgMatches>, dir: &Path) -> Result<(), String> {
    use awari::engine::jobs::{tune_gather, tune_manifest, TUNE_MANIFEST};
    let started = std::time::Instant::now();
    let manifest = tune_manifest(dir)?;
    let settings = [
        ("variant", args.variant.to_string()),
        ("games", args.games.to_string()),
        ("depth", args.depth.to_string()),
        ("opening_plies", args.opening_plies.to_string()),
        ("seed", args.seed.to_string()),
    ];
    awari::outdir::check_given(
        &dir.join(TUNE_MANIFEST),
        &manifest,
        &given(matches, &settings),
    )?;
    let n = manifest.shards;
    say(format!(
        "tune {} games {} depth {} opening plies {} seed {} from {} ({n} shards)",
        manifest.variant,
        manifest.games,
        manifest.depth,
        manifest.opening_plies,
        manifest.seed,
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
            run.missing.1, run.missing_games, manifest.games
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
fn say_positions(samples: &[awari::engine::tune::Sample], started: std::time::Instant) {
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
    samples: &[awari::engine::tune::Sample],
    start: &awari::engine::eval::Weights,
    steps: usize,
) {
    use awari::engine::eval::WEIGHTS;
    use awari::engine::tune::{fit, fitted};
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

/// `awari book build`: the whole book, one shard of it, or the merge of the shards'.
fn run_book(args: &BookArgs, matches: Option<&ArgMatches>) -> Result<(), String> {
    use awari::engine::book::BuildOptions;
    use awari::engine::jobs::{book_manifest, book_merge, book_shard, BOOK_MANIFEST};
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let shard = shard_of(args.shard.as_deref(), args.out_dir.as_deref())?;
    let started = std::time::Instant::now();
    let progress = |done: usize, total: usize| {
        if done % 20 == 0 || done == total {
            eprintln!("book: {done} of {total} positions");
        }
    };
    if let Some(dir) = &args.from {
        let out = args.out.as_deref().ok_or("--from needs --out FILE")?;
        let manifest = book_manifest(dir)?;
        let settings = [
            ("variant", args.variant.to_string()),
            ("plies", args.plies.to_string()),
            ("depth", args.depth.to_string()),
            ("games", args.games.to_string()),
            ("game_depth", args.game_depth.to_string()),
            ("explore", args.explore.to_string()),
            ("seed", args.seed.to_string()),
        ];
        awari::outdir::check_given(
            &dir.join(BOOK_MANIFEST),
            &manifest,
            &given(matches, &settings),
        )?;
        let book = book_merge(dir, &manifest)?;
        return write_book(&book, &manifest.options()?, out, started);
    }
    let options = BuildOptions {
        variant: args.variant,
        plies: args.plies as usize,
        depth: args.depth,
        games: args.games as usize,
        game_depth: args.game_depth,
        explore: args.explore,
        seed: args.seed,
    };
    if let Some(dir) = &args.out_dir {
        return book_shard(dir, shard, &options, threads, &progress, &mut say);
    }
    let out = args
        .out
        .as_deref()
        .ok_or("give --out FILE (or --out-dir DIR)")?;
    let mut book = awari::engine::book::build(
        options.variant,
        options.plies,
        options.depth,
        threads,
        &progress,
    );
    eprintln!(
        "book: searched in {:.1} s; {} self-play games at depth {}",
        started.elapsed().as_secs_f64(),
        options.games,
        options.game_depth
    );
    book.play_games(
        options.games,
        options.game_depth,
        options.explore,
        options.seed,
        threads,
    );
    write_book(&book, &options, out, started)
}

/// Writes `book` to `out` (whole: under a temporary name, then renamed) and says so.
fn write_book(
    book: &awari::engine::book::Book,
    options: &awari::engine::book::BuildOptions,
    out: &Path,
    started: std::time::Instant,
) -> Result<(), String> {
    let text = book.to_text(&options.header());
    let tmp = out.with_extension("tmp");
    std::fs::write(&tmp, &text)
        .and_then(|()| std::fs::rename(&tmp, out))
        .map_err(|e| format!("{}: {e}", out.display()))?;
    say(format!(
        "book: {} positions, {} bytes, {:.1} s -> {}",
        text.lines().filter(|l| !l.starts_with('#')).count(),
        text.len(),
        started.elapsed().as_secs_f64(),
        out.display()
    ));
    Ok(())
}

fn run_perft(args: &PerftArgs) -> Result<(), String> {
    let game = setup(args)?;
    say(format!(
        "perft {} depth {} from {}",
        args.variant,
        args.depth,
        game.board()
    ));
    if let Some(outcome) = game.outcome() {
        say(format!("game over: {outcome}"));
    }
    perft_lines(&game, args.depth, &Control::new(false), &mut say);
    Ok(())
}

/// Prints a line; a closed stdout (`awari bench | head -1`) ends the program quietly instead
/// of panicking as `println!` would.
fn say(line: String) {
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
}

fn run_play(args: &PlayArgs) -> Result<(), String> {
    use awari::human::{play, Options};
    let opponent = match args.opponent {
        None if args.variant == Variant::Ahl => Opponent::Basic,
        None => Opponent::Engine,
        Some(o) => o,
    };
    let computer_first = args.first == First::Computer;
    let depth = args
        .depth
        .unwrap_or(if opponent == Opponent::Evolved { 7 } else { 8 })
        .clamp(1, 60);
    let start = match &args.fen {
        Some(text) => {
            let board =
                Board::from_notation(args.variant, text).map_err(|e| format!("--fen: {e}"))?;
            if board.outcome().is_some() {
                return Err("--fen: that game is already over".to_string());
            }
            Some(board)
        }
        None => None,
    };
    let options = Options {
        start,
        variant: args.variant,
        opponent,
        depth,
        computer_first,
        learn_file: args.learn_file.clone(),
        seed: args.seed,
    };
    let stdout = std::io::stdout();
    match play(std::io::stdin().lock(), stdout.lock(), &options) {
        Ok(()) => Ok(()),
        // A closed terminal or pipe ends the game quietly.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(e.to_string()),
    }
}

fn tables_dir(dir: Option<PathBuf>) -> Result<PathBuf, String> {
    dir.or_else(awari::tables::probe::default_dir)
        .ok_or_else(|| "no data directory on this platform: name one with --dir".to_string())
}

fn run_tables(command: TablesCommand) -> Result<(), String> {
    use awari::tables::build::{build, BuildOptions};
    use awari::tables::probe::{probe_lines, supported};
    use awari::tables::Tables;
    use std::io::IsTerminal;
    match command {
        TablesCommand::Build {
            variant,
            seeds,
            threads,
            dir,
        } => {
            let options = BuildOptions {
                variant,
                seeds,
                threads: threads.unwrap_or_else(|| {
                    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
                }),
                dir: tables_dir(dir)?,
                bars: std::io::stderr().is_terminal(),
            };
            build(&options, &mut std::io::stdout().lock()).map_err(|e| e.to_string())?;
            Ok(())
        }
        TablesCommand::Probe {
            variant,
            dir,
            fen,
            moves,
        } => {
            if !supported(variant) {
                return Err(format!(
                    "--variant {variant}: tables exist for oware and kalah"
                ));
            }
            let dir = tables_dir(dir)?;
            let board = Board::from_notation(variant, &fen).map_err(|e| format!("--fen: {e}"))?;
            let mut game = Game::new(board);
            if let Some(moves) = &moves {
                game.play_text(moves).map_err(|e| format!("--moves: {e}"))?;
            }
            let tables = Tables::open(&dir, variant);
            for problem in tables.problems() {
                eprintln!("warning: {problem}");
            }
            for line in probe_lines(&tables, &game)? {
                say(line);
            }
            Ok(())
        }
    }
}
