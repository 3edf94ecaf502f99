//! The search's optional features (`search::switches`): quiescence search sees through a
//! capture sequence that a one-ply search misjudges, every switch on together keeps the
//! results plain minimax proves, and with every switch off the search is the one without them.

use awari::rng::Rng;
use awari::rules::{Board, Game, Move, Variant};
use awari::search::bench::bench;
use awari::search::eval::Evaluator;
use awari::search::switches::{self, Switches};
use awari::search::time::Limits;
use awari::search::tt::HashTable;
use awari::search::{search, Control, Found, Setup, MATE_BOUND};
use std::sync::Mutex;

#[path = "common/minimax.rs"]
mod minimax;
use minimax::solve;

/// The switches are process-wide: the tests that set them take turns.
static SWITCHES: Mutex<()> = Mutex::new(());

/// Runs `work` with the switches `on`, then puts the defaults back.
fn with<T>(on: Switches, work: impl FnOnce() -> T) -> T {
    let _turn = SWITCHES.lock().unwrap_or_else(|e| e.into_inner());
    switches::set_quiescence(on.quiescence);
    switches::set_futility(on.futility);
    switches::set_extensions(on.extensions);
    let result = work();
    switches::set_quiescence(switches::QUIESCENCE_DEFAULT);
    switches::set_futility(switches::FUTILITY_DEFAULT);
    switches::set_extensions(switches::EXTENSIONS_DEFAULT);
    result
}

fn think(game: &Game, depth: u32, on: Switches) -> Found {
    with(on, || {
        let mut table = HashTable::new(4);
        let control = Control::new(false);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let setup = Setup {
            tt: &mut table,
            threads: 1,
            control: &control,
            evaluator: Evaluator::terms(game.board().variant()),
            limits: &limits,
            overhead: 0,
            tables: None,
            path_values: false,
        };
        search(game, setup, &mut |_| {})
    })
}

const QUIESCENCE: Switches = Switches {
    quiescence: true,
    ..Switches::OFF
};

const ALL: Switches = Switches {
    quiescence: true,
    futility: true,
    extensions: true,
};

/// The score of playing `m` in `game`, for the side that plays it, by a deep search with the
/// switches off.
fn deep_value(game: &Game, m: Move, depth: u32) -> i32 {
    let mut g = game.clone();
    let me = g.board().side_to_move();
    g.play(m).expect("a legal move");
    let score = think(&g, depth, Switches::OFF).score;
    if g.board().side_to_move() == me {
        score
    } else {
        -score
    }
}

#[test]
fn quiescence_sees_through_a_capture_sequence() {
    // (oware position, the move a one-ply search picks, the move quiescence picks); in each
    // the first move's capture (or its quiet look) is answered by a larger capture that the
    // one-ply search stops before.
    let rows = [
        ("2-1-4-4-2-7-2-6-0-0-13-1-3-3-S", 'C', 'B'),
        ("13-1-2-1-13-4-2-6-1-1-0-4-0-0-S", 'F', 'B'),
        ("8-8-7-0-1-0-0-2-8-8-0-3-3-0-S", 'A', 'E'),
    ];
    for (notation, misjudged, found) in rows {
        let game = Game::new(Board::from_notation(Variant::Oware, notation).expect(notation));
        let misjudged = Move::from_char(misjudged).expect("a house");
        let found = Move::from_char(found).expect("a house");
        let plain = think(&game, 1, Switches::OFF);
        let quiet = think(&game, 1, QUIESCENCE);
        assert_eq!(plain.best, Some(misjudged), "{notation}: {plain:?}");
        assert_eq!(quiet.best, Some(found), "{notation}: {quiet:?}");
        // A deep search agrees with quiescence, by more than five seeds.
        let (bad, good) = (
            deep_value(&game, misjudged, 11),
            deep_value(&game, found, 11),
        );
        assert!(good > bad + 500, "{notation}: deep {bad} against {good}");
        // And the one-ply score with quiescence is nearer the deep one.
        assert!(
            (quiet.score - good).abs() < (plain.score - good).abs(),
            "{notation}: {} and {} against {good}",
            plain.score,
            quiet.score
        );
    }
}

/// A position of `variant` with `seeds` seeds on the board, reached by random sowing from a
/// random spread (stores hold the rest); `None` when it ended on the way.
fn random_endgame(rng: &mut Rng, variant: Variant, seeds: u32) -> Option<Game> {
    let mut houses = [0u8; 12];
    for _ in 0..seeds {
        houses[rng.below(12) as usize] += 1;
    }
    let total: u32 = match variant {
        Variant::Ahl => 36,
        _ => 48,
    };
    let south = (total - seeds) / 2;
    let stores = [south as u8, (total - seeds - south) as u8];
    let notation = format!(
        "{}-{}-{}-S",
        houses.map(|h| h.to_string()).join("-"),
        stores[0],
        stores[1]
    );
    let board = Board::from_notation(variant, &notation).ok()?;
    let game = Game::new(board);
    (game.outcome().is_none() && !game.legal_moves().is_empty()).then_some(game)
}

#[test]
fn proven_results_stand_with_every_switch_on() {
    // Endgames that minimax decides: with every switch on, the search reports the
    // same result (a mate score of the right sign, or no mate where it is a draw).
    let mut rng = Rng::new(25);
    let mut checked = 0;
    for variant in [Variant::Oware, Variant::Awari, Variant::Kalah, Variant::Ahl] {
        let mut tries = 0;
        let mut decided = 0;
        while decided < 12 && tries < 400 {
            tries += 1;
            let Some(game) = random_endgame(&mut rng, variant, 5) else {
                continue;
            };
            let depth = 9;
            let Some(result) = solve(&mut game.clone(), depth) else {
                continue;
            };
            decided += 1;
            let found = think(&game, depth + 1, ALL);
            let sign = match found.score {
                s if s > MATE_BOUND => 1,
                s if s < -MATE_BOUND => -1,
                _ => 0,
            };
            if result != 0 {
                assert_eq!(sign, result, "{variant} {}: {found:?}", game.board());
            } else {
                assert_eq!(sign, 0, "{variant} {}: {found:?}", game.board());
            }
        }
        assert!(decided >= 6, "{variant}: only {decided} decided positions");
        checked += decided;
    }
    assert!(checked >= 24);
}

#[test]
fn every_switch_off_is_the_search_without_them() {
    // `awari bench --depth 14` of the search before the switches existed (the frozen
    // baseline binary of 2026-11-25, which evaluated oware with the terms) counted 434,722
    // nodes. Any switch on changes the count.
    let nodes = |on: Switches| {
        with(on, || {
            bench(
                Some(14),
                None,
                1,
                Evaluator::terms,
                &Control::new(false),
                &mut |_| {},
            )
        })
    };
    assert_eq!(nodes(Switches::OFF), BASELINE_DEPTH_14);
    assert_ne!(nodes(QUIESCENCE), BASELINE_DEPTH_14);
    for one in [
        Switches {
            futility: true,
            ..Switches::OFF
        },
        Switches {
            extensions: true,
            ..Switches::OFF
        },
    ] {
        assert_ne!(nodes(one), BASELINE_DEPTH_14, "{one:?}");
    }
}

/// See [`every_switch_off_is_the_search_without_them`].
const BASELINE_DEPTH_14: u64 = 434_722;
