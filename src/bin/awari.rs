//! The `awari` command: `awari perft ...` counts the game tree; the engine protocol (with no
//! arguments) and `awari bench` come with the engine.

use awari::rules::{divide, Board, Game, Variant};
use clap::{Parser, Subcommand};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "awari",
    version,
    about = "An Awari engine: oware, awari, ahl, kalah and ayoayo",
    after_help = "Positions use the notation of protocol.md, e.g. 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S.\n\
                  Example: awari perft --variant oware --depth 11"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the game tree at exactly DEPTH plies, per root move (divide).
    Perft(PerftArgs),
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
        None => {
            eprintln!(
                "awari: the engine protocol on stdin/stdout is not built yet; \
                 try `awari perft --depth 8` or `awari --help`"
            );
            ExitCode::from(2)
        }
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

fn run_perft(args: &PerftArgs) -> Result<(), String> {
    let game = setup(args)?;
    println!(
        "perft {} depth {} from {}",
        args.variant,
        args.depth,
        game.board()
    );
    if let Some(outcome) = game.outcome() {
        println!("game over: {outcome}");
    }
    let started = Instant::now();
    let counts = divide(&game, args.depth);
    let total: u64 = if args.depth == 0 {
        1
    } else {
        counts.iter().map(|&(_, n)| n).sum()
    };
    let seconds = started.elapsed().as_secs_f64();
    for (m, n) in &counts {
        println!("{m} {n}");
    }
    println!("total {total}");
    println!("time {:.3} ms", seconds * 1e3);
    println!("leaves/s {:.0}", total as f64 / seconds.max(1e-9));
    Ok(())
}
