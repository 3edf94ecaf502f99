//! The referee as a newcomer meets it, through the real binaries: an engine that cannot be
//! started is refused before the first game with nothing written; records appended to an
//! existing file are said so, with the games already there; and `referee report` and
//! `referee merge` give the SPRT's verdict and the openings used as the match gave them.

use crate::common::{output_within, referee, scratch, text, AWARI};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Output, Stdio};
use std::time::Duration;

/// Only a guard against a hang, not a timing: each run here takes a second or two.
const LIMIT: Duration = Duration::from_secs(600);

/// `referee ARGS` run in `dir` to its end, with `env` added to its environment.
fn run_in(dir: &Path, args: &[String], env: &[(&str, String)]) -> Output {
    let mut command = referee();
    command
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, value) in env {
        command.env(key, value);
    }
    let child = command.spawn().expect("the referee starts");
    output_within(child, LIMIT).expect("the referee ends")
}

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|w| w.to_string()).collect()
}

/// `--engine` words of the awari engine named `name`, with `more` words.
fn awari(name: &str, more: &[&str]) -> Vec<String> {
    let mut w = words(&["--engine", &format!("cmd={AWARI}"), &format!("name={name}")]);
    w.extend(words(more));
    w
}

/// Writes `text` to `path` with permission bits `mode`.
fn file(path: &Path, text: &str, mode: u32) {
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// The line of `out`'s standard output that starts with `prefix`; panics without one.
fn line(out: &Output, prefix: &str) -> String {
    let stdout = text(&out.stdout);
    stdout
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starting {prefix:?} in:\n{stdout}"))
        .to_string()
}

#[test]
fn an_engine_that_cannot_be_started_is_refused_before_the_first_game() {
    let dir = scratch("newcomer", "cannot-start");
    let d = &*dir;
    std::fs::create_dir(d.join("empty")).unwrap();
    std::fs::create_dir(d.join("a-directory")).unwrap();
    file(&d.join("not-executable"), "#!/bin/sh\n", 0o644);
    file(&d.join("no-interpreter"), "#!/nonexistent/sh\n", 0o755);
    file(&d.join("no-format"), "not a program\n", 0o755);
    let empty_path = d.join("empty").display().to_string();
    // (what, engine B's cmd=, PATH for the referee, what the error says after the command)
    let rows: [(&str, &str, Option<&str>, &str); 6] = [
        ("missing", "./missing", None, "No such file or directory"),
        (
            "not executable",
            "./not-executable",
            None,
            "Permission denied",
        ),
        ("a directory", "./a-directory", None, "Permission denied"),
        (
            "its interpreter missing",
            "./no-interpreter",
            None,
            "No such file or directory",
        ),
        ("in no format", "./no-format", None, "Exec format error"),
        (
            "not on the PATH",
            "no-such-engine",
            Some(&empty_path),
            "looked up on the PATH",
        ),
    ];
    for (what, cmd, path, says) in rows {
        let mut args = awari("good", &[]);
        args.extend(words(&["--engine", &format!("cmd={cmd}"), "name=bad"]));
        args.extend(words(&["--games", "2", "--depth", "1"]));
        args.extend(words(&["--pgnout", "g.pgn", "--jsonout", "g.jsonl"]));
        args.extend(words(&["--html", "g.html", "--log-dir", "logs"]));
        let env: Vec<(&str, String)> = path.map(|p| ("PATH", p.to_string())).into_iter().collect();
        let out = run_in(d, &args, &env);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{what}: {err}");
        let names = format!("error: engine bad cannot be started here: {cmd}: ");
        assert!(err.contains(&names), "{what}: {err}");
        assert!(err.contains(says), "{what}: {err}");
        assert!(
            !text(&out.stdout).contains("game 1"),
            "{what}: a game was played"
        );
        for written in ["g.pgn", "g.jsonl", "g.html", "logs"] {
            assert!(!d.join(written).exists(), "{what}: {written} was written");
        }
    }
    // A tournament checks every engine, and a shard writes no out-dir of a match it cannot
    // play.
    let shapes: [(&str, &[&str]); 2] = [
        ("a tournament", &["--out-dir", "t"]),
        ("a shard", &["--out-dir", "t", "--shard", "0/2"]),
    ];
    for (what, more) in shapes {
        let mut args = awari("a", &[]);
        args.extend(awari("b", &[]));
        if what == "a tournament" {
            args.extend(words(&["--engine", "cmd=./missing", "name=c"]));
        } else {
            args = [
                awari("a", &[]),
                words(&["--engine", "cmd=./missing", "name=c"]),
            ]
            .concat();
        }
        args.extend(words(&["--games", "2", "--depth", "1"]));
        args.extend(words(more));
        let out = run_in(d, &args, &[]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{what}: {err}");
        assert!(
            err.contains("engine c cannot be started here: ./missing"),
            "{what}: {err}"
        );
        assert!(!d.join("t").exists(), "{what}: the out-dir was written");
    }
    // Engines that start play: a program found on the PATH as the games find it, and scripts
    // run by their interpreters (a path found on the PATH too).
    std::fs::create_dir(d.join("bin")).unwrap();
    let script = format!("exec '{AWARI}' \"$@\"\n");
    file(
        &d.join("bin/sh-engine"),
        &format!("#!/bin/sh\n{script}"),
        0o755,
    );
    file(
        &d.join("env-engine"),
        &format!("#!/usr/bin/env sh\n{script}"),
        0o755,
    );
    let beside = Path::new(AWARI).parent().unwrap().display().to_string();
    let path = format!("{beside}:{}:/usr/bin:/bin", d.join("bin").display());
    let rows = [
        ("awari", "found on the PATH"),
        ("./bin/sh-engine", "a script"),
        ("./env-engine", "a script through env"),
        ("sh-engine", "a script found on the PATH"),
    ];
    for (cmd, what) in rows {
        let mut args = awari("good", &[]);
        args.extend(words(&["--engine", &format!("cmd={cmd}"), "name=other"]));
        args.extend(words(&["--games", "2", "--depth", "1"]));
        let out = run_in(d, &args, &[("PATH", path.clone())]);
        assert!(out.status.success(), "{what}: {}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(
            stdout.contains("good vs other: 2 games"),
            "{what}: {stdout}"
        );
        assert!(!stdout.contains("forfeits"), "{what}: {stdout}");
    }
}

/// The check of the commands before the first game runs none of an engine's code: a wrapper
/// that counts its starts (or one that logs in to another machine) is started twice per
/// engine, for its handshake before the first game and for the games.
#[test]
fn the_check_runs_no_engine_code() {
    let dir = scratch("newcomer", "no-code");
    let starts = dir.join("starts");
    let counted = |name: &str| {
        words(&[
            "--engine",
            "cmd=/bin/sh",
            "arg=-c",
            &format!("arg=echo {name} >> '{}'; exec '{AWARI}'", starts.display()),
            &format!("name={name}"),
        ])
    };
    let args = [
        counted("a"),
        counted("b"),
        words(&["--games", "4", "--depth", "1"]),
    ]
    .concat();
    let out = run_in(&dir, &args, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let starts = std::fs::read_to_string(&starts).unwrap();
    let mut lines: Vec<&str> = starts.lines().collect();
    lines.sort_unstable();
    assert_eq!(
        lines,
        ["a", "a", "b", "b"],
        "each engine started for its handshake, then for the games"
    );
}

/// A PGN another program wrote: tags without an Event, moves over several lines.
const FOREIGN_PGN: &str = "[White \"x\"]\n[Black \"y\"]\n\nFfEa {a comment}\nDd 1-0\n\n\
[White \"y\"]\n[Black \"x\"]\n[Result \"0-1\"]\n\nAa 0-1\n\n[Site \"z\"]\n\n*\n";

#[test]
fn records_appended_to_are_said_with_the_games_already_there() {
    let dir = scratch("newcomer", "append");
    let d = &*dir;
    let outputs = words(&["--pgnout", "g.pgn", "--jsonout", "g.jsonl"]);
    let args = [
        awari("a", &[]),
        awari("b", &[]),
        words(&["--games", "2", "--depth", "1"]),
        outputs.clone(),
    ]
    .concat();
    let first = run_in(d, &args, &[]);
    assert!(first.status.success(), "{}", text(&first.stderr));
    assert!(
        !text(&first.stderr).contains("appending"),
        "new files: {}",
        text(&first.stderr)
    );
    let second = run_in(d, &args, &[]);
    assert!(second.status.success(), "{}", text(&second.stderr));
    let err = text(&second.stderr);
    for said in [
        "--pgnout g.pgn: appending to 2 games already there",
        "--jsonout g.jsonl: appending to 2 games already there",
    ] {
        assert!(err.contains(said), "{said}: {err}");
    }
    let pgn = std::fs::read_to_string(d.join("g.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 4, "the games appended");
    // Another program's PGN is counted by its games, whatever its tags; an empty file holds
    // none.
    let rows = [
        (FOREIGN_PGN, "appending to 3 games already there"),
        ("", ""),
    ];
    for (before, said) in rows {
        std::fs::write(d.join("other.pgn"), before).unwrap();
        let args = [
            awari("a", &[]),
            awari("b", &[]),
            words(&["--games", "2", "--depth", "1", "--pgnout", "other.pgn"]),
        ]
        .concat();
        let out = run_in(d, &args, &[]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let err = text(&out.stderr);
        if said.is_empty() {
            assert!(!err.contains("appending"), "an empty file: {err}");
        } else {
            assert!(
                err.contains(&format!("--pgnout other.pgn: {said}")),
                "{err}"
            );
        }
    }
    // A resumed match continues its own records: nothing to say.
    let resumed = [
        awari("a", &[]),
        awari("b", &[]),
        words(&["--games", "4", "--depth", "1", "--resume"]),
        outputs,
    ]
    .concat();
    std::fs::remove_file(d.join("g.jsonl")).unwrap();
    std::fs::remove_file(d.join("g.pgn")).unwrap();
    let out = run_in(d, &args, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = run_in(d, &resumed, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        !text(&out.stderr).contains("appending"),
        "{}",
        text(&out.stderr)
    );
}

/// A match that an SPRT stops: the evolved player (its own depth 7) against the engine at
/// depth 3, which wins nearly every game, so that the SPRT decides within a few dozen games.
fn sprt_match(games: &str) -> Vec<String> {
    [
        awari("a", &["option.Opponent=evolved"]),
        awari("b", &[]),
        words(&["--games", games, "--depth", "3"]),
        words(&["--sprt", "elo0=0", "elo1=50"]),
    ]
    .concat()
}

#[test]
fn report_gives_the_verdict_the_match_gave() {
    let dir = scratch("newcomer", "report");
    let d = &*dir;
    let args = [sprt_match("100"), words(&["--jsonout", "s.jsonl"])].concat();
    let out = run_in(d, &args, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let verdict = line(&out, "SPRT ");
    assert!(verdict.contains(" accepted"), "the SPRT decided: {verdict}");
    let result = line(&out, "a vs b: ");
    let report = |records: &str, more: &[&str]| {
        let args = [words(&["report", records, "--html", "s.html"]), words(more)].concat();
        let out = run_in(d, &args, &[]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        out
    };
    let out = report("s.jsonl", &[]);
    assert_eq!(line(&out, "SPRT "), verdict);
    assert_eq!(line(&out, "a vs b: "), result);
    let page = std::fs::read_to_string(d.join("s.html")).unwrap();
    assert!(page.contains("\"llr_bounds\":["), "the page shows the SPRT");
    // Records written without the SPRT's settings still read: no SPRT then, unless given.
    let old: String = std::fs::read_to_string(d.join("s.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            let mut record: serde_json::Value = serde_json::from_str(l).unwrap();
            assert!(record["sprt"]["model"] == "normalized", "{l}");
            record.as_object_mut().unwrap().remove("sprt");
            record.to_string() + "\n"
        })
        .collect();
    std::fs::write(d.join("old.jsonl"), old).unwrap();
    let out = report("old.jsonl", &[]);
    assert_eq!(line(&out, "a vs b: "), result);
    assert!(!text(&out.stdout).contains("SPRT"), "{}", text(&out.stdout));
    let out = report("old.jsonl", &["--sprt", "elo0=0", "elo1=50"]);
    assert_eq!(line(&out, "SPRT "), verdict);
}

#[test]
fn merge_gives_the_openings_and_the_verdict_of_the_match() {
    let dir = scratch("newcomer", "merge");
    let d = &*dir;
    // The match's first line, as an unsharded match prints it.
    let out = run_in(d, &sprt_match("40"), &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let first = text(&out.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string();
    assert_eq!(first, "a vs b, oware, 40 games, 20 of 36 openings");
    for shard in ["0/2", "1/2"] {
        let args = [
            sprt_match("40"),
            words(&["--out-dir", "m", "--shard", shard]),
        ]
        .concat();
        let out = run_in(d, &args, &[]);
        assert!(out.status.success(), "{shard}: {}", text(&out.stderr));
    }
    let merged = run_in(d, &words(&["merge", "m"]), &[]);
    assert_eq!(
        text(&merged.stdout).lines().next(),
        Some(first.as_str()),
        "{}",
        text(&merged.stdout)
    );
    let verdict = line(&merged, "SPRT ");
    assert!(verdict.contains(" accepted"), "{verdict}");
    // The merged records and the directory report the same verdict.
    for records in ["m/merged.jsonl", "m"] {
        let args = words(&["report", records, "--html", "m.html"]);
        let out = run_in(d, &args, &[]);
        assert!(out.status.success(), "{records}: {}", text(&out.stderr));
        assert_eq!(line(&out, "SPRT "), verdict, "{records}");
    }
}
