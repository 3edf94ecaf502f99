//! The table values against an independent search that plays the game out with its history.
//!
//! Oware: a table entry bounds the seeds the side to move ends with, from an empty history
//! (protocol.md, section 8). The search here follows the rules (`Board`), keeps the positions
//! since the last capture and applies the repetition rule itself: a move to a position already
//! in that history ends the game there, each side collecting its own row. It proves, with a
//! null window, that the side to move gets at least `lo` and cannot get `hi + 1`; when the
//! bounds meet, that is the exact value. Exact values of this path game are expensive (every
//! line must be followed to a repetition), so the tables only order the moves, which decides
//! how fast a proof is found, never what it proves. A proof that needs more than the node budget
//! fails the test.
//!
//! Kalah: no cycles, so every entry is exact and equals a plain memoized full-width search.

use awari::rng::Rng;
use awari::rules::{Board, Move, Side, Variant};
use awari::tables::build::{build, BuildOptions};
use awari::tables::index::{from_side, layer_size, unrank};
use awari::tables::probe::after_move;
use awari::tables::Tables;
use std::collections::HashMap;
use std::path::PathBuf;

/// A directory removed when the test ends.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn tables(variant: Variant, seeds: usize, tag: &str) -> (Scratch, Tables) {
    let dir = std::env::temp_dir().join(format!("awari-values-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let options = BuildOptions {
        variant,
        seeds,
        threads: 2,
        dir: dir.clone(),
        bars: false,
    };
    build(&options, &mut std::io::sink()).unwrap();
    let tables = Tables::open(&dir, variant);
    assert!(tables.problems().is_empty());
    (Scratch(dir), tables)
}

/// A position with empty stores, `side` to move.
fn board(variant: Variant, houses: [u8; 12], side: Side) -> Board {
    Board::from_parts(variant, houses, [0, 0], side, false, 0).unwrap()
}

fn on_board(b: &Board) -> i32 {
    b.houses().iter().map(|&h| i32::from(h)).sum()
}

type Position = ([u8; 12], Side);

