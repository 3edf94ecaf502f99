//! `basic`: the computer player of Awari in *BASIC Computer Games* (Ahl, 1978; the program is
//! Geoff Wyvill's), with its learning.
//!
//! Its decision, as the listing makes it: for each of its non-empty houses in sowing order,
//! play the move (sowing and capture; a bonus move it earns is not looked into), then estimate
//! the opponent's best immediate gain `Q`, and score `own store - opponent's store - Q`, less 2
//! for each remembered lost (or drawn) game whose first 8 moves begin with this game's moves so
//! far and then this move, while at most 8 moves have been made. The highest score wins; ties
//! go to the later house.
//!
//! `Q` in `ahl` is the listing's arithmetic on the 14-place ring counted from the opponent's
//! first house (its houses are places 0-5, its store 6, ours 7-12, our store 13): a house at
//! place `i` with `n` seeds lands at `i + n`; past place 13 (wrapping, once or more) the gain
//! starts at 1; if the landing place, wrapped, is a house and empty, the gain adds the seeds of
//! the house facing it. In the other rule sets the same recipe uses that rule set's sowing:
//! `Q` is the most the opponent's store gains by any one of its moves, played out.

use crate::rules::{Board, Move, Side, Variant};
use std::fmt;
#[cfg(feature = "native")]
use std::io;
#[cfg(feature = "native")]
use std::path::Path;

/// Moves of a game the memory keeps.
pub const REMEMBERED_MOVES: usize = 8;

/// The openings of the games `basic` did not win: each the columns (0-5: `A`/`a` = 0) of a
/// game's first 8 moves, both sides, bonus moves included.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// The remembered openings, oldest first.
    pub games: Vec<Vec<u8>>,
}

/// Why a memory file could not be used (it is then treated as no memory).
#[derive(Debug)]
pub struct MemoryError(String);

impl fmt::Display for MemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MemoryError {}

#[cfg(feature = "native")]
const HEADER: &str =
    "# awari basic memory v1: one lost or drawn game per line, its first moves as columns 0-5";

impl Memory {
    #[cfg(feature = "native")]
    /// Reads a memory file. A missing or empty file is an empty memory; a corrupt one is an
    /// error (the caller warns and goes on with no memory).
    pub fn load(path: &Path) -> Result<Memory, MemoryError> {
        let text = match super::files::read_small(path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Memory::default()),
            Err(e) => return Err(MemoryError(format!("{}: {e}", path.display()))),
        };
        let mut games = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let game: Option<Vec<u8>> = line
                .chars()
                .map(|c| c.to_digit(10).filter(|&d| d < 6).map(|d| d as u8))
                .collect();
            match game {
                Some(g) if !g.is_empty() && g.len() <= REMEMBERED_MOVES => games.push(g),
                _ => {
                    return Err(MemoryError(format!(
                        "{} line {}: expected 1 to 8 digits 0-5, found '{line}'",
                        path.display(),
                        n + 1
                    )))
                }
            }
        }
        Ok(Memory { games })
    }

    #[cfg(feature = "native")]
    /// Writes the memory whole ([`crate::sys::write::replace`]), so a crash leaves either the
    /// old file or the new one. The error does not name the path; the caller does.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        let mut text = String::from(HEADER);
        text.push('\n');
        for g in &self.games {
            text.extend(g.iter().map(|d| char::from(b'0' + d)));
            text.push('\n');
        }
        crate::sys::write::replace(path, text.as_bytes()).map_err(|e| e.error)
    }

    /// Remembers a game by its moves (the first 8 are kept).
    pub fn remember(&mut self, moves: &[Move]) {
        if moves.is_empty() {
            return;
        }
        let columns = moves
            .iter()
            .take(REMEMBERED_MOVES)
            .map(|m| m.column() as u8)
            .collect();
        self.games.push(columns);
    }

    /// 2 for each remembered game that began with `so_far` and then `column`.
    fn penalty(&self, so_far: &[u8], column: u8) -> i32 {
        let k = so_far.len();
        2 * self
            .games
            .iter()
            .filter(|g| g.len() > k && g[..k] == *so_far && g[k] == column)
            .count() as i32
    }
}

