//! A search, perft or bench handed to the worker, as the two threads share it: the reader
//! stops it or ends its pondering, the worker holds a finished `infinite` or `ponder` search's
//! answer until one of those comes, and marks it answered once it is over, so that `isready`
//! stops being answered at once.
//!
//! An `isready` read during a flight is answered at once only once the worker has begun it:
//! before that, the worker is still writing the answers of the commands sent before the `go`,
//! which `readyok` must not overtake. Until then the flight keeps the answer, and the worker
//! writes it as it begins.
//!
//! The search itself sees only the [`Control`] inside; the wake-up for a held answer lives here
//! beside it, because only the protocol holds answers back.

use super::out::Out;
use crate::search::time::Limits;
use crate::search::Control;
use std::sync::atomic::Ordering;
use std::sync::{Condvar, Mutex, PoisonError};
use std::thread;

/// One search, perft or bench in flight.
pub(super) struct Flight {
    /// What the search reads: `stop`, pondering, when it was asked, and whether it answered.
    pub(super) control: Control,
    /// Guards nothing but the gap between the worker's look at the flags and its sleep, so
    /// that a `stop` arriving in that gap still wakes it.
    lock: Mutex<()>,
    /// Signalled on `stop` and `ponderhit`.
    changed: Condvar,
    /// Whether the worker has begun the flight, and the lines owed until it does.
    begun: Mutex<Begun>,
}

/// Whether a flight has begun, and the answers to `isready` read before it did.
#[derive(Default)]
struct Begun {
    yes: bool,
    owed: Vec<String>,
}

impl Flight {
    /// A search asked for now, pondering or not.
    pub(super) fn new(pondering: bool) -> Flight {
        Flight {
            control: Control::new(pondering),
            lock: Mutex::new(()),
            changed: Condvar::new(),
            begun: Mutex::new(Begun::default()),
        }
    }

    /// The answer to an `isready` read while this flight is unanswered (`readyok`, with any
    /// line that goes before it): written at once if the worker has begun the flight, as UCI
    /// asks during a search; else kept, and written as it begins, after the answers of the
    /// commands sent before the `go`.
    pub(super) fn ready(&self, out: &Out, lines: Vec<String>) {
        let mut begun = self.begun.lock().unwrap_or_else(PoisonError::into_inner);
        if begun.yes {
            out.lines(&lines);
        } else {
            begun.owed.extend(lines);
        }
    }

    /// The flight begins (the worker takes it up, or it will never run because the worker is
    /// gone): the answers kept are written, and from now on [`Flight::ready`] writes at once.
    pub(super) fn begin(&self, out: &Out) {
        let mut begun = self.begun.lock().unwrap_or_else(PoisonError::into_inner);
        begun.yes = true;
        out.lines(&std::mem::take(&mut begun.owed));
    }

    /// `stop`: the search ends as soon as it can, and a held answer is released.
    pub(super) fn stop(&self) {
        self.control.stop.store(true, Ordering::Release);
        self.wake();
    }

    /// `ponderhit`: the clock counts from now on, and a held `ponder` answer is released.
    pub(super) fn ponderhit(&self) {
        self.control.pondering.store(false, Ordering::Release);
        self.wake();
    }

    fn wake(&self) {
        // Taken after the flag is set: a worker between its look at the flags and its sleep
        // holds the lock, so this waits until it sleeps, and the signal reaches it.
        let _gap = self.lock.lock().unwrap_or_else(PoisonError::into_inner);
        self.changed.notify_all();
    }

