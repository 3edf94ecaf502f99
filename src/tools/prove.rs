//! Proving a position's exact value (`awari solve`): the final seed margin both sides reach
//! with best play, with a line that reaches it.
//!
//! What makes a proof possible here, and in which rule sets:
//! - **No history.** A kalah or ahl position's future does not depend on how it was reached:
//!   neither has a repetition rule or a move limit, and neither can repeat a position (a seed
//!   leaves a row only through a store, so between two store gains every sowing moves seeds
//!   closer to the store, and no line can come back). Oware and awari are refused: oware's
//!   repetition rule makes a value depend on the game's history (its tables hold bounds for
//!   that reason), awari's move-250 limit on the ply; ayoayo's relay sowing can cycle.
//! - **Stores only add.** What the side to move gains on the opponent from here on, `f`,
//!   depends on the houses and the side to move alone (and ahl's pending bonus move); the final
//!   margin is the stores' margin now plus `f`. The solver keys its table on the houses only,
//!   so positions that differ only in their stores share one entry.
//! - **Exact leaves.** Finished games, and, within their reach, kalah's endgame tables, whose
//!   values are exact (kalah has no cycles): a table value `x` (the seeds of those on the
//!   board the side to move ends with) is `f = 2x - seeds`.
//!
//! The search is plain alpha-beta to the end of the game: no depth limit, no pruning that
//! could lose a line, no evaluation. Every search is a null-window test ("is `f` at least
//! `gamma`?"), driven by MTD(f): each test moves one bound of the root's value, and the value is
//! proven when they meet. Between tests the transposition table keeps, per position, the bounds
//! on `f` proven so far (they are true whatever the window, being searched to the end), so each
//! test re-proves little. At every node the table and the tables are asked about each child
//! before any is searched (enhanced transposition cut-offs): a child already known to refute,
//! or all children known to fail, settle the node without a search. Moves are ordered by the
//! table's move, then moves that earn another move, then captures.

use crate::rules::zobrist::STORE;
use crate::rules::{Board, Move, Variant};
use crate::tables::index::locate;
use crate::tables::Tables;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Why a position cannot be solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The rule set's values are not a function of the position alone.
    Unsupported(Variant),
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::Unsupported(v) => {
                let why = match v {
                    Variant::Oware => {
                        "its repetition rule makes a position's value depend on the game's \
                         history (its endgame tables hold bounds for that reason)"
                    }
                    Variant::Awari => "its move-250 limit makes a value depend on the ply",
                    _ => "relay sowings can cycle, so a position's value may be undefined",
                };
                write!(
                    f,
                    "{v} cannot be solved exactly: {why}; solve proves kalah, kalah-empty and ahl positions"
                )
            }
        }
    }
}

impl std::error::Error for SolveError {}

/// Whether [`Solver`] can prove positions of `variant` exactly.
pub fn supported(variant: Variant) -> bool {
    matches!(variant, Variant::Kalah | Variant::KalahEmpty | Variant::Ahl)
}

/// What a solve proved: bounds on the root's final margin for its side to move (its store
/// minus the opponent's when the game ends, both playing their best), equal when the value is
/// proven, and a line that reaches it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// The side to move ends at least this many seeds ahead (negative: behind).
    pub lower: i32,
    /// ... and at most this many.
    pub upper: i32,
    /// A principal variation (only once the value is exact): best play to the end of the game
    /// or into the tables, where they decide the rest.
    pub pv: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes the endgame tables settled.
    pub tbhits: u64,
    /// Time taken.
    pub time: Duration,
}

impl Proof {
    /// The value, when proven.
    pub fn exact(&self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }
}

/// One entry: bounds on `f` for the position of `key`, the best move found, and the log2 of
/// the nodes it took (what replacement keeps).
#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    lo: i16,
    hi: i16,
    /// House + 1; 0 for none (and for an empty entry, whose `work` is 0 too).
    mv: u8,
    work: u8,
}

const BUCKET: usize = 4;

#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Bucket([Entry; BUCKET]);

/// The solver's table: bounds that hold for every window, so no depth is kept; a full bucket
/// gives up the entry that cost the fewest nodes.
struct Table {
    buckets: Vec<Bucket>,
}

