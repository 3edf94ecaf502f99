//! The moves a bounded table root leaves to the search (`awari::search::table_root`) keep what
//! the tables guarantee, whichever of them is played, against every reply: checked by playing
//! out every such line with the game's history (oware's repetition rule through `Game`), from
//! every oware position of a few seeds whose value is only bounded, as right after a capture.
//!
//! A line stops when the game ends (the side must have at least its stores plus the root's
//! `lo`) or leaves the layer by a capture (the position then has an empty history, and what the
//! tables guarantee from it, tested in `tables_values.rs`, must be at least as much).

use awari::rng::Rng;
use awari::rules::{Board, EndReason, Game, Move, Side, Variant};
use awari::search::table_root::{ends_by_repetition, plan};
use awari::tables::index::{layer_size, unrank};
use awari::tables::Tables;
use std::collections::HashSet;

use crate::common;

fn tables(seeds: usize) -> (common::Scratch, Tables) {
    let dir = common::scratch("table-root", &seeds.to_string());
    common::build_tables(&dir, Variant::Oware, seeds);
    let tables = Tables::open(&dir, Variant::Oware);
    assert!(tables.problems().is_empty());
    (dir, tables)
}

/// What `side` is sure of in `game`'s position from the tables: its store plus its share of
/// the board (its `lo`, or the board less the opponent's `hi`).
fn sure_of(tables: &Tables, board: &Board, side: Side) -> u32 {
    let v = tables.probe(board).expect("within reach");
    let on_board: u32 = board.houses().iter().map(|&h| u32::from(h)).sum();
    let share = if board.side_to_move() == side {
        u32::from(v.lo)
    } else {
        on_board - u32::from(v.hi)
    };
    u32::from(board.store(side)) + share
}

struct Walk<'t> {
    tables: &'t Tables,
    side: Side,
    /// The side's seeds at the end that the root guarantees.
    guaranteed: u32,
    /// Lines followed to their end (or exit); positions where the rule left a choice.
    lines: u64,
    choices: u64,
    budget: u64,
    /// States already followed to the end of every line: the position and the set of those
    /// since the last capture (as the XOR of their keys). Nothing else decides what follows:
    /// the repetition rule and the rule's choices read that set, in any order.
    done: HashSet<(u64, u64)>,
}

impl Walk<'_> {
    /// Follows every line from `game`: the side plays any move the rule allows, the opponent
    /// any legal move. `Err` describes a line that ends below the guarantee.
    fn walk(&mut self, game: &mut Game) -> Result<(), String> {
        if self.budget == 0 {
            return Ok(());
        }
        self.budget -= 1;
        let board = *game.board();
        let seen = game
            .positions()
            .iter()
            .rev()
            .skip(1)
            .take_while(|b| b.stores() == board.stores())
            .fold(0, |set, b| set ^ b.key());
        if self.done.contains(&(board.key(), seen)) {
            return Ok(());
        }
        let line = || awari::rules::format_move_list(game.moves());
        if let Some(outcome) = game.outcome() {
            self.lines += 1;
            let got = u32::from(outcome.stores[self.side.index()]);
            if got < self.guaranteed {
                return Err(format!(
                    "{}: ends {got} < {} ({:?})",
                    line(),
                    self.guaranteed,
                    outcome.reason
                ));
            }
            return Ok(());
        }
        let start_stores = game.start().stores();
        if board.stores() != start_stores {
            self.lines += 1;
            let sure = sure_of(self.tables, &board, self.side);
            if sure < self.guaranteed {
                return Err(format!(
                    "{}: leaves for {sure} < {}",
                    line(),
                    self.guaranteed
                ));
            }
            return Ok(());
        }
        let moves = if board.side_to_move() == self.side {
            let root = plan(self.tables, game, game.legal_moves()).expect("within reach");
            if root.allowed.len() > 1 {
                self.choices += 1;
            }
            root.allowed
        } else {
            game.legal_moves()
        };
        for m in moves {
            game.play(m).unwrap();
            let result = self.walk(game);
            game.undo();
            result?;
        }
        if self.budget > 0 {
            self.done.insert((board.key(), seen));
        }
        Ok(())
    }
}

/// Every bounded position of `n` seeds, South to move, as right after a capture (the other
/// seeds split between the stores).
fn bounded(tables: &Tables, n: usize) -> impl Iterator<Item = Board> + '_ {
    (0..layer_size(n)).filter_map(move |index| {
        let rest = 48 - n as u8;
        let stores = [rest / 2, rest - rest / 2];
        let board = Board::from_parts(
            Variant::Oware,
            unrank(n, index),
            stores,
            Side::South,
            false,
            0,
        )
        .unwrap();
        let value = tables.probe(&board).unwrap();
        (value.exact().is_none() && board.outcome().is_none()).then_some(board)
    })
}

/// What the side to move at `board` is sure of from the tables: its store plus its `lo`.
fn guaranteed(tables: &Tables, board: &Board) -> u32 {
    sure_of(tables, board, board.side_to_move())
}

