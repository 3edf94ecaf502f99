//! `awari tune` and `awari book build` in shards into one `--out-dir`, as on a cluster (without
//! the scheduler): the fit of every shard's samples is the unsharded fit, the merged book is
//! the unsharded book, and a part cut short, a part or shard of other settings, a missing
//! part and every misuse of the flags are refused with an error that names them.

use std::path::Path;
use std::process::Output;

use crate::common;
use crate::common::scratch;

fn awari(args: &[&str]) -> Output {
    // Not a task of a job array, whatever runs the tests.
    common::hermetic(env!("CARGO_BIN_EXE_awari"))
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .args(args)
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

/// Runs `args`, which must succeed; its standard output.
fn ok(args: &[&str]) -> String {
    let out = awari(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

/// Runs `args`, which must fail with status 2 and an error containing `expected`.
fn refused(args: &[&str], expected: &str) {
    let out = awari(args);
    let error = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {error}");
    assert!(error.contains(expected), "{args:?}: {error}");
    assert!(!error.contains("panicked"), "{args:?}: {error}");
}

/// A tune's report from its samples' line on, the time it took left out.
fn fit_lines(report: &str) -> Vec<String> {
    report
        .lines()
        .skip_while(|l| !l.starts_with("positions "))
        .map(|l| match l.split_once(") in ") {
            Some((head, _)) if l.starts_with("positions ") => head.to_string(),
            _ => l.to_string(),
        })
        .collect()
}

fn path(dir: &Path, name: &str) -> String {
    dir.join(name).display().to_string()
}

const TUNE: &[&str] = &[
    "tune",
    "--games",
    "7",
    "--depth",
    "2",
    "--opening-plies",
    "4",
    "--seed",
    "3",
    "--steps",
    "150",
    "--threads",
    "1",
];

#[test]
fn tune_in_three_shards_fits_as_the_whole_run() {
    let dir = scratch("jobs", "tune");
    let out = dir.display().to_string();
    let whole = fit_lines(&ok(TUNE));
    assert!(
        whole.iter().any(|l| l.starts_with("setoption ")),
        "{whole:?}"
    );
    let shard = |k: &'static str| [TUNE, &["--shard", k, "--out-dir", &out]].concat();

    ok(&shard("0/3"));
    ok(&shard("2/3"));
    // Shard 1 is missing: named, and the fit refused unless asked.
    refused(
        &["tune", "--from", &out],
        "shard(s) 1 of 3 missing (2 of the 7 games)",
    );
    let partial = ok(&["tune", "--from", &out, "--allow-missing", "--steps", "5"]);
    assert!(
        partial.contains("warning: shard(s) 1 of 3 missing"),
        "{partial}"
    );
    ok(&shard("1/3"));
    // A shard started again finds its file and plays nothing.
    assert!(ok(&shard("1/3")).contains("already: nothing played"));

    let from = ok(&["tune", "--from", &out, "--steps", "150"]);
    assert!(
        from.contains("from ") && from.contains("(3 shards)"),
        "{from}"
    );
    assert_eq!(
        fit_lines(&from),
        whole,
        "the fit of the shards is the whole run's"
    );
    // Settings given with --from must be the run's; the same ones are taken.
    ok(&["tune", "--from", &out, "--games", "7", "--seed", "3"]);
    refused(
        &["tune", "--from", &out, "--seed", "4"],
        "--seed 4: the run in",
    );

    // A shard of other settings is refused, naming what differs.
    let mut other = shard("0/3");
    other[8] = "5";
    refused(&other, "seed: 3 there, 5 here");
    refused(&shard("0/4"), "shards: 3 there, 4 here");

    // A file cut short, or another shard's under this one's name, is refused.
    let file = dir.join("tune-shard-1-of-3.json");
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    refused(
        &["tune", "--from", &out],
        "tune-shard-1-of-3.json: damaged or cut short",
    );
    std::fs::copy(dir.join("tune-shard-0-of-3.json"), &file).unwrap();
    refused(&["tune", "--from", &out], "its name says shard 1/3");
    // The shard run again replaces what is not its file.
    ok(&shard("1/3"));
    assert_eq!(
        fit_lines(&ok(&["tune", "--from", &out, "--steps", "150"])),
        whole
    );

    // A manifest of other settings: every shard's file is then another run's.
    let manifest = dir.join("tune.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, text.replace("\"depth\": 2", "\"depth\": 3")).unwrap();
    refused(
        &["tune", "--from", &out],
        "a part of another run (depth: 2 there, 3 in the manifest)",
    );
}

#[test]
fn tune_and_book_flags_are_checked() {
    let dir = scratch("jobs", "flags");
    let empty = dir.display().to_string();
    let missing = path(&dir, "none");
    // A book build's settings file, and another name of a shard's part, in the directory.
    let build = dir.join("build");
    std::fs::create_dir(&build).unwrap();
    let settings = path(&build, "book.json");
    std::fs::write(&settings, "{}").unwrap();
    std::fs::write(path(&build, "book-games-0-of-1.json"), "[]").unwrap();
    let linked = path(&dir, "linked.txt");
    std::fs::hard_link(path(&build, "book-games-0-of-1.json"), &linked).unwrap();
    let build = build.display().to_string();
    fn tune<'a>(args: &[&'a str]) -> Vec<&'a str> {
        [TUNE, args].concat()
    }
    fn book<'a>(args: &[&'a str]) -> Vec<&'a str> {
        [BOOK, args].concat()
    }
    let rows: Vec<(Vec<&str>, &str)> = vec![
        (tune(&["--shard", "0/2"]), "--out-dir <DIR>"),
        (
            tune(&["--shard", "2/2", "--out-dir", &empty]),
            "numbered from 0 to 1",
        ),
        (
            tune(&["--shard", "0/0", "--out-dir", &empty]),
            "must be 1 to",
        ),
        (
            tune(&["--shard", "x", "--out-dir", &empty]),
            "not a whole number",
        ),
        (
            tune(&["--shard", "auto", "--out-dir", &empty]),
            "neither SLURM_ARRAY_TASK_ID",
        ),
        (vec!["tune", "--from", &empty], "no tune.json there"),
        (vec!["tune", "--from", &missing], "no such directory"),
        (
            vec!["tune", "--from", &empty, "--shard", "0/2"],
            "cannot be used with",
        ),
        (vec!["tune", "--allow-missing"], "--from <DIR>"),
        (
            book(&["--shard", "0/2", "--out", "b.txt"]),
            "--shard 0/2 needs --out-dir DIR",
        ),
        (book(&[]), "--out <OUT>"),
        (
            book(&["--out", "b.txt", "--out-dir", &empty]),
            "cannot be used with",
        ),
        (
            vec!["book", "build", "--from", &empty, "--out", "b.txt"],
            "no book.json there",
        ),
        (
            book(&["--shard", "5/3", "--out-dir", &empty]),
            "numbered from 0 to 2",
        ),
        (
            vec!["book", "build", "--from", &build, "--out", &settings],
            "a file of --from",
        ),
        (
            vec!["book", "build", "--from", &build, "--out", &linked],
            "a file of --from",
        ),
        (
            vec!["book", "build", "--threads", "257", "--out", "b.txt"],
            "257 is not in 1..=256",
        ),
        (vec!["tune", "--threads", "1000"], "1000 is not in 1..=256"),
    ];
    for (args, expected) in &rows {
        refused(args, expected);
    }
    assert!(!Path::new("b.txt").exists(), "nothing was built");
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), "{}");
    assert_eq!(std::fs::read_to_string(&linked).unwrap(), "[]");
    for command in [&["tune", "--help"][..], &["book", "build", "--help"]] {
        let help = ok(command);
        for flag in ["--shard", "--out-dir", "--from", "auto/N", "E.g."] {
            assert!(
                help.contains(flag),
                "{command:?} --help lacks {flag}: {help}"
            );
        }
    }
}

