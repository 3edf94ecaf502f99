//! Path-game values: proving the exact value of positions whose table bounds differ.
//!
//! A table's bounds (`lo..hi`, see [`Value`]) are what each side can force without ever
//! counting on a repetition. Between them the game is one on paths: a position that repeats
//! since the last capture ends the game, each side taking its own row, so what a move is worth
//! depends on the positions already played. The value the tables define is the one from an
//! empty history (right after a capture). This module proves it, where it can, by a search that
//! follows the history: from the position, every line is played out with the repetition rule,
//! confined to the layer (a capture leaves it, and the game goes on from a position with an
//! empty history, whose value the smaller layers' path bounds give), with alpha-beta on a null
//! window and a budget of nodes per question. A question the budget does not settle leaves the
//! bounds as they were: nothing is ever guessed.
//!
//! What cuts a line inside the search, at any history: the side to move at `X`, with the
//! positions `H` since the capture, ends with at least `min(v(X), m)`, where `v(X)` is the
//! path value of `X` from an empty history (or any lower bound on it: the table's `lo`) and `m`
//! its least row over `H`. It plays from `X` as from an empty history: a line that never meets
//! a position of `H` is a line of that game, and one that meets one ends there, leaving it its
//! row. The same holds for the opponent, which bounds the side to move from above. The layer's
//! bounds start as the table's; each round of [`prove_layer`] asks again with what the last
//! round proved.
//!
//! Measured (README, "Path values"): every bounded position of 2 and 3 seeds is proven exact,
//! and a fast-shrinking share of the larger layers: the number of lines grows with the length
//! of the play without capture, which is the whole layer's giant strongly connected component
//! (12 seeds: 1,235,429 of its 1,352,078 positions), so no split into smaller parts helps.
//! [`prove_tables`] runs it in the small layers, after the rounds of
//! [`rounds`](super::rounds) in every layer, which carry what it settles upwards.

use super::index::unrank;
use super::layer::{moves, Lower, Moves, Step};
use super::value::Value;
use crate::rules::Variant;
use ahash::AHashMap;

/// The answer to "can the side to move end with at least `k`?".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    Yes,
    No,
    /// The budget ran out, or an exit's bounds straddle `k`.
    Open,
}

impl std::ops::Not for Answer {
    type Output = Answer;
    fn not(self) -> Answer {
        match self {
            Answer::Yes => Answer::No,
            Answer::No => Answer::Yes,
            Answer::Open => Answer::Open,
        }
    }
}

/// A key for a position at a parity of the line (who moves, relative to the root), for the
/// history set.
#[inline]
fn mix(x: u64) -> u64 {
    // SplitMix64's first output from `x`: distinct keys (a bijection), evenly spread bits, so
    // that XOR-ing them names a set.
    crate::rng::splitmix64(x).1
}

/// The history-following search of one layer.
pub struct Prover<'a> {
    variant: Variant,
    n: usize,
    /// Path bounds of the smaller layers, where exits lead.
    exits: &'a dyn Lower,
    /// The layer's table bounds, for move ordering.
    here: &'a [u8],
    /// Nodes a question may search.
    budget: u64,
    nodes: u64,
    /// The line from the root: position index times 2 plus parity.
    line: Vec<u64>,
    /// The XOR of the line's keys.
    set: u64,
    /// Settled answers, keyed on (position and parity, the history's set, `k`): nothing else
    /// decides what follows.
    memo: AHashMap<(u64, u64, u8), bool>,
    /// Nodes searched over every question.
    pub total_nodes: u64,
}

