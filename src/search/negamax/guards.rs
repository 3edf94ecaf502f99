//! The guards that keep the pruning rules ([`prune`](super::prune)) away from the game's end:
//! what makes a node, or a move, one that futility must search in full.

use crate::rules::{Board, EndReason, MoveList, Variant};

/// A row holding this many seeds or fewer is nearly empty: a starvation, an empty row or a
/// grand slam may be a few plies away. (`Extensions` searches a move that leaves the side to
/// move next such a row a ply deeper.)
pub(super) const FEW_SEEDS: u32 = 2;

/// Why a pruning rule must leave a node (or a move) alone: the game's end is in sight, and the
/// evaluation knows nothing of it (a forced end is a result, however far it lies from the
/// evaluation). A set of reasons, as a node can have several.
///
/// A reverse futility cut needs no look at the moves: it says the node is worth at least
/// beta, which a move that ends the game in the mover's favour only confirms, and one that
/// ends it against the mover does not refute while it has another (where it has none, the
/// node is guarded). Wider guards, a store within three seeds a ply of a majority and a row
/// with one house left, kept nearly every forced end in sight but cut so much less that the
/// engine lost strength (tournament/README.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Guards(u8);

impl Guards {
    /// None: the node may be pruned.
    pub(super) const NONE: Guards = Guards(0);
    /// The side to move has one move (or none): the line is forced, and where it leads (a
    /// repetition, a starvation a ply later) decides the node.
    pub(super) const ONE_MOVE: Guards = Guards(1);
    /// A row holds [`FEW_SEEDS`] or fewer, in a rule set where an empty row decides the game
    /// ([`empty_row_decides`]): that end can be a few plies away, beyond what the node's moves
    /// show.
    pub(super) const NEARLY_EMPTY_ROW: Guards = Guards(2);
    /// The move ends the game, by any rule of the rule set ([`ends`]): never left out.
    pub(super) const MOVE_ENDS_GAME: Guards = Guards(4);

    /// Whether no reason was found.
    pub(super) const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Both sets of reasons.
    pub(super) const fn with(self, other: Guards) -> Guards {
        Guards(self.0 | other.0)
    }

    /// These reasons but those of `other`.
    #[cfg(test)]
    pub(super) const fn without(self, other: Guards) -> Guards {
        Guards(self.0 & !other.0)
    }
}

/// What keeps the pruning rules off `board`, a node of `variant` with `moves` moves, whatever
/// its moves lead to: it has one move or none, or a row nearly empty where an empty row
/// decides the game.
#[inline]
pub(super) fn node_guards(variant: Variant, board: &Board, moves: usize) -> Guards {
    let mut found = Guards::NONE;
    if moves <= 1 {
        found = found.with(Guards::ONE_MOVE);
    }
    if !empty_row_decides(variant) {
        return found;
    }
    let houses = board.houses();
    let nearly_empty = |row: &[u8]| row.iter().map(|&s| u32::from(s)).sum::<u32>() <= FEW_SEEDS;
    if nearly_empty(&houses[..6]) || nearly_empty(&houses[6..]) {
        found = found.with(Guards::NEARLY_EMPTY_ROW);
    }
    found
}

/// What keeps reverse futility's cut off `board`, a node of `variant` with `moves`: the
/// [`node_guards`], but one move keeps it off only where that move ends the game by any rule
/// ([`ends`], with `repeats` asked of the line so far). A cut says the node is worth at least
/// beta; a node whose one move leads on is worth what that move is worth, as likely above
/// beta as any other, and cutting it costs nothing of the game's end. Late in a game a node
/// with one move is common, and keeping every one of them whole was most of what the guards
/// cost (tournament/README.md).
#[inline]
pub(super) fn cut_guards(
    variant: Variant,
    board: &Board,
    moves: MoveList,
    repeats: impl Fn(u64) -> bool,
) -> Guards {
    let found = node_guards(variant, board, moves.len());
    let mut moves = moves;
    match (moves.next(), moves.next()) {
        (Some(only), None)
            if ends(variant, board, &board.play_unchecked(only), repeats).is_none() =>
        {
            Guards(found.0 & !Guards::ONE_MOVE.0)
        }
        _ => found,
    }
}