/// The opponent's best immediate gain after our move, as the listing estimates it (`ahl`), or
/// by playing its moves out (the other rule sets).
fn opponent_gain(child: &Board, opponent: Side) -> i32 {
    if child.variant() == Variant::Ahl {
        let first = opponent.first_house();
        let ours = opponent.opponent().first_house();
        // The board house at a ring place, or None for a store.
        let house_at = |place: usize| match place {
            0..=5 => Some(first + place),
            7..=12 => Some(ours + place - 7),
            _ => None,
        };
        (0..6)
            .filter_map(|i| {
                let n = usize::from(child.house(first + i));
                if n == 0 {
                    return None;
                }
                let landing = i + n;
                let mut gain = i32::from(landing > 13);
                if let Some(h) = house_at(landing % 14) {
                    if child.house(h) == 0 {
                        gain += i32::from(child.house(11 - h));
                    }
                }
                Some(gain)
            })
            .max()
            .unwrap_or(0)
    } else {
        let Ok(view) = Board::from_parts(
            child.variant(),
            child.houses(),
            child.stores(),
            opponent,
            false,
            child.ply(),
        ) else {
            return 0;
        };
        let before = i32::from(view.store(opponent));
        view.moves_or_end()
            .map(|moves| {
                moves
                    .into_iter()
                    .map(|m| i32::from(view.play_unchecked(m).store(opponent)) - before)
                    .max()
                    .unwrap_or(0)
            })
            .unwrap_or(0)
    }
}

/// Each legal move with the listing's score for it, in sowing order.
pub fn scores(board: &Board, history: &[Move], memory: &Memory) -> Vec<(Move, i32)> {
    let Ok(moves) = board.moves_or_end() else {
        return Vec::new();
    };
    let me = board.side_to_move();
    let you = me.opponent();
    let so_far: Vec<u8> = history.iter().map(|m| m.column() as u8).collect();
    moves
        .into_iter()
        .map(|m| {
            let child = board.play_unchecked(m);
            let mut score = i32::from(child.store(me))
                - i32::from(child.store(you))
                - opponent_gain(&child, you);
            if history.len() <= REMEMBERED_MOVES {
                score -= memory.penalty(&so_far, m.column() as u8);
            }
            (m, score)
        })
        .collect()
}

