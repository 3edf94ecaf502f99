//! The table values against searches of this file's own that play the game out under the
//! rules, from an empty history (right after a capture), applying oware's repetition rule
//! themselves.
//!
//! Oware: an entry `lo..hi` bounds the seeds of those on the board that the side to move ends
//! with (doc/tables.md). A capture leaves the layer: the game goes on from a fresh
//! position (empty history) whose value each search proves in its own way, recursively. Two
//! independent proofs of both bounds ("the side to move gets `lo`", "the opponent gets
//! `n - hi`"), so that `lo == hi` proves the exact value:
//! - A path search with a null window that keeps the positions since the last capture: a move
//!   to one of them ends the game there, each side collecting its own row. Only positions right
//!   after a capture are remembered (their answer does not depend on a history). Every line is
//!   followed to its end, so the cost grows fast: every position up to 5 seeds in release.
//! - A strategy proof: the prover plays one fixed move in each position, the opponent every
//!   move. Under such a strategy a position can repeat only if it lies on a cycle of the graph
//!   of positions play can reach, so the prover is sure of `k` when every exit from that graph
//!   (a capture, with the rest proven the same way, or the end of the game) gives it `k`, and so
//!   does every position on a cycle (a repetition there leaves it its own row). This costs one
//!   graph per proof: every position up to 6 seeds, and random ones up to 10.
//!
//! The tables choose only the order of moves (path search) or the one move tried (strategy):
//! what is proven comes from the rules alone. A proof that is not found fails the test.
//!
//! Settled entries (`lo == hi`) and unsettled ones both occur, so both claims are tested. Up to
//! 5 seeds a settled position's bounds are reached before any position can repeat; from 6 seeds
//! on some are not (a side may need to let play repeat a position worth its bound to it), and
//! a test pins one such position.
//!
//! Kalah: no cycles, so every entry is exact and equals a plain memoized full-width search.

use awari::rng::Rng;
use awari::rules::{Board, Move, Side, Variant};
use awari::tables::index::{from_side, layer_size, rank, unrank};
use awari::tables::layer::{Lower, Quiet};
use awari::tables::probe::after_move;
use awari::tables::solve::solve_layer;
use awari::tables::{Tables, Value};
use std::cmp::Reverse;
use std::collections::HashMap;

use crate::common;
use crate::common::{scratch, Scratch};

fn tables(variant: Variant, seeds: usize, tag: &str) -> (Scratch, Tables) {
    let dir = scratch("values", tag);
    common::build_tables(&dir, variant, seeds);
    let tables = Tables::open(&dir, variant);
    assert!(tables.problems().is_empty());
    (dir, tables)
}

/// A position with empty stores, `side` to move.
fn board(variant: Variant, houses: [u8; 12], side: Side) -> Board {
    Board::from_parts(variant, houses, [0, 0], side, false, 0).unwrap()
}

fn on_board(b: &Board) -> i32 {
    b.houses().iter().map(|&h| i32::from(h)).sum()
}

type Position = ([u8; 12], Side);

fn position(b: &Board) -> Position {
    (b.houses(), b.side_to_move())
}

/// The moves of `b` in the order the tables suggest for its side to move: the best value they
/// guarantee first, then captures, then the least rank (the tables' converting move).
fn suggested(tables: &Tables, b: &Board) -> Vec<Move> {
    type Preference = (u8, bool, Reverse<u8>);
    let me = b.side_to_move();
    let mut order: Vec<(Move, Preference)> = b
        .legal_moves()
        .map(|m| {
            let c = b.play_unchecked(m);
            let lo = after_move(tables, b, m).map_or(0, |v| v.lo);
            let captures = c.store(me) > 0;
            let rank = if captures {
                0
            } else {
                tables.rank(&c).unwrap_or(u8::MAX)
            };
            (m, (lo, captures, Reverse(rank)))
        })
        .collect();
    order.sort_by_key(|&(_, key)| Reverse(key));
    order.into_iter().map(|(m, _)| m).collect()
}

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

