//! Helpers shared by the referee's process tests.

use std::path::Path;

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
