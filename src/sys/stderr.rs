//! Lines to the error output that never end the program: `eprintln!` panics when the write
//! fails, so a program run with `2>/dev/full`, or whose error output is a pipe its reader
//! closed, died (status 101) at its first warning, and lost its work and its normal output
//! with it. Nobody can be told that telling failed, so the failure is dropped.

use std::fmt;
use std::io::Write;

/// Writes `text` and a line break to stderr in one write, so that lines of two threads or
/// processes sharing it do not mix; a failed write (a full disk, a closed pipe, a closed
/// descriptor) is ignored.
pub fn line(text: impl fmt::Display) {
    let text = format!("{text}\n");
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}
