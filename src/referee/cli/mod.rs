//! The `referee` command line: its flags (with `clap`, every number range-checked), the
//! parsers of time controls, engine words and SPRT parameters, and the jobs they start (a
//! match, a tournament, `check`, `evolve`). `src/bin/referee.rs` only calls [`main`].
//!
//! With no `--engine` it plays the `awari` engine built beside it at depth 8 against the
//! evolved player (a classic opponent, through the same engine's `Opponent` option): a short
//! match that shows the whole machinery.

use super::game::{Limit, Scoring};
use super::merge;
use super::outdir::{self, Manifest, Union};
use super::process::{become_subreaper, install_interrupt_handler, Spec};
use super::records::{GameRecord, Sink};
use super::report::{data::MatchRecords, Live};
use super::resume::Schedule;
use super::runner::{self, Config, Contestant, Opening, Output, Restart, Sprt};
use super::tournament::{self, Kind, Standings};
use crate::cluster::shard::Shard;
use crate::rules::Variant;
use clap::{CommandFactory, FromArgMatches, Parser};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// `println!` that never panics: when standard output is gone (`referee | head`), the match
/// goes on and its records are still written.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// Longest clock period, increment or move time: a week, in seconds.
pub const MAX_SECONDS: f64 = 7.0 * 86_400.0;
/// Deepest fixed depth.
pub const MAX_DEPTH: u32 = 1000;
/// Most moves per clock period.
pub const MAX_MOVES_PER_PERIOD: u32 = 10_000;
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
    version,
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
    /// Rule set: oware, awari, ahl, kalah or ayoayo.
    #[arg(long, default_value = "oware")]
    variant: Variant,
    /// Games to play (rounded up to whole pairs).
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
    /// The game ends at this ply, adjudicated.
    #[arg(long = "max-moves", default_value_t = 250, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    max_moves: u64,
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
    #[arg(long, value_enum, default_value_t = Kind::RoundRobin)]
    tournament: Kind,
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
    /// game, in one file that needs no network. RECORDS are --jsonout files (a shard's,
    /// merged.jsonl) or --out-dir directories of sharded matches and tournaments; their games
    /// are grouped into matches by engines and rule set.
    Report {
        /// JSON lines files or --out-dir directories.
        #[arg(required = true)]
        records: Vec<PathBuf>,
        /// The page to write (replaced whole).
        #[arg(long, value_name = "FILE", required = true)]
        html: PathBuf,
        /// The SPRT to show the LLR of (a directory's match shows its own without it):
        /// elo0=0 elo1=5 alpha=0.05 beta=0.05.
        #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
        sprt: Option<Vec<String>>,
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
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
    /// Plies after which a game is scored on the stores.
    #[arg(long = "max-moves", default_value_t = 250, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    max_moves: u64,
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
        Some(Sub::Check { variant, command }) => return check(*variant, command),
        Some(Sub::Evolve(args)) => return evolve(args),
        Some(Sub::Merge { dir, html }) => return merge(dir, html.as_deref()),
        Some(Sub::Report {
            records,
            html,
            sprt,
        }) => return report(records, html, sprt.as_deref()),
        None => {}
    }
    let engines: Vec<Vec<String>> = matches
        .get_occurrences::<String>("engine")
        .map(|groups| groups.map(|g| g.cloned().collect()).collect())
        .unwrap_or_default();
    let result = run(cli, engines);
    // The games fail once an interrupt kills their engines, and the match may end before the
    // interrupt thread has finished its cleanup: it ends the process itself, with status 130.
    while super::process::interrupted() {
        std::thread::park();
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Error::Usage(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
        Err(Error::Run(e)) => {
            eprintln!("error: {e}");
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

fn evolve(args: &EvolveArgs) -> ExitCode {
    use crate::classic::evolve::{evolve, evolve_with, Config as EvolveConfig};
    use crate::classic::evolve_shared::Shared;
    use std::io::Write as _;
    if !crate::classic::evolved::supports(args.variant) {
        eprintln!(
            "error: --variant {}: the evolved player is for oware and awari",
            args.variant
        );
        return ExitCode::from(2);
    }
    if args.survivors > args.population {
        eprintln!("error: --survivors must be at most --population");
        return ExitCode::from(2);
    }
    let config = EvolveConfig {
        variant: args.variant,
        population: args.population as usize,
        survivors: args.survivors as usize,
        generations: args.generations as usize,
        depth: args.depth,
        max_plies: args.max_moves as usize,
        seed: args.seed,
        concurrency: args.concurrency.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |n| n as usize,
        ),
    };
    let mut log = match &args.log {
        Some(path) => match super::process::open_log(path) {
            Ok(f) => Some(f),
            Err(e) => {
                eprintln!("error: --log {}: {e}", path.display());
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    let header = format!(
        "# evolve {} population {} survivors {} generations {} depth {} max-moves {} seed {}",
        config.variant,
        config.population,
        config.survivors,
        config.generations,
        config.depth,
        config.max_plies,
        config.seed
    );
    say!("{header}");
    if let Some(f) = &mut log {
        let _ = writeln!(f, "{header}");
    }
    let started = std::time::Instant::now();
    let mut log_generation = |generation: usize, ranking: &crate::classic::evolve::Ranking| {
        let (best, points) = ranking[0];
        let mean = ranking.iter().map(|&(_, p)| f64::from(p)).sum::<f64>() / ranking.len() as f64;
        let line = format!(
            "generation {generation}/{} best {points} points (mean {mean:.1}) weights {best} [{:.0} s]",
            config.generations,
            started.elapsed().as_secs_f64()
        );
        say!("{line}");
        if let Some(f) = &mut log {
            let _ = writeln!(f, "{line}");
        }
    };
    let ranking = match &args.out_dir {
        None => evolve(&config, &mut log_generation),
        Some(dir) => {
            let shard = match &args.shard {
                Some(text) => match Shard::parse(text, &|k| std::env::var(k).ok()) {
                    Ok(shard) => shard,
                    Err(e) => {
                        eprintln!("error: {e}");
                        return ExitCode::from(2);
                    }
                },
                None => Shard::WHOLE,
            };
            let shared = match Shared::settle(dir, shard, &config) {
                Ok(shared) => shared,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            match evolve_with(
                &config,
                &mut |g, members| shared.round_robin(g, members),
                &mut log_generation,
            ) {
                Ok(ranking) => ranking,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(1);
                }
            }
        }
    };
    let best = ranking[0].0;
    let text = format!(
        "# evolved weights w1..w6 (a2 a3 b2 b3 as bs): {}\n{best}\n",
        header.trim_start_matches("# ")
    );
    // Every shard writes the same weights: whole, by rename.
    if let Err(e) = super::records::replace(&args.out, &text) {
        eprintln!("error: --out {}: {e}", args.out.display());
        return ExitCode::from(2);
    }
    say!("best weights written to {}", args.out.display());
    ExitCode::SUCCESS
}

fn check(variant: Variant, command: &[String]) -> ExitCode {
    become_subreaper();
    install_interrupt_handler();
    let spec = Spec {
        name: command[0].clone(),
        command: PathBuf::from(&command[0]),
        args: command[1..].to_vec(),
        ..Spec::default()
    };
    let (mut passed, mut failed) = (0, 0);
    let limits = super::check::Timeouts::default();
    let all = super::check::check(&spec, variant, limits, &mut |name, outcome| match outcome {
        Ok(detail) => {
            passed += 1;
            say!("PASS  {name}: {detail}");
        }
        Err(detail) => {
            failed += 1;
            say!("FAIL  {name}: {detail}");
        }
    });
    say!("{passed} passed, {failed} failed");
    if all {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Seconds as a duration, within `0..=MAX_SECONDS`.
fn seconds(text: &str) -> Option<Duration> {
    let v: f64 = text.parse().ok()?;
    if !(0.0..=MAX_SECONDS).contains(&v) {
        return None;
    }
    Duration::try_from_secs_f64(v).ok()
}

/// Parses `[moves/]seconds[+increment]`: 1 to 10,000 moves, a period of more than 0 and at
/// most a week, an increment of at most a week.
pub fn parse_tc(text: &str) -> Result<Limit, String> {
    let bad = || {
        format!(
            "tc {text}: expected [moves/]seconds[+increment], e.g. 10+0.1 (moves 1 to \
             {MAX_MOVES_PER_PERIOD}, seconds above 0 and at most {MAX_SECONDS})"
        )
    };
    let (moves, rest) = match text.split_once('/') {
        Some((m, r)) => {
            let m = m.parse::<u32>().map_err(|_| bad())?;
            if !(1..=MAX_MOVES_PER_PERIOD).contains(&m) {
                return Err(bad());
            }
            (Some(m), r)
        }
        None => (None, text),
    };
    let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
    let base = seconds(base).ok_or_else(bad)?;
    if base.is_zero() {
        return Err(bad());
    }
    Ok(Limit::Clock {
        moves,
        base,
        inc: seconds(inc).ok_or_else(bad)?,
    })
}

/// A number of `what` within `range`, or an error naming the word.
fn number<T>(word: &str, value: &str, range: std::ops::RangeInclusive<T>) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    match value.parse::<T>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(format!(
            "{word}: expected a whole number from {} to {}",
            range.start(),
            range.end()
        )),
    }
}

/// The match-wide limit from the flags; at most one kind.
fn global_limit(cli: &Cli, default: Limit) -> Result<Limit, String> {
    let mut limits = Vec::new();
    if let Some(tc) = &cli.tc {
        limits.push(parse_tc(tc).map_err(|e| format!("--{e}"))?);
    }
    if let Some(ms) = cli.movetime {
        limits.push(Limit::MoveTime(Duration::from_millis(ms)));
    }
    if let Some(d) = cli.depth {
        limits.push(Limit::Depth(d));
    }
    if let Some(n) = cli.nodes {
        limits.push(Limit::Nodes(n));
    }
    match limits.len() {
        0 => Ok(default),
        1 => Ok(limits[0]),
        _ => Err("give one of --tc, --movetime, --depth, --nodes".to_string()),
    }
}

/// An engine from its KEY=VALUE words; `limit` unless it names its own.
pub fn contestant(words: &[String], limit: Limit) -> Result<Contestant, String> {
    let mut spec = Spec::default();
    let mut own_limit = None;
    for word in words {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("--engine {word}: expected KEY=VALUE"))?;
        let w = format!("--engine {word}");
        match key {
            "cmd" => spec.command = PathBuf::from(value),
            "name" => spec.name = value.to_string(),
            "dir" => {
                let dir = PathBuf::from(value);
                if !dir.is_dir() {
                    return Err(format!("{w}: not a directory"));
                }
                spec.dir = Some(dir);
            }
            "arg" => spec.args.push(value.to_string()),
            "tc" => own_limit = Some(parse_tc(value).map_err(|e| format!("--engine {e}"))?),
            "movetime" => {
                let ms = number(&w, value, 1..=604_800_000u64)?;
                own_limit = Some(Limit::MoveTime(Duration::from_millis(ms)));
            }
            "depth" => own_limit = Some(Limit::Depth(number(&w, value, 1..=MAX_DEPTH)?)),
            "nodes" => own_limit = Some(Limit::Nodes(number(&w, value, 1..=u64::MAX)?)),
            _ => match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => {
                    if value.contains(['\n', '\r']) {
                        return Err(format!("{w}: a value cannot hold a line break"));
                    }
                    spec.options.push((name.to_string(), value.to_string()))
                }
                _ => return Err(format!("--engine: unknown key '{key}'")),
            },
        }
    }
    if spec.command.as_os_str().is_empty() {
        return Err(format!(
            "--engine {}: cmd=PATH is required",
            words.join(" ")
        ));
    }
    if spec.name.is_empty() {
        spec.name = spec
            .command
            .file_name()
            .map_or("engine".to_string(), |n| n.to_string_lossy().into_owned());
    }
    Ok(Contestant {
        spec,
        limit: own_limit.unwrap_or(limit),
    })
}

/// The `awari` engine built beside this program.
fn awari_beside() -> Result<PathBuf, String> {
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let path = me.with_file_name(format!("awari{}", std::env::consts::EXE_SUFFIX));
    if path.exists() {
        Ok(path)
    } else {
        Err(format!(
            "the built-in match needs the awari engine at {}; build it with `cargo build --release`",
            path.display()
        ))
    }
}

/// Parses `elo0=.. elo1=.. alpha=.. beta=..` (any of them; the rest default to 0, 5, 0.05,
/// 0.05): finite Elo values with elo0 below elo1, alpha and beta in (0, 1).
pub fn parse_sprt(words: &[String]) -> Result<Sprt, String> {
    let mut s = Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    for w in words {
        let (k, v) = w
            .split_once('=')
            .ok_or_else(|| format!("--sprt {w}: expected KEY=VALUE"))?;
        let v: f64 = v
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| format!("--sprt {w}: not a number"))?;
        match k {
            "elo0" if v.abs() <= 1000.0 => s.elo0 = v,
            "elo1" if v.abs() <= 1000.0 => s.elo1 = v,
            "alpha" if v > 0.0 && v < 1.0 => s.alpha = v,
            "beta" if v > 0.0 && v < 1.0 => s.beta = v,
            _ => {
                return Err(format!(
                    "--sprt {w}: expected elo0 or elo1 (-1000 to 1000), alpha or beta (in 0..1)"
                ))
            }
        }
    }
    if s.elo1 <= s.elo0 {
        return Err("--sprt: elo1 must be above elo0".to_string());
    }
    Ok(s)
}

/// Shuffles `openings` (Fisher-Yates with the project's seeded generator: the same seed, the
/// same order).
pub fn shuffle(openings: &mut [Opening], seed: u64) {
    let mut rng = crate::rng::Rng::new(seed);
    for i in (1..openings.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        openings.swap(i, j);
    }
}

fn run(cli: Cli, engine_words: Vec<Vec<String>>) -> Result<(), Error> {
    become_subreaper();
    install_interrupt_handler();
    let builtin = engine_words.is_empty();
    let (engines, games) = if builtin {
        let awari = awari_beside()?;
        let make = |name: &str, depth: u32| Contestant {
            spec: Spec {
                name: name.to_string(),
                command: awari.clone(),
                ..Spec::default()
            },
            limit: Limit::Depth(depth),
        };
        // The engine at depth 8 against the paper's evolved player (depth 7): players of
        // comparable strength (tournament/evolved/README.md), 20 games in about a second.
        let mut engine = make("awari", 8);
        engine.limit = global_limit(&cli, Limit::Depth(8))?;
        let mut evolved = make("evolved", 1);
        evolved
            .spec
            .options
            .push(("Opponent".to_string(), "evolved".to_string()));
        (vec![engine, evolved], cli.games.unwrap_or(20))
    } else {
        if engine_words.len() < 2 {
            return Err(format!(
                "give two --engine, or more for a tournament (got {})",
                engine_words.len()
            )
            .into());
        }
        let limit = global_limit(
            &cli,
            Limit::Clock {
                moves: None,
                base: Duration::from_secs(10),
                inc: Duration::from_millis(100),
            },
        )?;
        let list = engine_words
            .iter()
            .map(|words| contestant(words, limit))
            .collect::<Result<Vec<_>, _>>()?;
        (list, cli.games.unwrap_or(100))
    };
    let pairings = tournament::pairings(engines.len(), cli.tournament);
    if pairings.len() > 1 && cli.resume {
        return Err(
            "--resume works for a match of two engines, not a tournament"
                .to_string()
                .into(),
        );
    }
    let mut openings = match &cli.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("--openings {}: {e}", path.display()))?;
            let list = runner::read_openings(cli.variant, &text)
                .map_err(|e| format!("--openings {}: {e}", path.display()))?;
            if list.is_empty() {
                return Err(format!("--openings {}: no openings in it", path.display()).into());
            }
            list
        }
        None => runner::two_ply_openings(cli.variant),
    };
    if cli.openings_order == Order::Random {
        shuffle(&mut openings, cli.seed);
    }
    let sprt = cli.sprt.as_deref().map(parse_sprt).transpose()?;
    let shard = match &cli.shard {
        Some(text) => Shard::parse(text, &|k| std::env::var(k).ok())?,
        None => Shard::WHOLE,
    };
    super::process::make_room_for(2 * cli.concurrency)
        .map_err(|e| format!("--concurrency {}: {e}", cli.concurrency))?;
    if let Some(dir) = &cli.log_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("--log-dir {}: {e}", dir.display()))?;
    }
    let base = Config {
        log_dir: cli.log_dir.clone(),
        engines: [engines[0].clone(), engines[1].clone()],
        variant: cli.variant,
        games,
        openings,
        margin: Duration::from_millis(cli.timemargin),
        max_plies: cli.max_moves as usize,
        scoring: cli.move_limit_scoring,
        stall: Duration::from_millis(cli.timeout),
        concurrency: cli.concurrency as usize,
        sprt,
        restart: cli.restart,
        shard,
        event: "awari referee match".to_string(),
        date: super::records::today(),
    };
    let names: Vec<&str> = engines.iter().map(|e| e.spec.name.as_str()).collect();
    let dirs = match &cli.out_dir {
        Some(dir) if pairings.len() > 1 => {
            tournament::settle(dir, &names, &pairings, cli.tournament)?;
            pairings
                .iter()
                .map(|&p| Some(dir.join(tournament::match_dir(&names, p))))
                .collect()
        }
        dir => vec![dir.clone(); pairings.len()],
    };
    if let Some(html) = &cli.html {
        for (flag, path) in [("--jsonout", &cli.jsonout), ("--pgnout", &cli.pgnout)] {
            if path
                .as_deref()
                .is_some_and(|p| super::report::same_file(p, html))
            {
                return Err(format!("--html {} is the {flag} file", html.display()).into());
            }
        }
    }
    let mut live = cli.html.as_deref().map(Live::new).transpose()?;
    let mut standings = Standings::new(engines.len());
    let (mut counted, mut no_contest) = (0, 0);
    for (&(a, b), dir) in pairings.iter().zip(dirs) {
        let mut config = base.clone();
        config.engines = [engines[a].clone(), engines[b].clone()];
        let totals = play_match(&config, &cli, dir.as_deref(), live.as_mut())?;
        standings.add(a, b, &totals);
        counted += totals.games();
        no_contest += totals.no_contest;
    }
    if pairings.len() > 1 {
        if shard != Shard::WHOLE {
            say!("\nthis shard's games only; `referee merge` counts every shard's");
        }
        say!("\nstandings ({}):", cli.tournament.name());
        let names: Vec<&str> = engines.iter().map(|e| e.spec.name.as_str()).collect();
        for line in standings.table(&names) {
            say!("{line}");
        }
    }
    if counted == 0 && no_contest > 0 {
        return Err(Error::Run(format!(
            "no game could be played: all {no_contest} were no contest (the reasons are above)"
        )));
    }
    Ok(())
}

