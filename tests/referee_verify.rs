//! Records checked against their moves on reading: a result edited after the game is
//! refused, with its file and line, by `referee merge`, `referee report` and `--resume`, and
//! left out of their totals; the records of every way the referee ends a game still verify.

use awari::record::{GameRecord, GameResult};
use std::path::Path;
use std::process::Output;

use crate::common::referee::misbehave;
use crate::common::{printed, referee, scratch, Scratch, AWARI};

fn temp(name: &str) -> Scratch {
    scratch("verify", name)
}

fn records(json: &Path) -> Vec<GameRecord> {
    std::fs::read_to_string(json)
        .unwrap()
        .lines()
        .map(|l| GameRecord::from_json(l.as_bytes()).unwrap())
        .collect()
}

/// Shard `k` of 2 of a six-game match into `dir`.
fn shard(dir: &Path, k: u32) -> Output {
    referee()
        .args(["--engine", &format!("cmd={AWARI}"), "name=A", "depth=1"])
        .args(["--engine", &format!("cmd={AWARI}"), "name=B", "depth=2"])
        .args(["--games", "6", "--shard", &format!("{k}/2"), "--out-dir"])
        .arg(dir)
        .output()
        .unwrap()
}

/// `referee merge`'s report (without the line naming the files written) and its warnings.
fn merge(dir: &Path) -> (Option<i32>, Vec<String>, String) {
    let out = referee().arg("merge").arg(dir).output().unwrap();
    let report = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.contains(" written to "))
        .map(str::to_string)
        .collect();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    (out.status.code(), report, err)
}

#[test]
fn a_result_that_does_not_follow_from_the_moves_is_refused_and_not_counted() {
    let dir = temp("flipped");
    for k in [0, 1] {
        let out = shard(&dir, k);
        assert!(out.status.success(), "{}", printed(&out));
    }
    let (code, honest, err) = merge(&dir);
    assert_eq!(code, Some(0), "{honest:?} {err}");
    assert!(!err.contains("refused"), "{err}");

    // The first game of shard 0 given the other result, its moves unchanged.
    let file = dir.join("shard-0-of-2.jsonl");
    let mut games = records(&file);
    let flipped = &mut games[0];
    let (was, now) = match flipped.result {
        GameResult::South => ("1-0", GameResult::North),
        GameResult::North => ("0-1", GameResult::South),
        other => (other.tag(), GameResult::South),
    };
    flipped.result = now;
    let round = flipped.round;
    let in_shard = games.len();
    let text: String = games.iter().map(|g| g.json() + "\n").collect();
    std::fs::write(&file, text).unwrap();

    let (code, report, err) = merge(&dir);
    let refusal = format!("shard-0-of-2.jsonl: line 1: round {round} refused");
    assert!(err.contains(&refusal), "{err}");
    assert!(
        err.contains(&format!(
            "result {} stated, but the moves give {was}",
            now.tag()
        )),
        "{err}"
    );
    // Left out: five games counted, the sixth missing.
    assert_eq!(code, Some(1), "{report:?}");
    assert!(
        report.iter().any(|l| l.contains(": 5 games,")),
        "{report:?}"
    );
    assert!(
        report
            .iter()
            .any(|l| l.starts_with("unfinished: 1 of the 6")),
        "{report:?}"
    );
    let merged = std::fs::read_to_string(dir.join("merged.jsonl")).unwrap();
    assert_eq!(merged.lines().count(), 5);
    assert!(!merged.contains(&format!("\"round\":{round},")), "{merged}");

    // `referee report` on the shard's file refuses it too.
    let html = dir.join("r.html");
    let out = referee()
        .arg("report")
        .arg(&file)
        .arg("--html")
        .arg(&html)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", printed(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("line 1: round {round} refused")),
        "{err}"
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(&format!("{} games written", in_shard - 1)),
        "{}",
        printed(&out)
    );

    // Resuming the shard plays the refused game again: the totals are the honest ones.
    let out = shard(&dir, 0);
    assert!(out.status.success(), "{}", printed(&out));
    let (code, report, err) = merge(&dir);
    assert_eq!(code, Some(0), "{report:?} {err}");
    assert_eq!(report, honest);
}

/// A match of `args` (engines and flags) into `json`; every record it writes verifies, and
/// `referee report` reads them all without a refusal. Returns the terminations.
fn verified(dir: &Path, name: &str, args: &[String]) -> Vec<String> {
    let json = dir.join(format!("{name}.jsonl"));
    let out = referee()
        .args(args)
        .arg("--jsonout")
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success(), "{name}: {}", printed(&out));
    let games = records(&json);
    assert!(!games.is_empty(), "{name}");
    for g in &games {
        assert_eq!(g.verify(), Ok(()), "{name}: {}", g.json());
    }
    let out = referee()
        .arg("report")
        .arg(&json)
        .arg("--html")
        .arg(dir.join(format!("{name}.html")))
        .output()
        .unwrap();
    assert!(out.status.success(), "{name}: {}", printed(&out));
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("refused"),
        "{name}: {}",
        printed(&out)
    );
    games.into_iter().map(|g| g.termination).collect()
}

#[test]
fn records_of_every_way_a_game_ends_verify() {
    let dir = temp("kinds");
    let awari = |name: &str| -> Vec<String> {
        vec![
            "--engine".into(),
            format!("cmd={AWARI}"),
            format!("name={name}"),
            "depth=1".into(),
        ]
    };
    let games = |n: &str| vec!["--games".to_string(), n.to_string()];
    let cases: Vec<(&str, Vec<String>, &str)> = vec![
        (
            "rules",
            [awari("A"), awari("B"), games("4")].concat(),
            "seeds",
        ),
        (
            "adjudicated",
            [
                awari("A"),
                awari("B"),
                games("2"),
                vec!["--max-plies".into(), "9".into()],
            ]
            .concat(),
            "adjudicated at the move limit",
        ),
        (
            "crash",
            [awari("A"), misbehave(&["crash-at", "3"]), games("2")].concat(),
            "exited",
        ),
        (
            "illegal",
            [awari("A"), misbehave(&["illegal"]), games("2")].concat(),
            "illegal move",
        ),
        (
            "garbage",
            [awari("A"), misbehave(&["garbage"]), games("2")].concat(),
            "forfeits: ",
        ),
        (
            "time",
            [
                awari("A"),
                misbehave(&["slow-move", "40"]),
                vec!["tc=0.1".into()],
                games("2"),
                vec!["--timemargin".into(), "50".into()],
            ]
            .concat(),
            "lost on time",
        ),
        (
            "no-start",
            [
                awari("A"),
                // It passes the handshake before the first game (an engine that does not
                // is refused then), then exits at every start, before its handshake.
                crate::common::good_once(&dir, "gone", &format!("exec '{AWARI}'"), "exit 1"),
                games("2"),
            ]
            .concat(),
            "forfeits: ",
        ),
    ];
    for (name, args, shows) in cases {
        let ends = verified(&dir, name, &args);
        assert!(ends.iter().any(|t| t.contains(shows)), "{name}: {ends:?}");
    }
}
