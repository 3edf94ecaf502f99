//! Every rule that leaves moves out of the search or searches them shallower or deeper, with
//! its tuning constants, in one place: futility and reverse futility near the horizon, late
//! move reductions, extensions, and quiescence's delta pruning. The node search asks; the
//! numbers live here.

use super::super::eval::evaluate_in;
use super::super::ordering::Child;
use super::super::score::TB_BOUND;
use super::{variant, Node, Searcher, Window};
use crate::rules::{Board, Variant};
use std::ops::ControlFlow;

impl Searcher<'_> {
    /// Whether [`Searcher::futility`] looks at a node at all: where the `Futility` switch is
    /// on, below the root, off the principal variation and near the horizon (futility's depths
    /// are within reverse futility's).
    #[inline]
    pub(super) fn futility_applies(&self, node: Node, window: Window) -> bool {
        self.switches.futility
            && !window.is_open()
            && node.ply > 0
            && node.depth <= REVERSE_FUTILITY_DEPTH
    }

    /// Futility (`Futility`) at a node near the horizon and off the principal variation:
    /// `Break` with its evaluation when that is so far above beta that the node is taken to
    /// fail high; otherwise, where its quiet moves after the first may be left out (its
    /// evaluation so far below alpha that only a capture is expected to raise it), the most
    /// they are estimated to reach ([`estimate`]), which a node that leaves one out and fails
    /// low reports at least.
    pub(super) fn futility<const V: u8>(
        &self,
        board: &Board,
        node: Node,
        window: Window,
        known: (i32, i32),
    ) -> ControlFlow<i32, Option<i32>> {
        if !self.futility_applies(node, window) {
            return ControlFlow::Continue(None);
        }
        let eval = evaluate_in(variant::<V>(), board, &self.weights)
            .clamp(-TB_BOUND + 1, TB_BOUND - 1)
            .clamp(known.0, known.1);
        match futile(eval, window, node.depth) {
            Futile::FailHigh => ControlFlow::Break(eval),
            Futile::QuietMoves => ControlFlow::Continue(Some(estimate(eval, node.depth))),
            Futile::No => ControlFlow::Continue(None),
        }
    }
}

/// How far beyond the horizon quiescence search goes, in plies.
pub(super) const QUIESCENCE_PLIES: i32 = 8;

/// Delta pruning's margin: a capture is searched in quiescence only if the evaluation plus the
/// seeds it wins (100 a seed) plus this reaches above alpha.
pub(super) const DELTA: i32 = 200;

/// The fewest seeds a move must add to the mover's store to be a capture: in kalah and ahl a
/// sowing through the own store adds one, and a capture takes at least two (the last seed and
/// at least one facing it; kalah-empty's last seed taken alone, facing nothing, adds one and
/// passes for quiet: it wins a single seed).
pub(super) const fn least_capture(variant: Variant) -> i32 {
    match variant {
        Variant::Kalah | Variant::KalahEmpty | Variant::Ahl => 2,
        Variant::Oware | Variant::Awari | Variant::Ayoayo => 1,
    }
}

/// The deepest node (plies to the horizon) that reverse futility may cut off.
const REVERSE_FUTILITY_DEPTH: i32 = 3;
/// `Extensions`: a move that leaves the side to move next this many seeds or fewer in its row
/// is searched a ply deeper...
pub(super) const FEW_SEEDS: u32 = 2;
/// ... when it is this many plies from the horizon or fewer (where a short line would
/// otherwise end before the starvation or the grand slam it sets up plays out) ...
pub(super) const EXTENSION_DEPTH: i32 = 4;
/// ... and the line has been extended fewer times than this.
pub(super) const MAX_EXTENSIONS: i32 = 2;
/// Reverse futility's margin per ply of depth: an evaluation this far above beta (times the
/// depth) is taken to fail high. 100 is a seed.
const REVERSE_FUTILITY_MARGIN: i32 = 150;
/// The deepest node whose quiet moves futility pruning may leave out.
const FUTILITY_DEPTH: i32 = 2;
/// Futility's margin per ply of depth: an evaluation this far below alpha (times the depth)
/// leaves the quiet moves out.
const FUTILITY_MARGIN: i32 = 200;

/// What futility makes of a node off the principal variation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Futile {
    /// Cut off at once with its evaluation (reverse futility).
    FailHigh,
    /// Only its first move and its captures and extra moves are searched.
    QuietMoves,
    /// Searched in full.
    No,
}

