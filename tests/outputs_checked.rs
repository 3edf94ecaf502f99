//! Every command that writes a file at its end finds out at its start whether it can: an output
//! in a missing folder, under a regular file, a FIFO with no reader, a directory named where a
//! file is or a folder that takes no new file (a read-only mount) is refused with status 2, by
//! its flag and path, before any work: nothing printed, nothing written, no epoch trained and
//! no layer of tables solved. The same commands given an output they can make work, and leave
//! nothing of the check behind.

use crate::common;
use crate::common::disk::{snapshot, ReadOnly};
use crate::common::{printed, run_in, scratch, text, AWARI};
use awari::rules::Variant;
use nix::sys::stat::Mode;
use std::path::Path;

/// What a command writes: a file, or a directory it makes (with its missing parents) and
/// writes files into.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    File,
    Dir,
}

/// A writing command: its arguments but the output's, the output's flag and kind, and the name
/// the output gets where it can be made.
struct Writer {
    args: &'static [&'static str],
    flag: &'static str,
    kind: Kind,
    made: &'static str,
}

const BOOK: &[&str] = &[
    "book",
    "build",
    "--plies",
    "0",
    "--depth",
    "1",
    "--games",
    "0",
    "--threads",
    "1",
];

/// Every command that writes a file at its end, with settings that make its work short (so
/// that a check that let the work run fails on what it printed, not on a hang).
const WRITERS: &[Writer] = &[
    Writer {
        args: &["train", "--epochs", "1", "--threads", "1", "--data", "gen"],
        flag: "--out",
        kind: Kind::File,
        made: "net.nnue",
    },
    Writer {
        args: BOOK,
        flag: "--out",
        kind: Kind::File,
        made: "book.txt",
    },
    Writer {
        args: BOOK,
        flag: "--out-dir",
        kind: Kind::Dir,
        made: "book",
    },
    Writer {
        args: &["puzzles", "games.jsonl", "--tables", "tables"],
        flag: "--out",
        kind: Kind::File,
        made: "puzzles.txt",
    },
    Writer {
        args: &["datagen", "--games", "2", "--depth", "1", "--threads", "1"],
        flag: "--out-dir",
        kind: Kind::Dir,
        made: "gen",
    },
    Writer {
        args: &["tune", "--games", "2", "--depth", "1", "--threads", "1"],
        flag: "--out-dir",
        kind: Kind::Dir,
        made: "tune",
    },
    Writer {
        args: &["tables", "build", "--seeds", "5", "--threads", "1"],
        flag: "--dir",
        kind: Kind::Dir,
        made: "tables",
    },
];

/// The writers' inputs in `dir`: positions to train on (`gen`, from a real `awari datagen`),
/// endgame tables to 4 seeds (`tables`) and game records to find puzzles in (`games.jsonl`).
fn inputs(dir: &Path) {
    let datagen = ["datagen", "--games", "40", "--depth", "1", "--threads", "1"];
    let out = run_in(dir, AWARI, &[&datagen[..], &["--out-dir", "gen"]].concat());
    assert!(out.status.success(), "{}", printed(&out));
    common::build_tables(&dir.join("tables"), Variant::Oware, 4);
    std::fs::write(dir.join("games.jsonl"), "").unwrap();
}

/// `args` with `flag out` after them.
fn with(args: &[&str], flag: &str, out: &str) -> Vec<String> {
    args.iter()
        .chain(&[flag, out])
        .map(|s| s.to_string())
        .collect()
}

#[test]
fn an_output_that_cannot_be_made_is_refused_before_the_work() {
    let dir = scratch("outputs-checked", "refused");
    inputs(&dir);
    std::fs::write(dir.join("file"), "a regular file\n").unwrap();
    nix::unistd::mkfifo(&dir.join("fifo"), Mode::from_bits_truncate(0o600)).unwrap();
    // A folder that takes no new file, holding tables to 3 seeds: a build to resume.
    let read_only = ReadOnly::new(&dir.join("ro"), |ro| {
        common::build_tables(&ro.join("tables"), Variant::Oware, 3);
    });
    // (output, what the refusal says) for each kind of output.
    let mut cases: Vec<(Kind, &str, &str)> = vec![
        (Kind::File, "missing/out", "cannot create a file in"),
        (Kind::File, "file/out", "Not a directory"),
        (Kind::File, "fifo", "a FIFO with no reader"),
        (Kind::Dir, "file/out", "Not a directory"),
        (Kind::Dir, "fifo", "Not a directory"),
    ];
    if let Some(ro) = &read_only {
        cases.push((Kind::File, "ro/out", ro.says));
        cases.push((Kind::Dir, "ro/out", ro.says));
    }
    let mut rows: Vec<(Vec<String>, String, &str)> = Vec::new();
    for w in WRITERS {
        for &(_, out, says) in cases.iter().filter(|c| c.0 == w.kind) {
            rows.push((
                with(w.args, w.flag, out),
                format!("{} {out}: ", w.flag),
                says,
            ));
        }
    }
    if let Some(ro) = &read_only {
        // A build resumed where its layers are: refused before the first layer it lacks.
        let build = &WRITERS.iter().find(|w| w.args[0] == "tables").unwrap();
        let resumed = with(build.args, "--dir", "ro/tables");
        rows.push((resumed, "--dir ro/tables: ".into(), ro.says));
        let paths = ["tables", "paths", "--seeds", "3", "--threads", "1"];
        let paths = with(&paths, "--dir", "ro/tables");
        rows.push((paths, "--dir ro/tables: ".into(), ro.says));
    }
    let before = snapshot(&dir);
    for (args, names, says) in &rows {
        let out = run_in(&dir, AWARI, &as_strs(args));
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", printed(&out));
        // One line, the refusal: no epoch, no layer, no game, no progress line before it.
        assert!(
            stderr.starts_with(&format!("error: {names}"))
                && stderr.contains(says)
                && stderr.lines().count() == 1,
            "{args:?}: wanted {names:?} and {says:?}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{args:?}: {}", printed(&out));
        assert!(
            before == snapshot(&dir),
            "{args:?} wrote: {}",
            printed(&out)
        );
    }
}

#[test]
fn an_output_that_can_be_made_is_made_and_the_check_leaves_nothing() {
    let dir = scratch("outputs-checked", "made");
    inputs(&dir);
    std::fs::create_dir(dir.join("made")).unwrap();
    for w in WRITERS {
        let made = format!("made/{}", w.made);
        let args = with(w.args, w.flag, &made);
        let out = run_in(&dir, AWARI, &as_strs(&args));
        assert!(out.status.success(), "{args:?}: {}", printed(&out));
        let meta = std::fs::metadata(dir.join(&made)).unwrap();
        assert_eq!(meta.is_dir(), w.kind == Kind::Dir, "{args:?}");
    }
    let temporaries: Vec<_> = snapshot(&dir)
        .into_iter()
        .map(|(path, _, _)| path.display().to_string())
        .filter(|p| p.contains(".tmp-"))
        .collect();
    assert_eq!(temporaries, Vec::<String>::new());
}

fn as_strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}
