//! The files a command reads and writes, checked against each other before anything is
//! written: an output that is also an input, another output, or a file of a directory the
//! command reads or writes (an `--out-dir`'s records, a `--log-dir`'s logs) would destroy
//! records or interleave two formats in one file, so it is refused by its flag and name.
//! Paths are compared resolved ([`crate::sys::files::resolve`]): `od/../od/x`, a symbolic
//! link and a hard link to a file are that file.

use crate::sys::files::{resolve, same_file};
use std::path::{Path, PathBuf};

/// A file named on the command line.
struct File {
    /// The flag (or argument) that names it.
    what: String,
    path: PathBuf,
    writes: bool,
}

/// A directory whose files the command reads or writes.
struct Dir {
    what: String,
    path: PathBuf,
    resolved: PathBuf,
    writes: bool,
    /// Whether a file name is one of the directory's own (existing yet or not).
    owns: fn(&str) -> bool,
}

/// The files and directories of one command.
#[derive(Default)]
pub(super) struct Files {
    files: Vec<File>,
    dirs: Vec<Dir>,
}

/// A `--log-dir`'s file: `game-<round>-<side>-<name>.log` or `.stderr`.
fn is_log(name: &str) -> bool {
    name.starts_with("game-") && (name.ends_with(".log") || name.ends_with(".stderr"))
}

/// An evolution's `--out-dir` file: its settings or a shard's results of a generation.
fn is_evolve_part(name: &str) -> bool {
    name == "evolve.json" || (name.starts_with("shard-") && name.ends_with(".json"))
}

impl Files {
    /// A file the command reads.
    pub fn reads(&mut self, what: impl Into<String>, path: &Path) {
        self.add(what.into(), path, false);
    }

    /// A file the command writes.
    pub fn writes(&mut self, what: impl Into<String>, path: &Path) {
        self.add(what.into(), path, true);
    }

    fn add(&mut self, what: String, path: &Path, writes: bool) {
        self.files.push(File {
            what,
            path: path.to_path_buf(),
            writes,
        });
    }

    /// A match's or tournament's `--out-dir` (read only by `report`).
    pub fn out_dir(&mut self, what: impl Into<String>, path: &Path, writes: bool) {
        self.dir(what.into(), path, writes, crate::referee::outdir::is_own);
    }

    /// An evolution's `--out-dir` (`evolve.json`, `generation-N/shard-K-of-N.json`).
    pub fn evolve_dir(&mut self, path: &Path) {
        self.dir("--out-dir".to_string(), path, true, is_evolve_part);
    }

    /// A `--log-dir`.
    pub fn log_dir(&mut self, path: &Path) {
        self.dir("--log-dir".to_string(), path, true, is_log);
    }

    fn dir(&mut self, what: String, path: &Path, writes: bool, owns: fn(&str) -> bool) {
        self.dirs.push(Dir {
            what,
            path: path.to_path_buf(),
            resolved: resolve(path),
            writes,
            owns,
        });
    }

    /// Refuses, naming both, an output that is another file of the command or one of a
    /// directory's files.
    pub fn check(&self) -> Result<(), String> {
        for (i, file) in self.files.iter().enumerate() {
            for other in &self.files[i + 1..] {
                if (file.writes || other.writes) && same_file(&file.path, &other.path) {
                    let (w, o) = if file.writes {
                        (file, other)
                    } else {
                        (other, file)
                    };
                    return Err(format!(
                        "{} {} is the same file as {} {}: name another file",
                        w.what,
                        w.path.display(),
                        o.what,
                        o.path.display()
                    ));
                }
            }
            for dir in &self.dirs {
                let held = (file.writes || dir.writes)
                    .then(|| dir.holds(&file.path))
                    .flatten();
                if let Some(own) = held {
                    return Err(format!(
                        "{} {} is {own}, a file of {} {}: name another file",
                        file.what,
                        file.path.display(),
                        dir.what,
                        dir.path.display()
                    ));
                }
            }
        }
        Ok(())
    }
}

impl Dir {
    /// The one of the directory's own files `path` is, or will be, if any: by its resolved
    /// name in the directory or in one of its sub-directories (a tournament's matches), or as
    /// another name of one that exists.
    fn holds(&self, path: &Path) -> Option<String> {
        let resolved = resolve(path);
        let name = resolved.file_name().and_then(|n| n.to_str());
        let parent = resolved.parent();
        if name.is_some_and(self.owns)
            && (parent == Some(&self.resolved)
                || parent.and_then(Path::parent) == Some(&self.resolved))
        {
            let inner = resolved.strip_prefix(&self.resolved).unwrap_or(&resolved);
            return Some(inner.display().to_string());
        }
        self.existing().into_iter().find_map(|f| {
            let inner = f
                .strip_prefix(&self.path)
                .unwrap_or(&f)
                .display()
                .to_string();
            same_file(&f, path).then_some(inner)
        })
    }

    /// The directory's own files that exist, two levels deep.
    fn existing(&self) -> Vec<PathBuf> {
        let list = |dir: &Path| -> Vec<PathBuf> {
            std::fs::read_dir(dir)
                .map(|entries| entries.flatten().map(|e| e.path()).collect())
                .unwrap_or_default()
        };
        let mut found = Vec::new();
        for entry in list(&self.path) {
            let inner = if entry.is_dir() { list(&entry) } else { vec![] };
            for p in std::iter::once(entry).chain(inner) {
                if p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(self.owns)
                {
                    found.push(p);
                }
            }
        }
        found
    }
}
