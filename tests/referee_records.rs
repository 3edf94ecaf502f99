//! The referee's records through the real `referee` binary: `--resume` after a kill at any
//! instant, a file of another match, a record glued to a fragment, a record that cannot be
//! written, a record cut mid-line, output closed early, and what never reaches the PGN.

use std::process::Stdio;
use std::time::Duration;

use crate::common;
use crate::common::referee::{awari_engine, finish, misbehave, records};
use crate::common::{last_line, referee, scratch, text, Scratch};

fn temp(name: &str) -> Scratch {
    scratch("records", name)
}

#[test]
fn killed_at_any_instant_resume_leaves_every_game_once_in_both_files() {
    let dir = temp("kills");
    let (json, pgn) = (dir.join("games.jsonl"), dir.join("games.pgn"));
    let args = |resume: bool| {
        let mut a: Vec<String> = ["--games", "12", "--depth", "2", "--concurrency", "2"]
            .map(String::from)
            .to_vec();
        a.extend(["--jsonout".to_string(), json.display().to_string()]);
        a.extend(["--pgnout".to_string(), pgn.display().to_string()]);
        if resume {
            a.push("--resume".to_string());
        }
        a
    };
    // Kills at instants spread over the run, each followed by a resume, until it finishes.
    let mut finished = false;
    for attempt in 0..60u64 {
        let mut child = referee()
            .args(args(attempt > 0))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(20 + (attempt * 37) % 250));
        if child.try_wait().unwrap().is_some() {
            finished = true;
            break;
        }
        let signal = if attempt % 3 == 2 { "INT" } else { "KILL" };
        common::hermetic("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        child.wait().unwrap();
    }
    if !finished {
        let out = referee().args(args(true)).output().unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
    } else {
        // The last run finished by itself; one more resume plays nothing and changes nothing.
        let out = referee().args(args(true)).output().unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let mut rounds: Vec<u64> = records(&json).iter().map(|r| r.round).collect();
    rounds.sort_unstable();
    assert_eq!(rounds, (1..=12).collect::<Vec<_>>(), "JSON: each game once");
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    let mut pgn_rounds: Vec<u64> = pgn_text
        .lines()
        .filter_map(|l| {
            l.strip_prefix("[Round \"")?
                .strip_suffix("\"]")?
                .parse()
                .ok()
        })
        .collect();
    pgn_rounds.sort_unstable();
    assert_eq!(
        pgn_rounds,
        (1..=12).collect::<Vec<_>>(),
        "PGN: each game once"
    );
    assert_eq!(pgn_text.matches("[Event ").count(), 12, "{pgn_text}");
}

#[test]
fn a_game_in_the_json_but_not_the_pgn_is_restored_by_resume() {
    // As a kill between the two writes leaves them: the last game in the JSON lines only,
    // and half a game at the end of the PGN.
    let dir = temp("pgn-restore");
    let (json, pgn) = (dir.join("games.jsonl"), dir.join("games.pgn"));
    let args = ["--games", "4", "--depth", "2"];
    let out = referee()
        .args(args)
        .arg("--jsonout")
        .arg(&json)
        .arg("--pgnout")
        .arg(&pgn)
        .output()
        .unwrap();
    assert!(out.status.success());
    let whole = std::fs::read_to_string(&pgn).unwrap();
    let last = whole.rfind("[Event ").unwrap();
    std::fs::write(&pgn, format!("{}[Event \"awa", &whole[..last])).unwrap();
    let out = referee()
        .args(args)
        .arg("--jsonout")
        .arg(&json)
        .arg("--pgnout")
        .arg(&pgn)
        .arg("--resume")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), whole);
}