impl<'a> Prover<'a> {
    /// A prover for layer `n`, whose table bytes are `here`.
    pub fn new(
        variant: Variant,
        n: usize,
        exits: &'a dyn Lower,
        here: &'a [u8],
        budget: u64,
    ) -> Prover<'a> {
        Prover {
            variant,
            n,
            exits,
            here,
            budget,
            nodes: 0,
            line: Vec::new(),
            set: 0,
            memo: AHashMap::new(),
            total_nodes: 0,
        }
    }

    fn table(&self, index: u64) -> Value {
        Value::decode(self.here[index as usize], self.n).unwrap_or(Value {
            lo: 0,
            hi: self.n as u8,
        })
    }

    /// Narrows `bounds`, sound bounds on the path value of the position at `index` (empty
    /// history), as far as the budget lets each question settle.
    pub fn prove(&mut self, index: u64, bounds: Value) -> Value {
        let houses = unrank(self.n, index);
        let Value { mut lo, mut hi } = bounds;
        // From below: most bounded positions are worth their lower bound.
        while lo < hi {
            match self.root(&houses, index, lo + 1) {
                Answer::Yes => lo += 1,
                Answer::No => hi = lo,
                Answer::Open => break,
            }
        }
        while lo < hi {
            match self.root(&houses, index, hi) {
                Answer::Yes => lo = hi,
                Answer::No => hi -= 1,
                Answer::Open => break,
            }
        }
        Value { lo, hi }
    }

    fn root(&mut self, houses: &[u8; 12], index: u64, k: u8) -> Answer {
        self.nodes = 0;
        self.memo.clear();
        self.line.clear();
        let key = index * 2;
        self.line.push(key);
        self.set = mix(key);
        let row = houses[..6].iter().sum::<u8>();
        let a = self.at_least(houses, index, 0, i32::from(k), (row, self.n as u8 - row));
        self.total_nodes += self.nodes;
        a
    }

    /// Whether the side to move at `houses` (index `index`, `parity` relative to the root)
    /// ends with at least `k` of the layer's seeds, the line so far in `self.line` (this
    /// position last).
    fn at_least(
        &mut self,
        houses: &[u8; 12],
        index: u64,
        parity: u64,
        k: i32,
        rows: (u8, u8),
    ) -> Answer {
        let n = self.n as i32;
        if k <= 0 {
            return Answer::Yes;
        }
        if k > n {
            return Answer::No;
        }
        // What each side is sure of here whatever the line: its table bound where no position
        // of the line comes back, its least row on the line where one does.
        let v = self.table(index);
        if i32::from(v.lo.min(rows.0)) >= k {
            return Answer::Yes;
        }
        if i32::from(v.hi.max(self.n as u8 - rows.1)) < k {
            return Answer::No;
        }
        let memo_key = (index * 2 + parity, self.set, k as u8);
        if let Some(&r) = self.memo.get(&memo_key) {
            return if r { Answer::Yes } else { Answer::No };
        }
        if self.nodes >= self.budget {
            return Answer::Open;
        }
        self.nodes += 1;
        let steps = match moves(self.variant, *houses) {
            Moves::Over(v) => {
                return if v as i32 >= k {
                    Answer::Yes
                } else {
                    Answer::No
                }
            }
            Moves::Steps(steps, len) => (steps, len),
        };
        let mut answer = Answer::No;
        // In-layer children to search, with what the tables promise the mover there.
        let mut inside: [(i32, u64); 6] = [(0, 0); 6];
        let mut count = 0;
        for step in &steps.0[..steps.1] {
            match *step {
                Step::Exit {
                    gain,
                    same_side,
                    layer,
                    index,
                } => {
                    let v = self
                        .exits
                        .value(layer, index)
                        .after_exit(gain, same_side, layer);
                    let (l, h) = (i32::from(v.lo), i32::from(v.hi));
                    if l >= k {
                        answer = Answer::Yes;
                        break;
                    }
                    if h >= k {
                        answer = Answer::Open;
                    }
                }
                Step::Inside(j) => {
                    let key = j * 2 + (parity ^ 1);
                    if self.line.contains(&key) {
                        // A repetition: the game ends, each side takes its own row.
                        let row: i32 = unrank(self.n, j)[..6].iter().map(|&s| i32::from(s)).sum();
                        if n - row >= k {
                            answer = Answer::Yes;
                            break;
                        }
                    } else {
                        let v = self.table(j);
                        inside[count] = (n - i32::from(v.hi) + n - i32::from(v.lo), j);
                        count += 1;
                    }
                }
            }
        }
        if answer != Answer::Yes {
            inside[..count].sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
            for &(_, j) in &inside[..count] {
                let child = unrank(self.n, j);
                let key = j * 2 + (parity ^ 1);
                let row = child[..6].iter().sum::<u8>();
                let child_rows = (rows.1.min(row), rows.0.min(self.n as u8 - row));
                self.line.push(key);
                self.set ^= mix(key);
                let r = !self.at_least(&child, j, parity ^ 1, n - k + 1, child_rows);
                self.set ^= mix(key);
                self.line.pop();
                match r {
                    Answer::Yes => {
                        answer = Answer::Yes;
                        break;
                    }
                    Answer::Open => answer = Answer::Open,
                    Answer::No => {}
                }
            }
        }
        if answer != Answer::Open {
            self.memo.insert(memo_key, answer == Answer::Yes);
        }
        answer
    }
}

