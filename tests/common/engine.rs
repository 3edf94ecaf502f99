//! The real `awari` engine over pipes, each wait for a line bounded in time.

use super::{hermetic, AWARI};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// One second, the unit of the engine tests' generous limits.
pub const SECOND: Duration = Duration::from_secs(1);
/// What "at once" allows beyond the machine's own round trip ([`Engine::at_once`]).
pub const FAST: Duration = Duration::from_millis(100);

/// The real `awari` engine over pipes, as a GUI or a tournament manager drives it. A thread
/// reads its output lines, so that each wait for a line has a time limit; it is killed and
/// reaped however the test ends.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    /// `awari`, with [`home`] as its home and data directory.
    pub fn start() -> Engine {
        Engine::spawn(hermetic(AWARI))
    }

    /// The engine as `command` starts it (its error output is dropped).
    pub fn spawn(mut command: Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines,
        }
    }

    /// The engine's process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Waits for a line starting with `prefix`; returns it and how long it took, or panics
    /// after `limit`. Other lines are passed over.
    pub fn expect(&self, prefix: &str, limit: Duration) -> (String, Duration) {
        let start = Instant::now();
        loop {
            let left = limit.saturating_sub(start.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return (line, start.elapsed()),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => panic!("no '{prefix}' line within {limit:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("output ended before '{prefix}'"),
            }
        }
    }

    /// The lines up to and including the first that starts with `prefix`; panics if it has
    /// not come after `limit`.
    pub fn until(&self, prefix: &str, limit: Duration) -> Vec<String> {
        let start = Instant::now();
        let mut lines = Vec::new();
        loop {
            let left = limit.saturating_sub(start.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    lines.push(line);
                    if done {
                        return lines;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no '{prefix}' line within {limit:?} after {lines:?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("output ended before '{prefix}' after {lines:?}")
                }
            }
        }
    }

    /// Every line that arrives within `wait`.
    pub fn drain(&self, wait: Duration) -> Vec<String> {
        let mut lines = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(wait) {
            lines.push(line);
        }
        lines
    }

    /// "At once" on this machine now: [`FAST`] beyond [`Engine::slack`].
    pub fn at_once(&mut self) -> Duration {
        FAST + self.slack()
    }

    /// What this machine adds now to anything a test times: the slowest of three `isready`
    /// round trips of the idle engine, measured in the same run, so that a loaded machine's
    /// pipes and scheduling are not counted against the engine. A bound on a time the test
    /// measures is the engine's own limit plus this.
    pub fn slack(&mut self) -> Duration {
        (0..3)
            .map(|_| {
                self.send("isready");
                self.expect("readyok", Duration::from_secs(5)).1
            })
            .max()
            .unwrap_or_default()
    }

    /// The lines up to the answer to an `isready` sent now: nothing but `readyok` when the
    /// engine owes no other answer (its output keeps its order, so this waits for an event,
    /// not for a time within which a stray line might have come).
    pub fn up_to_readyok(&mut self) -> Vec<String> {
        self.send("isready");
        self.until("readyok", Duration::from_secs(10))
    }

    /// Closes the engine's input: end of file.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Waits for the process to exit; its status and how long that took.
    pub fn exit(&mut self, limit: Duration) -> (ExitStatus, Duration) {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return (status, start.elapsed());
            }
            assert!(start.elapsed() < limit, "still running after {limit:?}");
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
