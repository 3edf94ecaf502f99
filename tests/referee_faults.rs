//! The referee's faults found by trying it as a new user would, each driven through the real
//! `referee` binary with real misbehaving engines (shell programs and `misbehave` in its
//! modes). What it writes and resumes is in `referee_records.rs`.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common;
use crate::common::referee::{awari_engine, finish, misbehave, records, stall_timeout};
use crate::common::{referee, running, scratch, text, Scratch};

fn temp(name: &str) -> Scratch {
    scratch("faults", name)
}

#[test]
fn an_engine_that_reads_nothing_cannot_block_the_referee() {
    // After its handshake before the first game it says uciok and never reads: two option
    // values of 40 KiB each fill its input pipe (64 KiB) during the handshake of each game.
    let dir = temp("deaf");
    let big = "x".repeat(40 << 10);
    let awari = format!("exec '{}'", env!("CARGO_BIN_EXE_awari"));
    let child = referee()
        .args(awari_engine("awari"))
        .args(common::good_once(
            &dir,
            "deaf",
            &awari,
            "echo uciok; exec sleep 1000",
        ))
        .arg(format!("option.A={big}"))
        .arg(format!("option.B={big}"))
        .args(["--games", "2", "--depth", "1", "--timeout"])
        .arg(stall_timeout(1500).to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = finish(child, Duration::from_secs(60), "deaf engine");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("forfeits: awari 0, deaf 2"), "{stdout}");
    assert!(
        stdout.contains("at the handshake: no readyok after isready: no answer"),
        "{stdout}"
    );
}

#[test]
fn an_engine_that_overruns_its_clock_by_less_than_the_margin_each_move_loses_on_time() {
    // 100 ms for the game, a margin of 50 ms, 40 ms a move: below zero after 3 moves, below
    // minus the margin after 4. Before, the clock stopped at zero and the margin came back
    // every move: such an engine never lost.
    let out = referee()
        .args(awari_engine("awari"))
        .arg("depth=1")
        .args(misbehave(&["slow-move", "40"]))
        .args(["tc=0.1", "--games", "2", "--timemargin", "50"])
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("forfeits: awari 0, misbehave 2"),
        "{stdout}"
    );
    assert_eq!(
        stdout.matches("forfeits: lost on time").count(),
        2,
        "{stdout}"
    );
}

#[test]
fn a_second_bestmove_never_answers_the_next_go() {
    let out = referee()
        .args(awari_engine("awari"))
        .args(misbehave(&["late-garbage"]))
        .args(["--games", "2", "--depth", "1"])
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(!stdout.contains("forfeits"), "{stdout}");
    // `referee check` does not blame it on the next check either.
    let out = referee()
        .args(["check", env!("CARGO_BIN_EXE_misbehave"), "late-garbage"])
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    for check in [
        "PASS  go depth 1 -> legal bestmove",
        "PASS  arguments in any order: go movetime 100 depth 3",
        "PASS  arguments in any order: go depth 3 movetime 100",
        "PASS  arguments in any order: go nodes 1000 wtime 5000 btime 5000",
        "PASS  middle game",
    ] {
        assert!(stdout.contains(check), "{check}: {stdout}");
    }
}

#[test]
fn check_probes_a_middle_game_that_no_book_answers() {
    let out = referee()
        .args(["check", env!("CARGO_BIN_EXE_misbehave"), "book"])
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("PASS  go depth 1 -> legal bestmove"),
        "{stdout}"
    );
    assert!(stdout.contains("FAIL  middle game"), "{stdout}");
}

