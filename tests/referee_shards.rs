//! Matches played in shards into one `--out-dir`, as on a cluster (without the scheduler:
//! `tests/slurm.rs` runs them under a real Slurm): the merged report equals the unsharded
//! match's, a shard killed mid-game and started again goes on where it was, records of
//! another match are refused, and the SPRT runs over every shard's games at once.

use awari::cluster::shard::Shard;
use awari::record::GameRecord;
use awari::referee::figures::Figures;
use awari::referee::outdir;
use awari::referee::runner::{Sprt, Tally};
use std::path::Path;
use std::process::Output;

use crate::common::{printed as text, referee, scratch, Scratch, AWARI};

fn temp(name: &str) -> Scratch {
    scratch("shards", name)
}

/// A match of `games` games between the engine at depth 2 (A) and at depth 3 (B).
fn match_args(games: u64) -> Vec<String> {
    [
        "--engine",
        &format!("cmd={AWARI}"),
        "name=A",
        "depth=2",
        "--engine",
        &format!("cmd={AWARI}"),
        "name=B",
        "--depth",
        "3",
        "--games",
        &games.to_string(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn run(args: &[String], extra: &[&str]) -> Output {
    referee().args(args).args(extra).output().unwrap()
}

/// `referee merge DIR`: its status and report, less the line naming the files it wrote.
fn merge(dir: &Path) -> (Option<i32>, Vec<String>) {
    let out = referee().arg("merge").arg(dir).output().unwrap();
    let report = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.contains(" written to "))
        .map(str::to_string)
        .collect();
    (out.status.code(), report)
}

/// The merged records with what varies from run to run (the time each move took) left out.
fn games(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("merged.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            let mut r = GameRecord::from_json(l.as_bytes()).unwrap();
            r.info.iter_mut().for_each(|i| i.ms = 0);
            r.json()
        })
        .collect()
}

#[test]
fn four_shards_merge_into_the_unsharded_match() {
    let args = match_args(24);
    let whole = temp("whole");
    let out = run(&args, &["--out-dir", &whole.display().to_string()]);
    assert!(out.status.success(), "{}", text(&out));
    let sharded = temp("sharded");
    // The shards run at once, as a job array's tasks would.
    let shards: Vec<_> = (0..4)
        .map(|k| {
            referee()
                .args(&args)
                .args(["--shard", &format!("{k}/4"), "--out-dir"])
                .arg(&*sharded)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for (k, child) in shards.into_iter().enumerate() {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "shard {k}: {}", text(&out));
        assert!(
            text(&out).contains(&format!("shard {k}/4: 6 of the games")),
            "{}",
            text(&out)
        );
    }
    let (code, report) = merge(&sharded);
    assert_eq!(code, Some(0), "{report:?}");
    assert_eq!((code, report.clone()), merge(&whole));
    assert!(report[2].starts_with("A vs B: 24 games, "), "{report:?}");
    // The unsharded run printed the same totals itself.
    let printed = String::from_utf8_lossy(&out.stdout).to_string();
    for line in &report[2..] {
        assert!(printed.contains(line.as_str()), "{line} not in {printed}");
    }
    let merged = games(&sharded);
    assert_eq!(merged, games(&whole));
    let rounds: Vec<u64> = merged
        .iter()
        .map(|l| GameRecord::from_json(l.as_bytes()).unwrap().round)
        .collect();
    assert_eq!(rounds, (1..=24).collect::<Vec<_>>());
}

#[test]
fn a_shard_started_again_goes_on_and_merge_says_what_is_missing() {
    let args = match_args(16);
    let dir = temp("resume");
    let shard = |k: u64| {
        let out = run(
            &args,
            &[
                "--shard",
                &format!("{k}/2"),
                "--out-dir",
                &dir.display().to_string(),
            ],
        );
        assert!(out.status.success(), "{}", text(&out));
        text(&out)
    };
    shard(0);
    // Shard 1 not run yet: the merge reports shard 0's games and what is missing.
    let (code, report) = merge(&dir);
    assert_eq!(code, Some(1), "{report:?}");
    assert!(report[2].starts_with("A vs B: 8 games"), "{report:?}");
    assert!(
        report
            .last()
            .unwrap()
            .contains("8 of the 16 games are not in the records yet"),
        "{report:?}"
    );
    // A shard killed while writing: its last record cut short. Started again, it plays that
    // game again and no other.
    let file = outdir::shard_path(
        &dir,
        awari::cluster::shard::Shard { index: 0, count: 2 },
        "jsonl",
    );
    let whole = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = whole.lines().collect();
    let cut = format!(
        "{}\n{}",
        lines[..lines.len() - 1].join("\n"),
        &lines[lines.len() - 1][..40]
    );
    std::fs::write(&file, cut).unwrap();
    let (_, report) = merge(&dir);
    assert!(report[2].starts_with("A vs B: 7 games"), "{report:?}");
    let again = shard(0);
    assert!(again.contains("7 already played"), "{again}");
    assert!(again.contains("cut short"), "{again}");
    assert_eq!(std::fs::read_to_string(&file).unwrap().lines().count(), 8);
    shard(1);
    let (code, report) = merge(&dir);
    assert_eq!(code, Some(0), "{report:?}");
    assert!(report[2].starts_with("A vs B: 16 games"), "{report:?}");
}

#[test]
fn records_of_another_match_are_refused_with_what_differs() {
    let dir = temp("foreign");
    let out = run(
        &match_args(4),
        &["--shard", "0/2", "--out-dir", &dir.display().to_string()],
    );
    assert!(out.status.success(), "{}", text(&out));
    // Another shard with other settings: refused before it plays, naming the difference.
    let mut other = match_args(4);
    other[8] = "4".to_string(); // --depth 4
    let out = run(
        &other,
        &["--shard", "1/2", "--out-dir", &dir.display().to_string()],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("holds another match") && text(&out).contains("time controls"),
        "{}",
        text(&out)
    );
    // A record of another match put into a shard file: merge refuses it and names it.
    let elsewhere = temp("foreign-other");
    let out = run(&other, &["--out-dir", &elsewhere.display().to_string()]);
    assert!(out.status.success(), "{}", text(&out));
    let foreign = std::fs::read_to_string(elsewhere.join("shard-0-of-1.jsonl")).unwrap();
    let foreign = foreign.lines().nth(2).unwrap();
    std::fs::write(dir.join("shard-1-of-2.jsonl"), format!("{foreign}\n")).unwrap();
    let (code, report) = merge(&dir);
    assert_eq!(code, Some(2), "{report:?}");
    let out = referee().arg("merge").arg(&*dir).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("shard-1-of-2.jsonl: line 1 (round 3) is not of this match")
            && err.contains("time control is \"depth=4\" in the file, \"depth=3\""),
        "{err}"
    );
    // Not a match directory at all.
    let empty = temp("foreign-empty");
    let (code, _) = merge(&empty);
    assert_eq!(code, Some(2));
}

#[test]
fn the_sprt_counts_every_shards_games_and_stops_them_all() {
    // Depth 1 against depth 5: decided in a few dozen games of the 2,000.
    let args: Vec<String> = [
        "--engine",
        &format!("cmd={AWARI}"),
        "name=weak",
        "depth=1",
        "--engine",
        &format!("cmd={AWARI}"),
        "name=strong",
        "depth=5",
        "--depth",
        "3",
        "--games",
        "2000",
        "--sprt",
        "elo0=0",
        "elo1=50",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let dir = temp("sprt");
    let shards: Vec<_> = (0..3)
        .map(|k| {
            referee()
                .args(&args)
                .args(["--shard", &format!("{k}/3"), "--out-dir"])
                .arg(&*dir)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in shards {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", text(&out));
    }
    let verdict = outdir::read_verdict(&dir)
        .unwrap()
        .expect("the SPRT decided");
    assert_eq!(verdict.accepted, "H0");
    let (code, report) = merge(&dir);
    assert_eq!(code, Some(0), "{report:?}");
    let sprt_line = report.iter().find(|l| l.starts_with("SPRT")).unwrap();
    assert!(sprt_line.ends_with("H0 accepted"), "{report:?}");
    let played: usize = outdir::shard_files(&dir)
        .unwrap()
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap().lines().count())
        .sum();
    assert!(played < 300, "{played} games: the shards did not stop");
    // Every shard stopped within the game it was playing: at most one each after the verdict.
    assert!(
        played <= verdict.rounds.len() + 3,
        "{played} games, {} counted",
        verdict.rounds.len()
    );
    // The verdict is the union's: it counts games of more than one shard, and those games
    // decide. (Whether one shard's games alone would have decided depends on how the machine
    // shared its time among the shards: one that ran ahead may have.)
    let sprt = Sprt {
        elo0: 0.0,
        elo1: 50.0,
        alpha: 0.05,
        beta: 0.05,
    };
    let mut from = std::collections::BTreeSet::new();
    let mut union = Tally::default();
    for &round in &verdict.rounds {
        let k = ((round - 1) / 2) % 3;
        from.insert(k);
        let record = std::fs::read_to_string(dir.join(format!("shard-{k}-of-3.jsonl")))
            .unwrap()
            .lines()
            .map(|l| GameRecord::from_json(l.as_bytes()).unwrap())
            .find(|r| r.round == round)
            .unwrap_or_else(|| panic!("round {round} of the verdict is in no record of shard {k}"));
        union.add(round, record.result.half_points(round % 2 == 1));
    }
    assert!(
        union.sprt_decided(&sprt),
        "the verdict's games do not decide"
    );
    assert!(from.len() > 1, "the verdict counts one shard's games only");
}

/// The verdict the shards write to sprt.json is the one the report prints, whatever the
/// parameters. With alpha + beta at or above 1 (the command line refuses them: the SPRT is
/// meaningless there) the bounds cross, lower above upper, and an LLR between them at or
/// below 0 is the case where a verdict by the LLR's sign and one by the bounds differ.
#[test]
fn the_shards_verdict_is_the_reports_even_for_crossed_bounds() {
    let args: Vec<String> = [
        "--engine",
        &format!("cmd={AWARI}"),
        "name=weak",
        "depth=1",
        "--engine",
        &format!("cmd={AWARI}"),
        "name=strong",
        "depth=5",
        "--games",
        "4",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let dir = temp("crossed");
    let out = run(&args, &["--out-dir", &dir.display().to_string()]);
    assert!(out.status.success(), "{}", text(&out));
    let manifest = outdir::read_manifest(&dir).unwrap().expect("a manifest");
    let sprt = Sprt {
        elo0: 0.0,
        elo1: 50.0,
        alpha: 0.99,
        beta: 0.99,
    };
    let mut union = outdir::Union::new(&dir, manifest.schedule.clone());
    union.refresh().unwrap();
    let totals = union.tally().totals;
    assert!(union.sprt_decided(&sprt, Shard::WHOLE).unwrap());
    let verdict = outdir::read_verdict(&dir).unwrap().expect("a verdict");
    // The case where a verdict by the sign differs from one by the bounds: the LLR at or
    // below 0 and at or above the upper bound (about -4.6 here).
    assert!(
        verdict.llr <= 0.0 && verdict.llr > -4.5,
        "LLR {}: {totals:?}",
        verdict.llr
    );
    let report = Figures::of(&totals, ["weak", "strong"], Some(sprt)).lines();
    let line = report.iter().find(|l| l.starts_with("SPRT")).unwrap();
    assert!(
        line.ends_with(&format!(" {} accepted", verdict.accepted)),
        "sprt.json accepted {}, the report says {line}",
        verdict.accepted
    );
}

#[test]
fn a_sharded_tournament_merges_into_the_standings_of_the_unsharded_one() {
    let args: Vec<String> = [
        "--engine",
        &format!("cmd={AWARI}"),
        "name=d1",
        "depth=1",
        "--engine",
        &format!("cmd={AWARI}"),
        "name=d2",
        "depth=2",
        "--engine",
        &format!("cmd={AWARI}"),
        "name=d3",
        "--depth",
        "3",
        "--games",
        "8",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let whole = temp("tournament-whole");
    let whole_out = run(&args, &["--out-dir", &whole.display().to_string()]);
    assert!(whole_out.status.success(), "{}", text(&whole_out));
    let sharded = temp("tournament-sharded");
    let first = run(
        &args,
        &[
            "--shard",
            "0/2",
            "--out-dir",
            &sharded.display().to_string(),
        ],
    );
    assert!(first.status.success(), "{}", text(&first));
    assert!(
        text(&first).contains("this shard's games only"),
        "{}",
        text(&first)
    );
    // Half the games of every match: the merge says each is unfinished.
    let (code, report) = merge(&sharded);
    assert_eq!(code, Some(1), "{report:?}");
    assert_eq!(
        report
            .iter()
            .filter(|l| l.starts_with("unfinished: 4 of the 8 games"))
            .count(),
        3,
        "{report:?}"
    );
    let out = run(
        &args,
        &[
            "--shard",
            "1/2",
            "--out-dir",
            &sharded.display().to_string(),
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let (code, report) = merge(&sharded);
    assert_eq!(code, Some(0), "{report:?}");
    assert_eq!((code, report.clone()), merge(&whole));
    let standings = report
        .iter()
        .position(|l| l.starts_with("standings (round-robin)"))
        .expect("standings");
    // The unsharded tournament printed the same standings itself.
    let printed = text(&whole_out);
    for line in &report[standings..] {
        assert!(printed.contains(line.as_str()), "{line} not in {printed}");
    }
}

/// The LLR in a figures line `SPRT nElo0=.. nElo1=..: LLR x (lower, upper) verdict`, checked
/// to be finite and to end with a verdict.
fn sprt_llr(line: &str) -> f64 {
    let llr: f64 = line
        .split("LLR ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("no LLR in {line:?}"));
    assert!(llr.is_finite(), "{line}");
    assert!(
        ["H0 accepted", "H1 accepted", "undecided"]
            .iter()
            .any(|v| line.ends_with(v)),
        "{line}"
    );
    llr
}

/// Hypotheses hundreds of normalized Elo apart are within the accepted -1000..1000 and are
/// tested like any other: a match (two games at once), its report, shards and their reruns
/// and merge all give an LLR and a verdict.
#[test]
fn a_wide_sprt_hypothesis_gives_a_verdict_everywhere() {
    let engines = [
        "--engine",
        &format!("cmd={AWARI}"),
        "name=weak",
        "depth=1",
        "--engine",
        &format!("cmd={AWARI}"),
        "name=strong",
        "depth=4",
    ]
    .map(|s| s.to_string());
    let sprt = ["--sprt", "elo0=0", "elo1=400"];
    let dir = temp("wide-sprt");
    let json = dir.join("games.jsonl");
    let out = referee()
        .args(&engines)
        .args(["--games", "8", "--concurrency", "2"])
        .args(sprt)
        .arg("--jsonout")
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().find(|l| l.starts_with("SPRT")).unwrap();
    sprt_llr(line);
    // Every game played, the one running when the verdict came included, is recorded.
    let played = stdout.lines().filter(|l| l.starts_with("game ")).count();
    let recorded = std::fs::read_to_string(&json).unwrap().lines().count();
    assert_eq!(played, recorded, "{stdout}");

    let html = dir.join("report.html");
    let out = referee()
        .arg("report")
        .arg(&json)
        .arg("--html")
        .arg(&html)
        .args(sprt)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("SPRT nElo0=0 nElo1=400: LLR "), "{page}");

    let shards = temp("wide-sprt-shards");
    // Each shard twice: the rerun reads the finished games and its verdict again.
    for k in [0, 1, 0, 1] {
        let out = referee()
            .args(&engines)
            .args(["--games", "8", "--shard", &format!("{k}/2"), "--out-dir"])
            .arg(&*shards)
            .args(sprt)
            .output()
            .unwrap();
        assert!(out.status.success(), "shard {k}: {}", text(&out));
    }
    let (code, report) = merge(&shards);
    assert_eq!(code, Some(0), "{report:?}");
    sprt_llr(report.iter().find(|l| l.starts_with("SPRT")).unwrap());
}
