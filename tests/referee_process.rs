//! Engine processes as the referee runs them: the real engine, and misbehaving ones (small
//! shell programs started directly, not through a shell of the referee's) that never answer,
//! crash, flood, send endless lines, ignore `quit` or leave children behind. In every case
//! the failure is named and no process is left.

use crate::common;
use awari::client::Expect;
use awari::client::{Exit, Failure, OutputLimits, Process, Spec};
use awari::sys::procfs::{group_alive, group_exists};
use awari::sys::subreaper::become_subreaper;
use std::path::PathBuf;
use std::time::Duration;

fn spec(command: &str, args: &[&str]) -> Spec {
    Spec {
        name: "test".to_string(),
        command: PathBuf::from(command),
        args: args.iter().map(|s| s.to_string()).collect(),
        ..Spec::default()
    }
}

fn sh(script: &str) -> Spec {
    // As the referee does: orphans of killed engines come to us to be reaped.
    become_subreaper();
    spec("/bin/sh", &["-c", script])
}

const SHORT: Duration = Duration::from_millis(300);
const LONG: Duration = Duration::from_secs(60);

/// Whether the group is gone, zombies included, within 30 s (a margin for the kernel, and
/// for the init that reaps what was reparented to it, on a busy machine: `Process` has
/// already killed and reaped everything it could; what it missed, a `sleep 100`, would
/// outlast the margin).
fn gone(pgid: u32) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < Duration::from_secs(30) {
        if !group_exists(pgid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    false
}

#[test]
fn the_real_engine_handshakes_and_quits_by_itself() {
    let (command, args) = common::hermetic_argv(env!("CARGO_BIN_EXE_awari"), &[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut p =
        Process::start(&spec(&command, &args), OutputLimits::default(), None, None).unwrap();
    p.send("uci").unwrap();
    let mut ids = Vec::new();
    p.wait_for(Expect::UciOk, Duration::from_secs(5), &mut |l| {
        ids.push(l.to_string())
    })
    .unwrap();
    assert!(ids[0].starts_with("id name awari"));
    p.send("isready").unwrap();
    p.wait_for(Expect::ReadyOk, Duration::from_secs(5), &mut |_| {})
        .unwrap();
    let pgid = p.id();
    // The grace before a kill: awari exits on `quit` in milliseconds; 10 s leaves a busy
    // machine room to schedule it.
    assert!(p.end(Duration::from_secs(10)), "awari exits on quit");
    assert!(gone(pgid));
}

#[test]
fn a_fast_engine_answering_many_requests_is_no_flood() {
    // A few lines per request, hundreds of requests a second: what a shallow search at depth 4
    // does (it once got an engine forfeited at 20,000 lines a second in a fast match). The
    // limit counts the lines in answer to one request.
    let limits = OutputLimits {
        max_line: 1000,
        max_lines_per_second: 20,
    };
    let spec = sh(
        "while read -r l; do for i in 1 2 3 4 5; do echo \"info depth $i\"; done; \
         echo readyok; done",
    );
    let mut p = Process::start(&spec, limits, None, None).unwrap();
    for n in 0..40 {
        p.send("isready").unwrap();
        p.wait_for(Expect::ReadyOk, Duration::from_secs(5), &mut |_| {})
            .unwrap_or_else(|f| panic!("request {n}: {f}"));
    }
    // Still a flood: more than the limit in answer to one request.
    let spec = sh("read -r l; yes 'info string spam'");
    let mut q = Process::start(&spec, limits, None, None).unwrap();
    q.send("go").unwrap();
    let got = q.wait_for(Expect::ReadyOk, Duration::from_secs(5), &mut |_| {});
    assert!(matches!(got, Err(Failure::Flood(_))), "{got:?}");
    p.end(Duration::from_millis(100));
    q.end(Duration::from_millis(100));
}

/// Whether a failure is the one a row expects.
type Expected = fn(&Failure) -> bool;

#[test]
fn failures_are_named_and_nothing_survives() {
    let limits = OutputLimits {
        max_line: 1000,
        max_lines_per_second: 2000,
    };
    // (what, program, how long to wait for `uciok`, the failure then): SHORT where the
    // failure is that time running out, LONG (a bound against hanging, not a measure) where
    // it is something the program does, which a busy machine may delay.
    let rows: Vec<(&str, Spec, Duration, Expected)> = vec![
        ("silent", sh("sleep 100"), SHORT, |f| {
            matches!(f, Failure::Timeout(_))
        }),
        ("crashes", sh("read line; exit 3"), LONG, |f| {
            *f == Failure::Exited(Some(Exit::Status(3)))
        }),
        ("floods", sh("yes 'info string spam'"), LONG, |f| {
            matches!(f, Failure::Flood(_))
        }),
        (
            "endless line",
            sh("head -c 5000 /dev/zero | tr '\\0' x; echo; sleep 100"),
            LONG,
            |f| *f == Failure::LineTooLong(5000),
        ),
        (
            "ignores quit, leaves a child",
            sh("trap '' TERM; sleep 100 & while true; do sleep 1; done"),
            SHORT,
            |f| matches!(f, Failure::Timeout(_)),
        ),
    ];
    for (what, spec, wait, expected) in rows {
        let mut p = Process::start(&spec, limits, None, None).unwrap();
        let pgid = p.id();
        let _ = p.send("uci");
        let got = p.wait_for(Expect::UciOk, wait, &mut |_| {});
        match got {
            Err(f) => assert!(expected(&f), "{what}: {f}"),
            Ok(line) => panic!("{what}: got {line}"),
        }
        p.end(Duration::from_millis(100));
        assert!(gone(pgid), "{what}: its process group is still alive");
    }
}

#[test]
fn a_command_that_does_not_exist_is_a_start_failure() {
    match Process::start(
        &spec("/nonexistent/engine", &[]),
        OutputLimits::default(),
        None,
        None,
    ) {
        Err(Failure::Start(e)) => assert!(e.contains("/nonexistent/engine"), "{e}"),
        Err(f) => panic!("{f}"),
        Ok(_) => panic!("started"),
    }
}

#[test]
fn dropping_a_process_kills_its_group() {
    let p = Process::start(
        &sh("sleep 100 & sleep 100"),
        OutputLimits::default(),
        None,
        None,
    )
    .unwrap();
    let pgid = p.id();
    // Once the shell has started its first `sleep`, there is a child to be killed with it.
    let start = std::time::Instant::now();
    while common::descendants(pgid).is_empty() {
        assert!(start.elapsed() < LONG, "the shell started nothing");
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(group_alive(pgid));
    drop(p);
    assert!(gone(pgid));
}
