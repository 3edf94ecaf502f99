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
//!
//! One file per concept: this one drives the search (iterative deepening, the threads, what a
//! search is given and returns); `negamax` is the node search of one thread, `ledger` its accounts
//! (nodes, time, limits, whether to stop); `ordering` the move ordering, [`tt`] the transposition
//! table, [`eval`] the evaluation, [`time`] the time limits, [`instant`] the clock they read,
//! `threads` the helper threads, [`score`] what scores mean, [`table_root`] a root within the
//! endgame tables' reach, [`book`] the opening book played from, and [`bench`](mod@bench) the
//! fixed positions whose node count signs the search (and `go perft`'s lines).

pub mod bench;
pub mod book;
pub mod eval;
pub mod fixed;
pub mod instant;
mod ledger;
mod negamax;
pub mod network;
mod ordering;
pub mod score;
pub mod switches;
pub mod table_root;
mod threads;
pub mod time;
pub mod tt;

use self::eval::Evaluator;
use self::instant::Instant;
use self::negamax::Searcher;
pub use self::score::{
    finished, point_score, possible_bound, table_score, table_scores, Score, INF, MATE, MATE_BOUND,
    MAX_PLY, TB_BOUND, TB_WIN,
};
use self::table_root::Root;
use self::threads::Pool;
use self::time::{Clock, Limits};
use self::tt::{Bound, HashTable};
use crate::rules::{Game, Move, MoveList};
use crate::tables::Tables;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

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
    /// Which of several lines this is, from 1 (the best), when `MultiPV` asks for more than
    /// one; `None` for the plain search's one line.
    pub multipv: Option<usize>,
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
    /// The search's time, on the clock of its [`Report::time`]s.
    pub time: Duration,
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
    pub tt: &'a mut HashTable,
    /// Threads to search with (1: the main thread alone).
    pub threads: usize,
    /// Stop and ponder flags.
    pub control: &'a Control,
    /// What evaluates the positions.
    pub evaluator: Evaluator,
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
    tt: &'a HashTable,
    control: &'a Control,
    evaluator: Evaluator,
    limits: &'a Limits,
    overhead: u64,
    tables: Option<&'a Tables>,
    path_values: bool,
    pool: &'a Pool,
    /// The root moves the search may choose from: all, unless `searchmoves` or the tables
    /// restrict them.
    root_moves: MoveList,
    /// Whether the root's result may be stored in the table: not when `searchmoves` or the
    /// tables restrict its moves (its score is then not the position's).
    root_store: bool,
}

/// What an analysis asks of the root beyond the move to play: how many of the best moves to
/// report, each with its own score and line (`MultiPV`), and which root moves to search at all
/// (`go searchmoves`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Lines to report per iteration, best first: 1 is the plain search. Fewer when fewer
    /// moves are searched.
    pub multipv: usize,
    /// The root moves to search, `None` for every legal move. Moves that are not legal are
    /// never searched: the caller refuses them first.
    pub searchmoves: Option<MoveList>,
}

impl Default for Analysis {
    fn default() -> Analysis {
        Analysis {
            multipv: 1,
            searchmoves: None,
        }
    }
}

/// Searches `game`'s position and returns the move to play, calling `report` after every
/// iteration (and every failed aspiration window). With `threads` above 1, helper threads
/// search beside the main one for as long as it does.
pub fn search(game: &Game, setup: Setup<'_>, report: &mut dyn FnMut(&Report)) -> Found {
    analyse(game, setup, Analysis::default(), report)
}

