//! `referee evolve`: the co-evolution of the evolved player's weights, whole or in shards.

use super::EvolveArgs;
use crate::classic::evolve::{self as evolution, Config as EvolveConfig, Ranking};
use crate::classic::evolve_shared::Shared;
use crate::cluster::shard::Shard;
use std::io::Write as _;
use std::process::ExitCode;

/// Why an evolution stopped, and its exit code: 2 for what was asked (settings, files), 1 for
/// a failure of the evolution itself.
struct Failed(String, u8);

impl From<String> for Failed {
    fn from(e: String) -> Failed {
        Failed(e, 2)
    }
}

/// A shard named wrong, a directory of another evolution: what it was given (exit status 2).
impl From<crate::cluster::Error> for Failed {
    fn from(e: crate::cluster::Error) -> Failed {
        Failed(e.to_string(), 2)
    }
}

pub(super) fn evolve(args: &EvolveArgs) -> ExitCode {
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failed(e, code)) => {
            crate::sys::stderr::line(format_args!("error: {e}"));
            ExitCode::from(code)
        }
    }
}

/// The evolution's stages: its settings and outputs checked, its log opened, the
/// generations run (whole or as a shard), the best weights written.
fn run(args: &EvolveArgs) -> Result<(), Failed> {
    let config = config(args)?;
    let mut files = crate::sys::outputs::Files::default();
    files.writes("--out", &args.out);
    if let Some(path) = &args.log {
        files.writes("--log", path);
    }
    if let Some(dir) = &args.out_dir {
        files.writes_dir("--out-dir", dir, is_evolve_part, 2);
    }
    // Held to the end: it keeps a FIFO output's reader waiting for the write.
    let _outputs = files.check()?;
    let mut log = match &args.log {
        Some(path) => Some(
            crate::client::process::open_log(path)
                .map_err(|e| format!("--log {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let header = format!(
        "# evolve {} population {} survivors {} generations {} depth {} max-plies {} seed {}",
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
    let mut log_generation = |generation: usize, ranking: &Ranking| {
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
        None => evolution::evolve(&config, &mut log_generation),
        Some(dir) => sharded(args, dir, &config, &mut log_generation)?,
    };
    let best = ranking[0].0;
    let text = format!(
        "# evolved weights w1..w6 (a2 a3 b2 b3 as bs): {}\n{best}\n",
        header.trim_start_matches("# ")
    );
    // Every shard writes the same weights: whole, by rename (or in place, to a device).
    crate::record::replace(&args.out, &text)
        .map_err(|e| format!("--out {}: {e}", args.out.display()))?;
    say!("best weights written to {}", args.out.display());
    Ok(())
}

/// The evolution's settings, refused before any output is touched when the evolved player
/// cannot play the rule set or more survivors are asked for than there are members.
fn config(args: &EvolveArgs) -> Result<EvolveConfig, Failed> {
    if !crate::classic::evolved::supports(args.variant) {
        return Err(format!(
            "--variant {}: the evolved player is for oware and awari",
            args.variant
        )
        .into());
    }
    if args.survivors > args.population {
        return Err("--survivors must be at most --population"
            .to_string()
            .into());
    }
    Ok(EvolveConfig {
        variant: args.variant,
        population: args.population as usize,
        survivors: args.survivors as usize,
        generations: args.generations as usize,
        depth: args.depth,
        max_plies: args.max_plies as usize,
        seed: args.seed,
        concurrency: args.concurrency.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |n| n as usize,
        ),
    })
}

/// An evolution shared through `dir` (`--out-dir`): each generation's round robin is split
/// among the shards, this one playing its part, so every shard reaches the same ranking.
fn sharded(
    args: &EvolveArgs,
    dir: &std::path::Path,
    config: &EvolveConfig,
    log_generation: &mut dyn FnMut(usize, &Ranking),
) -> Result<Ranking, Failed> {
    let shard = match &args.shard {
        Some(text) => Shard::parse(text, &|k| std::env::var(k).ok())?,
        None => Shard::WHOLE,
    };
    let shared = Shared::settle(dir, shard, config)?;
    evolution::evolve_with(
        config,
        &mut |g, members| shared.round_robin(g, members),
        log_generation,
    )
    .map_err(|e| Failed(e, 1))
}

/// An evolution's `--out-dir` file: its settings or a shard's results of a generation
/// (`generation-N/shard-K-of-N.json`).
fn is_evolve_part(name: &str) -> bool {
    name == "evolve.json" || (name.starts_with("shard-") && name.ends_with(".json"))
}
