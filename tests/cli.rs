//! The real `awari` and `referee` binaries, run as a user would: output, exit codes, and clear
//! errors (never a panic) for bad arguments.

use crate::common;
use crate::common::{awari, run, text};

#[test]
fn perft_prints_divide_total_and_speed() {
    let out = awari(&["perft", "--variant", "kalah", "--depth", "5"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("perft kalah depth 5 from 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\n"),
        "{stdout}"
    );
    let per_move: u64 = stdout
        .lines()
        .filter(|l| l.len() > 2 && l.as_bytes()[1] == b' ' && l.as_bytes()[0].is_ascii_alphabetic())
        .map(|l| l[2..].parse::<u64>().unwrap())
        .sum();
    assert_eq!(per_move, 4690, "{stdout}");
    assert!(stdout.contains("\ntotal 4690\n"), "{stdout}");
    assert!(
        stdout.contains("\ntime ") && stdout.contains("\nleaves/s "),
        "{stdout}"
    );
}

#[test]
fn perft_from_a_position_and_moves() {
    let out = awari(&[
        "perft",
        "--depth",
        "3",
        "--fen",
        "1-0-1-4-1-0-0-0-0-0-0-0-22-19-S",
    ]);
    assert!(
        text(&out.stdout).contains("\nD 8\ntotal 8\n"),
        "{}",
        text(&out.stdout)
    );
    let out = awari(&["perft", "--depth", "2", "--moves", "F f E"]);
    assert!(
        text(&out.stdout).contains("from 5-5-5-5-0-1-6-6-6-5-4-0-0-0-N\n"),
        "{}",
        text(&out.stdout)
    );
    let out = awari(&[
        "perft",
        "--variant",
        "kalah",
        "--seeds",
        "6",
        "--depth",
        "1",
    ]);
    assert!(
        text(&out.stdout).contains("from 6-6-6-6-6-6-6-6-6-6-6-6-0-0-S\n"),
        "{}",
        text(&out.stdout)
    );
    let out = awari(&[
        "perft",
        "--depth",
        "2",
        "--fen",
        "0-0-0-0-0-3-0-0-0-0-1-0-25-19-N",
    ]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("game over: South wins 28-20") && stdout.contains("total 0"),
        "{stdout}"
    );
}

#[test]
fn bad_arguments_get_clear_errors_and_exit_code_2() {
    let rows: [(&[&str], &str); 15] = [
        (
            &[
                "perft",
                "--depth",
                "3",
                "--fen",
                "4-4-4-x-4-4-4-4-4-4-4-4-0-0-S",
            ],
            "--fen: field 4 (house D) at column 7: `x` is not a number",
        ),
        (
            &["perft", "--depth", "3", "--fen", "4-4-4"],
            "expected 15 fields",
        ),
        (
            &["perft", "--depth", "3", "--moves", "FfG"],
            "--moves: move list: character 3 (`G`) is not a move",
        ),
        (
            &["perft", "--depth", "3", "--moves", "FF"],
            "move 2 `F` is South's house and North is to move",
        ),
        (
            &["perft", "--depth", "3", "--variant", "chess"],
            "unknown variant `chess`",
        ),
        (&["perft", "--depth", "-1"], "--depth"),
        (
            &["perft", "--seeds", "40", "--depth", "1"],
            "--seeds: 40 seeds per house; it must be 1 to 21",
        ),
        (
            &["play", "--opponent", "deep"],
            "possible values: engine, greedy, basic, evolved",
        ),
        (&["play", "--first", "me"], "possible values: you, computer"),
        (&["bench", "--threads", "0"], "--threads"),
        (&["bench", "--depth", "0"], "--depth"),
        (&["bench", "--depth", "101"], "--depth"),
        (
            &["bench", "--tables", "/nonexistent/awari"],
            "no such directory",
        ),
        (&["tune", "--games", "0"], "--games"),
        (&["tune", "--depth", "31"], "--depth"),
    ];
    for (args, expected) in rows {
        let out = awari(args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn thread_counts_are_bounded_as_the_engines_threads_option_is() {
    // `tables build --threads 100000` once started that many threads (over 1,000 after 3 s,
    // the machine's process ids wrapping) and stalled. Every `--threads` of awari is bounded
    // as the engine's `Threads` option is, 1 to 256, and refused beyond, naming the bound.
    let dir = common::scratch("cli", "threads");
    let dir = dir.to_str().unwrap();
    let rows: [&[&str]; 6] = [
        &[
            "tables",
            "build",
            "--seeds",
            "2",
            "--dir",
            dir,
            "--threads",
            "100000",
        ],
        &[
            "tables",
            "build",
            "--seeds",
            "2",
            "--dir",
            dir,
            "--threads",
            "257",
        ],
        &[
            "tables",
            "build",
            "--seeds",
            "2",
            "--dir",
            dir,
            "--threads",
            "0",
        ],
        &["tables", "paths", "--dir", dir, "--threads", "100000"],
        &["bench", "--threads", "257"],
        &["bench", "--threads", "0"],
    ];
    for args in rows {
        let child = common::hermetic(common::AWARI)
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let out = common::output_within(child, std::time::Duration::from_secs(20))
            .unwrap_or_else(|| panic!("{args:?} still running after 20 s"));
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("--threads"), "{args:?}: {stderr}");
        assert!(stderr.contains("1..=256"), "{args:?}: {stderr}");
    }
    let written: Vec<_> = std::fs::read_dir(dir).unwrap().collect();
    assert!(written.is_empty(), "a refused build wrote {written:?}");
    // The largest count allowed is taken.
    let out = awari(&[
        "tables",
        "build",
        "--seeds",
        "2",
        "--dir",
        dir,
        "--threads",
        "256",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn referee_usage_errors_and_the_built_in_match() {
    let referee = |args: &[&str]| run(common::REFEREE, args);
    let help = referee(&["--help"]);
    assert!(help.status.success());
    assert!(text(&help.stdout).contains("Usage"));
    // (arguments, words the error must contain)
    let rows: &[(&[&str], &str)] = &[
        (
            &["--engine", "name=x", "--engine", "cmd=/bin/true"],
            "cmd=PATH is required",
        ),
        (&["--engine", "cmd=/bin/true"], "give two --engine"),
        (
            &["--engine", "cmd=a", "colour=red", "--engine", "cmd=b"],
            "unknown key 'colour'",
        ),
        (
            &["--engine", "cmd=a", "--engine", "cmd=b", "--tc", "fast"],
            "--tc fast",
        ),
        (
            &[
                "--engine", "cmd=a", "--engine", "cmd=b", "--tc", "10", "--depth", "3",
            ],
            "give one of",
        ),
        (&["--sprt", "elo0=5", "elo1=1"], "elo1 must be above elo0"),
        (
            &["--openings", "/nonexistent/suite.txt"],
            "/nonexistent/suite.txt",
        ),
        (&["--variant", "chess"], "chess"),
    ];
    for (args, expected) in rows {
        let out = referee(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    let out = referee(&["--games", "2"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("awari vs evolved: 2 games"), "{stdout}");
    // One pair plays one opening of the 36 two-ply ones.
    assert!(
        stdout.starts_with("awari vs evolved, oware, 2 games, 1 of 36 openings\n"),
        "{stdout}"
    );
    assert_eq!(stdout.lines().filter(|l| l.starts_with("game ")).count(), 2);
}

#[test]
fn version_completions_and_manual_pages() {
    for (binary, name) in [(common::AWARI, "awari"), (common::REFEREE, "referee")] {
        let out = run(binary, &["--version"]);
        assert!(out.status.success());
        let version = text(&out.stdout);
        // `awari 0.1.0 (c3b0725)`: the commit, or `unknown` outside a git checkout.
        let commit = version
            .trim()
            .strip_prefix(&format!("{name} {} (", env!("CARGO_PKG_VERSION")))
            .and_then(|rest| rest.strip_suffix(')'))
            .unwrap_or_else(|| panic!("{version}"));
        assert!(
            commit == "unknown"
                || (commit.len() >= 7 && commit.bytes().all(|b| b.is_ascii_hexdigit())),
            "{version}"
        );
        for shell in ["bash", "zsh", "fish"] {
            let out = run(binary, &["completions", shell]);
            assert!(out.status.success(), "{}", text(&out.stderr));
            let script = text(&out.stdout);
            assert!(
                script.contains(name) && script.contains("completions"),
                "{shell}"
            );
        }
        assert!(!run(binary, &["completions", "tcsh"]).status.success());
        let dir = common::scratch("man", name);
        let out = run(binary, &["man", dir.to_str().unwrap()]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let page = std::fs::read_to_string(dir.join(format!("{name}.1"))).unwrap();
        assert!(page.starts_with(".ie") || page.contains(".TH"), "{page}");
        let listed = text(&out.stdout);
        assert_eq!(
            listed.lines().count(),
            std::fs::read_dir(&*dir).unwrap().count()
        );
        let missing = dir.join("nowhere");
        let out = run(binary, &["man", missing.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        assert!(text(&out.stderr).contains("not a directory"));
    }
    let dir = common::scratch("man", "sub");
    run(common::AWARI, &["man", dir.to_str().unwrap()]);
    let page = std::fs::read_to_string(dir.join("awari-tables-build.1")).unwrap();
    assert!(page.contains("\\-\\-seeds"), "{page}");
}

#[test]
fn a_failed_write_to_stderr_ends_nothing() {
    // `eprintln!` panics when its write fails: `awari book build ... 2>/dev/full` died with
    // status 101 at its first progress line, its book not written, and every error or warning
    // (a missing directory, a corrupt layer) turned into a panic.
    let dir = common::scratch("cli", "stderr");
    let tables = dir.join("tables");
    let tables_arg = tables.to_str().unwrap();
    common::build_tables(&tables, awari::rules::Variant::Oware, 3);
    // A corrupt layer: `verify` and `probe` warn of it on stderr.
    let corrupt = awari::tables::file::layer_path(&tables, awari::rules::Variant::Oware, 3);
    let mut bytes = std::fs::read(&corrupt).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&corrupt, bytes).unwrap();
    let book = dir.join("book.txt");
    let book_arg = book.to_str().unwrap();
    let built = dir.join("built");
    let built_arg = built.to_str().unwrap();
    // (arguments, the input, the exit status, what the output must hold)
    let rows: [(&[&str], &str, i32, &str); 9] = [
        (
            &[
                "book",
                "build",
                "--plies",
                "1",
                "--depth",
                "2",
                "--games",
                "2",
                "--game-depth",
                "2",
                "--threads",
                "1",
                "--out",
                book_arg,
            ],
            "",
            0,
            "book: 7 positions",
        ),
        (
            &[
                "tables",
                "build",
                "--seeds",
                "3",
                "--threads",
                "2",
                "--dir",
                built_arg,
            ],
            "",
            0,
            "done: ",
        ),
        (
            &[
                "tables",
                "build",
                "--seeds",
                "3",
                "--dir",
                "/dev/null/tables",
            ],
            "",
            2,
            "",
        ),
        (
            &["tables", "verify", "--dir", tables_arg],
            "",
            2,
            "1 unsound",
        ),
        (
            &["tables", "verify", "--dir", "/nonexistent/awari"],
            "",
            2,
            "",
        ),
        (
            &[
                "tables",
                "probe",
                "--dir",
                tables_arg,
                "--fen",
                "1-1-0-0-0-0-0-0-0-0-0-0-23-23-S",
            ],
            "",
            0,
            "value ",
        ),
        (&["bench", "--depth", "2"], "", 0, "bench nodes "),
        (
            &[],
            "uci\nisready\nposition startpos\ngo depth 3\nquit\n",
            0,
            "bestmove ",
        ),
        (&["--no-such-flag"], "", 2, ""),
    ];
    for (args, input, status, expected) in rows {
        for (how, stderr) in common::broken_stderrs() {
            let _ = std::fs::remove_dir_all(&built);
            let mut child = common::hermetic(common::AWARI)
                .args(args)
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(stderr)
                .spawn()
                .unwrap();
            let mut stdin = child.stdin.take().unwrap();
            std::io::Write::write_all(&mut stdin, input.as_bytes()).unwrap();
            drop(stdin);
            let out = common::output_within(child, std::time::Duration::from_secs(60))
                .unwrap_or_else(|| panic!("{args:?} {how}: still running after 60 s"));
            let stdout = text(&out.stdout);
            assert_eq!(out.status.code(), Some(status), "{args:?} {how}: {stdout}");
            assert!(stdout.contains(expected), "{args:?} {how}: {stdout}");
            assert!(!stdout.contains("panicked"), "{args:?} {how}: {stdout}");
        }
    }
    assert!(book.is_file(), "the book was written");
}