const BOOK: &[&str] = &[
    "book",
    "build",
    "--plies",
    "1",
    "--depth",
    "4",
    "--games",
    "6",
    "--game-depth",
    "2",
    "--threads",
    "1",
    "--line-plies",
    "3",
    "--line-margin",
    "30",
    "--line-depth",
    "3",
];

#[test]
fn book_in_three_shards_merges_to_the_whole_book() {
    let dir = scratch("jobs", "book");
    let out = path(&dir, "parts");
    let whole = path(&dir, "whole.txt");
    let merged = path(&dir, "merged.txt");
    ok(&[BOOK, &["--out", &whole]].concat());
    let shard = |k: &'static str| [BOOK, &["--shard", k, "--out-dir", &out]].concat();

    // The first wave: each shard searches; only the last to find every search plays.
    assert!(ok(&shard("0/3")).contains("its games wait for the searches of shard(s) 1, 2 of 3"));
    refused(
        &["book", "build", "--from", &out, "--out", &merged],
        "the searches of shard(s) 1, 2 of 3 are missing",
    );
    ok(&shard("1/3"));
    assert!(ok(&shard("2/3")).contains("2 of the 6 games played"));
    refused(
        &["book", "build", "--from", &out, "--out", &merged],
        "the games of shard(s) 0, 1 of 3 are missing",
    );
    // The second wave: the same commands play the games, the searches are kept.
    for k in ["0/3", "1/3", "2/3"] {
        ok(&shard(k));
    }
    let report = ok(&["book", "build", "--from", &out, "--out", &merged]);
    // The start and its 6 children, then the main lines to ply 3: more than the 7, fewer
    // than every position to ply 3.
    let positions: usize = report
        .rsplit("book: ")
        .next()
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count of positions in {report}"));
    assert!((8..1 + 6 + 36 + 216).contains(&positions), "{report}");
    assert_eq!(
        std::fs::read_to_string(&merged).unwrap(),
        std::fs::read_to_string(&whole).unwrap(),
        "the merged book is the whole build's"
    );

    // Other settings, given to a shard or to the merge, are refused.
    let mut other = shard("1/3");
    other[7] = "8";
    refused(&other, "games: 6 there, 8 here");
    refused(
        &[
            "book", "build", "--from", &out, "--out", &merged, "--depth", "5",
        ],
        "--depth 5: the run in",
    );
    // A part cut short is refused.
    let file = Path::new(&out).join("book-games-2-of-3.json");
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() - 3]).unwrap();
    refused(
        &["book", "build", "--from", &out, "--out", &merged],
        "book-games-2-of-3.json: damaged or cut short",
    );
}

