//! The `referee` command line: its flags (with `clap`, every number range-checked) and the
//! jobs they start (a match, a tournament, `check`, `evolve`, `merge`, `report`).
//! `src/bin/referee.rs` only calls [`main`].
//!
//! This file holds the grammar, every flag of every command (what `--help` prints), and the
//! dispatch; each job has a file of its own: `play.rs` the match or tournament, `check.rs`,
//! `evolve.rs`, `merge.rs` and `report.rs` the subcommands, and `parse.rs` the values written
//! inside the flags (time controls, engine words, SPRT parameters). Every command checks that
//! no file it writes is another it reads or writes with [`crate::sys::outputs`], as `awari`'s
//! commands do.
//!
//! With no `--engine` it plays the `awari` engine built beside it at depth 8 against the
//! evolved player (a classic opponent, through the same engine's `Opponent` option): a short
//! match that shows the whole machinery.

use super::game::Scoring;
use super::runner::Restart;
use super::tournament::Format;
use crate::rules::Variant;
use clap::{CommandFactory, FromArgMatches, Parser};
use std::path::PathBuf;
use std::process::ExitCode;

/// `println!` that never panics: when standard output is gone (`referee | head`), the match
/// goes on and its records are still written.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

mod check;
mod evolve;
mod merge;
mod parse;
mod play;
mod report;

pub use crate::client::words::{parse_tc, MAX_DEPTH, MAX_MOVES_PER_PERIOD, MAX_SECONDS};
pub use parse::{contestant, parse_sprt};
pub use play::shuffle;
/// Most games at once: each is two engines, each with three threads and three pipes.
pub const MAX_CONCURRENCY: usize = 128;

const EXAMPLES: &str = "Examples:
  referee                                   a short match: awari (depth 8) against the evolved player
  referee --engine cmd=./a name=A option.Hash=64 --engine cmd=./b name=B \\
          --variant oware --games 100 --tc 10+0.1 --concurrency 2 --pgnout games.pgn
  referee --engine cmd=./a name=A --engine cmd=./b name=B --games 10000 --tc 10+0.1 \\
          --sprt elo0=0 elo1=5 --shard auto --out-dir /shared/m1
                                            one task of a Slurm job array (tournament/slurm/)
  referee merge /shared/m1                  the whole match's report, once the shards are done
  referee report games.jsonl --html report.html
                                            a page: the result, plots and every game, offline
Engine keys: cmd=PATH (required), name=N, dir=D, arg=A (repeatable), option.NAME=VALUE,
and a time control of its own: tc=..., movetime=MS, depth=D or nodes=N.
Time controls: tc=[moves/]seconds[+increment] (10+0.1, 40/60, 60+1), or --movetime, --depth, --nodes.";

/// Opening order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Order {
    /// The suite's order.
    #[default]
    Sequential,
    /// Shuffled with `--seed`.
    Random,
}