#[test]
fn nothing_an_engine_starts_outlives_it_and_no_zombie_is_left() {
    let dir = temp("children");
    std::fs::copy("/bin/sleep", dir.join("sleep")).unwrap();
    let out = referee()
        .args(awari_engine("awari"))
        .args(misbehave(&["leave-children", &dir.display().to_string()]))
        .args(["--games", "6", "--depth", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stdout));
    assert!(
        !text(&out.stdout).contains("forfeits"),
        "{}",
        text(&out.stdout)
    );
    // Started with `setsid`, out of the engine's group and session: ended all the same.
    assert_eq!(
        running(&dir.join("sleep")),
        0,
        "an escaped process survived"
    );
    // At each new game, no zombie left from the games before (the referee reaps what it
    // inherits as subreaper).
    let counts = std::fs::read_to_string(dir.join("zombies")).unwrap();
    assert_eq!(counts.lines().count(), 6, "{counts}");
    assert!(
        counts.lines().all(|l| l == "0"),
        "zombies at each new game: {counts}"
    );
}

/// An engine that exits while a child of it holds its output open: its output does not end,
/// yet the referee sees the exit at once, records it with its status (not a loss on time after
/// the whole clock), and ends the child.
#[test]
fn an_engine_that_exits_leaving_a_child_on_its_output_is_seen_to_exit_at_once() {
    let dir = temp("exit-child");
    std::fs::copy("/bin/sleep", dir.join("sleep")).unwrap();
    let json = dir.join("games.jsonl");
    let clock = Duration::from_secs(20);
    // The same match with an engine that exits at its first `go` and leaves nothing behind,
    // timed on this machine as it is now: what the match costs beside any wait for a move.
    let timed = |mode: &[&str], json: &Path, what: &str| {
        let started = Instant::now();
        let child = referee()
            .args(awari_engine("awari"))
            .args(misbehave(mode))
            .args([
                "--games",
                "2",
                "--tc",
                &clock.as_secs().to_string(),
                "--jsonout",
            ])
            .arg(json)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let out = finish(child, Duration::from_secs(180), what);
        (out, started.elapsed())
    };
    let (plain, baseline) = timed(&["crash-at", "0"], &dir.join("plain.jsonl"), "a crash");
    assert!(
        text(&plain.stdout).contains("forfeits: awari 0, misbehave 2"),
        "{}",
        text(&plain.stdout)
    );
    let (out, took) = timed(
        &["exit-leaving-child", &dir.display().to_string()],
        &json,
        "exit leaving a child",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("forfeits: awari 0, misbehave 2"),
        "{stdout}"
    );
    let games = records(&json);
    assert_eq!(games.len(), 2, "{stdout}");
    for g in &games {
        assert!(
            g.termination.ends_with("forfeits: exited (status 0)"),
            "{}",
            g.termination
        );
    }
    // Each game waited for a move of misbehave's on a clock of 20 s: both together within
    // half of one clock of the plain exit's match means neither wait ran to the clock.
    assert!(
        took < baseline + clock / 2,
        "took {took:?}, the same match with a plain exit {baseline:?}: {stdout}"
    );
    assert_eq!(
        running(&dir.join("sleep")),
        0,
        "the engine's child survived"
    );
}

