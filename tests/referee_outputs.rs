//! What the referee writes never replaces what it reads or another of its outputs: every
//! output is checked, after resolving its path, against the records, the openings, the other
//! outputs and the files of an `--out-dir`, and refused by name before anything is written.
//! Engines are told apart by name, in the records and in the log files.

use crate::common;
use crate::common::{referee, scratch, text, AWARI};
use std::path::Path;
use std::process::Output;

fn engine(name: &str) -> Vec<String> {
    vec![
        "--engine".to_string(),
        format!("cmd={AWARI}"),
        format!("name={name}"),
        "depth=1".to_string(),
    ]
}

fn run(args: &[String]) -> Output {
    referee().args(args).output().expect("the referee runs")
}

fn args(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

/// A refusal: exit status 2, nothing written, and the error names `names`.
fn assert_refused(out: &Output, what: &str, names: &[&str]) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{what}: {err}");
    for n in names {
        assert!(err.contains(n), "{what}: the error names {n}: {err}");
    }
}

/// Every file under `dir`, with its bytes.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() {
            files.extend(contents(&p));
        } else {
            files.push((path(&p), std::fs::read(&p).unwrap()));
        }
    }
    files.sort();
    files
}

#[test]
fn no_output_is_written_over_a_record_of_an_out_dir() {
    let tmp = scratch("outputs", "outdir");
    let od = tmp.join("od");
    let mut play = common::two_engines();
    play.extend(args(&["--games", "2", "--out-dir", &path(&od)]));
    let out = run(&play);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shard = od.join("shard-0-of-1.jsonl");
    assert!(shard.is_file());
    std::os::unix::fs::symlink(&shard, od.join("link.html")).unwrap();
    let before = contents(&od);

    let od_s = path(&od);
    let through_dotdot = format!("{od_s}/../od/match.json");
    let link = path(&od.join("link.html"));
    let pgn = path(&od.join("shard-0-of-1.pgn"));
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            args(&["merge", &od_s, "--html", &path(&shard)]),
            "shard-0-of-1.jsonl",
        ),
        (
            args(&["merge", &od_s, "--html", &through_dotdot]),
            "match.json",
        ),
        (args(&["merge", &od_s, "--html", &link]), "link.html"),
        (
            args(&["merge", &od_s, "--html", &path(&od.join("merged.pgn"))]),
            "merged.pgn",
        ),
        (args(&["report", &od_s, "--html", &pgn]), "shard-0-of-1.pgn"),
        (args(&["report", &od_s, "--html", &link]), "link.html"),
        (
            [
                common::two_engines(),
                args(&["--games", "4", "--out-dir", &od_s, "--html", &pgn]),
            ]
            .concat(),
            "shard-0-of-1.pgn",
        ),
        (
            [
                common::two_engines(),
                args(&[
                    "--games",
                    "2",
                    "--out-dir",
                    &od_s,
                    "--html",
                    &through_dotdot,
                ]),
            ]
            .concat(),
            "match.json",
        ),
    ];
    for (case, name) in cases {
        let out = run(&case);
        assert_refused(&out, &case.join(" "), &["--html", name]);
        assert_eq!(contents(&od), before, "{}: nothing written", case.join(" "));
    }
    // The merged files are the merge's own outputs, and a page elsewhere is fine.
    let page = tmp.join("page.html");
    let out = run(&args(&["merge", &od_s, "--html", &path(&page)]));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(page.is_file());
}

#[test]
fn a_match_refuses_outputs_that_are_one_file_or_its_openings() {
    let tmp = scratch("outputs", "flags");
    let x = path(&tmp.join("x"));
    let same_x = format!("{}/./sub/../x", path(&tmp));
    std::fs::create_dir(tmp.join("sub")).unwrap();
    let openings = tmp.join("openings.txt");
    std::fs::write(&openings, "a b\n").unwrap();
    let o = path(&openings);
    let cases: Vec<(Vec<String>, Vec<&str>)> = vec![
        (
            args(&["--jsonout", &x, "--pgnout", &same_x]),
            vec!["--jsonout", "--pgnout"],
        ),
        (
            args(&["--jsonout", &x, "--html", &x]),
            vec!["--jsonout", "--html"],
        ),
        (
            args(&["--pgnout", &o, "--openings", &o]),
            vec!["--pgnout", "--openings"],
        ),
        (
            args(&["--jsonout", &x, "--html", &o, "--openings", &o]),
            vec!["--html", "--openings"],
        ),
    ];
    for (flags, names) in cases {
        let mut case = common::two_engines();
        case.extend(args(&["--games", "2"]));
        case.extend(flags);
        let out = run(&case);
        assert_refused(&out, &case.join(" "), &names);
        assert!(
            !tmp.join("x").exists(),
            "{}: nothing written",
            case.join(" ")
        );
        assert_eq!(std::fs::read_to_string(&openings).unwrap(), "a b\n");
    }
}

