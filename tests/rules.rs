//! Rule cases, one named row each: a position (notation or moves from the start), what to play,
//! and what must come of it. The expected boards are worked out by hand from doc/rules.md.

use awari::rules::{relay_sow, Board, EndReason, Game, IllegalReason, Move, Side, Status, Variant};

fn game(variant: Variant, position: &str, moves: &str) -> Game {
    let start = if position == "startpos" {
        Board::start(variant)
    } else {
        Board::from_notation(variant, position).expect("test position")
    };
    let mut game = Game::new(start);
    game.play_text(moves).expect("test moves");
    game
}

fn mv(c: char) -> Move {
    Move::from_char(c).unwrap()
}

/// rules.md's oware positions: moves from the start → notation and legal moves.
#[test]
fn oware_reference_positions() {
    let rows = [
        ("F captures, South cannot feed next", "FfBeBcDaAbCcDbAcCaDcBeAbBcCdDfAeAfDbCdBcAaBbEeAaDfCaDdEfBbAcAfEaDbEcAeAdBeCf", "2-1-1-1-0-16-0-0-0-0-0-0-5-22-S", "F"),
        ("12-seed sowing", "DfAcCbDfFbBaFcBfBdFfAe", "1-3-4-4-12-2-2-5-2-2-0-1-3-7-S", "ABCDEF"),
        ("feeding forced", "DfAcCbDfFbBaFcBfBdFfAeFdEeCbBaDcEdFcAfFeAbBfCdAfAeEaDbCcFbEfBcFeCdAfAeBf", "1-0-1-4-1-0-0-0-0-0-0-0-22-19-S", "D"),
        ("grand slam", "AaDfCbDfEaCeBfDcEdAbEaBdEeFcAaDaBeFaEdBeDfDdBeAbBdDeEfFdAcCeAaBdEaCbFbDeEcAdFeCfAbCcEdDeEaFaBeCfCbFcEdBeDaAbEcFfBbCdEaDcEdF", "1-0-0-0-0-0-1-0-0-0-2-0-22-22-N", "ae"),
        ("mid-game 1", "FfBeBcDaAbCcDbAcCaDcBeAbBcCdDf", "1-2-2-1-14-7-1-2-1-0-2-0-5-10-S", "ABCDEF"),
        ("mid-game 2", "FfBeBcDaAbCcDbAcCaDcBeAbBcCdDfAeAfDbCdBcAaBbEeAaDfCaDdEfBbAc", "1-0-0-1-1-14-1-0-0-2-3-2-5-18-S", "ADEF"),
        ("mid-game 3", "FeDbBdAaEcDdFaEaCdDcEdFaBfEcFdDaEcFfAaBeFdEfDeAcBdEbBcAfAdCf", "0-1-0-3-2-4-1-0-0-0-5-0-8-24-S", "BDEF"),
        ("mid-game 4", "FeCbBdAaEfDfCeEcAaAfAbCbEaAeAcAeFcEeCbFcAfFdDbBcAaEaDdCfBaAb", "1-2-4-1-2-8-0-0-2-1-2-1-17-7-S", "ABCDEF"),
        ("mid-game 5", "FeDbBdAaFeDaBdFeDcDeAdDaEeDdEcBbAfCfAdFcBeBdAfAeEcCdBeFbEcCf", "2-1-0-8-0-1-0-0-0-1-0-0-24-11-S", "ABDF"),
        ("mid-game 6", "FfEcCcBfDcEbAbEfAdAcEdDaAeBbDdFeDbEeCcAdDfBaEaDdEfBbAcBeBdCa", "1-0-0-3-2-8-0-2-1-1-0-3-15-12-S", "ADEF"),
    ];
    for (name, moves, notation, legal) in rows {
        let g = game(Variant::Oware, "startpos", moves);
        assert_eq!(g.board().to_string(), notation, "{name}: notation");
        assert_eq!(g.legal_moves().to_string(), legal, "{name}: legal moves");
    }
}

