//! The self-play games: game `i` from its opening line and its own random moves, then a
//! search of fixed depth to the end, each position a record; and the check that records are a
//! game's plies without a gap, which a resumed `.part` must pass.

use super::format::{Record, NO_TABLE};
use super::DatagenOptions;
use crate::rng::{item_seed, Rng};
use crate::rules::{Board, Game, Variant};
use crate::search::fixed::search_to_depth;
use crate::search::tt::HashTable;
use crate::sys::lines::{excerpt, MAX_OPENING_LINE};
use crate::tables::Tables;
use crate::tools::MAX_GAME_PLIES;
use std::path::Path;

/// Game `index` of the run: its records (none if it did not end within
/// [`MAX_GAME_PLIES`] or its opening is not legal).
pub fn play_game(options: &DatagenOptions, tables: Option<&Tables>, index: u64) -> Vec<Record> {
    let mut rng = Rng::new(item_seed(options.seed, index));
    let mut game = Game::new(Board::start(options.variant));
    if !options.openings.is_empty() {
        let line = &options.openings[(index % options.openings.len() as u64) as usize];
        if game.play_text(line).is_err() {
            return Vec::new();
        }
    }
    for _ in 0..options.random_plies {
        let moves: Vec<_> = game.legal_moves().into_iter().collect();
        if moves.is_empty() || game.outcome().is_some() {
            break;
        }
        let m = moves[rng.below(moves.len() as u64) as usize];
        game.play(m).expect("a legal move");
    }
    let evaluator = options.evaluator();
    let mut table = HashTable::new(1);
    let mut seen = Vec::new();
    while game.outcome().is_none() && game.moves().len() < MAX_GAME_PLIES {
        let board = *game.board();
        let found = search_to_depth(&game, options.depth, evaluator, tables, &mut table);
        let Some(m) = found.best else {
            break;
        };
        let exact = tables.and_then(|t| t.probe(&board)).and_then(|v| v.exact());
        // Plies since the start position, the opening's included (the board's own count is
        // kept only by rule sets with a ply limit).
        let ply = u16::try_from(game.moves().len()).unwrap_or(u16::MAX);
        seen.push((board, found.score, exact, ply));
        game.play(m).expect("the search plays legal moves");
    }
    let Some(outcome) = game.outcome() else {
        return Vec::new();
    };
    seen.into_iter()
        .map(|(board, score, exact, ply)| {
            let me = board.side_to_move();
            let result = match outcome.winner {
                None => 1,
                Some(w) if w == me => 2,
                Some(_) => 0,
            };
            Record {
                houses: board.houses(),
                stores: board.stores(),
                side: me,
                result,
                table: exact.unwrap_or(NO_TABLE),
                ply,
                score: score.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16,
                game: index as u32,
            }
        })
        .collect()
}

/// Whether `records` are game `game`'s in `variant`, each a legal position and each after the
/// first one move from the one before (a replay: the plies without a gap).
pub(super) fn whole_game(variant: Variant, game: u32, records: &[Record]) -> Result<(), String> {
    let parts = |b: &Board| (b.houses(), b.stores(), b.side_to_move());
    let mut before: Option<Board> = None;
    for (k, r) in records.iter().enumerate() {
        if r.game != game {
            return Err(format!("its record {k} is game {}'s", r.game));
        }
        let board = r
            .board(variant)
            .ok_or_else(|| format!("its record {k} is no position of {variant}"))?;
        if let Some(b) = before {
            // A record keeps no pending bonus move (ahl's): either may have been there.
            let bonus = [false, variant == Variant::Ahl];
            let reached = bonus.iter().any(|&bonus| {
                let (houses, stores, side) = parts(&b);
                Board::from_parts(variant, houses, stores, side, bonus, b.ply()).is_ok_and(|b| {
                    b.legal_moves()
                        .into_iter()
                        .any(|m| parts(&b.play(m)) == parts(&board))
                })
            });
            if !reached {
                return Err(format!("its record {k} is no move from record {}", k - 1));
            }
        }
        before = Some(board);
    }
    Ok(())
}

/// The opening lines of the suite `path`: a line's moves before any `#`, blank lines skipped,
/// each checked to be legal in `variant` from the start. Read as the referee reads its suites
/// ([`crate::sys::lines::read_text`]: no line past [`MAX_OPENING_LINE`] is held), and a bad
/// line is quoted cut short ([`excerpt`]), by its number in the file.
pub fn read_openings(path: &Path, variant: Variant) -> Result<Vec<String>, String> {
    let text = crate::sys::lines::read_text(path, MAX_OPENING_LINE, "an opening line")?;
    let mut lines = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut game = Game::new(Board::start(variant));
        game.play_text(line)
            .map_err(|e| format!("line {} ({}): {e}", n + 1, excerpt(line, 60)))?;
        lines.push(line.to_string());
    }
    Ok(lines)
}
