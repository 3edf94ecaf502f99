//! One engine process, as the referee and the page run it: started from an argument vector (never through
//! a shell) in its own process group, written to by a thread of its own (so that an engine
//! that reads nothing can never block the referee), its output read by a thread that bounds
//! line length and rate, and ended for sure: `quit`, a grace period, then SIGKILL to the whole
//! group and to every descendant, wherever it moved, then reaped. No zombies and no orphans,
//! whatever the engine does.
//!
//! An engine is seen to end when its output ends, and also when its process exits: an engine
//! can exit while something it started holds its output open (`sleep 20 & exit 0`), and then
//! its output never ends. A wait for a line looks every 20 ms without one whether the engine
//! has exited (`waitid` with `WNOWAIT`: it stays unreaped, so that its process id, which is
//! also its group's, cannot be reused before [`Process::end`] reaps it). Once it has, what it
//! left running is killed, so that its output ends after the lines it wrote before it exited,
//! which are still read in order. The same look notices an engine that has closed its input
//! (its end of the pipe is gone: `POLLERR` on ours), even when every line sent to it was
//! already in the pipe, so that no write is left to fail. The waiting thread looks itself because it acts on the exit
//! and owns the process: a watcher thread per engine blocked in `waitid`, or a SIGCHLD
//! handler, would only pass the news on to it; and the look costs nothing while lines come.
//!
//! The referee is a child subreaper ([`crate::sys::subreaper::become_subreaper`]): what an engine leaves behind comes
//! to it, and [`sweep`] ends and reaps all of it. The live engines are kept in one registry
//! ([`crate::sys::registry`]), which the interrupt thread
//! ([`crate::sys::signals::install_interrupt_handler`]) closes before it kills them, so that no
//! engine can start while it does.

