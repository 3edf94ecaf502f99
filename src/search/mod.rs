//! The search: iterative deepening, principal variation search with aspiration windows, a
//! transposition table, move ordering by table move, captures, killers and history (in
//! `search::ordering`), and late move reductions (quiet moves after the first two searched
//! 1-3 plies shallower, then again in full if they beat alpha). Because of the reductions a
//! search to depth `d` is not a full-width search to `d`; one to `4d` covers every line of `d`
//! plies in full.
//!
//! Rule-set details the search must get right:
//! - Extra moves (kalah, ahl): when the same side moves again, the child's score is not negated
//!   and the window is passed through as it is.
//! - Finished games are scored exactly, above any evaluation: a win found `p` plies from the
//!   root scores `MATE - p`, a loss `-(MATE - p)`, a draw 0.
//! - Oware's repetition rule: a position repeated since the last capture ends the game (each
//!   side collects its own row), using the game's history before the root.
//! - Awari's move-250 limit: the ply is part of the position, so it is mixed into the table key.
//!
//! Threads: a lazy SMP search (starting, ending and counting in `search::threads`). Every
//! thread runs the same iterative deepening on the same position, sharing the transposition
//! table. Half the helpers start one ply deeper, so the threads are not all in step. Each
//! thread has its own small tables (killers, history, the principal variation).
//!
//! Endgame tables (oware, kalah), when given, are probed at every node within their reach: an
//! exact value scores the node at once, bounds cut it off when they fall outside the window,
//! and where they only bound a node the search goes on through it. With `PathValues` on, the
//! paths files of `awari tables paths` are read instead where they are there: tighter bounds,
//! and at the horizon a point value that scores a bounded node in place of the evaluation.
//! A table result scores `TB_WIN + 10 * margin` (a win by `margin` seeds, counting the stores),
//! below any finished game the search sees itself and above any evaluation. At the root within
//! reach the tables choose the move at once: one that keeps the best guaranteed value, leaving
//! the layer if it can, else by the least rank, which makes progress (no shuffling in a won
//! position).

pub mod eval;
mod ordering;
pub mod score;
pub mod table_root;
mod threads;
pub mod time;
pub mod tt;

use self::eval::{evaluate_in, Weights};
use self::ordering::{Child, Heuristics, Picker};
pub use self::score::{
    finished, point_score, possible_bound, table_score, table_scores, Score, INF, MATE, MATE_BOUND,
    MAX_PLY, TB_BOUND, TB_WIN,
};
use self::table_root::Root;
use self::threads::{Flushed, Pool};
use self::time::{Clock, Limits};
use self::tt::{Bound, Table};
use crate::rules::{Board, EndReason, Game, Move, MoveList, Variant};
use crate::tables::Tables;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The deepest iteration.
pub const MAX_DEPTH: u32 = 100;
/// Shared between the protocol thread and a running search: `stop`, whether it is still
/// pondering (cleared by `ponderhit`), and when the `go` arrived.
#[derive(Debug)]
pub struct Control {
    /// Stop as soon as possible.
    pub stop: AtomicBool,
    /// Searching on the opponent's time: no time limit applies until this is cleared.
    pub pondering: AtomicBool,
    /// When the search was asked for: its time counts from here, so that whatever comes
    /// before it starts (a previous search ending, the table being cleared) is paid from its
    /// own budget rather than added to the clock.
    pub asked: Instant,
    /// Set once the search has answered (`bestmove`, or perft's total): from then on `isready`
    /// waits for the work queued behind it instead of answering at once.
    pub answered: AtomicBool,
}

impl Control {
    /// A control for a search asked for now, pondering or not.
    pub fn new(pondering: bool) -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            asked: Instant::now(),
            answered: AtomicBool::new(false),
        }
    }

    /// Whether the search has answered.
    pub fn has_answered(&self) -> bool {
        self.answered.load(Ordering::Acquire)
    }

    /// Whether `stop` was asked.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    /// Whether still pondering.
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }
}

