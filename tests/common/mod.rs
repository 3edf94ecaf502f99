//! Helpers shared by the integration tests that start processes or write files.

// Each test crate that includes this module uses only some of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// A fresh directory under the system's temp directory, removed when it goes out of scope,
/// also when the test fails: a test run leaves nothing behind.
pub struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

/// `awari-{prefix}-{pid}-{tag}`, empty (a leftover of a crashed run with the same process id is
/// removed first).
pub fn scratch(prefix: &str, tag: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("awari-{prefix}-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// Running (not zombie) processes whose program (argv[0]) is `path`.
pub fn running(path: &Path) -> usize {
    let wanted = path.to_string_lossy().to_string();
    std::fs::read_dir("/proc")
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| {
                    let p = e.path();
                    let cmd = std::fs::read(p.join("cmdline")).unwrap_or_default();
                    let argv0 = cmd.split(|&b| b == 0).next().unwrap_or_default();
                    let stat = std::fs::read_to_string(p.join("stat")).unwrap_or_default();
                    let zombie = stat
                        .rfind(')')
                        .is_some_and(|i| stat[i + 1..].trim_start().starts_with('Z'));
                    String::from_utf8_lossy(argv0) == wanted && !zombie
                })
                .count()
        })
        .unwrap_or(0)
}