use super::reply::{Expect, Reply};
use crate::sys::lines::{read_line, Line};
use crate::sys::registry::registry;
use crate::sys::subreaper::{kill_tree, pid, sweep};
use crossbeam_channel::{bounded, unbounded, Receiver, RecvTimeoutError, Sender, TryRecvError};
use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
use nix::sys::signal::{kill, killpg, Signal};
use nix::sys::wait::{waitpid, WaitStatus};
use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How to start an engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spec {
    /// The name in results (default: the command's file name).
    pub name: String,
    /// The executable.
    pub command: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working directory (default: the referee's).
    pub dir: Option<PathBuf>,
    /// `setoption` pairs sent after the handshake.
    pub options: Vec<(String, String)>,
}

impl Spec {
    /// The command that starts the engine, in a process group of its own; the caller sets
    /// its standard streams.
    fn command(&self) -> Result<Command, String> {
        if let Some(dir) = &self.dir {
            if !dir.is_dir() {
                return Err(format!("dir={}: not a directory", dir.display()));
            }
        }
        let mut command = Command::new(&self.command);
        command.args(&self.args).process_group(0);
        if let Some(dir) = &self.dir {
            command.current_dir(dir);
        }
        Ok(command)
    }
}

/// Starts `command` (the engine of `spec`) and registers it, under the registry's lock: the
/// interrupt thread either sees this engine or stops it from starting. The error names the
/// command.
fn spawn(command: &mut Command, spec: &Spec) -> Result<Child, String> {
    let mut registry = registry();
    if registry.closing {
        return Err("the referee is stopping".to_string());
    }
    let child = command
        .spawn()
        .map_err(|e| format!("{}: {e}", spec.command.display()))?;
    registry.engines.insert(child.id());
    Ok(child)
}

/// Whether `spec` can be started here, found out before the first game: a command that is
/// missing, not executable or not a program the system runs (a script whose interpreter is
/// missing), or a `dir=` that is not a directory, would lose or void every game. The engine
/// is started as a game starts it (a `cmd=` without a `/` looked up on the `PATH`) and ended
/// before any of its code runs, so that a wrapper that logs its starts or opens a connection
/// to another machine does nothing: on Linux it asks to be traced, and a traced process stops
/// once its new program is loaded. Where tracing is refused (a sandbox), or elsewhere, it is
/// started untraced and killed at once. The error names the command.
pub fn can_start(spec: &Spec) -> Result<(), String> {
    #[cfg(target_os = "linux")]
    if let Some(verdict) = traced_start(spec) {
        return verdict;
    }
    let mut command = spec.command()?;
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let child = spawn(&mut command, spec)?;
    end_at_once(child.id());
    Ok(())
}

/// [`can_start`] with the engine stopped once its program is loaded: the verdict, or `None`
/// when the start failed (tracing refused, or the command cannot start: [`can_start`] then
/// starts it untraced, for the error a game would meet).
#[cfg(target_os = "linux")]
fn traced_start(spec: &Spec) -> Option<Result<(), String>> {
    let mut command = spec.command().ok()?;
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let trace_me = || {
        // SAFETY: PTRACE_TRACEME takes no pointers; it is one system call, which is all a
        // hook between fork and exec may make.
        let traced = unsafe {
            nix::libc::ptrace(
                nix::libc::PTRACE_TRACEME,
                0,
                std::ptr::null_mut::<nix::libc::c_void>(),
                std::ptr::null_mut::<nix::libc::c_void>(),
            )
        };
        if traced == -1 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    };
    // SAFETY: the hook makes one system call and allocates nothing, as a hook between fork
    // and exec must.
    unsafe {
        command.pre_exec(trace_me);
    }
    let child = spawn(&mut command, spec).ok()?;
    let id = child.id();
    let stopped = pid(id).is_some_and(|p| matches!(waitpid(p, None), Ok(WaitStatus::Stopped(..))));
    // A hook makes the start go through fork and execvp, which runs a file in no format the
    // system knows with /bin/sh, where a game's start reports "Exec format error".
    let no_format = run_by_shell(id, spec);
    end_at_once(id);
    if !stopped {
        return None;
    }
    if no_format {
        let why = io::Error::from_raw_os_error(nix::libc::ENOEXEC);
        return Some(Err(format!("{}: {why}", spec.command.display())));
    }
    Some(Ok(()))
}

/// Whether the stopped process `id`, started from `spec`, is a shell running a file that is
/// no script: execvp's way with a file in no format the system knows. A program loaded by
/// itself has the command as its first argument; a script (`#!`) and such a file have their
/// interpreter there, then the file's path (a path found on the `PATH`, for a plain name),
/// which tells them apart by the file's first two bytes.
#[cfg(target_os = "linux")]
fn run_by_shell(id: u32, spec: &Spec) -> bool {
    let Ok(cmdline) = std::fs::read(format!("/proc/{id}/cmdline")) else {
        return false;
    };
    let command = spec.command.as_os_str().as_encoded_bytes();
    let mut args = cmdline.split(|&b| b == 0);
    if args.next() == Some(command) {
        return false;
    }
    let ends_with_command = |arg: &&[u8]| {
        *arg == command || (arg.ends_with(command) && arg[arg.len() - command.len() - 1] == b'/')
    };
    let Some(file) = args.find(ends_with_command) else {
        return false;
    };
    // Relative to the process's own directory (dir=).
    use std::os::unix::ffi::OsStrExt;
    let file = PathBuf::from(format!("/proc/{id}/cwd")).join(std::ffi::OsStr::from_bytes(file));
    let mut head = [0; 2];
    let read = File::open(&file).and_then(|mut f| f.read_exact(&mut head));
    read.is_ok() && head != *b"#!"
}

/// Kills the engine `id` just started (running, or stopped by tracing), reaps it, and takes it
/// off the registry.
fn end_at_once(id: u32) {
    if let Some(pid) = pid(id) {
        let _ = kill(pid, Signal::SIGKILL);
        // Until it is gone: a traced process reports its stops too.
        while let Ok(status) = waitpid(pid, None) {
            if matches!(status, WaitStatus::Exited(..) | WaitStatus::Signaled(..)) {
                break;
            }
        }
    }
    registry().engines.remove(&id);
}

/// Limits on what an engine may send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutputLimits {
    /// Longest line, in bytes.
    pub max_line: usize,
    /// Most lines in any one second.
    pub max_lines_per_second: u32,
}

impl Default for OutputLimits {
    fn default() -> OutputLimits {
        OutputLimits {
            max_line: 64 << 10,
            max_lines_per_second: 20_000,
        }
    }
}

/// What went wrong with an engine; each is a reason to lose the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// It could not be started.
    Start(String),
    /// No expected line within the time allowed.
    Timeout(Duration),
    /// It exited (with how, once its process was seen to end), or its output ended (`None`:
    /// its process had not ended a moment later).
    Exited(Option<Exit>),
    /// A line over the length limit.
    LineTooLong(usize),
    /// Too many lines too fast.
    Flood(u32),
    /// Its input is closed (it is gone).
    Write(String),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Start(e) => write!(f, "could not start: {e}"),
            Failure::Timeout(d) => write!(f, "no answer within {} ms", d.as_millis()),
            Failure::Exited(Some(exit)) => write!(f, "exited ({exit})"),
            Failure::Exited(None) => write!(f, "exited (its output ended)"),
            Failure::LineTooLong(n) => write!(f, "sent a line of {n} bytes"),
            Failure::Flood(n) => write!(f, "flooded its output ({n} lines in a second)"),
            Failure::Write(e) => write!(f, "cannot be written to: {e}"),
        }
    }
}

