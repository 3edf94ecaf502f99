//! Moves and move lists. A move is the house it sows from, written as one letter: `A`-`F` for
//! South's houses and `a`-`f` for North's, so a move list is a string such as `FfEa`.
//!
//! Parsing is two steps, as in shakmaty: text becomes a [`Move`] without looking at a position
//! ([`Move::from_char`], [`parse_move_list`]); the board then decides whether it is legal.

use super::side::Side;
use std::fmt;
use std::str::FromStr;

/// A move: the index (0-11) of the house to sow from. Which side plays it follows from the
/// index, so a move is meaningful without a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u8);

impl Move {
    /// The move sowing from house `house` (0-11), or `None` for any other index.
    pub const fn new(house: usize) -> Option<Move> {
        if house < 12 {
            Some(Move(house as u8))
        } else {
            None
        }
    }

    /// The house index, 0-11.
    #[inline]
    pub const fn house(self) -> usize {
        self.0 as usize
    }

    /// The side whose house this is: the only side that may play it.
    #[inline]
    pub const fn side(self) -> Side {
        Side::of_house(self.0 as usize)
    }

    /// The house's place within its own row, 0-5 (`A`/`a` = 0).
    #[inline]
    pub const fn column(self) -> usize {
        self.0 as usize % 6
    }

    /// The move written as `c`: `A`-`F` or `a`-`f`.
    pub const fn from_char(c: char) -> Option<Move> {
        match c {
            'A'..='F' => Some(Move(c as u8 - b'A')),
            'a'..='f' => Some(Move(c as u8 - b'a' + 6)),
            _ => None,
        }
    }

    /// The letter of this move.
    pub const fn to_char(self) -> char {
        if self.0 < 6 {
            (b'A' + self.0) as char
        } else {
            (b'a' + self.0 - 6) as char
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// Text that is not a move letter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveParseError {
    /// Character offset (0-based) of the offending character in the text.
    pub offset: usize,
    /// The offending character.
    pub found: char,
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "character {} (`{}`) is not a move: moves are the letters A-F (South) and a-f (North)",
            self.offset + 1,
            self.found.escape_default()
        )
    }
}

impl std::error::Error for MoveParseError {}

impl FromStr for Move {
    type Err = MoveParseError;

    /// Exactly one letter.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Move::from_char(c).ok_or(MoveParseError {
                offset: 0,
                found: c,
            }),
            (None, _) => Err(MoveParseError {
                offset: 0,
                found: ' ',
            }),
            (Some(_), Some(c)) => Err(MoveParseError {
                offset: 1,
                found: c,
            }),
        }
    }
}

/// Parses a move list written concatenated (`FfEa`) or separated by whitespace (`F f E a`, tabs
/// too). Only the letters are checked here; legality is the board's business.
pub fn parse_move_list(text: &str) -> Result<Vec<Move>, MoveParseError> {
    text.chars()
        .enumerate()
        .filter(|(_, c)| !c.is_whitespace())
        .map(|(offset, found)| Move::from_char(found).ok_or(MoveParseError { offset, found }))
        .collect()
}

/// Writes moves concatenated, the way Aualé and Aalina write them.
pub fn format_move_list(moves: &[Move]) -> String {
    moves.iter().map(|m| m.to_char()).collect()
}

/// A set of moves of one position, as a bit set over the 12 houses. Iterates in house order,
/// which is sowing order within each side's row. `Copy` and allocation-free, for the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct MoveList(u16);

impl MoveList {
    /// No moves.
    pub const EMPTY: MoveList = MoveList(0);

    /// Adds a move.
    #[inline]
    pub fn insert(&mut self, m: Move) {
        self.0 |= 1 << m.0;
    }

    /// Removes a move.
    #[inline]
    pub fn remove(&mut self, m: Move) {
        self.0 &= !(1 << m.0);
    }

    /// Whether `m` is in the set.
    #[inline]
    pub const fn contains(self, m: Move) -> bool {
        self.0 & (1 << m.0) != 0
    }

    /// The number of moves: looked up, as perft counts the moves of every node at its last
    /// ply. (`count_ones` is a dozen instructions on processors without `popcnt`, which
    /// portable builds cannot assume.)
    #[inline]
    pub const fn len(self) -> usize {
        MOVE_COUNTS[(self.0 & 0x0fff) as usize] as usize
    }

    /// Whether there are no moves.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The raw bit set (bit `i` = house `i`).
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The set with bit `i` for house `i`; bits above 11 are dropped.
    #[inline]
    pub const fn from_bits(bits: u16) -> MoveList {
        MoveList(bits & 0x0fff)
    }
}

/// `MOVE_COUNTS[bits]`: the number of bits set in `bits` (12 bits, a [`MoveList`]'s).
const MOVE_COUNTS: [u8; 4096] = {
    let mut t = [0u8; 4096];
    let mut bits = 0;
    while bits < 4096 {
        t[bits] = (bits as u16).count_ones() as u8;
        bits += 1;
    }
    t
};

impl Iterator for MoveList {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        if self.0 == 0 {
            return None;
        }
        let house = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Move(house))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // Not `self.len()`: on `&MoveList` that resolves to `ExactSizeIterator::len`, which
        // calls `size_hint`.
        let n = MoveList::len(*self);
        (n, Some(n))
    }
}

impl ExactSizeIterator for MoveList {}

impl fmt::Display for MoveList {
    /// Concatenated letters, e.g. `ABDF`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.into_iter().try_for_each(|m| write!(f, "{m}"))
    }
}