/// Strategy proofs (see the module docs).
struct Strategy<'a> {
    tables: &'a Tables,
    /// The most proven so far for a side from a fresh position (empty history).
    proven: HashMap<(Position, Side), i32>,
    /// Why a strategy proof from a fresh position failed.
    failed: HashMap<(Position, Side, i32), String>,
}

impl Strategy<'_> {
    /// Proves that `prover` ends with at least `k` of the seeds on the board when the game
    /// goes on from `b` with an empty history, or says where the tables' strategy fails.
    fn forces(&mut self, b: &Board, prover: Side, k: i32) -> Result<(), String> {
        if k <= 0 {
            return Ok(());
        }
        if k > on_board(b) {
            return Err(format!("{k} wanted of the {} seeds at {b}", on_board(b)));
        }
        if self.proven.get(&(position(b), prover)) >= Some(&k) {
            return Ok(());
        }
        let key = (position(b), prover, k);
        if let Some(e) = self.failed.get(&key) {
            return Err(e.clone());
        }
        let graph = self.graph(b, prover, k).and_then(|graph| {
            for component in cycles(&graph.edges) {
                for &v in &component {
                    let got = graph.boards[v].row_seeds(prover) as i32;
                    if got < k {
                        return Err(format!(
                            "{} can repeat and gives {prover} {got}, not {k}",
                            graph.boards[v]
                        ));
                    }
                }
            }
            Ok(graph)
        });
        let graph = graph.inspect_err(|e| {
            self.failed.insert(key, e.clone());
        })?;
        // Every position of the graph is proven too: what it reaches is part of the graph.
        for b in &graph.boards {
            let most = self.proven.entry((position(b), prover)).or_insert(k);
            *most = (*most).max(k);
        }
        Ok(())
    }

    /// The positions play can reach from `b` without a capture, `prover` playing the tables'
    /// move and the opponent every move, with the moves between them. An exit (a capture, the
    /// end of the game) worth less than `k` to `prover` is an error.
    fn graph(&mut self, b: &Board, prover: Side, k: i32) -> Result<Graph, String> {
        let mut ids = HashMap::from([(position(b), 0)]);
        let mut g = Graph {
            boards: vec![*b],
            edges: Vec::new(),
        };
        while g.edges.len() < g.boards.len() {
            let b = g.boards[g.edges.len()];
            let mover = b.side_to_move();
            let mut out = Vec::new();
            let moves = match b.moves_or_end() {
                Err(_) if (b.row_seeds(prover) as i32) < k => {
                    return Err(format!("the game ends at {b} with {}", b.row_seeds(prover)))
                }
                Err(_) => Vec::new(),
                Ok(_) if mover == prover => suggested(self.tables, &b)[..1].to_vec(),
                Ok(legal) => legal.collect(),
            };
            for m in moves {
                let c = b.play_unchecked(m);
                let gain = i32::from(c.store(mover));
                if gain > 0 {
                    let child = board(Variant::Oware, c.houses(), c.side_to_move());
                    let need = k - if mover == prover { gain } else { 0 };
                    self.forces(&child, prover, need)
                        .map_err(|e| format!("{m} at {b} captures {gain}, then {e}"))?;
                } else {
                    let next = g.boards.len();
                    let j = *ids.entry(position(&c)).or_insert(next);
                    if j == next {
                        g.boards.push(c);
                    }
                    out.push(j);
                }
            }
            g.edges.push(out);
        }
        Ok(g)
    }

    /// For every position of layer `n` (index `2 * rank + side`), whether `prover` can force
    /// an exit worth `k` to it before any position repeats (play that never returns to a
    /// position, so the history does not matter): found backwards from the exits, a position
    /// being sure when the prover has a move to a sure one, or every move of the opponent
    /// leads to one.
    fn sure_without_repetition(&mut self, n: usize, prover: Side, k: i32) -> Vec<bool> {
        let size = 2 * layer_size(n) as usize;
        if k <= 0 {
            return vec![true; size];
        }
        let id = |b: &Board| 2 * rank(&b.houses()) as usize + b.side_to_move().index();
        let (mut before, mut left) = (vec![Vec::new(); size], vec![0; size]);
        let (mut sure, mut queue) = (vec![false; size], Vec::new());
        for index in 0..layer_size(n) {
            for side in [Side::South, Side::North] {
                let b = board(Variant::Oware, unrank(n, index), side);
                let v = id(&b);
                let legal = match b.moves_or_end() {
                    Ok(legal) => legal,
                    Err(_) => {
                        if b.row_seeds(prover) as i32 >= k {
                            sure[v] = true;
                            queue.push(v);
                        }
                        continue;
                    }
                };
                let mine = side == prover;
                let (mut good, mut bad) = (false, false);
                for m in legal {
                    let c = b.play_unchecked(m);
                    let gain = i32::from(c.store(side));
                    if gain > 0 {
                        let child = board(Variant::Oware, c.houses(), c.side_to_move());
                        let need = k - if mine { gain } else { 0 };
                        match self.forces(&child, prover, need) {
                            Ok(()) => good = true,
                            Err(_) => bad = true,
                        }
                    } else {
                        before[id(&c)].push(v);
                        left[v] += 1;
                    }
                }
                if !mine && bad {
                    // Never sure: a move the opponent has leaves with too little.
                    left[v] = usize::MAX;
                }
                if mine && good || !mine && left[v] == 0 {
                    sure[v] = true;
                    queue.push(v);
                }
            }
        }
        while let Some(w) = queue.pop() {
            for &v in &before[w] {
                if sure[v] {
                    continue;
                }
                left[v] -= 1;
                if v % 2 == prover.index() || left[v] == 0 {
                    sure[v] = true;
                    queue.push(v);
                }
            }
        }
        sure
    }
}

