//! `awari tables` from the command line: `probe` prints a position's value and each move's,
//! `paths` writes and resumes a layer's share per file, `verify` checks every byte.

use awari::rules::{Board, Move, Variant};
use awari::tables::file::{layer_path, Layer};
use awari::tables::{Tables, Value};

use crate::common;
use crate::common::tables::{awari, read};
use crate::common::{build_tables, Scratch};

fn scratch(tag: &str) -> Scratch {
    common::scratch("tables", tag)
}

#[test]
fn probe_prints_the_value_then_each_move() {
    let dir = scratch("probe");
    build_tables(&dir, Variant::Oware, 6);
    let d = dir.to_str().unwrap();
    // South: F sows one seed into a; North's e and f hold 2 and 1. Every line's value is one
    // the tables hold, and the best move's value is the position's.
    let fen = "0-0-1-0-0-1-0-0-0-0-2-1-20-20-S";
    let (ok, out, err) = awari(&["tables", "probe", "--dir", d, "--fen", fen]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let tables = Tables::open(&dir, Variant::Oware);
    let board = Board::from_notation(Variant::Oware, fen).unwrap();
    let value = tables.probe(&board).unwrap();
    let shown = |v: Value| match v.exact() {
        Some(x) => x.to_string(),
        None => format!("{}..{}", v.lo, v.hi),
    };
    assert_eq!(lines[0], format!("value {}", shown(value)));
    let legal: Vec<Move> = board.legal_moves().collect();
    assert_eq!(lines.len(), 1 + legal.len(), "{out}");
    let mut best_lo = 0;
    for (line, m) in lines[1..].iter().zip(legal) {
        let (name, v) = line.split_once(' ').unwrap();
        assert_eq!(name, m.to_string());
        let lo: u8 = v.split("..").next().unwrap().parse().unwrap();
        best_lo = best_lo.max(lo);
    }
    assert_eq!(best_lo, value.lo, "the position is worth its best move");

    // Errors: no tables there, a position beyond them, a rule set without tables, bad input.
    let empty = scratch("probe-empty");
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "tables",
                "probe",
                "--dir",
                empty.to_str().unwrap(),
                "--fen",
                fen,
            ],
            "no oware table",
        ),
        (
            &[
                "tables",
                "probe",
                "--dir",
                d,
                "--fen",
                "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
            ],
            "48 seeds on the board",
        ),
        (
            &[
                "tables",
                "probe",
                "--dir",
                d,
                "--variant",
                "ayoayo",
                "--fen",
                fen,
            ],
            "tables exist for oware and kalah",
        ),
        (&["tables", "probe", "--dir", d, "--fen", "1-2-3"], "--fen"),
        (
            &["tables", "probe", "--dir", d, "--fen", fen, "--moves", "A"],
            "--moves",
        ),
        (
            &[
                "tables",
                "build",
                "--dir",
                d,
                "--variant",
                "ahl",
                "--seeds",
                "3",
            ],
            "tables exist for oware and kalah",
        ),
        (
            &["tables", "build", "--dir", d, "--seeds", "40"],
            "at most 31",
        ),
        (
            &["tables", "build", "--dir", d, "--threads", "0"],
            "'--threads <THREADS>': 0 is not in 1..=256",
        ),
    ];
    for (args, message) in cases {
        let (ok, _, err) = awari(args);
        assert!(!ok, "{args:?} should fail");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }

    // A probe checks the layers it reads, not the others (`tables verify` does): a fault in
    // layer 6 leaves the 5-seed probe as it was; one in layer 5 is said, and its value is gone.
    let flip = |n: usize| {
        let path = layer_path(&dir, Variant::Oware, n);
        let mut bytes = read(&path);
        bytes[40] ^= 0x80;
        std::fs::write(&path, bytes).unwrap();
    };
    flip(6);
    let (ok, again, err) = awari(&["tables", "probe", "--dir", d, "--fen", fen]);
    assert!(
        ok && again == out && !err.contains("oware-06"),
        "{again}{err}"
    );
    flip(5);
    let (ok, _, err) = awari(&["tables", "probe", "--dir", d, "--fen", fen]);
    assert!(
        !ok && err.contains("oware-05.awtb") && err.contains("corrupt"),
        "{err}"
    );
}