impl std::error::Error for Failure {}

/// How an engine process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this status.
    Status(i32),
    /// This signal ended it (its number).
    Signal(i32),
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Exit::Status(code) => write!(f, "status {code}"),
            Exit::Signal(n) => match Signal::try_from(n) {
                Ok(signal) => write!(f, "killed by {}", signal.as_str()),
                Err(_) => write!(f, "killed by signal {n}"),
            },
        }
    }
}

/// How long a wait for a line goes without looking whether the engine has exited.
const WATCH: Duration = Duration::from_millis(20);

/// How long the lines an engine wrote before it exited may take to come through (once its exit
/// is seen), and its exit to be seen (once its output has ended): its last lines are read in
/// order, and its output closes as it exits, a moment before its process ends.
const SETTLE: Duration = Duration::from_millis(200);

enum Event {
    Line(String),
    Failed(Failure),
}

/// Where an engine's stderr goes: the current game's file, switched between games.
type StderrTarget = Arc<Mutex<Option<File>>>;

/// A running engine.
pub struct Process {
    child: Child,
    /// Lines for the writer thread, which alone writes to the engine's stdin.
    input: Option<Sender<String>>,
    /// A second descriptor of the engine's stdin, only polled, to see its reading end closed.
    /// Dropped with `input`, so that the engine reads the end of its input after `quit`.
    input_end: Option<OwnedFd>,
    /// When the engine was seen to have closed its input.
    input_closed: Option<Instant>,
    events: Receiver<Event>,
    /// The protocol exchange, when logging (`> ` sent, `< ` received).
    log: Option<File>,
    /// The stderr file, when logging.
    stderr: Option<StderrTarget>,
    /// How the engine exited and when that was seen; it is reaped only when it is ended.
    exit: Option<(Exit, Instant)>,
    ended: bool,
}

