//! Writing a file whole, so that a reader (another shard, the next run, a program reading it
//! after a crash) finds the old file, the new one, or none, never a part: the data go to a
//! temporary file beside the target, are synced, and the temporary file is renamed over the
//! target ([`replace`], [`replace_with`]) or linked to its name only if that name is free
//! ([`create_new`]); then the directory is synced, so that the new name survives a crash too.
//!
//! A target that is not a regular file is never renamed over: a character device (`/dev/null`,
//! `/dev/full`), a FIFO or `/dev/stdout` is written in place, opened without truncating and
//! without waiting for a FIFO's reader (a FIFO with none is an error, not a hang); a
//! directory, a block device or a socket is an error. A symbolic link is followed: the file it
//! names is replaced, and the link stays.
//!
//! The temporary file is `.NAME.tmp-PID-N` (see [`temporary_of`]): created exclusively, with
//! `N` counted per process, so two writes in flight never share one, whether they are two
//! threads of one process, two runs, or two nodes whose processes have the same id. A write
//! that fails, at any step, removes it.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A write that failed: the file it was for, and why. The target is as it was.
#[derive(Debug)]
pub struct Error {
    /// The file that was to be written.
    pub path: PathBuf,
    /// What failed.
    pub error: io::Error,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.error)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

impl From<Error> for io::Error {
    /// The same kind, with the path in the message.
    fn from(e: Error) -> io::Error {
        io::Error::new(e.error.kind(), e.to_string())
    }
}

/// Replaces the file at `path` with `bytes`, whole.
pub fn replace(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    replace_with(path, |f| f.write_all(bytes))
}

/// Replaces the file at `path` with what `write` writes into the (empty) temporary file,
/// whole: if `write` fails, the target is left as it was. A target that exists and is not a
/// regular file is written in place instead (see the module's documentation).
pub fn replace_with(
    path: &Path,
    write: impl FnOnce(&mut File) -> io::Result<()>,
) -> Result<(), Error> {
    let at = |error| Error {
        path: path.to_path_buf(),
        error,
    };
    // Through symbolic links: the kind of the file written, not of a link to it.
    if let Ok(meta) = std::fs::metadata(path) {
        if !meta.is_file() {
            return in_place(path, &meta, write).map_err(at);
        }
    }
    // A link's file is replaced beside itself; the link is left as it is.
    let target = crate::sys::files::resolve(path);
    rename_into(&target, write).map_err(at)
}

/// Replaces the name `path` itself, whatever it names but a directory (a FIFO, a device, a
/// symbolic link: the name is given to the new file, and what it named is left as it was),
/// with what `write` writes, whole. Only for the names a program gives the files of its own
/// directory (a table's layer), where anything else of that name is debris to replace, never a
/// destination a user named: those go through [`replace_with`].
pub fn replace_name_with(
    path: &Path,
    write: impl FnOnce(&mut File) -> io::Result<()>,
) -> Result<(), Error> {
    rename_into(path, write).map_err(|error| Error {
        path: path.to_path_buf(),
        error,
    })
}

/// Writes a temporary file beside `target` and renames it to `target`.
fn rename_into(target: &Path, write: impl FnOnce(&mut File) -> io::Result<()>) -> io::Result<()> {
    let temp = Temporary::write(target, write)?;
    std::fs::rename(&temp.path, target)?;
    temp.placed();
    sync_directory(target);
    Ok(())
}

/// Creates an empty temporary file beside `target`, as a write of it would, and removes it:
/// whether the folder takes a new file, tried before a command's work
/// ([`crate::sys::outputs::writable`]). Named as every temporary file is ([`temporary_of`]),
/// so that a program removing a killed run's temporaries recognizes it too.
pub(crate) fn try_beside(target: &Path) -> io::Result<()> {
    Temporary::write(target, |_| Ok(())).map(drop)
}

/// An error for a file of a kind [`replace_with`] refuses (a directory, a block device or a
/// socket), as `meta` tells.
pub(crate) fn writable_kind(meta: &std::fs::Metadata) -> io::Result<()> {
    if meta.is_dir() {
        // The system's own error, as a rename over a directory gives.
        return Err(io::Error::from_raw_os_error(
            nix::errno::Errno::EISDIR as i32,
        ));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let refuse = |why: &str| Err(io::Error::new(io::ErrorKind::InvalidInput, why.to_string()));
        if meta.file_type().is_block_device() {
            return refuse("a block device; name a file");
        }
        if meta.file_type().is_socket() {
            return refuse("a socket; name a file");
        }
    }
    Ok(())
}