/// Plays one two-engine match (resumed from `--jsonout` with `--resume`) and prints its
/// progress and table. With `dir` (`--out-dir`), the records go there, as the match's shard,
/// resumed from what the shard's file holds.
fn play_match(
    config: &Config,
    cli: &Cli,
    dir: Option<&Path>,
    mut live: Option<&mut Live>,
) -> Result<runner::Totals, Error> {
    let (jsonout, pgnout, resume) = match dir {
        Some(dir) => {
            outdir::settle(dir, &Manifest::of(config))?;
            if let (Some(_), Some(v)) = (config.sprt, outdir::read_verdict(dir)?) {
                say!(
                    "{}: the SPRT over all shards has decided ({} accepted): nothing left to play",
                    dir.display(),
                    v.accepted
                );
                return Ok(runner::Totals::default());
            }
            (
                Some(outdir::shard_path(dir, config.shard, "jsonl")),
                Some(outdir::shard_path(dir, config.shard, "pgn")),
                true,
            )
        }
        None => (cli.jsonout.clone(), cli.pgnout.clone(), cli.resume),
    };
    let (done, earlier) = match (&jsonout, resume) {
        (Some(json), true) => {
            let resumed = super::resume::read(json, config)?;
            for w in &resumed.warnings {
                eprintln!("warning: --resume {}: {w}", json.display());
            }
            super::resume::restore(json, pgnout.as_deref(), &resumed).map_err(Error::Run)?;
            (resumed.done(), resumed.records)
        }
        _ => Default::default(),
    };
    let mut union = dir.map(|dir| Union::new(dir, Schedule::of(config)));
    let mut union_sprt = || {
        let (Some(union), Some(sprt)) = (union.as_mut(), config.sprt.as_ref()) else {
            return false;
        };
        match union
            .refresh()
            .and_then(|()| union.sprt_decided(sprt, config.shard))
        {
            Ok(decided) => decided,
            Err(e) => {
                eprintln!("warning: the SPRT over all shards: {e}; going on");
                false
            }
        }
    };
    let open = |p: &Option<PathBuf>| -> Result<Option<Sink>, String> {
        p.as_ref()
            .map(|p| Sink::open(p).map_err(|e| format!("{}: {e}", p.display())))
            .transpose()
    };
    let names = [
        config.engines[0].spec.name.clone(),
        config.engines[1].spec.name.clone(),
    ];
    if let Some(live) = live.as_deref_mut() {
        live.begin(
            names.clone(),
            config.variant.name().to_string(),
            config.sprt,
            earlier,
        );
    }
    let mine = config.shard.games_of(config.total_games());
    say!(
        "{} vs {}, {}, {} games, {} openings{}{}",
        names[0],
        names[1],
        config.variant,
        config.total_games(),
        config.openings.len(),
        if config.shard == Shard::WHOLE {
            String::new()
        } else {
            format!("; shard {}: {mine} of the games", config.shard)
        },
        if done.is_empty() {
            String::new()
        } else {
            format!(", {} already played", done.len())
        }
    );
    // On a terminal a progress bar; for logs and pipes a line per game.
    let bar = std::io::stdout().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(mine),
            indicatif::ProgressDrawTarget::stdout(),
        );
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:30} {pos}/{len} games, {msg} [{elapsed_precise}, {eta} left]",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_position(done.len() as u64);
        bar
    });
    let mut progress = |f: &runner::Finished, record: &GameRecord, t: &runner::Totals| {
        if let Some(live) = live.as_deref_mut() {
            // The game's record is written: a page that cannot be does not stop the match.
            if let Err(e) = live.add(record.clone()) {
                eprintln!("warning: {e}");
            }
        }
        if let Some(bar) = &bar {
            let elo = if t.games() > 0 && t.wins < t.games() && t.losses < t.games() {
                let e = super::stats::elo(&[t.losses, t.draws, t.wins]);
                format!(", Elo {:+.0} +/- {:.0}", e.elo, e.margin)
            } else {
                String::new()
            };
            bar.set_message(format!(
                "{} +{} ={} -{}{elo}",
                names[0], t.wins, t.draws, t.losses
            ));
            bar.inc(1);
            return;
        }
        let (south, north) = if f.a_south {
            (&names[0], &names[1])
        } else {
            (&names[1], &names[0])
        };
        say!(
            "game {} {} - {}: {} ({}), {} plies; {}: +{} ={} -{}",
            f.round,
            south,
            north,
            f.record.result_tag(),
            f.record.termination,
            f.record.opening.len() + f.record.moves.len(),
            names[0],
            t.wins,
            t.draws,
            t.losses
        );
    };
    let totals = runner::run(
        config,
        Output {
            pgn: open(&pgnout)?,
            json: open(&jsonout)?,
            done,
            progress: &mut progress,
            union_sprt: match (dir, config.sprt) {
                (Some(_), Some(_)) => Some(&mut union_sprt),
                _ => None,
            },
        },
    );
    if let Some(bar) = &bar {
        // The last state stays on the screen: the games played and the score.
        bar.finish();
    }
    if let Some(live) = live {
        if let Err(e) = live.write() {
            eprintln!("warning: {e}");
        }
    }
    let totals = totals.map_err(Error::Run)?;
    say!();
    if config.shard != Shard::WHOLE {
        say!(
            "shard {}'s games only; `referee merge {}` reports the whole match",
            config.shard,
            dir.map_or(String::new(), |d| d.display().to_string())
        );
    }
    for line in totals.report([&names[0], &names[1]], config.sprt) {
        say!("{line}");
    }
    Ok(totals)
}