/// One move from a position, and the position it must give.
#[test]
fn single_moves_give_the_expected_positions() {
    let rows = [
        // (name, variant, position, move, expected notation)
        (
            "oware: 12 seeds skip their origin",
            Variant::Oware,
            "1-3-4-4-12-2-2-5-2-2-0-1-3-7-S",
            'E',
            "2-4-5-5-0-4-3-6-3-3-1-2-3-7-N",
        ),
        (
            "oware: capture a chain of 2s and 3s backwards",
            Variant::Oware,
            "0-0-0-0-0-2-1-2-4-0-0-0-0-0-S",
            'F',
            "0-0-0-0-0-0-0-0-4-0-0-0-5-0-N",
        ),
        (
            "oware: the chain stops at a house that is not 2 or 3",
            Variant::Oware,
            "0-0-0-0-0-3-3-1-2-4-0-0-0-0-S",
            'F',
            "0-0-0-0-0-0-4-0-0-4-0-0-5-0-N",
        ),
        (
            "oware: grand slam captures nothing",
            Variant::Oware,
            "1-0-0-0-0-0-1-0-0-0-2-0-22-22-N",
            'e',
            "2-0-0-0-0-0-1-0-0-0-0-1-22-22-S",
        ),
        (
            "awari: grand slam captures",
            Variant::Awari,
            "1-0-0-0-0-0-1-0-0-0-2-0-22-22-N",
            'e',
            "0-0-0-0-0-0-1-0-0-0-0-1-22-24-S-1",
        ),
        (
            "ahl: last seed in own store earns a bonus move",
            Variant::Ahl,
            "startpos",
            'D',
            "3-3-3-0-4-4-3-3-3-3-3-3-1-0-S+",
        ),
        (
            "ahl: a bonus move earns no other",
            Variant::Ahl,
            "3-3-3-0-4-1-3-3-3-3-3-3-1-0-S+",
            'F',
            "3-3-3-0-4-0-3-3-3-3-3-3-2-0-N",
        ),
        (
            "ahl: capture on the opponent's side",
            Variant::Ahl,
            "1-0-0-0-2-3-1-0-1-1-1-1-0-0-S",
            'F',
            "1-0-0-0-0-0-2-0-1-1-1-1-4-0-N",
        ),
        // 14 seeds: both stores, all houses, and the last back in the emptied origin, which then
        // captures the facing house a.
        (
            "ahl: sowing passes both stores and ends in its origin",
            Variant::Ahl,
            "1-0-0-0-0-14-1-1-1-1-1-1-0-0-S",
            'F',
            "2-1-1-1-1-0-0-2-2-2-2-2-4-1-N",
        ),
        (
            "kalah: last seed in own store moves again",
            Variant::Kalah,
            "startpos",
            'C',
            "4-4-0-5-5-5-4-4-4-4-4-4-1-0-S",
        ),
        (
            "kalah: the opponent's store is skipped",
            Variant::Kalah,
            "1-0-0-0-0-8-1-1-1-1-1-1-0-0-S",
            'F',
            "2-0-0-0-0-0-2-2-2-2-2-2-1-0-N",
        ),
        (
            "kalah: skip the opponent's store into an empty own house: capture",
            Variant::Kalah,
            "0-0-0-0-0-8-1-1-1-1-1-1-0-0-S",
            'F',
            "0-0-0-0-0-0-2-2-2-2-2-0-4-0-N",
        ),
        (
            "kalah: capture into an empty own house",
            Variant::Kalah,
            "1-0-0-0-0-1-1-1-1-1-5-1-0-0-S",
            'A',
            "0-0-0-0-0-1-1-1-1-1-0-1-6-0-N",
        ),
        (
            "kalah: no capture when the facing house is empty",
            Variant::Kalah,
            "1-0-0-0-0-1-1-1-1-1-0-1-0-0-S",
            'A',
            "0-1-0-0-0-1-1-1-1-1-0-1-0-0-N",
        ),
        // Kalah-empty differs from kalah only in a last seed alone facing an empty house.
        (
            "kalah-empty: a last seed alone facing an empty house goes to the store",
            Variant::KalahEmpty,
            "1-0-0-0-0-1-1-1-1-1-0-1-0-0-S",
            'A',
            "0-0-0-0-0-1-1-1-1-1-0-1-1-0-N",
        ),
        (
            "kalah-empty: North's lone seed facing an empty house goes to North's store",
            Variant::KalahEmpty,
            "1-1-1-1-0-1-1-0-0-0-0-2-0-0-N",
            'a',
            "1-1-1-1-0-1-0-0-0-0-0-2-0-1-S",
        ),
        (
            "kalah-empty: a capture facing seeds, as in kalah",
            Variant::KalahEmpty,
            "1-0-0-0-0-1-1-1-1-1-5-1-0-0-S",
            'A',
            "0-0-0-0-0-1-1-1-1-1-0-1-6-0-N",
        ),
        (
            "kalah-empty: a last seed in a house that held seeds stays",
            Variant::KalahEmpty,
            "1-1-0-0-0-1-1-1-1-1-0-1-0-0-S",
            'A',
            "0-2-0-0-0-1-1-1-1-1-0-1-0-0-N",
        ),
        (
            "kalah-empty: a last seed on the opponent's row stays",
            Variant::KalahEmpty,
            "0-0-0-0-0-2-0-1-1-1-1-1-0-0-S",
            'F',
            "0-0-0-0-0-0-1-1-1-1-1-1-1-0-N",
        ),
        // A's seed makes B 2: relay from B over C and D; D was empty, so it ends there and
        // captures c, facing D.
        (
            "ayoayo: relay, then capture facing the last house",
            Variant::Ayoayo,
            "1-1-0-0-0-0-0-0-3-0-0-2-0-0-S",
            'A',
            "0-0-1-1-0-0-0-0-0-0-0-2-3-0-N",
        ),
        (
            "ayoayo: ending on the opponent's row captures nothing",
            Variant::Ayoayo,
            "0-0-0-0-0-1-0-1-0-0-0-1-0-0-S",
            'F',
            "0-0-0-0-0-0-1-1-0-0-0-1-0-0-N",
        ),
    ];
    for (name, variant, position, m, expected) in rows {
        let g = game(variant, position, "");
        let after = g
            .board()
            .try_play(mv(m))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(after.to_string(), expected, "{name}");
        assert_eq!(after.key(), after.recompute_key(), "{name}: key");
    }
}

