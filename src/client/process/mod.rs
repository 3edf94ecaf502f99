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
//!
//! This file is the running engine ([`Process`]: written to, read within a deadline, ended);
//! `start.rs` starts one (and tells beforehand whether one can start), `output.rs` reads what
//! it writes within [`OutputLimits`].

mod output;
mod start;

pub use output::OutputLimits;
pub use start::{can_start, die_with_starter, make_room_for, Spec, FILES_PER_ENGINE};

use self::output::{read_output, relay_stderr, Event};
use self::start::spawn;

use super::reply::{Expect, Reply};
use crate::sys::registry::registry;
use crate::sys::subreaper::{kill_tree, pid, sweep};
use crossbeam_channel::{bounded, unbounded, Receiver, RecvTimeoutError, Sender, TryRecvError};
use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
use nix::sys::signal::{killpg, Signal};
use std::fmt;
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

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
        start::die_with_starter_hook(&mut command);
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

/// Opens a log file for appending, creating it; a FIFO with no reader is an error, not a
/// wait ([`crate::sys::files::open_for_writing`]).
pub fn open_log(path: &std::path::Path) -> io::Result<File> {
    crate::sys::files::open_for_writing(std::fs::OpenOptions::new().create(true).append(true), path)
}