/// `referee merge DIR`: the report of a match, or of each match of a tournament and its
/// standings, played into `dir` in any number of shards.
fn merge(dir: &Path, html: Option<&Path>) -> ExitCode {
    let result = (|| -> Result<bool, String> {
        let mut pages = Vec::new();
        let matches = match outdir::read_manifest(dir)? {
            Some(_) => vec![dir.to_path_buf()],
            None => tournament::match_dirs(dir)?,
        };
        let mut complete = true;
        let mut standings: Option<(Vec<String>, Standings, Kind)> = tournament::read_settled(dir)?
            .map(|(names, kind)| {
                let n = names.len();
                (names, Standings::new(n), kind)
            });
        for (i, match_dir) in matches.iter().enumerate() {
            if i > 0 {
                say!();
            }
            if outdir::read_manifest(match_dir)?.is_none() {
                // A tournament's match no shard has started yet.
                say!("{}: not started", match_dir.display());
                complete = false;
                continue;
            }
            let merged = merge::merge_dir(match_dir)?;
            for w in &merged.warnings {
                eprintln!("warning: merge {}: {w}", match_dir.display());
            }
            for line in merged.report() {
                say!("{line}");
            }
            let json = match_dir.join("merged.jsonl");
            let pgn = match_dir.join("merged.pgn");
            merged.write(&json, &pgn)?;
            say!(
                "{} games written to {} and {}",
                merged.records.len(),
                json.display(),
                pgn.display()
            );
            complete &= merged.verdict.is_some()
                || merged.records.len() as u64 == merged.manifest.schedule.games;
            if html.is_some() {
                let s = &merged.manifest.schedule;
                pages.push(MatchRecords {
                    names: s.names.clone(),
                    variant: s.variant.clone(),
                    sprt: merged.manifest.sprt(),
                    records: merged.records.clone(),
                });
            }
            if let Some((names, standings, _)) = &mut standings {
                let s = &merged.manifest.schedule;
                let index = |name: &str| names.iter().position(|n| n == name);
                if let (Some(a), Some(b)) = (index(&s.names[0]), index(&s.names[1])) {
                    standings.add(a, b, &merged.tally().totals);
                }
            }
        }
        if let Some((names, standings, kind)) = standings {
            say!("\nstandings ({}):", kind.name());
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            for line in standings.table(&names) {
                say!("{line}");
            }
        }
        if let Some(path) = html {
            super::report::write(path, &pages)?;
            say!("the report page written to {}", path.display());
        }
        Ok(complete)
    })();
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: merge: {e}");
            ExitCode::from(2)
        }
    }
}

