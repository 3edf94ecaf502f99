//! Record files: counting what a file already holds (`--resume`), appending records to one,
//! replacing one whole. They need the operating system's files: behind the `native` feature.

use super::MAX_LINE;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The games a PGN file at `path` holds, counted by their tag sections (a line that opens
/// with `[` after one that does not): 0 when it is not a regular file or cannot be read.
pub fn pgn_games(path: &Path) -> u64 {
    let mut games = 0;
    let mut in_tags = false;
    count_lines(path, |line| {
        let tag = line.first() == Some(&b'[');
        if tag && !in_tags {
            games += 1;
        }
        if tag || !line.iter().all(u8::is_ascii_whitespace) {
            in_tags = tag;
        }
    });
    games
}

/// The lines of a JSON lines file at `path` that are not blank, one a game: 0 when it is not
/// a regular file or cannot be read.
pub fn json_lines(path: &Path) -> u64 {
    let mut games = 0;
    count_lines(path, |line| {
        if !line.iter().all(u8::is_ascii_whitespace) {
            games += 1;
        }
    });
    games
}

/// Calls `each` with every line of the regular file at `path` (a line longer than a record
/// as an empty one), until the end or an error.
fn count_lines(path: &Path, mut each: impl FnMut(&[u8])) {
    let Ok(mut lines) = crate::sys::lines::FileLines::open(path, MAX_LINE) else {
        return;
    };
    while let Ok(Some((_, line))) = lines.next_line() {
        use crate::sys::lines::FileLine;
        match line {
            FileLine::Text(line) | FileLine::Cut(line) => each(line),
            FileLine::TooLong(_) => each(b"-"),
        }
    }
}

/// A file records are appended to.
pub struct Sink {
    file: File,
    path: PathBuf,
}

impl Sink {
    /// Opens `path` for appending (creating it); a FIFO with no reader is an error, not a
    /// wait ([`crate::sys::files::open_for_writing`]).
    pub fn open(path: &Path) -> io::Result<Sink> {
        crate::sys::files::open_for_writing(OpenOptions::new().create(true).append(true), path).map(
            |file| Sink {
                file,
                path: path.to_path_buf(),
            },
        )
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `text` and flushes it to the disk. An error is the match's end: a record cut
    /// short must not be followed by another on the same line.
    pub fn write(&mut self, text: &str) -> io::Result<()> {
        self.file.write_all(text.as_bytes())?;
        self.file.flush()?;
        match self.file.sync_data() {
            // Character devices and pipes (/dev/null, /dev/stdout) cannot be synced.
            Err(e) if e.raw_os_error() == Some(nix::errno::Errno::EINVAL as i32) => Ok(()),
            other => other,
        }
    }
}

/// Replaces the file at `path` with `text` whole ([`crate::sys::write::replace`]): a kill at
/// any moment leaves the old file or the new one; a path that is not a regular file (a
/// device, `/dev/stdout`) is written in place. The error does not name the path: the callers
/// name it with the flag that gave it.
pub fn replace(path: &Path, text: &str) -> io::Result<()> {
    crate::sys::write::replace(path, text.as_bytes()).map_err(|e| e.error)
}