/// Futility's verdict on a node of evaluation `eval` searched to `depth` in `window`. Only
/// where the whole window lies among evaluations: a window that reaches a table result or a
/// finished game (a proven win or loss in sight) is always searched in full, since there the
/// evaluation says nothing of the score.
fn futile(eval: i32, window: Window, depth: i32) -> Futile {
    let evaluations = -TB_BOUND < window.alpha && window.beta < TB_BOUND;
    if !evaluations || depth <= 0 {
        Futile::No
    } else if depth <= REVERSE_FUTILITY_DEPTH
        && eval - REVERSE_FUTILITY_MARGIN * depth >= window.beta
    {
        Futile::FailHigh
    } else if depth <= FUTILITY_DEPTH && estimate(eval, depth) <= window.alpha {
        Futile::QuietMoves
    } else {
        Futile::No
    }
}

/// The most a quiet move is estimated to reach at a node of evaluation `eval` searched to
/// `depth`: futility leaves the quiet moves out where this is at most alpha. A node that leaves
/// one out and fails low reports (and stores as its upper bound) at least this, not only the
/// best of the moves it searched: those may all be worse, and the node's value is not known to
/// be below what the moves left out were taken to reach.
fn estimate(eval: i32, depth: i32) -> i32 {
    eval + FUTILITY_MARGIN * depth
}

/// Whether futility pruning may leave out a move after the first at a node whose quiet moves
/// it prunes: one that hands the turn over (`same` is false: kalah's and ahl's extra moves are
/// searched) and adds nothing to the mover's store (`quiet`), and does not end the game: a
/// move that ends it captures nothing but decides everything (the last seeds given away where
/// the opponent cannot feed them back, an empty row), and the evaluation knows nothing of it.
pub(super) fn prunable(variant: Variant, after: &Board, same: bool, quiet: bool) -> bool {
    !same && quiet && after.end_in(variant).is_none()
}

