//! The endgame tables: the index, the layer files and their faults, resuming a killed build,
//! `awari tables probe`, and the engine with tables converting against a full-width and a
//! random opponent. (The values themselves are checked against an independent search in
//! `tables_values.rs`.)

use awari::rng::Rng;
use awari::rules::{Board, EndReason, Game, Move, Side, Variant};
use awari::tables::file::{layer_path, FileError, Layer};
use awari::tables::index::{
    from_side, layer_size, locate, next, positions_up_to, rank, seeds, unrank,
};
use awari::tables::layer::{moves, Moves, Step};
use awari::tables::probe::after_move;
use awari::tables::{Problem, Tables, Value};
use std::path::Path;
use std::process::Stdio;
use std::str::FromStr;
use std::time::{Duration, Instant};

use crate::common;
use crate::common::{build_tables, Engine, Scratch, AWARI};

fn scratch(tag: &str) -> Scratch {
    common::scratch("tables", tag)
}

/// `n` seeds dropped into random houses.
fn random_houses(rng: &mut Rng, n: usize) -> [u8; 12] {
    let mut houses = [0u8; 12];
    for _ in 0..n {
        houses[rng.below(12) as usize] += 1;
    }
    houses
}

fn random_side(rng: &mut Rng) -> Side {
    if rng.below(2) == 0 {
        Side::South
    } else {
        Side::North
    }
}

#[test]
fn layer_sizes_are_the_issues_counts() {
    let rows: &[(usize, u64)] = &[
        (12, 2_704_156),
        (15, 17_383_860),
        (18, 86_493_225),
        (20, 225_792_840),
    ];
    for &(n, total) in rows {
        assert_eq!(positions_up_to(n), total, "up to {n} seeds");
    }
    assert_eq!(layer_size(0), 1);
    assert_eq!(layer_size(1), 12);
    assert_eq!(layer_size(12), 1_352_078);
}

#[test]
fn rank_and_unrank_are_inverse_over_whole_layers_in_walking_order() {
    let top = if cfg!(unoptimized) { 6 } else { 9 };
    for n in 0..=top {
        let mut houses = unrank(n, 0);
        for i in 0..layer_size(n) {
            assert_eq!(seeds(&houses), n);
            assert_eq!(rank(&houses), i, "layer {n}: {houses:?}");
            assert_eq!(unrank(n, i), houses, "layer {n} index {i}");
            let more = next(&mut houses);
            assert_eq!(
                more,
                i + 1 < layer_size(n),
                "layer {n}: walk ends at the last index"
            );
        }
    }
}

