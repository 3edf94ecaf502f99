//! Helpers shared by the integration tests that start processes or write files.

// Each test crate that includes this module uses only some of it.
#![allow(dead_code)]

pub mod disk;
mod engine;
pub mod headless;
pub mod kalah;
pub mod minimax;
pub mod referee;
pub mod serve;
pub mod tables;
pub mod values;
pub mod wire;

// As with dead code: a test crate may use none of these.
#[allow(unused_imports)]
pub use engine::{Engine, FAST, SECOND};

use awari::rules::Variant;
use awari::tables::build::{build, BuildOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The engine binary under test.
pub const AWARI: &str = env!("CARGO_BIN_EXE_awari");
/// The referee binary under test.
pub const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

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

/// Running processes whose program (argv[0]) is `path`: not zombies, and not dying (killed
/// with SIGKILL, or exiting), so that a check right after whatever killed them has ended
/// needs no pause for the kernel, however busy the machine.
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
                    String::from_utf8_lossy(argv0) == wanted && !dying(&p)
                })
                .count()
        })
        .unwrap_or(0)
}

/// Whether the process of `/proc/PID` is a zombie, exiting, or has SIGKILL pending (or is
/// gone): it will not run the program's code again.
fn dying(proc_dir: &Path) -> bool {
    let Ok(stat) = std::fs::read_to_string(proc_dir.join("stat")) else {
        return true;
    };
    // The fields after the command's closing parenthesis: state (3), ..., flags (9).
    let fields: Vec<&str> = stat
        .rfind(')')
        .map_or("", |i| &stat[i + 1..])
        .split_whitespace()
        .collect();
    const PF_EXITING: u64 = 0x4;
    let state = fields.first().copied().unwrap_or("X");
    let flags: u64 = fields.get(6).and_then(|f| f.parse().ok()).unwrap_or(0);
    if matches!(state, "Z" | "X" | "x") || flags & PF_EXITING != 0 {
        return true;
    }
    let status = std::fs::read_to_string(proc_dir.join("status")).unwrap_or_default();
    let sigkill = 1u64 << (nix::libc::SIGKILL - 1);
    status
        .lines()
        .filter_map(|l| {
            l.strip_prefix("SigPnd:")
                .or_else(|| l.strip_prefix("ShdPnd:"))
        })
        .any(|mask| u64::from_str_radix(mask.trim(), 16).is_ok_and(|m| m & sigkill != 0))
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
pub fn hermetic(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut command = Command::new(program);
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

/// `program ARGS`, run to its end with [`home`] as its home and data directory.
pub fn run(program: &str, args: &[&str]) -> Output {
    hermetic(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("run {program}: {e}"))
}

/// `awari ARGS`, run to its end.
pub fn awari(args: &[&str]) -> Output {
    run(AWARI, args)
}

/// The referee binary, to be run with [`home`] as its home and data directory.
pub fn referee() -> Command {
    hermetic(REFEREE)
}

/// Bytes a program printed, as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// All a program printed: its standard output, then its error output.
pub fn printed(out: &Output) -> String {
    format!("{}{}", text(&out.stdout), text(&out.stderr))
}

/// An engine's `info` line without its counts (nodes, nps, time, hashfull, tbhits): what
/// stays the same when a line is printed again with the counts of a later moment.
pub fn without_counts(line: &str) -> String {
    let mut kept = Vec::new();
    let mut words = line.split_whitespace();
    while let Some(w) = words.next() {
        match w {
            "nodes" | "nps" | "time" | "hashfull" | "tbhits" => {
                words.next();
            }
            _ => kept.push(w),
        }
    }
    kept.join(" ")
}

/// The last line of `stdout` that starts with `prefix`, or an empty string.
pub fn last_line(stdout: &[u8], prefix: &str) -> String {
    text(stdout)
        .lines()
        .rfind(|l| l.starts_with(prefix))
        .unwrap_or_default()
        .to_string()
}

/// `--engine` words for an engine named `name` that runs the shell command `good` at its first
/// start and `bad` at every later one: the referee's handshake before the first game meets a
/// good engine, its games a bad one (a start is marked by a directory made in `dir`, which only
/// one start can make).
pub fn good_once(dir: &Path, name: &str, good: &str, bad: &str) -> Vec<String> {
    let mark = dir.join(format!("{name}.started"));
    vec![
        "--engine".to_string(),
        "cmd=/bin/sh".to_string(),
        "arg=-c".to_string(),
        format!(
            "arg=if mkdir '{}' 2>/dev/null; then {good}; else {bad}; fi",
            mark.display()
        ),
        format!("name={name}"),
    ]
}

/// Waits at most `limit` for `child` to end, then its status and output; or `None`, with the
/// child killed and reaped, if it was still running then. (Its output is read once it has
/// ended: what it prints must fit in the pipes meanwhile.)
pub fn output_within(mut child: Child, limit: Duration) -> Option<Output> {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    Some(child.wait_with_output().unwrap())
}

/// Long enough for a test's small run of a command on a loaded machine: a guard against a
/// hang, not a measure.
pub const GUARD: Duration = Duration::from_secs(300);

/// `program ARGS` run in `dir` with [`home`] as its home, stdin empty, to its end (killed past
/// [`GUARD`], and the test failed).
pub fn run_in(dir: &Path, program: &str, args: &[&str]) -> Output {
    let child = hermetic(program)
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    output_within(child, GUARD).unwrap_or_else(|| panic!("{program} {args:?} still running"))
}

/// Builds `variant`'s endgame tables up to `seeds` seeds into `dir`, on two threads.
pub fn build_tables(dir: &Path, variant: Variant, seeds: usize) {
    let options = BuildOptions {
        variant,
        seeds,
        threads: 2,
        dir: dir.to_path_buf(),
        bars: false,
    };
    build(&options, &mut std::io::sink()).unwrap();
}

/// The executable file `program` in a directory of `PATH`, if there is one.
pub fn on_path(program: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|file| {
            std::fs::metadata(file)
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
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

/// What a test needs that a machine may lack. Under `AWARI_REQUIRE` (a comma-separated list
/// of these names, or `all`), a test that would skip for want of a named need fails instead:
/// `.ci/run` sets it, so CI cannot pass with the browser, Slurm or root parts unexercised,
/// while a plain `cargo test` on a laptop still skips, saying why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// Headless Chromium, and chromedriver for the page's tests.
    Browser,
    /// node, and the WebAssembly toolchain `web/build.sh` installs (or root to install it).
    Wasm,
    /// Debian's `slurm-wlm`, run as root.
    Slurm,
    /// Root, for limits on a user's processes, mounts and the like.
    Root,
    /// `python3`.
    Python,
    /// Linux's `/proc` and signals.
    Linux,
    /// An optimized build (`--profile ci` or `--release`).
    Optimized,
    /// `mpirun`, and an `awari` built with the `mpi` feature named by `AWARI_MPI_BIN`.
    Mpi,
}

impl Need {
    /// The name `AWARI_REQUIRE` lists it by.
    pub fn name(self) -> &'static str {
        match self {
            Need::Browser => "browser",
            Need::Wasm => "wasm",
            Need::Slurm => "slurm",
            Need::Root => "root",
            Need::Python => "python",
            Need::Linux => "linux",
            Need::Optimized => "optimized",
            Need::Mpi => "mpi",
        }
    }

    /// Whether `AWARI_REQUIRE` names this need (or `all`).
    pub fn required(self) -> bool {
        std::env::var("AWARI_REQUIRE").is_ok_and(|list| {
            list.split(',')
                .map(str::trim)
                .any(|n| n == "all" || n == self.name())
        })
    }
}

/// Says on the test process's own error output that the running test skips something for
/// want of `need`, and why; or, where `AWARI_REQUIRE` names that need, fails the test with
/// the same reason. The harness captures `eprintln!` and shows it only for a failing test, so
/// a skip said that way would leave a passing run looking as if it had checked everything;
/// this line is printed whatever the test's outcome, and names the test (the harness names
/// each test's thread after it).
pub fn skipped(need: Need, reason: impl std::fmt::Display) {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    if need.required() {
        panic!(
            "{test} needs {} ({reason}), and AWARI_REQUIRE requires it",
            need.name()
        );
    }
    let _ = writeln!(std::io::stderr(), "skipped: {test}: {reason}");
}

/// Whether `program ARGS` runs and succeeds, with [`home`] as its home directory as the
/// tests run it.
pub fn runs(program: &str, args: &[&str]) -> bool {
    hermetic(program)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
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
pub fn as_nobody_limited(program: &str, nproc: u32) -> Command {
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
pub fn address_space_limited(mut command: Command, bytes: u64) -> Command {
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

/// Error outputs whose writes fail: the full device (ENOSPC), and a pipe whose reader is gone
/// (EPIPE).
pub fn broken_stderrs() -> [(&'static str, std::process::Stdio); 2] {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let (read, write) = nix::unistd::pipe().expect("a pipe");
    drop(read);
    [
        ("2>/dev/full", full.into()),
        ("stderr a closed pipe", write.into()),
    ]
}

/// `--engine` arguments of two engines: A (`awari` at depth 1) and B (at depth 2).
pub fn two_engines() -> Vec<String> {
    ["A", "B"]
        .iter()
        .zip(["1", "2"])
        .flat_map(|(name, depth)| {
            [
                "--engine".to_string(),
                format!("cmd={AWARI}"),
                format!("name={name}"),
                format!("depth={depth}"),
            ]
        })
        .collect()
}

/// Holds the lock that lets one browser run at a time in this test binary (the harness runs
/// a binary's tests in parallel threads, and two browsers beside each other's builds slowed a
/// loaded two-core machine past every limit). A test that failed while holding it does not
/// stop the others: the lock guards no data.
pub fn one_browser() -> std::sync::MutexGuard<'static, ()> {
    static BROWSER: std::sync::Mutex<()> = std::sync::Mutex::new(());
    BROWSER
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Every living process (no zombie) with its parent: (pid, ppid), read from `/proc`.
fn living_parents() -> Vec<(u32, u32)> {
    let mut parents = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // The fields after the command's closing parenthesis: state, ppid, ...
        let rest = stat.rsplit_once(')').map_or("", |r| r.1);
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if let (Some(&state), Some(Ok(ppid))) = (fields.first(), fields.get(1).map(|p| p.parse())) {
            if state != "Z" {
                parents.push((child, ppid));
            }
        }
    }
    parents
}

/// The processes whose parent is `pid` (not zombies).
pub fn children_of(pid: u32) -> Vec<u32> {
    living_parents()
        .into_iter()
        .filter(|&(_, ppid)| ppid == pid)
        .map(|(child, _)| child)
        .collect()
}

/// The processes whose parent is `pid`, then theirs, and so on (not zombies).
pub fn descendants(pid: u32) -> Vec<u32> {
    let parents = living_parents();
    let mut out = Vec::new();
    let mut next = vec![pid];
    while let Some(p) = next.pop() {
        for &(child, _) in parents.iter().filter(|&&(_, ppid)| ppid == p) {
            out.push(child);
            next.push(child);
        }
    }
    out
}

/// A program started in a process group of its own (a browser, chromedriver: they start
/// children of their own), ended with all of them however the test ends: on drop its whole
/// group and every descendant is killed by pid, and it is reaped.
pub struct Group(pub Child);

impl Group {
    /// Starts `command` as the leader of a new process group.
    pub fn spawn(mut command: Command) -> std::io::Result<Group> {
        use std::os::unix::process::CommandExt;
        command.process_group(0).spawn().map(Group)
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        use nix::sys::signal::{kill, killpg, Signal};
        use nix::unistd::Pid;
        // The tree first, while the leader still holds it together: a child that made a group
        // of its own is ended by its pid.
        let tree = descendants(self.0.id());
        let _ = killpg(Pid::from_raw(self.0.id() as i32), Signal::SIGKILL);
        for pid in tree {
            let _ = kill(Pid::from_raw(pid as i32), Signal::SIGKILL);
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Ends `child` as a person would: SIGTERM (a server ends its engines with it), then SIGKILL
/// if it has not gone within 10 s; it is reaped either way.
pub fn terminate(child: &mut Child) {
    let _ = Command::new("kill")
        .arg(child.id().to_string())
        .stderr(std::process::Stdio::null())
        .status();
    let until = std::time::Instant::now() + Duration::from_secs(10);
    while std::time::Instant::now() < until {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// The number a field of `/proc/PID/status` starts with (`VmRSS` and `VmHWM` in KiB,
/// `Threads`), or `None` if the process is gone (Linux).
pub fn proc_status(pid: u32, field: &str) -> Option<u64> {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// `awari serve ARGS`, hermetic (through `prlimit --as=BYTES` when a limit is given), and the
/// `HOST:PORT` it prints as its first line (`http://HOST:PORT/`) once its port is open. A
/// server that prints no address is stopped by pid before the test fails.
pub fn serve(args: &[&str], memory: Option<u64>) -> (Child, String) {
    let (child, addr, _) = spawn_serve(args, memory, false);
    (child, addr)
}

/// [`serve`], and the first line it writes to stderr (a warning), read before its address.
pub fn serve_warned(args: &[&str]) -> (Child, String, String) {
    spawn_serve(args, None, true)
}

fn spawn_serve(args: &[&str], memory: Option<u64>, warned: bool) -> (Child, String, String) {
    let mut command = match memory {
        Some(bytes) => {
            let mut c = hermetic("prlimit");
            c.arg(format!("--as={bytes}")).arg("--").arg(AWARI);
            c
        }
        None => hermetic(AWARI),
    };
    let piped = std::process::Stdio::piped;
    let mut child = command
        .arg("serve")
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(piped())
        .stderr(if warned {
            piped()
        } else {
            std::process::Stdio::null()
        })
        .spawn()
        .expect("awari serve");
    let mut warning = String::new();
    if let Some(stderr) = child.stderr.take() {
        let _ = BufReader::new(stderr).read_line(&mut warning);
    }
    let mut line = String::new();
    let _ = BufReader::new(child.stdout.take().expect("stdout piped")).read_line(&mut line);
    match line
        .trim()
        .strip_prefix("http://")
        .and_then(|r| r.strip_suffix('/'))
    {
        Some(addr) => (child, addr.to_string(), warning),
        None => {
            terminate(&mut child);
            panic!("awari serve {args:?} printed no address: {line:?} ({warning:?})");
        }
    }
}

/// The N of the `value N:` line that `awari solve` prints.
pub fn solve_value(stdout: &str) -> i32 {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("value "))
        .unwrap_or_else(|| panic!("no value line in {stdout}"));
    line["value ".len()..]
        .split(':')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}
