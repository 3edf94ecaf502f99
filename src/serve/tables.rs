//! The endgame tables on the board: for a position within their reach, each legal move's
//! value for its mover, as `awari tables probe` shows it (`7`, or `3..8` where only bounds are
//! known), and which moves are best. The page writes them on the houses (`tables.js`).
//!
//! [`values`] is the pure part: tables and a game in, the moves' values out. [`of`] reads the
//! process's tables. On a server they are opened once (`Tables::shared`) from the directory
//! `use_dir` names: the server has one directory, as the engines it starts do, so it is set
//! once at start rather than carried through every session. In the page's worker there are
//! no files: the page fetches the tables and hands them over (`use_tables`), and the engine
//! searching in the worker reads the same ones ([`held`]).

use crate::rules::Game;
use crate::tables::probe::{after_move, show, supported};
use crate::tables::{Tables, Value};
use serde::Serialize;
#[cfg(feature = "native")]
use std::path::PathBuf;
use std::sync::Arc;
#[cfg(feature = "native")]
use std::sync::OnceLock;

/// One legal move's value for the side making it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveValue {
    /// The move's letter.
    pub mv: char,
    /// The seeds of those on the board now that the mover ends the game with, both sides
    /// playing perfectly: `7`, `3..8` when the tables hold only bounds, `?` when the position
    /// after the move is in no layer present.
    pub value: String,
    /// Its lower bound is the highest of the moves' (see [`best`]).
    pub best: bool,
}

/// What the tables say of a position's moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Values {
    /// The side to move, whose values they are: `S` or `N`.
    pub side: char,
    /// The seeds on the board: what the values are counted out of.
    pub seeds: u8,
    /// Each legal move, in the order of the houses.
    pub moves: Vec<MoveValue>,
}

/// Which of the moves' values are best: those whose lower bound, what the move is sure to
/// keep, is the highest. An exact value is its own lower bound, so among exact values the
/// highest wins; a bounded move whose upper bound passes that is not marked, for the tables
/// cannot tell whether it reaches it. A move without a value (`None`) is never best.
pub fn best(values: &[Option<Value>]) -> Vec<bool> {
    let top = values.iter().flatten().map(|v| v.lo).max();
    values
        .iter()
        .map(|v| v.is_some_and(|v| Some(v.lo) == top))
        .collect()
}

/// The values of the moves of `game`'s position, if it is within `tables`' reach (its own
/// layer is present) and not over. The history since the last capture is not looked at, as
/// in `awari tables probe`: the values are those of the position with none.
pub fn values(tables: &Tables, game: &Game) -> Option<Values> {
    let board = game.board();
    if game.outcome().is_some() {
        return None;
    }
    tables.probe(board)?;
    let legal: Vec<_> = game.legal_moves().collect();
    let found: Vec<Option<Value>> = legal
        .iter()
        .map(|&m| after_move(tables, board, m))
        .collect();
    let marks = best(&found);
    let moves = legal
        .iter()
        .zip(&found)
        .zip(marks)
        .map(|((m, v), best)| MoveValue {
            mv: m.to_char(),
            value: v.map_or_else(|| "?".to_string(), show),
            best,
        })
        .collect();
    Some(Values {
        side: board.side_to_move().letter(),
        seeds: board.houses().iter().sum(),
        moves,
    })
}

/// The tables' directory for this process's pages, once set.
#[cfg(feature = "native")]
static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();

/// Names the directory the page's values come from (`--tables`, else the default one; `None`
/// where the platform has no data directory). The first call wins.
#[cfg(feature = "native")]
pub fn use_dir(dir: Option<PathBuf>) {
    let _ = DIR.set(dir);
}

/// The tables of `variant` from the directory [`use_dir`] named, opened the first time a
/// position of their rule set asks.
#[cfg(feature = "native")]
pub fn held(variant: crate::rules::Variant) -> Option<Arc<Tables>> {
    let dir = DIR.get()?.as_deref()?;
    let tables = Tables::shared(dir, variant);
    // A layer rewritten or cut short since it was opened is dropped, not read.
    tables.recheck();
    Some(tables)
}

/// The tables the page handed over, one set a rule set.
#[cfg(not(feature = "native"))]
static HELD: std::sync::Mutex<Vec<Arc<Tables>>> = std::sync::Mutex::new(Vec::new());

/// Puts `tables` to use for their rule set, in place of any held before.
#[cfg(not(feature = "native"))]
pub fn use_tables(tables: Tables) {
    let mut held = HELD
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    held.retain(|t| t.variant() != tables.variant());
    held.push(Arc::new(tables));
}

