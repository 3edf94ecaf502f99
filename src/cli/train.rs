//! `awari train`: the network fitted to `awari datagen`'s files, its losses per epoch, its
//! weights file, and (with `--tables`) the evaluation measured against the endgame tables,
//! the network's beside the hand evaluation's. The work is the library's
//! ([`crate::tools::train`]); here are the flags and the lines printed.

use super::say;
use crate::rules::{Board, Variant};
use crate::search::eval::{evaluate, Weights};
use crate::search::network::{to_bytes, Network};
use crate::tools::datagen::{read, read_manifest, Record, NO_TABLE};
use crate::tools::train::{
    agreement, eval_loss, fit_k, held_out, samples, table_positions, train, TrainOptions,
};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub(super) struct TrainArgs {
    /// Position files of awari datagen, or directories of them (every *.bin there).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// The weights file to write (EvalFile reads it).
    #[arg(long)]
    out: PathBuf,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    epochs: u32,
    /// Positions per step of Adam.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    batch: u32,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.002)]
    rate: f32,
    /// The game result's share of the target, 0 to 1 (the rest is the search score's), where
    /// the tables did not value the position.
    #[arg(long, default_value_t = 0.5)]
    lambda: f32,
    /// The weight of the error in seeds against the tables' exact margin, where they valued
    /// the position (0: the curve alone).
    #[arg(long, default_value_t = 1.0)]
    exact_weight: f32,
    /// Seed of the initial weights and of the positions' order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// Endgame tables: after training, measure both evaluations on held-out positions
    /// within their reach (pairs of sibling moves ordered as the tables order them, mean
    /// absolute error in seeds).
    #[arg(long)]
    tables: Option<PathBuf>,
    /// Held-out positions measured against the tables, at most.
    #[arg(long, default_value_t = 20_000)]
    measure: usize,
}

/// The files of `--data`: files as given, directories' `*.bin` in name order.
fn data_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut here: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| format!("--data {}: {e}", path.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "bin"))
                .collect();
            here.sort();
            if here.is_empty() {
                return Err(format!(
                    "--data {}: no position files (*.bin) there",
                    path.display()
                ));
            }
            files.extend(here);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// Of the run that wrote `file` (`datagen.json` beside it): the number of its opening lines
/// (validation holds out by line; 0 when the games started from the start position) and of
/// its games (the records numbered from there on were drawn from the tables' layers). `(0,
/// None)` when there is no `datagen.json`.
fn run_of(file: &Path) -> Result<(u64, Option<u64>), String> {
    let dir = file.parent().unwrap_or(Path::new("."));
    let run = read_manifest(dir).map_err(|e| format!("--data {e}"))?;
    Ok(run.map_or((0, None), |run| (run.openings.1 as u64, Some(run.games))))
}

/// A position file of a `--data` directory.
fn is_data_file(name: &str) -> bool {
    name.ends_with(".bin")
}

pub(super) fn run(args: &TrainArgs) -> Result<(), String> {
    // Before anything is read: a network written over its positions would lose them.
    // Held to the end: it keeps a FIFO output's reader waiting for the write.
    let _outputs = super::check_files(|files| {
        for path in &args.data {
            if path.is_dir() {
                files.reads_dir("--data", path, is_data_file, 1);
            } else {
                files.reads("--data", path);
            }
        }
        if let Some(dir) = &args.tables {
            files.reads_dir("--tables", dir, super::is_table_file, 1);
        }
        files.writes("--out", &args.out);
    })?;
    check_steps(args)?;
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let data = load(&args.data)?;
    let k = curve(&data);
    let pool = crate::tools::pool::threads(threads)?;
    let network = fit(args, &data, k, threads, &pool)?;
    crate::sys::write::replace(&args.out, &to_bytes(&network)).map_err(|e| e.to_string())?;
    say(format!("wrote {}", args.out.display()));
    if let Some(dir) = &args.tables {
        measure(dir, &data.played, &network, args.measure, &pool)?;
    }
    Ok(())
}

/// Refuses a `--lambda`, `--exact-weight` or `--rate` that no training can use (out of its
/// range, not a number, infinite), before any file is read: a mistyped flag costs nothing.
fn check_steps(args: &TrainArgs) -> Result<(), String> {
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(format!("--lambda {}: not within 0 to 1", args.lambda));
    }
    if !(args.exact_weight >= 0.0 && args.exact_weight.is_finite()) {
        return Err(format!(
            "--exact-weight {}: not a weight of 0 or more",
            args.exact_weight
        ));
    }
    if !(args.rate > 0.0 && args.rate.is_finite()) {
        return Err(format!("--rate {}: not a positive step", args.rate));
    }
    Ok(())
}

/// The positions of `--data`, split for training.
struct Data {
    /// The positions trained on.
    trained: Vec<Record>,
    /// The positions held out, for the held-out loss.
    held: Vec<Record>,
    /// The held-out positions of games (the measure against the tables is of them, not of the
    /// positions drawn from the tables' layers, numbered after the run's games).
    played: Vec<Record>,
    /// The runs' opening lines (validation holds out by line).
    lines: u64,
}

