//! `referee evolve`: the co-evolution of the evolved player's weights, whole or in shards.

use super::EvolveArgs;
use crate::cluster::shard::Shard;
use std::process::ExitCode;

pub(super) fn evolve(args: &EvolveArgs) -> ExitCode {
    use crate::classic::evolve::{evolve, evolve_with, Config as EvolveConfig};
    use crate::classic::evolve_shared::Shared;
    use std::io::Write as _;
    if !crate::classic::evolved::supports(args.variant) {
        crate::sys::stderr::line(format_args!(
            "error: --variant {}: the evolved player is for oware and awari",
            args.variant
        ));
        return ExitCode::from(2);
    }
    if args.survivors > args.population {
        crate::sys::stderr::line(format_args!(
            "error: --survivors must be at most --population"
        ));
        return ExitCode::from(2);
    }
    let config = EvolveConfig {
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
    };
    let mut files = crate::sys::outputs::Files::default();
    files.writes("--out", &args.out);
    if let Some(path) = &args.log {
        files.writes("--log", path);
    }
    if let Some(dir) = &args.out_dir {
        files.writes_dir("--out-dir", dir, is_evolve_part, 2);
    }
    // Held to the end: it keeps a FIFO output's reader waiting for the write.
    let _outputs = match files.check() {
        Ok(held) => held,
        Err(e) => {
            crate::sys::stderr::line(format_args!("error: {e}"));
            return ExitCode::from(2);
        }
    };
    let mut log = match &args.log {
        Some(path) => match crate::client::process::open_log(path) {
            Ok(f) => Some(f),
            Err(e) => {
                crate::sys::stderr::line(format_args!("error: --log {}: {e}", path.display()));
                return ExitCode::from(2);
            }
        },
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
                        crate::sys::stderr::line(format_args!("error: {e}"));
                        return ExitCode::from(2);
                    }
                },
                None => Shard::WHOLE,
            };
            let shared = match Shared::settle(dir, shard, &config) {
                Ok(shared) => shared,
                Err(e) => {
                    crate::sys::stderr::line(format_args!("error: {e}"));
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
                    crate::sys::stderr::line(format_args!("error: {e}"));
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
    // Every shard writes the same weights: whole, by rename (or in place, to a device).
    if let Err(e) = crate::record::replace(&args.out, &text) {
        crate::sys::stderr::line(format_args!("error: --out {}: {e}", args.out.display()));
        return ExitCode::from(2);
    }
    say!("best weights written to {}", args.out.display());
    ExitCode::SUCCESS
}

/// An evolution's `--out-dir` file: its settings or a shard's results of a generation
/// (`generation-N/shard-K-of-N.json`).
fn is_evolve_part(name: &str) -> bool {
    name == "evolve.json" || (name.starts_with("shard-") && name.ends_with(".json"))
}
