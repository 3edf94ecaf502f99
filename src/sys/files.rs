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
