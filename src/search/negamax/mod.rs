//! The node search of one thread: principal variation search inside an aspiration window,
//! with the transposition table, the endgame tables, move ordering, late move reductions and
//! repetition, and, each behind its switch ([`Switches`]), quiescence search at the horizon
//! and futility pruning near it. [`search`](super::search) drives it, one iteration at a time,
//! on every thread.
//!
//! - `prune`: every rule that leaves moves out or searches them shallower or deeper
//!   (futility, late move reductions, extensions, delta pruning), with its tuning constants.
//! - `guards`: what keeps those rules away from the game's end.
//! - `node`: where a node stands (`Node`) and which of its scores matter (`Window`).
//! - `pv`: the principal variation of every node on the current line.
//! - `quiesce`: the search past the horizon.
//! - `repetition`: oware's positions since the last capture, for the repetition rule.

mod guards;
mod node;
mod prune;
mod pv;
mod quiesce;
mod repetition;

use self::guards::FEW_SEEDS;
use self::node::{Node, Window};
use self::prune::{estimate, reduction, Futile, EXTENSION_DEPTH, MAX_EXTENSIONS};
use self::pv::PvTable;
use self::repetition::Repetitions;
use super::eval::{evaluate_in, Evaluator};
use super::ledger::Ledger;
use super::ordering::{Heuristics, Picker};
use super::score::{
    finished, point_score, possible_bound, table_scores, INF, MATE_BOUND, MAX_PLY, TB_BOUND,
};
use super::switches::Switches;
use super::tt::{Bound, HashTable};
use super::{Report, Shared};
use crate::rules::{Board, EndReason, Game, Move, MoveList, Variant};
use crate::tables::Tables;
use std::ops::ControlFlow;

pub(super) struct Searcher<'a> {
    tt: &'a HashTable,
    evaluator: Evaluator,
    /// Nodes, table hits and time spent, the limits, and whether the search must stop.
    pub(super) ledger: Ledger<'a>,
    seldepth: usize,
    tables: Option<&'a Tables>,
    /// Whether the paths files' bounds and point values are read (`PathValues`).
    path_values: bool,
    /// Whether, in the current iteration, a root move raised alpha.
    pub(super) root_improved: bool,
    /// The root moves to choose from.
    pub(super) root_moves: MoveList,
    /// Whether the root's result is stored in the table: not when its moves are restricted
    /// (`searchmoves`, the endgame tables, the lines after the first of `MultiPV`), whose score
    /// is not the position's, and would mislead a later search that reaches it below its root.
    pub(super) root_store: bool,
    /// The least score the root can be worth (what the tables guarantee at a bounded root):
    /// reports and the result never say less.
    pub(super) floor: i32,
    /// Oware: the positions since the last capture, the game's then the current line's.
    repetitions: Repetitions,
    ply_in_key: bool,
    /// Killers and history, for move ordering.
    heuristics: Heuristics,
    /// The principal variation of every node on the current line.
    pv: PvTable,
    /// The optional features this search uses, read once when it starts.
    switches: Switches,
    /// The pruning rules' guards switched off: how the tests show each one needed.
    #[cfg(test)]
    unguarded: guards::Guards,
}

