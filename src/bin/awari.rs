//! The `awari` command: with no arguments it speaks the engine protocol on stdin/stdout
//! (`engine::run`); `awari bench` measures the search, `awari perft` counts the game tree,
//! `awari play` plays a person in the terminal (`human`), `awari tables` builds and probes the
//! endgame tables. Only argument parsing lives here; the work is in the library.

use awari::engine::bench::{bench, perft_lines};
use awari::engine::options::Opponent;
use awari::engine::search::Control;
use awari::rules::{Board, Game, Variant};
use clap::{Parser, Subcommand};
use std::io::Write;
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
                  awari book build --plies 3 --depth 22 --games 4000 --out book.txt"
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
        tables: Option<std::path::PathBuf>,
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
    /// the book (the shipped one is book/oware.txt).
    Build {
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
        /// The file to write.
        #[arg(long)]
        out: std::path::PathBuf,
    },
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
        dir: Option<std::path::PathBuf>,
    },
    /// Print a position's table value, then the value each legal move leads to.
    Probe {
        /// Rule set: oware or kalah.
        #[arg(long, default_value = "oware")]
        variant: Variant,
        /// Directory of the layer files (default: as for build).
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
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
    learn_file: Option<std::path::PathBuf>,
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
    tables: Option<std::path::PathBuf>,
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
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft(args)) => match run_perft(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("error: {message}");
                ExitCode::from(2)
            }
        },
        Some(Command::Tune(args)) => match run_tune(&args) {
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
        Some(Command::Book(BookCommand::Build {
            variant,
            plies,
            depth,
            games,
            game_depth,
            explore,
            seed,
            threads,
            out,
        })) => {
            let threads = threads.map_or_else(
                || std::thread::available_parallelism().map_or(1, |n| n.get()),
                usize::from,
            );
            let started = std::time::Instant::now();
            let mut book = awari::engine::book::build(
                variant,
                plies as usize,
                depth,
                threads,
                &|done, total| {
                    if done % 20 == 0 || done == total {
                        eprintln!("book: {done} of {total} positions");
                    }
                },
            );
            eprintln!(
                "book: searched in {:.1} s; {games} self-play games at depth {game_depth}",
                started.elapsed().as_secs_f64()
            );
            book.play_games(games as usize, game_depth, explore, seed, threads);
            let text = book.to_text(&format!(
                "awari opening book v2: {variant}, every position up to {plies} plies, each move \
                 searched to depth {depth} (score for the side to move, 100 = one seed); \
                 {games} self-play games (book moves within {explore} of the best at random, then \
                 depth {game_depth}, seed {seed}): wins/draws/losses of the side to move"
            ));
            let tmp = out.with_extension("tmp");
            match std::fs::write(&tmp, &text).and_then(|()| std::fs::rename(&tmp, &out)) {
                Ok(()) => {
                    say(format!(
                        "book: {} positions, {} bytes, {:.1} s -> {}",
                        text.lines().filter(|l| !l.starts_with('#')).count(),
                        text.len(),
                        started.elapsed().as_secs_f64(),
                        out.display()
                    ));
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {}: {e}", out.display());
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

fn run_tune(args: &TuneArgs) -> Result<(), String> {
    use awari::engine::eval::{Weights, WEIGHTS};
    use awari::engine::tune::{fit, fitted, self_play, TuneOptions};
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
    say(format!(
        "tune {} games {} depth {} opening plies {} seed {} threads {threads}",
        args.variant, args.games, args.depth, args.opening_plies, args.seed
    ));
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
    let samples = self_play(&options, &shipped, tables.as_ref());
    let results = |r: f64| samples.iter().filter(|s| s.result == r).count();
    say(format!(
        "positions {} (labelled: {} won, {} drawn, {} lost by the side to move) in {:.1} s",
        samples.len(),
        results(1.0),
        results(0.5),
        results(0.0),
        started.elapsed().as_secs_f64()
    ));
    let found = fit(&samples, &shipped, args.steps as usize);
    say(format!(
        "K {:.4}; mean squared error {:.6} with the defaults, {:.6} fitted",
        found.k, found.error_before, found.error_after
    ));
    for (weight, fitted) in WEIGHTS.iter().zip(fitted(&samples)) {
        if fitted {
            let value = (weight.get)(&found.weights);
            say(format!("setoption name {} value {value}", weight.option));
        }
    }
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

fn tables_dir(dir: Option<std::path::PathBuf>) -> Result<std::path::PathBuf, String> {
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
