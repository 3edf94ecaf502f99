//! Kalah's two readings, `kalah` (a last seed alone facing an empty house stays) and
//! `kalah-empty` (it goes to the store: the published solutions' rule), against the tests' own
//! model of the game (`common/kalah.rs`: sowing written from doc/rules.md, perft, minimax and
//! alpha-beta, nothing shared with the engine): perft, `awari solve`'s values of the small
//! starts, the endgame tables' values, and that nothing built or learnt for one reading is
//! ever used for the other. Kalah(6,4) and (6,5) are too long for a test: doc/solve.md.

use awari::rng::Rng;
use awari::rules::{perft, Board, Game, Side, Variant};
use awari::tables::index::{layer_size, unrank};
use awari::tables::Tables;
use awari::tools::prove::Solver;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use crate::common;
use crate::common::kalah::{alpha_beta_margin, minimax, perft as model_perft, Kalah};

const READINGS: [Variant; 2] = [Variant::Kalah, Variant::KalahEmpty];

/// The rules' perft equals the model's, in both readings, from the starts of 1 to 4 seeds a
/// house and from the positions of `tests/data/perft.txt` where the readings differ.
#[test]
fn perft_of_both_readings_is_the_models() {
    // (position: a notation, or "" for the start with `seeds` a house; seeds; depth)
    let rows: &[(&str, u32, u32)] = &[
        ("", 1, 10),
        ("", 2, 8),
        ("", 3, 7),
        ("", 4, 7),
        ("0-0-0-0-1-0-0-1-0-0-0-1-20-25-S", 0, 5),
        ("1-0-0-0-0-0-1-0-0-0-0-1-0-0-N", 0, 3),
        ("1-0-2-0-0-1-0-3-0-1-0-0-12-14-S", 0, 8),
    ];
    let mut differ = 0;
    for &(position, seeds, depth) in rows {
        let mut counts = Vec::new();
        for variant in READINGS {
            let board = if position.is_empty() {
                Board::start_with_seeds(variant, seeds).unwrap()
            } else {
                Board::from_notation(variant, position).unwrap()
            };
            let game = Game::new(board);
            let k = Kalah::of(&board);
            let ours: Vec<u64> = (1..=depth).map(|d| perft(&game, d)).collect();
            let model: Vec<u64> = (1..=depth).map(|d| model_perft(&k, d)).collect();
            assert_eq!(ours, model, "{variant} {board}");
            counts.push(ours);
        }
        differ += usize::from(counts[0] != counts[1]);
    }
    assert!(differ >= 3, "the readings differ in {differ} rows only");
}

/// `awari solve` from the starts of 1 to 3 seeds a house, both readings, through the binary:
/// the model's alpha-beta value (and for one seed its plain minimax's too). The values are
/// pinned as well, so that a change of either reading shows.
#[test]
fn small_starts_solve_to_the_models_values_in_both_readings() {
    // (seeds a house, value in kalah, value in kalah-empty), South to move.
    let rows = [(1u32, 2, 2), (2, 6, 10), (3, 2, 2)];
    for (seeds, kalah, empty) in rows {
        for (variant, pinned) in READINGS.into_iter().zip([kalah, empty]) {
            let board = Board::start_with_seeds(variant, seeds).unwrap();
            let k = Kalah::of(&board);
            let expected = alpha_beta_margin(&k, &mut HashMap::new());
            if seeds == 1 {
                assert_eq!(minimax(&k, &mut HashMap::new()), expected, "{variant}");
            }
            let out = common::awari(&[
                "solve",
                "--variant",
                variant.name(),
                "--seeds",
                &seeds.to_string(),
                "--hash",
                "64",
            ]);
            let text = common::printed(&out);
            assert_eq!(out.status.code(), Some(0), "{text}");
            assert!(
                text.contains(&format!("solve {variant} from")),
                "{variant}: {text}"
            );
            assert_eq!(
                common::solve_value(&text),
                expected,
                "{variant}({seeds}): {text}"
            );
            assert_eq!(expected, pinned, "{variant}({seeds}): the model's value");
        }
    }
}