#[test]
fn every_move_a_bounded_root_allows_keeps_its_lo_against_every_reply() {
    let (_dir, tables) = tables(5);
    let (mut positions, mut choices, mut lines) = (0, 0, 0);
    for n in 1..=5 {
        for board in bounded(&tables, n) {
            positions += 1;
            let mut walk = Walk {
                tables: &tables,
                side: board.side_to_move(),
                guaranteed: guaranteed(&tables, &board),
                lines: 0,
                choices: 0,
                budget: 1_000_000,
                done: HashSet::new(),
            };
            let mut game = Game::new(board);
            if let Err(e) = walk.walk(&mut game) {
                panic!("{board} ({:?}): {e}", tables.probe(&board));
            }
            assert!(
                walk.budget > 0,
                "{board}: not followed to the end of every line"
            );
            choices += walk.choices;
            lines += walk.lines;
        }
    }
    println!(
        "{positions} bounded positions up to 5 seeds: {lines} lines, {choices} positions where \
         the rule left a choice"
    );
    assert!(positions > 500 && choices > 10_000, "too little tested");
}

/// Random lines from bounded positions of 6 to 12 seeds, too many to follow every line: the
/// side plays a random move among those the rule allows; the opponent a random legal move, or
/// one that repeats a position whenever it can (the repetitions the rule must keep harmless);
/// both mostly avoid captures, which end a line.
#[test]
fn random_lines_from_larger_bounded_roots_keep_their_lo() {
    let top = 12;
    let (_dir, tables) = tables(top);
    let mut rng = Rng::new(7);
    let (mut games, mut choices, mut repeated, mut long) = (0, 0, 0, 0);
    for n in 6..=top {
        let starts: Vec<Board> = bounded(&tables, n).collect();
        for _ in 0..1000 {
            let start = starts[rng.below(starts.len() as u64) as usize];
            let side = start.side_to_move();
            let floor = guaranteed(&tables, &start);
            let seeks_repetition = rng.below(2) == 0;
            let mut game = Game::new(start);
            games += 1;
            loop {
                let board = *game.board();
                let line = || awari::rules::format_move_list(game.moves());
                if let Some(outcome) = game.outcome() {
                    let got = u32::from(outcome.stores[side.index()]);
                    assert!(got >= floor, "{start}: {} ends {got} < {floor}", line());
                    repeated += u64::from(outcome.reason == EndReason::Repetition);
                    long += u64::from(game.moves().len() >= 10);
                    break;
                }
                if board.stores() != start.stores() {
                    let sure = sure_of(&tables, &board, side);
                    assert!(
                        sure >= floor,
                        "{start}: {} leaves for {sure} < {floor}",
                        line()
                    );
                    break;
                }
                // Both sides mostly keep the play inside the layer, where repetitions happen.
                let inside = |moves: Vec<Move>, rng: &mut Rng| -> Vec<Move> {
                    let quiet: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|&m| board.play_unchecked(m).stores() == board.stores())
                        .collect();
                    if quiet.is_empty() || rng.below(4) == 0 {
                        moves
                    } else {
                        quiet
                    }
                };
                let moves: Vec<Move> = if board.side_to_move() == side {
                    let root = plan(&tables, &game, game.legal_moves()).unwrap();
                    choices += u64::from(root.allowed.len() > 1);
                    inside(root.allowed.collect(), &mut rng)
                } else {
                    let legal: Vec<Move> = game.legal_moves().collect();
                    let repeating: Vec<Move> = legal
                        .iter()
                        .copied()
                        .filter(|&m| ends_by_repetition(&game, m))
                        .collect();
                    if seeks_repetition && !repeating.is_empty() {
                        repeating
                    } else {
                        inside(legal, &mut rng)
                    }
                };
                game.play(moves[rng.below(moves.len() as u64) as usize])
                    .unwrap();
            }
        }
    }
    println!(
        "{games} random lines ({long} of 10 plies or more), {choices} positions where the rule \
         left a choice, {repeated} ended by repetition"
    );
    assert!(choices > 5_000 && long > 100, "too little tested");
}

/// A root the tables restrict to some of its moves is searched among those alone: its score is
/// not the position's, so, as under `searchmoves`, it is not stored in the table as the
/// position's value, where a later search reaching the position below its root would take it.
/// (The position can still be stored from deeper in the tree, at a lesser depth.)
#[test]
fn a_root_the_tables_restrict_is_not_stored_as_the_positions_value() {
    use awari::search::eval::Weights;
    use awari::search::time::Limits;
    use awari::search::tt::HashTable;
    use awari::search::{search, Control, Setup};
    let (_dir, tables) = tables(8);
    let depth = 8;
    let mut checked = 0;
    for n in 6..=8 {
        for board in bounded(&tables, n).step_by(97) {
            let game = Game::new(board);
            let legal = game.legal_moves();
            let Some(root) = plan(&tables, &game, legal) else {
                continue;
            };
            if root.settled() || root.allowed == legal {
                continue;
            }
            let mut table = HashTable::new(4);
            let control = Control::new(false);
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let setup = Setup {
                tt: &mut table,
                threads: 1,
                control: &control,
                evaluator: Weights::OWARE.into(),
                limits: &limits,
                overhead: 0,
                tables: Some(&tables),
                path_values: false,
            };
            let found = search(&game, setup, &mut |_| {});
            assert!(found.best.is_some_and(|m| root.allowed.contains(m)));
            if let Some(hit) = table.probe(board.key()) {
                assert!(
                    hit.depth < depth as i32,
                    "{board}: the restricted root ({} of {} moves) stored at depth {}",
                    root.allowed.len(),
                    legal.len(),
                    hit.depth
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} restricted roots");
}
