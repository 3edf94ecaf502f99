//! `awari solve` against an independent solver of this file's own: a plain memoized
//! full-width minimax over kalah positions (houses, stores and side to move), with its own
//! sowing written from rules.md, that shares nothing with the engine (neither the rules core
//! nor the search). Compared on the starts with 1 to 3 seeds per house (through the binary),
//! on positions along random lines, with and without endgame tables built here; then the
//! command's errors and its Ctrl-C.

use awari::engine::solve::{Proof, Solver};
use awari::rng::Rng;
use awari::rules::{Board, Side, Variant};
use awari::tables::build::{build, BuildOptions};
use awari::tables::Tables;
use std::collections::HashMap;
use std::io::Read;
use std::process::Stdio;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

mod common;

const AWARI: &str = env!("CARGO_BIN_EXE_awari");

/// A kalah position as the independent solver sees it: houses `A..F a..f`, stores (South,
/// North), and the side to move (0 South, 1 North).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Kalah {
    houses: [u8; 12],
    stores: [u8; 2],
    side: usize,
}

impl Kalah {
    fn of(board: &Board) -> Kalah {
        Kalah {
            houses: board.houses(),
            stores: board.stores(),
            side: board.side_to_move().index(),
        }
    }

    fn row(&self, side: usize) -> u32 {
        self.houses[6 * side..6 * side + 6]
            .iter()
            .map(|&h| u32::from(h))
            .sum()
    }

    /// rules.md's kalah: sow counter-clockwise through the own store (place 6 for South, 13
    /// for North, houses at places 0-5 and 7-12), skipping the opponent's; a last seed in the
    /// own store moves again; a last seed alone in an own house takes the facing house's seeds
    /// with it when there are any; a row empty after a sowing ends the game, each side taking
    /// its own row.
    fn sow(&self, house: usize) -> Kalah {
        let mut k = *self;
        let me = k.side;
        let place_of = |h: usize| if h < 6 { h } else { h + 1 };
        let own_store = if me == 0 { 6 } else { 13 };
        let mut seeds = std::mem::take(&mut k.houses[house]);
        let mut place = place_of(house);
        while seeds > 0 {
            place = (place + 1) % 14;
            if place == 19 - own_store {
                continue;
            }
            if place == own_store {
                k.stores[me] += 1;
            } else {
                k.houses[if place < 6 { place } else { place - 1 }] += 1;
            }
            seeds -= 1;
        }
        if place != own_store {
            let last = if place < 6 { place } else { place - 1 };
            if last / 6 == me && k.houses[last] == 1 && k.houses[11 - last] > 0 {
                k.stores[me] += k.houses[last] + k.houses[11 - last];
                k.houses[last] = 0;
                k.houses[11 - last] = 0;
            }
            k.side = 1 - me;
        }
        k
    }

    fn over(&self) -> bool {
        self.row(0) == 0 || self.row(1) == 0
    }
}

/// The final margin (own store minus the opponent's) that best play gives `k`'s side to move.
fn minimax(k: &Kalah, memo: &mut HashMap<Kalah, i32>) -> i32 {
    let me = k.side;
    if k.over() {
        let mine = i32::from(k.stores[me]) + k.row(me) as i32;
        let theirs = i32::from(k.stores[1 - me]) + k.row(1 - me) as i32;
        return mine - theirs;
    }
    if let Some(&v) = memo.get(k) {
        return v;
    }
    let v = (6 * me..6 * me + 6)
        .filter(|&h| k.houses[h] > 0)
        .map(|h| {
            let child = k.sow(h);
            let v = minimax(&child, memo);
            if child.side == me {
                v
            } else {
                -v
            }
        })
        .max()
        .expect("a game not over has a move");
    memo.insert(*k, v);
    v
}

fn solve(board: &Board, tables: Option<&Tables>) -> Proof {
    let stop = AtomicBool::new(false);
    Solver::new(16, tables, &stop)
        .solve(board, &mut |_| {})
        .expect("kalah is supported")
}