/// One line of search progress (`info depth ...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The iteration.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// The score for the side to move at the root.
    pub score: i32,
    /// `Some` when the score is only a bound (an aspiration window failed).
    pub bound: Option<Bound>,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Per mille of the table in use.
    pub hashfull: u32,
    /// Endgame table probes that scored or bounded a node.
    pub tbhits: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// What a finished search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The move to play; `None` when the game is over.
    pub best: Option<Move>,
    /// The expected reply, if the principal variation has one.
    pub ponder: Option<Move>,
    /// The score of the last completed iteration.
    pub score: i32,
    /// The last completed iteration (0 if none completed).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes the endgame tables scored or bounded.
    pub tbhits: u64,
    /// Helper threads asked for that could not be started (the system's thread limit), and
    /// why: the search went on with those that did.
    pub unstarted: Option<(usize, String)>,
    /// The root within the endgame tables' reach: their move and bounds, and the moves the
    /// search chose among (`None` beyond their reach).
    pub table_root: Option<Root>,
}

/// Everything one search needs besides the position.
pub struct Setup<'a> {
    /// The table, kept between searches, shared by the search's threads.
    pub tt: &'a mut Table,
    /// Threads to search with (1: the main thread alone).
    pub threads: usize,
    /// Stop and ponder flags.
    pub control: &'a Control,
    /// Evaluation weights.
    pub weights: Weights,
    /// Depth, nodes and time.
    pub limits: &'a Limits,
    /// Milliseconds kept back from the clock.
    pub overhead: u64,
    /// Endgame tables to probe, if any.
    pub tables: Option<&'a Tables>,
    /// Whether to read the tables' paths files too (`PathValues`).
    pub path_values: bool,
}

/// What the threads of one search share: the table, the control and the settings, and what
/// the helpers tell the main thread.
#[derive(Clone, Copy)]
struct Shared<'a> {
    tt: &'a Table,
    control: &'a Control,
    weights: Weights,
    limits: &'a Limits,
    overhead: u64,
    tables: Option<&'a Tables>,
    path_values: bool,
    pool: &'a Pool,
    /// The root moves the search may choose from: all, unless the tables restrict them.
    root_moves: MoveList,
}

/// Searches `game`'s position and returns the move to play, calling `report` after every
/// iteration (and every failed aspiration window). With `threads` above 1, helper threads
/// search beside the main one for as long as it does.
pub fn search(game: &Game, setup: Setup<'_>, report: &mut dyn FnMut(&Report)) -> Found {
    setup.tt.new_search();
    let pool = Pool::default();
    let legal = game.legal_moves();
    let root = setup
        .tables
        .filter(|_| !legal.is_empty())
        .and_then(|t| table_root::plan(t, game, legal));
    if let Some(root) = root.filter(Root::settled) {
        return settled(root, game, &setup, report);
    }
    let shared = Shared {
        tt: setup.tt,
        control: setup.control,
        weights: setup.weights,
        limits: setup.limits,
        overhead: setup.overhead,
        tables: setup.tables,
        path_values: setup.path_values,
        pool: &pool,
        root_moves: root.map_or(legal, |r| r.allowed),
    };
    let (mut found, unstarted) = pool.run(
        setup.threads,
        |id| helper(game, shared, id),
        || main_search(game, shared, root, report),
    );
    found.unstarted = unstarted;
    found.table_root = root;
    found.ponder = found
        .ponder
        .filter(|&p| ponder_is_legal(game, found.best, p));
    let (nodes, tbhits) = pool.totals();
    found.nodes += nodes;
    found.tbhits += tbhits;
    found
}

/// A helper thread: the same iterations as the main thread's, reporting nothing, until the
/// main thread is done or `stop`.
fn helper(game: &Game, shared: Shared<'_>, id: usize) {
    let board = *game.board();
    if board.moves_or_end().is_err() {
        return;
    }
    let mut searcher = Searcher::new(game, shared, true);
    let max_depth = shared.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let mut last = 0;
    for depth in (1 + id as u32 % 2)..=max_depth {
        last = searcher.aspiration(&board, depth as i32, last, &mut |_| {});
        if searcher.aborted {
            break;
        }
    }
    searcher.flush();
}

