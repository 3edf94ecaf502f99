//! Invariants over many random games in every variant (and with other seed counts): seeds are
//! conserved, the move list and the checked play agree on every house, finished games have no
//! moves (and `Board::end` says so as the move list does), the notation round-trips, and the
//! incremental Zobrist key equals the recomputed one.

use awari::rng::Rng;
use awari::rules::{Board, Game, IllegalReason, Move, Status, Variant};

/// Random games per start position; each runs until its end or 400 plies.
const GAMES: usize = 150;

fn starts() -> Vec<(String, Board)> {
    let mut starts: Vec<(String, Board)> = Variant::ALL
        .iter()
        .map(|&v| (v.to_string(), Board::start(v)))
        .collect();
    for (variant, seeds) in [
        (Variant::Kalah, 6),
        (Variant::Kalah, 3),
        (Variant::Oware, 3),
        (Variant::Ayoayo, 5),
    ] {
        let board = Board::start_with_seeds(variant, seeds).unwrap();
        starts.push((format!("{variant}({seeds})"), board));
    }
    starts
}

fn check_position(name: &str, game: &Game, total: u32) {
    let b = game.board();
    let context = || {
        format!(
            "{name} at {b} after {}",
            awari::rules::format_move_list(game.moves())
        )
    };
    let on_board: u32 = b.houses().iter().map(|&n| u32::from(n)).sum();
    let stored: u32 = b.stores().iter().map(|&n| u32::from(n)).sum();
    assert_eq!(
        on_board + stored,
        total,
        "seeds not conserved: {}",
        context()
    );
    assert_eq!(b.key(), b.recompute_key(), "key drifted: {}", context());
    let text = b.to_string();
    assert_eq!(
        Board::from_notation(b.variant(), &text).as_ref(),
        Ok(b),
        "round trip: {}",
        context()
    );

    let legal = game.legal_moves();
    // The search's leaves ask only whether the game goes on.
    assert_eq!(b.end(), b.moves_or_end().err(), "end: {}", context());
    match game.status() {
        Status::Over(outcome) => {
            assert!(legal.is_empty(), "moves after the end: {}", context());
            let final_total = u32::from(outcome.stores[0]) + u32::from(outcome.stores[1]);
            assert!(final_total <= total, "outcome invents seeds: {}", context());
        }
        Status::Ongoing(moves) => {
            assert!(!moves.is_empty(), "ongoing without moves: {}", context());
            assert_eq!(moves, legal);
        }
    }
    // The move list and the checked play agree on every house; Game and Board agree unless
    // the game ended by repetition (which only Game sees).
    for house in 0..12 {
        let m = Move::new(house).unwrap();
        let mut copy = game.clone();
        let played = copy.play(m);
        assert_eq!(
            played.is_ok(),
            legal.contains(m),
            "{m}: list and play disagree: {}",
            context()
        );
        if let Err(e) = played {
            assert_eq!(copy, *game, "a rejected move changed the game");
            if !game.is_repetition() {
                assert_eq!(b.try_play(m).unwrap_err(), e);
            }
            if legal.is_empty() {
                assert!(matches!(e.reason, IllegalReason::GameOver(_)));
            }
        }
    }
}

#[test]
fn random_games_keep_every_invariant() {
    let mut rng = Rng::new(0x5eed);
    let mut endings = std::collections::BTreeMap::new();
    for (name, start) in starts() {
        let total = u32::from(start.total_seeds());
        for _ in 0..GAMES {
            let mut game = Game::new(start);
            check_position(&name, &game, total);
            for _ in 0..400 {
                let moves: Vec<Move> = game.legal_moves().collect();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len() as u64) as usize];
                let before = *game.board();
                game.play(m).unwrap();
                // Copy-make: the board we played from is untouched.
                assert_eq!(before, game.positions()[game.positions().len() - 2]);
                check_position(&name, &game, total);
            }
            if let Some(o) = game.outcome() {
                *endings
                    .entry(format!("{name}: {}", o.reason.name()))
                    .or_insert(0) += 1;
            }
        }
    }
    // The random games must actually reach the endings they are meant to exercise.
    for expected in [
        "oware: majority",
        "oware: repetition",
        "awari: majority",
        "ahl: empty-row",
        "kalah: empty-row",
        "ayoayo: empty-row",
    ] {
        assert!(
            endings.contains_key(expected),
            "no random game ended by {expected}: {endings:?}"
        );
    }
}
