//! The handshake, written once for the referee's games, `referee check` and the page: an
//! engine is started, sent `uci`, and read up to `uciok` (its `id name` and `option` lines
//! kept), then told its settings (`setoption`) and synchronised (`isready` up to `readyok`).
//! An engine that has done it is ready for `ucinewgame` or a search; one that fails it is
//! ended, and the step it failed at is said in words the three share.

use super::process::{Failure, OutputLimits, Process, Spec};
use super::reply::{EngineOption, Expect, Reply};
use std::fmt;
use std::fs::File;
use std::time::{Duration, Instant};

/// What an engine said at the handshake.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hello {
    /// Its `id name`, when it sent one before `uciok`.
    pub name: Option<String>,
    /// Its `option` lines, as sent: [`Hello::options`] reads them.
    option_lines: Vec<String>,
    /// How long `readyok` took after `isready` (zero until then).
    pub ready_after: Duration,
}

impl Hello {
    /// The options it announced, typed, in the order it sent them.
    pub fn options(&self) -> impl Iterator<Item = EngineOption<'_>> {
        self.option_lines
            .iter()
            .filter_map(|line| match Reply::parse(line) {
                Reply::Option(option) => Some(option),
                _ => None,
            })
    }

    /// The option it announced under `name`, if any (the last, if it sent two).
    pub fn option(&self, name: &str) -> Option<EngineOption<'_>> {
        self.options().filter(|o| o.name == name).last()
    }

    /// Reads one line sent before `uciok`, keeping what the handshake keeps.
    fn hear(&mut self, line: &str) {
        match Reply::parse(line) {
            Reply::IdName(name) => self.name = Some(name.to_string()),
            Reply::Option(_) => self.option_lines.push(line.to_string()),
            _ => {}
        }
    }
}

/// The step of the handshake an engine failed at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Starting it.
    Start,
    /// `uci`, answered by `uciok`.
    Uci,
    /// Its settings, each a `setoption`.
    Options,
    /// `isready`, answered by `readyok`.
    Ready,
}

/// Why an engine failed the handshake: the step, what went wrong, and what it had said by
/// then (for `referee check`, which reports each step).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The step it failed at.
    pub step: Step,
    /// What went wrong.
    pub failure: Failure,
    /// What it said before.
    pub hello: Hello,
}

impl fmt::Display for Refusal {
    /// `no uciok after uci: no answer within 10000 ms`, `could not start: ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let failure = &self.failure;
        match self.step {
            Step::Start => write!(f, "{failure}"),
            Step::Uci => write!(f, "no uciok after uci: {failure}"),
            Step::Options => write!(f, "while its options were sent: {failure}"),
            Step::Ready => write!(f, "no readyok after isready: {failure}"),
        }
    }
}

impl std::error::Error for Refusal {}

/// Where an engine's stderr and protocol exchange go, if anywhere ([`Process::start`]).
#[derive(Debug, Default)]
pub struct Logs {
    /// Its stderr.
    pub stderr: Option<File>,
    /// The protocol exchange.
    pub log: Option<File>,
}

/// Starts `spec` and does the handshake: `uci` up to `uciok`, then `settings` (sent first:
/// `UCI_Variant`, say) and `spec`'s options, each a `setoption`, then `isready` up to
/// `readyok`. Each answer may take `within`. On failure the engine is ended.
pub fn start(
    spec: &Spec,
    settings: &[(&str, &str)],
    within: Duration,
    logs: Logs,
) -> Result<(Process, Hello), Refusal> {
    // A write fails when the engine is gone: how it went (its exit, read from its output's
    // end) says more than the closed pipe, and is the same however the race between the two
    // went. The engine is ended either way.
    let refused = |step, failure, hello: &Hello, p: Option<&mut Process>| {
        let failure = match (failure, p) {
            (Failure::Write(why), Some(p)) => {
                let failure = p.drain().err().unwrap_or(Failure::Write(why));
                p.end(Duration::from_millis(200));
                failure
            }
            (failure, Some(p)) => {
                p.end(Duration::from_millis(200));
                failure
            }
            (failure, None) => failure,
        };
        Refusal {
            step,
            failure,
            hello: hello.clone(),
        }
    };
    let mut hello = Hello::default();
    let mut p = Process::start(spec, OutputLimits::default(), logs.stderr, logs.log)
        .map_err(|f| refused(Step::Start, f, &hello, None))?;
    let uci = p
        .send("uci")
        .and_then(|()| p.wait_for(Expect::UciOk, within, &mut |line| hello.hear(line)));
    if let Err(f) = uci {
        return Err(refused(Step::Uci, f, &hello, Some(&mut p)));
    }
    let given = spec.options.iter().map(|(k, v)| (k.as_str(), v.as_str()));
    for (name, value) in settings.iter().copied().chain(given) {
        if let Err(f) = p.send(&format!("setoption name {name} value {value}")) {
            return Err(refused(Step::Options, f, &hello, Some(&mut p)));
        }
    }
    let asked = Instant::now();
    if let Err(f) = p.sync(within) {
        return Err(refused(Step::Ready, f, &hello, Some(&mut p)));
    }
    hello.ready_after = asked.elapsed();
    Ok((p, hello))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What is kept of the lines before `uciok`.
    #[test]
    fn the_name_and_the_options_are_kept() {
        let mut hello = Hello::default();
        for line in [
            "id name first",
            "id author someone",
            "option name Hash type spin default 16 min 1 max 1024",
            "info string hello",
            "option name MultiPV type spin default 1 min 1 max 6",
            "option type spin",
            "id name awari 1.0",
        ] {
            hello.hear(line);
        }
        assert_eq!(hello.name.as_deref(), Some("awari 1.0"));
        let names: Vec<_> = hello.options().map(|o| o.name).collect();
        assert_eq!(names, ["Hash", "MultiPV"]);
        assert_eq!(hello.option("MultiPV").and_then(|o| o.max), Some(6));
        assert_eq!(hello.option("Ponder"), None);
    }

    /// Each step's failure in the words the referee, `referee check` and the page print.
    #[test]
    fn refusals_say_the_step() {
        let timeout = Failure::Timeout(Duration::from_millis(2000));
        let rows = [
            (
                Step::Start,
                Failure::Start("x: not found".into()),
                "could not start: x: not found",
            ),
            (
                Step::Uci,
                timeout.clone(),
                "no uciok after uci: no answer within 2000 ms",
            ),
            (
                Step::Options,
                Failure::Write("its input is closed".into()),
                "while its options were sent: cannot be written to: its input is closed",
            ),
            (
                Step::Ready,
                Failure::Exited(None),
                "no readyok after isready: exited (its output ended)",
            ),
        ];
        for (step, failure, want) in rows {
            let refusal = Refusal {
                step,
                failure,
                hello: Hello::default(),
            };
            assert_eq!(refusal.to_string(), want);
        }
    }
}
