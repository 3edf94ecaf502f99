//! The files a command reads and writes, checked against each other before anything is read
//! or written, by every command that writes (the referee's and `awari`'s alike): an output
//! that is also an input, another output, or a file of a directory the command reads or
//! writes (a `--data` directory's positions, an `--out-dir`'s records, a `--log-dir`'s logs)
//! would destroy what the command reads, or interleave two formats in one file, so it is
//! refused by its flag and name. So is an output directory that is also one of the command's
//! input directories, and an output the command could not create where it will (a directory
//! named as a file, a FIFO with no reader, a folder missing or read-only): found at the start,
//! such a mistake costs nothing, where found at the end it costs the whole run.
//!
//! Paths are compared resolved ([`resolve`]): `od/../od/x`, `./x`, a symbolic link (one whose
//! file does not exist yet included) and a hard link to a file are that file.

use crate::sys::files::{resolve, same_file};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// What a command's output is, for [`writable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// A file, written at the end by [`replace_with`](crate::sys::write::replace_with) (or
    /// appended to as the work goes).
    File,
    /// A directory the command writes files into, created with its missing parents if it is
    /// not there yet (a tables directory, a shard's `--out-dir`).
    Dir,
}

/// What [`writable`] opened and must stay open until the output is written: a FIFO's write
/// end. A FIFO's reader sees the end of its data when the last writer closes, so a check that
/// opened the FIFO to find its reader and closed it again would end that reader (`cat` exits)
/// and leave the real write, hours later, to find none. Held, it keeps the reader waiting; the
/// write opens the FIFO again beside it, and the reader sees the end once both are closed.
#[must_use = "hold it until the output is written: dropping it ends a FIFO's reader"]
#[derive(Debug, Default)]
pub struct Held(Vec<fs::File>);

impl Held {
    /// Holds what `other` holds too.
    pub fn keep(&mut self, other: Held) {
        self.0.extend(other.0);
    }
}

/// Whether the command can create its output at `path` where it will, tried before its work
/// starts so that a mistake costs nothing (not a training run, not a layer of tables). A file
/// is refused if it is a directory, a block device or a socket (what
/// [`replace_with`](crate::sys::write::replace_with) refuses), a FIFO with no reader (one
/// with a reader is held for the write: [`Held`]), or in a folder that is missing, is a file,
/// or cannot take a new file (read-only, or not the user's). A directory is refused if it is
/// something else, or if it, or the nearest folder above it that exists (where the command
/// will create it), cannot take a new file.
///
/// The folder is tried, not its permission bits read: root writes past them, and neither they
/// nor `access(2)` tell everything (a full table of inodes, a network file system's own
/// rules). An empty temporary file, named as [`write`](crate::sys::write)'s are, is created
/// where the output's own will be, and removed.
///
/// A character device is not opened: `/dev/stdout` and `/dev/null` are outputs a user names
/// on purpose, opening some devices does something of its own (a tape rewinds when closed, a
/// watchdog starts), and whether one takes the bytes (`/dev/full` does not) is known only by
/// writing them. It is written in place at the end, as
/// [`replace_with`](crate::sys::write::replace_with) says.
pub fn writable(path: &Path, output: Output) -> io::Result<Held> {
    let beside = match (output, fs::metadata(path)) {
        (Output::File, Ok(meta)) if !meta.is_file() => {
            crate::sys::write::writable_kind(&meta)?;
            return fifo_reader(path, &meta);
        }
        // Where `replace_with` puts its temporary file: beside a link's file.
        (Output::File, _) => resolve(path),
        (Output::Dir, Ok(meta)) if meta.is_dir() => path.join("writable"),
        (Output::Dir, Ok(_)) => {
            return Err(io::Error::from_raw_os_error(
                nix::errno::Errno::ENOTDIR as i32,
            ))
        }
        (Output::Dir, Err(_)) => first_missing(path).to_path_buf(),
    };
    can_create(&beside)?;
    Ok(Held::default())
}

/// The first part of `path` that does not exist (`path` itself, or a folder above it): the
/// directory a command creating `path` makes first, in the folder above it.
fn first_missing(path: &Path) -> &Path {
    let mut missing = path;
    while let Some(parent) = missing.parent().filter(|p| !p.as_os_str().is_empty()) {
        if fs::symlink_metadata(parent).is_ok() {
            break;
        }
        missing = parent;
    }
    missing
}

/// Whether a new file can be created beside `target`, said with the folder if not.
fn can_create(target: &Path) -> io::Result<()> {
    crate::sys::write::try_beside(target).map_err(|e| {
        let folder = match target.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        io::Error::new(
            e.kind(),
            format!("cannot create a file in {}: {e}", folder.display()),
        )
    })
}

/// The write end of the FIFO at `path`, held, if it is one (opened without waiting: an error if
/// it has no reader); nothing for another kind of file.
#[cfg(unix)]
fn fifo_reader(path: &Path, meta: &fs::Metadata) -> io::Result<Held> {
    use std::os::unix::fs::FileTypeExt;
    if !meta.file_type().is_fifo() {
        return Ok(Held::default());
    }
    let end = crate::sys::files::open_for_writing(fs::OpenOptions::new().write(true), path)?;
    Ok(Held(vec![end]))
}

