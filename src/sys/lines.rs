//! Reading lines from a pipe without trusting it: a line longer than a cap is skipped (and
//! reported with its length) instead of being held in memory. Both the engine (reading its
//! GUI) and the referee (reading its engines) read this way.

use std::io::{self, BufRead};

/// What [`read_line`] read.
pub enum Line {
    /// The input ended.
    Eof,
    /// A line, now in the buffer.
    Text,
    /// A line over the limit, skipped; its length.
    TooLong(usize),
}

/// Reads one line into `buffer` (without the line break), skipping lines over `cap` bytes
/// without holding them.
pub fn read_line(input: &mut impl BufRead, buffer: &mut Vec<u8>, cap: usize) -> io::Result<Line> {
    buffer.clear();
    let mut length = 0usize;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(match (any, length > cap) {
                (false, _) => Line::Eof,
                (true, true) => Line::TooLong(length),
                (true, false) => Line::Text,
            });
        }
        any = true;
        let (part, used, ended) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        length += part.len();
        if length <= cap {
            buffer.extend_from_slice(part);
        } else {
            buffer.clear();
        }
        input.consume(used);
        if ended {
            return Ok(if length > cap {
                Line::TooLong(length)
            } else {
                Line::Text
            });
        }
    }
}
