//! The engine searching with tables: a repetition at the tables' root, a bounded root, won
//! positions converted against a full-width and a random opponent, results proven through the
//! tables, `tune` reading a settled game's result, bounded leaves scored by their point values.

use awari::rng::Rng;
use awari::rules::{Board, EndReason, Game, Move, Side, Variant};
use awari::tables::index::{layer_size, unrank};
use awari::tables::probe::after_move;
use awari::tables::Tables;
use std::str::FromStr;

use crate::common;
use crate::common::tables::{random_houses, random_side, WAIT};
use crate::common::{build_tables, Engine, Scratch};

fn scratch(tag: &str) -> Scratch {
    common::scratch("tables", tag)
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