#[test]
fn every_move_lands_in_the_right_layer_and_slot() {
    let mut rng = Rng::new(7);
    for variant in [Variant::Oware, Variant::Kalah] {
        for _ in 0..3_000 {
            let n = 1 + rng.below(20) as usize;
            let houses = random_houses(&mut rng, n);
            let side = random_side(&mut rng);
            // Equal stores below the board's seeds: no store majority ends the game.
            let k = (n / 4) as u8;
            let board = Board::from_parts(variant, houses, [k, k], side, false, 0).unwrap();
            let (layer, index) = locate(&board);
            assert_eq!(layer, n);
            assert_eq!(unrank(n, index), from_side(houses, side));
            // The solver's view of the moves and the rules' agree, child by child.
            let seen = from_side(houses, side);
            match moves(variant, seen) {
                Moves::Over(v) => {
                    assert!(board.moves_or_end().is_err(), "{board}");
                    assert_eq!(v as u32, board.row_seeds(side), "{board}");
                }
                Moves::Steps(steps, len) => {
                    let legal: Vec<Move> = board.legal_moves().collect();
                    assert_eq!(legal.len(), len, "{board}");
                    for (m, step) in legal.into_iter().zip(&steps[..len]) {
                        let child = board.play_unchecked(m);
                        let gain = usize::from(child.store(side) - board.store(side));
                        let (cl, ci) = locate(&child);
                        match *step {
                            Step::Inside(j) => {
                                assert_eq!((gain, cl, ci), (0, n, j), "{board} {m}");
                                assert_eq!(child.side_to_move(), side.opponent());
                            }
                            Step::Exit {
                                gain: g,
                                same_side,
                                layer,
                                index,
                            } => {
                                assert_eq!((g, layer, index), (gain, cl, ci), "{board} {m}");
                                assert_eq!(same_side, child.side_to_move() == side);
                                assert!(gain > 0 || same_side, "{board} {m}");
                            }
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn values_encode_in_one_byte_and_decode_back() {
    for n in 0..=31usize {
        for lo in 0..=n as u8 {
            for hi in lo..=n as u8 {
                let v = Value { lo, hi };
                let back = Value::decode(v.encode(n), n).unwrap();
                assert_eq!(back.lo, lo);
                if hi - lo < 7 {
                    assert_eq!(back, v, "layer {n}");
                } else {
                    // Wide bounds keep lo and widen hi to the whole board: still a bound.
                    assert_eq!(back.hi, n as u8, "layer {n}");
                }
            }
        }
    }
    // A byte whose bounds exceed the layer is no entry of it.
    assert_eq!(Value::decode(5, 4), None);
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

#[test]
fn file_faults_are_named_and_the_other_layers_still_serve() {
    let top = 7;
    let good = scratch("faults-good");
    build_tables(&good, Variant::Oware, top);
    let kalah = scratch("faults-kalah");
    build_tables(&kalah, Variant::Kalah, 5);
    let tables = Tables::open(&good, Variant::Oware);
    assert!(tables.problems().is_empty(), "{:?}", tables.problems());
    assert_eq!(tables.reach(), Some(top));

    // One fault per layer: truncated, one flipped byte, another variant's file, missing.
    let dir = scratch("faults");
    for n in 0..=top {
        std::fs::copy(
            layer_path(&good, Variant::Oware, n),
            layer_path(&dir, Variant::Oware, n),
        )
        .unwrap();
    }
    let truncated = layer_path(&dir, Variant::Oware, 2);
    let bytes = read(&truncated);
    std::fs::write(&truncated, &bytes[..bytes.len() - 1]).unwrap();
    let flipped = layer_path(&dir, Variant::Oware, 4);
    let mut bytes = read(&flipped);
    let last = bytes.len() - 1;
    bytes[last] ^= 0x01;
    std::fs::write(&flipped, bytes).unwrap();
    std::fs::copy(
        layer_path(&kalah, Variant::Kalah, 5),
        layer_path(&dir, Variant::Oware, 5),
    )
    .unwrap();
    std::fs::remove_file(layer_path(&dir, Variant::Oware, 6)).unwrap();

    let errors = [
        (2, "truncated"),
        (4, "corrupt"),
        (5, "wrong variant: holds kalah, expected oware"),
        (6, "No such file"),
    ];
    for (n, what) in errors {
        let error = Layer::open(&dir, Variant::Oware, n).err().expect("a fault");
        let text = error.to_string();
        assert!(text.contains(&format!("oware-0{n}.awtb")), "{text}");
        assert!(text.contains(what), "layer {n}: {text}");
    }
    let tables = Tables::open(&dir, Variant::Oware);
    let problems = tables.problems();
    // (layer, what the sentence says, what the problem is)
    type Row = (usize, &'static str, fn(&Problem) -> bool);
    let rows: [Row; 4] = [
        (
            2,
            "truncated",
            |p| matches!(p, Problem::File(e) if matches!(**e, FileError::Size { .. })),
        ),
        (
            4,
            "corrupt",
            |p| matches!(p, Problem::File(e) if matches!(**e, FileError::Checksum(_))),
        ),
        (
            5,
            "wrong variant",
            |p| matches!(p, Problem::File(e) if matches!(**e, FileError::Mismatch(..))),
        ),
        (6, "missing", |p| matches!(p, Problem::Missing(_))),
    ];
    for (n, what, typed) in rows {
        let name = format!("oware-0{n}.awtb");
        let found = problems.iter().find(|p| p.to_string().contains(&name));
        assert!(
            found.is_some_and(|p| typed(p) && p.to_string().contains(what)),
            "layer {n} ({what}) not reported as such: {problems:?}"
        );
    }
    let files = problems
        .iter()
        .filter(|p| matches!(p, Problem::File(_)))
        .count();
    assert_eq!(files, 3, "{problems:?}");
    assert_eq!(tables.reach(), Some(1));
    for n in 0..=top {
        let whole = !matches!(n, 2 | 4 | 5 | 6);
        assert_eq!(tables.covers(n), whole, "layer {n}");
    }
    // A sound layer above the broken ones gives the same values as the sound tables.
    let good_tables = Tables::open(&good, Variant::Oware);
    let board = Board::from_notation(Variant::Oware, "1-0-2-0-0-1-0-1-0-1-1-0-20-20-S").unwrap();
    assert!(tables.probe(&board).is_some());
    assert_eq!(tables.probe(&board), good_tables.probe(&board));
}

#[test]
fn a_wrong_entry_count_in_a_header_is_named_as_the_headers() {
    // With the file's length right and only the header's count wrong, the message once read
    // `truncated or padded: 8768 bytes, expected 8768`: the length it named was not at fault.
    let dir = scratch("count");
    build_tables(&dir, Variant::Oware, 4);
    let path = layer_path(&dir, Variant::Oware, 4);
    let mut bytes = read(&path);
    let count = layer_size(4);
    bytes[16..24].copy_from_slice(&(count + 1).to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let out = common::awari(&["tables", "verify", "--dir", dir.to_str().unwrap()]);
    let stderr = common::text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let said = format!(
        "oware-04.awtb: wrong entry count: the header says {}, a layer of 4 seeds has {count}",
        count + 1
    );
    assert!(stderr.contains(&said), "{said} expected in {stderr}");
    assert!(!stderr.contains("truncated"), "{stderr}");
}

#[test]
fn a_build_killed_mid_layer_resumes_to_the_same_bytes() {
    let top = if cfg!(unoptimized) { 9 } else { 10 };
    let whole = scratch("resume-whole");
    build_tables(&whole, Variant::Oware, top);
    let dir = scratch("resume");
    // At the lowest priority, so that this test's wait below sees layer top - 1 long before
    // the build can finish the last one, however busy the machine (the last layer takes a
    // quarter of a second on an idle one).
    let mut child = common::hermetic("nice")
        .args(["-n", "19", AWARI])
        .args([
            "tables",
            "build",
            "--seeds",
            &top.to_string(),
            "--threads",
            "1",
        ])
        .arg("--dir")
        .arg(&*dir)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it while it works on the last layer: after layer top - 1 is written.
    let before_last = layer_path(&dir, Variant::Oware, top - 1);
    let deadline = Instant::now() + Duration::from_secs(300);
    while !before_last.exists() {
        assert!(
            Instant::now() < deadline,
            "the build never reached layer {}",
            top - 1
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "the build ended too soon"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        !layer_path(&dir, Variant::Oware, top).exists(),
        "killed too late: the last layer was already whole"
    );
    // What is left are whole, valid files only (and perhaps a temporary one).
    for n in 0..top {
        Layer::open(&dir, Variant::Oware, n).expect("every written layer is whole");
    }
    let out = common::hermetic(AWARI)
        .args(["tables", "build", "--seeds", &top.to_string()])
        .arg("--dir")
        .arg(&*dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("1 layers built"),
        "only the missing layer: {text}"
    );
    for n in 0..=top {
        assert_eq!(
            read(&layer_path(&dir, Variant::Oware, n)),
            read(&layer_path(&whole, Variant::Oware, n)),
            "layer {n}"
        );
    }
}

#[test]
fn a_build_removes_what_killed_builds_left_and_nothing_else() {
    // A killed build leaves `.oware-NN.awtb.tmp-PID-N` (69 MB at 18 seeds; earlier builds named
    // it `.oware-NN.awtb.tmp-PID`); the next build removes those of processes that are gone, and
    // leaves a live process's alone.
    let dir = scratch("stale");
    let mut gone = common::hermetic("true").spawn().unwrap();
    let dead = gone.id();
    gone.wait().unwrap();
    let stale = dir.join(format!(".oware-03.awtb.tmp-{dead}-0"));
    let earlier = dir.join(format!(".oware-02.awtb.tmp-{dead}"));
    let live = dir.join(format!(".oware-04.awtb.tmp-{}-3", std::process::id()));
    let other = dir.join(format!(".kalah-03.awtb.tmp-{dead}-0"));
    for path in [&stale, &earlier, &live, &other] {
        std::fs::write(path, b"part of a layer").unwrap();
    }
    let (ok, out, err) = awari(&[
        "tables",
        "build",
        "--seeds",
        "4",
        "--dir",
        &dir.display().to_string(),
    ]);
    assert!(ok, "{out}{err}");
    for path in [&stale, &earlier] {
        assert!(!path.exists(), "{out}");
        assert!(
            out.contains(&format!("removed {}", path.display())),
            "{out}"
        );
    }
    assert!(live.exists(), "a live process's file is kept");
    assert!(
        other.exists(),
        "another rule set's build is not this one's to clean"
    );
}

#[test]
fn a_value_byte_no_layer_can_hold_is_a_fault_of_its_file_not_a_panic() {
    // A file whose checksum is right but one of whose value bytes reads as no bounds of its
    // layer (a file written by something else): it is refused when opened, named, and built
    // again, not a panic in the build that reads it as a smaller layer.
    let dir = scratch("bad-byte");
    let d = dir.display().to_string();
    let (ok, out, err) = awari(&["tables", "build", "--seeds", "5", "--dir", &d]);
    assert!(ok, "{out}{err}");
    let path = layer_path(&dir, Variant::Oware, 3);
    let mut bytes = read(&path);
    bytes[32 + 7] = 0xff; // lo 31 in a layer of 3 seeds
    let crc = crc32fast::hash(&bytes[32..]);
    bytes[24..28].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&path, bytes).unwrap();
    let e = Layer::open(&dir, Variant::Oware, 3).err().expect("refused");
    assert!(e.to_string().contains("entry 7: value byte 255"), "{e}");
    for n in [4, 5] {
        std::fs::remove_file(layer_path(&dir, Variant::Oware, n)).unwrap();
    }
    let (ok, out, err) = awari(&["tables", "build", "--seeds", "5", "--dir", &d]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("3 layers built"), "{out}");
    Layer::open(&dir, Variant::Oware, 3).expect("built again");
    // A board of more seeds than any layer holds has no rank (it indexed out of bounds).
    let tables = Tables::open(&dir, Variant::Oware);
    let big = Board::from_parts(Variant::Oware, [5; 12], [0, 0], Side::South, false, 0).unwrap();
    assert_eq!(tables.rank(&big), None);
    assert_eq!(tables.probe(&big), None);
}

fn awari(args: &[&str]) -> (bool, String, String) {
    let out = common::awari(args);
    let (stdout, stderr) = (common::text(&out.stdout), common::text(&out.stderr));
    (out.status.success(), stdout, stderr)
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

/// How long the engine may take for a line the tests wait for: a bound against hanging for
/// ever, far above what their searches (depth 14 at the most) take.
const WAIT: Duration = Duration::from_secs(300);

impl Engine {
    /// The engine playing `variant` with the tables in `tables`.
    fn with_tables(tables: &Path, variant: Variant) -> Engine {
        let mut e = Engine::start();
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.send(&format!(
            "setoption name TablesPath value {}",
            tables.display()
        ));
        e
    }

    fn best(&mut self, start: &Board, moves: &[Move], go: &str) -> (Move, Vec<String>) {
        let list: String = moves.iter().map(|m| m.to_char()).collect();
        self.send(&format!("position fen {start} moves {list}"));
        self.send(go);
        let lines = self.until("bestmove", WAIT);
        let word = lines.last().unwrap().split_whitespace().nth(1).unwrap();
        (word.parse().unwrap(), lines)
    }
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
fn the_engine_reports_table_faults_and_plays_on() {
    let dir = scratch("engine-faults");
    build_tables(&dir, Variant::Oware, 6);
    let broken = layer_path(&dir, Variant::Oware, 3);
    let mut bytes = read(&broken);
    bytes[40] ^= 0x80;
    std::fs::write(&broken, bytes).unwrap();
    let mut e = Engine::with_tables(&dir, Variant::Oware);
    e.send("isready");
    let mut all = e.until("readyok", WAIT).join("\n");
    let start = Board::from_notation(Variant::Oware, "0-1-0-2-0-1-1-0-0-1-0-0-20-20-S").unwrap();
    // The checksums are checked on a thread of the engine's own: the fault is said when the
    // tables are opened if it is known by then, else at the first search after.
    let checking = Instant::now();
    while checking.elapsed() < Duration::from_secs(60) {
        let (_, more) = e.best(&start, &[], "go depth 6");
        all.push('\n');
        all.push_str(&more.join("\n"));
        if all.contains("corrupt") {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        all.contains("oware-03.awtb") && all.contains("corrupt"),
        "the fault is said: {all}"
    );
    assert!(all.contains("complete up to 2 seeds"), "{all}");
    // The 6-seed position is still probed (its layer is sound): the search says tbhits.
    assert!(all.contains("tables: value"), "{all}");
    assert!(!all.contains("tbhits 0 "), "{all}");

    // `d` shows the table value; an empty TablesPath turns the tables off.
    e.send(&format!("position fen {start}"));
    e.send("d");
    e.send("isready");
    let shown = e.until("readyok", WAIT).join("\n");
    assert!(shown.contains("tables: value"), "{shown}");
    e.send("setoption name TablesPath value <empty>");
    e.send("d");
    e.send("isready");
    let shown = e.until("readyok", WAIT).join("\n");
    assert!(!shown.contains("tables: value"), "{shown}");
}

/// Cuts `path` short to `len` bytes in place, as `cp` over it or a copy that fills the disk
/// does: the same file, fewer bytes (unlike a rename, which leaves the old file whole to
/// whoever has it open).
fn truncate_in_place(path: &Path, len: u64) {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|f| f.set_len(len))
        .unwrap_or_else(|e| panic!("truncate {}: {e}", path.display()));
}

#[test]
fn a_layer_file_cut_short_under_a_search_is_dropped_and_the_engine_plays_on() {
    let dir = scratch("engine-truncated");
    build_tables(&dir, Variant::Oware, 10);
    let mut e = Engine::with_tables(&dir, Variant::Oware);
    e.send("isready");
    let said = e.until("readyok", WAIT).join("\n");
    assert!(said.contains("complete up to 10 seeds"), "{said}");
    // 14 seeds on the board, 10 in the tables: after a capture or two the search probes
    // layers 9 and 10 all the time, at pages all over their files.
    let fen = "2-2-1-1-1-1-1-1-1-1-1-1-17-17-S";
    e.send(&format!("position fen {fen}"));
    e.send("go infinite");
    let (started, _) = e.expect("info depth 12 ", WAIT);
    assert!(
        !started.contains("tbhits 0 "),
        "the tables are probed: {started}"
    );
    let (nine, ten) = (
        layer_path(&dir, Variant::Oware, 9),
        layer_path(&dir, Variant::Oware, 10),
    );
    truncate_in_place(&nine, 1000);
    truncate_in_place(&ten, 1000);
    // The next read of a page cut off raises SIGBUS: the layer is dropped and said while the
    // search goes on (an infinite search: it has not answered yet), not the engine ended.
    let mut said = e.until("info string warning", WAIT);
    said.extend(e.until("info string warning", WAIT));
    assert!(!said.iter().any(|l| l.starts_with("bestmove")), "{said:?}");
    let said = said.join("\n");
    for name in ["oware-09.awtb", "oware-10.awtb"] {
        assert!(
            said.contains(&format!(
                "{name}: changed in place while in use: 1000 bytes"
            )),
            "{name} is named: {said}"
        );
    }
    assert!(said.contains("complete up to 8 seeds"), "{said}");
    e.send("isready");
    e.expect("readyok", WAIT);
    e.send("stop");
    e.expect("bestmove", WAIT);
    e.send("isready");
    e.expect("readyok", WAIT);

    // Later searches play on without the two layers, and say nothing more of them.
    e.send("go movetime 200");
    let later = e.until("bestmove", WAIT).join("\n");
    assert!(!later.contains("warning"), "{later}");
    assert!(later.contains("info depth"), "{later}");

    // A file cut short between searches is found before the next one reads it.
    truncate_in_place(&layer_path(&dir, Variant::Oware, 8), 1000);
    e.send("go movetime 200");
    let next = e.until("bestmove", WAIT).join("\n");
    let eight = next.find("oware-08.awtb: changed in place while in use");
    let searched = next.find("info depth");
    assert!(
        eight.is_some() && eight < searched,
        "said before the search: {next}"
    );
    e.send("isready");
    e.expect("readyok", WAIT);
    e.send("quit");
    let (status, _) = e.exit(WAIT);
    assert!(status.success(), "{status:?}");
}

#[test]
fn tables_path_set_again_sees_the_layers_built_since() {
    let dir = scratch("engine-reopen");
    let mut e = Engine::with_tables(&dir, Variant::Oware);
    e.send("isready");
    let said = e.until("readyok", WAIT).join("\n");
    assert!(said.contains("no oware tables"), "{said}");
    let six = Board::from_notation(Variant::Oware, "0-1-0-2-0-1-1-0-0-1-0-0-20-20-S").unwrap();
    e.send(&format!("position fen {six}"));
    for (seeds, line) in [(4, "complete up to 4 seeds"), (6, "complete up to 6 seeds")] {
        build_tables(&dir, Variant::Oware, seeds);
        e.send(&format!(
            "setoption name TablesPath value {}",
            dir.display()
        ));
        e.send("isready");
        let said = e.until("readyok", WAIT).join("\n");
        assert!(said.contains(line), "{said}");
        // The `readyok` came once they were open: `d` answers from them.
        e.send("d");
        e.send("isready");
        let shown = e.until("readyok", WAIT).join("\n");
        assert_eq!(shown.contains("tables: value"), seeds == 6, "{shown}");
    }
    let (_, lines) = e.best(&six, &[], "go depth 4");
    assert!(lines.join("\n").contains("tables: value"), "{lines:?}");
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

#[test]
fn at_the_tables_root_a_move_that_wins_by_repetition_is_scored_as_the_end_it_is() {
    // The tables value a position as if it had no history; a move back to a position played
    // since the last capture ends the game instead. It is played, with a mate score, when it
    // ends the game with a margin at least as large as the tables guarantee for the other
    // moves; otherwise the tables' move is (the conversion guarantee stays).
    let top = 10;
    let dir = scratch("repetition-root");
    build_tables(&dir, Variant::Oware, top);
    let tables = Tables::open(&dir, Variant::Oware);
    let mut e = Engine::with_tables(&dir, Variant::Oware);
    let (mut ended, mut declined) = (0, 0);
    for (position, winning) in common::repetition_wins() {
        let (fen, moves) = position.split_once(" moves ").unwrap();
        let mut game = Game::new(Board::from_notation(Variant::Oware, fen).unwrap());
        game.play_text(moves).unwrap();
        let board = *game.board();
        let seeds: i32 = board.houses().iter().map(|&h| i32::from(h)).sum();
        if seeds as usize > top {
            continue;
        }
        let me = board.side_to_move();
        let mine = |stores: [u8; 2]| {
            i32::from(stores[me.index()]) - i32::from(stores[me.opponent().index()])
        };
        let repetition = Move::from_str(&winning).unwrap();
        let ending = board.play(repetition).outcome_when(EndReason::Repetition);
        // The least margin the tables guarantee after each other move.
        let guaranteed = |m: Move| {
            let v = after_move(&tables, &board, m).unwrap();
            mine(board.stores()) + 2 * i32::from(v.lo) - seeds
        };
        let others = game.legal_moves().into_iter().filter(|&m| m != repetition);
        let best_other = others.clone().map(guaranteed).max();
        e.send(&format!("position fen {position}"));
        e.send("go depth 1");
        let lines = e.until("bestmove", WAIT);
        let best = lines.last().unwrap();
        let played = Move::from_str(best.strip_prefix("bestmove ").unwrap()).unwrap();
        let tie = best_other == Some(mine(ending.stores));
        if tie && played != repetition {
            // As good as the tables' guarantee either way: the tables' move, by its rank.
            assert_eq!(
                Some(guaranteed(played)),
                best_other,
                "{position}: {lines:?}"
            );
        } else if best_other.is_none_or(|b| mine(ending.stores) >= b) {
            ended += 1;
            assert_eq!(
                best,
                &format!("bestmove {winning}"),
                "{position}: {lines:?}"
            );
            assert!(
                lines.iter().any(|l| l.contains(" score mate 1 ")),
                "{position}: {lines:?}"
            );
        } else {
            declined += 1;
            assert_eq!(
                Some(guaranteed(played)),
                best_other,
                "{position}: {lines:?}"
            );
        }
    }
    assert!(
        ended >= 10,
        "only {ended} positions ended by repetition ({declined} declined)"
    );
}

#[test]
fn a_bounded_root_is_searched_among_the_moves_that_keep_its_lower_bound() {
    // Oware, 10 seeds, South to move: the tables give 5..7 (a draw at worst, a win by 4 at
    // best). The moves A, C, E and F are legal; of them, those that keep 5 are searched to the
    // depth asked, not played at once, and the search says what it found beyond the bounds.
    // An exact root is still the tables' at once (depth 1).
    let dir = scratch("bounded-root");
    build_tables(&dir, Variant::Oware, 10);
    let tables = Tables::open(&dir, Variant::Oware);
    let fen = "1-0-2-0-1-1-0-3-0-0-0-2-19-19-S";
    let board = Board::from_notation(Variant::Oware, fen).unwrap();
    let value = tables.probe(&board).unwrap();
    assert_eq!((value.lo, value.hi), (5, 7));
    let root =
        awari::search::table_root::plan(&tables, &Game::new(board), board.legal_moves()).unwrap();
    assert!(root.allowed.len() >= 2, "{}", root.allowed);
    let mut e = Engine::with_tables(&dir, Variant::Oware);
    let (best, lines) = e.best(&board, &[], "go depth 10");
    assert!(
        root.allowed.contains(best),
        "{best} of {}: {lines:?}",
        root.allowed
    );
    assert!(
        after_move(&tables, &board, best).unwrap().lo >= value.lo,
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 10 ")),
        "{lines:?}"
    );
    let said = format!(
        "info string tables: searched among the {} moves that keep the lower bound; the search ",
        root.allowed.len()
    );
    let line = lines.iter().find(|l| l.starts_with(&said));
    assert!(line.is_some(), "{lines:?}");
    // `d` shows the tables' bounds and what the search found, for this position only.
    e.send("d");
    e.send("isready");
    let shown = e.until("readyok", WAIT);
    assert!(
        shown.iter().any(|l| l.starts_with("tables: value 5..7: ")),
        "{shown:?}"
    );
    let proof = &line.unwrap()["info string ".len()..];
    assert!(shown.iter().any(|l| l == proof), "{shown:?}");
    e.send(&format!("position fen {fen} moves {best}"));
    e.send("d");
    e.send("isready");
    let shown = e.until("readyok", WAIT);
    assert!(
        !shown.iter().any(|l| l.contains("searched among")),
        "{shown:?}"
    );
    // An exact root: the tables' move at once, no search.
    let exact = (0..).find_map(|i| {
        let houses = awari::tables::index::unrank(8, i);
        let b = Board::from_parts(Variant::Oware, houses, [20, 20], Side::South, false, 0).ok()?;
        (b.outcome().is_none() && tables.probe(&b)?.exact().is_some()).then_some(b)
    });
    let exact = exact.unwrap();
    let (_, lines) = e.best(&exact, &[], "go depth 10");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 1 ")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("searched among")),
        "{lines:?}"
    );
}

/// The final seeds of `side` and how the game ended.
fn final_seeds(game: &Game, side: Side) -> (u32, awari::rules::EndReason) {
    let outcome = game.outcome().expect("over");
    (u32::from(outcome.stores[side.index()]), outcome.reason)
}

/// A full-width alpha-beta opponent of fixed depth that follows the game's history (oware's
/// repetition rule through `Game`), scoring finished games by their final seed margin and
/// unfinished ones by the stores.
fn full_width(game: &mut Game, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    let me = game.board().side_to_move();
    if let Some(outcome) = game.outcome() {
        let s = outcome.stores;
        return 100 * (i32::from(s[me.index()]) - i32::from(s[me.opponent().index()]));
    }
    if depth == 0 {
        let b = game.board();
        return i32::from(b.store(me)) - i32::from(b.store(me.opponent()));
    }
    let mut best = i32::MIN + 1;
    for m in game.legal_moves() {
        game.play(m).unwrap();
        let same = game.board().side_to_move() == me;
        let v = if same {
            full_width(game, depth - 1, alpha, beta)
        } else {
            -full_width(game, depth - 1, -beta, -alpha)
        };
        game.undo();
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

fn full_width_move(game: &Game, depth: u32) -> Move {
    let mut g = game.clone();
    let me = game.board().side_to_move();
    let mut best = (i32::MIN, None);
    for m in game.legal_moves() {
        g.play(m).unwrap();
        let v = if g.board().side_to_move() == me {
            full_width(&mut g, depth - 1, -1_000_000, 1_000_000)
        } else {
            -full_width(&mut g, depth - 1, -1_000_000, 1_000_000)
        };
        g.undo();
        if v > best.0 {
            best = (v, Some(m));
        }
    }
    best.1.unwrap()
}

/// Plays the engine (with tables) from random positions of up to `top` seeds against
/// `opponent`, and checks that it never ends below what the tables guarantee.
fn converts(variant: Variant, top: usize, games: usize, seed: u64, full: bool) {
    let dir = scratch(&format!("convert-{variant}-{full}"));
    build_tables(&dir, variant, top);
    let tables = Tables::open(&dir, variant);
    let mut engine = Engine::with_tables(&dir, variant);
    let mut rng = Rng::new(seed);
    let mut played = 0;
    while played < games {
        let n = 3 + rng.below(top as u64 - 2) as usize;
        let houses = random_houses(&mut rng, n);
        let side = random_side(&mut rng);
        let rest = 48 - n as u8;
        let stores = [rest / 2, rest - rest / 2];
        let start = Board::from_parts(variant, houses, stores, side, false, 0).unwrap();
        if start.outcome().is_some() {
            continue;
        }
        played += 1;
        let value = tables.probe(&start).unwrap();
        let mut game = Game::new(start);
        while game.outcome().is_none() {
            let m = if game.board().side_to_move() == side {
                let (m, lines) = engine.best(&start, game.moves(), "go depth 8");
                assert!(
                    game.legal_moves().contains(m),
                    "{start} {:?}: {m} is illegal: {lines:?}",
                    game.moves()
                );
                m
            } else if full {
                full_width_move(&game, 5)
            } else {
                let legal: Vec<Move> = game.legal_moves().collect();
                legal[rng.below(legal.len() as u64) as usize]
            };
            game.play(m).unwrap();
            assert!(game.moves().len() < 2_000, "{start}: the game never ends");
        }
        let (mine, reason) = final_seeds(&game, side);
        let (theirs, _) = final_seeds(&game, side.opponent());
        let guaranteed = u32::from(start.store(side)) + u32::from(value.lo);
        let their_most = u32::from(start.store(side.opponent())) + n as u32 - u32::from(value.lo);
        let line = format!(
            "{start} (value {}..{}) {}: {mine}-{theirs} ({reason})",
            value.lo,
            value.hi,
            awari::rules::format_move_list(game.moves())
        );
        if reason == awari::rules::EndReason::Majority {
            // The game stopped when a store passed half the seeds; the result is what counts.
            assert!(
                (mine as i32 - theirs as i32).signum()
                    >= (guaranteed as i32 - their_most as i32).signum(),
                "{line}"
            );
        } else {
            assert!(mine >= guaranteed, "{line}");
        }
    }
}

#[test]
fn the_engine_with_tables_converts_against_a_full_width_opponent() {
    let games = if cfg!(unoptimized) { 6 } else { 30 };
    converts(Variant::Oware, 8, games, 11, true);
    converts(Variant::Kalah, 8, games, 12, true);
}

#[test]
fn the_engine_with_tables_converts_against_a_random_opponent() {
    let games = if cfg!(unoptimized) { 6 } else { 30 };
    converts(Variant::Oware, 8, games, 21, false);
    converts(Variant::Kalah, 8, games, 22, false);
}

#[test]
fn a_result_the_search_proves_through_the_tables_is_true() {
    // The engine has kalah tables to 5 seeds and searches positions of 8 and 9; the oracle is
    // the tables to 9 (checked against a full-width search in tables_values.rs).
    let small = scratch("proves-small");
    build_tables(&small, Variant::Kalah, 5);
    let big = scratch("proves-big");
    build_tables(&big, Variant::Kalah, 9);
    let oracle = Tables::open(&big, Variant::Kalah);
    let mut engine = Engine::with_tables(&small, Variant::Kalah);
    let mut rng = Rng::new(99);
    let mut proofs = 0;
    for _ in 0..150 {
        let n = 8 + rng.below(2) as usize;
        let houses = random_houses(&mut rng, n);
        let rest = 48 - n as u8;
        let start = Board::from_parts(
            Variant::Kalah,
            houses,
            [rest / 2, rest - rest / 2],
            Side::South,
            false,
            0,
        )
        .unwrap();
        if start.outcome().is_some() {
            continue;
        }
        let (_, lines) = engine.best(&start, &[], "go depth 14");
        let Some(line) = lines
            .iter()
            .find(|l| l.contains("the search proves that South"))
        else {
            continue;
        };
        proofs += 1;
        let wins = line.ends_with("South wins");
        assert!(wins || line.ends_with("South loses"), "{line}");
        let v = oracle.probe(&start).unwrap().exact().unwrap();
        let margin = i32::from(start.store(Side::South)) - i32::from(start.store(Side::North))
            + 2 * i32::from(v)
            - n as i32;
        assert_eq!(
            wins,
            margin > 0,
            "{start}: {line}, but the value is a margin of {margin}"
        );
        assert!(margin != 0, "{start}: {line}, but it is a draw");
    }
    assert!(
        proofs >= 20,
        "only {proofs} positions were proven: the test checks too little"
    );
}

/// The final margin (own seeds minus the opponent's, stores included) that perfect play
/// gives kalah's side to move: a plain search of the whole tree (kalah has no cycles).
fn kalah_margin(board: &Board) -> i32 {
    let me = board.side_to_move();
    if let Some(outcome) = board.outcome() {
        let [s, n] = outcome.stores.map(i32::from);
        return if me == Side::South { s - n } else { n - s };
    }
    board
        .legal_moves()
        .into_iter()
        .map(|m| {
            let child = board.play(m);
            let v = kalah_margin(&child);
            if child.side_to_move() == me {
                v
            } else {
                -v
            }
        })
        .max()
        .expect("a game not over has a move")
}

/// `awari tune --tables`: a game ends at the first position the tables know exactly, with
/// the result perfect play gives from there (checked against a search of the whole tree on
/// random kalah boards), and its positions from there on are not samples.
#[test]
fn tune_takes_the_result_of_a_settled_game_from_the_tables() {
    use awari::search::eval::Weights;
    use awari::tools::tune::{self_play, settled, TuneOptions};
    let dir = scratch("tune");
    build_tables(&dir, Variant::Kalah, 7);
    let tables = Tables::open(&dir, Variant::Kalah);
    let mut rng = Rng::new(17);
    let mut results = [0; 3];
    for _ in 0..400 {
        let n = 1 + rng.below(7) as usize;
        let houses = random_houses(&mut rng, n);
        // Stores close to each other, so that draws are common too.
        let low = rng.below(20) as u8;
        let stores = [low, low + rng.below(3) as u8];
        let Ok(board) = Board::from_parts(
            Variant::Kalah,
            houses,
            stores,
            random_side(&mut rng),
            false,
            0,
        ) else {
            continue;
        };
        if board.outcome().is_some() {
            continue;
        }
        let margin = kalah_margin(&board);
        let me = board.side_to_move();
        let for_me = match margin.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        };
        let south = if me == Side::South {
            for_me
        } else {
            1.0 - for_me
        };
        assert_eq!(settled(&tables, &board), Some(south), "{board}");
        results[(south * 2.0) as usize] += 1;
    }
    assert!(
        results.iter().all(|&r| r > 10),
        "wins, draws and losses: {results:?}"
    );
    // Self-play with the tables stops games earlier, so it keeps fewer positions.
    let options = TuneOptions {
        variant: Variant::Kalah,
        games: 60,
        depth: 3,
        opening_plies: 4,
        seed: 3,
        threads: 2,
    };
    let without = self_play(&options, &Weights::KALAH, None).unwrap();
    let with = self_play(&options, &Weights::KALAH, Some(&tables)).unwrap();
    assert!(
        !with.is_empty() && with.len() < without.len(),
        "{} {}",
        with.len(),
        without.len()
    );
}

/// With the paths files of `awari tables paths` beside the tables and `PathValues` on, the
/// engine scores a bounded node at its horizon by the point value: at `go depth 1` from a
/// bounded root the score is the best, over the moves the tables leave to the search, of what
/// each child's tighter bounds and point value give (computed here from the files through the
/// library). `d` shows what the paths files add to the table value.
#[test]
fn the_engine_scores_bounded_leaves_by_the_point_values_and_d_shows_them() {
    use awari::search::score::{point_score, table_scores, Score};
    use awari::search::table_root::plan;
    let dir = scratch("engine-points");
    build_tables(&dir, Variant::Oware, 7);
    let tables = Tables::open(&dir, Variant::Oware);
    awari::tables::paths::prove_tables(&tables, 7, 2_000, 4, true, &mut std::io::sink()).unwrap();
    let tables = Tables::open(&dir, Variant::Oware);
    assert_eq!(tables.paths_count(), 8);
    let mut e = Engine::with_tables(&dir, Variant::Oware);
    e.send("setoption name PathValues value true");
    // The tables are opened by the time `readyok` comes.
    e.send("isready");
    e.until("readyok", WAIT);
    let (mut searched, mut by_point, mut shown) = (0, 0, [false; 2]);
    for index in (0..layer_size(7)).step_by(3) {
        let board = Board::from_parts(
            Variant::Oware,
            unrank(7, index),
            [0, 0],
            Side::South,
            false,
            0,
        )
        .unwrap();
        let value = tables.probe(&board).unwrap();
        let (path, point) = tables.path(&board).unwrap();
        if value.exact().is_some() {
            continue;
        }
        let game = Game::new(board);
        // `d`: what the paths add, at a few positions of each kind.
        let kind = usize::from(path.exact().is_some());
        if !shown[kind] {
            e.send(&format!("position fen {board}"));
            e.send("d");
            e.send("isready");
            let said = e.until("readyok", WAIT).join("\n");
            let expected = match path.exact() {
                Some(v) => format!("; paths: value {v} (proven from an empty history)"),
                None => format!("; paths: {}..{}, point value {point}", path.lo, path.hi),
            };
            assert!(said.contains(&expected), "{board}: {expected}\n{said}");
            shown[kind] = true;
        }
        let Some(root) = plan(&tables, &game, game.legal_moves()) else {
            continue;
        };
        if root.settled() || searched >= 400 {
            continue;
        }
        // Each move's score: the child's, from its own side, negated.
        let mut best = None;
        let mut inside = false;
        for m in root.allowed {
            let child = board.play_unchecked(m);
            if child.moves_or_end().is_err() {
                best = None;
                break;
            }
            let (v, p) = tables.probe_for_play(&child).unwrap();
            let (lower, upper) = table_scores(&child, v);
            let score = if lower == upper {
                lower
            } else {
                let p = p.expect("every layer has its paths file");
                let s = point_score(&child, p);
                inside |= lower < s && s < upper;
                s.clamp(lower, upper)
            };
            best = best.max(Some(-score));
        }
        let Some(best) = best else { continue };
        searched += 1;
        by_point += usize::from(inside);
        let expected = match Score::of(best) {
            Score::Cp(c) => format!("score cp {c} "),
            Score::Tables(m) => format!("score cp {} ", 100 * m),
            Score::Mate(_) => unreachable!("no child ends the game"),
        };
        let (_, lines) = e.best(&board, &[], "go depth 1");
        let last = lines
            .iter()
            .rfind(|l| l.starts_with("info depth 1 ") && l.contains(" score "))
            .unwrap_or_else(|| panic!("{board}: {lines:?}"));
        assert!(
            last.contains(&expected) && !last.contains("bound"),
            "{board}: expected {expected}\n{}",
            lines.join("\n")
        );
    }
    assert!(shown == [true, true], "{shown:?}");
    // Roots searched, some of them decided by a point value strictly inside a child's bounds.
    assert!(searched >= 100 && by_point > 0, "{searched} {by_point}");
}
