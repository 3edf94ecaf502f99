//! Matches against `misbehave`, the project's test engine, in each of its modes: the referee
//! records the right result and reason, finishes the match, and leaves no process behind.

use std::path::PathBuf;

use crate::common;
use crate::common::{running, scratch, Scratch};

/// A copy of `misbehave` under a unique path, so that its processes can be found afterwards;
/// the directory holding it goes when the first is dropped.
fn private_copy(tag: &str) -> (Scratch, PathBuf) {
    let dir = scratch("misbehave", tag);
    let path = dir.join("misbehave");
    std::fs::copy(env!("CARGO_BIN_EXE_misbehave"), &path).unwrap();
    (dir, path)
}

#[test]
fn every_kind_of_misbehaviour() {
    // (mode and its argument, extra referee arguments, forfeits of misbehave in 2 games,
    //  words the output must contain)
    let rows: &[(&[&str], &[&str], u32, &str)] = &[
        (&["normal"], &["--depth", "2"], 0, "2 games"),
        (&["crash-at", "4"], &["--depth", "2"], 2, "exited"),
        (&["hang-at", "4"], &["--movetime", "50"], 2, "lost on time"),
        (&["garbage"], &["--depth", "2"], 2, "unreadable move"),
        (&["illegal"], &["--depth", "2"], 2, "illegal move"),
        (
            &["slow-start", "200"],
            &["--depth", "2", "--timeout", "2000"],
            0,
            "2 games",
        ),
        // (A timeout that awari's own handshake meets on a busy machine: it applies to both.)
        (
            &["slow-start", "2000"],
            &["--depth", "2", "--timeout", "1000"],
            2,
            "handshake",
        ),
        (
            &["no-uciok"],
            &["--depth", "2", "--timeout", "1000"],
            2,
            "handshake",
        ),
        (&["flood"], &["--depth", "2"], 2, "flooded"),
        (&["ignore-quit"], &["--depth", "2"], 0, "2 games"),
    ];
    for (i, (mode, extra, forfeits, words)) in rows.iter().enumerate() {
        let (_dir, engine) = private_copy(&i.to_string());
        let mut b = vec![
            "--engine".to_string(),
            format!("cmd={}", engine.display()),
            "name=misbehave".to_string(),
        ];
        b.extend(mode.iter().map(|a| format!("arg={a}")));
        let out = common::referee()
            .args([
                "--engine",
                &format!("cmd={}", env!("CARGO_BIN_EXE_awari")),
                "name=awari",
                // A limit of its own, so that under `--movetime 50` a busy machine cannot
                // make the real engine lose on time.
                "depth=2",
            ])
            .args(&b)
            .args(["--games", "2"])
            .args(*extra)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{mode:?}: {stdout}");
        assert!(stdout.contains(words), "{mode:?}: {stdout}");
        let counted = if *forfeits == 0 {
            !stdout.contains("forfeits:")
        } else {
            stdout.contains(&format!("forfeits: awari 0, misbehave {forfeits}"))
        };
        assert!(counted, "{mode:?}: {stdout}");
        assert_eq!(running(&engine), 0, "{mode:?}: a misbehave process is left");
    }
}

#[test]
fn ctrl_c_ends_the_referee_and_every_engine() {
    let dir = scratch("ctrl-c", "engine");
    let engine = dir.join("awari");
    std::fs::copy(env!("CARGO_BIN_EXE_awari"), &engine).unwrap();
    let cmd = format!("cmd={}", engine.display());
    let mut referee = common::referee()
        .args(["--engine", &cmd, "name=a", "--engine", &cmd, "name=b"])
        .args(["--movetime", "5000", "--games", "2"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while running(&engine) < 2 && start.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(running(&engine), 2, "both engines started");
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(referee.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let status = referee.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{status:?}");
    // The referee sent SIGKILL before it exited: an engine it reached is dying, which
    // `running` does not count (the poll only covers the instant between the kernel taking
    // the signal and marking the process as exiting).
    let start = std::time::Instant::now();
    while running(&engine) > 0 && start.elapsed() < std::time::Duration::from_secs(2) {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert_eq!(running(&engine), 0, "an engine outlived the referee");
}
