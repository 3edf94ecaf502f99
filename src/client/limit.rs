//! What a search is limited by, as the referee, the page and their command lines give it, and
//! the `go` line that asks an engine for it.

use std::time::Duration;

/// How long each move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// A clock per side: `moves` per period (None: the whole game), `base` per period,
    /// `inc` per move.
    Clock {
        /// Moves per period, if the clock is refilled.
        moves: Option<u32>,
        /// Time per period.
        base: Duration,
        /// Increment per move.
        inc: Duration,
    },
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed depth per move (time is not limited beyond the stall timeout).
    Depth(u32),
    /// A fixed node count per move.
    Nodes(u64),
}

impl Limit {
    /// The PGN TimeControl tag: `40/60+0.5`, `60+0`, `movetime=100`, `depth=5`, `nodes=1000`.
    pub fn tag(&self) -> String {
        let secs = |d: Duration| {
            let s = d.as_secs_f64();
            if s.fract() == 0.0 {
                format!("{}", s as u64)
            } else {
                format!("{s}")
            }
        };
        match *self {
            Limit::Clock { moves, base, inc } => match moves {
                Some(m) => format!("{m}/{}+{}", secs(base), secs(inc)),
                None => format!("{}+{}", secs(base), secs(inc)),
            },
            Limit::MoveTime(d) => format!("movetime={}", d.as_millis()),
            Limit::Depth(d) => format!("depth={d}"),
            Limit::Nodes(n) => format!("nodes={n}"),
        }
    }

    /// The time a move may take when nobody keeps clocks: a fixed time per move, or a
    /// clock's period over its move count (40 when the period is the whole game) plus the
    /// increment. `None` for a depth or a node count, which time does not bound.
    pub fn move_time(&self) -> Option<Duration> {
        match *self {
            Limit::MoveTime(d) => Some(d),
            Limit::Clock { moves, base, inc } => Some(base / moves.unwrap_or(40).max(1) + inc),
            Limit::Depth(_) | Limit::Nodes(_) => None,
        }
    }

    /// The `go` line for this limit. A clock is sent as both clocks when someone keeps them
    /// (`clocks`), and otherwise as a time per move ([`Limit::move_time`], at least 1 ms).
    pub fn go(&self, clocks: Option<&Clocks>) -> String {
        match *self {
            Limit::Clock { .. } => match clocks {
                Some(c) => {
                    let mut go = format!(
                        "go wtime {} btime {} winc {} binc {}",
                        c.left_ms[0], c.left_ms[1], c.inc_ms[0], c.inc_ms[1]
                    );
                    if let Some(m) = c.moves_to_go {
                        go += &format!(" movestogo {m}");
                    }
                    go
                }
                None => {
                    let d = self.move_time().unwrap_or_default();
                    format!("go movetime {}", d.as_millis().max(1))
                }
            },
            Limit::MoveTime(d) => format!("go movetime {}", d.as_millis()),
            Limit::Depth(n) => format!("go depth {n}"),
            Limit::Nodes(n) => format!("go nodes {n}"),
        }
    }
}

/// Both sides' clocks as a `go` line gives them, kept by whoever runs the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// The time left to South and to North, in milliseconds (below zero once overdrawn).
    pub left_ms: [i64; 2],
    /// Their increments per move, in milliseconds.
    pub inc_ms: [u128; 2],
    /// Moves until the side to move's clock is refilled, if it is.
    pub moves_to_go: Option<u32>,
}
