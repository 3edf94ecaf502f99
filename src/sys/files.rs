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

/// The file `path` names, whether or not it exists yet: every part of it that exists resolved
/// (symbolic links followed, `..` taken after them, as the system does), the rest as written
/// with `.` and `..` taken by name. Two paths with the same result name one file, so
/// `dir/../dir/x`, `./x` and a link to `x` are all `x`.
pub fn resolve(path: &Path) -> std::path::PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = std::path::PathBuf::new();
    for part in absolute.components() {
        match part {
            std::path::Component::CurDir => {}
            // `out` is resolved so far: its parent is the real one.
            std::path::Component::ParentDir => {
                out.pop();
            }
            part => {
                out.push(part);
                if let Ok(p) = std::fs::canonicalize(&out) {
                    out = p;
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
