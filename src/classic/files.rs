//! Reading the classic players' small files (`basic`'s memory, `evolved`'s weights) so that no
//! path a user names can block or exhaust the engine: the file is opened as
//! [`crate::sys::files::open_regular`] opens it (without waiting, regular files only) and is read
//! up to a limit.

use std::io::{self, Read};
use std::path::Path;

/// The most bytes a classic player's file may hold: a memory of thousands of games, or six
/// weights with comments, fits many times over.
pub const MAX_BYTES: u64 = 1 << 20;

/// The text of `path`, or why not. A missing file is `Err` of kind `NotFound`, so callers can
/// treat it as empty.
pub fn read_small(path: &Path) -> io::Result<String> {
    let file = crate::sys::files::open_regular(path)?;
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than {MAX_BYTES} bytes"),
        ));
    }
    String::from_utf8(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_directories_and_large_files_are_refused() {
        let dir = std::env::temp_dir().join(format!("awari-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let big = dir.join("big");
        std::fs::write(&big, vec![b'0'; MAX_BYTES as usize + 1]).unwrap();
        let small = dir.join("small");
        std::fs::write(&small, "1 2 3\n").unwrap();
        assert_eq!(read_small(&small).unwrap(), "1 2 3\n");
        let too_big = read_small(&big).unwrap_err();
        assert!(too_big.to_string().contains("larger than"), "{too_big}");
        assert!(read_small(&dir).is_err());
        #[cfg(unix)]
        {
            let zero = read_small(Path::new("/dev/zero")).unwrap_err();
            assert!(zero.to_string().contains("not a regular file"), "{zero}");
        }
        let missing = read_small(&dir.join("missing")).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
