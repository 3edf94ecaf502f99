//! Opening files whose paths a user names (tables, a learning memory, weights) so that no path
//! can block the program: the file is opened without waiting (a FIFO with no writer does not
//! block the open, as it would for a plain `open(2)`), then must be a regular file, not a FIFO,
//! a device such as `/dev/zero`, or a directory.

use std::fs::File;
use std::io;
use std::path::Path;

/// `path` opened for reading if it is a regular file; otherwise an error of kind
/// `InvalidInput` ("not a regular file"), or the open's own error (`NotFound`, ...).
pub fn open_regular(path: &Path) -> io::Result<File> {
    let file = open_without_waiting(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    Ok(file)
}

#[cfg(unix)]
fn open_without_waiting(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits())
        .open(path)
}

#[cfg(not(unix))]
fn open_without_waiting(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// `path` opened for writing as `options` say (appending, creating, ...) without waiting: a
/// FIFO with no reader is an error of kind `BrokenPipe` ("a FIFO with no reader") at once
/// instead of a wait without end, as a plain `open(2)` would be. Once open, writes block as
/// on any file (a FIFO's slow reader is waited for).
#[cfg(unix)]
pub fn open_for_writing(options: &mut std::fs::OpenOptions, path: &Path) -> io::Result<File> {
    use nix::fcntl::{fcntl, FcntlArg, OFlag};
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let file = options
        .custom_flags(OFlag::O_NONBLOCK.bits())
        .open(path)
        .map_err(|e| {
            let fifo = std::fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo());
            if e.raw_os_error() == Some(nix::errno::Errno::ENXIO as i32) && fifo {
                io::Error::new(
                    io::ErrorKind::BrokenPipe,
                    "a FIFO with no reader; start its reader first, or name a file",
                )
            } else {
                e
            }
        })?;
    let flags = OFlag::from_bits_truncate(fcntl(&file, FcntlArg::F_GETFL)?);
    fcntl(&file, FcntlArg::F_SETFL(flags - OFlag::O_NONBLOCK))?;
    Ok(file)
}

#[cfg(not(unix))]
pub fn open_for_writing(options: &mut std::fs::OpenOptions, path: &Path) -> io::Result<File> {
    options.open(path)
}

/// The file `path` names, whether or not it exists yet: every part of it that exists resolved
/// (symbolic links followed, a dangling one too, to the name its file will have; `..` taken
/// after them, as the system does), the rest as written with `.` and `..` taken by name. Two
/// paths with the same result name one file, so `dir/../dir/x`, `./x`, a link to `x` and a
/// link to a file `x` not yet made are all `x`.
pub fn resolve(path: &Path) -> std::path::PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut links = 0;
    walk(&absolute, &mut links)
}

/// Links followed at most in one [`resolve`], as the system's own limit (`ELOOP`): a loop of
/// links is left as written past it.
const MAX_LINKS: u32 = 40;

/// `path` (absolute) resolved a part at a time: [`resolve`] for a path `canonicalize` cannot
/// take, one that does not exist whole.
fn walk(path: &Path, links: &mut u32) -> std::path::PathBuf {
    let mut out = std::path::PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            // `out` is resolved so far: its parent is the real one.
            std::path::Component::ParentDir => {
                out.pop();
            }
            part => {
                out.push(part);
                let is_link = std::fs::symlink_metadata(&out).is_ok_and(|m| m.is_symlink());
                if is_link && *links < MAX_LINKS {
                    if let Ok(target) = std::fs::read_link(&out) {
                        *links += 1;
                        out.pop();
                        // An absolute target replaces `out` whole when joined.
                        let joined = out.join(target);
                        out = walk(&joined, links);
                    }
                }
            }
        }
    }
    out
}

/// Whether `a` and `b` name one file: the same [`resolve`]d path, or, for files that exist,
/// the same file on the same device (a hard link is another name of the file).
pub fn same_file(a: &Path, b: &Path) -> bool {
    if resolve(a) == resolve(b) {
        return true;
    }
    identity(a).is_some_and(|id| identity(b) == Some(id))
}

#[cfg(unix)]
fn identity(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn identity(_: &Path) -> Option<(u64, u64)> {
    None
}

/// The bytes of the regular file at `path` ([`open_regular`]: a FIFO, a device or a
/// directory is refused instead of being waited on or read without end).
pub fn read_regular(path: &Path) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    open_regular(path)?.read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn names_of_one_file_resolve_alike() {
        let dir = std::env::temp_dir().join(format!("awari-resolve-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        let dir = std::fs::canonicalize(&dir).unwrap();
        let link = |target: &str, name: &str| {
            std::os::unix::fs::symlink(target, dir.join(name)).unwrap();
        };
        // Dangling: neither `x` nor `sub/y` exists.
        link("x", "to-x");
        link("sub/y", "to-y");
        link("to-y", "to-to-y");
        link("../x", "sub/up-x");
        link("loop", "loop");
        let x = dir.join("x");
        for (path, resolved) in [
            (dir.join("to-x"), &x),
            (dir.join("sub/../x"), &x),
            (dir.join("./x"), &x),
            (dir.join("sub/up-x"), &x),
            (dir.join("to-to-y"), &dir.join("sub/y")),
            (dir.join("loop"), &dir.join("loop")),
        ] {
            assert_eq!(&resolve(&path), resolved, "{path:?}");
        }
        assert!(same_file(&dir.join("to-x"), &dir.join("sub/up-x")));
        assert!(!same_file(&dir.join("to-x"), &dir.join("to-y")));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