/// Reads the files of `--data` and splits their positions into training and held out. The
/// files must be oware's and of runs of one opening suite (held out by line, runs of two
/// suites would hold out different games), and both parts must have positions.
fn load(paths: &[PathBuf]) -> Result<Data, String> {
    let mut records: Vec<Record> = Vec::new();
    let mut lines = None;
    let mut played: Vec<Record> = Vec::new();
    for file in data_files(paths)? {
        let (here, games) = run_of(&file)?;
        if lines.is_some_and(|l| l != here) {
            return Err(format!(
                "--data {}: a run of {here} opening lines beside one of {}: train one run's \
                 files at a time, or runs of one suite",
                file.display(),
                lines.unwrap_or(0)
            ));
        }
        lines = Some(here);
        let (variant, mut these) = read(&file).map_err(|e| format!("--data {e}"))?;
        if variant != Variant::Oware {
            return Err(format!(
                "--data {}: {variant} positions; the network is oware's",
                file.display()
            ));
        }
        let drawn = |r: &Record| games.is_some_and(|g| u64::from(r.game) >= g);
        played.extend(these.iter().filter(|r| held_out(r, here) && !drawn(r)));
        records.append(&mut these);
    }
    let lines = lines.unwrap_or(0);
    let (held, trained): (Vec<Record>, Vec<Record>) =
        records.into_iter().partition(|r| held_out(r, lines));
    if trained.is_empty() || held.is_empty() {
        return Err(format!(
            "--data: {} training and {} held-out positions; both are needed (more games)",
            trained.len(),
            held.len()
        ));
    }
    Ok(Data {
        trained,
        held,
        played,
        lines,
    })
}

/// The constant K of the curve that turns a score into an expected result, fitted to the
/// training positions (the targets and the losses are all through it), said with what is
/// trained on and what held out.
fn curve(data: &Data) -> f64 {
    let Data {
        trained,
        held,
        lines,
        ..
    } = data;
    let k = fit_k(trained);
    let exact = trained.iter().filter(|r| r.table != NO_TABLE).count();
    say(format!(
        "positions {} training ({exact} valued by the tables), {} held out ({}); K {k:.4}",
        trained.len(),
        held.len(),
        match lines {
            0 | 1 => "every 20th game".to_string(),
            n => format!("every game of every 20th of {n} opening lines"),
        }
    ));
    k
}

/// The network trained on `data` through the curve of constant `k`, each step said: the hand
/// evaluation's held-out loss (the mark to beat), each epoch's losses, then the held-out loss
/// of the integer network, the one written (its rounding can cost what training gained).
fn fit(
    args: &TrainArgs,
    data: &Data,
    k: f64,
    threads: usize,
    pool: &rayon::ThreadPool,
) -> Result<Network, String> {
    let (trained, held) = (&data.trained, &data.held);
    let train_set = samples(trained, k, args.lambda);
    let valid_set = samples(held, k, args.lambda);
    let hand = |b: &Board| evaluate(b, &Weights::OWARE.into());
    let mu = args.exact_weight;
    let old = pool.install(|| eval_loss(held, &valid_set, k, mu, &hand));
    say(format!(
        "held-out loss of the hand evaluation (its terms through the same curve): {old:.6}"
    ));
    let options = TrainOptions {
        epochs: args.epochs as usize,
        batch: args.batch as usize,
        rate: args.rate,
        lambda: args.lambda,
        exact_weight: args.exact_weight,
        seed: args.seed,
        threads,
    };
    let started = std::time::Instant::now();
    let net = train(&train_set, &valid_set, k as f32, &options, &mut |e| {
        say(format!(
            "epoch {:>3}: train loss {:.6}, held-out loss {:.6} ({:.0} s)",
            e.epoch,
            e.train,
            e.validation,
            started.elapsed().as_secs_f64()
        ))
    })?;
    let network = net.quantize();
    let quantized =
        pool.install(|| eval_loss(held, &valid_set, k, mu, &|b: &Board| network.evaluate(b)));
    say(format!(
        "held-out loss of the integer network: {quantized:.6}"
    ));
    Ok(network)
}

/// The two evaluations measured against the tables on held-out positions.
fn measure(
    dir: &Path,
    held: &[Record],
    network: &Network,
    most: usize,
    pool: &rayon::ThreadPool,
) -> Result<(), String> {
    let tables = crate::tables::Tables::open(dir, Variant::Oware);
    let reach = tables
        .reach()
        .ok_or_else(|| format!("--tables {}: no oware tables there", dir.display()))?;
    let boards = table_positions(held, reach as u32, most);
    let hand = |b: &Board| evaluate(b, &Weights::OWARE.into());
    let net = |b: &Board| network.evaluate(b);
    let shipped = |b: &Board| Network::shipped().evaluate(b);
    for (name, eval) in [
        ("hand evaluation", &hand as &(dyn Fn(&Board) -> i32 + Sync)),
        ("shipped network", &shipped),
        ("network", &net),
    ] {
        let a = pool.install(|| agreement(&boards, &tables, eval));
        if a.positions == 0 {
            say(format!(
                "{name}: no held-out positions of games within the tables ({reach} seeds)"
            ));
            continue;
        }
        say(format!(
            "{name}: {} held-out positions within the tables ({reach} seeds): sibling moves \
             ordered as the tables order them {:.1}% of {} pairs; mean absolute error {:.2} \
             seeds",
            a.positions,
            100.0 * a.ordered / a.pairs.max(1) as f64,
            a.pairs,
            a.mae
        ));
    }
    Ok(())
}
