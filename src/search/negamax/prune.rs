//! Every rule that leaves moves out of the search or searches them shallower or deeper, with
//! its tuning constants, in one place: futility and reverse futility near the horizon, late
//! move reductions, extensions, and quiescence's delta pruning, and the guards that keep the
//! pruning rules away from the game's end. The node search asks; the numbers live here.

use super::super::eval::evaluate_in;
use super::super::ordering::Child;
use super::super::score::TB_BOUND;
use super::guards::{cut_guards, ends, Guards};
use super::{variant, Node, Searcher, Window};
use crate::rules::{Board, MoveList, Variant};

impl Searcher<'_> {
    /// Whether [`Searcher::futility_verdict`] looks at a node at all: where the `Futility` switch is
    /// on, below the root, off the principal variation and near the horizon (futility's depths
    /// are within reverse futility's).
    #[inline]
    pub(super) fn futility_applies(&self, node: Node, window: Window) -> bool {
        self.switches.futility
            && !window.is_open()
            && node.ply > 0
            && node.depth <= REVERSE_FUTILITY_DEPTH
    }

    /// Futility's verdict (`Futility`) at a node near the horizon and off the principal
    /// variation, with its evaluation: whether that is so far above beta that the node is
    /// taken to fail high, or so far below alpha that its quiet moves after the first may be
    /// left out (only a capture is expected to raise it). `Futile::No` where a guard keeps
    /// the node whole ([`cut_guards`]: its one move, of `moves`, ends the game, or a row is
    /// nearly empty where an empty row decides the game); where the quiet moves are left out,
    /// each is looked at first ([`Searcher::prunable`]).
    pub(super) fn futility_verdict<const V: u8>(
        &self,
        board: &Board,
        node: Node,
        window: Window,
        known: (i32, i32),
        moves: MoveList,
    ) -> (Futile, i32) {
        if !self.futility_applies(node, window) {
            return (Futile::No, 0);
        }
        let eval = evaluate_in(variant::<V>(), board, &self.evaluator)
            .clamp(-TB_BOUND + 1, TB_BOUND - 1)
            .clamp(known.0, known.1);
        match futile(eval, window, node.depth) {
            Futile::No => (Futile::No, eval),
            _ if self.guarded(cut_guards(variant::<V>(), board, moves, |key| {
                self.repetitions.repeats_below(key, node.since)
            })) =>
            {
                (Futile::No, eval)
            }
            verdict => (verdict, eval),
        }
    }

    /// Whether futility may leave out `child`, a move after the first at a node whose quiet
    /// moves it prunes (`board`, searched as `node`): one that hands the turn over (`same` is
    /// false: kalah's and ahl's extra moves are searched), adds nothing to the mover's store
    /// (`quiet`) and does not end the game by any rule ([`ends`]): a move that ends it captures
    /// nothing but decides everything (the last seeds given away where the opponent cannot
    /// feed them back, an empty row, a repetition), and the evaluation knows nothing of it.
    #[inline]
    pub(super) fn prunable<const V: u8>(
        &self,
        board: &Board,
        node: Node,
        child: &Board,
        same: bool,
        quiet: bool,
    ) -> bool {
        !same
            && quiet
            && !self.guarded(
                match ends(variant::<V>(), board, child, |key| {
                    self.repetitions.repeats(key, node.since)
                }) {
                    Some(_) => Guards::MOVE_ENDS_GAME,
                    None => Guards::NONE,
                },
            )
    }

    /// Whether `found` keeps the pruning rules off a node: any reason does (but, in the tests,
    /// those switched off).
    #[inline]
    pub(super) fn guarded(&self, found: Guards) -> bool {
        #[cfg(test)]
        let found = found.without(self.unguarded);
        !found.is_empty()
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

/// The deepest node (plies to the horizon) that reverse futility may cut off. Five plies: a
/// node that far above beta is cut for the price of an evaluation, which saved 29% of the
/// nodes to depth 24 in positions from games, and the guards keep every such cut away from
/// the game's end (tournament/README.md).
const REVERSE_FUTILITY_DEPTH: i32 = 5;
// `Extensions`: a move that leaves the side to move next [`FEW_SEEDS`] or fewer in its row
// is searched a ply deeper...
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
pub(super) enum Futile {
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
pub(super) fn estimate(eval: i32, depth: i32) -> i32 {
    eval + FUTILITY_MARGIN * depth
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
    use crate::rules::{EndReason, Game};
    use crate::search::eval::Evaluator;
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
            (1_000, 0, 5, Futile::FailHigh),
            (700, 0, 5, Futile::No),
            (1_000, 0, 6, Futile::No),
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

    /// Runs `f` with a searcher of `game`'s position, the features off, with `tt`, and the
    /// terms or (`network`) the engine's evaluation.
    fn searching<T>(
        tt: &HashTable,
        game: &Game,
        network: bool,
        f: impl FnOnce(&mut Searcher) -> T,
    ) -> T {
        let variant = game.board().variant();
        let control = Control::new(false);
        let limits = Limits::default();
        let pool = Pool::default();
        let shared = Shared {
            tt,
            control: &control,
            evaluator: match network {
                true => Evaluator::engine(variant),
                false => Evaluator::terms(variant),
            },
            limits: &limits,
            overhead: 0,
            tables: None,
            path_values: false,
            pool: &pool,
            root_moves: game.legal_moves(),
            root_store: true,
        };
        let mut searcher = Searcher::new(game, shared, false);
        searcher.switches = Switches::OFF;
        f(&mut searcher)
    }

    /// [`searching`] in a fresh table, with the engine's evaluation.
    fn with_searcher<T>(game: &Game, f: impl FnOnce(&mut Searcher) -> T) -> T {
        searching(&HashTable::new(1), game, true, f)
    }

    /// The root score of `game` searched to `depth` in the full window, with `Futility` on or
    /// off (the other features off) and the guards in `unguarded` off, in a fresh table, with
    /// the terms or (`network`) the engine's evaluation.
    fn root_score(
        game: &Game,
        depth: i32,
        futility: bool,
        unguarded: Guards,
        network: bool,
    ) -> i32 {
        searching(&HashTable::new(1), game, network, |searcher| {
            searcher.switches.futility = futility;
            searcher.unguarded = unguarded;
            searcher.root(game.board(), depth, Window::FULL)
        })
    }

    /// What `negamax` made of `board` as a node one ply from the root, searched to `depth` in
    /// the null window at `alpha` with `Futility` on or off (the other features off), in a
    /// fresh table: its score, the nodes it took and the table's entry for it.
    fn node(board: &Board, depth: i32, alpha: i32, futility: bool) -> (i32, u64, Option<Hit>) {
        node_with(board, depth, alpha, futility, None)
    }

    /// [`node`], with an entry (its score as stored, its bound and depth) stored for `board`
    /// first.
    fn node_with(
        board: &Board,
        depth: i32,
        alpha: i32,
        futility: bool,
        stored: Option<(i32, Bound, i32)>,
    ) -> (i32, u64, Option<Hit>) {
        let tt = HashTable::new(1);
        let game = Game::new(*board);
        searching(&tt, &game, true, |searcher| {
            searcher.switches.futility = futility;
            if let Some((score, bound, depth)) = stored {
                tt.store(searcher.table_key(board), None, depth, score, bound);
            }
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
                Variant::Ayoayo => {
                    searcher.negamax::<{ Variant::Ayoayo as u8 }>(board, node, window)
                }
                Variant::KalahEmpty => {
                    searcher.negamax::<{ Variant::KalahEmpty as u8 }>(board, node, window)
                }
            };
            (
                score,
                searcher.ledger.nodes,
                tt.probe(searcher.table_key(board)),
            )
        })
    }

    /// Futility keeps every forced end that the search without it finds, where a guard sees
    /// the end coming; without those guards it cuts the end off. One row per guard and rule
    /// set (positions found a few plies before the ends of random games; the first is a
    /// repetition: South's `D` leaves North one move, with one seed in its row, which repeats
    /// the position, and South wins 25-23). Each row finds its end with both evaluations
    /// (oware's network and the terms) and fails without its guards with the evaluation it
    /// names.
    #[test]
    fn futility_keeps_the_forced_ends_its_guards_see() {
        use crate::search::score::MATE_BOUND;
        // (rule set, position, moves, depth, the guards that see the end, with the network)
        let rows = [
            (
                Variant::Oware,
                "0-1-1-0-1-0-2-0-0-0-0-0-21-22-S",
                "EaBbCcEdDeFbAfEaFbAaBbDcCdDfAeAfEaFaAbBcEdCf",
                2,
                Guards::ONE_MOVE,
                true,
            ),
            (
                Variant::Oware,
                "0-1-2-0-0-0-0-0-0-0-0-3-23-19-S",
                "",
                3,
                Guards::ONE_MOVE,
                false,
            ),
            (
                Variant::Awari,
                "0-0-0-0-0-3-1-2-2-0-0-0-22-18-N-131",
                "",
                3,
                Guards::ONE_MOVE,
                false,
            ),
            (
                Variant::Ahl,
                "0-0-0-0-0-8-1-5-0-1-0-1-7-13-N",
                "",
                2,
                Guards::ONE_MOVE,
                false,
            ),
            (
                Variant::Ahl,
                "0-8-0-1-0-1-0-1-0-1-0-1-17-6-S",
                "",
                3,
                Guards::NEARLY_EMPTY_ROW,
                false,
            ),
            (
                Variant::Kalah,
                "1-5-1-0-0-8-0-0-0-0-0-3-22-8-S",
                "",
                2,
                Guards::ONE_MOVE,
                false,
            ),
            (
                Variant::Kalah,
                "1-2-0-1-0-0-0-1-0-0-1-0-12-30-N",
                "",
                3,
                Guards::NEARLY_EMPTY_ROW,
                false,
            ),
            (
                Variant::KalahEmpty,
                "0-0-0-0-0-4-0-0-2-1-3-0-21-17-N",
                "",
                2,
                Guards::ONE_MOVE,
                false,
            ),
            (
                Variant::KalahEmpty,
                "0-0-0-1-0-1-2-8-1-1-0-0-11-23-N",
                "",
                4,
                Guards::NEARLY_EMPTY_ROW,
                false,
            ),
            (
                Variant::Ayoayo,
                "0-2-0-0-1-0-0-0-0-1-0-0-25-19-S",
                "",
                4,
                Guards::NEARLY_EMPTY_ROW,
                false,
            ),
        ];
        let mut wrong = Vec::new();
        for (variant, position, moves, depth, guard, network) in rows {
            let mut game = Game::new(Board::from_notation(variant, position).unwrap());
            game.play_text(moves).unwrap();
            let row = format!("{variant} {position} {moves} depth {depth} {guard:?}");
            for net in [false, true] {
                let off = root_score(&game, depth, false, Guards::NONE, net);
                assert!(off.abs() > MATE_BOUND, "{row}: a forced end ({off})");
                let on = root_score(&game, depth, true, Guards::NONE, net);
                if on != off {
                    wrong.push(format!(
                        "{row} network {net}: {on} with futility, {off} without"
                    ));
                }
            }
            let off = root_score(&game, depth, false, Guards::NONE, network);
            let unguarded = root_score(&game, depth, true, guard, network);
            if unguarded == off {
                wrong.push(format!("{row}: the same {off} without its guards"));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    /// A node that futility cuts off reads the table first where a proven result may be
    /// stored there ([`reads_table_before_cut`](super::super::guards::reads_table_before_cut)):
    /// a bound stored there that settles the node (a forced loss found before) is its score,
    /// not the evaluation. In oware only near the game's end; elsewhere the cut takes the
    /// evaluation, whatever is stored.
    #[test]
    fn futility_gives_way_to_a_bound_in_the_table_near_the_end() {
        // (rule set, position, whether the stored bound is read)
        let rows = [
            (Variant::Oware, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", false),
            (Variant::Oware, "1-1-1-1-1-1-1-1-1-1-1-1-20-16-N", true),
            (Variant::Oware, "2-0-1-1-0-3-1-0-2-1-1-0-18-18-S", true),
            (Variant::Awari, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", true),
        ];
        let depth = 2;
        let lost = -(MATE - 7);
        let stored = (super::super::to_table(lost, 1), Bound::Upper, depth);
        for (variant, position, read) in rows {
            let board = Board::from_notation(variant, position).unwrap();
            let eval = evaluate_in(variant, &board, &Evaluator::engine(variant));
            let alpha = eval - REVERSE_FUTILITY_MARGIN * depth - 50;
            let row = format!("{variant} {position}");
            assert_eq!(
                futile(eval, Window::null(alpha), depth),
                Futile::FailHigh,
                "{row}"
            );
            let (score, _, _) = node(&board, depth, alpha, true);
            assert_eq!(score, eval, "{row}: no bound stored, the evaluation");
            let (score, _, _) = node_with(&board, depth, alpha, true, Some(stored));
            let expected = if read { lost } else { eval };
            assert_eq!(score, expected, "{row}: a bound stored");
        }
    }

    /// Futility never leaves out a move that ends the game, by any rule: one row per rule set
    /// and ending (and one where the game goes on), each left out without its guard. (In
    /// kalah, kalah-empty and ahl no quiet move that hands the turn over ends the game: a row
    /// is emptied only by sowing through the store or by a capture.)
    #[test]
    fn futility_never_leaves_out_a_move_that_ends_the_game() {
        // (rule set, position, moves before, the move, how the game ends after it)
        let rows = [
            (
                Variant::Oware,
                "0-0-0-0-2-1-0-1-0-0-0-0-22-22-S",
                "",
                'F',
                None,
            ),
            // South gives away its last seed and North cannot feed it back.
            (
                Variant::Oware,
                "0-0-0-0-0-1-0-1-0-0-0-0-23-23-S",
                "",
                'F',
                Some(EndReason::NoFeedingMove),
            ),
            // North's one move repeats the position after South's `E` of the moves.
            (
                Variant::Oware,
                "0-1-1-0-1-0-2-0-0-0-0-0-21-22-S",
                "EaBbCcEdDeFbAfEaFbAaBbDcCdDfAeAfEaFaAbBcEdCfD",
                'e',
                Some(EndReason::Repetition),
            ),
            (
                Variant::Awari,
                "0-0-0-0-0-1-0-1-0-0-0-0-23-23-S",
                "",
                'F',
                Some(EndReason::NoFeedingMove),
            ),
            // Ply 250 reached.
            (
                Variant::Awari,
                "1-3-4-4-2-2-2-5-2-2-1-1-9-10-S-249",
                "",
                'A',
                Some(EndReason::MoveLimit),
            ),
            (
                Variant::Ayoayo,
                "0-0-0-1-0-0-0-0-0-0-0-0-23-24-S",
                "",
                'D',
                Some(EndReason::EmptyRow),
            ),
        ];
        for (variant, position, before, mv, end) in rows {
            let mut game = Game::new(Board::from_notation(variant, position).unwrap());
            game.play_text(before).unwrap();
            let board = *game.board();
            let child = board.play(crate::rules::Move::from_char(mv).unwrap());
            let row = format!("{variant} {position} {before} {mv}");
            let same = child.side_to_move() == board.side_to_move();
            let quiet = child.store(board.side_to_move()) == board.store(board.side_to_move());
            assert!(!same && quiet, "{row}: a quiet move");
            let prunable = |unguarded: Guards| {
                with_searcher(&game, |searcher| {
                    searcher.unguarded = unguarded;
                    searcher.repetitions.push(board.key());
                    match variant {
                        Variant::Oware => searcher.prunable::<{ Variant::Oware as u8 }>(
                            &board,
                            Node::root(1),
                            &child,
                            same,
                            quiet,
                        ),
                        Variant::Awari => searcher.prunable::<{ Variant::Awari as u8 }>(
                            &board,
                            Node::root(1),
                            &child,
                            same,
                            quiet,
                        ),
                        Variant::Ahl => searcher.prunable::<{ Variant::Ahl as u8 }>(
                            &board,
                            Node::root(1),
                            &child,
                            same,
                            quiet,
                        ),
                        Variant::Kalah => searcher.prunable::<{ Variant::Kalah as u8 }>(
                            &board,
                            Node::root(1),
                            &child,
                            same,
                            quiet,
                        ),
                        Variant::KalahEmpty => searcher.prunable::<{ Variant::KalahEmpty as u8 }>(
                            &board,
                            Node::root(1),
                            &child,
                            same,
                            quiet,
                        ),
                        Variant::Ayoayo => searcher.prunable::<{ Variant::Ayoayo as u8 }>(
                            &board,
                            Node::root(1),
                            &child,
                            same,
                            quiet,
                        ),
                    }
                })
            };
            let keys = game.keys_since_capture();
            let history = |key: u64| key == board.key() || keys.contains(&key);
            assert_eq!(ends(variant, &board, &child, history), end, "{row}");
            assert_eq!(prunable(Guards::NONE), end.is_none(), "{row}");
            assert!(prunable(Guards::MOVE_ENDS_GAME), "{row}: without the guard");
        }
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
            let eval = evaluate_in(variant, &board, &Evaluator::engine(variant));
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
