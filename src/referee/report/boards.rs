//! A game's positions for the page's viewer: every position of a recorded game, played by
//! the project's rules ([`crate::rules`]) from its start, and their encoding as one compact
//! string per game.
//!
//! The page must stay fast for 10,000 games, so each game's positions are one string
//! ([`encode_boards`]) rather than an array of objects: the browser parses a long string
//! almost for free and decodes only the game it shows. [`decode_boards`] reads it back, the
//! reference of the page's decoder.

use crate::record::GameRecord;
use crate::rules::{parse_move_list, relay_sow, Board, Side, Variant};

/// The digits of a board's counts on the page: `0`-`9` read as themselves, then letters.
pub const DIGITS: &[u8; 64] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";

/// What marks "none" in a ply's last-move and sowing-end places.
pub const NONE: u8 = b'.';

/// The position after one ply, as the rules give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The board.
    pub board: Board,
    /// The house the move that led here was sown from (`None` at the start).
    pub last: Option<usize>,
    /// Where the sowing ended when a rule set makes that visible: ayoayo's last relay.
    pub end: Option<usize>,
}

/// Why a record cannot be shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadRecord(pub String);

impl std::fmt::Display for BadRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Every position of a recorded game, played by the rules from its start: ply 0 is the
/// start, ply `k` the board after `k` moves (opening included).
pub fn positions(record: &GameRecord) -> Result<Vec<Ply>, BadRecord> {
    let bad = |what: String| BadRecord(format!("round {}: {what}", record.round));
    let variant: Variant = record.variant.parse().map_err(|e| bad(format!("{e}")))?;
    let mut board = Board::from_notation(variant, &record.start)
        .map_err(|e| bad(format!("start {:?}: {e}", record.start)))?;
    let text = format!("{}{}", record.opening, record.moves);
    let moves = parse_move_list(&text).map_err(|e| bad(format!("moves: {e}")))?;
    let mut plies = Vec::with_capacity(moves.len() + 1);
    plies.push(Ply {
        board,
        last: None,
        end: None,
    });
    for (i, &mv) in moves.iter().enumerate() {
        let end = match variant {
            // The relay's last house, from the rules' own sowing on a copy of the houses.
            Variant::Ayoayo => relay_sow(&mut board.houses(), mv.house()),
            _ => None,
        };
        board = board
            .try_play(mv)
            .map_err(|e| bad(format!("ply {}: {e}", i + 1)))?;
        plies.push(Ply {
            board,
            last: Some(mv.house()),
            end,
        });
    }
    Ok(plies)
}

/// The positions as one string: per ply, the 12 houses (`A`-`F`, then `a`-`f`) and the two
/// stores (South's, North's), each `width` digits of [`DIGITS`] (most significant first);
/// then one digit of state (0 South to move, 1 North, plus 2 when ahl's bonus move is
/// pending); then the last move's house and the sowing's end, a digit each or [`NONE`].
/// Returns the width: 1, or 2 when some count reaches 64.
pub fn encode_boards(plies: &[Ply]) -> (u8, String) {
    let wide = plies.iter().any(|p| {
        p.board
            .houses()
            .iter()
            .chain(&p.board.stores())
            .any(|&n| n >= 64)
    });
    let width = if wide { 2 } else { 1 };
    let mut text = String::with_capacity(plies.len() * (14 * width + 3));
    let digit = |n: usize| char::from(DIGITS[n]);
    for p in plies {
        for n in p.board.houses().iter().chain(&p.board.stores()) {
            let n = usize::from(*n);
            if wide {
                text.push(digit(n / 64));
            }
            text.push(digit(n % 64));
        }
        let state = usize::from(p.board.side_to_move() == Side::North)
            + 2 * usize::from(p.board.bonus_pending());
        text.push(digit(state));
        for place in [p.last, p.end] {
            text.push(place.map_or(char::from(NONE), digit));
        }
    }
    (width as u8, text)
}

/// One ply as [`decode_boards`] reads it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// Houses `A`-`F`, then `a`-`f`.
    pub houses: [u8; 12],
    /// South's store, North's.
    pub stores: [u8; 2],
    /// The side to move.
    pub side: Side,
    /// The last move's house.
    pub last: Option<usize>,
    /// Where the sowing ended.
    pub end: Option<usize>,
}