/// The positions reachable under a strategy, and the moves between them.
struct Graph {
    boards: Vec<Board>,
    edges: Vec<Vec<usize>>,
}

/// The strongly connected components of a graph that hold a cycle (Tarjan's algorithm,
/// iterative).
fn cycles(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    const NONE: usize = usize::MAX;
    let n = edges.len();
    let (mut index, mut low) = (vec![NONE; n], vec![0; n]);
    let mut on_stack = vec![false; n];
    let (mut stack, mut found, mut counter) = (Vec::new(), Vec::new(), 0);
    for root in 0..n {
        if index[root] != NONE {
            continue;
        }
        let mut calls = vec![(root, 0)];
        while let Some(&mut (v, ref mut next)) = calls.last_mut() {
            if *next == 0 && index[v] == NONE {
                index[v] = counter;
                low[v] = counter;
                counter += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = edges[v].get(*next) {
                *next += 1;
                if index[w] == NONE {
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(u, _)) = calls.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                loop {
                    let w = stack.pop().expect("v is on the stack");
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 || edges[v].contains(&v) {
                    found.push(component);
                }
            }
        }
    }
    found
}

/// Both bounds of `b`'s entry by strategy proofs.
fn prove_by_strategy(strategy: &mut Strategy, b: &Board) {
    let v = strategy.tables.probe(b).expect("in the tables");
    let (me, n) = (b.side_to_move(), on_board(b));
    if let Err(e) = strategy.forces(b, me, v.lo.into()) {
        panic!("{b}: lo {} not proven: {e}", v.lo);
    }
    let theirs = n - i32::from(v.hi);
    if let Err(e) = strategy.forces(b, me.opponent(), theirs) {
        panic!("{b}: hi {} not proven (the opponent's {theirs}): {e}", v.hi);
    }
}

#[test]
fn oware_bounds_hold_for_every_position_of_up_to_six_seeds_by_strategy() {
    // Debug covers every position up to 5 seeds.
    let top = if cfg!(unoptimized) { 5 } else { 6 };
    let (_dir, tables) = tables(Variant::Oware, top, "strategy");
    let mut strategy = Strategy {
        tables: &tables,
        proven: HashMap::new(),
        failed: HashMap::new(),
    };
    for n in 0..=top {
        for index in 0..layer_size(n) {
            prove_by_strategy(
                &mut strategy,
                &board(Variant::Oware, unrank(n, index), Side::South),
            );
        }
    }
}

#[test]
fn oware_bounds_hold_for_random_positions_of_up_to_ten_seeds_by_strategy() {
    // Debug: 100 positions of 7 or 8 seeds.
    let (top, count) = if cfg!(unoptimized) {
        (8, 100)
    } else {
        (10, 400)
    };
    let (_dir, tables) = tables(Variant::Oware, top, "random");
    let mut strategy = Strategy {
        tables: &tables,
        proven: HashMap::new(),
        failed: HashMap::new(),
    };
    let mut rng = Rng::new(2026);
    for _ in 0..count {
        let n = 7 + rng.below(top as u64 - 6) as usize;
        let mut houses = [0u8; 12];
        for _ in 0..n {
            houses[rng.below(12) as usize] += 1;
        }
        prove_by_strategy(&mut strategy, &board(Variant::Oware, houses, Side::South));
    }
}

/// The layers solved so far, in memory.
struct Solved(Vec<Vec<u8>>);

impl Lower for Solved {
    fn value(&self, layer: usize, index: u64) -> Value {
        Value::decode(self.0[layer][index as usize], layer).expect("solve_layer wrote it")
    }
}

#[test]
fn oware_settled_positions_exist_and_need_no_repetition_up_to_five_seeds() {
    // Settled entries (lo == hi) claim an exact value reached without counting on a
    // repetition; unsettled ones only bounds. Both kinds must occur for the proofs above to
    // test both claims. Debug covers the layers up to 4 seeds.
    let top = if cfg!(unoptimized) { 4 } else { 5 };
    let (_dir, tables) = tables(Variant::Oware, 6, "settled");
    let mut layers = Solved(Vec::new());
    let mut counts = Vec::new();
    let mut strategy = Strategy {
        tables: &tables,
        proven: HashMap::new(),
        failed: HashMap::new(),
    };
    for n in 0..=top {
        let solved = solve_layer(Variant::Oware, n, &layers, &Quiet);
        let values: Vec<Value> = (0..layer_size(n))
            .map(|i| Value::decode(solved.bytes[i as usize], n).expect("a value"))
            .collect();
        let settled = values.iter().filter(|v| v.lo == v.hi).count() as u64;
        assert_eq!(layer_size(n) - settled, solved.unsettled, "layer {n}");
        counts.push((settled, solved.unsettled));
        // In those layers, a settled position's side to move reaches its `lo`, and the
        // opponent its `n - hi`, through an exit before any position can repeat.
        let mut sure = HashMap::new();
        for (index, v) in values.iter().enumerate() {
            assert_eq!(tables.value(n, index as u64), Some(*v), "built = solved");
            if v.lo != v.hi {
                continue;
            }
            let theirs = n as i32 - i32::from(v.hi);
            for (prover, k) in [(Side::South, i32::from(v.lo)), (Side::North, theirs)] {
                let sure = sure
                    .entry((prover, k))
                    .or_insert_with(|| strategy.sure_without_repetition(n, prover, k));
                assert!(
                    sure[2 * index],
                    "{}: settled at {} but {prover} needs a repetition to get {k}",
                    board(Variant::Oware, unrank(n, index as u64), Side::South),
                    v.lo
                );
            }
        }
        layers.0.push(solved.bytes);
    }
    let (settled, unsettled) = counts[4];
    assert!(
        settled > 0 && unsettled > 0,
        "layer 4: {settled} settled, {unsettled} not (layers 0..: {counts:?})"
    );
    // The second claim stops at 6 seeds: here the value is exactly 4 (proven below), yet the
    // opponent cannot hold the side to move to 4 without letting play repeat a position (one
    // where its own row holds what it needs).
    let houses = [0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 3];
    let b = board(Variant::Oware, houses, Side::South);
    assert_eq!(tables.probe(&b).and_then(Value::exact), Some(4));
    prove_by_strategy(&mut strategy, &b);
    let at = 2 * rank(&houses) as usize;
    assert!(strategy.sure_without_repetition(6, Side::South, 4)[at]);
    assert!(!strategy.sure_without_repetition(6, Side::North, 2)[at]);
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
