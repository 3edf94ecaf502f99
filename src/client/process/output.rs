//! Reading what an engine writes: its output line by line within [`OutputLimits`] (a line's
//! length, lines in a second), and its stderr copied to the current game's file.

use super::Failure;
use crate::sys::lines::{read_line, Line};
use crossbeam_channel::Sender;
use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Limits on what an engine may send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutputLimits {
    /// Longest line, in bytes.
    pub max_line: usize,
    /// Most lines in any one second.
    pub max_lines_per_second: u32,
}

impl Default for OutputLimits {
    fn default() -> OutputLimits {
        OutputLimits {
            max_line: 64 << 10,
            max_lines_per_second: 20_000,
        }
    }
}

/// What the reader thread passes on: a line, or the failure that ends its reading.
pub(super) enum Event {
    Line(String),
    Failed(Failure),
}

/// The reader thread: lines to `tx`, failures (too long, too many, end) as the last event.
///
/// A flood is more than `max_lines_per_second` lines within a second in answer to one
/// request: the window starts again at each line the referee writes (`requests` counts them),
/// so an engine that answers thousands of shallow searches a second, a few lines each, is not
/// taken for one; an engine that writes on and on without being asked is.
pub(super) fn read_output(
    stdout: impl Read,
    limits: OutputLimits,
    requests: &AtomicU64,
    tx: Sender<Event>,
) {
    let mut reader = BufReader::new(stdout);
    let mut buffer = Vec::new();
    let mut window = Instant::now();
    let mut in_window = 0u32;
    let mut request = requests.load(Ordering::Acquire);
    loop {
        let event = match read_line(&mut reader, &mut buffer, limits.max_line) {
            Ok(Line::Text) => {
                let now = requests.load(Ordering::Acquire);
                if now != request || window.elapsed() >= Duration::from_secs(1) {
                    request = now;
                    window = Instant::now();
                    in_window = 0;
                }
                in_window += 1;
                if in_window > limits.max_lines_per_second {
                    Event::Failed(Failure::Flood(in_window))
                } else {
                    let text = String::from_utf8_lossy(&buffer);
                    Event::Line(text.trim_end_matches('\r').to_string())
                }
            }
            Ok(Line::TooLong(n)) => Event::Failed(Failure::LineTooLong(n)),
            Ok(Line::Eof) | Err(_) => Event::Failed(Failure::Exited(None)),
        };
        let last = matches!(event, Event::Failed(_));
        if tx.send(event).is_err() || last {
            break;
        }
    }
}

/// The stderr thread: copies the engine's stderr to the current game's file.
pub(super) fn relay_stderr(mut pipe: impl Read, target: &Mutex<Option<File>>) {
    let mut buffer = [0u8; 8192];
    loop {
        match pipe.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => {
                if let Some(file) = &mut *target.lock().unwrap_or_else(|e| e.into_inner()) {
                    let _ = file.write_all(&buffer[..n]);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
}
