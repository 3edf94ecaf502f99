//! The table values against a search of this file's own that plays the game out under the
//! rules, from an empty history (right after a capture), applying oware's repetition rule
//! itself; `tables_strategy.rs` proves the same bounds a second, independent way.
//!
//! Oware: an entry `lo..hi` bounds the seeds of those on the board that the side to move ends
//! with (doc/tables.md). A capture leaves the layer: the game goes on from a fresh
//! position (empty history) whose value the search proves, recursively, for both bounds ("the
//! side to move gets `lo`", "the opponent gets `n - hi`"), so that `lo == hi` proves the exact
//! value. The search is a path search with a null window that keeps the positions since the
//! last capture: a move to one of them ends the game there, each side collecting its own row.
//! Only positions right after a capture are remembered (their answer does not depend on a
//! history). Every line is followed to its end, so the cost grows fast: every position up to 5
//! seeds in release.
//!
//! The tables choose only the order of moves: what is proven comes from the rules alone. A
//! proof that is not found fails the test.
//!
//! Kalah: no cycles, so every entry is exact and equals a plain memoized full-width search.
//! The point values are checked against this file's own reading of their definition.

use awari::rules::{Board, Side, Variant};
use awari::tables::index::{from_side, layer_size, unrank};
use awari::tables::{Tables, Value};
use std::collections::HashMap;

use crate::common::values::{board, on_board, position, suggested, tables, Position};

/// The history-following path search.
struct Prover<'a> {
    tables: &'a Tables,
    /// Proven answers for positions right after a capture (empty history): only these may be
    /// remembered, since the answer elsewhere depends on the history.
    fresh: HashMap<(Position, i32), bool>,
    nodes: u64,
    budget: u64,
}

impl Prover<'_> {
    /// Whether the side to move at `b` (empty stores) can end with at least `k` of the board's
    /// seeds, `history` holding the positions since the last capture, `b` last.
    fn at_least(&mut self, b: &Board, history: &mut Vec<Position>, k: i32) -> bool {
        let n = on_board(b);
        if k <= 0 {
            return true;
        }
        if k > n {
            return false;
        }
        self.nodes += 1;
        assert!(
            self.nodes <= self.budget,
            "proof budget of {} nodes exceeded at {b}",
            self.budget
        );
        let me = b.side_to_move();
        if b.moves_or_end().is_err() {
            return b.row_seeds(me) as i32 >= k;
        }
        for m in suggested(self.tables, b) {
            let c = b.play_unchecked(m);
            let gain = i32::from(c.store(me));
            let enough = if gain > 0 {
                // A capture: the game goes on from a fresh position with an empty history.
                let rest = n - gain;
                let child = board(Variant::Oware, c.houses(), c.side_to_move());
                !self.fresh_at_least(&child, rest - (k - gain) + 1)
            } else {
                let p = position(&c);
                if history.contains(&p) {
                    // Repetition: each side collects its own row, here.
                    n - c.row_seeds(c.side_to_move()) as i32 >= k
                } else {
                    history.push(p);
                    let r = !self.at_least(&c, history, n - k + 1);
                    history.pop();
                    r
                }
            };
            if enough {
                return true;
            }
        }
        false
    }

    fn fresh_at_least(&mut self, b: &Board, k: i32) -> bool {
        let key = (position(b), k);
        if let Some(&r) = self.fresh.get(&key) {
            return r;
        }
        let mut history = vec![key.0];
        let r = self.at_least(b, &mut history, k);
        self.fresh.insert(key, r);
        r
    }

    /// Checks the table's bounds for `b` (empty history).
    fn check(&mut self, b: &Board) {
        self.nodes = 0;
        let v = self.tables.probe(b).expect("in the tables");
        let (lo, hi) = (i32::from(v.lo), i32::from(v.hi));
        assert!(
            self.fresh_at_least(b, lo),
            "{b}: the side to move cannot force {lo}, the table's lo"
        );
        assert!(
            !self.fresh_at_least(b, hi + 1),
            "{b}: the side to move can force {}, above the table's hi {hi}",
            hi + 1
        );
    }
}

