//! The pace of a game between two engines, so that a person can watch it: a delay before each
//! engine move, a pause, and a step (one move while paused). An engine answers in
//! milliseconds, so without a pace a whole game is over before the page has drawn its first
//! sowing. A game with a person in it is not paced: the person is the pace.

use crate::search::instant::Instant;
use serde::Serialize;
use std::time::Duration;

/// The longest delay a page may ask for.
pub const MAX_DELAY_MS: u64 = 60_000;

/// A session's pace, as the page set it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pace {
    /// The delay before each engine move, counted from the last change of the game.
    pub delay_ms: u64,
    /// No engine moves but by a step.
    pub paused: bool,
    /// Moves asked for by a step and not yet started.
    pub steps: u32,
    /// Paused with no step left: the engines are held (what the page shows is where the game
    /// stands).
    pub held: bool,
}

/// What the engine to move may do now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gate {
    /// Move.
    Go,
    /// Wait this long, then ask again.
    Wait(Duration),
    /// Wait for the page (an end of the pause, or a step).
    Hold,
}

impl Pace {
    /// A pace of `delay_ms` between moves, running.
    pub fn new(delay_ms: u64) -> Pace {
        Pace {
            delay_ms: delay_ms.min(MAX_DELAY_MS),
            ..Pace::default()
        }
    }

    /// Whether an engine may start its move `now`, the game having last changed at `since`;
    /// `watching` when engines sit on both sides. A move let through while paused uses up a
    /// step.
    pub fn take(&mut self, watching: bool, since: Instant, now: Instant) -> Gate {
        let gate = if !watching {
            Gate::Go
        } else if self.paused {
            if self.steps > 0 {
                self.steps -= 1;
                Gate::Go
            } else {
                Gate::Hold
            }
        } else {
            let left =
                Duration::from_millis(self.delay_ms).saturating_sub(now.duration_since(since));
            match left.is_zero() {
                true => Gate::Go,
                false => Gate::Wait(left),
            }
        };
        self.held = gate == Gate::Hold;
        gate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gate_follows_the_delay_the_pause_and_the_steps() {
        let t = Instant::now();
        let ms = Duration::from_millis;
        // (pace, watching, since the change, gate, steps left, held)
        let cases = [
            (Pace::new(1000), true, 0, Gate::Wait(ms(1000)), 0, false),
            (Pace::new(1000), true, 400, Gate::Wait(ms(600)), 0, false),
            (Pace::new(1000), true, 1000, Gate::Go, 0, false),
            (Pace::new(1000), true, 5000, Gate::Go, 0, false),
            (Pace::new(0), true, 0, Gate::Go, 0, false),
            (Pace::new(1000), false, 0, Gate::Go, 0, false),
            (
                Pace {
                    paused: true,
                    ..Pace::new(0)
                },
                true,
                9000,
                Gate::Hold,
                0,
                true,
            ),
            (
                Pace {
                    paused: true,
                    steps: 2,
                    ..Pace::new(5000)
                },
                true,
                0,
                Gate::Go,
                1,
                false,
            ),
            (
                Pace {
                    paused: true,
                    ..Pace::new(0)
                },
                false,
                0,
                Gate::Go,
                0,
                false,
            ),
            (
                Pace::new(u64::MAX),
                true,
                0,
                Gate::Wait(ms(MAX_DELAY_MS)),
                0,
                false,
            ),
        ];
        for (i, (mut pace, watching, after, gate, steps, held)) in cases.into_iter().enumerate() {
            let got = pace.take(watching, t, t + ms(after));
            assert_eq!(
                (got, pace.steps, pace.held),
                (gate, steps, held),
                "case {i}"
            );
        }
    }
}
