//! The review of a game: the engine's score of every position, and each move judged by what it
//! lost against the engine's best, with an accuracy figure per move and per side (lichess's
//! formulas, on a chance of winning fitted to awari: [`WIN_CURVE`]). Only numbers
//! come in (scores from the driver, which runs the engine): the judging is pure, and tested as
//! a table.
//!
//! What a position is worth is an [`Eval`]: the engine's estimate in seeds, a forced win it
//! sees, the endgame tables' proven result, or the game's end. A forced win counts 50 seeds
//! (more than any store difference), a tables result or a finished game its margin; but a move
//! that wins (the game ends won for its mover, or the engine then sees a forced win for it)
//! loses nothing whatever the engine preferred: a won position compared with a won position is
//! no loss, by however many seeds either wins. So for every proven result: a move that keeps
//! its mover's (a win, a draw, a loss, proven before and after it) loses nothing whatever the
//! margins, and one that throws it away (a win to a draw or a loss, a draw to a loss) is a
//! blunder whatever the margins.

use super::view;
use crate::rules::{Move, Side};
use crate::said::Verdict;
use serde::Serialize;

/// Seeds a forced win counts for, in the graph and in what a move lost.
pub const MATE_SEEDS: f64 = 50.0;

/// The scale of the curve from seeds to the chance of winning: the `K` that `awari tune` fits
/// to the results of self-play (oware, 2000 games at depth 6: `K 0.2084` per 100 centi-seeds).
/// Lichess's chess curve, on centi-seeds, would be 0.368 a seed: too steep for awari, where ten
/// seeds behind still lose only nine games in ten.
pub const WIN_CURVE: f64 = 0.2084;

/// A review of the game: the engine's score of every position, and each move judged.
#[derive(Clone, Debug, Serialize)]
pub struct Review {
    /// The generation reviewed.
    pub generation: u64,
    /// Milliseconds per position.
    pub ms: u64,
    /// The positions scored so far (South's view, seeds): one per ply, then the end.
    pub evals: Vec<f64>,
    /// The moves judged so far (the opening's too, marked as such and not judged).
    pub moves: Vec<Judged>,
    /// South's accuracy and North's (0 to 100): the mean of their judged moves' accuracies,
    /// `None` for a side with no judged move yet.
    pub accuracy: [Option<f64>; 2],
    /// Whether every position is scored.
    pub done: bool,
}

impl Review {
    /// Adds a judged move, and counts it in its side's accuracy.
    pub fn add(&mut self, judged: Judged) {
        self.moves.push(judged);
        self.accuracy = accuracy(&self.moves);
    }
}

/// One move of a review.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Judged {
    /// Its ply, from 1.
    pub ply: usize,
    /// The move.
    pub mv: char,
    /// `S` or `N`: its mover.
    pub side: char,
    /// The engine's best move there.
    pub best: Option<char>,
    /// Where the best move's last seed falls (houses 0-11, 12 South's store, 13 North's), for
    /// the page's arrow; the driver, which has the position, fills it in.
    pub best_to: Option<usize>,
    /// Seeds it lost against the best (its mover's view).
    pub loss: f64,
    /// The percent points its mover's chance of winning dropped by (0 for a move that lost
    /// nothing); what, with `loss`, decides the mark, so the page shows both.
    pub drop: f64,
    /// `inaccuracy`, `mistake`, `blunder` (see [`judge`]), or none.
    pub mark: Option<&'static str>,
    /// Its accuracy, 0 to 100 (`None` for an opening move).
    pub accuracy: Option<f64>,
    /// A move of the record's opening (an opening suite's, not a player's): not judged.
    pub opening: bool,
}

/// What a position is worth, from South's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Eval {
    /// The engine's estimate, in seeds.
    Seeds(f64),
    /// A forced win the engine sees, for this side.
    Mate(Side),
    /// The endgame tables' proven result: South's seed margin, and the winner (`None`: a
    /// draw).
    Tables(f64, Option<Side>),
    /// The game is over: South's store less North's, and the winner (`None`: a draw).
    Over(f64, Option<Side>),
}

impl Eval {
    /// An engine's score, read from South's view.
    pub fn of(score: view::Score) -> Eval {
        match score {
            view::Score::Cp(n) => Eval::Seeds(f64::from(n) / 100.0),
            view::Score::Mate(n) if n > 0 => Eval::Mate(Side::South),
            view::Score::Mate(n) if n < 0 => Eval::Mate(Side::North),
            view::Score::Tables(m) => Eval::Tables(
                f64::from(m),
                match m.signum() {
                    1 => Some(Side::South),
                    -1 => Some(Side::North),
                    _ => None,
                },
            ),
            // `mate 0` says nothing of who wins.
            view::Score::Mate(_) => Eval::Seeds(0.0),
        }
    }

