//! The root within the endgame tables' reach: which moves keep what the tables guarantee, and
//! whether there is anything left to search for.
//!
//! The tables hold bounds `lo..hi` on the seeds the side to move ends with from an empty
//! history (protocol.md, section 8). Where they meet, the tables' own move is played at once.
//! Where they do not, the value depends on which position repeats first, and the tables'
//! conversion (the move of least rank among those keeping `lo`) secures `lo` and no more: the
//! search then chooses among the moves that keep the same guarantee, with the game's history,
//! so that it plays for more whenever the opponent lets it.
//!
//! Which moves keep the guarantee. Let `T` be the root's `lo`. The conversion's argument
//! (see [`Solved::ranks`](crate::tables::layer::Solved::ranks)) orders the positions of a layer
//! by the pass of the build in which their bound last moved: after a move to `Q` (the opponent
//! to move, `n - hi(Q) = T`) every reply `P'` that is still worth exactly `T` got its `lo` in an
//! earlier pass than `Q`'s rank, and from `P'` a move of a still smaller rank keeps `T`. So play
//! that keeps `T` with moves of any rank cannot run on for ever without repeating a position,
//! but it may repeat one, and a repetition ends the game with each side taking its own row.
//! That is harmless where the side's row already holds `T` (its safe core, or any position
//! rich enough); it is harmful elsewhere. The search may therefore play any move that keeps
//! `T` and either leaves the layer (a capture, the end of the game) or goes to a position of a
//! rank below the measure of every harmful position of this value since the last capture
//! (their rank; for positions where the side was to move, the pass their `lo` last rose in).
//! Every position the play can reach after such a move has a smaller measure than each
//! harmful one, so none of those repeats; the conversion's own move always qualifies, so the
//! rule never runs out of moves. Positions of other values cannot come back: the side's `lo`
//! never falls along such play, and the opponent's moves never raise it past where its own
//! moves took it, except where the history was not played this way (a position given with
//! moves), in which case the tables' move is played as before.

use crate::rules::{Board, EndReason, Game, Move, MoveList, Side};
use crate::search::score::{finished, table_score, table_scores};
use crate::tables::probe::after_move;
use crate::tables::Tables;

/// A rank that stands for 255 or more passes: no bound can be read from it.
const SATURATED: u8 = u8::MAX;

/// What the tables make of a root within their reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Root {
    /// The tables' own move: the greatest `lo`, leaving the layer if it can, else the least
    /// rank (or a move that ends the game by repetition at least as well).
    pub conversion: Move,
    /// Its score: the guaranteed margin as a table score, or the finished game's.
    pub score: i32,
    /// The root's own bounds as table scores for the side to move (stores counted).
    pub bounds: (i32, i32),
    /// The moves that keep the guarantee; the conversion's move among them. One move (or an
    /// exact root) leaves nothing to search.
    pub allowed: MoveList,
}

impl Root {
    /// Whether the move is decided without a search: the value is exact, or only one move
    /// keeps the guarantee.
    pub fn settled(&self) -> bool {
        self.allowed.len() <= 1
    }
}

/// The root of `game` within the tables' reach, or `None` when it or one of `moves` is not in
/// the tables.
pub fn plan(tables: &Tables, game: &Game, moves: MoveList) -> Option<Root> {
    let board = game.board();
    let value = tables.probe(board)?;
    let (conversion, score) = conversion(tables, game, moves)?;
    let bounds = table_scores(board, value);
    let mut only = MoveList::EMPTY;
    only.insert(conversion);
    let settled = Root {
        conversion,
        score,
        bounds,
        allowed: only,
    };
    if value.exact().is_some() || !board.variant().has_repetition() {
        return Some(settled);
    }
    let target = value.lo;
    let Some(limit) = rank_limit(tables, game, target) else {
        return Some(settled);
    };
    let mut allowed = MoveList::EMPTY;
    for m in moves {
        if ends_by_repetition(game, m) {
            if repetition_score(board, m) >= bounds.0 {
                allowed.insert(m);
            }
            continue;
        }
        let Some(v) = after_move(tables, board, m) else {
            continue;
        };
        if v.lo < target {
            continue;
        }
        let child = board.play_unchecked(m);
        let keeps = !stays(board, &child)
            || tables
                .rank(&child)
                .is_some_and(|r| r != SATURATED && u16::from(r) < limit);
        if keeps {
            allowed.insert(m);
        }
    }
    if !allowed.contains(conversion) {
        // Only where the history was not played by this rule: the tables' move, as before.
        return Some(settled);
    }
    Some(Root { allowed, ..settled })
}

