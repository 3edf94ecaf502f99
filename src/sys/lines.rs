//! Reading lines from a pipe without trusting it: a line longer than a cap is skipped (and
//! reported with its length) instead of being held in memory. The engine (reading its GUI),
//! the referee (reading its engines) and the referee's record and opening files read this way,
//! as does `awari datagen` its openings ([`read_text`]); [`excerpt`] cuts a line a message
//! quotes.

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
    read_line_ended(input, buffer, cap).map(|(line, _)| line)
}

/// [`read_line`], and whether the line ended with its line break (a file's last line may be
/// cut short).
pub fn read_line_ended(
    input: &mut impl BufRead,
    buffer: &mut Vec<u8>,
    cap: usize,
) -> io::Result<(Line, bool)> {
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
            let line = match (any, length > cap) {
                (false, _) => Line::Eof,
                (true, true) => Line::TooLong(length),
                (true, false) => Line::Text,
            };
            return Ok((line, false));
        }
        any = true;
        let (part, used, ended) = match memchr::memchr(b'\n', chunk) {
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
            let line = if length > cap {
                Line::TooLong(length)
            } else {
                Line::Text
            };
            return Ok((line, true));
        }
    }
}

/// Bytes [`FileLines`] reads from its file at a time. A record file of many games, or a line
/// far too long that must be read through to reach the next, costs a read call per this many
/// bytes. At 8 KiB (the standard library's default), and with the line breaks looked for a
/// byte at a time, `referee report` read through a 6 GB line in 3.2 to 3.6 s; now in 0.76 s
/// (doc/figures.md).
const READ_SIZE: usize = 1 << 18;

/// A line of a file, as [`FileLines`] reads it.
pub enum FileLine<'a> {
    /// A whole line, without its line break.
    Text(&'a [u8]),
    /// The file's last line, without a line break: cut short, or being written.
    Cut(&'a [u8]),
    /// A line over the limit, skipped; its length.
    TooLong(usize),
}

/// The lines of a regular file (see [`crate::sys::files::open_regular`]: never a FIFO, a
/// device such as `/dev/zero` or a directory), each at most a cap long, so that reading a file
/// holds one line at a time, whatever the file.
pub struct FileLines {
    input: io::BufReader<std::fs::File>,
    buffer: Vec<u8>,
    cap: usize,
    number: usize,
}

impl FileLines {
    /// Opens `path` to read its lines of at most `cap` bytes.
    pub fn open(path: &std::path::Path, cap: usize) -> io::Result<FileLines> {
        Ok(FileLines {
            input: io::BufReader::with_capacity(READ_SIZE, crate::sys::files::open_regular(path)?),
            buffer: Vec::new(),
            cap,
            number: 0,
        })
    }

    /// The next line and its number (from 1), or `None` at the end of the file.
    pub fn next_line(&mut self) -> io::Result<Option<(usize, FileLine<'_>)>> {
        let (line, ended) = read_line_ended(&mut self.input, &mut self.buffer, self.cap)?;
        self.number += 1;
        Ok(match line {
            Line::Eof => None,
            Line::TooLong(n) => Some((self.number, FileLine::TooLong(n))),
            Line::Text if ended => Some((self.number, FileLine::Text(&self.buffer))),
            Line::Text => Some((self.number, FileLine::Cut(&self.buffer))),
        })
    }
}

/// The longest line of an opening suite (the referee's and `awari datagen`'s): a position and
/// its moves take a few hundred bytes.
pub const MAX_OPENING_LINE: usize = 1 << 20;

/// The text of the file `path` (a regular file: see [`FileLines`]), read a line of at most
/// `cap` bytes at a time, so that no file can make it hold more than its lines: a longer line
/// is refused by its number and length, never held, and `what` names such a line in the
/// message (`an opening line`). A line that is not UTF-8 is refused by its number.
pub fn read_text(path: &std::path::Path, cap: usize, what: &str) -> Result<String, String> {
    let mut lines = FileLines::open(path, cap).map_err(|e| e.to_string())?;
    let mut text = String::new();
    while let Some((n, line)) = lines.next_line().map_err(|e| e.to_string())? {
        let line = match line {
            FileLine::Text(line) | FileLine::Cut(line) => line,
            FileLine::TooLong(length) => {
                return Err(format!(
                    "line {n}: {length} bytes, longer than {what} may be ({cap})"
                ))
            }
        };
        let line = std::str::from_utf8(line).map_err(|e| format!("line {n}: {e}"))?;
        text.push_str(line);
        text.push('\n');
    }
    Ok(text)
}

/// `text` as a message quotes it: at most `chars` characters, control characters as `?`, and
/// `...` where it was cut, so that a line of any length makes a message of one line.
pub fn excerpt(text: &str, chars: usize) -> String {
    let mut out: String = text
        .chars()
        .take(chars)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().nth(chars).is_some() {
        out.push_str("...");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::excerpt;

    #[test]
    fn excerpts_are_cut() {
        let rows = [
            ("AaBb", 60, "AaBb"),
            ("AaBb", 2, "Aa..."),
            ("Aa\tBb", 60, "Aa?Bb"),
            ("", 5, ""),
            ("abcde", 5, "abcde"),
        ];
        for (text, chars, want) in rows {
            assert_eq!(excerpt(text, chars), want, "{text:?} {chars}");
        }
    }
}
