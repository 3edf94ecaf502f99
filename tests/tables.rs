//! The endgame tables: the index, the layer files and their faults (read by the library and
//! under a searching engine), and resuming a killed build. (`awari tables` is in
//! `tables_cli.rs`, the engine searching with tables in `tables_search.rs`, the values
//! themselves checked against an independent search in `tables_values.rs`.)

use awari::rng::Rng;
use awari::rules::{Board, Move, Side, Variant};
use awari::tables::file::{layer_path, FileError, Layer};
use awari::tables::index::{
    from_side, layer_size, locate, next, positions_up_to, rank, seeds, unrank,
};
use awari::tables::layer::{moves, Moves, Step};
use awari::tables::{Problem, Tables, Value};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common;
use crate::common::tables::{awari, random_houses, random_side, read, WAIT};
use crate::common::{build_tables, Engine, Scratch, AWARI};

fn scratch(tag: &str) -> Scratch {
    common::scratch("tables", tag)
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