/// The most seeds on an oware board where reverse futility reads the table before its cut
/// ([`reads_table_before_cut`]): the endgame tables' reach, where nearly every proven result
/// the read finds lies (tournament/README.md).
pub(super) const NEAR_END_SEEDS: u32 = 12;

/// Whether reverse futility reads the transposition table before it cuts `board` off, for a
/// proven result that settles the node. The read is a memory access at a node that would
/// otherwise end on its evaluation alone, and most of what the guards cost in time; in oware
/// nine in ten of the proven results it finds, and nearly every one that turns the cut into a
/// loss, lie on boards of [`NEAR_END_SEEDS`] or fewer, which the board alone tells, without a
/// read. The other rule sets, not measured so, read at every cut.
#[inline]
pub(super) fn reads_table_before_cut(variant: Variant, board: &Board) -> bool {
    !matches!(variant, Variant::Oware) || board.seeds_on_board() <= NEAR_END_SEEDS
}

/// Whether a row emptied decides the game in `variant`, so that a row nearly empty puts its end
/// in sight: in kalah, kalah-empty, ahl and ayoayo an empty row ends it, and in awari the side
/// to move facing an empty row of its own has lost to a grand slam. Not in oware: there the
/// opponent must feed an empty row whenever a move can, and a grand slam captures nothing, so
/// the game ends through an empty row only where the side to move has no move and none can
/// feed it, which the one-move guard and the check of every move ([`ends`]) see. (In oware
/// the guard was most of the time the guards added to a search, and none of the forced ends
/// in the tests needed it: tournament/README.md.)
pub(super) const fn empty_row_decides(variant: Variant) -> bool {
    !matches!(variant, Variant::Oware)
}

