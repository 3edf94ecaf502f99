//! Whole matches through the `referee` binary: an engine that crashes every game loses them
//! and the match finishes with no process left; a match killed with SIGKILL resumes from its
//! JSON lines without losing or replaying a finished game, and ends with the same totals.

use awari::record::GameRecord;
use std::path::Path;
use std::process::Stdio;
use std::thread;
use std::time::{Duration, Instant};

use crate::common::{last_line, referee, scratch, Scratch};

fn temp(name: &str) -> Scratch {
    scratch("referee", name)
}

fn rounds(json: &Path) -> Vec<u64> {
    let text = std::fs::read_to_string(json).unwrap_or_default();
    let mut rounds: Vec<u64> = text
        .lines()
        .filter_map(|l| GameRecord::from_json(l.as_bytes()).ok())
        .map(|r| r.round)
        .collect();
    rounds.sort_unstable();
    rounds
}

#[test]
fn a_crashing_engine_loses_every_game_and_the_match_finishes() {
    let dir = temp("crash");
    let crasher = dir.join("crasher.sh");
    std::fs::write(
        &crasher,
        "#!/bin/sh\nwhile read -r l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; \
         go*) kill -9 $$;; esac; done\n",
    )
    .unwrap();
    let out = referee()
        .args([
            "--engine",
            &format!("cmd={}", env!("CARGO_BIN_EXE_awari")),
            "name=awari",
        ])
        .args([
            "--engine",
            "cmd=/bin/sh",
            &format!("arg={}", crasher.display()),
            "name=crasher",
        ])
        .args(["--games", "4", "--depth", "2", "--concurrency", "2"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = last_line(&out.stdout, "awari vs crasher");
    assert!(summary.contains("4 games, +4 =0 -0"), "{summary}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("forfeits: awari 0, crasher 4"));
    assert!(String::from_utf8_lossy(&out.stdout).contains("exited"));
}

#[test]
fn a_match_killed_with_sigkill_resumes_to_the_same_totals() {
    let dir = temp("resume");
    let args = |json: &Path| -> Vec<String> {
        [
            "--games",
            "12",
            "--depth",
            "4",
            "--jsonout",
            &json.display().to_string(),
        ]
        .map(String::from)
        .to_vec()
    };
    // The whole match in one go, for the totals to compare with.
    let whole = dir.join("whole.jsonl");
    let out = referee().args(args(&whole)).output().unwrap();
    assert!(out.status.success());
    let expected = last_line(&out.stdout, "awari vs evolved");
    // The same match, killed once a few games are recorded, then resumed.
    let json = dir.join("killed.jsonl");
    let mut child = referee()
        .args(args(&json))
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while rounds(&json).len() < 3 && start.elapsed() < Duration::from_secs(30) {
        thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = rounds(&json);
    assert!(before.len() >= 3 && before.len() < 12, "{before:?}");
    let out = referee()
        .args(args(&json))
        .arg("--resume")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        rounds(&json),
        (1..=12).collect::<Vec<u64>>(),
        "each game exactly once"
    );
    assert_eq!(last_line(&out.stdout, "awari vs evolved"), expected);
}

#[test]
fn log_dir_holds_each_engines_exchange_and_stderr() {
    let dir = temp("logs");
    let logs = dir.join("logs");
    let out = referee()
        .args(["--games", "2", "--depth", "2", "--log-dir"])
        .arg(&logs)
        .output()
        .unwrap();
    assert!(out.status.success());
    let mut names: Vec<String> = std::fs::read_dir(&logs)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 8, "{names:?}");
    let log = std::fs::read_to_string(logs.join("game-1-south-awari.log")).unwrap();
    assert!(log.starts_with("> uci\n< id name awari"), "{log}");
    assert!(
        log.contains("\n> go depth 2\n") && log.contains("\n< bestmove "),
        "{log}"
    );
    assert!(logs.join("game-2-north-awari.stderr").exists());
}

#[test]
fn the_shipped_opening_suites_read_and_hold_live_games() {
    use awari::referee::runner::read_openings;
    use awari::rules::Variant;
    for variant in Variant::ALL {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tournament/openings")
            .join(format!("{variant}.txt"));
        let text = std::fs::read_to_string(&path).unwrap();
        let suite = read_openings(variant, &text).unwrap_or_else(|e| panic!("{variant}: {e}"));
        assert!(suite.len() >= 50, "{variant}: {} openings", suite.len());
        assert!(suite.iter().all(|o| o.moves.len() == 4), "{variant}");
    }
    // Bad suites are refused with the line at fault.
    let rows = [
        ("AaBb\nAaXx\n", "line 2"),
        ("4-4-4-4-4-4-4-4-4-4-4-4-0-0-Q\n", "line 1"),
        ("# a comment\nAaA\n", "line 2"), // A is empty after A: an illegal move
    ];
    for (text, expected) in rows {
        match read_openings(Variant::Oware, text) {
            Err(e) => assert!(e.contains(expected), "{text:?}: {e}"),
            Ok(_) => panic!("{text:?} was accepted"),
        }
    }
}

#[test]
fn round_robin_and_gauntlet_tournaments() {
    let awari = env!("CARGO_BIN_EXE_awari");
    let engines = |names: &[(&str, u32)]| -> Vec<String> {
        names
            .iter()
            .flat_map(|(name, depth)| {
                [
                    "--engine".to_string(),
                    format!("cmd={awari}"),
                    format!("name={name}"),
                    format!("depth={depth}"),
                ]
            })
            .collect()
    };
    let three = engines(&[("d3", 3), ("d2", 2), ("d1", 1)]);
    // (tournament, pairings expected)
    for (kind, pairings) in [("round-robin", 3), ("gauntlet", 2)] {
        let out = referee()
            .args(&three)
            .args(["--games", "2", "--tournament", kind])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            text.matches(" games, ").count(),
            2 * pairings,
            "{kind}: {text}"
        );
        assert!(text.contains(&format!("standings ({kind}):")), "{text}");
        // Every game is counted once per side: the points add up to the games played.
        let points: f64 = text
            .lines()
            .skip_while(|l| !l.starts_with("standings"))
            .skip(1)
            .filter_map(|l| l.split_whitespace().nth(2)?.parse::<f64>().ok())
            .sum();
        assert_eq!(points, 2.0 * pairings as f64, "{text}");
    }
    let out = referee()
        .args(&three)
        .args(["--tournament", "swiss"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("possible values: round-robin, gauntlet"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = referee()
        .args(&three)
        .args(["--jsonout", "/tmp/x.jsonl", "--resume"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_match_of_awari_against_itself_in_every_variant_runs_to_the_end() {
    for variant in ["oware", "awari", "ahl", "kalah", "ayoayo"] {
        let out = referee()
            .args(["--variant", variant, "--games", "2", "--depth", "3"])
            .args(["--openings-order", "random", "--seed", "7"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{variant}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(&format!(", {variant}, 2 games")), "{text}");
        assert_eq!(
            text.lines().filter(|l| l.starts_with("game ")).count(),
            2,
            "{text}"
        );
        assert!(!text.contains("forfeits"), "{variant}: {text}");
    }
}

#[test]
fn sprt_stops_the_match_at_a_bound_and_records_hold_the_tags() {
    let dir = temp("sprt");
    let pgn = dir.join("games.pgn");
    let out = referee()
        .args([
            "--engine",
            &format!("cmd={}", env!("CARGO_BIN_EXE_awari")),
            "name=d4",
            "depth=4",
        ])
        .args([
            "--engine",
            &format!("cmd={}", env!("CARGO_BIN_EXE_awari")),
            "name=d1",
            "depth=1",
        ])
        .args([
            "--games",
            "400",
            "--sprt",
            "elo0=0",
            "elo1=10",
            "alpha=0.05",
            "beta=0.05",
        ])
        .arg("--pgnout")
        .arg(&pgn)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let played = text.lines().filter(|l| l.starts_with("game ")).count();
    assert!(played < 400, "the SPRT stopped nothing: {played} games");
    assert!(text.contains("H1 accepted"), "{text}");
    let pgn = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), played);
    for tag in [
        "Date",
        "Round",
        "South",
        "North",
        "Variant",
        "Result",
        "Termination",
        "PlyCount",
        "SouthTimeControl",
        "NorthTimeControl",
    ] {
        assert_eq!(pgn.matches(&format!("[{tag} \"")).count(), played, "{tag}");
    }
    // The two engines' controls differ: each side's is given, never one for both.
    assert!(!pgn.contains("[TimeControl "));
    assert!(pgn.contains("[Round \"1\"]\n[South \"d4\"]\n[North \"d1\"]\n"));
    assert!(pgn.contains("[SouthTimeControl \"depth=4\"]\n[NorthTimeControl \"depth=1\"]"));
    assert!(pgn.contains("[SouthTimeControl \"depth=1\"]\n[NorthTimeControl \"depth=4\"]"));
    // Games from the start position carry no FEN tag; moves carry {score/depth time}.
    assert!(!pgn.contains("[FEN "));
    assert!(pgn.contains("{opening}") && pgn.contains("/4 "), "{pgn}");
}

#[test]
fn referee_evolve_with_a_tiny_population() {
    let dir = temp("evolve");
    let (out_file, log) = (dir.join("w.txt"), dir.join("log.txt"));
    let out = referee()
        .args([
            "evolve",
            "--population",
            "4",
            "--survivors",
            "2",
            "--generations",
            "2",
        ])
        .args([
            "--depth",
            "2",
            "--max-moves", // the old name of --max-plies, still accepted
            "80",
            "--concurrency",
            "2",
            "--out",
        ])
        .arg(&out_file)
        .arg("--log")
        .arg(&log)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let weights: awari::classic::evolved::EvolvedWeights =
        std::fs::read_to_string(&out_file).unwrap().parse().unwrap();
    assert!(weights.0.iter().all(|w| w.is_finite()));
    let log = std::fs::read_to_string(&log).unwrap();
    assert_eq!(
        log.lines().filter(|l| l.starts_with("generation ")).count(),
        2,
        "{log}"
    );
    // Bad parameters are refused.
    let out = referee()
        .args(["evolve", "--variant", "kalah", "--generations", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = referee()
        .args(["evolve", "--population", "3", "--survivors", "5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