/// Positions whose game is over, and how it ended.
#[test]
fn endings() {
    let rows = [
        // (name, variant, position, moves, reason, winner, final stores)
        (
            "oware: majority; the board goes to its rows",
            Variant::Oware,
            "0-0-0-0-0-3-0-0-0-0-1-0-25-19-N",
            "",
            EndReason::Majority,
            Some(Side::South),
            [28, 20],
        ),
        (
            "oware: 24-24 is a draw",
            Variant::Oware,
            "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S",
            "",
            EndReason::Majority,
            None,
            [24, 24],
        ),
        (
            "oware: no feeding move",
            Variant::Oware,
            "1-0-0-0-0-0-0-0-0-0-0-0-24-23-S",
            "",
            EndReason::NoFeedingMove,
            Some(Side::South),
            [25, 23],
        ),
        // F's 16 seeds end on e and capture a-e (10); f alone goes to A; South cannot feed and
        // collects 11: 26-22.
        (
            "oware: F feeds, then North leaves South unable to feed",
            Variant::Oware,
            "2-1-1-1-0-16-0-0-0-0-0-0-5-22-S",
            "Ff",
            EndReason::NoFeedingMove,
            Some(Side::South),
            [26, 22],
        ),
        (
            "awari: majority; the board is not counted",
            Variant::Awari,
            "0-0-0-0-0-3-0-0-0-0-1-0-25-19-N",
            "",
            EndReason::Majority,
            Some(Side::South),
            [25, 19],
        ),
        (
            "awari: grand slam wins outright",
            Variant::Awari,
            "1-0-0-0-0-0-1-0-0-0-2-0-22-22-N",
            "e",
            EndReason::GrandSlam,
            Some(Side::North),
            [22, 24],
        ),
        (
            "awari: a grand slam wins even when behind",
            Variant::Awari,
            "2-0-0-0-0-0-0-0-1-0-0-1-17-13-N",
            "f",
            EndReason::GrandSlam,
            Some(Side::North),
            [17, 16],
        ),
        (
            "awari: no feeding move; the mover takes what is left",
            Variant::Awari,
            "1-0-0-0-0-0-0-0-0-0-0-0-24-23-S",
            "",
            EndReason::NoFeedingMove,
            Some(Side::South),
            [25, 23],
        ),
        (
            "awari: ply 250 is adjudicated on the stores",
            Variant::Awari,
            "4-4-4-4-4-4-4-4-4-4-4-0-4-0-N-250",
            "",
            EndReason::MoveLimit,
            Some(Side::South),
            [4, 0],
        ),
        (
            "awari: ply 249 plays on, the move reaching 250 ends it",
            Variant::Awari,
            "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-249",
            "A",
            EndReason::MoveLimit,
            None,
            [0, 0],
        ),
        (
            "ahl: an empty row ends the game; the board is not counted",
            Variant::Ahl,
            "0-0-0-0-0-9-1-1-1-1-1-1-0-0-S",
            "F",
            EndReason::EmptyRow,
            Some(Side::South),
            [4, 1],
        ),
        (
            "ahl: the game ends at an empty row even with a bonus earned",
            Variant::Ahl,
            "0-0-0-0-0-1-1-1-1-1-1-1-0-0-S",
            "F",
            EndReason::EmptyRow,
            Some(Side::South),
            [1, 0],
        ),
        (
            "kalah: an empty row ends the game; each side takes its row",
            Variant::Kalah,
            "0-0-0-0-0-1-1-1-1-1-1-1-0-0-S",
            "F",
            EndReason::EmptyRow,
            Some(Side::North),
            [1, 6],
        ),
        (
            "kalah-empty: a lone seed banked facing nothing empties the mover's row: the end",
            Variant::KalahEmpty,
            "0-0-0-0-1-0-0-1-0-0-0-1-20-25-S",
            "E",
            EndReason::EmptyRow,
            Some(Side::North),
            [21, 27],
        ),
        // e's seed ends on f, own row, capturing A: South's row is empty, North keeps its row.
        (
            "ayoayo: emptying the opponent's row ends the game",
            Variant::Ayoayo,
            "2-0-0-0-0-0-0-0-0-0-1-0-0-0-N",
            "e",
            EndReason::EmptyRow,
            Some(Side::North),
            [0, 3],
        ),
    ];
    for (name, variant, position, moves, reason, winner, stores) in rows {
        let g = game(variant, position, moves);
        let outcome = g
            .outcome()
            .unwrap_or_else(|| panic!("{name}: not over at {}", g.board()));
        assert_eq!(outcome.reason, reason, "{name}");
        assert_eq!(outcome.winner, winner, "{name}");
        assert_eq!(outcome.stores, stores, "{name}");
        assert!(g.legal_moves().is_empty(), "{name}: moves after the end");
    }
}

