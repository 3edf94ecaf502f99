//! `awari play`: the terminal game's flags, turned into [`crate::play::terminal::Options`]; the game is
//! [`crate::play::terminal::play`].

use crate::classic::opponent::Opponent;
use crate::rules::{Board, Variant};
use std::path::PathBuf;

#[derive(clap::Args)]
pub(super) struct PlayArgs {
    /// Rule set.
    #[arg(long, default_value = "ahl")]
    variant: Variant,
    /// The computer (default: basic in ahl, engine elsewhere).
    #[arg(long, value_enum)]
    opponent: Option<Opponent>,
    /// Search depth of the engine (default 8) or of evolved (default 7).
    #[arg(long)]
    depth: Option<u32>,
    /// Who moves first (the computer then plays South).
    #[arg(long, value_enum, default_value_t = First::You)]
    first: First,
    /// basic's memory of the games it did not win (it learns as you play).
    #[arg(long = "learn-file")]
    learn_file: Option<PathBuf>,
    /// Seed for greedy's random choice between equal moves.
    #[arg(long)]
    seed: Option<u64>,
    /// Start every game from this position (notation of doc/rules.md) instead of the start.
    #[arg(long)]
    fen: Option<String>,
}

/// Who moves first in `awari play`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum First {
    You,
    Computer,
}

pub(super) fn run(args: &PlayArgs) -> Result<(), String> {
    use crate::play::terminal::{play, Options};
    let opponent = match args.opponent {
        None if args.variant == Variant::Ahl => Opponent::Basic,
        None => Opponent::Engine,
        Some(o) => o,
    };
    let computer_first = args.first == First::Computer;
    let depth = args
        .depth
        .unwrap_or(if opponent == Opponent::Evolved {
            crate::classic::evolved::DEPTH
        } else {
            8
        })
        .clamp(1, 60);
    let start = match &args.fen {
        Some(text) => {
            let board =
                Board::from_notation(args.variant, text).map_err(|e| format!("--fen: {e}"))?;
            if board.outcome().is_some() {
                return Err("--fen: that game is already over".to_string());
            }
            Some(board)
        }
        None => None,
    };
    let options = Options {
        start,
        variant: args.variant,
        opponent,
        depth,
        computer_first,
        learn_file: args.learn_file.clone(),
        seed: args.seed,
    };
    let stdout = std::io::stdout();
    match play(std::io::stdin().lock(), stdout.lock(), &options) {
        Ok(()) => Ok(()),
        // A closed terminal or pipe ends the game quietly.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(e.to_string()),
    }
}