impl Process {
    /// Starts `spec` in a process group of its own; its stderr goes to `stderr` (a log file)
    /// or nowhere. Fails once the referee is being interrupted.
    pub fn start(
        spec: &Spec,
        limits: OutputLimits,
        stderr: Option<File>,
        log: Option<File>,
    ) -> Result<Process, Failure> {
        let mut command = spec.command().map_err(Failure::Start)?;
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if stderr.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            });
        #[cfg(target_os = "linux")]
        if DIE_WITH_STARTER.load(Ordering::Relaxed) {
            let parent = nix::unistd::getpid();
            // SAFETY: the closure runs in the child between fork and exec, where only
            // async-signal-safe calls are allowed: it makes two system calls (`prctl`,
            // `getppid`) and allocates nothing.
            unsafe {
                command.pre_exec(move || {
                    let _ = nix::sys::prctl::set_pdeathsig(Signal::SIGKILL);
                    // Its starter may have died before the signal was asked for.
                    if nix::unistd::getppid() == parent {
                        Ok(())
                    } else {
                        Err(io::Error::from_raw_os_error(nix::libc::ESRCH))
                    }
                });
            }
        }
        let mut child = spawn(&mut command, spec).map_err(Failure::Start)?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take().expect("stdin is piped");
        let input_end = stdin.as_fd().try_clone_to_owned().ok();
        // A small bound: an engine that writes faster than the referee reads waits on the
        // pipe instead of filling the referee's memory.
        let (tx, events) = bounded(256);
        // Lines written to the engine so far: each starts a new window for the flood count.
        let written = Arc::new(AtomicU64::new(0));
        let requests = Arc::clone(&written);
        // The writer says when the engine's input is closed, so that a wait ends at once.
        let broken = tx.clone();
        let reader = thread::Builder::new()
            .name("engine-reader".to_string())
            .spawn(move || read_output(stdout, limits, &requests, tx));
        // Unbounded: what the referee sends is a few lines per move, and an engine that
        // reads nothing must not block it (the writer thread blocks instead, until the
        // engine is killed and its pipe breaks).
        let (input, lines) = unbounded::<String>();
        let writer = thread::Builder::new()
            .name("engine-writer".to_string())
            .spawn(move || {
                let mut stdin = stdin;
                for line in lines {
                    if let Err(e) = stdin
                        .write_all(line.as_bytes())
                        .and_then(|()| stdin.flush())
                    {
                        let why = format!("its input is closed ({e})");
                        let _ = broken.send(Event::Failed(Failure::Write(why)));
                        break;
                    }
                    written.fetch_add(1, Ordering::Release);
                }
            });
        let target: Option<StderrTarget> = stderr.map(|f| Arc::new(Mutex::new(Some(f))));
        let relay = match (child.stderr.take(), &target) {
            (Some(pipe), Some(target)) => {
                let target = Arc::clone(target);
                thread::Builder::new()
                    .name("engine-stderr".to_string())
                    .spawn(move || relay_stderr(pipe, &target))
                    .map(|_| ())
            }
            _ => Ok(()),
        };
        let mut process = Process {
            child,
            input: Some(input),
            input_end,
            input_closed: None,
            events,
            log,
            stderr: target,
            exit: None,
            ended: false,
        };
        if let Err(e) = reader.and(writer).map(|_| ()).and(relay) {
            process.end(Duration::ZERO);
            return Err(Failure::Start(e.to_string()));
        }
        Ok(process)
    }

    /// The operating system's process id (also the process group id).
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// From now on, the protocol exchange goes to `log` and stderr to `stderr` (the next
    /// game's files). Stderr is switched only if it was logged from the start.
    pub fn set_logs(&mut self, stderr: Option<File>, log: Option<File>) {
        self.log = log;
        if let Some(target) = &self.stderr {
            *target.lock().unwrap_or_else(|e| e.into_inner()) = stderr;
        }
    }

    /// Sends one line. It never blocks: the line is queued for the writer thread.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        if let Some(log) = &mut self.log {
            let _ = writeln!(log, "> {line}");
        }
        let input = self
            .input
            .as_ref()
            .ok_or_else(|| Failure::Write("closed".to_string()))?;
        input
            .send(format!("{line}\n"))
            .map_err(|_| Failure::Write("its input is closed".to_string()))
    }

    /// The next line, waiting until `deadline` at most. An engine that has exited fails with
    /// its exit, whether or not its output has ended.
    pub fn next_line(&mut self, deadline: Instant) -> Result<String, Failure> {
        let left = deadline.saturating_duration_since(Instant::now());
        loop {
            let slice = deadline
                .saturating_duration_since(Instant::now())
                .min(WATCH);
            match self.events.recv_timeout(slice) {
                Ok(Event::Line(line)) => {
                    if let Some(log) = &mut self.log {
                        let _ = writeln!(log, "< {line}");
                    }
                    return Ok(line);
                }
                Ok(Event::Failed(Failure::Exited(_))) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.output_ended())
                }
                Ok(Event::Failed(f)) => return Err(f),
                Err(RecvTimeoutError::Timeout) => {
                    let late = Instant::now() >= deadline;
                    if let Some((exit, seen)) = self.watch() {
                        if late || seen.elapsed() >= SETTLE {
                            return Err(Failure::Exited(Some(exit)));
                        }
                    } else if let Some(seen) = self.input_closed() {
                        // An exiting engine closes its input a moment before its exit can
                        // be seen: the exit, if it comes, is the better account.
                        if late || seen.elapsed() >= SETTLE {
                            return Err(Failure::Write("its input is closed".to_string()));
                        }
                    }
                    if late {
                        return Err(Failure::Timeout(left));
                    }
                }
            }
        }
    }

    /// When the engine was first seen to have closed its input (the reading end of its stdin
    /// pipe is gone), looked for now if not yet seen.
    fn input_closed(&mut self) -> Option<Instant> {
        if self.input_closed.is_none() {
            let fd = self.input_end.as_ref()?;
            let mut fds = [PollFd::new(fd.as_fd(), PollFlags::empty())];
            let closed = matches!(poll(&mut fds, PollTimeout::ZERO), Ok(1))
                && fds[0]
                    .revents()
                    .is_some_and(|r| r.contains(PollFlags::POLLERR));
            if closed {
                self.input_closed = Some(Instant::now());
            }
        }
        self.input_closed
    }

    /// The engine's exit and when it was seen, looked for now if not yet seen. Once seen,
    /// what the engine left running is killed, so that its output ends: after its last lines.
    fn watch(&mut self) -> Option<(Exit, Instant)> {
        if self.exit.is_none() && !self.ended {
            if let Some(exit) = self.exit_status() {
                self.exit = Some((exit, Instant::now()));
                if let Some(group) = self::pid(self.child.id()) {
                    let _ = killpg(group, Signal::SIGKILL);
                }
                // Its orphans, in groups of their own, came to the referee as subreaper.
                sweep();
            }
        }
        self.exit
    }

    /// How the engine exited, if it has, leaving it unreaped (Linux: `waitid` with
    /// `WNOWAIT`). Elsewhere it is reaped here, as [`Process::end`] does.
    fn exit_status(&mut self) -> Option<Exit> {
        #[cfg(target_os = "linux")]
        {
            use nix::sys::wait::{waitid, Id, WaitPidFlag, WaitStatus};
            let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
            match waitid(Id::Pid(self::pid(self.child.id())?), flags) {
                Ok(WaitStatus::Exited(_, code)) => Some(Exit::Status(code)),
                Ok(WaitStatus::Signaled(_, signal, _)) => Some(Exit::Signal(signal as i32)),
                _ => None,
            }
        }
        #[cfg(not(target_os = "linux"))]
        {
            use std::os::unix::process::ExitStatusExt;
            let status = self.child.try_wait().ok()??;
            status
                .code()
                .map(Exit::Status)
                .or(status.signal().map(Exit::Signal))
        }
    }

    /// The failure for an output that has ended: the engine's exit, once its process is seen
    /// to have ended within [`SETTLE`].
    fn output_ended(&mut self) -> Failure {
        let until = Instant::now() + SETTLE;
        loop {
            if let Some((exit, _)) = self.watch() {
                return Failure::Exited(Some(exit));
            }
            if self.ended || Instant::now() >= until {
                return Failure::Exited(None);
            }
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// Discards the lines already received (logged, not acted on): whatever the engine said
    /// before the next command cannot answer it. A failure already seen is returned, and so
    /// is the engine's exit.
    pub fn drain(&mut self) -> Result<(), Failure> {
        loop {
            match self.events.try_recv() {
                Ok(Event::Line(line)) => {
                    if let Some(log) = &mut self.log {
                        let _ = writeln!(log, "< {line} (stale, ignored)");
                    }
                }
                Ok(Event::Failed(Failure::Exited(_))) | Err(TryRecvError::Disconnected) => {
                    return Err(self.output_ended())
                }
                Ok(Event::Failed(f)) => return Err(f),
                Err(TryRecvError::Empty) => {
                    return match self.watch() {
                        Some((exit, _)) => Err(Failure::Exited(Some(exit))),
                        None => Ok(()),
                    }
                }
            }
        }
    }

    /// `isready`, then every line up to `readyok` discarded: the engine has read everything
    /// sent before, and anything it said about it (a late `bestmove`) is gone.
    pub fn sync(&mut self, within: Duration) -> Result<(), Failure> {
        self.drain()?;
        self.send("isready")?;
        self.wait_for(Expect::ReadyOk, within, &mut |_| {})
            .map(|_| ())
    }

    /// Reads lines until the reply `expect` ([`Reply::parse`] decides); returns its line.
    /// Lines before it go to `other` (info lines, say).
    pub fn wait_for(
        &mut self,
        expect: Expect,
        within: Duration,
        other: &mut dyn FnMut(&str),
    ) -> Result<String, Failure> {
        let deadline = Instant::now() + within;
        loop {
            let line = self.next_line(deadline).map_err(|f| match f {
                Failure::Timeout(_) => Failure::Timeout(within),
                f => f,
            })?;
            if expect.matches(&Reply::parse(&line)) {
                return Ok(line);
            }
            other(&line);
        }
    }

    /// Ends the engine: `quit`, up to `grace` to exit, then SIGKILL to its whole process
    /// group and every descendant; always reaped, and so is whatever it left behind.
    /// Returns whether it exited by itself.
    pub fn end(&mut self, grace: Duration) -> bool {
        if self.ended {
            return true;
        }
        let _ = self.send("quit");
        // The writer thread ends with the queue: end of input after `quit`.
        self.input = None;
        self.input_end = None;
        let deadline = Instant::now() + grace;
        let mut by_itself = false;
        loop {
            if let Ok(Some(_)) = self.child.try_wait() {
                by_itself = true;
                break;
            }
            if Instant::now() >= deadline {
                break;
            }
            thread::sleep(Duration::from_millis(1));
        }
        self.kill(by_itself);
        by_itself
    }

    /// SIGKILL to the group and, unless the engine has exited (its descendants are then
    /// ours, for [`sweep`]), to every descendant; then reaped, then swept.
    fn kill(&mut self, exited: bool) {
        let pid = self.child.id();
        if exited {
            if let Some(group) = self::pid(pid) {
                let _ = killpg(group, Signal::SIGKILL);
            }
        } else {
            kill_tree(pid);
        }
        let _ = self.child.wait();
        registry().engines.remove(&pid);
        sweep();
        self.input = None;
        self.input_end = None;
        self.ended = true;
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if !self.ended {
            self.kill(false);
        }
    }
}

/// The reader thread: lines to `tx`, failures (too long, too many, end) as the last event.
///
/// A flood is more than `max_lines_per_second` lines within a second in answer to one
/// request: the window starts again at each line the referee writes (`requests` counts them),
/// so an engine that answers thousands of shallow searches a second, a few lines each, is not
/// taken for one; an engine that writes on and on without being asked is.
fn read_output(stdout: impl Read, limits: OutputLimits, requests: &AtomicU64, tx: Sender<Event>) {
    let mut reader = BufReader::new(stdout);
    let mut buffer = Vec::new();
    let mut window = Instant::now();
    let mut in_window = 0u32;
    let mut request = requests.load(Ordering::Acquire);
    loop {
        let event = match read_line(&mut reader, &mut buffer, limits.max_line) {
            Ok(Line::Text) => {
                let now = requests.load(Ordering::Acquire);
                if now != request || window.elapsed() >= Duration::from_secs(1) {
                    request = now;
                    window = Instant::now();
                    in_window = 0;
                }
                in_window += 1;
                if in_window > limits.max_lines_per_second {
                    Event::Failed(Failure::Flood(in_window))
                } else {
                    let text = String::from_utf8_lossy(&buffer);
                    Event::Line(text.trim_end_matches('\r').to_string())
                }
            }
            Ok(Line::TooLong(n)) => Event::Failed(Failure::LineTooLong(n)),
            Ok(Line::Eof) | Err(_) => Event::Failed(Failure::Exited(None)),
        };
        let last = matches!(event, Event::Failed(_));
        if tx.send(event).is_err() || last {
            break;
        }
    }
}

/// The stderr thread: copies the engine's stderr to the current game's file.
fn relay_stderr(mut pipe: impl Read, target: &Mutex<Option<File>>) {
    let mut buffer = [0u8; 8192];
    loop {
        match pipe.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => {
                if let Some(file) = &mut *target.lock().unwrap_or_else(|e| e.into_inner()) {
                    let _ = file.write_all(&buffer[..n]);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
}

/// Whether engines are started to die with the thread that starts them ([`die_with_starter`]).
static DIE_WITH_STARTER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Linux: every engine started from now on is killed (SIGKILL) when the thread that started it
/// ends, and so when this process dies in any way, a SIGKILL or an abort included, where
/// nothing of this program runs to end it. Only for a program whose threads that start
/// engines outlive them (the page's sessions do; the referee's match threads need not).
pub fn die_with_starter() {
    DIE_WITH_STARTER.store(true, Ordering::Relaxed);
}

/// File descriptors the referee holds per engine at most: its input pipe (twice: written and
/// watched), its output and stderr pipes and two log files.
pub const FILES_PER_ENGINE: u64 = 6;

/// Makes room for `engines` engines at once: raises the soft limit on open files as far as
/// the hard limit allows; an error says how many are needed and what the limit is.
pub fn make_room_for(engines: u64) -> Result<(), String> {
    use nix::sys::resource::{getrlimit, setrlimit, Resource};
    // The engines' files, plus the referee's own (records, standard streams, /proc reads).
    let needed = engines * FILES_PER_ENGINE + 64;
    let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE) else {
        return Ok(());
    };
    if soft >= needed {
        return Ok(());
    }
    if hard >= needed && setrlimit(Resource::RLIMIT_NOFILE, needed, hard).is_ok() {
        return Ok(());
    }
    Err(format!(
        "{engines} engines at once need about {needed} open files; this system allows {hard}"
    ))
}

/// Opens a log file for appending, creating it; a FIFO with no reader is an error, not a
/// wait ([`crate::sys::files::open_for_writing`]).
pub fn open_log(path: &std::path::Path) -> io::Result<File> {
    crate::sys::files::open_for_writing(std::fs::OpenOptions::new().create(true).append(true), path)
}