#[test]
fn illegal_moves_say_why() {
    let rows = [
        (
            "feeding: A does not reach North",
            Variant::Oware,
            "1-0-1-4-1-0-0-0-0-0-0-0-22-19-S",
            'A',
            IllegalReason::MustFeed,
        ),
        (
            "another side's house",
            Variant::Oware,
            "startpos",
            'a',
            IllegalReason::NotYourHouse,
        ),
        (
            "an empty house",
            Variant::Oware,
            "1-0-1-4-1-0-0-0-0-0-0-0-22-19-S",
            'B',
            IllegalReason::EmptyHouse,
        ),
        (
            "after the end",
            Variant::Oware,
            "0-0-0-0-0-3-0-0-0-0-1-0-25-19-N",
            'e',
            IllegalReason::GameOver(EndReason::Majority),
        ),
        (
            "ahl: North during South's bonus move",
            Variant::Ahl,
            "3-3-3-0-4-4-3-3-3-3-3-3-1-0-S+",
            'a',
            IllegalReason::NotYourHouse,
        ),
        (
            "ayoayo: feeding when another move feeds",
            Variant::Ayoayo,
            "1-0-0-0-0-6-0-0-0-0-0-0-20-21-S",
            'A',
            IllegalReason::MustFeed,
        ),
    ];
    for (name, variant, position, m, reason) in rows {
        let g = game(variant, position, "");
        let err = g.board().try_play(mv(m)).expect_err(name);
        assert_eq!(err.reason, reason, "{name}");
        assert!(!err.to_string().is_empty());
    }
}

/// Ayoayo: an endless relay sowing is not a legal move. The positions come from the perft tree
/// (depth 8); in each, some house's sowing needs more than 1,000 relays.
#[test]
fn ayoayo_endless_sowings_are_not_permissible() {
    for position in [
        "0-1-0-1-0-2-14-15-0-1-2-1-5-6-S",
        "0-1-0-1-0-22-0-2-8-0-2-1-5-6-S",
    ] {
        let b = Board::from_notation(Variant::Ayoayo, position).unwrap();
        let endless: Vec<Move> = (0..6)
            .filter_map(Move::new)
            .filter(|m| b.house(m.house()) > 0 && relay_sow(&mut b.houses(), m.house()).is_none())
            .collect();
        assert!(
            !endless.is_empty(),
            "{position}: expected an endless sowing"
        );
        for m in endless {
            assert!(!b.legal_moves().contains(m), "{position}: {m} listed");
            let err = b.try_play(m).expect_err("endless move accepted");
            assert_eq!(err.reason, IllegalReason::Endless, "{position}: {m}");
        }
    }
}

