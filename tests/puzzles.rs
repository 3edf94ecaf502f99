//! `awari puzzles` against real tables and real games: each puzzle it writes, and each one
//! shipped in puzzles/oware.txt, has the tables' one best move as its answer; every bad input
//! is refused with an error and status 2, and the output left alone.

use awari::puzzles::{parse_file, result, Puzzle};
use awari::record::GameRecord;
use awari::rules::{Board, Game, Variant};
use awari::tables::probe::after_move;
use awari::tables::Tables;
use std::path::Path;

use crate::common::*;

/// Checks `puzzle` against the tables: every legal move's value is the tables' (the mover's
/// store added), the answer's keeps the puzzle's result and every other move's falls short
/// of it.
fn check_against_tables(tables: &Tables, puzzle: &Puzzle) {
    let board = &puzzle.board;
    let store = board.store(board.side_to_move());
    let total = board.total_seeds();
    let goal = puzzle.goal.ordering();
    let root = tables.probe(board).expect("the position is in the tables");
    assert_eq!(
        result(store + root.lo, total),
        goal,
        "{puzzle}: the root's result"
    );
    let legal: Vec<_> = board.legal_moves().collect();
    assert_eq!(legal.len(), puzzle.moves.len(), "{puzzle}");
    for m in legal {
        let v = after_move(tables, board, m).expect("every move's value");
        let (lo, hi) = (store + v.lo, store + v.hi);
        assert_eq!(
            puzzle.value_of(m).map(|v| (v.lo, v.hi)),
            Some((lo, hi)),
            "{puzzle}: {m}'s value"
        );
        if m == puzzle.answer {
            assert!(result(lo, total) >= goal, "{puzzle}: the answer loses it");
        } else {
            assert!(result(hi, total) < goal, "{puzzle}: {m} keeps it too");
        }
    }
}

/// Checks that `puzzle` is the position its source names, right after a move that threw away
/// a result the tables proved for its mover: better than the most it can get now.
fn check_after_a_mistake(tables: &Tables, puzzle: &Puzzle, records: &[String]) {
    let line: usize = puzzle
        .source
        .strip_prefix("games.jsonl:")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{puzzle}: its source"));
    let record = GameRecord::from_json(records[line - 1].as_bytes()).unwrap();
    let mut game = Game::new(Board::from_notation(Variant::Oware, &record.start).unwrap());
    game.play_text(&format!("{}{}", record.opening, record.moves))
        .unwrap();
    let positions = game.positions();
    assert_eq!(
        positions[puzzle.ply], puzzle.board,
        "{puzzle}: the game's position"
    );
    let before = &positions[puzzle.ply - 1];
    let mover = before.side_to_move();
    assert_ne!(mover, puzzle.board.side_to_move(), "{puzzle}");
    let had = tables.probe(before).unwrap();
    let had = result(before.store(mover) + had.lo, before.total_seeds());
    // The side to move now is sure of the goal: the mover can get at most its reverse.
    assert!(
        had > puzzle.goal.ordering().reverse(),
        "{puzzle}: no mistake before it"
    );
}

/// Plays a quick match of the engine at depths 1 and 2 (no tables) from the suite's first
/// openings, its records to `jsonl`.
fn play_games(jsonl: &Path, games: &str) {
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/tournament/openings/oware.txt");
    let weak = format!("cmd={AWARI}");
    let out = referee()
        .args([
            "--variant",
            "oware",
            "--games",
            games,
            "--openings",
            openings,
        ])
        .args(["--engine", &weak, "name=a", "depth=1", "option.TablesPath="])
        .args(["--engine", &weak, "name=b", "depth=2", "option.TablesPath="])
        .arg("--jsonout")
        .arg(jsonl)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", printed(&out));
}

