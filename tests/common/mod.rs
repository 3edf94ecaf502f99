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

/// The home and data directory of every program a test starts: an empty directory of the
/// build's own, never the user's, so that no test reads or writes the user's tables or other
/// files (`awari` looks for tables in the data directory when `TablesPath` names none).
pub fn home() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("empty-home");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The variables that give a program [`home`] as its home and data directory (Linux reads
/// `XDG_DATA_HOME`, then `HOME`; macOS `HOME`).
pub fn home_env() -> [(&'static str, PathBuf); 2] {
    let home = home();
    [("HOME", home.clone()), ("XDG_DATA_HOME", home.join("data"))]
}

/// `program`, to be run with [`home`] as its home and data directory.
pub fn hermetic(program: impl AsRef<std::ffi::OsStr>) -> std::process::Command {
    let mut command = std::process::Command::new(program);
    command.envs(home_env());
    command
}

/// For a program the library under test starts itself (the referee's engine processes): the
/// command and arguments that run `program` through `env(1)` with [`home`] as its home and
/// data directory (`env` execs it: same process, same pid).
pub fn hermetic_argv(program: &str, args: &[&str]) -> (String, Vec<String>) {
    let mut argv: Vec<String> = home_env()
        .iter()
        .map(|(k, v)| format!("{k}={}", v.display()))
        .collect();
    argv.push(program.to_string());
    argv.extend(args.iter().map(|a| a.to_string()));
    ("/usr/bin/env".to_string(), argv)
}

/// `tests/data/repetition-wins.txt`: oware positions from real games, each with the game's
/// moves since the last capture, in which one move wins at once by repetition: (the position
/// as `position fen` takes it, that move).
pub fn repetition_wins() -> Vec<(String, String)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/repetition-wins.txt"
    );
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (position, mv) = l.split_once('|').expect("position | move");
            (position.trim().to_string(), mv.trim().to_string())
        })
        .collect()
}

/// Why a test cannot run a program as `nobody` under a limit on its user's processes (it
/// needs root, since root ignores RLIMIT_NPROC, and util-linux's `setpriv` and `prlimit`), or
/// `None` when it can.
pub fn nproc_limit_unavailable() -> Option<&'static str> {
    let tools = ["setpriv", "prlimit"].iter().all(|t| {
        hermetic(t)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    let root = nix::unistd::geteuid().is_root();
    (!tools || !root).then_some("needs root and util-linux's setpriv and prlimit")
}

/// `program` run as `nobody` under a limit of `nproc` processes for that user.
pub fn as_nobody_limited(program: &str, nproc: u32) -> std::process::Command {
    let mut command = hermetic("setpriv");
    command
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg("prlimit")
        .arg(format!("--nproc={nproc}"))
        .arg(program);
    command
}