fn awari(args: &[&str]) -> (i32, String, String) {
    let out = common::hermetic(AWARI).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The `value N:` line's N.
fn value_of(stdout: &str) -> i32 {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("value "))
        .unwrap_or_else(|| panic!("no value line in {stdout}"));
    line["value ".len()..]
        .split(':')
        .next()
        .unwrap()
        .parse()
        .unwrap()
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

#[test]
fn the_small_starts_have_the_independent_solvers_values() {
    for seeds in 1..=3u32 {
        let board = Board::start_with_seeds(Variant::Kalah, seeds).unwrap();
        let t = Instant::now();
        let expected = minimax(&Kalah::of(&board), &mut HashMap::new());
        let independent = t.elapsed();
        let (code, out, err) = awari(&["solve", "--seeds", &seeds.to_string(), "--hash", "64"]);
        assert_eq!(code, 0, "{out}{err}");
        assert_eq!(value_of(&out), expected, "Kalah(6,{seeds}): {out}");
        check_pv(&board, &out, expected);
        assert!(out.contains("tables: none"), "{out}");
        eprintln!("Kalah(6,{seeds}): {expected} (the independent solver: {independent:?})");
    }
}

/// Positions along random lines from the starts with 2 to 4 seeds per house, at every ply
/// while the independent solver is quick there.
#[test]
fn positions_along_random_lines_have_the_independent_solvers_values() {
    let mut rng = Rng::new(22);
    let mut checked = 0;
    for line in 0..12 {
        let seeds = 2 + line % 3;
        let mut board = Board::start_with_seeds(Variant::Kalah, seeds).unwrap();
        let mut memo = HashMap::new();
        while let Ok(moves) = board.moves_or_end() {
            let on_board: u32 = board.houses().iter().map(|&h| u32::from(h)).sum();
            if on_board <= 30 {
                let expected = minimax(&Kalah::of(&board), &mut memo);
                let proof = solve(&board, None);
                assert_eq!(proof.exact(), Some(expected), "{board}");
                checked += 1;
            }
            let all: Vec<_> = moves.collect();
            board = board.play(all[rng.below(all.len() as u64) as usize]);
        }
    }
    assert!(checked >= 100, "only {checked} positions");
}

/// With tables (built here, to 10 seeds), the values are the same; the tables answer part of
/// the nodes.
#[test]
fn with_tables_the_values_are_the_same() {
    let dir = common::scratch("solve", "tables");
    let options = BuildOptions {
        variant: Variant::Kalah,
        seeds: 10,
        threads: 2,
        dir: dir.to_path_buf(),
        bars: false,
    };
    build(&options, &mut std::io::sink()).unwrap();
    let tables = Tables::open(&dir, Variant::Kalah);
    let mut rng = Rng::new(7);
    let mut hits = 0;
    for line in 0..8 {
        let seeds = 2 + line % 2;
        let mut board = Board::start_with_seeds(Variant::Kalah, seeds).unwrap();
        let mut memo = HashMap::new();
        while let Ok(moves) = board.moves_or_end() {
            let expected = minimax(&Kalah::of(&board), &mut memo);
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
    let expected = minimax(&Kalah::of(&board), &mut HashMap::new());
    assert_eq!(value_of(&out), expected, "{out}");
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
    for seeds in 1..=2 {
        let mut board = Board::start_with_seeds(Variant::Ahl, seeds).unwrap();
        let mut memo = HashMap::new();
        while let Ok(moves) = board.moves_or_end() {
            assert_eq!(
                solve(&board, None).exact(),
                Some(minimax(&board, &mut memo)),
                "{board}"
            );
            let all: Vec<_> = moves.collect();
            board = board.play(all[rng.below(all.len() as u64) as usize]);
        }
    }
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
    // A directory without kalah tables.
    let empty = common::scratch("solve", "empty");
    let (code, _, err) = awari(&["solve", "--tables", &empty.to_string_lossy()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no kalah tables"), "{err}");
    // A finished game has its value at once.
    let (code, out, err) = awari(&["solve", "--fen", "0-0-0-0-0-0-1-2-0-0-0-0-20-25-S"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(value_of(&out), -8, "{out}");
}

/// Ctrl-C on a long solve (kalah's start without tables): it stops at once, prints the bounds
/// proven so far and exits with status 130.
#[test]
fn ctrl_c_stops_with_the_bounds_proven_so_far() {
    let mut child = common::hermetic(AWARI)
        .args(["solve", "--hash", "64"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
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
    assert!(waited < Duration::from_secs(5), "{waited:?}");
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