/// The least measure of the harmful positions since the last capture that are worth `target`
/// to `game`'s side to move (256 when there are none), or `None` when the history holds a
/// position this rule cannot keep from coming back (one worth more than `target` where the
/// side was to move, with less than `target` in its row).
fn rank_limit(tables: &Tables, game: &Game, target: u8) -> Option<u16> {
    let board = game.board();
    let me = board.side_to_move();
    let seeds: u8 = board.houses().iter().sum();
    let mut limit = 256;
    let since = game
        .positions()
        .iter()
        .rev()
        .take_while(|x| x.stores() == board.stores());
    for x in since {
        if x.row_seeds(me) >= u32::from(target) {
            continue;
        }
        let v = tables.probe(x)?;
        if x.side_to_move() == me {
            if v.lo > target {
                return None;
            }
            if v.lo == target {
                limit = limit.min(progress(tables, x, target)?);
            }
        } else if seeds - v.hi == target {
            limit = limit.min(u16::from(tables.rank(x)?));
        }
    }
    Some(limit)
}

/// The pass of the build in which `lo` of `x` (its side to move's) last rose to `lo`: one more
/// than the least rank of the moves that keep it (1 for a move leaving the layer), or `None`
/// when a move is not in the tables. 0 when no move keeps it (its `lo` is its safe core).
fn progress(tables: &Tables, x: &Board, lo: u8) -> Option<u16> {
    let mut least: Option<u16> = None;
    for m in x.moves_or_end().ok()? {
        if after_move(tables, x, m)?.lo != lo {
            continue;
        }
        let child = x.play_unchecked(m);
        let pass = if stays(x, &child) {
            u16::from(tables.rank(&child)?) + 1
        } else {
            1
        };
        least = Some(least.map_or(pass, |l| l.min(pass)));
    }
    Some(least.unwrap_or(0))
}

/// The tables' own move at the root and its score, or `None` when a move's value is not in the
/// tables. The move keeps the best value the side to move can force (the greatest `lo`); among
/// those, one that leaves the layer (a capture, an extra move, the end of the game), else one
/// to the position of least rank, so that every position after it is nearer an exit or the
/// side's safe core: the play cannot go round (see
/// [`Solved::ranks`](crate::tables::layer::Solved::ranks)).
///
/// A move to a position the game has seen since the last capture ends the game by repetition
/// (oware), whatever the tables say of that position (they value it as if it had no history):
/// it is compared with the others by its final margin in seeds, so that it is played when it
/// ends the game at least as well as the tables guarantee, and it scores as a finished game.
fn conversion(tables: &Tables, game: &Game, moves: MoveList) -> Option<(Move, i32)> {
    ranked(tables, game, moves).map(|ranked| ranked[0])
}

/// Every one of `moves` (at least one) with its score, in the order of the tables' preference
/// (their own move, [`Root::conversion`], first: the greatest `lo`, then leaving the layer,
/// then the least rank), or `None` when a move's value is not in the tables. The score is what
/// the move guarantees (its `lo` as a table score), or the finished game's. For the lines of
/// `MultiPV` at a root the tables decide.
pub fn ranked(tables: &Tables, game: &Game, moves: MoveList) -> Option<Vec<(Move, i32)>> {
    let board = game.board();
    // Greatest first: the least score, leaving the layer, the least rank, the most score.
    type Preference = (i32, bool, std::cmp::Reverse<u8>, i32);
    let mut all: Vec<(Preference, Move, i32)> = Vec::with_capacity(moves.len());
    for m in moves {
        let child = board.play_unchecked(m);
        if ends_by_repetition(game, m) {
            let score = repetition_score(board, m);
            let finished = -finished(&child, EndReason::Repetition, 1);
            all.push(((score, true, std::cmp::Reverse(0), score), m, finished));
        } else {
            let v = after_move(tables, board, m)?;
            let (lower, upper) = table_scores(board, v);
            let stays = stays(board, &child);
            let rank = if stays { tables.rank(&child)? } else { 0 };
            all.push(((lower, !stays, std::cmp::Reverse(rank), upper), m, lower));
        }
    }
    if all.is_empty() {
        return None;
    }
    // Stable, from the greatest: among equals the first in sowing order, as before.
    all.sort_by_key(|&(preference, ..)| std::cmp::Reverse(preference));
    Some(all.into_iter().map(|(_, m, score)| (m, score)).collect())
}

/// The final margin of the game that `m` ends by repetition, as a table score for the side
/// making it.
fn repetition_score(board: &Board, m: Move) -> i32 {
    let child = board.play_unchecked(m);
    let [south, north] = child.outcome_when(EndReason::Repetition).stores;
    let margin = i32::from(south) - i32::from(north);
    table_score(match board.side_to_move() {
        Side::South => margin,
        Side::North => -margin,
    })
}

/// Whether a move from `board` to `child` keeps the play in the layer: no seed left the board
/// and the opponent moves next (else it is an exit: a capture, kalah's extra move).
fn stays(board: &Board, child: &Board) -> bool {
    child.stores() == board.stores() && child.side_to_move() != board.side_to_move()
}

/// Whether playing `m` in `game` repeats a position seen since the last capture, which ends
/// the game (oware).
pub fn ends_by_repetition(game: &Game, m: Move) -> bool {
    let mut after = game.clone();
    after.play(m).is_ok() && after.is_repetition()
}
