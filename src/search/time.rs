//! Search limits and time management: how long one move may take, from `go`'s arguments.
//!
//! Two budgets come out of a `go`: a *soft* one, checked between iterations (start no new
//! iteration that would likely overrun it; less when the best move has been stable), and a
//! *hard* one, checked during the search, that is never exceeded. Both keep `MoveOverhead`
//! back from the clock for the pipes and the GUI.

use super::instant::Instant;
use crate::rules::Side;
use std::time::Duration;

/// What `go` asked for. Times are milliseconds; clocks may arrive negative from a GUI whose
/// engine overstepped, and count as zero.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Iterations to search at most.
    pub depth: Option<u32>,
    /// Nodes to search at most.
    pub nodes: Option<u64>,
    /// Exactly this long (less the move overhead).
    pub movetime: Option<u64>,
    /// Remaining clock time, South (`wtime`) then North (`btime`).
    pub time: [Option<i64>; 2],
    /// Increment per move, South (`winc`) then North (`binc`).
    pub inc: [Option<i64>; 2],
    /// Moves to the next time control. `None` or 0 (which Stockfish reads so too): no control
    /// ahead, the clock must last the game.
    pub movestogo: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Search on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
}

/// Moves still to play when `movestogo` is not given: a game of oware lasts about 50 moves
/// per side, and the budget should last into the endgame.
const DEFAULT_MOVES_TO_GO: i64 = 30;

/// The budgets of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Start no new iteration beyond (a fraction of) this.
    pub soft: Option<Duration>,
    /// Never search beyond this.
    pub hard: Option<Duration>,
}

impl Limits {
    /// Whether the search is bounded, so that it ends without `stop`: a depth, node, time or
    /// clock limit (either side's clock: given only the opponent's, the side to move has none
    /// left), and neither `infinite` nor `ponder`. At the end of the input a bounded search is
    /// let finish and an unbounded one (a bare `go` too) is stopped.
    pub fn ends_by_itself(&self) -> bool {
        let limited = self.depth.is_some()
            || self.nodes.is_some()
            || self.movetime.is_some()
            || self.has_clock();
        limited && !self.infinite && !self.ponder
    }

    /// Whether time or a proven result may end the search now: never under `infinite`, and
    /// not while still pondering (`pondering`: no `ponderhit` yet).
    pub fn may_stop_early(&self, pondering: bool) -> bool {
        !self.infinite && !pondering
    }

    /// Whether a clock governs the search (so it may stop early on a settled move): either
    /// side's, since given only the opponent's the side to move has none left.
    pub fn has_clock(&self) -> bool {
        self.time.iter().any(Option::is_some)
    }

    /// The clock of `side`, to move: its own, or none left (0) when only the opponent's is
    /// given, as Stockfish reads it: the clocks are running and this side's shows nothing. A
    /// search with no budget at all there would never end by itself.
    fn clock(&self, side: Side) -> Option<i64> {
        match self.time {
            [None, None] => None,
            time => Some(time[side.index()].unwrap_or(0)),
        }
    }

    /// The budgets for `side` to move, keeping `overhead` milliseconds back.
    pub fn budget(&self, side: Side, overhead: u64) -> Budget {
        let overhead = i64::try_from(overhead).unwrap_or(i64::MAX);
        let mut soft: Option<i64> = None;
        let mut hard: Option<i64> = None;
        if let Some(t) = self.movetime {
            let t = i64::try_from(t).unwrap_or(i64::MAX);
            hard = Some(t.saturating_sub(overhead).max(1));
        }
        if let Some(clock) = self.clock(side) {
            let left = clock.saturating_sub(overhead).max(1);
            let inc = self.inc[side.index()].unwrap_or(0).max(0);
            let to_go = self
                .movestogo
                .filter(|&n| n > 0)
                .map_or(DEFAULT_MOVES_TO_GO, |n| i64::from(n.min(100)));
            // In i128, so that no clock or increment a GUI can send overflows (every result is
            // at most `left`, which fits back into i64).
            let (left, inc, to_go) = (i128::from(left), i128::from(inc), i128::from(to_go));
            // The last move before a time control may use most of what is left.
            let cap = if to_go == 1 { left * 8 / 10 } else { left / 2 };
            let target = (left / to_go + inc * 3 / 4).min(cap).max(1);
            soft = Some(target as i64);
            let limit = (target * 4).min(cap).max(1) as i64;
            hard = Some(hard.map_or(limit, |h| h.min(limit)));
        }
        let ms = |v: Option<i64>| v.map(|v| Duration::from_millis(v.max(0) as u64));
        Budget {
            soft: ms(soft),
            hard: ms(hard),
        }
    }
}

/// The clock of one search: when it started (or when pondering turned into thinking) and its
/// budget.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    start: Instant,
    budget: Budget,
}

