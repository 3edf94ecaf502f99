//! The table values against strategy proofs of this file's own, the second of two independent
//! proofs of oware's bounds (`tables_values.rs` holds the first, a path search), from an empty
//! history (right after a capture), applying oware's repetition rule themselves.
//!
//! A strategy proof: the prover plays one fixed move in each position (the one the tables
//! suggest), the opponent every move. Under such a strategy a position can repeat only if it
//! lies on a cycle of the graph of positions play can reach, so the prover is sure of `k` when
//! every exit from that graph (a capture, with the rest proven the same way, or the end of the
//! game) gives it `k`, and so does every position on a cycle (a repetition there leaves it its
//! own row). This costs one graph per proof: every position up to 6 seeds, and random ones up
//! to 10. What is proven comes from the rules alone; a proof that is not found fails the test.
//!
//! Settled entries (`lo == hi`) and unsettled ones both occur, so both claims are tested. Up to
//! 5 seeds a settled position's bounds are reached before any position can repeat; from 6 seeds
//! on some are not (a side may need to let play repeat a position worth its bound to it), and
//! a test pins one such position.

use awari::rng::Rng;
use awari::rules::{Board, Side, Variant};
use awari::tables::index::{layer_size, rank, unrank};
use awari::tables::layer::{Lower, Quiet};
use awari::tables::solve::solve_layer;
use awari::tables::{Tables, Value};
use std::collections::HashMap;

use crate::common::values::{board, on_board, position, suggested, tables, Position};

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