impl Table {
    /// A table of `mb` mebibytes, or why the allocator refused it (a size the user chose must
    /// not abort the process).
    fn new(mb: usize) -> Result<Table, String> {
        let n = (mb.saturating_mul(1 << 20) / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(n)
            .map_err(|e| format!("cannot allocate a {mb} MiB table: {e}"))?;
        buckets.resize(n, Bucket::default());
        Ok(Table { buckets })
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
    }

    /// Asks the CPU to start loading `key`'s bucket.
    #[inline]
    fn prefetch(&self, key: u64) {
        crate::sys::prefetch::prefetch(&self.buckets[self.index(key)]);
    }

    #[inline]
    fn probe(&self, key: u64) -> Option<Entry> {
        self.buckets[self.index(key)]
            .0
            .iter()
            .find(|e| e.key == key && e.work != 0)
            .copied()
    }

    /// Adds what a search proved (`lo ..= hi`, one side of it new) to `key`'s entry.
    #[inline]
    fn store(&mut self, key: u64, lo: i32, hi: i32, mv: Option<Move>, work: u8) {
        let i = self.index(key);
        let bucket = &mut self.buckets[i].0;
        let slot = match bucket.iter().position(|e| e.key == key && e.work != 0) {
            Some(j) => {
                let e = &mut bucket[j];
                e.lo = e.lo.max(lo as i16);
                e.hi = e.hi.min(hi as i16);
                e.work = e.work.max(work);
                if let Some(m) = mv {
                    e.mv = m.house() as u8 + 1;
                }
                return;
            }
            None => (0..BUCKET).min_by_key(|&j| bucket[j].work).unwrap_or(0),
        };
        bucket[slot] = Entry {
            key,
            lo: lo as i16,
            hi: hi as i16,
            mv: mv.map_or(0, |m| m.house() as u8 + 1),
            work: work.max(1),
        };
    }
}

/// A child of a node: the move, the board after it, what the mover gained on the opponent
/// making it, whether the mover moves again, and its place in the order.
#[derive(Clone, Copy)]
struct Child {
    mv: Move,
    board: Board,
    gain: i32,
    same: bool,
    order: i32,
    /// Its place in the endgame tables (layer, index), when they have its layer.
    slot: Option<(usize, u64)>,
}

/// The proving search, its table and counters. One solver can prove several positions; what it
/// learnt about one helps the others of the same rule set (the table's keys tell kalah's two
/// readings apart).
pub struct Solver<'a> {
    table: Table,
    /// The endgame tables handed in, if exact (a reading of kalah).
    given: Option<&'a Tables>,
    /// Those of them the position being solved may read: the tables of its own rule set.
    tables: Option<&'a Tables>,
    stop: &'a AtomicBool,
    nodes: u64,
    tbhits: u64,
    aborted: bool,
}

/// Seeds on the board.
#[inline]
fn seeds(board: &Board) -> i32 {
    board.seeds_on_board() as i32
}

/// The side to move's store minus the opponent's.
#[inline]
fn store_margin(board: &Board) -> i32 {
    let me = board.side_to_move();
    i32::from(board.store(me)) - i32::from(board.store(me.opponent()))
}

/// `board`'s key without its stores: positions that differ only there have the same `f`.
#[inline]
fn houses_key(board: &Board) -> u64 {
    let [s, n] = board.stores();
    board.key() ^ STORE[0][usize::from(s)] ^ STORE[1][usize::from(n)]
}