impl<'a> Searcher<'a> {
    pub(super) fn new(game: &Game, shared: Shared<'a>, helper: bool) -> Searcher<'a> {
        let board = game.board();
        Searcher {
            tt: shared.tt,
            evaluator: shared.evaluator,
            ledger: Ledger::new(&shared, board.side_to_move(), helper),
            seldepth: 0,
            tables: shared.tables,
            path_values: shared.path_values,
            root_improved: false,
            root_moves: shared.root_moves,
            root_store: true,
            floor: -INF,
            repetitions: Repetitions::new(game.keys_since_capture()),
            ply_in_key: board.variant().ply_limit().is_some(),
            heuristics: Heuristics::new(),
            pv: PvTable::new(),
            switches: Switches::current(),
            #[cfg(test)]
            unguarded: guards::Guards::NONE,
        }
    }

    /// The root's principal variation.
    pub(super) fn pv_line(&self) -> Vec<Move> {
        self.pv.root()
    }

    pub(super) fn report(
        &self,
        depth: u32,
        score: i32,
        bound: Option<Bound>,
        pv: Vec<Move>,
    ) -> Report {
        Report {
            depth,
            seldepth: self.seldepth as u32,
            score: match bound {
                // A failed window's edge: shown as the nearest score it can stand for.
                Some(b) => possible_bound(score.max(self.floor), b == Bound::Upper),
                None => score.max(self.floor),
            },
            bound,
            multipv: None,
            nodes: self.ledger.all_nodes(),
            time: self.ledger.clock.elapsed(),
            hashfull: self.tt.hashfull(),
            tbhits: self.ledger.all_tbhits(),
            pv,
        }
    }

    /// One iteration, in a window around the last score that widens when the score falls
    /// outside it.
    pub(super) fn aspiration(
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
            if self.ledger.aborted {
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
            Variant::KalahEmpty => {
                self.negamax::<{ Variant::KalahEmpty as u8 }>(board, node, window)
            }
        }
    }

    /// The score of `board` for its side to move, searched as `node` in `window`.
    ///
    /// `V` is the board's rule set (`Variant as u8`): the search is compiled once for each,
    /// so that playing moves, telling whether a game goes on and evaluating are that rule
    /// set's code, inlined, with no branch on the rule set at every node, where every
    /// instruction counts (what it saves: doc/figures.md).
    fn negamax<const V: u8>(&mut self, board: &Board, node: Node, window: Window) -> i32 {
        let (moves, known) = match self.enter::<V>(board, node, window) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(found) => found,
        };
        // Futility's verdict comes first, from the evaluation (where futility applies: near
        // the horizon, off the principal variation, away from the game's end). A node it cuts
        // off plays no move out, and, where one may be stored (near an oware game's end, in
        // the other rule sets always: `guards::reads_table_before_cut`), reads the table
        // first for a proven result: a forced end found before, where its bound settles the
        // node, is worth more than the evaluation; an estimate stored there is not, and the
        // node takes the evaluation's cut rather than that estimate (the match that chose it:
        // doc/figures.md, "Futility before the table is read"). Elsewhere the moves are played out before the table is read
        // wherever the node is not one ply from the horizon or futility applies, so that the
        // table's entry (asked for when the parent played this node out) has had that time
        // to arrive; only one ply from the horizon where futility does not apply are they
        // played out after, where no child's entry is asked for as they are played (the
        // children are leaves), so that a node the table cuts off has played none for
        // nothing.
        let (verdict, eval) = self.futility_verdict::<V>(board, node, window, known, moves);
        let key = self.table_key(board);
        if verdict == Futile::FailHigh {
            if !guards::reads_table_before_cut(variant::<V>(), board) {
                return eval;
            }
            return match self.probe_tt(key, moves, node, window) {
                ControlFlow::Break(score) if score.abs() >= TB_BOUND => score,
                _ => eval,
            };
        }
        let futile = (verdict == Futile::QuietMoves).then(|| estimate(eval, node.depth));
        let mut picker = Picker::new();
        let early = node.depth >= 2 || self.futility_applies(node, window);
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
        let (best, best_move) = self.search_moves::<V>(board, &mut picker, node, window, futile);
        if self.ledger.aborted {
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
        if node.ply > 0 || self.root_store {
            self.tt
                .store(key, best_move, node.depth, to_table(best, node.ply), bound);
        }
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
        if self.ledger.aborted {
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
        if variant.has_repetition()
            && node.ply > 0
            && self.repetitions.repeats(board.key(), node.since)
        {
            return ControlFlow::Break(finished(board, EndReason::Repetition, node.ply));
        }
        let known = self.probe_tables(board, node.ply, window, leaf)?;
        if leaf {
            // Extreme weights must not reach the range of finished games or table results
            // (nor overflow the table's 16-bit scores).
            return ControlFlow::Break(
                evaluate_in(variant, board, &self.evaluator)
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

    /// Enters a node at `ply`: its line starts empty, and it is counted
    /// ([`Ledger::count_node`], which sets `aborted` when the search must end).
    #[inline]
    fn visit(&mut self, ply: usize) {
        self.pv.clear(ply);
        self.seldepth = self.seldepth.max(ply);
        self.ledger.count_node();
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

    /// [`Searcher::probe_tables`] where there are tables: out of line, so that a search
    /// without tables (`awari bench`) does not carry this code inlined into every node (what
    /// inlining it cost: doc/figures.md).
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
        self.ledger.tbhits += 1;
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
    /// refuting quiet move is remembered for the ordering. `futile`: quiet moves after the
    /// first are left out (futility pruning), and where one was, the best score is at least
    /// this estimate of what they could reach. When the search is aborted the result means
    /// nothing.
    fn search_moves<const V: u8>(
        &mut self,
        board: &Board,
        picker: &mut Picker,
        node: Node,
        mut window: Window,
        futile: Option<i32>,
    ) -> (i32, Option<Move>) {
        let me = board.side_to_move();
        let mut best = -INF;
        let mut best_move = None;
        self.repetitions.push(board.key());
        let mut i = 0;
        let mut pruned = false;
        while let Some(child) = picker.next(&self.heuristics, node.ply) {
            let same = child.board.side_to_move() == me;
            if futile.is_some()
                && i > 0
                && self.prunable::<V>(board, node, child.board, same, child.is_quiet())
            {
                pruned = true;
                i += 1;
                continue;
            }
            // A capture starts a new repetition window.
            let since = if child.board.stores() == board.stores() {
                node.since
            } else {
                self.repetitions.len()
            };
            let extension = i32::from(
                self.switches.extensions
                    && !same
                    && node.extended < MAX_EXTENSIONS
                    && node.depth <= EXTENSION_DEPTH
                    && child.board.row_seeds(child.board.side_to_move()) <= FEW_SEEDS
                    && child.board.total_seeds() > 0,
            );
            let next = node.child(since, extension);
            let score = if i == 0 {
                self.child::<V>(child.board, same, next, window)
            } else {
                let reduction = reduction(&child, same, i, node.depth);
                self.search_later::<V>(child.board, same, next, reduction, window)
            };
            if self.ledger.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > window.alpha {
                    window.alpha = score;
                    best_move = Some(child.mv);
                    self.pv.update(node.ply, child.mv);
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
        self.repetitions.pop();
        if let Some(estimate) = futile.filter(|_| pruned) {
            // At most alpha, so the node still fails low.
            best = best.max(estimate);
        }
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
        let score = if node.depth <= 0 && self.switches.quiescence {
            self.quiesce::<V>(board, node, window, 0)
        } else if node.depth <= 0 {
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