/// Writes what `write` writes into the file at `path`, which exists and is not a regular
/// file, in place: a character device or a FIFO, opened without truncating it, without
/// creating anything and without waiting for a FIFO's reader. What a device or a reader took
/// before an error cannot be taken back.
#[cfg(unix)]
fn in_place(
    path: &Path,
    meta: &std::fs::Metadata,
    write: impl FnOnce(&mut File) -> io::Result<()>,
) -> io::Result<()> {
    writable_kind(meta)?;
    // Not truncated (a device is not a file to empty), not created, never waited on.
    let mut file = crate::sys::files::open_for_writing(OpenOptions::new().write(true), path)?;
    write(&mut file)?;
    file.flush()?;
    match file.sync_all() {
        // Devices and pipes cannot be synced: nothing waits in them to be.
        Err(e)
            if [nix::errno::Errno::EINVAL, nix::errno::Errno::EROFS]
                .iter()
                .any(|&n| e.raw_os_error() == Some(n as i32)) =>
        {
            Ok(())
        }
        other => other,
    }
}

#[cfg(not(unix))]
fn in_place(
    path: &Path,
    meta: &std::fs::Metadata,
    write: impl FnOnce(&mut File) -> io::Result<()>,
) -> io::Result<()> {
    writable_kind(meta)?;
    let mut file = OpenOptions::new().write(true).open(path)?;
    write(&mut file)?;
    file.flush()
}

/// Writes `bytes` to `path` whole if no file has that name; if one has, leaves it and fails
/// with an error of kind `AlreadyExists`. Of writers racing to create the same file, exactly
/// one succeeds, and every reader finds its file whole.
pub fn create_new(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let at = |error| Error {
        path: path.to_path_buf(),
        error,
    };
    let temp = Temporary::write(path, |f| f.write_all(bytes)).map_err(at)?;
    // A link, unlike a rename, never takes the name of a file that is there.
    std::fs::hard_link(&temp.path, path).map_err(at)?;
    drop(temp);
    sync_directory(path);
    Ok(())
}

/// The file a temporary file named `name` is written for, and the process that writes it, if
/// `name` is one ([`replace`]'s `.NAME.tmp-PID-N`, or `.NAME.tmp-PID` as earlier builds named
/// them): for removing what killed processes left.
pub fn temporary_of(name: &str) -> Option<(&str, u32)> {
    let (target, owner) = name.strip_prefix('.')?.rsplit_once(".tmp-")?;
    let pid = owner.split_once('-').map_or(owner, |(pid, n)| {
        if n.bytes().all(|b| b.is_ascii_digit()) && !n.is_empty() {
            pid
        } else {
            ""
        }
    });
    if target.is_empty() || pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((target, pid.parse().ok()?))
}

/// Writes made by this process, for the temporary files' names.
static WRITES: AtomicU64 = AtomicU64::new(0);

/// A temporary file beside a target, removed when dropped unless placed.
struct Temporary {
    path: PathBuf,
    placed: bool,
}

