//! `awari solve` against the tests' independent solvers (`common/kalah.rs`): a plain memoized
//! full-width minimax over kalah positions (houses, stores and side to move), with their own
//! sowing written from rules.md, that share nothing with the engine (neither the rules core
//! nor the search). Compared on the starts with 1 to 3 seeds per house (through the binary),
//! on positions along random lines, with and without endgame tables built here; then the
//! command's errors and its Ctrl-C.

use awari::rng::Rng;
use awari::rules::{Board, Side, Variant};
use awari::tables::Tables;
use awari::tools::prove::{Proof, Solver};
use std::collections::HashMap;
use std::io::Read;
use std::process::Stdio;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::common;
use crate::common::kalah::{alpha_beta_margin, minimax, Kalah};
use crate::common::AWARI;

fn solve(board: &Board, tables: Option<&Tables>) -> Proof {
    let stop = AtomicBool::new(false);
    Solver::new(16, tables, &stop)
        .unwrap()
        .solve(board, &mut |_| {})
        .expect("kalah is supported")
}

fn awari(args: &[&str]) -> (i32, String, String) {
    let out = common::awari(args);
    let (stdout, stderr) = (common::text(&out.stdout), common::text(&out.stderr));
    (out.status.code().unwrap_or(-1), stdout, stderr)
}

/// Plays the `pv` line's moves from `board` with the independent rules: the line must reach
/// the proven value (the game's end, or a position the minimax scores so).
fn check_pv(board: &Board, stdout: &str, value: i32) {
    let pv = stdout
        .lines()
        .find_map(|l| l.strip_prefix("pv "))
        .expect("a pv line");
    let mut k = Kalah::of(board);
    let me = k.side;
    for c in pv
        .split(' ')
        .next()
        .unwrap()
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
    {
        let house = if c.is_ascii_uppercase() {
            c as usize - 'A' as usize
        } else {
            c as usize - 'a' as usize + 6
        };
        assert!(
            !k.over() && house / 6 == k.side && k.houses[house] > 0,
            "{pv}: {c}"
        );
        k = k.sow(house);
    }
    let v = minimax(&k, &mut HashMap::new());
    assert_eq!(if k.side == me { v } else { -v }, value, "{pv}");
}

/// Kalah(6,1) to Kalah(6,3) through the binary: Kalah(6,1) against the plain minimax, all
/// three against the alpha-beta solver; the line printed reaches the value.
#[test]
fn the_small_starts_have_the_independent_solvers_values() {
    for seeds in 1..=3u32 {
        let board = Board::start_with_seeds(Variant::Kalah, seeds).unwrap();
        let k = Kalah::of(&board);
        let t = Instant::now();
        let expected = alpha_beta_margin(&k, &mut HashMap::new());
        eprintln!(
            "Kalah(6,{seeds}): {expected} (alpha-beta: {:?})",
            t.elapsed()
        );
        if seeds == 1 {
            assert_eq!(minimax(&k, &mut HashMap::new()), expected);
        }
        let (code, out, err) = awari(&["solve", "--seeds", &seeds.to_string(), "--hash", "64"]);
        assert_eq!(code, 0, "{out}{err}");
        assert_eq!(
            common::solve_value(&out),
            expected,
            "Kalah(6,{seeds}): {out}"
        );
        check_pv(&board, &out, expected);
        assert!(out.contains("tables: none"), "{out}");
    }
}

