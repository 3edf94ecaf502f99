//! Matches against `misbehave`, the project's test engine, in each of its modes: the referee
//! records the right result and reason, finishes the match, and leaves no process behind.

use std::path::PathBuf;

use crate::common;
use crate::common::referee::stall_timeout;
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
fn its_help_lists_every_mode_and_a_wrong_one_points_there() {
    // Every mode `misbehave` takes (the engine's tests and the referee's use each).
    let modes = [
        "normal",
        "crash-at K",
        "hang-at K",
        "garbage",
        "illegal",
        "slow-start MS",
        "no-uciok",
        "flood",
        "ignore-quit",
        "slow-move MS",
        "late-garbage",
        "bad-info",
        "info-after-pv",
        "book",
        "leave-children DIR",
        "exit-leaving-child DIR",
        "refuse-searchmoves MS",
    ];
    for flag in ["--help", "-h"] {
        let out = common::run(env!("CARGO_BIN_EXE_misbehave"), &[flag]);
        let help = common::text(&out.stdout);
        assert!(out.status.success(), "{flag}: {help}");
        for mode in modes {
            let listed = help.lines().any(|l| l.trim_start().starts_with(mode));
            assert!(listed, "{flag} lists {mode}: {help}");
        }
    }
    // (arguments, what the error says)
    let wrong: [(&[&str], &str); 4] = [
        (
            &["--nonsense"],
            "unknown mode '--nonsense' (`misbehave --help` lists",
        ),
        (&["crash-at"], "crash-at needs a number"),
        (&["leave-children"], "leave-children needs a directory"),
        (
            &["refuse-searchmoves", "soon"],
            "refuse-searchmoves needs a number",
        ),
    ];
    for (args, says) in wrong {
        let out = common::run(env!("CARGO_BIN_EXE_misbehave"), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = common::text(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn every_kind_of_misbehaviour() {
    // (mode and its argument, extra referee arguments, forfeits of misbehave in 2 games,
    //  words the output must contain)
    let slow_start = stall_timeout(2000).to_string();
    let rows: &[(&[&str], &[&str], u32, &str)] = &[
        (&["normal"], &["--depth", "2"], 0, "2 games"),
        (&["crash-at", "4"], &["--depth", "2"], 2, "exited"),
        (&["hang-at", "4"], &["--movetime", "50"], 2, "lost on time"),
        (&["garbage"], &["--depth", "2"], 2, "unreadable move"),
        (&["illegal"], &["--depth", "2"], 2, "illegal move"),
        (
            &["slow-start", "200"],
            &["--depth", "2", "--timeout", &slow_start],
            0,
            "2 games",
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

/// An engine that fails the handshake stops the run before its first game, whatever the run
/// (a match, an SPRT, a tournament): an error naming the engine and why, exit status 2,
/// nothing played or written, no process left. A program that is no engine would otherwise
/// lose every game, and the match would print a score as if it had been played.
#[test]
fn an_engine_that_fails_the_handshake_stops_the_run_at_once() {
    let (_dir, copy) = private_copy("handshake");
    let stall = stall_timeout(1000);
    let never_uci = format!("no uciok after uci: no answer within {stall} ms");
    let never_ready = format!("no readyok after isready: no answer within {stall} ms");
    let slower = (5 * stall).to_string();
    let misbehave = |mode: &[&str]| {
        let mut words = vec![
            "--engine".to_string(),
            format!("cmd={}", copy.display()),
            "name=bad".to_string(),
        ];
        words.extend(mode.iter().map(|a| format!("arg={a}")));
        words
    };
    let plain = |cmd: &str, args: &[&str]| {
        let mut words = vec![
            "--engine".to_string(),
            format!("cmd={cmd}"),
            "name=bad".into(),
        ];
        words.extend(args.iter().map(|a| format!("arg={a}")));
        words
    };
    let awari = |name: &str| {
        [
            "--engine",
            &format!("cmd={}", common::AWARI),
            &format!("name={name}"),
        ]
        .map(String::from)
        .to_vec()
    };
    let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    // (what, the engines and flags, why the bad one fails)
    let rows: Vec<(&str, Vec<String>, &str)> = vec![
        (
            "a program that is no engine",
            [awari("awari"), plain("/bin/cat", &[])].concat(),
            &never_uci,
        ),
        (
            "an engine that never says uciok",
            [awari("awari"), misbehave(&["no-uciok"])].concat(),
            &never_uci,
        ),
        (
            "an engine slower to start than the timeout",
            [awari("awari"), misbehave(&["slow-start", &slower])].concat(),
            &never_uci,
        ),
        (
            "a program that exits at once",
            [awari("awari"), plain("/bin/false", &[])].concat(),
            "no uciok after uci: exited (status 1)",
        ),
        (
            "an engine that never says readyok",
            [
                awari("awari"),
                plain("/bin/sh", &["-c", "read l; echo uciok; exec sleep 1000"]),
            ]
            .concat(),
            &never_ready,
        ),
        (
            "the first engine",
            [misbehave(&["no-uciok"]), awari("awari")].concat(),
            "no uciok after uci",
        ),
        (
            "an SPRT",
            [
                awari("awari"),
                misbehave(&["no-uciok"]),
                words(&["--sprt", "elo0=0", "elo1=10"]),
            ]
            .concat(),
            "no uciok after uci",
        ),
        (
            "a tournament, the bad engine last",
            [awari("a"), awari("b"), misbehave(&["no-uciok"])].concat(),
            "no uciok after uci",
        ),
        (
            "a gauntlet",
            [
                awari("a"),
                misbehave(&["no-uciok"]),
                awari("b"),
                words(&["--tournament", "gauntlet"]),
            ]
            .concat(),
            "no uciok after uci",
        ),
    ];
    for (what, args, why) in rows {
        let dir = common::scratch("handshake", "out");
        let json = dir.join("games.jsonl");
        let out = common::referee()
            .args(&args)
            .args([
                "--games",
                "2",
                "--depth",
                "1",
                "--timeout",
                &stall.to_string(),
            ])
            .arg("--jsonout")
            .arg(&json)
            .output()
            .unwrap();
        let (stdout, stderr) = (common::text(&out.stdout), common::text(&out.stderr));
        assert_eq!(out.status.code(), Some(2), "{what}: {stdout}{stderr}");
        let said = format!("error: engine bad failed its handshake: {why}");
        assert!(stderr.contains(&said), "{what}: {stderr}");
        assert!(!stdout.contains("game 1"), "{what}: {stdout}");
        assert!(!json.exists(), "{what}: a record was written");
        assert_eq!(running(&copy), 0, "{what}: a misbehave process is left");
    }
}

#[test]
fn ctrl_c_ends_the_referee_and_every_engine() {
    let dir = scratch("ctrl-c", "engine");
    let engine = dir.join("awari");
    std::fs::copy(env!("CARGO_BIN_EXE_awari"), &engine).unwrap();
    let cmd = format!("cmd={}", engine.display());
    let json = dir.join("games.jsonl");
    // Four games at once: the games the kill ends, and those that then cannot start, are
    // each a chance for a forfeit that no one played to reach the record.
    let mut referee = common::referee()
        .args(["--engine", &cmd, "name=a", "--engine", &cmd, "name=b"])
        .args(["--movetime", "5000", "--games", "8", "--concurrency", "4"])
        .arg("--jsonout")
        .arg(&json)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The count that ended the wait is the one asserted: a second look could fall between
    // the engines the referee checks before the match (started and ended at once) and the
    // match's own.
    let start = std::time::Instant::now();
    let mut seen = running(&engine);
    while seen < 8 && start.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(std::time::Duration::from_millis(5));
        seen = running(&engine);
    }
    assert_eq!(seen, 8, "the engines of four games started");
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
    // No game ended before the interrupt: the record holds none (a killed game is no result).
    let record = std::fs::read_to_string(&json).unwrap_or_default();
    assert_eq!(record, "", "games recorded after the interrupt");
}