/// What proving a layer's path values found.
pub struct Proven {
    /// Each position's path bounds, encoded as [`Value::encode`] writes table bounds: the
    /// table's own where the search settled nothing.
    pub bytes: Vec<u8>,
    /// Positions whose table bounds differ.
    pub bounded: u64,
    /// Of those, the positions now exact.
    pub exact: u64,
    /// Of those, the positions narrowed but not exact.
    pub narrowed: u64,
    /// Nodes searched in all.
    pub nodes: u64,
}

/// The path bounds of every position of layer `n`, whose table bytes are `here`, with the
/// smaller layers' path bounds in `exits` and `budget` nodes per question, on the current
/// rayon pool.
///
/// In rounds: each round asks again about every position still bounded, with the bounds the
/// last round proved for the whole layer (tighter bounds cut more lines, see
/// [`Prover`]), until a round proves nothing new.
pub fn prove_layer(
    variant: Variant,
    n: usize,
    exits: &dyn Lower,
    here: &[u8],
    budget: u64,
) -> Proven {
    use rayon::prelude::*;
    const CHUNK: usize = 1 << 10;
    let mut current = here.to_vec();
    let mut nodes = 0;
    loop {
        let round: Vec<(Vec<u8>, u64, u64)> = current
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(c, bytes)| {
                let mut prover = Prover::new(variant, n, exits, &current, budget);
                let mut changed = 0;
                let out = bytes
                    .iter()
                    .enumerate()
                    .map(|(k, &byte)| {
                        let known = Value::decode(byte, n).unwrap_or(Value { lo: 0, hi: n as u8 });
                        if known.exact().is_some() {
                            return byte;
                        }
                        let proven = prover.prove((c * CHUNK + k) as u64, known);
                        changed += u64::from(proven != known);
                        proven.encode(n)
                    })
                    .collect();
                (out, changed, prover.total_nodes)
            })
            .collect();
        let changed: u64 = round.iter().map(|r| r.1).sum();
        nodes += round.iter().map(|r| r.2).sum::<u64>();
        current = round.into_iter().flat_map(|r| r.0).collect();
        if changed == 0 {
            break;
        }
    }
    let mut proven = Proven {
        bytes: Vec::new(),
        bounded: 0,
        exact: 0,
        narrowed: 0,
        nodes,
    };
    for (&table, &path) in here.iter().zip(&current) {
        if table == path && Value::decode(table, n).is_some_and(|v| v.exact().is_some()) {
            continue;
        }
        proven.bounded += 1;
        if Value::decode(path, n).is_some_and(|v| v.exact().is_some()) {
            proven.exact += 1;
        } else if path != table {
            proven.narrowed += 1;
        }
    }
    proven.bytes = current;
    proven
}

/// Path bounds held in memory, one byte vector per layer, as exits read them.
struct Layers(Vec<Vec<u8>>);

impl Lower for Layers {
    fn value(&self, layer: usize, index: u64) -> Value {
        Value::decode(self.0[layer][index as usize], layer).unwrap_or(Value {
            lo: 0,
            hi: layer as u8,
        })
    }
}

/// What [`prove_tables`] returns: per layer, the path bounds (encoded as [`Value`]s) and the
/// point values ([`points`](super::points)).
pub struct PathLayers {
    /// Path bounds, one byte per position, encoded.
    pub bounds: Vec<Vec<u8>>,
    /// Point values, one byte per position.
    pub points: Vec<Vec<u8>>,
}

