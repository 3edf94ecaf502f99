//! The `awari` command line: its flags (with `clap`) and the dispatch to the jobs they start.
//! With no command it is the engine ([`crate::uci::run`] on stdin/stdout). Each command
//! family has a private module of its own (`perft`, `play`, `tune`, `book`, `tables`, `solve`,
//! `datagen`, `train`, `puzzles`; `bench` is one call to [`crate::search::bench::bench`]), and `sharded` holds what the two jobs run
//! in shards on a cluster, tune and book, share. `src/bin/awari.rs` only calls [`main`], so
//! the parsing and the runners are library code, as the referee's are ([`crate::referee::cli`]).

mod book;
mod datagen;
mod perft;
mod play;
mod puzzles;
mod serve;
mod sharded;
mod solve;
mod tables;
mod train;
mod tune;

use crate::search::bench::bench;
use crate::search::Control;
use crate::sys::stderr;
use crate::uci::options::MAX_THREADS;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

// The doc comments of the clap types here and in the command modules are the help text, printed
// as written: a change to one is a change to `awari --help`.
#[derive(Parser)]
#[command(
    name = "awari",
    version = crate::sys::conventions::VERSION,
    about = "An Awari engine: oware, awari, ahl, kalah, ayoayo and kalah-empty",
    after_help = "With no command, awari is the engine: it speaks the UCI-like line protocol of\n\
                  protocol.md on stdin/stdout, e.g.\n  \
                  printf 'position startpos moves FfEa\\ngo depth 12\\n' | awari\n\
                  Positions use the notation of doc/rules.md, e.g. 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S.\n\
                  Examples: awari play; awari bench; awari bench --threads 2;\n  \
                  awari perft --variant oware --depth 11;\n  \
                  awari solve --variant kalah --seeds 3 (prove a position's exact value);\n  \
                  awari tables build (endgame tables; the engine then finds them by itself);\n  \
                  awari tune --variant kalah --games 10000 --depth 8 (refit a rule set's weights;\n  \
                  add --tables DIR to end the games with the endgame tables' results);\n  \
                  awari book build --plies 3 --line-plies 8 --depth 20 --games 8000 --out book.txt;\n  \
                  on a cluster, each task of a job array: awari tune ... --shard auto --out-dir\n  \
                  /shared/tune, then once: awari tune --from /shared/tune (doc/cluster.md)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the game tree at exactly DEPTH plies, per root move (divide).
    Perft(perft::PerftArgs),
    /// Play against the computer in the terminal, as in the 1978 BASIC program.
    Play(play::PlayArgs),
    /// Search the fixed bench positions; prints nodes (a signature of the search) and speed.
    Bench {
        /// Search every position to this depth instead of its own (1 to the search's deepest
        /// iteration, 100).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::search::MAX_DEPTH)))]
        depth: Option<u32>,
        /// Probe the endgame tables of this directory (oware and kalah positions).
        #[arg(long)]
        tables: Option<PathBuf>,
        /// Search threads (lazy SMP); above 1 the node count varies from run to run.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS))]
        threads: u16,
        /// Evaluate oware with the hand evaluation's terms instead of the network (as
        /// `setoption name UseNetwork value false`).
        #[arg(long)]
        terms: bool,
    },
    /// Fit the evaluation's weights to self-play games (the Texel method); prints the weights
    /// as engine options, the data size and the fit's error.
    Tune(tune::TuneArgs),
    /// The opening book: build it.
    #[command(subcommand)]
    Book(book::BookCommand),
    /// Self-play positions for training the evaluation's network (doc/network.md).
    Datagen(datagen::DatagenArgs),
    /// Fit the evaluation's network to datagen's positions; writes its weights file.
    Train(train::TrainArgs),
    /// Endgame tables: build them, or look a position up.
    #[command(subcommand)]
    Tables(tables::TablesCommand),
    /// Prove a kalah or ahl position's exact value (the final seed margin with best play);
    /// prints it with a line of best play, nodes and time. Ctrl-C stops with the bounds proven.
    Solve(solve::SolveArgs),
    /// Print a shell completion script: awari completions bash|zsh|fish.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: crate::sys::conventions::Shell,
    },
    /// Write the manual pages (awari.1 and one per subcommand) into DIR.
    Man {
        /// An existing directory, e.g. ~/.local/share/man/man1.
        dir: PathBuf,
    },
    /// Puzzles from game records: positions right after a mistake where exactly one move keeps
    /// the result the endgame tables prove; written one a line (doc/formats.md).
    Puzzles(puzzles::PuzzlesArgs),
    /// Play, watch and analyse in a web browser: a local server for one page (doc/serve.md).
    Serve(serve::ServeArgs),
}