/// The tables of `variant` the page handed over, if any.
#[cfg(not(feature = "native"))]
pub fn held(variant: crate::rules::Variant) -> Option<Arc<Tables>> {
    let held = HELD
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    held.iter().find(|t| t.variant() == variant).cloned()
}

/// [`values`] from the process's tables ([`held`]), for rule sets that have them.
pub fn of(game: &Game) -> Option<Values> {
    let variant = game.board().variant();
    if !supported(variant) {
        return None;
    }
    let tables = held(variant)?;
    values(&tables, game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Board, Variant};
    use crate::tables::build::{build, BuildOptions};

    /// The moves' values as `awari tables probe` writes them (`?` for none), each best one
    /// followed by `*`: the values, and which are marked.
    fn parse(row: &str) -> (Vec<Option<Value>>, Vec<bool>) {
        row.split_whitespace()
            .map(|word| {
                let value = word.trim_end_matches('*');
                let bound = |b: &str| b.parse::<u8>().unwrap();
                let value = (value != "?").then(|| match value.split_once("..") {
                    Some((lo, hi)) => Value {
                        lo: bound(lo),
                        hi: bound(hi),
                    },
                    None => Value {
                        lo: bound(value),
                        hi: bound(value),
                    },
                });
                (value, word.ends_with('*'))
            })
            .unzip()
    }

    #[test]
    fn the_best_moves_have_the_highest_lower_bound() {
        let rows = [
            ("one exact value", "4*"),
            ("the highest exact value", "2 5* 3"),
            ("ties are all best", "8* 2 8*"),
            ("a higher upper bound is not enough", "3..8 4*"),
            ("bounds against bounds", "0..2 2..3 4..6*"),
            ("an exact value ties a lower bound", "4..6* 4*"),
            ("no value is never best", "? 0*"),
            ("nothing known", "? ?"),
            ("no moves", ""),
        ];
        for (name, row) in rows {
            let (values, marked) = parse(row);
            assert_eq!(best(&values), marked, "{name}");
        }
    }

    #[test]
    fn each_move_has_its_value_as_tables_probe_shows_it() {
        let dir = std::env::temp_dir().join(format!("awari-serve-tables-{}", std::process::id()));
        for variant in [Variant::Oware, Variant::Kalah] {
            let options = BuildOptions {
                variant,
                seeds: 8,
                threads: 1,
                dir: dir.clone(),
                bars: false,
            };
            build(&options, &mut std::io::sink()).unwrap();
        }
        // The values as `awari tables probe --dir D --variant V --fen F` prints them; a `*`
        // marks the best. `None`: no values (out of reach, or the game is over).
        let rows: &[(&str, Variant, &str, Option<&str>)] = &[
            (
                "bounds and exact values",
                Variant::Oware,
                "0-1-1-1-1-0-1-1-1-0-1-0-20-20-S",
                Some("S 8: B 0..2, C 2..3, D 0, E 4..6*"),
            ),
            (
                "two best",
                Variant::Oware,
                "0-2-1-0-1-1-1-0-0-1-1-0-20-20-S",
                Some("S 8: B 2, C 2..4, E 8*, F 8*"),
            ),
            (
                "kalah",
                Variant::Kalah,
                "1-0-1-1-1-0-0-2-0-1-0-1-20-20-S",
                Some("S 8: A 3, C 5*, D 4, E 4"),
            ),
            (
                "kalah, North to move",
                Variant::Kalah,
                "0-2-1-0-1-1-1-0-0-1-1-0-20-20-N",
                Some("N 8: a 4*, d 2, e 4*"),
            ),
            (
                "beyond the tables",
                Variant::Oware,
                "1-1-1-1-1-1-1-1-1-0-0-0-20-19-S",
                None,
            ),
            (
                "the game is over",
                Variant::Oware,
                "0-0-0-0-0-0-1-0-0-0-0-0-24-23-S",
                None,
            ),
        ];
        for &(name, variant, fen, want) in rows {
            let tables = Tables::open(&dir, variant);
            let game = Game::new(Board::from_notation(variant, fen).unwrap());
            let got = values(&tables, &game).map(|t| {
                let moves: Vec<String> = t
                    .moves
                    .iter()
                    .map(|m| format!("{} {}{}", m.mv, m.value, if m.best { "*" } else { "" }))
                    .collect();
                format!("{} {}: {}", t.side, t.seeds, moves.join(", "))
            });
            assert_eq!(got.as_deref(), want, "{name}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
