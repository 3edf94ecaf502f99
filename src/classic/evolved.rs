//! `evolved`: the evolved player of the research paper — plain minimax (here with alpha-beta
//! pruning, which returns the same move) to depth 7 on a weighted sum of six features, for
//! `oware` and `awari`. The weights come from co-evolution (`referee evolve`).
//!
//! Features, from the point of view of the side to move at the evaluated position:
//! - `a2`, `a3`: the opponent's houses *exposed* to a capture of 2 or 3 seeds: a house is
//!   exposed to a capture of `k` when some house of the side to move, sown as oware sows
//!   (skipping its origin on laps), drops its last seed there and leaves it holding `k`;
//!   counted per house, however many moves reach it;
//! - `b2`, `b3`: the same for the side to move's own houses, reached by the opponent's;
//! - `as`, `bs`: the opponent's store and the side to move's own store.
//!
//! `f = w1·a2 + w2·a3 + w3·b2 + w4·b3 + w5·as + w6·bs`. A finished game scores ±1,000,000
//! (less the plies to reach it, so nearer wins are preferred) or 0 for a draw. Ties between
//! moves go to the first in sowing order.

use crate::rules::exposed::exposed;
use crate::rules::{Board, Move, Variant};
use std::fmt;
use std::str::FromStr;

/// The six weights `w1..w6`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EvolvedWeights(pub [f64; 6]);

impl fmt::Display for EvolvedWeights {
    /// Six numbers separated by spaces: the weight file's format.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<String> = self.0.iter().map(|w| format!("{w}")).collect();
        f.write_str(&words.join(" "))
    }
}

impl FromStr for EvolvedWeights {
    type Err = String;

    /// Six numbers separated by blanks; lines starting with `#` are comments.
    fn from_str(text: &str) -> Result<EvolvedWeights, String> {
        let numbers: Vec<&str> = text
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .flat_map(str::split_whitespace)
            .collect();
        if numbers.len() != 6 {
            return Err(format!("expected 6 weights, found {}", numbers.len()));
        }
        let mut w = [0.0; 6];
        for (slot, n) in w.iter_mut().zip(&numbers) {
            *slot = n
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("'{n}' is not a number"))?;
        }
        Ok(EvolvedWeights(w))
    }
}

/// The weights shipped with the project: the result of the evolution run recorded in
/// `tournament/evolved/` (its log and the command that made it).
pub fn shipped() -> EvolvedWeights {
    include_str!("../../tournament/evolved/weights.txt")
        .parse()
        .expect("tournament/evolved/weights.txt holds six weights")
}

/// The paper's search depth.
pub const DEPTH: u32 = 7;

const WIN: f64 = 1_000_000.0;

/// `f` for the side to move.
pub fn evaluate(board: &Board, w: &EvolvedWeights) -> f64 {
    let me = board.side_to_move();
    let you = me.opponent();
    let houses = board.houses();
    let (a2, a3) = exposed(&houses, me);
    let (b2, b3) = exposed(&houses, you);
    let w = &w.0;
    w[0] * f64::from(a2)
        + w[1] * f64::from(a3)
        + w[2] * f64::from(b2)
        + w[3] * f64::from(b3)
        + w[4] * f64::from(board.store(you))
        + w[5] * f64::from(board.store(me))
}

/// Minimax with alpha-beta; `None` once `stop` has said so (checked every 1,024 nodes).
fn negamax(
    board: &Board,
    depth: u32,
    mut alpha: f64,
    beta: f64,
    ply: u32,
    w: &EvolvedWeights,
    stop: &mut Stop<'_>,
) -> Option<f64> {
    let moves = match board.moves_or_end() {
        Ok(m) => m,
        Err(reason) => {
            return Some(match board.outcome_when(reason).winner {
                None => 0.0,
                Some(s) if s == board.side_to_move() => WIN - f64::from(ply),
                Some(_) => -(WIN - f64::from(ply)),
            })
        }
    };
    if depth == 0 {
        return Some(evaluate(board, w));
    }
    if stop.now() {
        return None;
    }
    let mut best = f64::NEG_INFINITY;
    for m in moves {
        let child = board.play_unchecked(m);
        let score = -negamax(&child, depth - 1, -beta, -alpha, ply + 1, w, stop)?;
        if score > best {
            best = score;
        }
        if best > alpha {
            alpha = best;
        }
        if alpha >= beta {
            break;
        }
    }
    Some(best)
}

/// The stop test, asked every 1,024 interior nodes.
struct Stop<'a> {
    test: &'a dyn Fn() -> bool,
    nodes: u32,
}

impl Stop<'_> {
    fn now(&mut self) -> bool {
        self.nodes = self.nodes.wrapping_add(1);
        self.nodes % 1024 == 0 && (self.test)()
    }
}

/// The move the evolved player makes, searching `depth` plies; `None` when the game is over.
/// Meant for `oware` and `awari` (other rule sets work, with the same features).
pub fn choose(board: &Board, w: &EvolvedWeights, depth: u32) -> Option<Move> {
    root_until(
        board,
        w,
        depth,
        &mut Stop {
            test: &|| false,
            nodes: 0,
        },
    )
}

