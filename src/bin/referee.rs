//! The `referee` command: engine-vs-engine matches. With no `--engine` it plays the `awari`
//! engine built beside it at depth 8 against the evolved player (a classic opponent, through
//! the same engine's `Opponent` option): a short match that shows the whole machinery.
//! `--engine` twice plays any two engines, more than twice a tournament; `referee check` and
//! `referee evolve` are its other jobs.

use awari::referee::game::{Limit, Scoring};
use awari::referee::process::{become_subreaper, install_interrupt_handler, Spec};
use awari::referee::records::{json_field, Sink};
use awari::referee::runner::{self, two_ply_openings, Config, Contestant, Output, Sprt};
use awari::rules::Variant;
use clap::{CommandFactory, FromArgMatches, Parser};
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

const EXAMPLES: &str = "Examples:
  referee                                   a short match: awari (depth 8) against the evolved player
  referee --engine cmd=./a name=A option.Hash=64 --engine cmd=./b name=B \\
          --variant oware --games 100 --tc 10+0.1 --concurrency 2 --pgnout games.pgn
Engine keys: cmd=PATH (required), name=N, dir=D, arg=A (repeatable), option.NAME=VALUE,
and a time control of its own: tc=..., movetime=MS, depth=D or nodes=N.
Time controls: tc=[moves/]seconds[+increment] (10+0.1, 40/60, 60+1), or --movetime, --depth, --nodes.";

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
    #[arg(long)]
    games: Option<u64>,
    /// Clock: [moves/]seconds[+increment], e.g. 10+0.1.
    #[arg(long)]
    tc: Option<String>,
    /// Fixed milliseconds per move.
    #[arg(long)]
    movetime: Option<u64>,
    /// Fixed depth per move.
    #[arg(long)]
    depth: Option<u32>,
    /// Fixed nodes per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Milliseconds beyond an engine's clock before it loses on time.
    #[arg(long, default_value_t = 50)]
    timemargin: u64,
    /// Scoring at the move limit: rules (awari by the stores, the others with each side's
    /// row added), stores, or rows.
    #[arg(long = "move-limit-scoring", default_value = "rules")]
    move_limit_scoring: String,
    /// Milliseconds allowed for `uciok`, `readyok` and a depth- or node-limited move.
    #[arg(long, default_value_t = 10_000)]
    timeout: u64,
    /// The game ends at this ply, adjudicated.
    #[arg(long = "max-moves", default_value_t = 250)]
    max_moves: usize,
    /// Opening suite (one per line: a move list, or a position with optional moves).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Opening order: sequential (the file's order) or random (shuffled with --seed).
    #[arg(long = "openings-order", default_value = "sequential")]
    openings_order: String,
    /// Seed for the random opening order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
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
    #[arg(long, default_value = "round-robin")]
    tournament: String,
    /// Continue the match recorded in --jsonout, skipping the games it holds.
    #[arg(long, requires = "jsonout")]
    resume: bool,
    /// SPRT on game pairs in normalized Elo: elo0=0 elo1=5 alpha=0.05 beta=0.05.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    sprt: Option<Vec<String>>,
}

#[derive(clap::Subcommand)]
enum Sub {
    /// Compliance test of an engine: handshake, isready during a search, stop, bad input, go
    /// arguments in any order, quit. Exit status 0 when every check passes, 1 otherwise.
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
}

#[derive(clap::Args)]
struct EvolveArgs {
    /// Rule set: awari (the paper's) or oware.
    #[arg(long, default_value = "awari")]
    variant: Variant,
    /// Members per generation.
    #[arg(long, default_value_t = 20)]
    population: usize,
    /// Members kept each generation (each makes the children that refill the population).
    #[arg(long, default_value_t = 5)]
    survivors: usize,
    /// Generations.
    #[arg(long, default_value_t = 250)]
    generations: usize,
    /// Search depth of every player.
    #[arg(long, default_value_t = 7)]
    depth: u32,
    /// Plies after which a game is scored on the stores.
    #[arg(long = "max-moves", default_value_t = 250)]
    max_moves: usize,
    /// Seed of the initial weights and the mutations.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (default: the machine's cores).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Per-generation log file (appended).
    #[arg(long)]
    log: Option<PathBuf>,
    /// Where the best weights are written.
    #[arg(long, default_value = "evolved-weights.txt")]
    out: PathBuf,
}