/// Oware: two lone seeds chase each other round the board; the first repeated position ends
/// the game, each side taking its own row.
#[test]
fn oware_repetition_ends_the_game() {
    let mut g = game(Variant::Oware, "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S", "");
    let mut plies = 0;
    while let Status::Ongoing(moves) = g.status() {
        let m = moves.into_iter().next().unwrap();
        g.play(m).unwrap();
        plies += 1;
        assert!(plies < 100, "no repetition after 100 plies");
    }
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.reason, EndReason::Repetition);
    assert!(g.is_repetition());
    let now = *g.board();
    let earlier = &g.positions()[..g.positions().len() - 1];
    assert!(earlier
        .iter()
        .any(|b| b.houses() == now.houses() && b.side_to_move() == now.side_to_move()));
    assert_eq!(outcome.stores[0] + outcome.stores[1], 48);
    // Awari has no repetition rule: the same moves leave the game going.
    let mut a = game(Variant::Awari, "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S", "");
    a.play_all(g.moves()).unwrap();
    assert!(a.outcome().is_none(), "awari ended at {}", a.board());
}

#[test]
fn seeds_per_house_is_a_parameter() {
    let k66 = Board::start_with_seeds(Variant::Kalah, 6).unwrap();
    assert_eq!(k66.to_string(), "6-6-6-6-6-6-6-6-6-6-6-6-0-0-S");
    assert_eq!(k66.total_seeds(), 72);
    let o3 = Board::start_with_seeds(Variant::Oware, 3).unwrap();
    assert_eq!(o3.total_seeds(), 36);
    // 3-seed oware: a store above 18 wins.
    let b = Board::from_notation(Variant::Oware, "0-0-0-0-0-0-0-0-0-0-1-0-19-16-S").unwrap();
    assert_eq!(b.outcome().map(|o| o.reason), Some(EndReason::Majority));
    assert!(Board::start_with_seeds(Variant::Oware, 22).is_err());
    assert!(Board::start_with_seeds(Variant::Oware, 0).is_err());
}

/// Ayoayo: a mover that empties its own row plays on; the opponent must then feed.
#[test]
fn ayoayo_emptying_ones_own_row_forces_the_opponent_to_feed() {
    // f's three seeds all go to South's row, leaving North's row empty.
    let g = game(Variant::Ayoayo, "0-0-0-0-1-2-0-0-0-0-0-3-0-0-N", "f");
    assert_eq!(g.board().to_string(), "1-1-1-0-1-2-0-0-0-0-0-0-0-0-S");
    let legal = g.legal_moves();
    assert!(legal.contains(mv('F')), "F feeds North: {legal}");
    for m in legal {
        let after = g.board().play(m);
        assert!(
            after.row_seeds(Side::North) > 0,
            "{m} is legal but does not feed"
        );
    }
    for m in [mv('A'), mv('B'), mv('C'), mv('E')] {
        if !legal.contains(m) {
            let err = g.board().try_play(m).unwrap_err();
            assert_eq!(err.reason, IllegalReason::MustFeed);
        }
    }
}

/// Ayoayo's relay sowing, seed by seed as the rules say it: the reference `relay_sow` must
/// match (it sows each relay's seeds at once).
fn relay_sow_seed_by_seed(houses: &mut [u8; 12], origin: usize) -> Option<usize> {
    let mut seeds = std::mem::take(&mut houses[origin]);
    let mut pos = origin;
    for _ in 0..=awari::rules::MAX_RELAYS {
        while seeds > 0 {
            pos = (pos + 1) % 12;
            if pos != origin {
                houses[pos] += 1;
                seeds -= 1;
            }
        }
        if houses[pos] == 1 {
            return Some(pos);
        }
        seeds = std::mem::take(&mut houses[pos]);
    }
    // Given back as they stood after the last relay's sowing, before it took its seeds.
    houses[pos] = seeds;
    None
}