    /// Seeds from South's view: a forced win counts [`MATE_SEEDS`], a tables result its
    /// margin, a finished game its store difference.
    pub fn seeds(self) -> f64 {
        match self {
            Eval::Seeds(s) => s,
            Eval::Mate(Side::South) => MATE_SEEDS,
            Eval::Mate(Side::North) => -MATE_SEEDS,
            Eval::Over(diff, _) | Eval::Tables(diff, _) => diff,
        }
    }

    /// Whether `side` has won: the game is over and it won, or its win is proven.
    pub fn won_by(self, side: Side) -> bool {
        self.result(side) == Some(Verdict::Win)
    }

    /// `side`'s proven result: a finished game's, the tables', or a forced win's (for its
    /// winner; a loss for the other side). `None` for an estimate.
    pub fn result(self, side: Side) -> Option<Verdict> {
        let winner = match self {
            Eval::Seeds(_) => return None,
            Eval::Mate(w) => Some(w),
            Eval::Over(_, w) | Eval::Tables(_, w) => w,
        };
        Some(match winner {
            None => Verdict::Draw,
            Some(w) if w == side => Verdict::Win,
            Some(_) => Verdict::Loss,
        })
    }

    /// `side`'s chance of winning, in percent: `100 / (1 + exp(-WIN_CURVE * seeds))` from its
    /// view (lichess's curve, `50 + 50 * (2 / (1 + exp(-k * cp)) - 1)`, is the same with
    /// another scale, fitted to chess). A proven result is certain: 100 for its winner, 0 for
    /// the loser, 50 for a draw.
    pub fn win_percent(self, side: Side) -> f64 {
        let sign = if side == Side::South { 1.0 } else { -1.0 };
        match self {
            Eval::Seeds(s) => 100.0 / (1.0 + (-WIN_CURVE * s * sign).exp()),
            Eval::Mate(w) | Eval::Over(_, Some(w)) | Eval::Tables(_, Some(w)) => {
                if w == side {
                    100.0
                } else {
                    0.0
                }
            }
            Eval::Over(_, None) | Eval::Tables(_, None) => 50.0,
        }
    }
}

/// A move's accuracy from the drop of its mover's chance of winning, in percent points, by
/// lichess's curve: `103.1668 * exp(-0.04354 * drop) - 3.1669`, within 0 to 100.
pub fn move_accuracy(drop: f64) -> f64 {
    (103.1668 * (-0.04354 * drop.max(0.0)).exp() - 3.1669).clamp(0.0, 100.0)
}

/// Each side's accuracy: the mean of its judged (not opening) moves' accuracies.
pub fn accuracy(moves: &[Judged]) -> [Option<f64>; 2] {
    [Side::South, Side::North].map(|side| {
        let all: Vec<f64> = moves
            .iter()
            .filter(|j| j.side == side.letter())
            .filter_map(|j| j.accuracy)
            .collect();
        (!all.is_empty()).then(|| round(all.iter().sum::<f64>() / all.len() as f64, 10.0))
    })
}

fn round(x: f64, by: f64) -> f64 {
    (x * by).round() / by
}

/// The marks, from the least.
const MARKS: [&str; 3] = ["inaccuracy", "mistake", "blunder"];

/// The mark a move earns: by the seeds it lost (1, 2, 4 or more), but no more than by the drop
/// of its mover's chance of winning (lichess's 5, 10, 15 percent points or more), so that a
/// game already decided marks no move that leaves it decided.
fn mark(loss: f64, drop: f64) -> Option<&'static str> {
    let by_seeds = [1.0, 2.0, 4.0].iter().filter(|&&t| loss >= t).count();
    let by_chance = [5.0, 10.0, 15.0].iter().filter(|&&t| drop >= t).count();
    match by_seeds.min(by_chance) {
        0 => None,
        n => Some(MARKS[n - 1]),
    }
}

