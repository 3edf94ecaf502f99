//! The search against known answers: hand-made tactical positions, then small endgames in every
//! rule set where a plain full-width minimax (`common::minimax`, on `Game`, with none of the
//! search's code) proves the result.

use awari::rng::Rng;
use awari::rules::{Board, Game, Move, Variant};
use awari::search::eval::Weights;
use awari::search::time::Limits;
use awari::search::tt::HashTable;
use awari::search::{search, Control, Found, Score, Setup, MATE_BOUND};

use crate::common::minimax::solve;

fn think(game: &Game, depth: u32) -> Found {
    think_threads(game, depth, 1)
}

fn think_threads(game: &Game, depth: u32, threads: usize) -> Found {
    think_with(
        game,
        &Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        threads,
    )
}

fn think_with(game: &Game, limits: &Limits, threads: usize) -> Found {
    let mut table = HashTable::new(4);
    let control = Control::new(false);
    let setup = Setup {
        tt: &mut table,
        threads,
        control: &control,
        evaluator: Weights::OWARE.into(),
        limits,
        overhead: 0,
        tables: None,
        path_values: false,
    };
    search(game, setup, &mut |_| {})
}

fn game_at(variant: Variant, notation: &str, moves: &str) -> Game {
    let mut game = Game::new(Board::from_notation(variant, notation).expect(notation));
    game.play_text(moves).expect(moves);
    game
}

/// The result of playing `m` first, for the side that plays it.
fn solve_move(game: &Game, m: Move, depth: u32) -> Option<i32> {
    let mut g = game.clone();
    let me = g.board().side_to_move();
    g.play(m).unwrap();
    let same = g.board().side_to_move() == me;
    solve(&mut g, depth - 1).map(|v| if same { v } else { -v })
}

#[test]
fn tactics_table() {
    // (what it shows, variant, position, moves played first, depth, the move to find,
    //  the score it must report)
    let rows = [
        (
            "winning capture: F takes 3 from a, reaching 25",
            Variant::Oware,
            "1-0-0-0-0-1-2-1-1-1-1-4-22-14-S",
            "",
            6,
            'F',
            Score::Mate(1),
        ),
        (
            "awari grand slam wins the game at once",
            Variant::Awari,
            "3-0-0-0-0-1-1-0-0-0-0-0-20-23-S",
            "",
            6,
            'F',
            Score::Mate(1),
        ),
        (
            "forced feed: North is empty, only D reaches it",
            Variant::Oware,
            "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
            "DfAcCbDfFbBaFcBfBdFfAeFdEeCbBaDcEdFcAfFeAbBfCdAfAeEaDbCcFbEfBcFeCdAfAeBf",
            8,
            'D',
            Score::Cp(0),
        ),
        (
            "kalah: the extra move first, then the capture it sets up",
            Variant::Kalah,
            "0-0-0-0-2-1-1-0-0-0-5-0-20-19-S",
            "",
            8,
            'F',
            Score::Cp(0),
        ),
    ];
    for (what, variant, notation, moves, depth, best, score) in rows {
        let game = game_at(variant, notation, moves);
        let found = think(&game, depth);
        let best = Move::from_char(best).unwrap();
        assert_eq!(found.best, Some(best), "{what}: {found:?}");
        match score {
            Score::Mate(_) | Score::Tables(_) => {
                assert_eq!(Score::of(found.score), score, "{what}")
            }
            // Not a proven result: only the move is asserted; the result must agree with
            // minimax where minimax decides it.
            Score::Cp(_) => {}
        }
        if let Some(v) = solve_move(&game, best, depth) {
            let mut g = game.clone();
            let all = solve(&mut g, depth).unwrap();
            assert_eq!(v, all, "{what}: the move found is as good as the best");
        }
    }
}

#[test]
fn awari_avoids_a_grand_slam_against_itself() {
    // South to move with A, B and F holding 1 each; North's f holds 2. After F (into a),
    // South's row is A=1, B=1 and North's f sows A and B, making 2 and 2: it captures every
    // seed of South's row, a grand slam, which in awari wins the game for North. A and B keep
    // a seed elsewhere on South's row.
    let game = game_at(Variant::Awari, "1-1-0-0-0-1-0-0-3-0-0-2-20-20-S", "");
    let grand_slam = Move::from_char('F').unwrap();
    assert_eq!(solve_move(&game, grand_slam, 2), Some(-1), "the premise");
    let found = think(&game, 8);
    let m = found.best.unwrap();
    assert_ne!(m, grand_slam, "{found:?}");
    let mut g = game.clone();
    assert_eq!(solve_move(&game, m, 8), solve(&mut g, 8), "{found:?}");
}