#[test]
fn paths_prints_the_exact_share_per_layer_and_refuses_what_it_cannot_do() {
    let dir = scratch("paths");
    build_tables(&dir, Variant::Oware, 4);
    let d = dir.to_str().unwrap();
    let (ok, out, err) = awari(&["tables", "paths", "--dir", d, "--seeds", "4"]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    // Every bounded position of 3 seeds is proven exact; 4 seeds keeps some bounded.
    assert!(
        lines[3].starts_with("layer  3:") && lines[3].contains("-> 100.0%"),
        "{out}"
    );
    assert!(
        lines[4].starts_with("layer  4:") && !lines[4].contains("-> 100.0%"),
        "{out}"
    );
    let faults: &[(&[&str], &str)] = &[
        (&["--seeds", "5"], "do not reach 5 seeds"),
        (&["--budget", "many"], "invalid value 'many' for '--budget"),
    ];
    for (args, says) in faults {
        let mut all = vec!["tables", "paths", "--dir", d];
        all.extend_from_slice(args);
        let (ok, out, err) = awari(&all);
        assert!(
            !ok && out.is_empty() && err.contains(says),
            "{args:?}: {err}"
        );
    }
    // A misspelt directory is said to be missing, not to lack the layers asked for.
    let misspelt = format!("{d}/misspelt");
    let (ok, out, err) = awari(&["tables", "paths", "--dir", &misspelt]);
    assert!(
        !ok && out.is_empty() && err.contains("no such directory"),
        "{err}"
    );
    // With no --seeds, as far as the tables reach; a directory without tables says so.
    let (ok, out, err) = awari(&["tables", "paths", "--dir", d, "--dry-run"]);
    assert!(ok && out.lines().count() == 5, "{out}{err}");
    std::fs::create_dir(&misspelt).unwrap();
    let (ok, out, err) = awari(&["tables", "paths", "--dir", &misspelt]);
    assert!(
        !ok && out.is_empty() && err.contains("no oware tables"),
        "{err}"
    );
}

/// The last exact share a `tables paths` line shows.
fn exact_share(line: &str) -> &str {
    let share = line.rsplit("-> ").next().unwrap();
    &share[..share.find('%').unwrap()]
}

#[test]
fn paths_writes_a_file_per_layer_resumes_from_them_and_verify_checks_them() {
    use awari::tables::file::FileKind;
    let dir = scratch("paths-files");
    build_tables(&dir, Variant::Oware, 5);
    let d = dir.to_str().unwrap();
    let paths = |n| FileKind::Paths.path(&dir, Variant::Oware, n);
    let run = |args: &[&str]| {
        let mut all = vec![
            "tables",
            "paths",
            "--dir",
            d,
            "--seeds",
            "5",
            "--search-seeds",
            "3",
        ];
        all.extend_from_slice(args);
        let (ok, out, err) = awari(&all);
        assert!(ok, "{err}");
        out
    };
    // A dry run writes nothing.
    let dry = run(&["--dry-run"]);
    assert!((0..=5).all(|n| !paths(n).exists()), "{dry}");
    let first = run(&[]);
    assert!((0..=5).all(|n| paths(n).exists()), "{first}");
    // A second run reads every layer back, with the same figures.
    let second = run(&[]);
    for ((a, b), c) in first.lines().zip(second.lines()).zip(dry.lines()) {
        assert!(b.contains("read from") && b.contains(".awpv"), "{b}");
        assert!(!a.contains("read from") && !c.contains("read from"), "{a}");
        assert_eq!(exact_share(a), exact_share(b), "{a}\n{b}");
        assert_eq!(exact_share(a), exact_share(c), "{a}\n{c}");
    }
    // The engine's tables see them; what the library reads is what was written.
    let tables = Tables::open(&dir, Variant::Oware);
    assert!(tables.problems().is_empty(), "{:?}", tables.problems());
    assert_eq!(tables.paths_count(), 6);
    let (ok, out, err) = awari(&["tables", "verify", "--dir", d]);
    assert!(ok && out.contains("6 paths files"), "{out}{err}");
    // A point value outside its bounds, checksum and all, is a fault verify names.
    let layer = Layer::open_kind(FileKind::Paths, &dir, Variant::Oware, 4).unwrap();
    let size = layer.entries().len();
    let index = layer
        .entries()
        .iter()
        .position(|&b| Value::decode(b, 4).unwrap().hi < 4)
        .unwrap();
    let entries = layer.entries().to_vec();
    let mut points = layer.ranks().to_vec();
    drop(layer);
    points[index] = 4;
    awari::tables::file::write_paths(&dir, Variant::Oware, 4, &entries, &points).unwrap();
    let (ok, _, err) = awari(&["tables", "verify", "--dir", d]);
    assert!(
        !ok && err.contains("oware-04.awpv") && err.contains("outside its bounds"),
        "{err}"
    );
    // A flipped byte: the checksum.
    let mut bytes = read(&paths(4));
    bytes[32 + size / 2] ^= 0x40;
    std::fs::write(paths(4), bytes).unwrap();
    let (ok, _, err) = awari(&["tables", "verify", "--dir", d]);
    assert!(
        !ok && err.contains("oware-04.awpv") && err.contains("corrupt"),
        "{err}"
    );
}

#[test]
fn verify_checks_every_byte_and_names_a_corrupt_layer() {
    let dir = scratch("verify");
    build_tables(&dir, Variant::Oware, 5);
    let d = dir.display().to_string();
    let (ok, out, err) = awari(&["tables", "verify", "--dir", &d]);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("6 oware layers") && out.contains("0 unsound"),
        "{out}"
    );
    let broken = layer_path(&dir, Variant::Oware, 4);
    let mut bytes = read(&broken);
    bytes[40] ^= 0x80;
    std::fs::write(&broken, bytes).unwrap();
    let (ok, out, err) = awari(&["tables", "verify", "--dir", &d]);
    assert!(!ok, "{out}{err}");
    assert!(
        err.contains("oware-04.awtb") && err.contains("corrupt"),
        "{err}"
    );
    assert!(out.contains("complete up to 3 seeds"), "{out}");

    // Nothing to check is no success: a misspelt directory, or one without tables.
    let empty = scratch("verify-empty");
    for (dir, says) in [
        (dir.join("misspelt"), "no such directory"),
        (empty.to_path_buf(), "no oware layer files"),
    ] {
        let (ok, out, err) = awari(&["tables", "verify", "--dir", dir.to_str().unwrap()]);
        assert!(!ok && out.is_empty() && err.contains(says), "{out}{err}");
    }
}
