//! The clock the search times itself by. With the `native` feature it is the system's
//! monotonic clock, [`std::time::Instant`] itself. Without it (WebAssembly, where
//! `std::time::Instant::now` panics) it is the embedder's: a function it sets once
//! (`set_clock`) that reads milliseconds from any fixed start (a page gives
//! `performance.now()`). Until one is set no time passes, and only depth and node limits end a
//! search.

#[cfg(feature = "native")]
pub use std::time::Instant;

#[cfg(not(feature = "native"))]
pub use self::embedded::{set_clock, Instant};

#[cfg(not(feature = "native"))]
mod embedded {
    use std::sync::OnceLock;
    use std::time::Duration;

    /// The embedder's clock, in milliseconds.
    static CLOCK: OnceLock<fn() -> f64> = OnceLock::new();

    /// Sets the clock every [`Instant::now`] reads from then on: `now` returns milliseconds
    /// since any fixed start, never decreasing. Only the first call counts; returns whether
    /// it was this one.
    pub fn set_clock(now: fn() -> f64) -> bool {
        CLOCK.set(now).is_ok()
    }

    /// A moment on the embedder's clock: the part of [`std::time::Instant`]'s interface the
    /// search uses.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant {
        /// Milliseconds on the embedder's clock.
        ms: f64,
    }

    impl Instant {
        /// Now (the start of time where no clock is set).
        pub fn now() -> Instant {
            Instant {
                ms: CLOCK.get().map_or(0.0, |now| now()),
            }
        }

        /// The time since `earlier`, zero if `earlier` is later.
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            let ms = self.ms - earlier.ms;
            if ms.is_finite() && ms > 0.0 {
                Duration::from_secs_f64(ms / 1e3)
            } else {
                Duration::ZERO
            }
        }

        /// The time since this moment.
        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }
    }
}
