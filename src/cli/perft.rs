//! `awari perft`: the game tree's leaf count at a depth, per root move, from a start or a
//! given position and moves; the counting itself is the library's
//! ([`crate::search::bench::perft_lines`]).

use super::say;
use crate::rules::Variant;
use crate::search::bench::perft_lines;
use crate::search::Control;

#[derive(clap::Args)]
pub(super) struct PerftArgs {
    /// Rule set: oware, awari, ahl, kalah, ayoayo or kalah-empty.
    #[arg(long, default_value = "oware")]
    variant: Variant,
    /// Plies to count to.
    #[arg(long)]
    depth: u32,
    #[command(flatten)]
    start: super::Start,
}

pub(super) fn run(args: &PerftArgs) -> Result<(), String> {
    let game = args.start.game(args.variant)?;
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