/// Why the game is over after the move from `board` to `child`, if it is: every rule of
/// `variant` that sees the board alone ([`Board::end_in`]: starvation, an empty row, a store's
/// majority, awari's grand slam and ply limit), and oware's repetition (`repeats`, asked of a
/// child that captured nothing: a capture starts the count afresh).
pub(super) fn ends(
    variant: Variant,
    board: &Board,
    child: &Board,
    repeats: impl Fn(u64) -> bool,
) -> Option<EndReason> {
    child.end_in(variant).or_else(|| {
        (variant.has_repetition() && child.stores() == board.stores() && repeats(child.key()))
            .then_some(EndReason::Repetition)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Game;

    /// Reverse futility's guards ([`cut_guards`]): a node with one move is kept whole only
    /// where that move ends the game (a repetition, the last seeds given away where the
    /// opponent cannot feed them back), and is cut as any other where it leads on; the other
    /// guards stay as they are.
    #[test]
    fn one_move_guards_a_cut_only_where_that_move_ends_the_game() {
        let one_move_on = "0-0-0-0-0-1-4-4-4-4-4-4-11-12-S";
        let nearly = Guards::NEARLY_EMPTY_ROW;
        // (rule set, position, moves before, its cut guards)
        let rows = [
            // North's one move repeats the position after South's `E` of the moves.
            (
                Variant::Oware,
                "0-1-1-0-1-0-2-0-0-0-0-0-21-22-S",
                "EaBbCcEdDeFbAfEaFbAaBbDcCdDfAeAfEaFaAbBcEdCfD",
                Guards::ONE_MOVE,
            ),
            // South gives away its last seed and North cannot feed it back.
            (
                Variant::Oware,
                "0-0-0-0-0-1-0-1-0-0-0-0-23-23-S",
                "",
                Guards::ONE_MOVE,
            ),
            (
                Variant::Awari,
                "0-0-0-0-0-1-0-1-0-0-0-0-23-23-S",
                "",
                Guards::ONE_MOVE.with(nearly),
            ),
            // South's one move empties its row, and North feeds it.
            (Variant::Oware, one_move_on, "", Guards::NONE),
            (Variant::Awari, one_move_on, "", nearly),
            (
                Variant::Oware,
                "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
                "",
                Guards::NONE,
            ),
        ];
        for (variant, position, before, guards) in rows {
            let mut game = Game::new(Board::from_notation(variant, position).unwrap());
            game.play_text(before).unwrap();
            let board = *game.board();
            let moves = board.legal_moves();
            let keys = game.keys_since_capture();
            let row = format!("{variant} {position} {before}");
            assert_eq!(
                cut_guards(variant, &board, moves, |key| keys.contains(&key)),
                guards,
                "{row}"
            );
            // What the node's guards alone say: one move keeps the pruning rules off.
            assert_eq!(
                node_guards(variant, &board, moves.len()),
                match moves.len() {
                    1 => guards.with(Guards::ONE_MOVE),
                    _ => guards,
                },
                "{row}"
            );
        }
    }

    /// Reverse futility reads the table before its cut in oware only with
    /// [`NEAR_END_SEEDS`] seeds or fewer on the board, whatever the stores hold; elsewhere
    /// always.
    #[test]
    fn the_table_is_read_before_a_cut_near_an_oware_game_s_end() {
        // (rule set, position, read)
        let rows = [
            (Variant::Oware, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", false),
            (Variant::Oware, "1-1-1-1-1-1-1-1-1-1-1-2-20-15-S", false),
            (Variant::Oware, "1-1-1-1-1-1-1-1-1-1-1-1-20-16-N", true),
            (Variant::Oware, "0-0-0-0-0-1-0-1-0-0-0-0-23-23-S", true),
            (Variant::Awari, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", true),
            (Variant::Kalah, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", true),
            (Variant::Ayoayo, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", true),
        ];
        for (variant, position, read) in rows {
            let board = Board::from_notation(variant, position).unwrap();
            assert_eq!(
                reads_table_before_cut(variant, &board),
                read,
                "{variant} {position}"
            );
        }
    }

    /// The node guards of a position in each rule set: a nearly empty row keeps the pruning
    /// rules off only where an empty row decides the game (not in oware, where the opponent
    /// must feed it), one move or none everywhere.
    #[test]
    fn a_nearly_empty_row_guards_where_an_empty_row_decides_the_game() {
        let two_moves = "0-0-0-0-1-1-4-4-4-4-4-4-11-11-S";
        let one_move = "0-0-0-0-0-1-4-4-4-4-4-4-11-12-S";
        let full = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";
        let far = "0-0-0-0-1-2-4-4-4-4-4-4-11-10-S";
        let nearly = Guards::NEARLY_EMPTY_ROW;
        // (rule set, position, its guards)
        let rows = [
            (Variant::Oware, two_moves, Guards::NONE),
            (Variant::Oware, one_move, Guards::ONE_MOVE),
            (Variant::Oware, full, Guards::NONE),
            (Variant::Awari, two_moves, nearly),
            (Variant::Awari, one_move, Guards::ONE_MOVE.with(nearly)),
            (Variant::Awari, far, Guards::NONE),
            (Variant::Kalah, two_moves, nearly),
            (Variant::KalahEmpty, two_moves, nearly),
            (Variant::Ahl, two_moves, nearly),
            (Variant::Ayoayo, two_moves, nearly),
            (Variant::Kalah, full, Guards::NONE),
        ];
        for (variant, position, guards) in rows {
            let board = Board::from_notation(variant, position).unwrap();
            let moves = board.legal_moves().len();
            assert_eq!(
                node_guards(variant, &board, moves),
                guards,
                "{variant} {position}"
            );
        }
    }
}