/// The `awari` command: parses the command line (a usage error exits with clap's status 2),
/// runs the command and returns its exit status: 0, or 2 after an `error:` line on stderr when
/// a command's input is refused or its work fails; the engine's 1 when its input cannot be
/// read.
pub fn main() -> ExitCode {
    // The matches are kept beside the parsed `Cli`: `tune --from` and `book build --from` ask
    // them which settings the command line gave.
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    match cli.command {
        Some(Command::Perft(args)) => report(perft::run(&args)),
        Some(Command::Tune(args)) => report(tune::run(&args, matches.subcommand_matches("tune"))),
        Some(Command::Play(args)) => report(play::run(&args)),
        Some(Command::Datagen(args)) => report(datagen::run(&args)),
        Some(Command::Puzzles(args)) => report(puzzles::run(&args)),
        Some(Command::Train(args)) => report(train::run(&args)),
        Some(Command::Book(book::BookCommand::Build(args))) => {
            let matches = matches
                .subcommand_matches("book")
                .and_then(|m| m.subcommand_matches("build"));
            report(book::run(&args, matches))
        }
        Some(Command::Tables(command)) => report(tables::run(command)),
        Some(Command::Completions { shell }) => {
            crate::sys::conventions::print_completions(Cli::command(), shell);
            ExitCode::SUCCESS
        }
        Some(Command::Man { dir }) => report(
            crate::sys::conventions::write_man_pages(Cli::command(), &dir).map(|pages| {
                for page in pages {
                    say(page.display().to_string());
                }
            }),
        ),
        Some(Command::Solve(args)) => match solve::run(&args) {
            Ok(code) => code,
            Err(message) => report(Err(message)),
        },
        Some(Command::Serve(args)) => {
            report(serve::run(&args, matches.subcommand_matches("serve")))
        }
        Some(Command::Bench {
            depth,
            tables,
            threads,
            terms,
        }) => {
            if let Some(dir) = tables.as_deref().filter(|d| !d.is_dir()) {
                return report(Err(format!(
                    "--tables {}: no such directory",
                    dir.display()
                )));
            }
            let evaluator = if terms {
                crate::search::eval::Evaluator::terms
            } else {
                crate::search::eval::Evaluator::engine
            };
            bench(
                depth,
                tables.as_deref(),
                usize::from(threads),
                evaluator,
                &Control::new(false),
                &mut say,
            );
            ExitCode::SUCCESS
        }
        None => match crate::uci::run(std::io::stdin().lock(), std::io::stdout()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                stderr::line(format_args!("error: {e}"));
                ExitCode::FAILURE
            }
        },
    }
}

/// A command's end: success, or its error on stderr and status 2, clap's status for a usage
/// error, since most are input the command refused (a bad `--fen`, a shard's file missing).
fn report(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            stderr::line(format_args!("error: {message}"));
            ExitCode::from(2)
        }
    }
}

/// The position a command starts from: `--fen`, `--seeds` and `--moves` (perft and solve).
#[derive(clap::Args)]
struct Start {
    /// Start from this position instead of the variant's start (notation of doc/rules.md).
    #[arg(long)]
    fen: Option<String>,
    /// Moves to play first, concatenated (FfEa) or spaced ("F f E a").
    #[arg(long)]
    moves: Option<String>,
    /// Seeds per house in the start position (1-21), e.g. 3 for Kalah(6,3).
    #[arg(long, conflicts_with = "fen")]
    seeds: Option<u32>,
}

impl Start {
    /// The game asked for in `variant`: the position given, else a start with that many seeds
    /// a house, else the start; then the moves.
    fn game(&self, variant: crate::rules::Variant) -> Result<crate::rules::Game, String> {
        use crate::rules::{Board, Game};
        let start = match (&self.fen, self.seeds) {
            (Some(fen), _) => {
                Board::from_notation(variant, fen).map_err(|e| format!("--fen: {e}"))?
            }
            (None, Some(seeds)) => {
                Board::start_with_seeds(variant, seeds).map_err(|e| format!("--seeds: {e}"))?
            }
            (None, None) => Board::start(variant),
        };
        let mut game = Game::new(start);
        if let Some(moves) = &self.moves {
            game.play_text(moves).map_err(|e| format!("--moves: {e}"))?;
        }
        Ok(game)
    }
}

/// Prints a line; a closed stdout (`awari bench | head -1`) ends the program quietly instead
/// of panicking as `println!` would.
fn say(line: String) {
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
}

/// The endgame tables a self-play tool's `--tables` names, opened and said (their problems as
/// warnings, their reach); an error for a rule set without tables or a directory without them.
fn open_tables(
    dir: Option<&std::path::Path>,
    variant: crate::rules::Variant,
) -> Result<Option<crate::tables::Tables>, String> {
    let Some(dir) = dir else {
        return Ok(None);
    };
    if !crate::tables::probe::supported(variant) {
        return Err(format!(
            "--tables: there are endgame tables for oware and kalah only, not {variant}"
        ));
    }
    let tables = crate::tables::Tables::open(dir, variant);
    for problem in tables.problems() {
        say(format!("warning: tables: {problem}"));
    }
    let reach = tables.reach().ok_or_else(|| {
        format!(
            "--tables {}: no {variant} tables there (awari tables build --variant {variant} --dir ...)",
            dir.display()
        )
    })?;
    say(format!("tables to {reach} seeds from {}", dir.display()));
    Ok(Some(tables))
}

/// A file of an endgame tables directory: a layer's table (`oware-12.awtb`) or paths file
/// (`oware-12.awpv`), for [`crate::sys::outputs`].
fn is_table_file(name: &str) -> bool {
    name.ends_with(".awtb") || name.ends_with(".awpv")
}

/// Checks the files and directories a command reads and writes against each other, and that
/// it can create its outputs, before it reads or writes any
/// ([`crate::sys::outputs::Files::check`]); what it returns is held until the outputs are
/// written.
fn check_files(
    build: impl FnOnce(&mut crate::sys::outputs::Files),
) -> Result<crate::sys::outputs::Held, String> {
    let mut files = crate::sys::outputs::Files::default();
    build(&mut files);
    files.check()
}
