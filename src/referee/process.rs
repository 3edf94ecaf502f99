//! One engine process, as the referee runs it: started from an argument vector (never through
//! a shell) in its own process group, its output read by a thread that bounds line length and
//! rate, and ended for sure: `quit`, a grace period, then SIGKILL to the whole group, then
//! reaped. No zombies and no orphans, whatever the engine does.

use crate::lines::{read_line, Line};
use crossbeam_channel::{bounded, Receiver, RecvTimeoutError};
use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
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
    /// Its output ended (it crashed or quit).
    Exited,
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
            Failure::Exited => write!(f, "exited (its output ended)"),
            Failure::LineTooLong(n) => write!(f, "sent a line of {n} bytes"),
            Failure::Flood(n) => write!(f, "flooded its output ({n} lines in a second)"),
            Failure::Write(e) => write!(f, "cannot be written to: {e}"),
        }
    }
}

impl std::error::Error for Failure {}

enum Event {
    Line(String),
    Failed(Failure),
}

/// A running engine.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    /// The protocol exchange, when logging (`> ` sent, `< ` received).
    log: Option<File>,
    ended: bool,
}

impl Process {
    /// Starts `spec` in a process group of its own; its stderr goes to `stderr` (a log file)
    /// or nowhere.
    pub fn start(
        spec: &Spec,
        limits: OutputLimits,
        stderr: Option<File>,
        log: Option<File>,
    ) -> Result<Process, Failure> {
        let mut command = Command::new(&spec.command);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr.map_or_else(Stdio::null, Stdio::from))
            .process_group(0);
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let mut child = command
            .spawn()
            .map_err(|e| Failure::Start(format!("{}: {e}", spec.command.display())))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        // A small bound: an engine that writes faster than the referee reads waits on the
        // pipe instead of filling the referee's memory.
        let (tx, events) = bounded(256);
        thread::Builder::new()
            .name("engine-reader".to_string())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buffer = Vec::new();
                let mut window = Instant::now();
                let mut in_window = 0u32;
                loop {
                    let event = match read_line(&mut reader, &mut buffer, limits.max_line) {
                        Ok(Line::Text) => {
                            if window.elapsed() >= Duration::from_secs(1) {
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
                        Ok(Line::Eof) | Err(_) => Event::Failed(Failure::Exited),
                    };
                    let last = matches!(event, Event::Failed(_));
                    if tx.send(event).is_err() || last {
                        break;
                    }
                }
            })
            .map_err(|e| Failure::Start(e.to_string()))?;
        register(child.id());
        Ok(Process {
            stdin: child.stdin.take(),
            child,
            events,
            log,
            ended: false,
        })
    }

    /// The operating system's process id (also the process group id).
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        if let Some(log) = &mut self.log {
            let _ = writeln!(log, "> {line}");
        }
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| Failure::Write("closed".to_string()))?;
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .map_err(|e| Failure::Write(e.to_string()))
    }

    /// The next line, waiting until `deadline` at most.
    pub fn next_line(&mut self, deadline: Instant) -> Result<String, Failure> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(left) {
            Ok(Event::Line(line)) => {
                if let Some(log) = &mut self.log {
                    let _ = writeln!(log, "< {line}");
                }
                Ok(line)
            }
            Ok(Event::Failed(f)) => Err(f),
            Err(RecvTimeoutError::Timeout) => Err(Failure::Timeout(left)),
            Err(RecvTimeoutError::Disconnected) => Err(Failure::Exited),
        }
    }

    /// Reads lines until one whose first word is `word`; returns it. Lines before it go to
    /// `other` (info lines, say).
    pub fn wait_for(
        &mut self,
        word: &str,
        within: Duration,
        other: &mut dyn FnMut(&str),
    ) -> Result<String, Failure> {
        let deadline = Instant::now() + within;
        loop {
            let line = self.next_line(deadline).map_err(|f| match f {
                Failure::Timeout(_) => Failure::Timeout(within),
                f => f,
            })?;
            if line.split_whitespace().next() == Some(word) {
                return Ok(line);
            }
            other(&line);
        }
    }

    /// Ends the engine: `quit`, up to `grace` to exit, then SIGKILL to its whole process
    /// group; always reaped. Returns whether it exited by itself.
    pub fn end(&mut self, grace: Duration) -> bool {
        if self.ended {
            return true;
        }
        let _ = self.send("quit");
        self.stdin = None;
        let deadline = Instant::now() + grace;
        let mut by_itself = false;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                by_itself = true;
                break;
            }
            thread::sleep(Duration::from_millis(2));
        }
        // Its own children too: the group may outlive the engine.
        kill_group(self.child.id());
        let _ = self.child.wait();
        reap_group(self.child.id());
        unregister(self.child.id());
        self.ended = true;
        by_itself
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if !self.ended {
            kill_group(self.child.id());
            let _ = self.child.wait();
            reap_group(self.child.id());
            unregister(self.child.id());
        }
    }
}