/// How many plies shallower the `i`th move searched (from 0) at `depth` is searched first
/// (late move reduction): quiet moves after the first two, the later and the deeper the more,
/// being the least likely to raise alpha.
pub(super) fn reduction(child: &Child, same: bool, i: usize, depth: i32) -> i32 {
    if child.is_plain() && !same && depth >= 3 && i >= 2 {
        1 + i32::from(i >= 3 && depth >= 5) + i32::from(i >= 4 && depth >= 8)
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Game;
    use crate::search::eval::Weights;
    use crate::search::score::{MATE, TB_WIN};
    use crate::search::switches::Switches;
    use crate::search::threads::Pool;
    use crate::search::time::Limits;
    use crate::search::tt::{Bound, HashTable, Hit};
    use crate::search::{Control, Shared};

    #[test]
    fn futility_only_within_the_evaluations() {
        let window = |alpha: i32| Window::null(alpha);
        // (eval, alpha of a null window, depth, verdict)
        let rows = [
            (1_000, 0, 1, Futile::FailHigh),
            (1_000, 0, 3, Futile::FailHigh),
            (1_000, 0, 4, Futile::No),
            (100, 0, 1, Futile::No),
            (-500, 0, 1, Futile::QuietMoves),
            (-500, 0, 2, Futile::QuietMoves),
            (-500, 0, 3, Futile::No),
            (-150, 0, 1, Futile::No),
            // Proven losses and wins in the window: never pruned, however far the evaluation.
            (-(TB_BOUND - 1), -TB_BOUND, 1, Futile::No),
            (-(TB_BOUND - 1), -(TB_WIN + 100), 1, Futile::No),
            (-(TB_BOUND - 1), -(MATE - 5), 2, Futile::No),
            (TB_BOUND - 1, TB_BOUND - 1, 1, Futile::No),
            (TB_BOUND - 1, MATE - 5, 3, Futile::No),
            (0, 0, 0, Futile::No),
        ];
        for (eval, alpha, depth, verdict) in rows {
            assert_eq!(
                futile(eval, window(alpha), depth),
                verdict,
                "{eval} {alpha} {depth}"
            );
            // The estimate a node that leaves moves out reports at least keeps it failing low.
            if verdict == Futile::QuietMoves {
                assert!(estimate(eval, depth) <= alpha, "{eval} {alpha} {depth}");
            }
        }
        assert_eq!(futile(3_000, Window::FULL, 1), Futile::No);
    }

    #[test]
    fn futility_leaves_out_only_quiet_moves_that_do_not_end_the_game() {
        use crate::rules::Move;
        // (rule set, position, move, may be left out)
        let rows = [
            // Quiet, and the game goes on.
            (Variant::Oware, "0-0-0-0-2-1-0-1-0-0-0-0-22-22-S", 'F', true),
            // A capture: never left out.
            (
                Variant::Oware,
                "0-0-0-0-0-1-1-1-0-0-0-0-22-23-S",
                'F',
                false,
            ),
            // Quiet, but South gives away its last seed and North cannot feed it back: the
            // game ends, North taking what is left.
            (
                Variant::Oware,
                "0-0-0-0-0-1-0-1-0-0-0-0-23-23-S",
                'F',
                false,
            ),
            (
                Variant::Awari,
                "0-0-0-0-0-1-0-1-0-0-0-0-23-23-S",
                'F',
                false,
            ),
            // Kalah: the last seed in the store, South moves again: searched.
            (
                Variant::Kalah,
                "0-0-0-0-2-1-0-1-0-0-0-0-22-22-S",
                'F',
                false,
            ),
        ];
        for (variant, position, mv, expected) in rows {
            let board = Board::from_notation(variant, position).unwrap();
            let m = Move::from_char(mv).unwrap();
            let after = board.play(m);
            let same = after.side_to_move() == board.side_to_move();
            let quiet = after.store(board.side_to_move()) == board.store(board.side_to_move());
            assert_eq!(
                prunable(variant, &after, same, quiet),
                expected,
                "{variant} {position} {mv}"
            );
        }
    }

    /// What `negamax` made of `board` as a node one ply from the root, searched to `depth` in
    /// the null window at `alpha` with `Futility` on or off (the other features off), in a
    /// fresh table: its score, the nodes it took and the table's entry for it.
    fn node(board: &Board, depth: i32, alpha: i32, futility: bool) -> (i32, u64, Option<Hit>) {
        let tt = HashTable::new(1);
        let control = Control::new(false);
        let limits = Limits::default();
        let pool = Pool::default();
        let shared = Shared {
            tt: &tt,
            control: &control,
            weights: Weights::engine(board.variant()),
            limits: &limits,
            overhead: 0,
            tables: None,
            path_values: false,
            pool: &pool,
            root_moves: board.legal_moves(),
            root_store: true,
        };
        let mut searcher = Searcher::new(&Game::new(*board), shared, false);
        searcher.switches = Switches {
            futility,
            ..Switches::OFF
        };
        let node = Node {
            ply: 1,
            ..Node::root(depth)
        };
        let window = Window::null(alpha);
        let score = match board.variant() {
            Variant::Oware => searcher.negamax::<{ Variant::Oware as u8 }>(board, node, window),
            Variant::Awari => searcher.negamax::<{ Variant::Awari as u8 }>(board, node, window),
            Variant::Ahl => searcher.negamax::<{ Variant::Ahl as u8 }>(board, node, window),
            Variant::Kalah => searcher.negamax::<{ Variant::Kalah as u8 }>(board, node, window),
            Variant::Ayoayo => searcher.negamax::<{ Variant::Ayoayo as u8 }>(board, node, window),
            Variant::KalahEmpty => {
                searcher.negamax::<{ Variant::KalahEmpty as u8 }>(board, node, window)
            }
        };
        (score, searcher.nodes, tt.probe(searcher.table_key(board)))
    }

    /// A node whose quiet moves futility leaves out, failing low, says (and stores) that it is
    /// worth at most what those moves were estimated to reach at best, not less: the moves it
    /// searched may all be worse, and a parent must not take the node for worse than that.
    /// Where futility leaves nothing out, the node scores as it does without futility.
    #[test]
    fn a_node_that_leaves_moves_out_fails_low_no_lower_than_their_estimate() {
        // (rule set, position, depth, whether a quiet move is left out)
        let rows = [
            (Variant::Oware, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", 1, true),
            (Variant::Oware, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", 2, true),
            (Variant::Oware, "3-0-5-1-6-2-0-4-1-7-2-3-6-8-N", 1, true),
            (Variant::Oware, "3-0-5-1-6-2-0-4-1-7-2-3-6-8-N", 2, true),
            (Variant::Awari, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", 2, true),
            (Variant::Kalah, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", 1, true),
            (Variant::Ayoayo, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", 2, true),
            // One move: nothing to leave out.
            (Variant::Oware, "0-0-0-0-0-1-4-4-4-4-4-4-11-12-S", 1, false),
        ];
        let mut wrong = Vec::new();
        for (variant, position, depth, pruned) in rows {
            let board = Board::from_notation(variant, position).unwrap();
            let eval = evaluate_in(variant, &board, &Weights::engine(variant));
            let reach = estimate(eval, depth);
            let alpha = reach + 300;
            assert_eq!(
                futile(eval, Window::null(alpha), depth),
                Futile::QuietMoves,
                "{variant} {position} {depth}"
            );
            let (score, nodes, hit) = node(&board, depth, alpha, true);
            let (full, all_nodes, _) = node(&board, depth, alpha, false);
            let row = format!(
                "{variant} {position} depth {depth}: {score} (without futility {full}, \
                 {nodes} nodes of {all_nodes}), estimate {reach}"
            );
            assert_eq!(nodes < all_nodes, pruned, "{row}");
            assert!(score <= alpha, "{row}: fails low");
            let hit = hit.expect("stored");
            assert_eq!(
                (hit.bound, super::super::from_table(hit.score, 1)),
                (Bound::Upper, score),
                "{row}"
            );
            let right = match pruned {
                true => score >= reach,
                false => score == full,
            };
            if !right {
                wrong.push(row);
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }
}