#[test]
fn worker_threads_the_system_refuses_are_an_error_not_a_panic() {
    // `awari tune` and `awari book build` start their pools of worker threads at once; under a
    // limit of 8 processes for its user, 64 threads panicked ("a thread pool"). Needs root (to
    // run as `nobody` under the limit: root ignores RLIMIT_NPROC), `setpriv` and `prlimit`.
    if let Some(why) = common::nproc_limit_unavailable() {
        common::skipped(common::Need::Root, why);
        return;
    }
    let dir = scratch("jobs", "refused-threads");
    // A folder `nobody` can write in: the threads, not the book's output, are refused.
    let open = dir.join("open");
    std::fs::create_dir(&open).unwrap();
    let anyone = std::os::unix::fs::PermissionsExt::from_mode(0o777);
    std::fs::set_permissions(&open, anyone).unwrap();
    let book = path(&open, "book.txt");
    let runs: [&[&str]; 2] = [
        &["tune", "--games", "4", "--depth", "2", "--threads", "64"],
        &[
            "book",
            "build",
            "--plies",
            "1",
            "--depth",
            "2",
            "--games",
            "2",
            "--threads",
            "64",
            "--out",
            &book,
        ],
    ];
    for args in runs {
        let out = common::as_nobody_limited(env!("CARGO_BIN_EXE_awari"), 8)
            .args(args)
            .output()
            .unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("error: could not start 64 worker threads"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    assert!(!Path::new(&book).exists());
}