/// The history-following search.
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
        let legal = match b.moves_or_end() {
            Ok(legal) => legal,
            Err(_) => return b.row_seeds(me) as i32 >= k,
        };
        // Order: the tables' best guaranteed value first, then moves that capture, then the
        // least rank (the tables' converting move). Only the order comes from the tables.
        type Preference = (u8, bool, std::cmp::Reverse<u8>);
        let mut order: Vec<(Move, Preference)> = legal
            .map(|m| {
                let c = b.play_unchecked(m);
                let lo = after_move(self.tables, b, m).map_or(0, |v| v.lo);
                let captures = c.store(me) > 0;
                let rank = if captures {
                    0
                } else {
                    self.tables.rank(&c).unwrap_or(u8::MAX)
                };
                (m, (lo, captures, std::cmp::Reverse(rank)))
            })
            .collect();
        order.sort_by_key(|&(_, key)| std::cmp::Reverse(key));
        for (m, _) in order {
            let c = b.play_unchecked(m);
            let gain = i32::from(c.store(me));
            let enough = if gain > 0 {
                // A capture: the game goes on from a fresh position with an empty history.
                let rest = n - gain;
                let child = board(Variant::Oware, c.houses(), c.side_to_move());
                !self.fresh_at_least(&child, rest - (k - gain) + 1)
            } else {
                let p = (c.houses(), c.side_to_move());
                if history.contains(&p) {
                    // Repetition: each side collects its own row, here.
                    n - c.row_seeds(c.side_to_move()) as i32 >= k
                } else {
                    history.push(p);
                    let child = board(Variant::Oware, p.0, p.1);
                    let r = !self.at_least(&child, history, n - k + 1);
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
        let key = ((b.houses(), b.side_to_move()), k);
        if let Some(&r) = self.fresh.get(&key) {
            return r;
        }
        let mut history = vec![key.0];
        let r = self.at_least(b, &mut history, k);
        self.fresh.insert(key, r);
        r
    }

    /// Checks the table's bounds for `b` (empty history); returns whether they meet.
    fn check(&mut self, b: &Board) -> bool {
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
        lo == hi
    }
}

#[test]
fn oware_bounds_hold_for_every_small_position_with_an_empty_history() {
    let top = if cfg!(debug_assertions) { 3 } else { 5 };
    let (_dir, tables) = tables(Variant::Oware, top, "all");
    let mut prover = Prover {
        tables: &tables,
        fresh: HashMap::new(),
        nodes: 0,
        budget: 50_000_000,
    };
    let (mut exact, mut bounded) = (0, 0);
    for n in 0..=top {
        for index in 0..layer_size(n) {
            let houses = unrank(n, index);
            for side in [Side::South, Side::North] {
                let b = board(Variant::Oware, from_side(houses, side), side);
                if prover.check(&b) {
                    exact += 1;
                } else {
                    bounded += 1;
                }
            }
        }
    }
    // Both kinds occur: the claim about exact values is not empty, and neither is the one
    // about bounds.
    assert!(exact > 0 && bounded > 0, "exact {exact}, bounded {bounded}");
}

/// Whether the side to move can reach `k` within `depth` plies of real play with the history
/// (repetitions exact), the game going on past the horizon or a capture being worth what the
/// tables say: their `lo` when `sure` (so `true` proves a lower bound), their `hi` otherwise (so
/// `false` proves an upper bound).
fn horizon(
    tables: &Tables,
    b: &Board,
    history: &mut Vec<Position>,
    k: i32,
    depth: u32,
    sure: bool,
) -> bool {
    let n = on_board(b);
    if k <= 0 {
        return true;
    }
    if k > n {
        return false;
    }
    let me = b.side_to_move();
    let legal = match b.moves_or_end() {
        Ok(legal) => legal,
        Err(_) => return b.row_seeds(me) as i32 >= k,
    };
    let table = |b: &Board| {
        let v = tables.probe(b).expect("in the tables");
        i32::from(if sure { v.lo } else { v.hi })
    };
    if depth == 0 {
        return table(b) >= k;
    }
    for m in legal {
        let c = b.play_unchecked(m);
        let gain = i32::from(c.store(me));
        let p = (c.houses(), c.side_to_move());
        let child = board(Variant::Oware, p.0, p.1);
        let enough = if gain > 0 {
            // The opponent's worst (sure) or best (not sure) after the capture.
            let theirs = {
                let v = tables.probe(&child).expect("in the tables");
                i32::from(if sure { v.hi } else { v.lo })
            };
            gain + (n - gain) - theirs >= k
        } else if history.contains(&p) {
            n - c.row_seeds(c.side_to_move()) as i32 >= k
        } else {
            history.push(p);
            let r = !horizon(tables, &child, history, n - k + 1, depth - 1, !sure);
            history.pop();
            r
        };
        if enough {
            return true;
        }
    }
    false
}

#[test]
fn oware_bounds_agree_with_real_play_for_random_positions_of_up_to_ten_seeds() {
    // Past 5 seeds a proof to the end of the game costs too much (a line can wander for
    // hundreds of plies before it repeats), so these positions are checked to a horizon: within
    // `depth` plies of real play with the history, the side to move can force `lo` counting on
    // no more than the tables' `lo` past the horizon, and cannot force `hi + 1` even with their
    // `hi` there. A wrong move, capture, repetition or side in the tables shows up here.
    let (top, count, depth) = if cfg!(debug_assertions) {
        (8, 300, 4)
    } else {
        (10, 3_000, 6)
    };
    let (_dir, tables) = tables(Variant::Oware, top, "random");
    let mut rng = Rng::new(2026);
    for _ in 0..count {
        let n = 6 + rng.below(top as u64 - 5) as usize;
        let mut houses = [0u8; 12];
        for _ in 0..n {
            houses[rng.below(12) as usize] += 1;
        }
        let side = if rng.below(2) == 0 {
            Side::South
        } else {
            Side::North
        };
        let b = board(Variant::Oware, houses, side);
        let v = tables.probe(&b).unwrap();
        let (lo, hi) = (i32::from(v.lo), i32::from(v.hi));
        let mut history = vec![(houses, side)];
        assert!(
            horizon(&tables, &b, &mut history, lo, depth, true),
            "{b}: lo {lo} not reached within {depth} plies"
        );
        assert!(
            !horizon(&tables, &b, &mut history, hi + 1, depth, false),
            "{b}: more than hi {hi} reached within {depth} plies"
        );
    }
}

/// Kalah's value by plain full-width search, memoized (no history matters: no cycles).
fn kalah_value(b: &Board, memo: &mut HashMap<Position, i32>) -> i32 {
    let key = (b.houses(), b.side_to_move());
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
    let top = if cfg!(debug_assertions) { 6 } else { 9 };
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