/// Starts of 1 to 3 seeds a house (at most 14 seeds in all), and positions along random lines
/// from Kalah(6,2) to Kalah(6,4): the solver against the alpha-beta solver where at most 20
/// seeds are on the board, and against the plain minimax where at most 12 are.
#[test]
fn positions_along_random_lines_have_the_independent_solvers_values() {
    let mut rng = Rng::new(22);
    let mut memo = HashMap::new();
    let mut checked = 0;
    for _ in 0..8 {
        let mut houses = [1u8; 12];
        for _ in 0..2 {
            let h = rng.below(12) as usize;
            houses[h] = (houses[h] + 1).min(3);
        }
        let side = if rng.below(2) == 0 {
            Side::South
        } else {
            Side::North
        };
        let board = Board::from_parts(Variant::Kalah, houses, [0, 0], side, false, 0).unwrap();
        assert_eq!(
            solve(&board, None).exact(),
            Some(minimax(&Kalah::of(&board), &mut memo)),
            "{board}"
        );
        checked += 1;
    }
    let mut bounds = HashMap::new();
    for line in 0..9 {
        let seeds = 2 + line % 3;
        let mut board = Board::start_with_seeds(Variant::Kalah, seeds).unwrap();
        while let Ok(moves) = board.moves_or_end() {
            let k = Kalah::of(&board);
            // Kalah(6,4)'s first positions take the solver without tables a minute.
            let proof = if k.row(0) + k.row(1) <= 20 {
                solve(&board, None)
            } else {
                let all: Vec<_> = moves.collect();
                board = board.play(all[rng.below(all.len() as u64) as usize]);
                continue;
            };
            if k.row(0) + k.row(1) <= 20 {
                let expected = alpha_beta_margin(&k, &mut bounds);
                assert_eq!(proof.exact(), Some(expected), "{board}");
            }
            if k.row(0) + k.row(1) <= 12 {
                assert_eq!(proof.exact(), Some(minimax(&k, &mut memo)), "{board}");
                checked += 1;
            }
            let all: Vec<_> = moves.collect();
            board = board.play(all[rng.below(all.len() as u64) as usize]);
        }
    }
    assert!(checked >= 30, "only {checked} positions");
}

/// With tables (built here, to 10 seeds), the values are the same; the tables answer part of
/// the nodes.
#[test]
fn with_tables_the_values_are_the_same() {
    let dir = common::scratch("solve", "tables");
    common::build_tables(&dir, Variant::Kalah, 10);
    let tables = Tables::open(&dir, Variant::Kalah);
    let mut rng = Rng::new(7);
    let mut hits = 0;
    // The memo holds bounds on the margin from each position's houses, whatever the line and
    // the window: one serves every line.
    let mut memo = HashMap::new();
    for line in 0..4 {
        let seeds = 2 + line % 2;
        let mut board = Board::start_with_seeds(Variant::Kalah, seeds).unwrap();
        while let Ok(moves) = board.moves_or_end() {
            let expected = alpha_beta_margin(&Kalah::of(&board), &mut memo);
            let proof = solve(&board, Some(&tables));
            assert_eq!(proof.exact(), Some(expected), "{board}");
            hits += proof.tbhits;
            let all: Vec<_> = moves.collect();
            board = board.play(all[rng.below(all.len() as u64) as usize]);
        }
    }
    assert!(hits > 0);
    // Through the binary, with a line that ends in the tables.
    let board = Board::start_with_seeds(Variant::Kalah, 3).unwrap();
    let dir_arg = dir.to_string_lossy().to_string();
    let (code, out, err) = awari(&["solve", "--seeds", "3", "--tables", &dir_arg]);
    assert_eq!(code, 0, "{out}{err}");
    let expected = alpha_beta_margin(&Kalah::of(&board), &mut memo);
    assert_eq!(common::solve_value(&out), expected, "{out}");
    assert!(out.contains("tables: kalah layers 0-10"), "{out}");
    check_pv(&board, &out, expected);
}

/// Ahl (bonus moves, sowing through both stores, no row collected at the end) against a
/// memoized minimax over the rules core's boards.
#[test]
fn ahl_positions_have_the_minimax_values() {
    fn minimax(board: &Board, memo: &mut HashMap<Board, i32>) -> i32 {
        let me = board.side_to_move();
        let margin = |stores: [u8; 2]| {
            let [s, n] = stores.map(i32::from);
            if me == Side::South {
                s - n
            } else {
                n - s
            }
        };
        if let Some(outcome) = board.outcome() {
            return margin(outcome.stores);
        }
        if let Some(&v) = memo.get(board) {
            return v;
        }
        let v = board
            .legal_moves()
            .map(|m| {
                let child = board.play(m);
                let v = minimax(&child, memo);
                if child.side_to_move() == me {
                    v
                } else {
                    -v
                }
            })
            .max()
            .unwrap();
        memo.insert(*board, v);
        v
    }
    let mut rng = Rng::new(3);
    let mut memo = HashMap::new();
    let mut checked = 0;
    for line in 0..6 {
        let mut board = Board::start_with_seeds(Variant::Ahl, 1 + line % 2).unwrap();
        while let Ok(moves) = board.moves_or_end() {
            if board.houses().iter().map(|&h| u32::from(h)).sum::<u32>() <= 12 {
                let expected = minimax(&board, &mut memo);
                assert_eq!(solve(&board, None).exact(), Some(expected), "{board}");
                checked += 1;
            }
            let all: Vec<_> = moves.collect();
            board = board.play(all[rng.below(all.len() as u64) as usize]);
        }
    }
    assert!(checked >= 20, "only {checked} positions");
}

