//! A search with no clock and nobody to stop it: to a fixed depth, on one thread, reporting
//! nothing. What the opening book's build, the tuner's self-play and the terminal game ask of
//! the search, written once (`awari bench`, which also takes threads and `stop`, sets up its
//! own).

use super::eval::Evaluator;
use super::time::Limits;
use super::tt::HashTable;
use super::{Control, Found, Setup};
use crate::rules::Game;
use crate::tables::Tables;

/// Searches `game`'s position to `depth`, evaluated by `evaluator` (and the endgame `tables`, if any),
/// using and keeping `table`.
pub fn search_to_depth(
    game: &Game,
    depth: u32,
    evaluator: Evaluator,
    tables: Option<&Tables>,
    table: &mut HashTable,
) -> Found {
    let control = Control::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let setup = Setup {
        tt: table,
        threads: 1,
        control: &control,
        evaluator,
        limits: &limits,
        overhead: 0,
        tables,
        path_values: false,
    };
    super::search(game, setup, &mut |_| {})
}
