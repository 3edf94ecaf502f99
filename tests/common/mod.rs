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

/// Says on the test process's own error output that the running test skips something, and
/// why. The harness captures `eprintln!` and shows it only for a failing test, so a skip said
/// that way would leave a passing run looking as if it had checked everything; this line is
/// printed whatever the test's outcome, and names the test (the harness names each test's
/// thread after it).
pub fn skipped(reason: impl std::fmt::Display) {
    use std::io::Write;
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    let _ = writeln!(std::io::stderr(), "skipped: {test}: {reason}");
}

/// Whether `program ARGS` runs and succeeds, with [`home`] as its home directory as the
/// tests run it.
pub fn runs(program: &str, args: &[&str]) -> bool {
    hermetic(program)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Why a test cannot run a program as `nobody` under a limit on its user's processes (it
/// needs root, since root ignores RLIMIT_NPROC, and util-linux's `setpriv` and `prlimit`), or
/// `None` when it can.
pub fn nproc_limit_unavailable() -> Option<String> {
    let mut missing: Vec<String> = ["setpriv", "prlimit"]
        .into_iter()
        .filter(|t| !runs(t, &["--version"]))
        .map(|t| format!("util-linux's {t}"))
        .collect();
    if !nix::unistd::geteuid().is_root() {
        missing.push("root (to run it as nobody: root itself ignores RLIMIT_NPROC)".to_string());
    }
    (!missing.is_empty()).then(|| format!("needs {}", missing.join(" and ")))
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

/// `command` with its address space limited to `bytes` (RLIMIT_AS): an allocation beyond it
/// fails in the program, whatever the machine's memory and the kernel's overcommit setting.
pub fn address_space_limited(
    mut command: std::process::Command,
    bytes: u64,
) -> std::process::Command {
    use nix::sys::resource::{setrlimit, Resource};
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs in the child between fork and exec, where only
    // async-signal-safe calls may be made: setrlimit(2) is one, and it allocates nothing.
    unsafe {
        command.pre_exec(move || {
            setrlimit(Resource::RLIMIT_AS, bytes, bytes).map_err(std::io::Error::from)
        });
    }
    command
}