#[test]
fn bad_input_is_refused_with_a_message() {
    let rows: &[(&[&str], &str)] = &[
        (&["solve", "--fen", "4-4-4"], "--fen"),
        (&["solve", "--moves", "FX"], "--moves"),
        (&["solve", "--moves", "a"], "--moves"),
        (&["solve", "--variant", "oware"], "repetition rule"),
        (&["solve", "--variant", "ayoayo"], "cannot be solved"),
        (&["solve", "--variant", "awari"], "move-250"),
        (
            &["solve", "--tables", "/nonexistent/awari-tables"],
            "no such directory",
        ),
        (
            &["solve", "--variant", "ahl", "--tables", "/tmp"],
            "only for kalah",
        ),
        (&["solve", "--variant", "nim"], "nim"),
    ];
    for (args, says) in rows {
        let (code, out, err) = awari(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // A table larger than the memory the process may have: an error, not an abort. Its
    // address space is limited to 64 GiB, so that the allocation is refused whatever the
    // machine's size and the kernel's overcommit setting (with overcommit always allowed, an
    // unlimited process would be granted it and then fill the memory).
    let mut command = common::hermetic(AWARI);
    command.args(["solve", "--hash", "1048576"]);
    let out = common::address_space_limited(command, 64 << 30)
        .output()
        .unwrap();
    let err = common::text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot allocate"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // A directory without kalah tables.
    let empty = common::scratch("solve", "empty");
    let (code, _, err) = awari(&["solve", "--tables", &empty.to_string_lossy()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no kalah tables"), "{err}");
    // A finished game has its value at once.
    let (code, out, err) = awari(&["solve", "--fen", "0-0-0-0-0-0-1-2-0-0-0-0-20-25-S"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(common::solve_value(&out), -8, "{out}");
}

/// Whether process `pid` catches both SIGINT and SIGTERM (`SigCgt` in its `/proc` status, a
/// mask in hex with signal N at bit N-1). The solve installs SIGINT's two handlers (the flag,
/// and the exit on a second Ctrl-C), then SIGTERM's: with SIGTERM caught, a SIGINT is sure to
/// reach the flag.
fn catches_interrupts(pid: u32) -> bool {
    let bit = |signal: i32| 1u64 << (signal - 1);
    let both = bit(nix::libc::SIGINT) | bit(nix::libc::SIGTERM);
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & both == both)
}

/// Ctrl-C on a long solve (kalah's start without tables): it stops at once, prints the bounds
/// proven so far and exits with status 130.
#[test]
fn ctrl_c_stops_with_the_bounds_proven_so_far() {
    // What a solve that has nothing to search costs on this machine as it is now (start,
    // output, exit): "at once" is within 5 s beyond it.
    let started = Instant::now();
    let (code, _, err) = awari(&["solve", "--fen", "0-0-0-0-0-0-1-2-0-0-0-0-20-25-S"]);
    assert_eq!(code, 0, "{err}");
    let at_once = Duration::from_secs(5) + started.elapsed();
    let mut child = common::hermetic(AWARI)
        .args(["solve", "--hash", "64"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Ctrl-C once the solve catches it (before, it would end the process as a plain SIGINT
    // does): the kernel shows the handler in the process's caught signals.
    let caught = Instant::now();
    while !catches_interrupts(child.id()) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the solve ended before catching SIGINT"
        );
        assert!(
            caught.elapsed() < Duration::from_secs(60),
            "no SIGINT handler within 60 s"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let sent = Instant::now();
    let status = child.wait().unwrap();
    let waited = sent.elapsed();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(130), "{out}{err}");
    assert!(
        waited < at_once,
        "{waited:?}, at once being {at_once:?} now"
    );
    let line = out
        .lines()
        .find(|l| l.starts_with("interrupted: "))
        .unwrap_or_else(|| panic!("{out}"));
    // "... is between L and U (proven so far)": true bounds around Kalah(6,4)'s value.
    let words: Vec<&str> = line.split(' ').collect();
    let at = words.iter().position(|&w| w == "between").unwrap();
    let lower: i32 = words[at + 1].parse().unwrap();
    let upper: i32 = words[at + 3].parse().unwrap();
    assert!(-48 <= lower && lower < upper && upper <= 48, "{line}");
    assert!(out.contains("nodes "), "{out}");
    assert!(err.is_empty(), "{err}");
}