#[test]
fn interrupting_a_hundred_games_at_once_leaves_no_engine() {
    let dir = temp("signals");
    let sh = dir.join("engine-sh");
    std::fs::copy("/bin/sh", &sh).unwrap();
    let script = "while read -r l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; \
                  quit) exit 0;; esac; done";
    let engine = |name: &str| {
        [
            "--engine".to_string(),
            format!("cmd={}", sh.display()),
            "arg=-c".to_string(),
            format!("arg={script}"),
            format!("name={name}"),
        ]
    };
    // Too many at once is refused with the bound.
    let out = referee()
        .args(engine("a"))
        .args(engine("b"))
        .args(["--concurrency", "300"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("1..=128"),
        "{}",
        text(&out.stderr)
    );
    // More than the system's open files allow is refused with the figures; a low soft
    // limit below a high hard one is raised.
    let run_with_limit = |soft: u32, hard: u32| {
        let script = format!("ulimit -Sn {soft} && ulimit -Hn {hard} && exec \"$0\" \"$@\"");
        common::hermetic("/bin/sh")
            .args(["-c", &script, env!("CARGO_BIN_EXE_referee")])
            .args(engine("a"))
            .args(engine("b"))
            .args(["--concurrency", "100", "--games", "2", "--depth", "1"])
            .args(["--timeout", "200"])
            .output()
            .unwrap()
    };
    let out = run_with_limit(300, 300);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains(
            "--concurrency 100: 200 engines at once need about 1264 open files; \
             this system allows 300"
        ),
        "{}",
        text(&out.stderr)
    );
    let out = run_with_limit(300, 4096);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("a vs b: 2 games"),
        "{}",
        text(&out.stdout)
    );
    // Interrupted while engines are still starting, then once all are waiting on `go`.
    for wait_for in [20, 200] {
        let mut child = referee()
            .args(engine("a"))
            .args(engine("b"))
            .args(["--concurrency", "100", "--games", "200", "--depth", "1"])
            .args(["--timeout", "60000"])
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let start = Instant::now();
        while running(&sh) < wait_for && start.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(
            running(&sh) >= wait_for,
            "only {} engines started",
            running(&sh)
        );
        common::hermetic("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert_eq!(child.wait().unwrap().code(), Some(130));
        // SIGKILL was sent before the referee exited: an engine it reached is dying, which
        // `running` does not count; the poll only covers the instant between the kernel taking
        // the signal and marking the process as exiting.
        let start = Instant::now();
        while running(&sh) > 0 && start.elapsed() < Duration::from_secs(2) {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(running(&sh), 0, "engines outlived the referee");
    }
}

#[test]
fn numbers_out_of_range_are_refused_with_a_clear_error() {
    let awari = format!("cmd={}", env!("CARGO_BIN_EXE_awari"));
    // (arguments, what the error must say)
    let rows: &[(&[&str], &str)] = &[
        (
            &["--tc", "1e19"],
            "--tc 1e19: expected [moves/]seconds[+increment]",
        ),
        (&["--tc", "10+inf"], "--tc 10+inf"),
        (&["--games", "18446744073709551615"], "--games"),
        (&["--games", "0"], "--games"),
        (&["--depth", "0"], "--depth"),
        (&["--movetime", "99999999999999"], "--movetime"),
        (&["--timemargin", "70000"], "--timemargin"),
        (&["--max-plies", "0"], "--max-plies"),
        (
            &["--engine", &awari, "depth=4294967296", "--engine", &awari],
            "--engine depth=4294967296: expected a whole number from 1 to 1000",
        ),
        (
            &["--engine", &awari, "nodes=0", "--engine", &awari],
            "--engine nodes=0",
        ),
        (
            &["--engine", &awari, "tc=1e19", "--engine", &awari],
            "tc 1e19",
        ),
        (
            &[
                "--engine",
                &awari,
                "dir=/nonexistent/dir",
                "--engine",
                &awari,
            ],
            "--engine dir=/nonexistent/dir: not a directory",
        ),
        (&["--sprt", "elo1=inf"], "--sprt elo1=inf"),
    ];
    for (args, says) in rows {
        let out = referee().args(*args).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stdout)
        );
        assert!(
            text(&out.stderr).contains(says),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(!text(&out.stderr).contains("panicked"), "{args:?}");
    }
}

#[test]
fn games_nobody_played_are_no_contest_and_not_counted() {
    let dir = temp("no-contest");
    let json = dir.join("games.jsonl");
    // Both pass the handshake before the first game, then exit at every start.
    let awari = format!("exec '{}'", env!("CARGO_BIN_EXE_awari"));
    let out = referee()
        .args(common::good_once(&dir, "a", &awari, "exit 1"))
        .args(common::good_once(&dir, "b", &awari, "exit 1"))
        .args(["--games", "2", "--depth", "1", "--jsonout"])
        .arg(&json)
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    // No game could be played: the match reports them and fails.
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("a vs b: 0 games, +0 =0 -0"), "{stdout}");
    assert!(
        stdout.contains("no contest: 2 games (not counted)"),
        "{stdout}"
    );
    assert!(
        stdout.contains(": * (no contest: neither engine started"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("Elo") && !stdout.contains("forfeits"),
        "{stdout}"
    );
    let found = records(&json);
    assert_eq!(found.len(), 2);
    assert!(found.iter().all(|r| r.result.tag() == "*"));
    // Resumed once the engines are there, the games nobody played are played.
    let awari = format!("cmd={}", env!("CARGO_BIN_EXE_awari"));
    let out = referee()
        .args(["--engine", &awari, "name=a", "--engine", &awari, "name=b"])
        .args(["--games", "2", "--depth", "1", "--resume", "--jsonout"])
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("round 1 was no contest; it is played again"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        text(&out.stdout).contains("a vs b: 2 games"),
        "{}",
        text(&out.stdout)
    );
    let found = records(&json);
    assert_eq!(found.len(), 2);
    assert!(found.iter().all(|r| r.result.tag() != "*"));
}