/// The main thread's search: iterations, reports, time, the move.
fn main_search(
    game: &Game,
    shared: Shared<'_>,
    root: Option<Root>,
    report: &mut dyn FnMut(&Report),
) -> Found {
    let board = *game.board();
    let moves = shared.root_moves;
    let max_depth = shared.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let has_clock = shared.limits.has_clock(board.side_to_move());
    let mut searcher = Searcher::new(game, shared, false);
    let mut found = Found {
        best: moves.into_iter().next(),
        ponder: None,
        score: 0,
        depth: 0,
        nodes: 0,
        tbhits: 0,
        unstarted: None,
        table_root: None,
    };
    if moves.is_empty() {
        return found;
    }
    if let Some(root) = root {
        // A bounded root: the search chooses among the moves that keep the tables' guarantee;
        // until an iteration completes, the tables' move stands.
        found.best = Some(root.conversion);
        found.score = root.score;
        searcher.floor = root.bounds.0;
    }
    let mut stable = 0;
    let mut previous: Option<Move> = None;
    for depth in 1..=max_depth {
        let score = searcher.aspiration(&board, depth as i32, found.score, report);
        let pv = searcher.pv_line();
        if searcher.aborted {
            // A root move that beat the last iteration's best was searched in full: take it.
            if searcher.root_improved {
                if let Some(&m) = pv.first() {
                    found.best = Some(m);
                    found.ponder = pv.get(1).copied();
                }
            }
            break;
        }
        found.best = pv.first().copied().or(found.best);
        found.ponder = pv.get(1).copied();
        found.score = score;
        found.depth = depth;
        report(&searcher.report(depth, score, None, pv));
        stable = if found.best == previous {
            stable + 1
        } else {
            0
        };
        previous = found.best;
        searcher.poll();
        if !searcher.thinking() {
            continue;
        }
        // A proven result needs no deeper search; nor does a clock game with one legal move.
        let proven = score.abs() > MATE_BOUND && (MATE - score.abs()) <= depth as i32;
        if proven || (has_clock && moves.len() == 1) {
            break;
        }
        if has_clock {
            let scale = match stable {
                0 => 1.4,
                1 | 2 => 1.0,
                _ => 0.6,
            };
            if searcher.clock.soft_expired(scale) {
                break;
            }
        }
    }
    found.score = found.score.max(searcher.floor);
    found.nodes = searcher.nodes;
    found.tbhits = searcher.tbhits;
    found
}

/// A root the tables decide alone: their move at once, with no search.
fn settled(root: Root, game: &Game, setup: &Setup<'_>, report: &mut dyn FnMut(&Report)) -> Found {
    let tbhits = game.legal_moves().len() as u64;
    report(&Report {
        depth: 1,
        seldepth: 0,
        score: root.score,
        bound: None,
        nodes: 1,
        time: setup.control.asked.elapsed(),
        hashfull: setup.tt.hashfull(),
        tbhits,
        pv: vec![root.conversion],
    });
    Found {
        best: Some(root.conversion),
        ponder: None,
        score: root.score,
        depth: 1,
        nodes: 1,
        tbhits,
        unstarted: None,
        table_root: Some(root),
    }
}

/// An alpha-beta window: a node's score matters only between `alpha` and `beta`. A score at
/// or below `alpha` is an upper bound on its value (the side to move has better elsewhere), one
/// at or above `beta` a lower bound (the opponent has better elsewhere).
#[derive(Clone, Copy, Debug)]
struct Window {
    alpha: i32,
    beta: i32,
}

impl Window {
    /// Every score matters.
    const FULL: Window = Window {
        alpha: -INF,
        beta: INF,
    };

    /// The window just above `alpha`: the search only tells whether a score beats it.
    fn null(alpha: i32) -> Window {
        Window {
            alpha,
            beta: alpha + 1,
        }
    }

    /// The same window from the other side's point of view.
    fn negated(self) -> Window {
        Window {
            alpha: -self.beta,
            beta: -self.alpha,
        }
    }

    /// Whether scores inside the window are possible: a principal-variation node, whose exact
    /// score and line are wanted.
    fn is_open(self) -> bool {
        self.beta - self.alpha > 1
    }
}

/// Where a node stands in the search.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// Plies from the root.
    ply: usize,
    /// Plies left to search (after reductions): at 0 or less the node is evaluated.
    depth: i32,
    /// Oware: where the node's positions since the last capture start in `keys`.
    since: usize,
}