#[test]
fn a_tournaments_log_files_are_distinct_per_match() {
    let tmp = scratch("outputs", "logs");
    let logs = tmp.join("logs");
    let mut case = [engine("A"), engine("B"), engine("C")].concat();
    case.extend(args(&["--games", "2", "--log-dir", &path(&logs)]));
    let out = run(&case);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let files = contents(&logs);
    let protocol: Vec<_> = files.iter().filter(|(n, _)| n.ends_with(".log")).collect();
    // Three matches of two games, each game two engines: one protocol log each.
    assert_eq!(
        protocol.len(),
        12,
        "{:?}",
        files.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    for (name, bytes) in protocol {
        let games = text(bytes).lines().filter(|l| *l == "> ucinewgame").count();
        assert_eq!(games, 1, "{name} holds one game");
    }
}

#[test]
fn engines_of_one_name_are_refused_and_a_directory_name_collision_is_named() {
    let tmp = scratch("outputs", "names");
    let mut twins = [engine("A"), engine("A")].concat();
    twins.extend(args(&["--games", "2"]));
    let out = run(&twins);
    assert_refused(&out, "two engines named A", &["\"A\"", "same name"]);

    let od = path(&tmp.join("od"));
    let mut colliding = [engine("P/Q"), engine("P_Q"), engine("R")].concat();
    colliding.extend(args(&["--games", "2", "--out-dir", &od]));
    let out = run(&colliding);
    assert_refused(
        &out,
        "P/Q and P_Q",
        &["\"P/Q\"", "\"P_Q\"", "directory name"],
    );
    assert!(
        !text(&out.stderr).contains("same name"),
        "{}",
        text(&out.stderr)
    );
    assert!(!tmp.join("od").join("tournament.json").exists());

    // Without a directory named after them, the two names are two engines.
    let mut apart = [engine("P/Q"), engine("P_Q")].concat();
    apart.extend(args(&["--games", "2"]));
    let out = run(&apart);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn an_evolutions_outputs_are_refused_when_one_is_another_or_a_file_of_its_out_dir() {
    let tmp = scratch("outputs", "evolve");
    let od = tmp.join("od");
    std::fs::create_dir_all(od.join("generation-0001")).unwrap();
    let settings = od.join("evolve.json");
    let part = od.join("generation-0001").join("shard-0-of-1.json");
    std::fs::write(&settings, "{}").unwrap();
    std::fs::write(&part, "{}").unwrap();
    let w = path(&tmp.join("w.txt"));
    let same_w = format!("{}/./od/../w.txt", path(&tmp));
    let linked = tmp.join("linked.json");
    std::fs::hard_link(&part, &linked).unwrap();
    let o = path(&od);
    // (the flags after `evolve`, what the refusal names)
    let cases: Vec<(Vec<String>, Vec<&str>)> = vec![
        (
            args(&["--out", &w, "--log", &same_w]),
            vec!["--out", "--log"],
        ),
        (
            args(&["--out", &path(&settings), "--out-dir", &o]),
            vec!["--out", "evolve.json", "--out-dir"],
        ),
        (
            args(&["--log", &path(&part), "--out-dir", &o]),
            vec!["--log", "shard-0-of-1.json"],
        ),
        (
            args(&["--out", &path(&linked), "--out-dir", &o]),
            vec!["--out", "shard-0-of-1.json"],
        ),
        (
            args(&[
                "--out",
                &format!("{o}/generation-0002/shard-1-of-2.json"),
                "--out-dir",
                &o,
            ]),
            vec!["--out", "--out-dir"],
        ),
    ];
    let before = contents(&tmp);
    for (flags, names) in cases {
        let mut case = args(&["evolve", "--population", "2", "--survivors", "1"]);
        case.extend(args(&["--generations", "1", "--depth", "1"]));
        case.extend(flags);
        let out = run(&case);
        assert_refused(&out, &case.join(" "), &names);
        assert_eq!(
            contents(&tmp),
            before,
            "{}: nothing written",
            case.join(" ")
        );
    }
}
