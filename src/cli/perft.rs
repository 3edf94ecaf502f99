//! `awari perft`: the game tree's leaf count at a depth, per root move, from a start or a
//! given position and moves; the counting itself is the library's
//! ([`crate::engine::bench::perft_lines`]).

use super::say;
use crate::engine::bench::perft_lines;
use crate::engine::search::Control;
use crate::rules::{Game, Variant};

#[derive(clap::Args)]
pub(super) struct PerftArgs {
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

/// The game the user asked for.
fn setup(args: &PerftArgs) -> Result<Game, String> {
    super::game_from(
        args.variant,
        args.fen.as_deref(),
        args.seeds,
        args.moves.as_deref(),
    )
}

pub(super) fn run(args: &PerftArgs) -> Result<(), String> {
    let game = setup(args)?;
    say(format!(
        "perft {} depth {} from {}",
        args.variant,
        args.depth,
        game.board()
    ));
    if let Some(outcome) = game.outcome() {
        say(format!("game over: {outcome}"));
    }
    perft_lines(&game, args.depth, &Control::new(false), &mut say);
    Ok(())
}