/// [`search`], for the lines and among the root moves `analysis` asks for. With `multipv`
/// above 1, each iteration searches the best move, then the best of the others, and so on
/// (each line's root without the moves of the lines before it), and reports them together
/// when the iteration is over, best first, each marked with its [`Report::multipv`]; no
/// failed aspiration window is reported then. The move to play is line 1's.
pub fn analyse(
    game: &Game,
    setup: Setup<'_>,
    analysis: Analysis,
    report: &mut dyn FnMut(&Report),
) -> Found {
    setup.tt.new_search();
    let pool = Pool::default();
    let multipv = analysis.multipv.max(1);
    let legal = match analysis.searchmoves {
        Some(only) => MoveList::from_bits(game.legal_moves().bits() & only.bits()),
        None => game.legal_moves(),
    };
    let root = setup
        .tables
        .filter(|_| !legal.is_empty())
        .and_then(|t| table_root::plan(t, game, legal));
    if let Some(root) = root.filter(Root::settled) {
        return settled(root, game, &setup, legal, multipv, report);
    }
    let shared = Shared {
        tt: setup.tt,
        control: setup.control,
        evaluator: setup.evaluator,
        limits: setup.limits,
        overhead: setup.overhead,
        tables: setup.tables,
        path_values: setup.path_values,
        pool: &pool,
        root_moves: root.map_or(legal, |r| r.allowed),
        root_store: analysis.searchmoves.is_none() && root.is_none_or(|r| r.allowed == legal),
    };
    let (mut found, unstarted) = pool.run(
        setup.threads,
        |id| helper(game, shared, id),
        || main_search(game, shared, root, multipv, report),
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
    searcher.root_store = shared.root_store;
    let max_depth = shared.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let mut last = 0;
    for depth in (1 + id as u32 % 2)..=max_depth {
        last = searcher.aspiration(&board, depth as i32, last, &mut |_| {});
        if searcher.ledger.aborted {
            break;
        }
    }
    searcher.ledger.flush();
}

/// One root line of an iteration: its score as searched and its report.
struct Line {
    score: i32,
    report: Report,
}

/// The main thread's search: iterations of `multipv` lines each, reports, time, the move.
fn main_search(
    game: &Game,
    shared: Shared<'_>,
    root: Option<Root>,
    multipv: usize,
    report: &mut dyn FnMut(&Report),
) -> Found {
    let board = *game.board();
    let moves = shared.root_moves;
    let max_depth = shared.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let has_clock = shared.limits.has_clock();
    let mut searcher = Searcher::new(game, shared, false);
    let mut found = Found {
        best: moves.into_iter().next(),
        ponder: None,
        score: 0,
        depth: 0,
        nodes: 0,
        tbhits: 0,
        time: Duration::ZERO,
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
    let multi = multipv > 1;
    let count = multipv.clamp(1, moves.len());
    // The last complete iteration's lines, best first.
    let mut lines: Vec<Line> = Vec::new();
    let mut stable = 0;
    let mut previous: Option<Move> = None;
    for depth in 1..=max_depth {
        let mut this: Vec<Line> = Vec::with_capacity(count);
        let mut left = moves;
        for k in 0..count {
            searcher.root_moves = left;
            // Line 1 searches every move: its result is the position's, and is kept.
            searcher.root_store = shared.root_store && k == 0;
            let last = match k {
                0 => found.score,
                _ => lines.get(k).map_or(found.score, |l| l.score),
            };
            let score = match multi {
                true => searcher.aspiration(&board, depth as i32, last, &mut |_| {}),
                false => searcher.aspiration(&board, depth as i32, last, report),
            };
            let pv = searcher.pv_line();
            if searcher.ledger.aborted {
                // A root move that beat the last iteration's best was searched in full: take it
                // (with several lines, the move stays that of the line 1 reported last).
                if k == 0 && !multi && searcher.root_improved {
                    if let Some(&m) = pv.first() {
                        found.best = Some(m);
                        found.ponder = pv.get(1).copied();
                    }
                }
                break;
            }
            let first = pv.first().copied();
            this.push(Line {
                score,
                report: searcher.report(depth, score, None, pv),
            });
            match first {
                Some(m) => left.remove(m),
                // No line to leave out: the next one would be the same search.
                None => break,
            }
        }
        if this.is_empty() {
            break;
        }
        let now = multi.then(|| searcher.report(depth, 0, None, Vec::new()));
        report_lines(&mut this, now, report);
        let best = &this[0];
        found.best = best.report.pv.first().copied().or(found.best);
        found.ponder = best.report.pv.get(1).copied();
        found.score = best.score;
        if searcher.ledger.aborted {
            // Stopped after line 1 was complete: its move is the deepest result.
            break;
        }
        found.depth = depth;
        stable = if found.best == previous {
            stable + 1
        } else {
            0
        };
        previous = found.best;
        searcher.ledger.poll();
        if !searcher.ledger.thinking() {
            lines = this;
            continue;
        }
        let clock = has_clock.then_some(&searcher.ledger.clock);
        if enough(&this, depth, clock, moves.len(), stable) {
            break;
        }
        lines = this;
    }
    found.score = found.score.max(searcher.floor);
    found.nodes = searcher.ledger.nodes;
    found.tbhits = searcher.ledger.tbhits;
    found.time = searcher.ledger.clock.elapsed();
    found
}

/// Reports an iteration's `lines`, best first. With several lines (`now`, a report of the
/// counts at the iteration's end), each is marked with its place and shown with those counts:
/// they are shown together, once the iteration is over.
fn report_lines(lines: &mut [Line], now: Option<Report>, report: &mut dyn FnMut(&Report)) {
    // Each line is searched without the moves of those before it, so their scores fall in
    // turn; where the search's instability has one beat an earlier one, it goes first.
    lines.sort_by_key(|l| std::cmp::Reverse(l.score));
    for (k, line) in lines.iter_mut().enumerate() {
        if let Some(now) = &now {
            let r = &mut line.report;
            r.multipv = Some(k + 1);
            (r.nodes, r.time, r.hashfull, r.tbhits) =
                (now.nodes, now.time, now.hashfull, now.tbhits);
        }
        report(&line.report);
    }
}

/// Whether a search that may stop early has searched enough after a complete iteration to
/// `depth` whose `lines` these are: a proven result needs no deeper search (every line's, with
/// several); nor does a clock game (`clock`) with one of its `moves` to search; otherwise the
/// clock's soft limit decides, stretched when the best move has just changed (`stable`: the
/// iterations it has stayed the same) and shrunk once it has held for three.
fn enough(lines: &[Line], depth: u32, clock: Option<&Clock>, moves: usize, stable: u32) -> bool {
    let proven = lines
        .iter()
        .all(|l| l.score.abs() > MATE_BOUND && (MATE - l.score.abs()) <= depth as i32);
    if proven || (clock.is_some() && moves == 1) {
        return true;
    }
    let Some(clock) = clock else {
        return false;
    };
    let scale = match stable {
        0 => 1.4,
        1 | 2 => 1.0,
        _ => 0.6,
    };
    clock.soft_expired(scale)
}

/// A root the tables decide alone: their move at once, with no search. With `multipv` above
/// 1, the lines are the tables' next choices among `moves`, each with what it guarantees.
fn settled(
    root: Root,
    game: &Game,
    setup: &Setup<'_>,
    moves: MoveList,
    multipv: usize,
    report: &mut dyn FnMut(&Report),
) -> Found {
    let tbhits = game.legal_moves().len() as u64;
    let lines = match multipv {
        1 => None,
        _ => setup
            .tables
            .and_then(|t| table_root::ranked(t, game, moves))
            .filter(|ranked| ranked.first() == Some(&(root.conversion, root.score))),
    };
    let lines = lines.unwrap_or_else(|| vec![(root.conversion, root.score)]);
    for (k, &(m, score)) in lines.iter().take(multipv).enumerate() {
        report(&Report {
            depth: 1,
            seldepth: 0,
            score,
            bound: None,
            multipv: (multipv > 1).then_some(k + 1),
            nodes: 1,
            time: setup.control.asked.elapsed(),
            hashfull: setup.tt.hashfull(),
            tbhits,
            pv: vec![m],
        });
    }
    Found {
        best: Some(root.conversion),
        ponder: None,
        score: root.score,
        depth: 1,
        nodes: 1,
        tbhits,
        time: setup.control.asked.elapsed(),
        unstarted: None,
        table_root: Some(root),
    }
}

/// Whether `ponder` can be sent after `best`: only a legal reply in a game that goes on. (A
/// GUI replays `bestmove X ponder Y` and stalls on a `Y` after an `X` that ended the game.)
fn ponder_is_legal(game: &Game, best: Option<Move>, ponder: Move) -> bool {
    let mut after = game.clone();
    best.is_some_and(|b| after.play(b).is_ok()) && after.legal_moves().contains(ponder)
}