fn evolve(args: &EvolveArgs) -> ExitCode {
    use awari::classic::evolve::{evolve, Config as EvolveConfig};
    use std::io::Write as _;
    if !awari::classic::evolved::supports(args.variant) {
        eprintln!(
            "error: --variant {}: the evolved player is for oware and awari",
            args.variant
        );
        return ExitCode::from(2);
    }
    if args.population < 2 || args.survivors == 0 || args.survivors > args.population {
        eprintln!("error: need a population of 2 or more and 1..=population survivors");
        return ExitCode::from(2);
    }
    let config = EvolveConfig {
        variant: args.variant,
        population: args.population,
        survivors: args.survivors,
        generations: args.generations.max(1),
        depth: args.depth.max(1),
        max_plies: args.max_moves.max(1),
        seed: args.seed,
        concurrency: args
            .concurrency
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
    };
    let mut log = match &args.log {
        Some(path) => match awari::referee::process::open_log(path) {
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
    println!("{header}");
    if let Some(f) = &mut log {
        let _ = writeln!(f, "{header}");
    }
    let started = std::time::Instant::now();
    let ranking = evolve(&config, &mut |generation, ranking| {
        let (best, points) = ranking[0];
        let mean = ranking.iter().map(|&(_, p)| f64::from(p)).sum::<f64>() / ranking.len() as f64;
        let line = format!(
            "generation {generation}/{} best {points} points (mean {mean:.1}) weights {best} [{:.0} s]",
            config.generations,
            started.elapsed().as_secs_f64()
        );
        println!("{line}");
        if let Some(f) = &mut log {
            let _ = writeln!(f, "{line}");
        }
    });
    let best = ranking[0].0;
    let text = format!(
        "# evolved weights w1..w6 (a2 a3 b2 b3 as bs): {}\n{best}\n",
        header.trim_start_matches("# ")
    );
    if let Err(e) = std::fs::write(&args.out, text) {
        eprintln!("error: --out {}: {e}", args.out.display());
        return ExitCode::from(2);
    }
    println!("best weights written to {}", args.out.display());
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
    let all = awari::referee::check::check(&spec, variant, &mut |name, outcome| match outcome {
        Ok(detail) => {
            passed += 1;
            println!("PASS  {name}: {detail}");
        }
        Err(detail) => {
            failed += 1;
            println!("FAIL  {name}: {detail}");
        }
    });
    println!("{passed} passed, {failed} failed");
    if all {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn main() -> ExitCode {
    // The derive API flattens repeated `--engine` groups; the matches keep each occurrence.
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    match &cli.sub {
        Some(Sub::Check { variant, command }) => return check(*variant, command),
        Some(Sub::Evolve(args)) => return evolve(args),
        None => {}
    }
    let engines: Vec<Vec<String>> = matches
        .get_occurrences::<String>("engine")
        .map(|groups| groups.map(|g| g.cloned().collect()).collect())
        .unwrap_or_default();
    match run(cli, engines) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Parses `[moves/]seconds[+increment]`.
fn parse_tc(text: &str) -> Result<Limit, String> {
    let bad = || format!("--tc {text}: expected [moves/]seconds[+increment], e.g. 10+0.1");
    let (moves, rest) = match text.split_once('/') {
        Some((m, r)) => (Some(m.parse::<u32>().map_err(|_| bad())?), r),
        None => (None, text),
    };
    let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
    let secs = |s: &str| -> Result<Duration, String> {
        let v: f64 = s.parse().map_err(|_| bad())?;
        Duration::try_from_secs_f64(v).map_err(|_| bad())
    };
    let base = secs(base)?;
    if base.is_zero() {
        return Err(bad());
    }
    Ok(Limit::Clock {
        moves,
        base,
        inc: secs(inc)?,
    })
}

/// The match-wide limit from the flags; at most one kind.
fn global_limit(cli: &Cli, default: Limit) -> Result<Limit, String> {
    let mut limits = Vec::new();
    if let Some(tc) = &cli.tc {
        limits.push(parse_tc(tc)?);
    }
    if let Some(ms) = cli.movetime {
        limits.push(Limit::MoveTime(Duration::from_millis(ms.max(1))));
    }
    if let Some(d) = cli.depth {
        limits.push(Limit::Depth(d.max(1)));
    }
    if let Some(n) = cli.nodes {
        limits.push(Limit::Nodes(n.max(1)));
    }
    match limits.len() {
        0 => Ok(default),
        1 => Ok(limits[0]),
        _ => Err("give one of --tc, --movetime, --depth, --nodes".to_string()),
    }
}

/// An engine from its KEY=VALUE words.
fn contestant(words: &[String], limit: Limit) -> Result<Contestant, String> {
    let mut spec = Spec::default();
    let mut own_limit = None;
    for word in words {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("--engine {word}: expected KEY=VALUE"))?;
        let number = |v: &str| {
            v.parse::<u64>()
                .map_err(|_| format!("--engine {key}={v}: not a number"))
        };
        match key {
            "cmd" => spec.command = PathBuf::from(value),
            "name" => spec.name = value.to_string(),
            "dir" => spec.dir = Some(PathBuf::from(value)),
            "arg" => spec.args.push(value.to_string()),
            "tc" => own_limit = Some(parse_tc(value)?),
            "movetime" => own_limit = Some(Limit::MoveTime(Duration::from_millis(number(value)?))),
            "depth" => own_limit = Some(Limit::Depth(number(value)? as u32)),
            "nodes" => own_limit = Some(Limit::Nodes(number(value)?)),
            _ => match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => {
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

fn parse_sprt(words: &[String]) -> Result<Sprt, String> {
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
        let v: f64 = v.parse().map_err(|_| format!("--sprt {w}: not a number"))?;
        match k {
            "elo0" => s.elo0 = v,
            "elo1" => s.elo1 = v,
            "alpha" if v > 0.0 && v < 1.0 => s.alpha = v,
            "beta" if v > 0.0 && v < 1.0 => s.beta = v,
            _ => {
                return Err(format!(
                    "--sprt {w}: expected elo0, elo1, alpha or beta (in 0..1)"
                ))
            }
        }
    }
    if s.elo1 <= s.elo0 {
        return Err("--sprt: elo1 must be above elo0".to_string());
    }
    Ok(s)
}

/// Games already in the JSON lines file, by round, with engine A's half points.
fn read_done(path: &PathBuf) -> Result<HashMap<u64, u8>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
        Err(e) => return Err(format!("--resume {}: {e}", path.display())),
    };
    if !text.is_empty() && !text.ends_with('\n') {
        // Killed mid-write: cut the partial line, so the next record starts on its own line.
        let keep = text.rfind('\n').map_or(0, |i| i + 1);
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|f| f.set_len(keep as u64));
        file.map_err(|e| format!("--resume {}: {e}", path.display()))?;
    }
    let mut done = HashMap::new();
    for line in text.lines() {
        // A line cut short by a kill is not a finished game: it is played again.
        let (Some(round), Some(result)) = (json_field(line, "round"), json_field(line, "result"))
        else {
            continue;
        };
        if !line.ends_with('}') {
            continue;
        }
        let Ok(round) = round.parse::<u64>() else {
            continue;
        };
        let a_south = round % 2 == 1;
        let points = match (result, a_south) {
            ("1/2-1/2", _) => 1,
            ("1-0", true) | ("0-1", false) => 2,
            _ => 0,
        };
        done.insert(round, points);
    }
    Ok(done)
}

fn run(cli: Cli, engine_words: Vec<Vec<String>>) -> Result<(), String> {
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
            ));
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
    // Who plays whom: one match for two engines; round-robin or gauntlet for more.
    let pairings: Vec<(usize, usize)> = match (engines.len(), cli.tournament.as_str()) {
        (2, _) => vec![(0, 1)],
        (n, "round-robin") => (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect(),
        (n, "gauntlet") => (1..n).map(|b| (0, b)).collect(),
        (_, other) => {
            return Err(format!(
                "--tournament {other}: expected round-robin or gauntlet"
            ))
        }
    };
    if pairings.len() > 1 && cli.resume {
        return Err("--resume works for a match of two engines, not a tournament".to_string());
    }
    let openings = match &cli.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("--openings {}: {e}", path.display()))?;
            let list = runner::read_openings(cli.variant, &text)
                .map_err(|e| format!("--openings {}: {e}", path.display()))?;
            if list.is_empty() {
                return Err(format!("--openings {}: no openings in it", path.display()));
            }
            list
        }
        None => two_ply_openings(cli.variant),
    };
    let mut openings = openings;
    match cli.openings_order.as_str() {
        "sequential" => {}
        "random" => {
            // Fisher-Yates with the project's seeded generator: the same seed, the same order.
            let mut rng = awari::rng::Rng::new(cli.seed);
            for i in (1..openings.len()).rev() {
                let j = rng.below(i as u64 + 1) as usize;
                openings.swap(i, j);
            }
        }
        other => {
            return Err(format!(
                "--openings-order {other}: expected sequential or random"
            ))
        }
    }
    let sprt = cli.sprt.as_deref().map(parse_sprt).transpose()?;
    let done = match (&cli.jsonout, cli.resume) {
        (Some(path), true) => read_done(path)?,
        _ => HashMap::new(),
    };
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
        max_plies: cli.max_moves.max(1),
        scoring: match cli.move_limit_scoring.as_str() {
            "rules" => Scoring::Rules,
            "stores" => Scoring::Stores,
            "rows" => Scoring::Rows,
            other => {
                return Err(format!(
                    "--move-limit-scoring {other}: expected rules, stores or rows"
                ))
            }
        },
        stall: Duration::from_millis(cli.timeout.max(1)),
        concurrency: cli.concurrency.max(1),
        sprt,
        event: "awari referee match".to_string(),
        date: awari::referee::records::today(),
    };
    let mut standings: Vec<(f64, u64)> = vec![(0.0, 0); engines.len()];
    for &(a, b) in &pairings {
        let mut config = base.clone();
        config.engines = [engines[a].clone(), engines[b].clone()];
        let totals = play_match(&config, &cli, done.clone(), sprt)?;
        let half = 0.5 * totals.draws as f64;
        standings[a].0 += totals.wins as f64 + half;
        standings[b].0 += totals.losses as f64 + half;
        standings[a].1 += totals.games();
        standings[b].1 += totals.games();
    }
    if pairings.len() > 1 {
        let mut order: Vec<usize> = (0..engines.len()).collect();
        order.sort_by(|&x, &y| standings[y].0.total_cmp(&standings[x].0));
        println!("\nstandings ({}):", cli.tournament);
        for (rank, &i) in order.iter().enumerate() {
            let (points, games) = standings[i];
            println!(
                "{:>3}. {:<20} {points:>6.1} / {games}",
                rank + 1,
                engines[i].spec.name
            );
        }
    }
    Ok(())
}

