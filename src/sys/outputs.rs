//! The files a command reads and writes, checked against each other before anything is read
//! or written, by every command that writes (the referee's and `awari`'s alike): an output
//! that is also an input, another output, or a file of a directory the command reads or
//! writes (a `--data` directory's positions, an `--out-dir`'s records, a `--log-dir`'s logs)
//! would destroy what the command reads, or interleave two formats in one file, so it is
//! refused by its flag and name. So is an output directory that is also one of the command's
//! input directories, and an output that is a directory.
//!
//! Paths are compared resolved ([`resolve`]): `od/../od/x`, `./x`, a symbolic link (one whose
//! file does not exist yet included) and a hard link to a file are that file.

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
    /// How deep its own files lie: 1, in the directory; 2, also in its sub-directories (a
    /// tournament's matches, an evolution's generations).
    levels: usize,
}

/// The files and directories of one command, to be [`check`](Files::check)ed before it
/// starts.
#[derive(Default)]
pub struct Files {
    files: Vec<File>,
    dirs: Vec<Dir>,
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

    /// A directory whose files named as `owns` says, `levels` deep (1: in it; 2: in it or a
    /// sub-directory), the command reads.
    pub fn reads_dir(
        &mut self,
        what: impl Into<String>,
        path: &Path,
        owns: fn(&str) -> bool,
        levels: usize,
    ) {
        self.dir(what.into(), path, false, owns, levels);
    }

    /// A directory whose files named as `owns` says, `levels` deep, the command writes (and
    /// may read back, as a resumed run does).
    pub fn writes_dir(
        &mut self,
        what: impl Into<String>,
        path: &Path,
        owns: fn(&str) -> bool,
        levels: usize,
    ) {
        self.dir(what.into(), path, true, owns, levels);
    }

    fn dir(
        &mut self,
        what: String,
        path: &Path,
        writes: bool,
        owns: fn(&str) -> bool,
        levels: usize,
    ) {
        self.dirs.push(Dir {
            what,
            path: path.to_path_buf(),
            resolved: resolve(path),
            writes,
            owns,
            levels,
        });
    }

    /// Refuses, naming both, an output that is another file of the command or one of a
    /// directory's files, an output directory that is an input directory, and an output
    /// that is a directory.
    pub fn check(&self) -> Result<(), String> {
        for (i, file) in self.files.iter().enumerate() {
            if file.writes {
                crate::sys::write::writable(&file.path)
                    .map_err(|e| format!("{} {}: {e}", file.what, file.path.display()))?;
            }
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
        for out in self.dirs.iter().filter(|d| d.writes) {
            for input in self.dirs.iter().filter(|d| !d.writes) {
                if out.resolved == input.resolved {
                    return Err(format!(
                        "{} {} is the same directory as {} {}: name another directory",
                        out.what,
                        out.path.display(),
                        input.what,
                        input.path.display()
                    ));
                }
            }
        }
        Ok(())
    }
}

impl Dir {
    /// The one of the directory's own files `path` is, or will be, if any: by its resolved
    /// name in the directory (or, two levels deep, in one of its sub-directories), or as
    /// another name of one that exists.
    fn holds(&self, path: &Path) -> Option<String> {
        let resolved = resolve(path);
        let name = resolved.file_name().and_then(|n| n.to_str());
        let parent = resolved.parent();
        if name.is_some_and(self.owns)
            && (parent == Some(&self.resolved)
                || (self.levels > 1 && parent.and_then(Path::parent) == Some(&self.resolved)))
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

    /// The directory's own files that exist, `levels` deep.
    fn existing(&self) -> Vec<PathBuf> {
        let list = |dir: &Path| -> Vec<PathBuf> {
            std::fs::read_dir(dir)
                .map(|entries| entries.flatten().map(|e| e.path()).collect())
                .unwrap_or_default()
        };
        let mut found = Vec::new();
        for entry in list(&self.path) {
            let inner = if self.levels > 1 && entry.is_dir() {
                list(&entry)
            } else {
                vec![]
            };
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

#[cfg(test)]
mod tests {
    use super::*;

    fn bin(name: &str) -> bool {
        name.ends_with(".bin")
    }

    #[test]
    fn outputs_naming_inputs_are_refused() {
        let dir = std::env::temp_dir().join(format!("awari-outputs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("data/sub")).unwrap();
        std::fs::write(dir.join("d.bin"), b"positions").unwrap();
        std::fs::write(dir.join("data/a.bin"), b"positions").unwrap();
        std::fs::hard_link(dir.join("d.bin"), dir.join("hard")).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(dir.join("data/new.bin"), dir.join("dangling")).unwrap();
        let d = dir.join("d.bin");
        let data = dir.join("data");
        // (output, refused with)
        let rows: Vec<(PathBuf, Option<&str>)> = vec![
            (d.clone(), Some("is the same file as --data")),
            (
                dir.join("data/../d.bin"),
                Some("is the same file as --data"),
            ),
            (dir.join("hard"), Some("is the same file as --data")),
            (data.join("net.bin"), Some("is net.bin, a file of --data")),
            (data.join("a.bin"), Some("is a.bin, a file of --data")),
            #[cfg(unix)]
            (dir.join("dangling"), Some("is new.bin, a file of --data")),
            (data.clone(), Some("Is a directory")),
            // Not among the directory's files: one level only, and only *.bin.
            (data.join("sub/net.bin"), None),
            (data.join("net.txt"), None),
            (dir.join("net.bin"), None),
        ];
        for (out, refused) in rows {
            let mut files = Files::default();
            files.reads("--data", &d);
            files.reads_dir("--data", &data, bin, 1);
            files.writes("--out", &out);
            match (files.check(), refused) {
                (Ok(()), None) => {}
                (Err(e), Some(says)) => assert!(e.contains(says), "{out:?}: {e}"),
                (got, _) => panic!("{out:?}: {got:?}"),
            }
        }
        // An output directory that is an input directory.
        let mut files = Files::default();
        files.reads_dir("--tables", &data, bin, 1);
        files.writes_dir("--out-dir", &dir.join("data/sub/.."), bin, 1);
        let e = files.check().unwrap_err();
        assert!(e.contains("is the same directory as --tables"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