impl Temporary {
    /// A new temporary file for `target`, filled by `write` and synced.
    fn write(target: &Path, write: impl FnOnce(&mut File) -> io::Result<()>) -> io::Result<Self> {
        let name = target
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
        let (mut file, temp) = loop {
            let mut temp = std::ffi::OsString::from(".");
            temp.push(name);
            temp.push(format!(
                ".tmp-{}-{}",
                std::process::id(),
                WRITES.fetch_add(1, Ordering::Relaxed)
            ));
            let temp = target.with_file_name(temp);
            // Exclusive: a name a process of the same id on another node has taken is
            // skipped, never shared.
            match OpenOptions::new().write(true).create_new(true).open(&temp) {
                Ok(file) => break (file, temp),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        };
        // From here on, dropping it (on an error, or a panic in `write`) removes the file.
        let temp = Temporary {
            path: temp,
            placed: false,
        };
        write(&mut file)?;
        file.sync_all()?;
        Ok(temp)
    }

    /// The file now has the target's name: nothing to remove.
    fn placed(mut self) {
        self.placed = true;
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.placed {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Syncs the directory holding `path`, so the name just given survives a crash. Where a
/// directory cannot be synced (some file systems refuse), the file is in place all the same.
fn sync_directory(path: &Path) {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("awari-write-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_write_replaces_the_file_whole() {
        let dir = scratch("whole");
        let path = dir.join("f.txt");
        replace(&path, b"a long first text\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"a long first text\n");
        replace_with(&path, |f| {
            f.write_all(b"sec")?;
            f.write_all(b"ond\n")
        })
        .unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second\n");
        assert_eq!(names(&dir), ["f.txt"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_write_leaves_no_temporary_and_the_target_as_it_was() {
        let dir = scratch("failed");
        let path = dir.join("f.txt");
        replace(&path, b"old\n").unwrap();
        // The writer fails half-way.
        let e = replace_with(&path, |f| {
            f.write_all(b"half")?;
            Err(io::Error::other("the writer gave up"))
        })
        .unwrap_err();
        assert_eq!(e.path, path);
        assert_eq!(
            e.to_string(),
            format!("{}: the writer gave up", path.display())
        );
        assert_eq!(std::fs::read(&path).unwrap(), b"old\n");
        assert_eq!(names(&dir), ["f.txt"]);
        // The writer panics.
        let panicked = std::panic::catch_unwind(|| {
            let _ = replace_with(&path, |f| {
                f.write_all(b"half")?;
                panic!("a writer that panics");
            });
        });
        assert!(panicked.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old\n");
        assert_eq!(names(&dir), ["f.txt"]);
        // The target is a directory: refused, never renamed over.
        let taken = dir.join("taken");
        std::fs::create_dir_all(taken.join("inside")).unwrap();
        let e = replace(&taken, b"new\n").unwrap_err();
        assert_eq!(e.path, taken);
        assert_eq!(names(&dir), ["f.txt", "taken"]);
        // The directory is missing: the error names the target.
        let missing = dir.join("no-such-dir").join("f.txt");
        let e = replace(&missing, b"new\n").unwrap_err();
        assert_eq!(e.error.kind(), io::ErrorKind::NotFound);
        assert!(
            e.to_string().starts_with(&missing.display().to_string()),
            "{e}"
        );
        assert_eq!(names(&dir), ["f.txt", "taken"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn two_writes_in_flight_use_two_temporary_files() {
        let dir = scratch("flight");
        let path = dir.join("f.txt");
        let mut seen = Vec::new();
        replace_with(&path, |f| {
            seen.push(names(&dir));
            // A second write of the same file while the first is open.
            replace_with(&path, |g| {
                seen.push(names(&dir));
                g.write_all(b"inner\n")
            })
            .map_err(io::Error::from)?;
            f.write_all(b"outer\n")
        })
        .unwrap();
        let pid = std::process::id();
        assert_eq!(seen[0].len(), 1, "{seen:?}");
        assert_eq!(seen[1].len(), 2, "{seen:?}");
        for name in &seen[1] {
            assert_eq!(temporary_of(name), Some(("f.txt", pid)), "{seen:?}");
        }
        // The outer write, renamed last, is what stays; no temporary file is left.
        assert_eq!(std::fs::read(&path).unwrap(), b"outer\n");
        assert_eq!(names(&dir), ["f.txt"]);
        // Threads writing at once: each write whole, one of them last.
        std::thread::scope(|scope| {
            for t in 0..8 {
                let path = &path;
                scope.spawn(move || {
                    for k in 0..20 {
                        replace(
                            path,
                            format!("thread {t} write {k}\n").repeat(100).as_bytes(),
                        )
                        .unwrap();
                    }
                });
            }
        });
        let text = std::fs::read_to_string(&path).unwrap();
        let first = text.lines().next().unwrap();
        assert!(text.lines().count() == 100 && text.lines().all(|l| l == first));
        assert_eq!(names(&dir), ["f.txt"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn create_new_never_takes_a_name_that_is_there() {
        let dir = scratch("new");
        let path = dir.join("m.json");
        create_new(&path, b"first\n").unwrap();
        let e = create_new(&path, b"second\n").unwrap_err();
        assert_eq!(e.error.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&path).unwrap(), b"first\n");
        assert_eq!(names(&dir), ["m.json"]);
        // Racing: exactly one wins.
        let race = dir.join("race.json");
        let won: usize = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..8)
                .map(|t| {
                    let race = &race;
                    scope.spawn(move || create_new(race, format!("{t}\n").as_bytes()).is_ok())
                })
                .collect();
            handles
                .into_iter()
                .map(|h| usize::from(h.join().unwrap()))
                .sum()
        });
        assert_eq!(won, 1);
        assert_eq!(names(&dir), ["m.json", "race.json"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_target_that_is_no_regular_file_is_written_in_place_or_refused() {
        use nix::sys::stat::{mknod, Mode, SFlag};
        use std::io::Read;
        use std::os::unix::fs::FileTypeExt;
        let dir = scratch("special");
        // A FIFO with a reader gets the bytes, and stays a FIFO.
        let fifo = dir.join("fifo");
        nix::unistd::mkfifo(&fifo, Mode::from_bits_truncate(0o600)).unwrap();
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                let mut got = Vec::new();
                File::open(&fifo).unwrap().read_to_end(&mut got).unwrap();
                got
            })
        };
        // The reader's open and the write's meet; until the reader is there the write fails.
        let big = b"through the pipe\n".repeat(10_000);
        loop {
            match replace(&fifo, &big) {
                Ok(()) => break,
                Err(e) if e.error.kind() == io::ErrorKind::BrokenPipe => std::thread::yield_now(),
                Err(e) => panic!("{e}"),
            }
        }
        assert_eq!(reader.join().unwrap(), big);
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
        // A FIFO with no reader: an error that says so, at once.
        let e = replace(&fifo, b"nobody reads\n").unwrap_err();
        assert!(e.to_string().contains("a FIFO with no reader"), "{e}");
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
        // A directory, empty or not, is an error, and stays.
        let e = replace(&dir, b"x").unwrap_err();
        assert_eq!(e.error.kind(), io::ErrorKind::IsADirectory, "{e}");
        // A symbolic link: its file is replaced, the link stays (a dangling one too).
        std::fs::write(dir.join("real"), b"old\n").unwrap();
        std::os::unix::fs::symlink("real", dir.join("link")).unwrap();
        std::os::unix::fs::symlink("later", dir.join("dangling")).unwrap();
        replace(&dir.join("link"), b"new\n").unwrap();
        replace(&dir.join("dangling"), b"made\n").unwrap();
        assert_eq!(std::fs::read(dir.join("real")).unwrap(), b"new\n");
        assert_eq!(std::fs::read(dir.join("later")).unwrap(), b"made\n");
        for link in ["link", "dangling"] {
            let meta = std::fs::symlink_metadata(dir.join(link)).unwrap();
            assert!(meta.file_type().is_symlink(), "{link}");
        }
        // A character device (the null device, made here, not the system's): written in
        // place, it stays a device. Making one needs root.
        let null = dir.join("null");
        if mknod(
            &null,
            SFlag::S_IFCHR,
            Mode::from_bits_truncate(0o666),
            nix::sys::stat::makedev(1, 3),
        )
        .is_ok()
        {
            replace(&null, b"into nothing\n").unwrap();
            assert!(std::fs::metadata(&null)
                .unwrap()
                .file_type()
                .is_char_device());
        }
        // No temporary file is left beside any of them.
        let mut expected = vec!["dangling", "fifo", "later", "link", "real"];
        if null.exists() {
            expected.insert(4, "null");
        }
        assert_eq!(names(&dir), expected);
        // A program's own name (a layer's) is given to the new file, whatever it named.
        replace_name_with(&fifo, |f| f.write_all(b"a layer\n")).unwrap();
        replace_name_with(&dir.join("link"), |f| f.write_all(b"a layer\n")).unwrap();
        assert_eq!(std::fs::read(&fifo).unwrap(), b"a layer\n");
        assert!(std::fs::symlink_metadata(dir.join("link"))
            .unwrap()
            .is_file());
        assert_eq!(std::fs::read(dir.join("real")).unwrap(), b"new\n");
        assert_eq!(names(&dir), expected);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn temporary_names_are_read_back() {
        assert_eq!(
            temporary_of(".oware-12.awtb.tmp-41-7"),
            Some(("oware-12.awtb", 41))
        );
        assert_eq!(
            temporary_of(".oware-12.awtb.tmp-41"),
            Some(("oware-12.awtb", 41))
        );
        assert_eq!(temporary_of(".a.tmp-x.tmp-41-0"), Some(("a.tmp-x", 41)));
        for not in [
            "oware-12.awtb.tmp-41",
            ".f.tmp-",
            ".f.tmp-41-",
            ".f.tmp-4x",
            ".f.tmp-41-x",
            "..tmp-41",
        ] {
            assert_eq!(temporary_of(not), None, "{not}");
        }
    }
}