impl Node {
    /// The root, searched to `depth`. Its repetition window starts at 0: `keys` starts with
    /// the game's positions since the last capture, and they count.
    fn root(depth: i32) -> Node {
        Node {
            ply: 0,
            depth,
            since: 0,
        }
    }

    /// A child of this node, whose positions since the last capture start at `since`.
    fn child(self, since: usize) -> Node {
        Node {
            ply: self.ply + 1,
            depth: self.depth - 1,
            since,
        }
    }

    /// The same node searched `plies` shallower.
    fn reduced(self, plies: i32) -> Node {
        Node {
            depth: self.depth - plies,
            ..self
        }
    }
}

struct Searcher<'a> {
    tt: &'a Table,
    pool: &'a Pool,
    /// A helper thread: no clock, no node limit, ends with the main thread.
    helper: bool,
    /// The helpers' nodes as last read (main thread).
    others: u64,
    /// This helper's counts already added to the pool.
    flushed: Flushed,
    control: &'a Control,
    weights: Weights,
    clock: Clock,
    node_limit: u64,
    limits: &'a Limits,
    /// `go ponder` and no `ponderhit` seen yet: no time limit for now.
    pondering: bool,
    nodes: u64,
    seldepth: usize,
    aborted: bool,
    tables: Option<&'a Tables>,
    /// Whether the paths files' bounds and point values are read (`PathValues`).
    path_values: bool,
    tbhits: u64,
    /// Whether, in the current iteration, a root move raised alpha.
    root_improved: bool,
    /// The root moves to choose from.
    root_moves: MoveList,
    /// The least score the root can be worth (what the tables guarantee at a bounded root):
    /// reports and the result never say less.
    floor: i32,
    /// Oware: keys of the game's positions since the last capture, then the current line's.
    keys: Vec<u64>,
    /// How many of `keys` fall in each of 512 classes (their low bits): a key whose class is
    /// empty repeats none, which spares most nodes the walk back through `keys`.
    classes: Box<[u32; 512]>,
    ply_in_key: bool,
    /// Killers and history, for move ordering.
    heuristics: Heuristics,
    /// Triangular principal-variation table, houses.
    pv: Box<[[u8; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
}

impl<'a> Searcher<'a> {
    fn new(game: &Game, shared: Shared<'a>, helper: bool) -> Searcher<'a> {
        let board = game.board();
        let limits = shared.limits;
        let mut keys = game.keys_since_capture();
        keys.reserve(MAX_PLY);
        Searcher {
            tt: shared.tt,
            pool: shared.pool,
            helper,
            others: 0,
            flushed: Flushed::default(),
            control: shared.control,
            weights: shared.weights,
            clock: Clock::starting_at(
                limits.budget(board.side_to_move(), shared.overhead),
                shared.control.asked,
            ),
            node_limit: match helper {
                true => u64::MAX,
                false => limits.nodes.unwrap_or(u64::MAX).max(1),
            },
            limits,
            pondering: limits.ponder,
            nodes: 0,
            seldepth: 0,
            aborted: false,
            tables: shared.tables,
            path_values: shared.path_values,
            tbhits: 0,
            root_improved: false,
            root_moves: shared.root_moves,
            floor: -INF,
            classes: {
                let mut classes = Box::new([0; 512]);
                for &key in &keys {
                    classes[class(key)] += 1;
                }
                classes
            },
            keys,
            ply_in_key: board.variant().ply_limit().is_some(),
            heuristics: Heuristics::new(),
            pv: Box::new([[0; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
        }
    }

    /// Whether time or a proven result may end the search now.
    fn thinking(&self) -> bool {
        self.limits.may_stop_early(self.pondering)
    }

    /// The root's principal variation.
    fn pv_line(&self) -> Vec<Move> {
        self.pv[0][..self.pv_len[0]]
            .iter()
            .filter_map(|&h| Move::new(usize::from(h)))
            .collect()
    }

    fn report(&self, depth: u32, score: i32, bound: Option<Bound>, pv: Vec<Move>) -> Report {
        Report {
            depth,
            seldepth: self.seldepth as u32,
            score: match bound {
                // A failed window's edge: shown as the nearest score it can stand for.
                Some(b) => possible_bound(score.max(self.floor), b == Bound::Upper),
                None => score.max(self.floor),
            },
            bound,
            nodes: self.nodes + self.pool.nodes(),
            time: self.clock.elapsed(),
            hashfull: self.tt.hashfull(),
            tbhits: self.tbhits + self.pool.tbhits(),
            pv,
        }
    }

    /// A helper adds its nodes and table hits since the last flush to the pool.
    fn flush(&mut self) {
        self.pool.flush(&mut self.flushed, self.nodes, self.tbhits);
    }

    /// One iteration, in a window around the last score that widens when the score falls
    /// outside it.
    fn aspiration(
        &mut self,
        board: &Board,
        depth: i32,
        last: i32,
        report: &mut dyn FnMut(&Report),
    ) -> i32 {
        self.seldepth = 0;
        self.root_improved = false;
        self.heuristics.age();
        let mut delta = 40;
        let mut window = if depth >= 5 && last.abs() < MATE_BOUND {
            Window {
                alpha: last - delta,
                beta: last + delta,
            }
        } else {
            Window::FULL
        };
        loop {
            let score = self.root(board, depth, window);
            if self.aborted {
                return score;
            }
            if score <= window.alpha {
                report(&self.report(depth as u32, score, Some(Bound::Upper), self.pv_line()));
                window.alpha = (score - delta).max(-INF);
            } else if score >= window.beta {
                report(&self.report(depth as u32, score, Some(Bound::Lower), self.pv_line()));
                window.beta = (score + delta).min(INF);
            } else {
                return score;
            }
            delta *= 3;
            if delta > 1_000 {
                window = Window::FULL;
            }
        }
    }

    /// Checks the stop flag, the clock and `ponderhit`; sets `aborted`. A helper checks only
    /// `stop` and the main thread's end, and adds its counts to the pool.
    fn poll(&mut self) {
        if self.control.stopped() {
            self.aborted = true;
        }
        if self.helper {
            self.flush();
            if self.pool.done() {
                self.aborted = true;
            }
            return;
        }
        self.others = self.pool.nodes();
        if self.pondering && !self.control.pondering() {
            // `ponderhit`: the move's own time starts now.
            self.pondering = false;
            self.clock.restart();
        }
        if self.thinking() && self.clock.hard_expired() {
            self.aborted = true;
        }
    }

    /// Oware: whether `key` occurred in `keys[since..]`. Sides alternate in oware, so only
    /// every second position back can be equal (the side to move is part of the key). A key
    /// whose class `classes` counts nothing in is not in `keys` at all.
    #[inline]
    fn repeats(&self, key: u64, since: usize) -> bool {
        if self.classes[class(key)] == 0 {
            return false;
        }
        let mut i = self.keys.len();
        while i >= since + 2 {
            i -= 2;
            if self.keys[i] == key {
                return true;
            }
        }
        false
    }

    #[inline]
    fn table_key(&self, board: &Board) -> u64 {
        if self.ply_in_key {
            board.key() ^ u64::from(board.ply()).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        } else {
            board.key()
        }
    }

    /// Starts loading the table's entry for `board`, a child searched to `depth - 1`, while
    /// its siblings are played out.
    #[inline]
    fn prefetch(&self, board: &Board, depth: i32) {
        // Children at depth 0 are evaluated, never probed.
        if depth > 1 {
            self.tt.prefetch(self.table_key(board));
        }
    }

    /// The root, searched to `depth` in `window`, by the search specialized to its rule set.
    fn root(&mut self, board: &Board, depth: i32, window: Window) -> i32 {
        let node = Node::root(depth);
        match board.variant() {
            Variant::Oware => self.negamax::<{ Variant::Oware as u8 }>(board, node, window),
            Variant::Awari => self.negamax::<{ Variant::Awari as u8 }>(board, node, window),
            Variant::Ahl => self.negamax::<{ Variant::Ahl as u8 }>(board, node, window),
            Variant::Kalah => self.negamax::<{ Variant::Kalah as u8 }>(board, node, window),
            Variant::Ayoayo => self.negamax::<{ Variant::Ayoayo as u8 }>(board, node, window),
        }
    }

    /// The score of `board` for its side to move, searched as `node` in `window`.
    ///
    /// `V` is the board's rule set (`Variant as u8`): the search is compiled once for each,
    /// so that playing moves, telling whether a game goes on and evaluating are that rule
    /// set's code, inlined, with no branch on the rule set at every node: 5.5% fewer
    /// instructions on `awari bench`, and about 2% less time (README).
    fn negamax<const V: u8>(&mut self, board: &Board, node: Node, window: Window) -> i32 {
        let (moves, known) = match self.enter::<V>(board, node, window) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(found) => found,
        };
        let key = self.table_key(board);
        // Above depth 1 the children are played out before the table is read: its entry,
        // asked for when the parent played this node out, is then more often there (though
        // the moves of a node the table cuts off are played for nothing). At depth 1, where
        // half the nodes are and whose children are leaves, the table is read first. (On
        // `awari bench`, alternated with the build before each: playing out first above depth
        // 1, 2-4% faster; reading first at depth 1, 2% faster, and 2% faster there than
        // playing out the table's move alone before the others.)
        let mut picker = Picker::new();
        let early = node.depth >= 2;
        if early {
            picker.play(variant::<V>(), board, moves, |b| {
                self.prefetch(b, node.depth)
            });
        }
        let tt_move = match self.probe_tt(key, moves, node, window) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(tt_move) => tt_move,
        };
        if !early {
            picker.play(variant::<V>(), board, moves, |b| {
                self.prefetch(b, node.depth)
            });
        }
        picker.put_first(tt_move);
        let (best, best_move) = self.search_moves::<V>(board, &mut picker, node, window);
        if self.aborted {
            return 0;
        }
        let best = best.clamp(known.0, known.1);
        let bound = if best >= window.beta {
            Bound::Lower
        } else if best > window.alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, node.depth, to_table(best, node.ply), bound);
        best
    }

    /// What every node does first: counts itself, then scores a finished game, a repetition,
    /// an exact table value or a leaf (`Break`); otherwise returns the moves to search and the
    /// tables' bounds. Inlined into [`Searcher::leaf`] too, so that a leaf, half of the
    /// nodes, costs no call to the whole of `negamax`.
    #[inline(always)]
    fn enter<const V: u8>(
        &mut self,
        board: &Board,
        node: Node,
        window: Window,
    ) -> ControlFlow<i32, (MoveList, (i32, i32))> {
        self.visit(node.ply);
        if self.aborted {
            return ControlFlow::Break(0);
        }
        let leaf = node.depth <= 0 || node.ply >= MAX_PLY - 1;
        // A leaf needs only to know whether the game goes on, which is cheaper to tell in
        // ayoayo than its moves.
        let variant = variant::<V>();
        let moves = match leaf {
            true => board.end_in(variant).map_or(Ok(MoveList::EMPTY), Err),
            false => board.moves_or_end_in(variant),
        };
        let moves = match moves {
            Ok(moves) if node.ply == 0 => {
                MoveList::from_bits(moves.bits() & self.root_moves.bits())
            }
            Ok(moves) => moves,
            Err(reason) => return ControlFlow::Break(finished(board, reason, node.ply)),
        };
        if variant.has_repetition() && node.ply > 0 && self.repeats(board.key(), node.since) {
            return ControlFlow::Break(finished(board, EndReason::Repetition, node.ply));
        }
        let known = self.probe_tables(board, node.ply, window, leaf)?;
        if leaf {
            // Extreme weights must not reach the range of finished games or table results
            // (nor overflow the table's 16-bit scores).
            return ControlFlow::Break(
                evaluate_in(variant, board, &self.weights)
                    .clamp(-TB_BOUND + 1, TB_BOUND - 1)
                    .clamp(known.0, known.1),
            );
        }
        ControlFlow::Continue((moves, known))
    }

    /// [`Searcher::negamax`] of a node at depth 0 or less, which [`Searcher::enter`] always
    /// scores.
    #[inline]
    fn leaf<const V: u8>(&mut self, board: &Board, node: Node, window: Window) -> i32 {
        match self.enter::<V>(board, node, window) {
            ControlFlow::Break(score) => score,
            ControlFlow::Continue(_) => unreachable!("a node at depth {} is a leaf", node.depth),
        }
    }

    /// Counts a node at `ply` and, every 1,024 nodes, polls; sets `aborted` when the search
    /// must end.
    #[inline]
    fn visit(&mut self, ply: usize) {
        self.pv_len[ply] = 0;
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.nodes & 1023 == 0 {
            self.poll();
        }
        if self.nodes + self.others >= self.node_limit {
            self.aborted = true;
        }
    }

    /// The endgame tables' bounds on `board`, a node at `ply` (everything when they have none,
    /// and at the root, where they have already chosen the moves): `Break` with the node's
    /// score when they are exact or fall outside `window`. With `PathValues`, where a paths
    /// file covers the node, its bounds are read instead (they are tighter), and a `leaf` they
    /// only bound is scored by its point value, clamped into them, in place of the evaluation.
    #[inline]
    fn probe_tables(
        &mut self,
        board: &Board,
        ply: usize,
        window: Window,
        leaf: bool,
    ) -> ControlFlow<i32, (i32, i32)> {
        match self.tables {
            Some(tables) if ply > 0 => self.probe_in(tables, board, window, leaf),
            _ => ControlFlow::Continue((-INF, INF)),
        }
    }

    /// [`Searcher::probe_tables`] where there are tables: out of line, which kept `awari
    /// bench` (no tables) at its speed, where inlined it measured 1-2% slower.
    #[inline(never)]
    fn probe_in(
        &mut self,
        tables: &Tables,
        board: &Board,
        window: Window,
        leaf: bool,
    ) -> ControlFlow<i32, (i32, i32)> {
        let probed = match self.path_values {
            true => tables.probe_for_play(board),
            false => tables.probe(board).map(|v| (v, None)),
        };
        let Some((value, point)) = probed else {
            return ControlFlow::Continue((-INF, INF));
        };
        self.tbhits += 1;
        let (lower, upper) = table_scores(board, value);
        if lower >= window.beta || lower == upper {
            return ControlFlow::Break(lower);
        }
        if upper <= window.alpha {
            return ControlFlow::Break(upper);
        }
        if let Some(p) = point.filter(|_| leaf) {
            return ControlFlow::Break(point_score(board, p).clamp(lower, upper));
        }
        ControlFlow::Continue((lower, upper))
    }

    /// The transposition table's move for the node at `key`, if one of `moves`: `Break` with
    /// its stored score instead when that was searched deep enough and settles the node. Never
    /// in an open window: there the node is searched for its principal variation.
    #[inline]
    fn probe_tt(
        &self,
        key: u64,
        moves: MoveList,
        node: Node,
        window: Window,
    ) -> ControlFlow<i32, Option<Move>> {
        let Some(hit) = self.tt.probe(key) else {
            return ControlFlow::Continue(None);
        };
        if hit.depth >= node.depth && !window.is_open() {
            let score = from_table(hit.score, node.ply);
            let cut = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => score >= window.beta,
                Bound::Upper => score <= window.alpha,
            };
            if cut {
                return ControlFlow::Break(score);
            }
        }
        ControlFlow::Continue(hit.mv.filter(|&m| moves.contains(m)))
    }

    /// Searches the moves of `board` that `picker` hands over, in its order, until one scores
    /// `window.beta` or more; returns the best score and the best move if one raised alpha. A
    /// refuting quiet move is remembered for the ordering. When the search is aborted the
    /// result means nothing.
    fn search_moves<const V: u8>(
        &mut self,
        board: &Board,
        picker: &mut Picker,
        node: Node,
        mut window: Window,
    ) -> (i32, Option<Move>) {
        let me = board.side_to_move();
        let mut best = -INF;
        let mut best_move = None;
        self.keys.push(board.key());
        self.classes[class(board.key())] += 1;
        let mut i = 0;
        while let Some(child) = picker.next(&self.heuristics, node.ply) {
            let same = child.board.side_to_move() == me;
            // A capture starts a new repetition window.
            let since = if child.board.stores() == board.stores() {
                node.since
            } else {
                self.keys.len()
            };
            let next = node.child(since);
            let score = if i == 0 {
                self.child::<V>(child.board, same, next, window)
            } else {
                let reduction = reduction(&child, same, i, node.depth);
                self.search_later::<V>(child.board, same, next, reduction, window)
            };
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > window.alpha {
                    window.alpha = score;
                    best_move = Some(child.mv);
                    self.update_pv(node.ply, child.mv);
                    if node.ply == 0 {
                        self.root_improved = true;
                    }
                    if score >= window.beta {
                        if child.is_quiet() {
                            self.heuristics.reward(node.ply, child.mv, node.depth);
                        }
                        break;
                    }
                }
            }
            i += 1;
        }
        self.keys.pop();
        self.classes[class(board.key())] -= 1;
        (best, best_move)
    }

    /// The score of a move after the first (principal variation search): in a null window
    /// first, `reduction` plies shallower than `node`, to prove it no better than alpha; again
    /// at full depth if it beat alpha reduced, and in the full `window` if it beat alpha there.
    /// `same`: the same side moves again (an extra move).
    fn search_later<const V: u8>(
        &mut self,
        board: &Board,
        same: bool,
        node: Node,
        reduction: i32,
        window: Window,
    ) -> i32 {
        let null = Window::null(window.alpha);
        let mut s = self.child::<V>(board, same, node.reduced(reduction), null);
        if s > window.alpha && reduction > 0 {
            s = self.child::<V>(board, same, node, null);
        }
        if s > window.alpha && s < window.beta {
            self.child::<V>(board, same, node, window)
        } else {
            s
        }
    }

    /// A child's score from the parent's point of view: negated unless the same side moves
    /// again (an extra move), when the window is passed through as it is.
    #[inline]
    fn child<const V: u8>(
        &mut self,
        board: &Board,
        same_side: bool,
        node: Node,
        window: Window,
    ) -> i32 {
        let window = if same_side { window } else { window.negated() };
        let score = if node.depth <= 0 {
            self.leaf::<V>(board, node, window)
        } else {
            self.negamax::<V>(board, node, window)
        };
        if same_side {
            score
        } else {
            -score
        }
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line[0] = m.house() as u8;
        let len = if ply + 1 < MAX_PLY {
            let child_len = self.pv_len[ply + 1].min(MAX_PLY - 1);
            line[1..=child_len].copy_from_slice(&tail[0][..child_len]);
            child_len
        } else {
            0
        };
        self.pv_len[ply] = len + 1;
    }
}