#[test]
fn oware_bounds_hold_for_every_small_position_by_path_search() {
    // Debug covers every position up to 4 seeds.
    let top = if cfg!(unoptimized) { 4 } else { 5 };
    let (_dir, tables) = tables(Variant::Oware, top, "path");
    let mut prover = Prover {
        tables: &tables,
        fresh: HashMap::new(),
        nodes: 0,
        budget: 5_000_000,
    };
    for n in 0..=top {
        for index in 0..layer_size(n) {
            let houses = unrank(n, index);
            let b = board(Variant::Oware, houses, Side::South);
            prover.check(&b);
            // The other seat reads the same entry (and would be proven by the same search,
            // rows swapped).
            let north = board(Variant::Oware, from_side(houses, Side::North), Side::North);
            assert_eq!(tables.probe(&north), tables.probe(&b), "{north}");
        }
    }
}

/// The path values `awari tables paths` proves (`awari::tables::paths` and `rounds`) against
/// this file's own path search, on every position up to 5 seeds (4 in debug), to the end of
/// the game: each position's exact value (found here by asking for every `k` between the
/// table's bounds) lies within the proven bounds, and equals them where they meet. Twice: with
/// the path search in every layer, and in the layers up to 3 only, so that the larger layers'
/// exact values come from the rounds of safe cores alone.
#[test]
fn path_values_proven_by_the_library_equal_an_exhaustive_path_search() {
    let top = if cfg!(unoptimized) { 4 } else { 5 };
    let (_dir, tables) = tables(Variant::Oware, top, "paths");
    let mut prover = Prover {
        tables: &tables,
        fresh: HashMap::new(),
        nodes: 0,
        budget: 5_000_000,
    };
    let mut values: Vec<Vec<(Value, i32)>> = Vec::new();
    for n in 0..=top {
        let layer = (0..layer_size(n))
            .map(|index| {
                let b = board(Variant::Oware, unrank(n, index), Side::South);
                let table = tables.probe(&b).unwrap();
                let mut value = i32::from(table.lo);
                while value < i32::from(table.hi) {
                    prover.nodes = 0;
                    if !prover.fresh_at_least(&b, value + 1) {
                        break;
                    }
                    value += 1;
                }
                (table, value)
            })
            .collect();
        values.push(layer);
    }
    for search_seeds in [top, 3] {
        let mut lines = Vec::new();
        let proven = awari::tables::paths::prove_tables(
            &tables,
            top,
            20_000,
            search_seeds,
            false,
            &mut lines,
        )
        .unwrap()
        .bounds;
        let lines = String::from_utf8(lines).unwrap();
        assert_eq!(lines.lines().count(), top + 1, "{lines}");
        // Positions bounded in the tables, and of those, exact now: in layers up to 3, and
        // above (by the path search or the rounds alone).
        let mut counts = [[0; 2]; 2];
        for (n, layer) in proven.iter().enumerate() {
            assert_eq!(layer.len() as u64, layer_size(n));
            for (index, &byte) in layer.iter().enumerate() {
                let (table, value) = values[n][index];
                let path = Value::decode(byte, n).unwrap();
                let at = || format!("layer {n} index {index}, search up to {search_seeds}");
                assert!(
                    table.lo <= path.lo && path.hi <= table.hi,
                    "{}: path bounds {path:?} outside the table's {table:?}",
                    at()
                );
                assert!(
                    i32::from(path.lo) <= value && value <= i32::from(path.hi),
                    "{}: the path value is {value}, outside the proven {path:?}",
                    at()
                );
                if table.exact().is_none() {
                    let c = &mut counts[usize::from(n > 3)];
                    c[0] += 1;
                    c[1] += usize::from(path.exact().is_some());
                }
            }
        }
        // Exact and bounded values above 3 seeds both occur, so both claims were tested there.
        let [_, [bounded, exact]] = counts;
        assert!(exact > 0 && exact < bounded, "{counts:?}\n{lines}");
    }
}

/// Kalah's value by plain full-width search, memoized (no history matters: no cycles).
fn kalah_value(b: &Board, memo: &mut HashMap<Position, i32>) -> i32 {
    let key = position(b);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let me = b.side_to_move();
    let v = match b.moves_or_end() {
        Err(_) => b.row_seeds(me) as i32,
        Ok(legal) => legal
            .map(|m| {
                let c = b.play_unchecked(m);
                let gain = i32::from(c.store(me));
                let child = board(Variant::Kalah, c.houses(), c.side_to_move());
                let rest = on_board(&child);
                if c.side_to_move() == me {
                    gain + kalah_value(&child, memo)
                } else {
                    gain + rest - kalah_value(&child, memo)
                }
            })
            .max()
            .expect("a game that goes on has a move"),
    };
    memo.insert(key, v);
    v
}