/// Kalah-empty tables (built here to 8 seeds) hold the model's exact values: every position
/// of up to 5 seeds, and random ones of 6 to 8; the two readings' tables differ in many
/// positions. `awari solve` with the tables, from positions along random lines, agrees with
/// the model's alpha-beta.
#[test]
fn kalah_empty_tables_hold_the_models_values() {
    const SEEDS: usize = 8;
    let dirs: Vec<_> = READINGS
        .iter()
        .map(|&variant| {
            let dir = common::scratch("kalah-values", variant.name());
            common::build_tables(&dir, variant, SEEDS);
            dir
        })
        .collect();
    let [kalah, empty] = [0, 1].map(|i| Tables::open(&dirs[i], READINGS[i]));
    assert!(empty.problems().is_empty(), "{:?}", empty.problems());
    assert_eq!(empty.reach(), Some(SEEDS));
    let mut memo = HashMap::new();
    let mut rng = Rng::new(0x6b65);
    let (mut checked, mut differ) = (0, 0);
    for n in 1..=SEEDS {
        let size = layer_size(n);
        let picks: Vec<u64> = if n <= 5 {
            (0..size).collect()
        } else {
            (0..2000).map(|_| rng.below(size)).collect()
        };
        for index in picks {
            let houses = unrank(n, index);
            let board =
                Board::from_parts(Variant::KalahEmpty, houses, [0, 0], Side::South, false, 0)
                    .unwrap();
            let expected = minimax(&Kalah::of(&board), &mut memo);
            let value = empty.probe(&board).unwrap_or_else(|| panic!("{board}"));
            // The seeds of the board the side to move ends with: (n + margin) / 2.
            let exact = value.exact().map(|x| 2 * i32::from(x) - n as i32);
            assert_eq!(exact, Some(expected), "{board}");
            checked += 1;
            let standard =
                Board::from_parts(Variant::Kalah, houses, [0, 0], Side::South, false, 0).unwrap();
            differ += usize::from(kalah.probe(&standard).unwrap() != value);
        }
    }
    assert!(checked > 10_000, "{checked}");
    assert!(
        differ > 100,
        "the readings' tables differ in {differ} positions only"
    );
    // The solver with the tables, along random lines of Kalah-empty(6,2) and (6,3).
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new(16, Some(&empty), &stop).unwrap();
    let mut bounds = HashMap::new();
    let mut hits = 0;
    for line in 0..4 {
        let mut board = Board::start_with_seeds(Variant::KalahEmpty, 2 + line % 2).unwrap();
        while let Ok(moves) = board.moves_or_end() {
            let proof = solver.solve(&board, &mut |_| {}).unwrap();
            let expected = alpha_beta_margin(&Kalah::of(&board), &mut bounds);
            assert_eq!(proof.exact(), Some(expected), "{board}");
            hits += proof.tbhits;
            let all: Vec<_> = moves.collect();
            board = board.play(all[rng.below(all.len() as u64) as usize]);
        }
    }
    assert!(hits > 0);
}

/// Nothing built or learnt for one reading is used for the other: the tables (their files are
/// named after the rule set, and a file renamed to the other's name is refused by its
/// header), `awari solve --tables`, and a solver that proves positions of both readings one
/// after the other (its table keys on the positions' Zobrist keys, which tell the readings
/// apart).
#[test]
fn one_readings_tables_and_proofs_are_never_used_for_the_other() {
    let dir = common::scratch("kalah-values", "apart");
    common::build_tables(&dir, Variant::Kalah, 4);
    assert_eq!(Tables::open(&dir, Variant::Kalah).reach(), Some(4));
    let other = Tables::open(&dir, Variant::KalahEmpty);
    assert_eq!(other.reach(), None);
    // A kalah board is not probed in kalah-empty's tables, nor the other way round.
    let kalah_tables = Tables::open(&dir, Variant::Kalah);
    let fen = "1-0-0-0-0-0-0-0-0-0-0-1-23-23-S";
    let empty_board = Board::from_notation(Variant::KalahEmpty, fen).unwrap();
    assert!(kalah_tables
        .probe(&Board::from_notation(Variant::Kalah, fen).unwrap())
        .is_some());
    assert!(kalah_tables.probe(&empty_board).is_none());
    // Kalah's files under kalah-empty's names: refused, each for holding kalah.
    for n in 0..=4 {
        let name = |v: Variant| dir.join(format!("{}-{n:02}.awtb", v.name()));
        std::fs::copy(name(Variant::Kalah), name(Variant::KalahEmpty)).unwrap();
    }
    let renamed = Tables::open(&dir, Variant::KalahEmpty);
    assert_eq!(renamed.reach(), None);
    let problems = renamed
        .problems()
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        problems.contains("wrong variant: holds kalah"),
        "{problems}"
    );
    let out = common::awari(&[
        "solve",
        "--variant",
        "kalah-empty",
        "--tables",
        &dir.to_string_lossy(),
    ]);
    let err = common::text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("no kalah-empty tables there"), "{err}");
    // One solver, handed kalah's tables, proves Kalah(6,2) in one reading and then the other,
    // and back: each its own value, the tables read for kalah only.
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new(16, Some(&kalah_tables), &stop).unwrap();
    let mut values = Vec::new();
    for variant in [Variant::Kalah, Variant::KalahEmpty, Variant::Kalah] {
        let board = Board::start_with_seeds(variant, 2).unwrap();
        let proof = solver.solve(&board, &mut |_| {}).unwrap();
        let expected = alpha_beta_margin(&Kalah::of(&board), &mut HashMap::new());
        assert_eq!(proof.exact(), Some(expected), "{variant} {board}");
        // (The second kalah solve finds it all in its table.)
        if values.len() < 2 {
            assert_eq!(proof.tbhits > 0, variant == Variant::Kalah, "{variant}");
        }
        values.push(expected);
    }
    assert_ne!(
        values[0], values[1],
        "a position whose value the readings change"
    );
    // The keys differ, and the incremental key is the recomputed one in kalah-empty too.
    let [a, b] = READINGS.map(Board::start);
    assert_ne!(a.key(), b.key());
    let mut game = Game::new(b);
    game.play_text("CFbaEeFBFEdA").unwrap();
    assert_eq!(game.board().key(), game.board().recompute_key());
}