/// Plays one two-engine match and prints its progress and table.
fn play_match(
    config: &Config,
    cli: &Cli,
    done: HashMap<u64, u8>,
    sprt: Option<Sprt>,
) -> Result<runner::Totals, String> {
    let open = |p: &Option<PathBuf>| -> Result<Option<Sink>, String> {
        p.as_ref()
            .map(|p| Sink::open(p).map_err(|e| format!("{}: {e}", p.display())))
            .transpose()
    };
    let names = [
        config.engines[0].spec.name.clone(),
        config.engines[1].spec.name.clone(),
    ];
    println!(
        "{} vs {}, {}, {} games, {} openings{}",
        names[0],
        names[1],
        config.variant,
        config.games.div_ceil(2) * 2,
        config.openings.len(),
        if done.is_empty() {
            String::new()
        } else {
            format!(", {} already played", done.len())
        }
    );
    let mut progress = |f: &runner::Finished, t: &runner::Totals| {
        let (south, north) = if f.a_south {
            (&names[0], &names[1])
        } else {
            (&names[1], &names[0])
        };
        println!(
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
            pgn: open(&cli.pgnout)?,
            json: open(&cli.jsonout)?,
            done,
            progress: &mut progress,
        },
    );
    println!();
    for line in totals.report([&names[0], &names[1]], sprt) {
        println!("{line}");
    }
    Ok(totals)
}
