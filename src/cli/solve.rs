//! `awari solve`: proves a kalah (either reading) or ahl position's exact value with the library's solver
//! ([`crate::tools::prove`]) and prints it with a line of best play. Ctrl-C stops it with the
//! bounds proven so far (exit status 130).

use super::say;
use crate::rules::{format_move_list, Board, Variant};
use crate::sys::stderr;
use crate::tables::Tables;
use crate::tools::prove::{supported, Proof, Solver};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

#[derive(clap::Args)]
pub(super) struct SolveArgs {
    /// Rule set: kalah, kalah-empty or ahl (the others' values depend on the game's history).
    #[arg(long, default_value = "kalah")]
    variant: Variant,
    #[command(flatten)]
    start: super::Start,
    /// Endgame tables of the rule set (kalah or kalah-empty) to use (default: the platform's
    /// data directory, awari/tables, if it holds any).
    #[arg(long)]
    tables: Option<PathBuf>,
    /// The solver's transposition table, in MiB.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..=1_048_576))]
    hash: u32,
}

/// The tables to use: those named (which must be there), else the default directory's, if any.
fn open_tables(args: &SolveArgs) -> Result<Option<Tables>, String> {
    let named = args.tables.is_some();
    if named && !args.variant.is_kalah() {
        return Err(format!(
            "--tables: there are no exact endgame tables for {} (only for kalah)",
            args.variant
        ));
    }
    let Some(dir) = args
        .tables
        .clone()
        .or_else(crate::tables::probe::default_dir)
    else {
        return Ok(None);
    };
    if !args.variant.is_kalah() {
        return Ok(None);
    }
    if named && !dir.is_dir() {
        return Err(format!("--tables {}: no such directory", dir.display()));
    }
    // The rule set's own tables: a file of the other reading of kalah is not read.
    let tables = Tables::open(&dir, args.variant);
    for problem in tables.problems() {
        stderr::line(format_args!("warning: {problem}"));
    }
    match tables.reach() {
        Some(_) => Ok(Some(tables)),
        None if named => Err(format!(
            "--tables {}: no {1} tables there (awari tables build --variant {1} --dir {0})",
            dir.display(),
            args.variant
        )),
        None => Ok(None),
    }
}

/// A side's margin as words: "wins by 10", "draws", "loses by 4".
fn result(margin: i32) -> String {
    match margin.signum() {
        1 => format!("wins by {margin}"),
        -1 => format!("loses by {}", -margin),
        _ => "draws".to_string(),
    }
}

pub(super) fn run(args: &SolveArgs) -> Result<ExitCode, String> {
    if !supported(args.variant) {
        // The library says why; checked before anything else is read.
        return Err(crate::tools::prove::SolveError::Unsupported(args.variant).to_string());
    }
    let game = args.start.game(args.variant)?;
    let tables = open_tables(args)?;
    let board = *game.board();
    let me = board.side_to_move();
    let on_board: u32 = board.houses().iter().map(|&h| u32::from(h)).sum();
    say(format!(
        "solve {} from {board}: {on_board} seeds on the board, {me} to move",
        args.variant
    ));
    say(match &tables {
        Some(t) => format!(
            "tables: {} layers 0-{} in {}",
            t.variant(),
            t.reach().unwrap_or(0),
            t.dir().display()
        ),
        None => "tables: none".to_string(),
    });
    let stop = Arc::new(AtomicBool::new(false));
    // Ctrl-C sets the flag and the solver stops; a second one ends the process at once.
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        let _ = signal_hook::flag::register_conditional_shutdown(signal, 130, Arc::clone(&stop));
        let _ = signal_hook::flag::register(signal, Arc::clone(&stop));
    }
    let hash = usize::try_from(args.hash).unwrap_or(usize::MAX);
    let mut solver = Solver::new(hash, tables.as_ref(), &stop)
        .map_err(|e| format!("--hash {}: {e}", args.hash))?;
    let proof = solver
        .solve(&board, &mut |p| {
            say(format!(
                "bounds {}..{} nodes {} time {:.3} s",
                p.lower,
                p.upper,
                p.nodes,
                p.time.as_secs_f64()
            ))
        })
        .map_err(|e| e.to_string())?;
    let interrupted = stop.load(Ordering::Relaxed) && proof.exact().is_none();
    match proof.exact() {
        Some(v) => {
            let total = i32::from(board.total_seeds());
            say(format!(
                "value {v}: {me} (to move) {} with best play, final stores {}-{} ({me} first)",
                result(v),
                (total + v) / 2,
                (total - v) / 2
            ));
            say(format!("pv {}", pv_text(&board, &proof, tables.as_ref())));
        }
        None => say(format!(
            "interrupted: the value for {me} (to move) is between {} and {} (proven so far)",
            proof.lower, proof.upper
        )),
    }
    let seconds = proof.time.as_secs_f64();
    say(format!(
        "nodes {} tbhits {} time {:.3} s nps {:.0}",
        proof.nodes,
        proof.tbhits,
        seconds,
        proof.nodes as f64 / seconds.max(1e-9)
    ));
    Ok(if interrupted {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

/// The principal variation, and how it ends: the game over, or the tables' value.
fn pv_text(board: &Board, proof: &Proof, tables: Option<&Tables>) -> String {
    let mut end = *board;
    for &m in &proof.pv {
        end = end.play_unchecked(m);
    }
    let tail = match end.outcome() {
        Some(outcome) => format!("(game over: {outcome})"),
        None if tables.is_some_and(|t| t.probe(&end).is_some()) => {
            format!("(then the tables: {end})")
        }
        None => format!("({end})"),
    };
    if proof.pv.is_empty() {
        tail
    } else {
        format!("{} {tail}", format_move_list(&proof.pv))
    }
}