#[test]
fn engines_are_kept_between_games_and_restarted_after_a_fault() {
    let dir = temp("keep");
    let starts = dir.join("starts");
    // A wrapper that counts its starts, then becomes the engine.
    let counted = |name: &str, engine: &str, args: &str| {
        [
            "--engine".to_string(),
            "cmd=/bin/sh".to_string(),
            "arg=-c".to_string(),
            format!(
                "arg=echo {name} >> '{}'; exec '{engine}' {args}",
                starts.display()
            ),
            format!("name={name}"),
        ]
    };
    let count = |name: &str| {
        std::fs::read_to_string(&starts)
            .unwrap_or_default()
            .lines()
            .filter(|l| *l == name)
            .count()
    };
    // (restart flag, B's misbehave mode, starts of A, starts of B, forfeits line); each
    // count holds the start for the handshake before the first game.
    let rows = [
        (None, "normal", 2, 2, None),
        (Some("always"), "normal", 7, 7, None),
        (None, "crash-at 4", 2, 7, Some("forfeits: good 0, bad 6")),
    ];
    for (restart, mode, a, b, forfeits) in rows {
        let _ = std::fs::remove_file(&starts);
        let mut cmd = referee();
        cmd.args(counted("good", env!("CARGO_BIN_EXE_awari"), ""))
            .args(counted("bad", env!("CARGO_BIN_EXE_misbehave"), mode))
            .args(["--games", "6", "--depth", "1"]);
        if let Some(r) = restart {
            cmd.args(["--restart", r]);
        }
        let out = cmd.output().unwrap();
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{mode}: {stdout}");
        assert_eq!(stdout.matches("\ngame ").count(), 6, "{stdout}");
        assert_eq!((count("good"), count("bad")), (a, b), "{restart:?} {mode}");
        match forfeits {
            Some(f) => assert!(stdout.contains(f), "{stdout}"),
            None => assert!(!stdout.contains("forfeits"), "{stdout}"),
        }
    }
}

#[test]
fn on_a_terminal_a_progress_bar_replaces_the_lines_per_game() {
    // `script` gives the referee a terminal (a pseudo-terminal) for its output.
    let referee = env!("CARGO_BIN_EXE_referee");
    let out = common::hermetic("script")
        .args([
            "-qec",
            &format!("{referee} --games 4 --depth 2"),
            "/dev/null",
        ])
        .output();
    let Ok(out) = out else {
        panic!("this test needs util-linux's `script`");
    };
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("4/4 games, awari +"), "{stdout}");
    assert!(!stdout.contains("game 1 "), "{stdout}");
    assert!(stdout.contains("awari vs evolved: 4 games"), "{stdout}");
    // Through a pipe, a line per game as before.
    let out = common::hermetic(referee)
        .args(["--games", "4", "--depth", "2"])
        .output()
        .unwrap();
    assert_eq!(text(&out.stdout).matches("\ngame ").count(), 4);
}