/// A random small endgame: `seeds` seeds on the board, the rest in the stores.
fn random_endgame(rng: &mut Rng, variant: Variant, seeds: u32) -> Option<Game> {
    let mut houses = [0u8; 12];
    for _ in 0..seeds {
        houses[rng.below(12) as usize] += 1;
    }
    let total = if variant == Variant::Ahl { 36 } else { 48 };
    let stored = total - seeds;
    let half = total / 2;
    let south = stored.saturating_sub(half)
        + rng.below(u64::from(
            half.min(stored) - stored.saturating_sub(half) + 1,
        )) as u32;
    let north = stored - south;
    let side = if rng.below(2) == 0 { 'S' } else { 'N' };
    let text = format!(
        "{}-{south}-{north}-{side}",
        houses.map(|n| n.to_string()).join("-")
    );
    let board = Board::from_notation(variant, &text).ok()?;
    let game = Game::new(board);
    game.outcome().is_none().then_some(game)
}

#[test]
fn endgames_agree_with_minimax_in_every_variant() {
    endgames_agree_with_minimax(1, 250);
}

/// Threads share the table: what one stores must be as true for the others, so the proven
/// results are the same (four threads on a two-core machine interleave their writes).
#[test]
fn endgames_agree_with_minimax_with_four_threads() {
    endgames_agree_with_minimax(4, 250);
}

fn endgames_agree_with_minimax(threads: usize, samples: usize) {
    let mut rng = Rng::new(2026);
    let depth = 9;
    for variant in Variant::ALL {
        let mut decided = [0; 3];
        for _ in 0..samples {
            let seeds = 2 + rng.below(6) as u32;
            let Some(game) = random_endgame(&mut rng, variant, seeds) else {
                continue;
            };
            let mut g = game.clone();
            let Some(result) = solve(&mut g, depth) else {
                continue;
            };
            // Late move reductions take at most 3 plies beyond the 1 each move costs, so a
            // search to 4 x depth covers every line of `depth` plies in full.
            let found = think_threads(&game, 4 * depth, threads);
            let m = found.best.expect("a live game has a move");
            let text = format!("{variant} {} (depth {depth}): {found:?}", game.board());
            decided[(result + 1) as usize] += 1;
            match result {
                1 => {
                    assert!(found.score > MATE_BOUND, "won, but {text}");
                    assert_eq!(
                        solve_move(&game, m, depth),
                        Some(1),
                        "a winning move: {text}"
                    );
                    let Score::Mate(n) = Score::of(found.score) else {
                        unreachable!()
                    };
                    assert!(n >= 1 && n <= depth as i32, "{text}");
                }
                -1 => assert!(found.score < -MATE_BOUND, "lost, but {text}"),
                _ => {
                    assert_eq!(found.score, 0, "drawn, but {text}");
                    assert_eq!(
                        solve_move(&game, m, depth),
                        Some(0),
                        "a drawing move: {text}"
                    );
                }
            }
        }
        // The sample must hold decided games of every kind worth checking.
        assert!(
            decided[2] >= 10,
            "{variant}: only {decided:?} decided (loss, draw, win)"
        );
        assert!(
            decided[0] >= 5,
            "{variant}: only {decided:?} decided (loss, draw, win)"
        );
    }
}

#[test]
fn finished_games_have_no_move_and_searches_stop() {
    let game = game_at(Variant::Oware, "0-0-0-0-0-3-0-0-0-0-1-0-25-19-N", "");
    let found = think(&game, 5);
    assert_eq!(found.best, None);
    // A node limit is obeyed, and still gives a legal move.
    let game = Game::new(Board::start(Variant::Kalah));
    let limits = Limits {
        nodes: Some(1),
        ..Limits::default()
    };
    let found = think_with(&game, &limits, 1);
    assert!(found.nodes <= 1, "{found:?}");
    assert!(game.legal_moves().contains(found.best.unwrap()));
}

/// Oware: a position that comes back within the search ends the game there, as one of the
/// game's own positions coming back does (each side then takes the seeds on its row). Two
/// single seeds chase each other round the board here: the cycle is all there is, a draw,
/// which the search sees only by recognizing the positions of its own line.
#[test]
fn a_cycle_within_the_search_is_a_repetition() {
    let game = game_at(Variant::Oware, "0-0-0-1-0-0-0-0-0-0-1-0-23-23-S", "");
    assert_eq!(solve(&mut game.clone(), 24), Some(0));
    let found = think(&game, 24);
    assert_eq!(found.score, 0, "{found:?}");
}