#[test]
fn kalah_values_are_exact_and_equal_a_full_width_search() {
    let top = if cfg!(unoptimized) { 6 } else { 9 };
    let (_dir, tables) = tables(Variant::Kalah, top, "kalah");
    let mut memo = HashMap::new();
    for n in 0..=top {
        for index in 0..layer_size(n) {
            let houses = unrank(n, index);
            let b = board(Variant::Kalah, houses, Side::South);
            let v = tables.probe(&b).unwrap();
            assert_eq!(v.exact(), Some(kalah_value(&b, &mut memo) as u8), "{b}");
            // The other seat reads the same entry.
            let north = board(Variant::Kalah, from_side(houses, Side::North), Side::North);
            assert_eq!(tables.probe(&north), Some(v), "{north}");
        }
    }
}

/// The point values (`awari::tables::points`, written by `awari tables paths`) against this
/// test's own reading of their definition, from the rules' moves: the value of the game of
/// `HORIZON` moves, every position's value kept within its path bounds, a position reached at
/// the horizon worth its own row. All `HORIZON` passes are run here, so the library's early
/// end (a pass that changes nothing) is checked too. And every point value lies within its
/// position's path bounds and is the value where they meet.
#[test]
fn point_values_are_the_horizon_games_values_within_the_path_bounds() {
    use awari::tables::layer::{moves, Moves, Step};
    use awari::tables::points::HORIZON;
    let top = if cfg!(unoptimized) { 6 } else { 7 };
    let (_dir, tables) = tables(Variant::Oware, top, "points");
    let layers =
        awari::tables::paths::prove_tables(&tables, top, 2_000, 4, false, &mut std::io::sink())
            .unwrap();
    let (mut bounded, mut between) = (0, 0);
    let mut mine: Vec<Vec<u8>> = Vec::new();
    for n in 0..=top {
        let nb = n as u8;
        let bounds: Vec<Value> = layers.bounds[n]
            .iter()
            .map(|&b| Value::decode(b, n).unwrap())
            .collect();
        // Per position: the best exit (by the smaller layers' values found here), the moves
        // within the layer, and the row; `None` where the game is over.
        type Node = Option<(Option<u8>, Vec<usize>, u8)>;
        let graph: Vec<Node> = (0..layer_size(n))
            .map(|index| {
                let houses = unrank(n, index);
                let Moves::Steps(steps, len) = moves(Variant::Oware, houses) else {
                    return None;
                };
                let mut exit = None;
                let mut inside = Vec::new();
                for step in &steps[..len] {
                    match *step {
                        Step::Inside(j) => inside.push(j as usize),
                        Step::Exit {
                            gain,
                            same_side,
                            layer,
                            index,
                        } => {
                            let q = mine[layer][index as usize];
                            let v = Value { lo: q, hi: q }.after_exit(gain, same_side, layer).lo;
                            exit = exit.max(Some(v));
                        }
                    }
                }
                Some((exit, inside, houses[..6].iter().sum()))
            })
            .collect();
        let mut values: Vec<u8> = graph
            .iter()
            .zip(&bounds)
            .map(|(g, b)| g.as_ref().map_or(b.lo, |g| g.2.clamp(b.lo, b.hi)))
            .collect();
        for _ in 0..HORIZON {
            values = graph
                .iter()
                .zip(&bounds)
                .enumerate()
                .map(|(i, (g, b))| match g {
                    Some((exit, inside, _)) if b.exact().is_none() => {
                        let best = inside.iter().map(|&j| nb - values[j]).max();
                        best.max(*exit).unwrap().clamp(b.lo, b.hi)
                    }
                    _ => values[i],
                })
                .collect();
        }
        for (index, (&p, b)) in layers.points[n].iter().zip(&bounds).enumerate() {
            let at = format!("layer {n} index {index}, bounds {b:?}");
            assert_eq!(p, values[index], "{at}");
            assert!(b.lo <= p && p <= b.hi, "{at}: {p}");
            if let Some(v) = b.exact() {
                assert_eq!(p, v, "{at}");
            } else {
                bounded += 1;
                between += usize::from(b.lo < p && p < b.hi);
            }
        }
        mine.push(values);
    }
    // Bounded positions whose point value lies strictly between their bounds occur, so the
    // moves were tested where the clamp does not decide alone.
    assert!(between > 0 && bounded > between, "{between} of {bounded}");
}
