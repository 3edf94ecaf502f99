//! A review under way: the game's positions scored one at a time, each move judged against
//! the engine's best as its position is scored. One position is one job of the driver, so
//! that a host which runs the driver between its own events (the page's worker) answers the
//! page between two positions.

use super::info::{self, Line};
use super::publish::last_seed;
use super::review::{judge, Eval, Judged};
use super::session::Session;
use super::thinker::{Ended, Go, Thinker};
use crate::rules::{Game, Move};
use std::time::Duration;

/// What was said of the position before: its evaluation, the engine's best move there and
/// where that move's last seed falls.
type Before = (Eval, Option<char>, Option<usize>);

/// A review of one generation's game.
pub struct Run {
    /// The generation reviewed.
    pub generation: u64,
    ms: u64,
    moves: Vec<Move>,
    /// How many of the first moves are the opening (not judged).
    opening: usize,
    /// The position to score next, after `ply` moves.
    position: Game,
    ply: usize,
    before: Option<Before>,
}

/// How a position's job went.
pub enum Scored {
    /// Scored; more to come.
    More,
    /// The review is over: every position scored, or the game it reviews is gone.
    Over,
}

impl Run {
    /// A review of `game` (of `generation`, whose first `opening` moves are an opening),
    /// `ms` a position.
    pub fn new(game: &Game, generation: u64, opening: usize, ms: u64) -> Run {
        Run {
            generation,
            ms,
            moves: game.moves().to_vec(),
            opening,
            position: Game::new(*game.start()),
            ply: 0,
            before: None,
        }
    }

    /// Scores the next position with `engine`, publishing it (and the move that led to it,
    /// judged) to the page.
    pub fn next<T: Thinker>(
        &mut self,
        session: &Session,
        engine: &mut T,
    ) -> Result<Scored, String> {
        let generation = self.generation;
        let stale = || {
            let st = session.lock();
            st.closed || st.generation != generation
        };
        if stale() {
            return Ok(Scored::Over);
        }
        let position = &self.position;
        let eval: Before = match position.outcome() {
            Some(o) => (
                Eval::Over(f64::from(o.stores[0]) - f64::from(o.stores[1]), o.winner),
                None,
                None,
            ),
            None => {
                let mut last: Option<Line> = None;
                let mut lines = |line: &str| {
                    if let Some(l) = info::parse(line, position) {
                        if l.multipv == 1 {
                            last = Some(l);
                        }
                    }
                };
                let go = Go::MoveTime(Duration::from_millis(self.ms));
                let ended = engine
                    .search(position, &go, &mut lines, &stale)
                    .map_err(|f| format!("the review's engine {f}"))?;
                let Ended::Best(best) = ended else {
                    return Ok(Scored::Over);
                };
                let eval = last.map_or(Eval::Seeds(0.0), |l| Eval::of(l.score));
                let best = best.chars().next();
                (
                    eval,
                    best,
                    best.and_then(|b| last_seed(position.board(), b)),
                )
            }
        };
        let ply = self.ply;
        let mut st = session.lock();
        if st.generation != generation {
            return Ok(Scored::Over);
        }
        let Some(review) = st.review.as_mut() else {
            return Ok(Scored::Over);
        };
        review.evals.push(eval.0.seeds());
        let judged = self.before.map(|(b, best, best_to)| Judged {
            best_to,
            ..judge(
                ply,
                self.moves[ply - 1],
                best,
                b,
                eval.0,
                ply <= self.opening,
            )
        });
        if let Some(j) = &judged {
            review.add(j.clone());
        }
        review.done = ply == self.moves.len();
        let done = review.done;
        let data = serde_json::json!({
            "generation": generation, "ply": ply, "eval": eval.0.seeds(), "judged": judged,
            "accuracy": review.accuracy, "done": review.done, "total": self.moves.len(),
        });
        st.push("review", data.to_string());
        session.changed.notify_all();
        drop(st);
        self.before = Some(eval);
        match self.moves.get(ply) {
            Some(&m) if !done => {
                self.position.play(m).map_err(|e| e.to_string())?;
                self.ply += 1;
                Ok(Scored::More)
            }
            _ => Ok(Scored::Over),
        }
    }
}