#[derive(Parser)]
#[command(
    name = "referee",
    version = crate::sys::conventions::VERSION,
    about = "Engine-vs-engine matches for awari engines",
    after_help = EXAMPLES,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    sub: Option<Sub>,
    /// An engine, as KEY=VALUE words (give two); without any, the built-in match.
    #[arg(long = "engine", num_args = 1.., value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
    engine: Vec<String>,
    /// Rule set: oware, awari, ahl, kalah, ayoayo or kalah-empty.
    #[arg(long, default_value = "oware")]
    variant: Variant,
    /// Games to play, rounded up to whole pairs [default: 100; 20 in the built-in match].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    games: Option<u64>,
    /// Clock: [moves/]seconds[+increment], e.g. 10+0.1.
    #[arg(long)]
    tc: Option<String>,
    /// Fixed milliseconds per move.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=604_800_000))]
    movetime: Option<u64>,
    /// Fixed depth per move.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
    depth: Option<u32>,
    /// Fixed nodes per move.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Milliseconds an engine's clock may run below zero before it loses on time.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    timemargin: u64,
    /// Scoring at the move limit: rules (awari by the stores, the others with each side's
    /// row added), stores, or rows.
    #[arg(long = "move-limit-scoring", value_enum, default_value_t = Scoring::Rules)]
    move_limit_scoring: Scoring,
    /// Milliseconds allowed for `uciok`, `readyok` and a depth- or node-limited move.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    timeout: u64,
    /// The game ends at this ply, adjudicated (`--max-moves` is accepted as another name).
    #[arg(long = "max-plies", alias = "max-moves", default_value_t = 250, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    max_plies: u64,
    /// Opening suite (one per line: a move list, or a position with optional moves).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Opening order: sequential (the file's order) or random (shuffled with --seed).
    #[arg(long = "openings-order", value_enum, default_value_t = Order::Sequential)]
    openings_order: Order,
    /// Seed for the random opening order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_CONCURRENCY as u64))]
    concurrency: u64,
    /// When an engine process is replaced: auto (after a fault of its own; otherwise kept
    /// from game to game) or always (fresh processes for every game).
    #[arg(long, value_enum, default_value_t = Restart::Auto)]
    restart: Restart,
    /// PGN file the games are appended to.
    #[arg(long)]
    pgnout: Option<PathBuf>,
    /// JSON lines file the games are appended to (one line per game).
    #[arg(long)]
    jsonout: Option<PathBuf>,
    /// Directory for each game's engine stderr and protocol exchange (created if missing).
    #[arg(long = "log-dir")]
    log_dir: Option<PathBuf>,
    /// With more than two engines: round-robin (everyone plays everyone) or gauntlet (the
    /// first engine plays each of the others).
    #[arg(long, value_enum, default_value_t = Format::RoundRobin)]
    tournament: Format,
    /// Continue the match recorded in --jsonout, skipping the games it holds.
    #[arg(long, requires = "jsonout", conflicts_with = "out_dir")]
    resume: bool,
    /// A directory for the match's records (shared by all its shards): match.json, then
    /// shard-K-of-N.jsonl and .pgn; a run started again resumes its own shard's file.
    /// `referee merge DIR` reports the whole match.
    #[arg(long = "out-dir", conflicts_with_all = ["jsonout", "pgnout"])]
    out_dir: Option<PathBuf>,
    /// Play only one shard of the match, for a cluster: K/N (K from 0 to N-1), auto (a Slurm
    /// job array: SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN of SLURM_ARRAY_TASK_COUNT) or
    /// auto/N (a Kubernetes Indexed Job: JOB_COMPLETION_INDEX of N). Needs --out-dir.
    #[arg(long, requires = "out_dir", value_name = "K/N|auto|auto/N")]
    shard: Option<String>,
    /// SPRT on game pairs in normalized Elo: elo0=0 elo1=5 alpha=0.05 beta=0.05.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    sprt: Option<Vec<String>>,
    /// An HTML report page (result, plots, every game), written again after each game.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

#[derive(clap::Subcommand)]
enum Sub {
    /// Compliance test of an engine: handshake, isready during a search, stop, bad input, go
    /// arguments in any order, a middle-game position, quit. Exit status 0 when every check
    /// passes, 1 otherwise.
    Check {
        /// Rule set to test in.
        #[arg(long, default_value = "oware")]
        variant: Variant,
        /// The engine's command and its arguments.
        #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
        command: Vec<String>,
    },
    /// The evolved player's co-evolution (the paper's defaults): round robins of a population
    /// of weight vectors, the best survive and make mutated children.
    Evolve(EvolveArgs),
    /// The report of a match (or tournament) played in shards into one --out-dir: the same
    /// lines the unsharded match prints, and DIR/merged.jsonl and DIR/merged.pgn in round
    /// order. Exit status 0 when every game is there (or the SPRT decided), 1 when some are
    /// missing, 2 when the directory holds no match or records of another match.
    Merge {
        /// The --out-dir of the match or tournament.
        dir: PathBuf,
        /// Also an HTML report page of the whole run (as `referee report DIR --html FILE`).
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
    },
    /// An HTML page of matches already played: the result, plots and a viewer of every
    /// game, in one file that needs no network; each match's final lines are printed too. RECORDS are --jsonout files (a shard's,
    /// merged.jsonl) or --out-dir directories of sharded matches and tournaments; their games
    /// are grouped into matches by engines and rule set.
    Report {
        /// JSON lines files or --out-dir directories.
        #[arg(required = true)]
        records: Vec<PathBuf>,
        /// The page to write (replaced whole).
        #[arg(long, value_name = "FILE", required = true)]
        html: PathBuf,
        /// The SPRT to show the LLR of (without it, the one the match ran, which its records
        /// and its directory carry): elo0=0 elo1=5 alpha=0.05 beta=0.05.
        #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
        sprt: Option<Vec<String>>,
    },
    /// Print a shell completion script: referee completions bash|zsh|fish.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: crate::sys::conventions::Shell,
    },
    /// Write the manual pages (referee.1 and one per subcommand) into DIR.
    Man {
        /// An existing directory, e.g. ~/.local/share/man/man1.
        dir: PathBuf,
    },
}

