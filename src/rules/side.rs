//! The two players. South moves first and owns houses `A`-`F` (indices 0-5); North owns `a`-`f`
//! (indices 6-11).

use std::fmt;

/// A player, and the row of six houses it owns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Side {
    /// Moves first; houses `A`-`F`, store index 0.
    South = 0,
    /// Houses `a`-`f`, store index 1.
    North = 1,
}

impl Side {
    /// Both sides, South first.
    pub const BOTH: [Side; 2] = [Side::South, Side::North];

    /// The other player.
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// 0 for South, 1 for North: the index of its store.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The index of this side's first house (`A` = 0 or `a` = 6).
    #[inline]
    pub const fn first_house(self) -> usize {
        self as usize * 6
    }

    /// The side that owns house `house` (0-11).
    #[inline]
    pub const fn of_house(house: usize) -> Side {
        if house < 6 {
            Side::South
        } else {
            Side::North
        }
    }

    /// The letter used in the position notation: `S` or `N`.
    pub const fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }

    /// The English name, for messages.
    pub const fn name(self) -> &'static str {
        match self {
            Side::South => "South",
            Side::North => "North",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
