//! The output the reader and the worker share: one locked, flushed write per line, so that
//! lines from the two threads never interleave and a GUI sees each at once; a write error (the
//! GUI closed the pipe) is remembered, and ends the loop.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The output, shared by the reader and the worker: one locked, flushed write per line.
#[derive(Clone)]
pub(super) struct Out {
    writer: Arc<Mutex<Box<dyn Write + Send>>>,
    broken: Arc<AtomicBool>,
}

impl Out {
    pub(super) fn new(w: impl Write + Send + 'static) -> Out {
        Out {
            writer: Arc::new(Mutex::new(Box::new(w))),
            broken: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Writes one line.
    pub(super) fn line(&self, text: &str) {
        self.lines(std::slice::from_ref(&text))
    }

    /// Writes `lines` under one lock, so that nothing comes between them.
    pub(super) fn lines<S: AsRef<str>>(&self, lines: &[S]) {
        let mut w = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let ok = lines.iter().try_for_each(|l| writeln!(w, "{}", l.as_ref()));
        if ok.and_then(|()| w.flush()).is_err() {
            self.broken.store(true, Ordering::Release);
        }
    }

    /// `info string error: ...`: a line refused, or something asked for that cannot be had.
    pub(super) fn error(&self, message: impl std::fmt::Display) {
        self.line(&format!("info string error: {message}"));
    }

    /// Whether a write failed: nobody is reading any more.
    pub(super) fn is_broken(&self) -> bool {
        self.broken.load(Ordering::Acquire)
    }
}