impl Clock {
    /// A clock started at `start`.
    pub fn starting_at(budget: Budget, start: Instant) -> Clock {
        Clock { start, budget }
    }

    /// Starts over (on `ponderhit`: the move's own time begins now).
    pub fn restart(&mut self) {
        self.start = Instant::now();
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the hard budget is spent.
    pub fn hard_expired(&self) -> bool {
        self.budget.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// Whether to start another iteration, given how settled the best move is (`scale` < 1
    /// when it has not changed for a while, > 1 when it just changed).
    pub fn soft_expired(&self, scale: f64) -> bool {
        // The next iteration takes about twice as long as all before it together.
        self.budget
            .soft
            .is_some_and(|s| self.elapsed().as_secs_f64() >= s.as_secs_f64() * scale * 0.6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Option<Duration> {
        Some(Duration::from_millis(v))
    }

    #[test]
    fn which_searches_end_by_themselves() {
        let clocks = |south, north| Limits {
            time: [south, north],
            ..Limits::default()
        };
        // (limits, whether the search ends by itself, whichever side is to move)
        let rows = [
            (Limits::default(), false),
            (clocks(Some(1000), Some(1000)), true),
            // Only the opponent's clock: none left for the side to move, a move at once.
            (clocks(None, Some(5)), true),
            (clocks(Some(5), None), true),
            (
                Limits {
                    inc: [Some(8), Some(8)],
                    ..Limits::default()
                },
                false,
            ),
            (
                Limits {
                    depth: Some(3),
                    ..Limits::default()
                },
                true,
            ),
            (
                Limits {
                    nodes: Some(1),
                    ..clocks(None, Some(5))
                },
                true,
            ),
            (
                Limits {
                    movetime: Some(50),
                    infinite: true,
                    ..Limits::default()
                },
                false,
            ),
            (
                Limits {
                    ponder: true,
                    ..clocks(Some(1000), Some(1000))
                },
                false,
            ),
        ];
        for (limits, ends) in rows {
            assert_eq!(limits.ends_by_itself(), ends, "{limits:?}");
            // A clock bounds the search with either side to move.
            let clocked = limits.time.iter().any(Option::is_some);
            assert_eq!(limits.has_clock(), clocked, "{limits:?}");
        }
    }

    #[test]
    fn budgets() {
        let south = Side::South;
        // (limits, overhead, soft, hard)
        let rows = [
            (
                Limits {
                    movetime: Some(1000),
                    ..Limits::default()
                },
                10,
                None,
                ms(990),
            ),
            (
                Limits {
                    time: [Some(60_000), Some(1)],
                    ..Limits::default()
                },
                0,
                ms(2000),
                ms(8000),
            ),
            (
                Limits {
                    time: [Some(10_000), None],
                    inc: [Some(1000), None],
                    movestogo: Some(1),
                    ..Limits::default()
                },
                0,
                ms(8000),
                ms(8000),
            ),
            // A clock overdrawn by the GUI still gets a 1 ms answer, never a panic.
            (
                Limits {
                    time: [Some(-50), None],
                    ..Limits::default()
                },
                30,
                ms(1),
                ms(1),
            ),
            // Both limits apply: the smaller hard one wins.
            (
                Limits {
                    time: [Some(60_000), None],
                    movetime: Some(100),
                    ..Limits::default()
                },
                0,
                ms(2000),
                ms(100),
            ),
            (Limits::default(), 10, None, None),
            // Only North's clock, South to move: South has none left, and moves at once.
            (
                Limits {
                    time: [None, Some(60_000)],
                    inc: [Some(1000), Some(1000)],
                    ..Limits::default()
                },
                10,
                ms(1),
                ms(1),
            ),
            // The largest clock and increment `go` accepts: no overflow (it once wrapped to a
            // 1 ms search), the budget is most of the clock.
            (
                Limits {
                    time: [Some(i64::MAX), None],
                    inc: [Some(i64::MAX), None],
                    movestogo: Some(1),
                    ..Limits::default()
                },
                0,
                ms((i64::MAX as i128 * 8 / 10) as u64),
                ms((i64::MAX as i128 * 8 / 10) as u64),
            ),
            (
                Limits {
                    time: [Some(i64::MAX), None],
                    ..Limits::default()
                },
                10,
                ms(((i64::MAX - 10) / 30) as u64),
                ms(((i64::MAX - 10) / 30 * 4) as u64),
            ),
            // `movestogo 0`: no control ahead, as with none given, not the last move before one.
            (
                Limits {
                    time: [Some(60_000), None],
                    movestogo: Some(0),
                    ..Limits::default()
                },
                0,
                ms(2000),
                ms(8000),
            ),
        ];
        for (limits, overhead, soft, hard) in rows {
            let b = limits.budget(south, overhead);
            assert_eq!((b.soft, b.hard), (soft, hard), "{limits:?}");
        }
    }
}