/// Reads back what [`encode_boards`] wrote. For tests, and the reference of the page's
/// decoder.
pub fn decode_boards(width: u8, text: &str) -> Vec<Decoded> {
    let value = |c: u8| DIGITS.iter().position(|&d| d == c);
    let width = usize::from(width);
    let size = 14 * width + 3;
    text.as_bytes()
        .chunks(size)
        .map(|chunk| {
            let count = |i: usize| {
                chunk[i * width..(i + 1) * width]
                    .iter()
                    .fold(0usize, |acc, &c| acc * 64 + value(c).unwrap_or(0)) as u8
            };
            let mut houses = [0; 12];
            for (i, h) in houses.iter_mut().enumerate() {
                *h = count(i);
            }
            let state = value(chunk[14 * width]).unwrap_or(0);
            let side = if state & 1 == 1 {
                Side::North
            } else {
                Side::South
            };
            Decoded {
                houses,
                stores: [count(12), count(13)],
                side,
                last: value(chunk[14 * width + 1]),
                end: value(chunk[14 * width + 2]),
            }
        })
        .collect()
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::record::{GameResult, MoveInfo};
    use crate::rules::{format_move_list, Game};
    use crate::said::EngineScore;

    /// A record of `moves` played from `variant`'s start, with made-up engine info (also for
    /// the page data's tests).
    pub(in crate::referee::report) fn record(
        variant: Variant,
        round: u64,
        opening: &str,
        moves: &str,
        result: GameResult,
    ) -> GameRecord {
        let n = parse_move_list(moves).unwrap().len();
        GameRecord {
            round,
            event: "test".into(),
            date: "2026.11.24".into(),
            south: if round % 2 == 1 { "a" } else { "b" }.into(),
            north: if round % 2 == 1 { "b" } else { "a" }.into(),
            variant: variant.name().into(),
            start: Board::start(variant).to_string(),
            opening: opening.into(),
            moves: moves.into(),
            result,
            termination: "adjudicated at the move limit".into(),
            plies: parse_move_list(opening).unwrap().len() + n,
            stores: [0, 0],
            time_control: ["depth=1".into(), "depth=1".into()],
            info: (0..n)
                .map(|i| MoveInfo {
                    score: Some(EngineScore::Cp(i as i32)),
                    depth: Some(1 + (i as u32 % 3)),
                    tables: false,
                    ms: 10 * i as u64,
                })
                .collect(),
            sprt: None,
        }
    }

    /// Plays the first legal move `plies` times (or until the game ends).
    fn first_moves(variant: Variant, plies: usize) -> String {
        let mut game = Game::new(Board::start(variant));
        for _ in 0..plies {
            let Some(m) = game.legal_moves().next() else {
                break;
            };
            game.play(m).unwrap();
        }
        format_move_list(game.moves())
    }

    #[test]
    fn the_boards_after_every_ply_are_the_rules_positions_in_every_variant() {
        for variant in Variant::ALL {
            let all = first_moves(variant, 40);
            let (opening, moves) = all.split_at(2);
            let r = record(variant, 1, opening, moves, GameResult::Draw);
            let plies = positions(&r).unwrap();
            let (width, text) = encode_boards(&plies);
            let decoded = decode_boards(width, &text);
            let mut game = Game::new(Board::start(variant));
            let list = parse_move_list(&all).unwrap();
            assert_eq!(decoded.len(), list.len() + 1, "{variant}");
            for (k, d) in decoded.iter().enumerate() {
                if k > 0 {
                    game.play(list[k - 1]).unwrap();
                }
                let b = game.board();
                assert_eq!(d.houses, b.houses(), "{variant} ply {k}");
                assert_eq!(d.stores, b.stores(), "{variant} ply {k}");
                assert_eq!(d.side, b.side_to_move(), "{variant} ply {k}");
                let last = k.checked_sub(1).map(|i| list[i].house());
                assert_eq!(d.last, last, "{variant} ply {k}");
            }
        }
    }

    #[test]
    fn ayoayo_marks_where_each_relay_ended() {
        let all = first_moves(Variant::Ayoayo, 10);
        let r = record(Variant::Ayoayo, 1, "", &all, GameResult::Draw);
        let plies = positions(&r).unwrap();
        for k in 1..plies.len() {
            let mv = plies[k].last.unwrap();
            let mut houses = plies[k - 1].board.houses();
            let end = relay_sow(&mut houses, mv);
            assert_eq!(plies[k].end, end, "ply {k}");
            assert!(end.is_some());
        }
        let oware = record(Variant::Oware, 1, "", "FfEa", GameResult::Draw);
        assert!(positions(&oware).unwrap().iter().all(|p| p.end.is_none()));
    }

    #[test]
    fn counts_of_64_and_more_take_two_digits() {
        let board =
            Board::from_notation(Variant::Kalah, "70-1-0-0-0-0-0-0-0-0-0-1-100-3-S").unwrap();
        let plies = [Ply {
            board,
            last: None,
            end: Some(11),
        }];
        let (width, text) = encode_boards(&plies);
        assert_eq!(width, 2);
        assert_eq!(text.len(), 14 * 2 + 3);
        let d = &decode_boards(width, &text)[0];
        assert_eq!(d.houses, board.houses());
        assert_eq!(d.stores, [100, 3]);
        assert_eq!((d.last, d.end), (None, Some(11)));
    }

    #[test]
    fn an_illegal_move_in_a_record_is_an_error_naming_the_round() {
        let r = record(Variant::Oware, 7, "", "FA", GameResult::Draw);
        let e = positions(&r).unwrap_err();
        assert!(e.0.starts_with("round 7: ply 2"), "{e}");
    }
}