#[cfg(not(unix))]
fn fifo_reader(_: &Path, _: &fs::Metadata) -> io::Result<Held> {
    Ok(Held::default())
}

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
    /// directory's files, and an output directory that is an input directory; then, by its
    /// flag, an output the command could not create where it will ([`writable`]: a
    /// directory, a FIFO with no reader, a missing or read-only folder, ...). What it returns
    /// holds a FIFO output's reader: keep it until the outputs are written.
    pub fn check(&self) -> Result<Held, String> {
        self.clashes()?;
        let mut held = Held::default();
        let files = self.files.iter().filter(|f| f.writes);
        let files = files.map(|f| (&f.what, &f.path, Output::File));
        let dirs = self.dirs.iter().filter(|d| d.writes);
        let dirs = dirs.map(|d| (&d.what, &d.path, Output::Dir));
        for (what, path, output) in files.chain(dirs) {
            let checked =
                writable(path, output).map_err(|e| format!("{what} {}: {e}", path.display()))?;
            held.keep(checked);
        }
        Ok(held)
    }

    /// The first output that is another file or directory of the command, named with it.
    fn clashes(&self) -> Result<(), String> {
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
                (Ok(_), None) => {}
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

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[cfg(unix)]
    #[test]
    fn an_output_that_cannot_be_made_where_it_will_is_refused() {
        use nix::sys::stat::Mode;
        let dir = std::env::temp_dir().join(format!("awari-writable-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("sub")).unwrap();
        fs::write(dir.join("file"), b"kept").unwrap();
        nix::unistd::mkfifo(&dir.join("fifo"), Mode::from_bits_truncate(0o600)).unwrap();
        std::os::unix::fs::symlink("sub/later", dir.join("dangling")).unwrap();
        std::os::unix::fs::symlink("missing/later", dir.join("nowhere")).unwrap();
        let before = names(&dir);
        // (output, what it is, refused with)
        let rows: Vec<(&str, Output, Option<&str>)> = vec![
            ("new", Output::File, None),
            ("file", Output::File, None),
            ("sub/new", Output::File, None),
            ("dangling", Output::File, None),
            ("missing/new", Output::File, Some("cannot create a file in")),
            ("missing/deeper/new", Output::File, Some("No such file")),
            ("file/new", Output::File, Some("Not a directory")),
            ("nowhere", Output::File, Some("missing: No such file")),
            ("sub", Output::File, Some("Is a directory")),
            ("fifo", Output::File, Some("a FIFO with no reader")),
            ("sub", Output::Dir, None),
            ("new", Output::Dir, None),
            ("missing/deeper", Output::Dir, None),
            ("sub/new/deeper", Output::Dir, None),
            ("file", Output::Dir, Some("Not a directory")),
            ("fifo", Output::Dir, Some("Not a directory")),
            ("file/new", Output::Dir, Some("Not a directory")),
            ("file/new/deeper", Output::Dir, Some("Not a directory")),
        ];
        for (out, output, refused) in rows {
            match (writable(&dir.join(out), output), refused) {
                (Ok(_), None) => {}
                (Err(e), Some(says)) => assert!(e.to_string().contains(says), "{out}: {e}"),
                (got, _) => panic!("{out} as {output:?}: {got:?}"),
            }
            // Tried, and nothing left: no temporary file, no folder made.
            assert_eq!(names(&dir), before, "{out} as {output:?}");
            assert_eq!(names(&dir.join("sub")), Vec::<String>::new(), "{out}");
        }
        // A folder that takes no new file: permission bits stop all but root (a read-only
        // mount, which stops root too, is tried by tests/outputs_checked.rs).
        if !nix::unistd::geteuid().is_root() {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(dir.join("sub"), fs::Permissions::from_mode(0o555)).unwrap();
            for output in [Output::File, Output::Dir] {
                let e = writable(&dir.join("sub/new"), output).unwrap_err();
                assert_eq!(e.kind(), io::ErrorKind::PermissionDenied, "{e}");
            }
            fs::set_permissions(dir.join("sub"), fs::Permissions::from_mode(0o755)).unwrap();
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A FIFO's reader found by the check is held for the write: closing the write end the
    /// check opened would end it (its read would find the end of the data), and the write at
    /// the end would find no reader.
    #[cfg(unix)]
    #[test]
    fn a_fifos_reader_is_held_from_the_check_to_the_write() {
        use std::io::Read;
        use std::os::unix::fs::OpenOptionsExt;
        let dir = std::env::temp_dir().join(format!("awari-held-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
        // The reader, here, without waiting: its reads say at once whether a writer is there.
        let mut reader = fs::OpenOptions::new()
            .read(true)
            .custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits())
            .open(&fifo)
            .unwrap();
        let mut files = Files::default();
        files.writes("--out", &fifo);
        let held = files.check().unwrap();
        // No data yet, and no end: a writer is there, the one held.
        let e = reader.read(&mut [0; 16]).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::WouldBlock, "{e}");
        crate::sys::write::replace(&fifo, b"the network\n").unwrap();
        drop(held);
        // The data, then the end: no writer is left.
        let mut got = Vec::new();
        reader.read_to_end(&mut got).unwrap();
        assert_eq!(got, b"the network\n");
        fs::remove_dir_all(&dir).unwrap();
    }
}