#[derive(clap::Args)]
struct EvolveArgs {
    /// Rule set: awari (the paper's) or oware.
    #[arg(long, default_value = "awari")]
    variant: Variant,
    /// Members per generation.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(2..=1000))]
    population: u64,
    /// Members kept each generation (each makes the children that refill the population).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=1000))]
    survivors: u64,
    /// Generations.
    #[arg(long, default_value_t = 250, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    generations: u64,
    /// Search depth of every player.
    #[arg(long, default_value_t = crate::classic::evolved::DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
    /// Plies after which a game is scored on the stores.
    #[arg(long = "max-plies", alias = "max-moves", default_value_t = 250, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    max_plies: u64,
    /// Seed of the initial weights and the mutations.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (default: the machine's cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    concurrency: Option<u64>,
    /// Per-generation log file (appended).
    #[arg(long)]
    log: Option<PathBuf>,
    /// Where the best weights are written.
    #[arg(long, default_value = "evolved-weights.txt")]
    out: PathBuf,
    /// A directory shared by the evolution's shards: each generation's results go there.
    #[arg(long = "out-dir")]
    out_dir: Option<PathBuf>,
    /// Play only one shard of each generation's round robin: K/N, auto or auto/N, as for a
    /// match; every shard makes the same generations. Needs --out-dir.
    #[arg(long, requires = "out_dir", value_name = "K/N|auto|auto/N")]
    shard: Option<String>,
}

/// The `referee` program.
pub fn main() -> ExitCode {
    // The derive API flattens repeated `--engine` groups; the matches keep each occurrence.
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    match &cli.sub {
        Some(Sub::Check { variant, command }) => return check::check(*variant, command),
        Some(Sub::Evolve(args)) => return evolve::evolve(args),
        Some(Sub::Merge { dir, html }) => return merge::merge(dir, html.as_deref()),
        Some(Sub::Report {
            records,
            html,
            sprt,
        }) => return report::report(records, html, sprt.as_deref()),
        Some(Sub::Completions { shell }) => {
            crate::sys::conventions::print_completions(Cli::command(), *shell);
            return ExitCode::SUCCESS;
        }
        Some(Sub::Man { dir }) => {
            return match crate::sys::conventions::write_man_pages(Cli::command(), dir) {
                Ok(pages) => {
                    for page in pages {
                        say!("{}", page.display());
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    crate::sys::stderr::line(format_args!("error: {e}"));
                    ExitCode::from(2)
                }
            };
        }
        None => {}
    }
    let engines: Vec<Vec<String>> = matches
        .get_occurrences::<String>("engine")
        .map(|groups| groups.map(|g| g.cloned().collect()).collect())
        .unwrap_or_default();
    let result = play::run(cli, engines);
    // The games fail once an interrupt kills their engines, and the match may end before the
    // interrupt thread has finished its cleanup: it ends the process itself, with status 130.
    while crate::sys::registry::interrupted() {
        std::thread::park();
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Error::Usage(e)) => {
            crate::sys::stderr::line(format_args!("error: {e}"));
            ExitCode::from(2)
        }
        Err(Error::Run(e)) => {
            crate::sys::stderr::line(format_args!("error: {e}"));
            ExitCode::from(1)
        }
    }
}

/// Why the referee stopped: what it was given (exit status 2), or what happened (1).
enum Error {
    Usage(String),
    Run(String),
}

impl From<String> for Error {
    fn from(e: String) -> Error {
        Error::Usage(e)
    }
}

/// An engine's words, a time control, an engine that cannot start: what the referee was
/// given.
impl From<crate::client::words::WordError> for Error {
    fn from(e: crate::client::words::WordError) -> Error {
        Error::Usage(e.to_string())
    }
}

/// A shard named wrong, a directory of another job: what the referee was given.
impl From<crate::cluster::Error> for Error {
    fn from(e: crate::cluster::Error) -> Error {
        Error::Usage(e.to_string())
    }
}