/// `referee report RECORDS --html FILE`: the page of matches already played. Exit status 0
/// when it is written, 2 when the records cannot be read or the page cannot be written.
fn report(records: &[PathBuf], html: &Path, sprt: Option<&[String]>) -> ExitCode {
    let result = (|| -> Result<usize, String> {
        let sprt = sprt.map(parse_sprt).transpose()?;
        // A page written over its own records would lose them.
        if let Some(r) = records.iter().find(|r| super::report::same_file(r, html)) {
            return Err(format!(
                "--html {} is one of the records ({}): name another file",
                html.display(),
                r.display()
            ));
        }
        let read = super::report::read(records, sprt)?;
        for w in &read.warnings {
            eprintln!("warning: report: {w}");
        }
        super::report::write(html, &read.matches)?;
        Ok(read.matches.iter().map(|m| m.records.len()).sum())
    })();
    match result {
        Ok(games) => {
            say!("{games} games written to {}", html.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: report: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        let clock = |moves, base: u64, inc: u64| Limit::Clock {
            moves,
            base: Duration::from_millis(base),
            inc: Duration::from_millis(inc),
        };
        assert_eq!(parse_tc("10+0.1"), Ok(clock(None, 10_000, 100)));
        assert_eq!(parse_tc("40/60"), Ok(clock(Some(40), 60_000, 0)));
        assert_eq!(parse_tc("0.5"), Ok(clock(None, 500, 0)));
        for bad in [
            "", "0", "1e19", "inf", "NaN", "-1", "10+-1", "0/10", "20000/10", "x/10", "10+",
            "604801", "10+1e9",
        ] {
            assert!(parse_tc(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn engine_words() {
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let default = Limit::Depth(3);
        let c = contestant(&words(&["cmd=/bin/x", "arg=-v", "option.Hash=64"]), default).unwrap();
        assert_eq!(c.spec.name, "x");
        assert_eq!(c.spec.options, vec![("Hash".to_string(), "64".to_string())]);
        assert_eq!(c.limit, default);
        let c = contestant(&words(&["cmd=x", "depth=4"]), default).unwrap();
        assert_eq!(c.limit, Limit::Depth(4));
        for (bad, says) in [
            (&["cmd=x", "depth=4294967296"][..], "from 1 to 1000"),
            (&["cmd=x", "depth=0"], "from 1 to 1000"),
            (&["cmd=x", "nodes=-1"], "whole number"),
            (&["cmd=x", "movetime=1e3"], "whole number"),
            (&["cmd=x", "tc=1e19"], "tc 1e19"),
            (
                &["cmd=x", "dir=/nonexistent/dir"],
                "dir=/nonexistent/dir: not a directory",
            ),
            (&["name=x"], "cmd=PATH is required"),
            (&["cmd=x", "colour=red"], "unknown key"),
            (&["cmd=x", "option.A=1\n2"], "line break"),
        ] {
            match contestant(&words(bad), default) {
                Err(e) => assert!(e.contains(says), "{bad:?}: {e}"),
                Ok(_) => panic!("{bad:?} accepted"),
            }
        }
    }

    #[test]
    fn sprt_parameters() {
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let s = parse_sprt(&words(&["elo0=1", "elo1=4", "alpha=0.1"])).unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (1.0, 4.0, 0.1, 0.05));
        for bad in [
            &["elo0=5", "elo1=5"][..],
            &["alpha=1"],
            &["beta=0"],
            &["elo1=inf"],
            &["elo1=NaN"],
            &["elo1=1e9"],
            &["gamma=1"],
            &["elo1"],
        ] {
            assert!(parse_sprt(&words(bad)).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_shuffle_is_a_permutation_fixed_by_its_seed() {
        let mut a = runner::two_ply_openings(Variant::Oware);
        let mut b = a.clone();
        let original = a.clone();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        assert_ne!(a, original);
        for o in &original {
            assert!(a.contains(o));
        }
    }
}