/// An engine that closes its input is noticed at once, whether a write then fails or every
/// line was already in the pipe (the closer that waits first), a stall names the whole
/// `--timeout`, and a match in which no game could be played exits with status 1.
#[test]
fn closed_input_stalls_and_matches_with_no_game_are_reported_as_they_are() {
    let dir = temp("item8");
    let closer = dir.join("closer.sh");
    std::fs::write(
        &closer,
        "#!/bin/sh\nread l; echo uciok; exec 0<&-; sleep 30\n",
    )
    .unwrap();
    // It closes its input after the referee's next lines are surely in the pipe: no write fails.
    let late_closer = dir.join("late_closer.sh");
    std::fs::write(
        &late_closer,
        "#!/bin/sh\nread l; echo uciok; sleep 1; exec 0<&-; sleep 30\n",
    )
    .unwrap();
    let mute = dir.join("mute.sh");
    std::fs::write(
        &mute,
        "#!/bin/sh\nwhile read -r l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; esac; done\n",
    )
    .unwrap();
    let json = dir.join("games.jsonl");
    // (the second engine, the timeout, what every game's termination says)
    let stall = stall_timeout(1000);
    let rows: [(&Path, u64, String); 3] = [
        (&closer, 10_000, "its input is closed".to_string()),
        (&late_closer, 10_000, "its input is closed".to_string()),
        (&mute, stall, format!("no answer within {stall} ms")),
    ];
    // Each passes the handshake before the first game as the engine, then misbehaves.
    let awari = format!("exec '{}'", env!("CARGO_BIN_EXE_awari"));
    for (i, (engine, timeout, says)) in rows.into_iter().enumerate() {
        let _ = std::fs::remove_file(&json);
        let marks = dir.join(i.to_string());
        std::fs::create_dir_all(&marks).unwrap();
        let bad = format!("exec /bin/sh '{}'", engine.display());
        let child = referee()
            .args(awari_engine("awari"))
            .args(common::good_once(&marks, "bad", &awari, &bad))
            .args([
                "--games",
                "2",
                "--depth",
                "2",
                "--timeout",
                &timeout.to_string(),
                "--jsonout",
            ])
            .arg(&json)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let out = finish(child, Duration::from_secs(120), &says);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let games = records(&json);
        assert_eq!(games.len(), 2);
        for g in &games {
            assert!(g.termination.contains(&says), "{says}: {}", g.termination);
        }
    }
    // No game played at all (both engines pass the handshake before the first game, then
    // exit at every start): exit status 1, and why.
    let child = referee()
        .args(common::good_once(&dir, "a", &awari, "exit 1"))
        .args(common::good_once(&dir, "b", &awari, "exit 1"))
        .args(["--games", "2", "--depth", "2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = finish(child, Duration::from_secs(60), "no game");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("no game could be played"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_failed_write_to_stderr_ends_nothing() {
    // `eprintln!` panics when its write fails: a referee run with `2>/dev/full` died with
    // status 101 at its first warning or error, its games and its answer lost.
    let dir = common::scratch("referee-faults", "stderr");
    let json = dir.join("m.jsonl");
    let html = dir.join("r.html");
    let a = format!("cmd={}", common::AWARI);
    let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    // (arguments, the exit status, what stdout must hold)
    let rows = [
        // A match whose records hold a damaged line: `--resume` warns of it, then plays.
        (
            words(&[
                "--engine",
                &a,
                "name=A",
                "depth=1",
                "--engine",
                &a,
                "name=B",
                "depth=1",
                "--games",
                "2",
                "--jsonout",
                json.to_str().unwrap(),
                "--resume",
            ]),
            0,
            "A vs B: 2 games",
        ),
        // An error: a report of records that are not there.
        (
            words(&[
                "report",
                dir.join("none.jsonl").to_str().unwrap(),
                "--html",
                html.to_str().unwrap(),
            ]),
            2,
            "",
        ),
    ];
    for i in 0..common::broken_stderrs().len() {
        for (args, status, stdout) in &rows {
            std::fs::write(&json, "{damaged\n").unwrap();
            let (label, stderr) = common::broken_stderrs().into_iter().nth(i).unwrap();
            let out = referee()
                .args(args)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(stderr)
                .output()
                .unwrap();
            let printed = text(&out.stdout);
            assert_eq!(
                out.status.code(),
                Some(*status),
                "{args:?} with {label}: {printed}"
            );
            assert!(printed.contains(stdout), "{args:?} with {label}: {printed}");
        }
    }
}