#[test]
fn puzzles_found_in_games_have_the_tables_one_best_move() {
    let dir = scratch("puzzles", "found");
    let tables_dir = dir.join("tables");
    build_tables(&tables_dir, Variant::Oware, 12);
    let games = dir.join("games.jsonl");
    play_games(&games, "60");
    let out_file = dir.join("puzzles.txt");
    let out = awari(&[
        "puzzles",
        "--tables",
        tables_dir.to_str().unwrap(),
        "--out",
        out_file.to_str().unwrap(),
        games.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", printed(&out));
    let text = std::fs::read_to_string(&out_file).unwrap();
    let puzzles = parse_file(&text).unwrap();
    assert!(
        !puzzles.is_empty(),
        "no puzzles in 60 games:\n{}",
        printed(&out)
    );
    assert!(
        text::contains_line(
            &printed(&out),
            &format!("{} puzzles from 60 games", puzzles.len())
        ),
        "{}",
        printed(&out)
    );
    let tables = Tables::open(&tables_dir, Variant::Oware);
    let records: Vec<String> = std::fs::read_to_string(&games)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    for (i, puzzle) in puzzles.iter().enumerate() {
        assert_eq!(puzzle.id, format!("oware-{}", i + 1));
        check_against_tables(&tables, puzzle);
        check_after_a_mistake(&tables, puzzle, &records);
    }
    // --max stops early.
    let out = awari(&[
        "puzzles",
        "--tables",
        tables_dir.to_str().unwrap(),
        "--max",
        "1",
        "--out",
        out_file.to_str().unwrap(),
        games.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", printed(&out));
    let text = std::fs::read_to_string(&out_file).unwrap();
    assert_eq!(parse_file(&text).unwrap(), puzzles[..1]);
}

mod text {
    /// Whether a line of `printed` starts with `prefix`.
    pub fn contains_line(printed: &str, prefix: &str) -> bool {
        printed.lines().any(|l| l.starts_with(prefix))
    }
}

#[test]
fn bad_inputs_are_refused_and_the_output_left_alone() {
    let dir = scratch("puzzles", "bad");
    let tables_dir = dir.join("tables");
    build_tables(&tables_dir, Variant::Oware, 2);
    let empty_dir = dir.join("empty");
    std::fs::create_dir_all(&empty_dir).unwrap();
    let games = dir.join("games.jsonl");
    play_games(&games, "2");
    let record = std::fs::read_to_string(&games).unwrap();
    let first = record.lines().next().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let malformed = write("malformed.jsonl", &format!("{first}\n{{\"round\": 1}}\n"));
    let awari_game = write(
        "awari.jsonl",
        &first.replace("\"variant\":\"oware\"", "\"variant\":\"awari\""),
    );
    // The opening's first move made North's: not South's to play.
    let mut bad: serde_json::Value = serde_json::from_str(first).unwrap();
    let opening = bad["opening"].as_str().unwrap().to_string();
    bad["opening"] = format!("a{}", &opening[1..]).into();
    let illegal = write("illegal.jsonl", &bad.to_string());
    let games = games.to_str().unwrap();
    let tables = tables_dir.to_str().unwrap();
    let out = dir.join("out.txt");
    std::fs::write(&out, "kept\n").unwrap();
    let out = out.to_str().unwrap();
    let missing = dir.join("missing.jsonl");
    let missing = missing.to_str().unwrap();
    let empty = empty_dir.to_str().unwrap();
    let nowhere = dir.join("nowhere");
    let nowhere = nowhere.to_str().unwrap();
    let rows: [(&str, Vec<&str>, &str); 7] = [
        ("a missing record file", vec![missing], "missing.jsonl: "),
        (
            "a line that is not a record",
            vec![games, &malformed],
            "malformed.jsonl: line 2: not a game record",
        ),
        (
            "a rule set without tables",
            vec![&awari_game],
            "line 1: a game of awari: there are endgame tables for oware and kalah only",
        ),
        (
            "moves that are not legal",
            vec![&illegal],
            "illegal.jsonl: line 1: the game's moves",
        ),
        ("the output is a record file", vec![games, out], "--out"),
        (
            "no tables in the directory",
            vec![games, "--tables", empty],
            "no oware tables in",
        ),
        (
            "no such tables directory",
            vec![games, "--tables", nowhere],
            "no such directory",
        ),
    ];
    for (what, extra, want) in rows {
        let mut args = vec!["puzzles", "--out", out];
        if !extra.contains(&"--tables") {
            args.extend(["--tables", tables]);
        }
        args.extend(extra.iter().copied());
        let result = awari(&args);
        let said = printed(&result);
        assert_eq!(result.status.code(), Some(2), "{what}: {said}");
        assert!(
            said.contains("error: ") && said.contains(want),
            "{what}: {said}"
        );
        assert_eq!(std::fs::read_to_string(out).unwrap(), "kept\n", "{what}");
    }
}

/// The shipped set (puzzles/oware.txt, tournament/make_puzzles.sh): every puzzle's answer is
/// the one best move of tables built here, up to the seeds the set was made with.
#[test]
fn shipped_puzzles_have_the_tables_one_best_move() {
    let text = include_str!("../puzzles/oware.txt");
    let puzzles = parse_file(text).unwrap();
    assert!(puzzles.len() >= 200, "{} puzzles", puzzles.len());
    let seeds = puzzles
        .iter()
        .map(|p| {
            p.board
                .houses()
                .iter()
                .map(|&h| usize::from(h))
                .sum::<usize>()
        })
        .max()
        .unwrap();
    assert!(
        seeds <= 14,
        "a puzzle of {seeds} seeds: the test builds tables to 14"
    );
    let dir = scratch("puzzles", "shipped");
    build_tables(&dir, Variant::Oware, seeds);
    let tables = Tables::open(&dir, Variant::Oware);
    for puzzle in &puzzles {
        check_against_tables(&tables, puzzle);
    }
}