/// Judges move `mv` (ply `ply`): `before` is the position's worth before it (the engine's
/// best line's), `after` after it, `best` the engine's best move there, `opening` whether it
/// is one of the record's opening moves. An opening move is not judged; the engine's best, a
/// move that wins, and a move that keeps its mover's proven result, lose nothing; any other
/// move loses what its mover's seeds drop by, and is marked an inaccuracy, a mistake or a
/// blunder by that loss (1, 2, 4 seeds or more) and by the drop of its mover's chance of
/// winning (5, 10, 15 points or more), whichever is less; but a move that throws a proven
/// result away (to a worse proven one) is a blunder, by however few seeds.
pub fn judge(
    ply: usize,
    mv: Move,
    best: Option<char>,
    before: Eval,
    after: Eval,
    opening: bool,
) -> Judged {
    let mover = mv.side();
    let sign = if mover == Side::South { 1.0 } else { -1.0 };
    // Both results proven: whether the move kept (or bettered) its mover's.
    let kept = before
        .result(mover)
        .zip(after.result(mover))
        .map(|(was, is)| is >= was);
    let free = opening || best == Some(mv.to_char()) || after.won_by(mover) || kept == Some(true);
    let (loss, drop) = if free {
        (0.0, 0.0)
    } else {
        (
            ((before.seeds() - after.seeds()) * sign).max(0.0),
            before.win_percent(mover) - after.win_percent(mover),
        )
    };
    Judged {
        ply,
        mv: mv.to_char(),
        side: mover.letter(),
        best,
        best_to: None,
        loss: round(loss, 100.0),
        drop: round(drop.max(0.0), 10.0),
        mark: match kept {
            Some(false) if !free => Some("blunder"),
            _ => mark(loss, drop),
        },
        accuracy: (!opening).then(|| round(move_accuracy(drop), 10.0)),
        opening,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Side = Side::South;
    const N: Side = Side::North;

    /// Rows of (what, played, best, before, after, opening?) -> (loss, mark). `F` is South's,
    /// `f` North's; evaluations are South's view.
    #[test]
    fn moves_are_judged_by_what_they_lose_for_their_mover() {
        use Eval::{Mate, Over, Seeds, Tables};
        type Row = (
            &'static str,
            char,
            Option<char>,
            Eval,
            Eval,
            bool,
            f64,
            Option<&'static str>,
        );
        #[rustfmt::skip]
        let rows: [Row; 28] = [
            ("the best move", 'F', Some('F'), Seeds(3.0), Seeds(-5.0), false, 0.0, None),
            ("half a seed", 'E', Some('F'), Seeds(1.0), Seeds(0.5), false, 0.5, None),
            ("a seed", 'E', Some('F'), Seeds(1.0), Seeds(0.0), false, 1.0, Some("inaccuracy")),
            ("two seeds", 'E', Some('F'), Seeds(1.0), Seeds(-1.0), false, 2.0, Some("mistake")),
            ("seven seeds", 'D', Some('F'), Seeds(7.0), Seeds(0.0), false, 7.0, Some("blunder")),
            ("North's view", 'f', Some('e'), Seeds(-1.0), Seeds(3.0), false, 4.0, Some("blunder")),
            ("North gains", 'f', Some('e'), Seeds(1.0), Seeds(-3.0), false, 0.0, None),
            ("a move better than the best", 'E', Some('F'), Seeds(1.0), Seeds(2.0), false, 0.0, None),
            // The suite's moves: not the player's choice.
            ("an opening move", 'D', Some('F'), Seeds(7.0), Seeds(0.0), true, 0.0, None),
            // A win by 10 seeds where the engine saw a forced win: a win is a win.
            ("a winning end against a mate", 'E', Some('F'), Mate(S), Over(10.0, Some(S)), false, 0.0, None),
            ("a forced win against a mate", 'E', Some('F'), Mate(S), Mate(S), false, 0.0, None),
            ("a winning end against an estimate", 'e', Some('f'), Seeds(-20.0), Over(-2.0, Some(N)), false, 0.0, None),
            // Throwing a forced win away is a blunder.
            ("a draw from a forced win", 'E', Some('F'), Mate(S), Over(0.0, None), false, 50.0, Some("blunder")),
            ("a loss from a forced win", 'e', Some('f'), Mate(N), Mate(S), false, 100.0, Some("blunder")),
            ("a losing end from an even game", 'E', Some('F'), Seeds(0.5), Over(-2.0, Some(N)), false, 2.5, Some("mistake")),
            // Lost either way: the forced loss was not worsened.
            ("a lost end from a forced loss", 'E', Some('F'), Mate(N), Over(-4.0, Some(N)), false, 0.0, None),
            // A decided game: seeds lost count for less, as they change less.
            ("17 seeds ahead to 10", 'f', Some('b'), Seeds(-17.2), Seeds(-10.0), false, 7.2, Some("inaccuracy")),
            ("a forced win to 31 seeds ahead", 'f', Some('b'), Mate(N), Seeds(-31.1), false, 18.9, None),
            ("5 seeds behind to 8", 'B', Some('E'), Seeds(-4.9), Seeds(-8.0), false, 3.1, Some("mistake")),
            // The tables' proven results: kept whatever the margin, or thrown away.
            ("a tables win by 8 kept by 2", 'D', Some('A'), Tables(8.0, Some(S)), Tables(2.0, Some(S)), false, 0.0, None),
            ("a tables loss by 2 kept by 8", 'A', Some('B'), Tables(-2.0, Some(N)), Tables(-8.0, Some(N)), false, 0.0, None),
            ("North's tables loss kept", 'a', Some('b'), Tables(4.0, Some(S)), Tables(12.0, Some(S)), false, 0.0, None),
            ("a tables draw kept", 'C', Some('A'), Tables(0.0, None), Tables(0.0, None), false, 0.0, None),
            ("a tables win to a finished win", 'E', Some('F'), Tables(6.0, Some(S)), Over(2.0, Some(S)), false, 0.0, None),
            ("a tables win by 2 to a draw", 'B', Some('A'), Tables(2.0, Some(S)), Tables(0.0, None), false, 2.0, Some("blunder")),
            ("a tables draw to a loss by 2", 'E', Some('A'), Tables(0.0, None), Tables(-2.0, Some(N)), false, 2.0, Some("blunder")),
            ("North's tables win to a loss", 'b', Some('a'), Tables(-2.0, Some(N)), Tables(2.0, Some(S)), false, 4.0, Some("blunder")),
            // An estimate after a tables result proves nothing: judged by the seeds.
            ("a tables win to an estimate", 'D', Some('A'), Tables(8.0, Some(S)), Seeds(7.5), false, 0.5, None),
        ];
        for (what, played, best, before, after, opening, loss, mark) in rows {
            let mv = Move::from_char(played).unwrap();
            let j = judge(7, mv, best, before, after, opening);
            assert_eq!((j.loss, j.mark), (loss, mark), "{what}: {j:?}");
            assert_eq!(j.opening, opening, "{what}");
            assert_eq!(j.accuracy.is_none(), opening, "{what}");
            if loss == 0.0 && !opening {
                assert_eq!(j.accuracy, Some(100.0), "{what}: {j:?}");
            }
            if mark == Some("blunder") {
                assert!(j.accuracy.unwrap() < 50.0, "{what}: {j:?}");
            }
        }
    }

    /// The curves at points worked out by hand.
    #[test]
    fn win_chances_and_accuracy_follow_their_curves() {
        let rows = [
            (Eval::Seeds(0.0), S, 50.0),
            (Eval::Seeds(1.0), S, 55.2),
            (Eval::Seeds(1.0), N, 44.8),
            (Eval::Seeds(-3.0), N, 65.1),
            (Eval::Seeds(-10.0), S, 11.1),
            (Eval::Mate(N), N, 100.0),
            (Eval::Over(3.0, Some(S)), N, 0.0),
            (Eval::Over(0.0, None), S, 50.0),
            (Eval::Tables(2.0, Some(N)), N, 100.0),
            (Eval::Tables(0.0, None), N, 50.0),
        ];
        for (eval, side, want) in rows {
            let got = round(eval.win_percent(side), 10.0);
            assert_eq!(got, want, "{eval:?} for {side:?}");
        }
        for (drop, want) in [(0.0, 100.0), (10.0, 63.6), (30.0, 24.8), (100.0, 0.0)] {
            assert_eq!(round(move_accuracy(drop), 10.0), want, "drop {drop}");
        }
    }

    #[test]
    fn a_sides_accuracy_is_the_mean_of_its_judged_moves() {
        let f = Move::from_char('F').unwrap();
        let e = Move::from_char('e').unwrap();
        let moves = [
            judge(1, f, Some('A'), Eval::Seeds(9.0), Eval::Seeds(0.0), true),
            judge(2, e, Some('e'), Eval::Seeds(0.0), Eval::Seeds(0.0), false),
            judge(3, f, Some('F'), Eval::Seeds(0.0), Eval::Seeds(0.0), false),
            judge(4, e, Some('a'), Eval::Seeds(0.0), Eval::Seeds(4.0), false),
        ];
        let [south, north] = accuracy(&moves);
        // The opening move is left out: South's one judged move was the best.
        assert_eq!(south, Some(100.0));
        let fourth = moves[3].accuracy.unwrap();
        assert!(fourth < 50.0, "{:?}", moves[3]);
        assert_eq!(north, Some(round((100.0 + fourth) / 2.0, 10.0)));
        assert_eq!(accuracy(&moves[..1]), [None, None]);
    }
}
