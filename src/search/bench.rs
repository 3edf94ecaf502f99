//! `bench` and `go perft`: fixed work that prints figures. `bench` searches a fixed set of
//! positions to a fixed depth with a fresh 8 MiB table (a million entries) each,
//! single-threaded and without time limits, so its node count is a signature of the search: it
//! changes only when the search does. Its nodes per second measure speed.

use super::instant::Instant;
use crate::rules::{divide_until, Board, Game, Variant};
use crate::search::eval::Evaluator;
use crate::search::time::Limits;
use crate::search::tt::HashTable;
use crate::search::{self, Control, Setup};
use crate::tables::Tables;
use std::path::Path;

/// The bench positions: (variant, moves from the start, depth). Oware start and the
/// reference middle games of protocol.md, then each other rule set's start.
pub const POSITIONS: &[(Variant, &str, u32)] = &[
    (Variant::Oware, "", 22),
    (Variant::Oware, "FfBeBcDaAbCcDbAcCaDcBeAbBcCdDf", 22),
    (
        Variant::Oware,
        "FeDbBdAaEcDdFaEaCdDcEdFaBfEcFdDaEcFfAaBeFdEfDeAcBdEbBcAfAdCf",
        24,
    ),
    (
        Variant::Oware,
        "FeCbBdAaEfDfCeEcAaAfAbCbEaAeAcAeFcEeCbFcAfFdDbBcAaEaDdCfBaAb",
        22,
    ),
    (
        Variant::Oware,
        "FfEcCcBfDcEbAbEfAdAcEdDaAeBbDdFeDbEeCcAdDfBaEaDdEfBbAcBeBdCa",
        22,
    ),
    (Variant::Awari, "DfAcCbDfFbBaFcBfBdFfAe", 22),
    (Variant::Ahl, "", 22),
    (Variant::Kalah, "", 20),
    (Variant::Ayoayo, "", 18),
];

/// Hash table size for `bench`, fixed so the signature does not depend on `Hash`: a million
/// entries in 262,144 buckets.
pub const BENCH_HASH_MB: usize = 8;

/// Runs the bench (every position at its own depth, or all at `depth`), writing one line per
/// position and a total through `out`; returns the total nodes. Stops early when `control`
/// is stopped (the total then says so). With `tables`, the search probes the endgame tables of
/// that directory, and with `threads` above 1 it searches with that many threads: the node
/// count is then no longer the search's signature (threads make it vary from run to run).
/// `evaluator` gives each rule set's evaluation: [`Evaluator::engine`] is the engine's as it
/// plays, [`Evaluator::terms`] the terms alone (oware without its network).
pub fn bench(
    depth: Option<u32>,
    tables: Option<&Path>,
    threads: usize,
    evaluator: fn(Variant) -> Evaluator,
    control: &Control,
    out: &mut dyn FnMut(String),
) -> u64 {
    let started = Instant::now();
    let mut total = 0;
    let mut tbhits = 0;
    let mut table = HashTable::new(BENCH_HASH_MB);
    for (i, &(variant, moves, own_depth)) in POSITIONS.iter().enumerate() {
        let mut game = Game::new(Board::start(variant));
        game.play_text(moves).expect("bench moves are legal");
        table.clear();
        #[cfg(feature = "native")]
        let opened = tables
            .filter(|_| crate::tables::probe::supported(variant))
            .map(|dir| Tables::shared(dir, variant));
        // Without an operating system there is no directory to open.
        #[cfg(not(feature = "native"))]
        let opened: Option<std::sync::Arc<Tables>> = tables.and(None);
        let limits = Limits {
            depth: Some(depth.unwrap_or(own_depth)),
            ..Limits::default()
        };
        let setup = Setup {
            tt: &mut table,
            threads,
            control,
            evaluator: evaluator(variant),
            limits: &limits,
            overhead: 0,
            tables: opened.as_deref(),
            path_values: false,
        };
        let t = Instant::now();
        let found = search::search(&game, setup, &mut |_| {});
        total += found.nodes;
        tbhits += found.tbhits;
        let best = found.best.map_or("0000".to_string(), |m| m.to_string());
        out(format!(
            "bench {}/{} {variant} {} depth {}: nodes {} best {best} time {} ms",
            i + 1,
            POSITIONS.len(),
            game.board(),
            found.depth,
            found.nodes,
            t.elapsed().as_millis()
        ));
        if control.stopped() {
            out("bench stopped".to_string());
            break;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let hits = if tables.is_some() {
        format!(" tbhits {tbhits}")
    } else {
        String::new()
    };
    out(format!(
        "bench nodes {total} time {} ms nps {:.0}{hits}",
        (seconds * 1e3).round(),
        total as f64 / seconds.max(1e-9)
    ));
    total
}

/// `go perft D` and `awari perft`: divide counts, total, time and leaves per second; returns
/// the total. A stop ends it early with `perft stopped after T ms` instead of partial counts,
/// and `None`.
pub fn perft_lines(
    game: &Game,
    depth: u32,
    control: &Control,
    out: &mut dyn FnMut(String),
) -> Option<u64> {
    let started = Instant::now();
    let Some(counts) = divide_until(game, depth, &control.stop) else {
        out(format!(
            "perft stopped after {} ms",
            started.elapsed().as_millis()
        ));
        return None;
    };
    let total: u64 = if depth == 0 {
        1
    } else {
        counts.iter().map(|&(_, n)| n).sum()
    };
    let seconds = started.elapsed().as_secs_f64();
    for (m, n) in &counts {
        out(format!("{m} {n}"));
    }
    out(format!("total {total}"));
    out(format!("time {:.3} ms", seconds * 1e3));
    out(format!("leaves/s {:.0}", total as f64 / seconds.max(1e-9)));
    Some(total)
}