/// `relay_sow` against sowing seed by seed, on random rows of few and of many seeds (laps,
/// relays of laps, endless sowings), every house as the origin: the last house and the houses
/// after it agree.
#[test]
fn relay_sowing_matches_sowing_seed_by_seed() {
    let mut rng = awari::rng::Rng::new(0x7e1a);
    let (mut endless, mut laps) = (0, 0);
    for round in 0..20_000 {
        // Up to 4, 12 or 21 seeds a house: at most 252 in all.
        let most = [5, 13, 22][round % 3];
        let houses: [u8; 12] = std::array::from_fn(|_| rng.below(most) as u8);
        for origin in 0..12 {
            let (mut fast, mut slow) = (houses, houses);
            let last = relay_sow(&mut fast, origin);
            assert_eq!(
                last,
                relay_sow_seed_by_seed(&mut slow, origin),
                "{houses:?} from {origin}"
            );
            assert_eq!(fast, slow, "{houses:?} from {origin}");
            endless += usize::from(last.is_none() && houses[origin] > 0);
            laps += usize::from(houses[origin] > 11);
        }
    }
    assert!(endless > 0 && laps > 0, "endless {endless}, laps {laps}");
}

/// Kalah's sowing place by place, as doc/rules.md states it, written out independently of the
/// rules core: the houses, the stores and the side to move after `house` is played, and
/// whether it captured.
fn kalah_place_by_place(board: &Board, house: usize) -> ([u8; 12], [u8; 2], Side, bool) {
    // The 14 places: houses A-F, South's store, houses a-f, North's store.
    let mut places = [0u8; 14];
    let houses = board.houses();
    places[..6].copy_from_slice(&houses[..6]);
    places[7..13].copy_from_slice(&houses[6..]);
    places[6] = board.stores()[0];
    places[13] = board.stores()[1];
    let mover = board.side_to_move();
    let (own_store, other_store) = match mover {
        Side::South => (6, 13),
        Side::North => (13, 6),
    };
    let origin = if house < 6 { house } else { house + 1 };
    let mut seeds = std::mem::take(&mut places[origin]);
    let mut place = origin;
    while seeds > 0 {
        place = (place + 1) % 14;
        if place != other_store {
            places[place] += 1;
            seeds -= 1;
        }
    }
    let own_row = match mover {
        Side::South => 0..6,
        Side::North => 7..13,
    };
    // The place facing an own house (never a store) across the ring.
    let facing = |place: usize| 12 - place;
    let captures = own_row.contains(&place) && places[place] == 1 && places[facing(place)] != 0;
    if captures {
        let facing = facing(place);
        places[own_store] += places[place] + places[facing];
        places[place] = 0;
        places[facing] = 0;
    }
    let next = if place == own_store {
        mover
    } else {
        mover.opponent()
    };
    let mut after = [0u8; 12];
    after[..6].copy_from_slice(&places[..6]);
    after[6..].copy_from_slice(&places[7..13]);
    (after, [places[6], places[13]], next, captures)
}

/// Kalah's sowing (sowings below a lap as runs of houses, laps place by place) agrees with
/// sowing place by place on random boards of up to 21 seeds a house (laps, the own store
/// reached and not, captures), either side to move, every house with seeds; the key stays
/// the key of the board.
#[test]
fn kalah_sowing_matches_sowing_place_by_place() {
    let mut rng = awari::rng::Rng::new(0x6a1a);
    let (mut laps, mut again, mut captures) = (0, 0, 0);
    for round in 0..20_000 {
        let most = [5, 13, 22][round % 3];
        let houses: [u8; 12] = std::array::from_fn(|_| rng.below(most) as u8);
        let side = [Side::South, Side::North][round % 2];
        let stores = [rng.below(2) as u8, rng.below(2) as u8];
        let board = Board::from_parts(Variant::Kalah, houses, stores, side, false, 0)
            .expect("at most 254 seeds");
        for house in (0..6).map(|c| side.first_house() + c) {
            if houses[house] == 0 {
                continue;
            }
            let played = board.play_unchecked(Move::new(house).expect("a house"));
            let (houses_after, stores_after, next, captured) = kalah_place_by_place(&board, house);
            let what = format!("{board} playing house {house}");
            assert_eq!(played.houses(), houses_after, "{what}");
            assert_eq!(played.stores(), stores_after, "{what}");
            assert_eq!(played.side_to_move(), next, "{what}");
            assert_eq!(played.key(), played.recompute_key(), "{what}");
            laps += usize::from(houses[house] >= 13);
            again += usize::from(next == side);
            captures += usize::from(captured);
        }
    }
    assert!(
        laps > 0 && again > 0 && captures > 0,
        "laps {laps}, moves again {again}, captures {captures}"
    );
}