    /// Holds a finished `go infinite` until `stop`, and a finished `go ponder` until `stop` or
    /// `ponderhit`, as UCI requires: asleep, woken by [`Flight::stop`] or
    /// [`Flight::ponderhit`].
    pub(super) fn hold(&self, limits: &Limits) {
        let control = &self.control;
        let held =
            || !control.stopped() && (limits.infinite || (limits.ponder && control.pondering()));
        let mut gap = self.lock.lock().unwrap_or_else(PoisonError::into_inner);
        while held() {
            gap = self
                .changed
                .wait(gap)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// A guard that marks this flight answered when dropped, so that no way out of a job (its
    /// `bestmove`, a book move, perft's or bench's total) forgets it.
    pub(super) fn answering(&self) -> Answering<'_> {
        Answering(&self.control)
    }

    /// Writes a search's answer, its `bestmove` line, to `out`, the flight marked answered
    /// first. A GUI may send `ucinewgame` and `isready` the moment it reads the line; marked
    /// only afterwards (by the guard, when the job returns), the reader could still find the
    /// search unanswered and send `readyok` at once, ahead of the table's clearing that
    /// `ucinewgame` queued, whose time the next search's clock then paid (seen in a debug
    /// build under load: 1.5 s for `go movetime 100` after `ucinewgame` with 1 GiB).
    pub(super) fn answer(&self, out: &Out, line: &str) {
        self.control.answered.store(true, Ordering::Release);
        out.line(line);
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::time::Duration;

    /// Holds `flight` on a thread of its own under `limits`; the receiver hears when it lets go.
    fn held(flight: &Arc<Flight>, limits: Limits) -> crossbeam_channel::Receiver<()> {
        let (done, heard) = crossbeam_channel::bounded(1);
        let flight = flight.clone();
        thread::spawn(move || {
            flight.hold(&limits);
            let _ = done.send(());
        });
        heard
    }

    const NOT_YET: Duration = Duration::from_millis(50);
    const AT_ONCE: Duration = Duration::from_secs(10);

    #[test]
    fn infinite_is_held_until_stop_and_ponderhit_does_not_release_it() {
        let flight = Arc::new(Flight::new(false));
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        let released = held(&flight, infinite);
        assert!(released.recv_timeout(NOT_YET).is_err());
        flight.ponderhit();
        assert!(released.recv_timeout(NOT_YET).is_err());
        flight.stop();
        assert!(released.recv_timeout(AT_ONCE).is_ok());
    }

    #[test]
    fn ponder_is_held_until_ponderhit_or_stop() {
        let ponder = Limits {
            ponder: true,
            ..Limits::default()
        };
        for release in [Flight::ponderhit, Flight::stop] {
            let flight = Arc::new(Flight::new(true));
            let released = held(&flight, ponder.clone());
            assert!(released.recv_timeout(NOT_YET).is_err());
            release(&flight);
            assert!(released.recv_timeout(AT_ONCE).is_ok());
        }
    }

    #[test]
    fn a_search_that_ends_by_itself_is_not_held() {
        // Whether a flight asked pondering or not lets go under `limits` in time, after
        // `before`.
        let lets_go = |pondering: bool, before: fn(&Flight), limits: Limits| {
            let flight = Arc::new(Flight::new(pondering));
            before(&flight);
            held(&flight, limits).recv_timeout(AT_ONCE).is_ok()
        };
        // Neither `infinite` nor `ponder`: its answer goes out at once.
        assert!(lets_go(false, |_| {}, Limits::default()));
        // A plain search whose flight says pondering: only `go ponder` waits for it.
        assert!(lets_go(true, |_| {}, Limits::default()));
        // `ponderhit` before the hold begins: no wake-up to miss.
        let ponder = Limits {
            ponder: true,
            ..Limits::default()
        };
        assert!(lets_go(true, Flight::ponderhit, ponder));
    }

    /// An output whose lines the test reads back.
    #[derive(Clone, Default)]
    struct Written(Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for Written {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Written {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    #[test]
    fn readyok_waits_for_the_flight_to_begin_then_comes_at_once() {
        let written = Written::default();
        let out = Out::new(written.clone());
        let flight = Flight::new(false);
        // Read while the worker still writes what was owed before the `go`: kept.
        flight.ready(
            &out,
            vec![
                "info string skipped unknown words: x".into(),
                "readyok".into(),
            ],
        );
        out.line("info string error: owed before the go");
        assert_eq!(written.text(), "info string error: owed before the go\n");
        // The worker begins the search: the kept answer goes out first, in its order.
        flight.begin(&out);
        out.line("info depth 1");
        flight.ready(&out, vec!["readyok".into()]);
        assert_eq!(
            written.text(),
            "info string error: owed before the go\n\
             info string skipped unknown words: x\nreadyok\n\
             info depth 1\nreadyok\n"
        );
    }

    #[test]
    fn the_guard_marks_the_search_answered_when_dropped() {
        let flight = Flight::new(false);
        let answered = flight.answering();
        assert!(!flight.control.has_answered());
        drop(answered);
        assert!(flight.control.has_answered());
    }

    #[test]
    fn a_worker_that_panics_leaves_the_search_unanswered() {
        let flight = Arc::new(Flight::new(false));
        let worker = flight.clone();
        let died = thread::spawn(move || {
            let _answered = worker.answering();
            panic!("the worker dies");
        })
        .join();
        assert!(died.is_err());
        assert!(!flight.control.has_answered());
    }
}