/// [`choose`] within a time limit: iterations of depth 1, 2, ... up to `depth`, each the
/// same search as [`choose`]'s at its depth. `stop` ends the iteration under way (its result is
/// dropped); `enough` is asked after each iteration and ends the search when true. The move of
/// the deepest complete iteration is played; depth 1 (at most six positions scored) always
/// completes.
pub fn choose_within(
    board: &Board,
    w: &EvolvedWeights,
    depth: u32,
    stop: &dyn Fn() -> bool,
    enough: &dyn Fn() -> bool,
) -> Option<Move> {
    let mut best = choose(board, w, 1)?;
    for d in 2..=depth {
        if enough() || stop() {
            break;
        }
        let mut test = Stop {
            test: stop,
            nodes: 0,
        };
        match root_until(board, w, d, &mut test) {
            Some(m) => best = m,
            None => break,
        }
    }
    Some(best)
}

/// The root of a search to `depth`: `None` when the game is over or `stop` ended it.
fn root_until(board: &Board, w: &EvolvedWeights, depth: u32, stop: &mut Stop<'_>) -> Option<Move> {
    let moves = board.moves_or_end().ok()?;
    let mut best: Option<(Move, f64)> = None;
    for m in moves {
        let child = board.play_unchecked(m);
        // A move that must beat the best so far: a strictly better score keeps the first of
        // equal moves.
        let alpha = best.map_or(f64::NEG_INFINITY, |(_, s)| s);
        let score = -negamax(
            &child,
            depth.saturating_sub(1),
            f64::NEG_INFINITY,
            -alpha,
            1,
            w,
            stop,
        )?;
        if best.is_none_or(|(_, s)| score > s) {
            best = Some((m, score));
        }
    }
    best.map(|(m, _)| m)
}

/// Whether the paper's player is defined for `variant`.
pub fn supports(variant: Variant) -> bool {
    matches!(variant, Variant::Oware | Variant::Awari)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::rules::Game;

    /// The definition, written plainly: full minimax, first best move in sowing order.
    fn minimax(board: &Board, depth: u32, ply: u32, w: &EvolvedWeights) -> f64 {
        match board.moves_or_end() {
            Err(reason) => match board.outcome_when(reason).winner {
                None => 0.0,
                Some(s) if s == board.side_to_move() => WIN - f64::from(ply),
                Some(_) => -(WIN - f64::from(ply)),
            },
            Ok(_) if depth == 0 => evaluate(board, w),
            Ok(moves) => moves
                .into_iter()
                .map(|m| -minimax(&board.play_unchecked(m), depth - 1, ply + 1, w))
                .fold(f64::NEG_INFINITY, f64::max),
        }
    }

    fn plain_choice(board: &Board, w: &EvolvedWeights, depth: u32) -> Option<Move> {
        let mut best: Option<(Move, f64)> = None;
        for m in board.moves_or_end().ok()? {
            let s = -minimax(&board.play_unchecked(m), depth - 1, 1, w);
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((m, s));
            }
        }
        best.map(|(m, _)| m)
    }

    #[test]
    fn alpha_beta_picks_what_plain_minimax_picks() {
        let mut rng = Rng::new(99);
        let mut unit = || (rng.below(2001) as f64 - 1000.0) / 1000.0;
        for variant in [Variant::Oware, Variant::Awari] {
            for _ in 0..30 {
                let w = EvolvedWeights([unit(), unit(), unit(), unit(), unit(), unit()]);
                let mut game = Game::new(Board::start(variant));
                let plies = 10 + (unit().abs() * 40.0) as usize;
                for _ in 0..plies {
                    let moves: Vec<Move> = game.legal_moves().collect();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[(unit().abs() * (moves.len() - 1) as f64) as usize];
                    game.play(m).unwrap();
                }
                let board = *game.board();
                for depth in [1, 3, 4] {
                    assert_eq!(
                        choose(&board, &w, depth),
                        plain_choice(&board, &w, depth),
                        "{board} {w} depth {depth}"
                    );
                }
            }
        }
    }

    #[test]
    fn table() {
        let stores = EvolvedWeights([0.0, 0.0, 0.0, 0.0, -1.0, 1.0]);
        // (position, weights, depth, move, why)
        let rows = [
            (
                "1-0-0-0-0-1-2-1-1-1-1-4-22-14-S",
                stores,
                1,
                'F',
                "F takes 3 and wins",
            ),
            (
                "0-0-0-0-2-1-1-3-0-0-0-0-10-10-S",
                stores,
                1,
                'E',
                "E and F both take 2: the first",
            ),
            // a2 alone, depth 1: the child is scored for North, so South picks the move that
            // leaves North the fewest South houses holding 1 within reach... and the store
            // weights are zero: with no exposure either way every move ties: A.
            (
                "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
                EvolvedWeights([1.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
                1,
                'A',
                "all tie",
            ),
        ];
        for (text, w, depth, expected, why) in rows {
            let board = Board::from_notation(Variant::Oware, text).unwrap();
            assert_eq!(
                choose(&board, &w, depth).unwrap().to_char(),
                expected,
                "{why}"
            );
        }
    }

    #[test]
    fn the_shipped_weights_read() {
        let w = shipped();
        assert!(w.0.iter().all(|x| x.is_finite()));
    }

    #[test]
    fn weights_read_and_print() {
        let w: EvolvedWeights = "# evolved\n0.5 -1 2e-1\n 3 4 -0.25\n".parse().unwrap();
        assert_eq!(w, EvolvedWeights([0.5, -1.0, 0.2, 3.0, 4.0, -0.25]));
        assert_eq!(w.to_string().parse::<EvolvedWeights>().unwrap(), w);
        assert!("1 2 3".parse::<EvolvedWeights>().is_err());
        assert!("1 2 3 4 5 x".parse::<EvolvedWeights>().is_err());
        assert!("1 2 3 4 5 NaN".parse::<EvolvedWeights>().is_err());
    }
}