#[test]
fn a_record_that_cannot_be_written_stops_the_match_with_an_error() {
    let out = referee()
        .args(["--games", "4", "--depth", "1", "--pgnout", "/dev/full"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("cannot write to /dev/full"),
        "{}",
        text(&out.stderr)
    );
    // The first game's record failed: nothing after it was counted.
    assert!(
        !text(&out.stdout).contains("game 2 "),
        "{}",
        text(&out.stdout)
    );
}

/// A match of `games` games at depth 3 played into `name`'s `games.jsonl`; its file rewritten
/// by `damage` (from its lines) as a kill or a full disk would leave it; and the match taken on
/// with `--resume`, which must succeed and end with the first run's totals. Gives the resumed
/// run and the folder of the file.
fn resumed_after_damage(
    name: &str,
    games: &str,
    damage: impl Fn(&[&str]) -> String,
) -> (std::process::Output, Scratch) {
    let dir = temp(name);
    let json = dir.join("games.jsonl");
    let args = ["--games", games, "--depth", "3", "--jsonout"];
    let out = referee().args(args).arg(&json).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let expected = last_line(&out.stdout, "awari vs evolved");
    let whole = std::fs::read_to_string(&json).unwrap();
    let lines: Vec<&str> = whole.lines().collect();
    std::fs::write(&json, damage(&lines)).unwrap();
    let out = referee()
        .args(args)
        .arg(&json)
        .arg("--resume")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(last_line(&out.stdout, "awari vs evolved"), expected);
    (out, dir)
}

/// The rounds of the games in `json`, in order.
fn rounds(json: &std::path::Path) -> Vec<u64> {
    let mut rounds: Vec<u64> = records(json).iter().map(|r| r.round).collect();
    rounds.sort_unstable();
    rounds
}

#[test]
fn a_record_cut_mid_line_is_played_again_on_its_own_line() {
    // Two whole lines and half of the third, as a kill during a write would leave them.
    let (_, dir) = resumed_after_damage("partial", "4", |lines| {
        format!(
            "{}\n{}\n{}",
            lines[0],
            lines[1],
            &lines[2][..lines[2].len() / 2]
        )
    });
    let json = dir.join("games.jsonl");
    assert_eq!(rounds(&json), vec![1, 2, 3, 4]);
    let whole = std::fs::read_to_string(&json).unwrap();
    assert!(
        whole
            .lines()
            .all(|l| l.starts_with('{') && l.ends_with('}')),
        "{whole}"
    );
}

#[test]
fn a_fragment_glued_to_the_next_record_is_not_read_as_a_game() {
    // Round 3's record cut short by a full disk, and round 4's written on the same line.
    let (out, dir) = resumed_after_damage("glued", "6", |lines| {
        let half = &lines[2][..lines[2].len() / 2];
        format!("{}\n{}\n{half}{}\n", lines[0], lines[1], lines[3])
    });
    let json = dir.join("games.jsonl");
    assert!(
        text(&out.stderr).contains("line 3: damaged"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(rounds(&json), vec![1, 2, 3, 4, 5, 6]);
}

#[test]
fn resume_takes_only_a_file_of_this_match() {
    let dir = temp("resume-checks");
    let json = dir.join("games.jsonl");
    let out = referee()
        .args(["--games", "8", "--depth", "2", "--jsonout"])
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success());
    let original = std::fs::read(&json).unwrap();
    let resume = |extra: &[&str]| {
        std::fs::write(&json, &original).unwrap();
        let out = referee()
            .args(extra)
            .arg("--jsonout")
            .arg(&json)
            .arg("--resume")
            .output()
            .unwrap();
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    };
    let awari = format!("cmd={}", env!("CARGO_BIN_EXE_awari"));
    // (arguments, what the error must say)
    let rows: &[(&[&str], &str)] = &[
        (
            &["--games", "6", "--depth", "2"],
            "line 7 (round 7) is not of this match: this match has rounds 1 to 6",
        ),
        (
            &["--games", "8", "--depth", "3"],
            "South's time control is \"depth=2\" in the file, \"depth=3\" in this match",
        ),
        (
            &["--games", "8", "--depth", "2", "--variant", "awari"],
            "the variant is \"oware\" in the file, \"awari\" in this match",
        ),
        (
            &[
                "--engine",
                &awari,
                "name=other",
                "depth=2",
                "--engine",
                &awari,
                "name=evolved",
                "depth=2",
                "--games",
                "8",
            ],
            "South is \"awari\" in the file, \"other\" in this match",
        ),
        (
            &["--games", "8", "--depth", "2", "--openings-order", "random"],
            "the opening is",
        ),
    ];
    for (args, says) in rows {
        let (code, _, stderr) = resume(args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        // Refused: the file is as it was.
        assert_eq!(std::fs::read(&json).unwrap(), original, "{args:?}");
    }
    // An unknown result is not a game of this referee's: refused, with the line.
    let tampered = String::from_utf8(original.clone()).unwrap().replacen(
        "\"result\":\"",
        "\"result\":\"2-",
        1,
    );
    std::fs::write(&json, &tampered).unwrap();
    let out = referee()
        .args(["--games", "8", "--depth", "2", "--jsonout"])
        .arg(&json)
        .arg("--resume")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("line 1 is not a game record of this referee: unknown variant"),
        "{}",
        text(&out.stderr)
    );
    // One byte that is not UTF-8 damages one line, not the file: that game is played again.
    let mut bytes = original.clone();
    let second = bytes.iter().position(|&b| b == b'\n').unwrap() + 3;
    bytes[second] = 0xff;
    std::fs::write(&json, &bytes).unwrap();
    let out = referee()
        .args(["--games", "8", "--depth", "2", "--jsonout"])
        .arg(&json)
        .arg("--resume")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("line 2: damaged"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        text(&out.stdout).contains(", 7 already played"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(text(&out.stdout).matches("\ngame ").count(), 1);
    assert_eq!(records(&json).len(), 8);
}

#[test]
fn an_engines_score_text_never_reaches_the_pgn() {
    let dir = temp("injection");
    let pgn = dir.join("games.pgn");
    let out = referee()
        .args(awari_engine("awari"))
        .args(misbehave(&["bad-info"]))
        .args(["--games", "2", "--depth", "1", "--pgnout"])
        .arg(&pgn)
        .output()
        .unwrap();
    assert!(out.status.success());
    let pgn = std::fs::read_to_string(&pgn).unwrap();
    assert!(!pgn.contains("Evil") && !pgn.contains("5}"), "{pgn}");
    assert_eq!(pgn.matches('{').count(), pgn.matches('}').count(), "{pgn}");
    // The engine's moves carry no score, only its depth.
    assert!(pgn.contains("{-/1 "), "{pgn}");
}

#[test]
fn output_closed_early_does_not_stop_the_match_or_lose_records() {
    use std::io::BufRead;
    // As `referee ... | head -1` does: the reader goes away after the first line.
    let dir = temp("closed-stdout");
    let json = dir.join("games.jsonl");
    let mut child = referee()
        .args(["--games", "4", "--depth", "2", "--jsonout"])
        .arg(&json)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("awari vs evolved"), "{first}");
    let out = finish(child, Duration::from_secs(120), "closed stdout");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        !text(&out.stderr).contains("panicked"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(records(&json).len(), 4);
}