/// The rule set whose number (`Variant as u8`) is `V`.
#[inline(always)]
const fn variant<const V: u8>() -> Variant {
    Variant::ALL[V as usize]
}

// [`variant`] reads `Variant::ALL` by number: checked when compiling that its order is the
// numbers' (a reordered list would otherwise search one rule set with another's code).
const _: () = {
    let mut i = 0;
    while i < Variant::ALL.len() {
        assert!(Variant::ALL[i] as usize == i);
        i += 1;
    }
};

/// The class of a position's key in [`Searcher::repeats`]'s count.
#[inline]
fn class(key: u64) -> usize {
    key as usize & 511
}

/// How many plies shallower the `i`th move searched (from 0) at `depth` is searched first
/// (late move reduction): quiet moves after the first two, the later and the deeper the more,
/// being the least likely to raise alpha.
fn reduction(child: &Child, same: bool, i: usize, depth: i32) -> i32 {
    if child.is_plain() && !same && depth >= 3 && i >= 2 {
        1 + i32::from(i >= 3 && depth >= 5) + i32::from(i >= 4 && depth >= 8)
    } else {
        0
    }
}

/// A score as stored: finished games relative to the node, not the root.
fn to_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Whether `ponder` can be sent after `best`: only a legal reply in a game that goes on. (A
/// GUI replays `bestmove X ponder Y` and stalls on a `Y` after an `X` that ended the game.)
fn ponder_is_legal(game: &Game, best: Option<Move>, ponder: Move) -> bool {
    let mut after = game.clone();
    best.is_some_and(|b| after.play(b).is_ok()) && after.legal_moves().contains(ponder)
}