/// The process groups of the live engines, for the interrupt handler: plain atomics, which a
/// signal handler may read.
static LIVE: [AtomicU32; 256] = [const { AtomicU32::new(0) }; 256];

fn register(pgid: u32) {
    for slot in &LIVE {
        if slot
            .compare_exchange(0, pgid, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            return;
        }
    }
}

fn unregister(pgid: u32) {
    for slot in &LIVE {
        if slot
            .compare_exchange(pgid, 0, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            return;
        }
    }
}

extern "C" fn on_interrupt(_signal: libc::c_int) {
    for slot in &LIVE {
        let pgid = slot.load(Ordering::Acquire);
        if pgid != 0 {
            kill_group(pgid);
        }
    }
    // SAFETY: _exit is async-signal-safe; nothing else runs after it.
    unsafe { libc::_exit(130) }
}

/// On Ctrl-C (SIGINT), SIGTERM or SIGHUP: kill every live engine's process group, then exit
/// with status 130. Engines run in groups of their own, so a terminal's Ctrl-C does not
/// reach them by itself.
pub fn install_interrupt_handler() {
    let handler = on_interrupt as extern "C" fn(libc::c_int) as libc::sighandler_t;
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: the handler only reads atomics and calls kill(2) and _exit(2), which are
        // async-signal-safe.
        unsafe {
            libc::signal(signal, handler);
        }
    }
}

/// SIGKILL to the process group `pgid` (the engine was started as its leader).
fn kill_group(pgid: u32) {
    if let Ok(pgid) = libc::pid_t::try_from(pgid) {
        // SAFETY: kill(2) with a negative pid signals a process group; it touches no memory
        // of ours. A group that is already gone gives ESRCH, which is fine.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
}

/// Linux: makes the calling process a "child subreaper", so that the orphaned children of an
/// engine (killed with its group) become our children and can be reaped by us rather than
/// left as zombies for an init that may not reap them. Elsewhere it does nothing.
pub fn become_subreaper() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl(PR_SET_CHILD_SUBREAPER) only sets a flag on this process.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
}

/// The processes of group `pgid`: (pid, parent pid, state letter), from /proc (Linux).
fn group_members(pgid: u32) -> Vec<(u32, u32, char)> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut members = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // "pid (command) state ppid pgrp ...": the command may hold spaces and parentheses.
        let Some(after) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        let fields: Vec<&str> = after.split_whitespace().collect();
        if let [state, ppid, pgrp, ..] = fields[..] {
            if pgrp.parse::<u32>() == Ok(pgid) {
                let state = state.chars().next().unwrap_or('?');
                members.push((pid, ppid.parse().unwrap_or(0), state));
            }
        }
    }
    members
}

/// Reaps the members of group `pgid` that are our children (orphans handed to us as
/// subreaper); they have been sent SIGKILL, so each wait is short.
fn reap_group(pgid: u32) {
    let me = std::process::id();
    for (pid, ppid, _) in group_members(pgid) {
        if ppid == me {
            if let Ok(pid) = libc::pid_t::try_from(pid) {
                // SAFETY: waitpid on our own child, with no status buffer.
                unsafe {
                    libc::waitpid(pid, std::ptr::null_mut(), 0);
                }
            }
        }
    }
}

/// Whether any process of group `pgid` is still running (zombies count as gone).
pub fn group_alive(pgid: u32) -> bool {
    if cfg!(target_os = "linux") {
        group_members(pgid)
            .iter()
            .any(|&(_, _, state)| state != 'Z')
    } else {
        match libc::pid_t::try_from(pgid) {
            // SAFETY: signal 0 only checks that the group exists and may be signalled.
            Ok(pgid) => unsafe { libc::kill(-pgid, 0) == 0 },
            Err(_) => false,
        }
    }
}

/// Linux: whether any process of group `pgid` exists at all, zombies included (after
/// [`Process::end`] none should: the referee reaps what it can).
pub fn group_exists(pgid: u32) -> bool {
    !group_members(pgid).is_empty()
}

/// Opens a log file for appending, creating it.
pub fn open_log(path: &std::path::Path) -> io::Result<File> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
}
