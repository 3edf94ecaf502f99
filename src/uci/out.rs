//! The output the reader and the worker share: one locked, flushed write per line, so that
//! lines from the two threads never interleave and a GUI sees each at once; a write error (the
//! GUI closed the pipe) is remembered, and ends the loop. No line goes out with a control
//! character in it: what the engine echoes of its input (an unknown word, a file name) could
//! hold a NUL, a line break or a terminal's escape sequence.

use std::borrow::Cow;
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

    /// Writes `lines` under one lock, so that nothing comes between them, each with its
    /// control characters shown escaped.
    pub(super) fn lines<S: AsRef<str>>(&self, lines: &[S]) {
        let mut w = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let ok = lines
            .iter()
            .try_for_each(|l| writeln!(w, "{}", visible(l.as_ref())));
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

/// `line` with each control character (C0, DEL, C1) written as its Rust escape (`\u{0}`,
/// `\u{1b}`, `\t`), so that it shows, and a client's terminal or parser never acts on it.
fn visible(line: &str) -> Cow<'_, str> {
    if !line.chars().any(char::is_control) {
        return Cow::Borrowed(line);
    }
    let mut shown = String::with_capacity(line.len() + 8);
    for c in line.chars() {
        if c.is_control() {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    Cow::Owned(shown)
}

#[cfg(test)]
mod tests {
    use super::visible;

    #[test]
    fn control_characters_are_escaped_and_nothing_else() {
        assert_eq!(visible("bestmove F"), "bestmove F");
        assert_eq!(visible("é ♟ \\ x"), "é ♟ \\ x");
        assert_eq!(
            visible("a\u{0}b\u{1b}[2J\t\r\n\u{7f}\u{9b}"),
            "a\\u{0}b\\u{1b}[2J\\t\\r\\n\\u{7f}\\u{9b}"
        );
    }
}