/// Proves the path values of every layer of `tables` up to `seeds`, smallest first (exits
/// read the smaller layers' proven bounds): in each layer the rounds of safe cores
/// ([`tighten`](super::rounds::tighten)), then, in the layers up to `search_seeds`, the path
/// search with `budget` nodes per question (none when 0); then the layer's point values. With
/// `write`, each layer is written to a paths file in the tables' directory as it is done, and a
/// layer whose paths file `tables` opened is read from it instead of proven again (so that a
/// run stopped part way resumes). Writes a line per layer to `out`.
pub fn prove_tables(
    tables: &super::Tables,
    seeds: usize,
    budget: u64,
    search_seeds: usize,
    write: bool,
    out: &mut dyn std::io::Write,
) -> Result<PathLayers, String> {
    if tables.variant() != Variant::Oware {
        return Err(format!(
            "{}: only oware has repetitions: every {} table value is exact",
            tables.variant(),
            tables.variant()
        ));
    }
    if !tables.covers(seeds) {
        return Err(format!(
            "the tables in {} do not reach {seeds} seeds: build them first (awari tables build --seeds {seeds})",
            tables.dir().display()
        ));
    }
    let mut layers = Layers(Vec::new());
    // A point value `p` is the byte of the exact value `p..p` too: exits read them as such.
    let mut points = Layers(Vec::new());
    for n in 0..=seeds {
        let size = super::index::layer_size(n);
        let table: Vec<Value> = (0..size)
            .map(|i| tables.value(n, i).expect("covered"))
            .collect();
        let exact = |values: &mut dyn Iterator<Item = Value>| {
            values.filter(|v| v.exact().is_some()).count() as u64
        };
        let pct = |x: u64| 100.0 * x as f64 / size as f64;
        let in_table = exact(&mut table.iter().copied());
        let start = std::time::Instant::now();
        let (bytes, guess) = match tables.paths_file(n).filter(|_| write) {
            Some((bytes, guess)) => {
                let path = bytes
                    .iter()
                    .map(|&b| Value::decode(b, n).expect("verified"));
                let _ = writeln!(
                    out,
                    "layer {n:>2}: {size:>9} positions, {:>8} bounded by the tables; read from {}: exact {:>5.1}% -> {:>5.1}%",
                    size - in_table,
                    super::file::FileKind::Paths.path(tables.dir(), Variant::Oware, n).display(),
                    pct(in_table),
                    pct(exact(&mut path.into_iter()))
                );
                (bytes.to_vec(), guess.to_vec())
            }
            None => {
                let (tight, rounds) = super::rounds::tighten(Variant::Oware, n, &layers, &table);
                let here: Vec<u8> = tight.iter().map(|v| v.encode(n)).collect();
                let proven = if budget == 0 || n > search_seeds {
                    Proven {
                        bytes: here.clone(),
                        bounded: 0,
                        exact: 0,
                        narrowed: 0,
                        nodes: 0,
                    }
                } else {
                    prove_layer(Variant::Oware, n, &layers, &here, budget)
                };
                let bounds: Vec<Value> = proven
                    .bytes
                    .iter()
                    .map(|&b| Value::decode(b, n).expect("encoded"))
                    .collect();
                let guess = super::points::points(Variant::Oware, n, &points, &bounds);
                let by_rounds = exact(&mut tight.iter().copied());
                let _ = writeln!(
                    out,
                    "layer {n:>2}: {size:>9} positions, {:>8} bounded by the tables, {:>7} exact by {rounds} rounds of cores, {:>7} by path search ({:>6} narrowed); exact {:>5.1}% -> {:>5.1}% -> {:>5.1}%; {:>8.0} nodes per position searched; point values in {} passes{}; {:.2} s",
                    size - in_table,
                    by_rounds - in_table,
                    proven.exact,
                    proven.narrowed,
                    pct(in_table),
                    pct(by_rounds),
                    pct(by_rounds + proven.exact),
                    proven.nodes as f64 / proven.bounded.max(1) as f64,
                    guess.passes,
                    if guess.moving > 0 {
                        format!(" ({} still moving)", guess.moving)
                    } else {
                        String::new()
                    },
                    start.elapsed().as_secs_f64()
                );
                if write {
                    super::file::write_paths(
                        tables.dir(),
                        Variant::Oware,
                        n,
                        &proven.bytes,
                        &guess.values,
                    )
                    .map_err(|e| format!("{}: {e}", tables.dir().display()))?;
                }
                (proven.bytes, guess.values)
            }
        };
        debug_assert!(guess
            .iter()
            .all(|&p| Value::decode(p, n) == Some(Value { lo: p, hi: p })));
        points.0.push(guess);
        layers.0.push(bytes);
    }
    Ok(PathLayers {
        bounds: layers.0,
        points: points.0,
    })
}
