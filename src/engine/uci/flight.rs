//! A search, perft or bench handed to the worker, as the two threads share it: the reader
//! stops it or ends its pondering, the worker holds a finished `infinite` or `ponder` search's
//! answer until one of those comes, and marks it answered once it is over, so that `isready`
//! stops being answered at once.

use crate::engine::search::Control;
use crate::engine::time::Limits;
use std::sync::atomic::Ordering;
use std::thread;
use std::time::Duration;

/// One search, perft or bench in flight.
pub(super) struct Flight {
    /// What the search reads: `stop`, pondering, when it was asked, and whether it answered.
    pub(super) control: Control,
}

impl Flight {
    /// A search asked for now, pondering or not.
    pub(super) fn new(pondering: bool) -> Flight {
        Flight {
            control: Control::new(pondering),
        }
    }

    /// `stop`: the search ends as soon as it can, and a held answer is released.
    pub(super) fn stop(&self) {
        self.control.stop.store(true, Ordering::Release);
    }

    /// `ponderhit`: the clock counts from now on, and a held `ponder` answer is released.
    pub(super) fn ponderhit(&self) {
        self.control.pondering.store(false, Ordering::Release);
    }

    /// Holds a finished `go infinite` until `stop`, and a finished `go ponder` until `stop` or
    /// `ponderhit`, as UCI requires.
    pub(super) fn hold(&self, limits: &Limits) {
        let control = &self.control;
        while !control.stopped() && (limits.infinite || (limits.ponder && control.pondering())) {
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// A guard that marks this flight answered when dropped: the one place that does, so that
    /// no way out of a job (its `bestmove`, a book move, perft's or bench's total) forgets it.
    pub(super) fn answering(&self) -> Answering<'_> {
        Answering(&self.control)
    }
}

/// Marks its search answered when dropped: from then on `isready` waits its turn behind the
/// work queued after the search instead of being answered at once.
pub(super) struct Answering<'a>(&'a Control);

impl Drop for Answering<'_> {
    fn drop(&mut self) {
        // A worker that panicked is gone: the search stays unanswered, so that the reader goes
        // on answering `isready` itself rather than queueing it for no one.
        if !thread::panicking() {
            self.0.answered.store(true, Ordering::Release);
        }
    }
}