impl<'a> Solver<'a> {
    /// A solver with a table of `hash_mb` mebibytes, the endgame `tables` if any (used only
    /// where they are exact, kalah's, and only for positions of their own reading), stopping
    /// when `stop` is set; an error when the table cannot be allocated.
    pub fn new(
        hash_mb: usize,
        tables: Option<&'a Tables>,
        stop: &'a AtomicBool,
    ) -> Result<Solver<'a>, String> {
        Ok(Solver {
            table: Table::new(hash_mb)?,
            given: tables.filter(|t| t.variant().is_kalah()),
            tables: None,
            stop,
            nodes: 0,
            tbhits: 0,
            aborted: false,
        })
    }

    /// Proves `board`'s value, calling `progress` with the bounds after each test. When `stop`
    /// is set it returns at once with the bounds proven so far.
    pub fn solve(
        &mut self,
        board: &Board,
        progress: &mut dyn FnMut(&Proof),
    ) -> Result<Proof, SolveError> {
        if !supported(board.variant()) {
            return Err(SolveError::Unsupported(board.variant()));
        }
        // Kalah's tables are never read for kalah-empty, nor the other way round.
        self.tables = self.given.filter(|t| t.variant() == board.variant());
        let started = Instant::now();
        let (nodes, tbhits) = (self.nodes, self.tbhits);
        let base = store_margin(board);
        let mut lo = -seeds(board);
        let mut hi = seeds(board);
        let proof = |s: &Solver, lo: i32, hi: i32, pv: Vec<Move>| Proof {
            lower: base + lo,
            upper: base + hi,
            pv,
            nodes: s.nodes - nodes,
            tbhits: s.tbhits - tbhits,
            time: started.elapsed(),
        };
        // MTD(f), from a first guess of a draw on the board: each test moves one bound.
        let mut guess = 0;
        while lo < hi {
            let gamma = guess.clamp(lo + 1, hi);
            let g = self.test(board, gamma);
            if self.aborted {
                break;
            }
            if g >= gamma {
                lo = g;
            } else {
                hi = g;
            }
            guess = g;
            progress(&proof(self, lo, hi, Vec::new()));
        }
        let pv = if lo == hi && !self.aborted {
            self.principal_variation(board, lo)
        } else {
            Vec::new()
        };
        Ok(proof(self, lo, hi, pv))
    }

    /// The line of best play from `board`, whose `f` is `value`: at each position the first
    /// move (in search order) proven to keep the value, until the game ends or the tables
    /// take over.
    fn principal_variation(&mut self, board: &Board, mut value: i32) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut board = *board;
        while !self.aborted && board.moves_or_end().is_ok() && !self.in_tables(&board) {
            let (_, _, tt_move) = self.known_with_move(&board);
            let children = self.children(&board, tt_move);
            let Some(c) = children.into_iter().flatten().find(|c| {
                // The child's f that keeps `value`, and whether the child has it (no child
                // has more than `value`, so at least that means exactly that).
                if c.same {
                    let need = value - c.gain;
                    self.test(&c.board, need) >= need
                } else {
                    let need = c.gain - value;
                    self.test(&c.board, need + 1) <= need
                }
            }) else {
                break;
            };
            pv.push(c.mv);
            value = if c.same {
                value - c.gain
            } else {
                c.gain - value
            };
            board = c.board;
        }
        pv
    }

    fn in_tables(&self, board: &Board) -> bool {
        self.tables
            .is_some_and(|t| t.probe(board).is_some_and(|v| v.exact().is_some()))
    }

    /// `board`'s children in search order (table move, moves again, captures, the rest from
    /// the store backwards).
    /// Each child's table entry starts loading as it is played out: the cut-off checks read
    /// them all a moment later, and a miss of the cache each, one after the other, was three
    /// quarters of the time.
    #[inline]
    fn children(&self, board: &Board, tt_move: Option<Move>) -> [Option<Child>; 6] {
        let me = board.side_to_move();
        let mut out = [None; 6];
        let moves = board.legal_moves();
        for (n, m) in moves.enumerate() {
            let child = board.play_unchecked(m);
            // A child in the tables is never looked up in the table: only one of the two
            // entries is loaded.
            let slot = self.tables.and_then(|t| {
                let on_board = seeds(&child) as usize;
                t.covers(on_board).then(|| {
                    let (n, index) = locate(&child);
                    t.prefetch(n, index);
                    (n, index)
                })
            });
            if slot.is_none() {
                self.table.prefetch(houses_key(&child));
            }
            let gain = (i32::from(child.store(me)) - i32::from(board.store(me)))
                - (i32::from(child.store(me.opponent())) - i32::from(board.store(me.opponent())));
            let same = child.side_to_move() == me;
            let column = m.column() as i32;
            let order = if Some(m) == tt_move {
                1 << 20
            } else if same {
                (1 << 16) + column
            } else {
                (gain << 8) + column
            };
            out[n] = Some(Child {
                mv: m,
                board: child,
                gain,
                same,
                order,
                slot,
            });
        }
        out.sort_by_key(|c| std::cmp::Reverse(c.map_or(i32::MIN, |c| c.order)));
        out
    }

    /// What is known of `board`'s `f` without searching it: exact at a finished game or in
    /// the tables, else the table's bounds (or all it can be).
    #[inline]
    fn known(&mut self, board: &Board) -> (i32, i32) {
        let (lo, hi, _) = self.known_with_move(board);
        (lo, hi)
    }

    /// [`Solver::known`] for a child, whose place in the tables is worked out already.
    #[inline]
    fn known_child(&mut self, c: &Child) -> (i32, i32) {
        match (c.slot, self.tables) {
            (Some((n, index)), Some(t)) if c.board.moves_or_end().is_ok() => {
                match t.value(n, index) {
                    Some(v) => {
                        self.tbhits += 1;
                        let n = n as i32;
                        (2 * i32::from(v.lo) - n, 2 * i32::from(v.hi) - n)
                    }
                    None => self.known(&c.board),
                }
            }
            _ => self.known(&c.board),
        }
    }

    /// [`Solver::known`], and the table's move.
    #[inline]
    fn known_with_move(&mut self, board: &Board) -> (i32, i32, Option<Move>) {
        if let Err(reason) = board.moves_or_end() {
            let end = board.outcome_when(reason);
            let me = board.side_to_move().index();
            let f = i32::from(end.stores[me]) - i32::from(end.stores[1 - me]) - store_margin(board);
            return (f, f, None);
        }
        let n = seeds(board);
        if let Some(v) = self.tables.and_then(|t| t.probe(board)) {
            self.tbhits += 1;
            return (2 * i32::from(v.lo) - n, 2 * i32::from(v.hi) - n, None);
        }
        match self.table.probe(houses_key(board)) {
            Some(e) => (
                i32::from(e.lo),
                i32::from(e.hi),
                e.mv.checked_sub(1).and_then(|h| Move::new(usize::from(h))),
            ),
            None => (-n, n, None),
        }
    }

    /// The null-window test at `gamma`: a result at or above `gamma` is a lower bound on
    /// `board`'s `f`, one below it an upper bound. Meaningless once aborted.
    fn test(&mut self, board: &Board, gamma: i32) -> i32 {
        self.nodes += 1;
        if self.nodes & 4095 == 0 && self.stop.load(Relaxed) {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let (lo, hi, tt_move) = self.known_with_move(board);
        if lo >= gamma || lo == hi {
            return lo;
        }
        if hi < gamma {
            return hi;
        }
        let before = self.nodes;
        let children = self.children(board, tt_move);
        // Enhanced transposition cut-offs: what is already known of the children.
        let mut best_upper = -seeds(board);
        let mut best_lower = -seeds(board);
        let mut bounds = [(0, 0); 6];
        for (i, c) in children.iter().enumerate() {
            let Some(c) = c else { break };
            let (clo, chi) = self.known_child(c);
            let (plo, phi) = if c.same {
                (c.gain + clo, c.gain + chi)
            } else {
                (c.gain - chi, c.gain - clo)
            };
            bounds[i] = (plo, phi);
            if plo >= gamma {
                self.table
                    .store(houses_key(board), plo, hi, Some(c.mv), work(1));
                return plo;
            }
            best_upper = best_upper.max(phi);
            best_lower = best_lower.max(plo);
        }
        if best_upper < gamma {
            let g = best_upper.min(hi);
            self.table.store(houses_key(board), lo, g, None, work(1));
            return g;
        }
        // Every child's result is an upper bound below gamma until one reaches it.
        let mut best = best_lower;
        for (i, c) in children.iter().enumerate() {
            let Some(c) = c else { break };
            if bounds[i].1 < gamma {
                // Known to fail: its upper bound already counts in `best`'s stead below.
                best = best.max(bounds[i].1);
                continue;
            }
            let r = if c.same {
                c.gain + self.test(&c.board, gamma - c.gain)
            } else {
                c.gain - self.test(&c.board, c.gain - gamma + 1)
            };
            if self.aborted {
                return 0;
            }
            if r >= gamma {
                let g = r.min(hi);
                self.table.store(
                    houses_key(board),
                    g,
                    hi,
                    Some(c.mv),
                    work(self.nodes - before),
                );
                return g;
            }
            best = best.max(r);
        }
        let g = best.min(hi).max(lo);
        self.table
            .store(houses_key(board), lo, g, None, work(self.nodes - before));
        g
    }
}

/// An entry's weight: the log2 of the nodes its result took (at least 1).
#[inline]
fn work(nodes: u64) -> u8 {
    (65 - nodes.max(1).leading_zeros()) as u8
}