/// The move `basic` plays after the game's moves `history` (from its start), with `memory`.
pub fn choose(board: &Board, history: &[Move], memory: &Memory) -> Option<Move> {
    let mut best: Option<(Move, i32)> = None;
    for (m, score) in scores(board, history, memory) {
        // `>=`: a tie goes to the later house.
        if best.is_none_or(|(_, b)| score >= b) {
            best = Some((m, score));
        }
    }
    best.map(|(m, _)| m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ahl(text: &str) -> Board {
        Board::from_notation(Variant::Ahl, text).unwrap()
    }

    /// Positions with the scores the listing's arithmetic gives, worked by hand.
    #[test]
    fn decisions_as_the_listing_makes_them() {
        // The ahl start, South to move, no memory. North's ring: a..f places 0-5 (3 seeds
        // each), its store 6, A..F places 7-12, South's store 13.
        //  A: B C D -> 4 4 4, A empty. e (place 4) lands at 7 = A, empty: + facing f (3).
        //     Q = 3; score 0 - 0 - 3 = -3.
        //  B: C D E. f (place 5) lands at 8 = B, empty: + facing e (3). Q = 3; score -3.
        //  C: D E F. Landings 3..8 reach A (3), B (3): nothing empty. Q = 0; score 0.
        //  D: E F store (1; its bonus is not looked into). Q = 0; score 1.
        //  E: F store a. Q = 0 (a: 4 seeds lands on e, 3); score 1.
        //  F: store a b. Q = 0; score 1.
        // D, E, F tie at 1: the later house, F.
        let start = ahl("3-3-3-3-3-3-3-3-3-3-3-3-0-0-S");
        let got: Vec<i32> = scores(&start, &[], &Memory::default())
            .iter()
            .map(|&(_, s)| s)
            .collect();
        assert_eq!(got, [-3, -3, 0, 1, 1, 1]);
        assert_eq!(
            choose(&start, &[], &Memory::default()).unwrap().to_char(),
            'F'
        );

        // The same with a remembered lost game that began with F (column 5): F scores 1 - 2.
        // D and E tie at 1: the later, E.
        let memory = Memory {
            games: vec![vec![5, 0, 1, 2, 3, 4, 0, 1]],
        };
        assert_eq!(choose(&start, &[], &memory).unwrap().to_char(), 'E');
        // After one move the memory is read one move further: a game that began F then a
        // (columns 5, 0) penalises a after F, not b.
        let after_f = start.play(Move::from_char('F').unwrap());
        let f = [Move::from_char('F').unwrap()];
        let with = scores(&after_f, &f, &memory);
        let without = scores(&after_f, &f, &Memory::default());
        for ((m, a), (_, b)) in with.iter().zip(&without) {
            let expected = if m.column() == 0 { b - 2 } else { *b };
            assert_eq!(*a, expected, "{m}");
        }

        // A gain that wraps: North's f (place 5) holds 9, lands at 14: past 13, so the gain
        // starts at 1, and place 0 (a) is empty: + the seeds facing it (F).
        //  A: to B (B faces e, empty: no capture). F still 2: Q = 1 + 2 = 3; score -3.
        //  F: store (11) and a (now 1; F is empty, so no capture). f wraps to a, not empty:
        //     Q = 1; a (1) lands on b, empty, facing E (0): 0. Score 11 - 10 - 1 = 0.
        let wrap = ahl("1-0-0-0-0-2-0-0-0-0-0-9-10-10-S");
        let got: Vec<(char, i32)> = scores(&wrap, &[], &Memory::default())
            .iter()
            .map(|&(m, s)| (m.to_char(), s))
            .collect();
        assert_eq!(got, [('A', -3), ('F', 0)]);
    }

    #[test]
    fn other_variants_use_their_own_sowing() {
        // Oware: F takes 3 from a (22 -> 25); North's best reply after it gains nothing.
        let board =
            Board::from_notation(Variant::Oware, "1-0-0-0-0-1-2-1-1-1-1-4-22-14-S").unwrap();
        assert_eq!(
            choose(&board, &[], &Memory::default()).unwrap().to_char(),
            'F'
        );
    }

    #[test]
    fn memory_round_trips_and_survives_corruption() {
        let dir = std::env::temp_dir().join(format!("awari-basic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("memory.txt");
        assert_eq!(
            Memory::load(&path).unwrap(),
            Memory::default(),
            "missing: empty"
        );
        let mut memory = Memory::default();
        let moves: Vec<Move> = "FaEbDcCdBeAf"
            .chars()
            .map(|c| Move::from_char(c).unwrap())
            .collect();
        memory.remember(&moves);
        memory.remember(&moves[..3]);
        memory.save(&path).unwrap();
        let back = Memory::load(&path).unwrap();
        assert_eq!(back, memory);
        assert_eq!(back.games[0], [5, 0, 4, 1, 3, 2, 2, 3]);
        std::fs::write(&path, "").unwrap();
        assert_eq!(
            Memory::load(&path).unwrap(),
            Memory::default(),
            "empty: empty"
        );
        for corrupt in ["012345678\n", "01x\n", "0123456701\n", "\u{0}\u{1}"] {
            std::fs::write(&path, corrupt).unwrap();
            assert!(Memory::load(&path).is_err(), "{corrupt:?}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
