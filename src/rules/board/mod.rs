//! The board: a small `Copy` value holding everything a position needs except the history that
//! oware's repetition rule looks at (that is [`Game`](crate::rules::Game)'s job).
//!
//! Moves are played copy-make: [`Board::play_unchecked`] returns a new board, which is what a
//! search wants. [`Board::try_play`] checks legality first and [`Board::play`] panics on an
//! illegal move.
//!
//! The board's state and how a move changes it are here; `sow` holds each rule set's sowing
//! and captures, `end` the legal moves and the game's end, `errors` why a board or a move is
//! refused.

use super::mv::{Move, MoveList};
use super::outcome::Outcome;
use super::row;
use super::side::Side;
use super::variant::Variant;
use super::zobrist;

mod end;
mod errors;
mod sow;

pub use errors::{IllegalMove, IllegalReason, SetupError};
pub use sow::relay_sow;

/// A relay sowing (ayoayo) that needs more pick-ups than this never ends, by this project's rule
/// (see `protocol.md`): the longest finite sowing seen in 3 million random boards took 317.
pub const MAX_RELAYS: u32 = 1000;

/// Seeds in play can never exceed this, so no house or store overflows its `u8`.
pub const MAX_SEEDS: u32 = 255;

/// A position.
///
/// Houses are indexed 0-11 in sowing order: South's `A`-`F` (0-5), then North's `a`-`f` (6-11);
/// house `i` faces house `11 - i`. The Zobrist key is kept up to date by every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    houses: [u8; 12],
    stores: [u8; 2],
    side: Side,
    variant: Variant,
    /// Ahl: the side to move is making its bonus move, which cannot earn another.
    bonus: bool,
    /// Seeds in play (houses + stores). Conserved by every move; kept because the majority
    /// rule compares stores with half of it on every node of a search.
    total: u8,
    /// Plies played since the game's start, counted only where the rules use it (awari's move
    /// limit), so that equal positions of the other variants are equal boards.
    ply: u16,
    key: u64,
}

/// Whether a game goes on, with its legal moves, or is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The game goes on; these are the legal moves (never empty).
    Ongoing(MoveList),
    /// The game is over.
    Over(Outcome),
}

impl Board {
    /// The start position of `variant` with its usual number of seeds per house.
    pub fn start(variant: Variant) -> Board {
        Board::start_with_seeds(variant, variant.default_seeds())
            .expect("every variant's default seed count is valid")
    }

    /// The start position of `variant` with `seeds` per house (1-21): Kalah(6,6), 3-seed oware.
    pub fn start_with_seeds(variant: Variant, seeds: u32) -> Result<Board, SetupError> {
        if !(1..=21).contains(&seeds) {
            return Err(SetupError::SeedsPerHouse(seeds));
        }
        Board::from_parts(variant, [seeds as u8; 12], [0, 0], Side::South, false, 0)
    }

    /// A board from its parts, checked: at most [`MAX_SEEDS`] seeds in play, and a pending
    /// bonus move only in ahl.
    pub fn from_parts(
        variant: Variant,
        houses: [u8; 12],
        stores: [u8; 2],
        side: Side,
        bonus: bool,
        ply: u16,
    ) -> Result<Board, SetupError> {
        let total: u32 = houses.iter().chain(&stores).map(|&n| u32::from(n)).sum();
        if total > MAX_SEEDS {
            return Err(SetupError::TooManySeeds(total));
        }
        if bonus && variant != Variant::Ahl {
            return Err(SetupError::BonusNotInVariant(variant));
        }
        let mut board = Board {
            houses,
            stores,
            side,
            variant,
            bonus,
            total: total as u8,
            ply,
            key: 0,
        };
        board.key = board.recompute_key();
        Ok(board)
    }

    /// The rule set.
    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Seeds in each house, `A`-`F` then `a`-`f`.
    #[inline]
    pub fn houses(&self) -> [u8; 12] {
        self.houses
    }

    /// Seeds in house `i` (0-11).
    #[inline]
    pub fn house(&self, i: usize) -> u8 {
        self.houses[i]
    }

    /// The stores, South's then North's.
    #[inline]
    pub fn stores(&self) -> [u8; 2] {
        self.stores
    }

    /// `side`'s store.
    #[inline]
    pub fn store(&self, side: Side) -> u8 {
        self.stores[side.index()]
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// Ahl: whether the side to move is making its bonus move (which earns no further one).
    #[inline]
    pub fn bonus_pending(&self) -> bool {
        self.bonus
    }

    /// Plies played since the start of the game in awari, whose move limit needs it; always 0
    /// in the other variants (the referee and the search count plies themselves).
    #[inline]
    pub fn ply(&self) -> u16 {
        self.ply
    }

    /// Seeds in play: on the board and in the stores.
    #[inline]
    pub fn total_seeds(&self) -> u8 {
        self.total
    }

    /// Seeds on the board, in the houses: those in play less the stores' (no sum over the
    /// houses, which the evaluation and the search ask at every node).
    #[inline]
    pub fn seeds_on_board(&self) -> u32 {
        u32::from(self.total) - u32::from(self.stores[0]) - u32::from(self.stores[1])
    }

    /// The Zobrist key of houses, stores, side to move, pending bonus and kalah's reading (not
    /// the ply).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key computed from scratch; equal to [`Board::key`] (tests check it).
    pub fn recompute_key(&self) -> u64 {
        let mut key = 0;
        for (i, &n) in self.houses.iter().enumerate() {
            key ^= zobrist::HOUSE[i][n as usize];
        }
        for (s, &n) in self.stores.iter().enumerate() {
            key ^= zobrist::STORE[s][n as usize];
        }
        if self.side == Side::North {
            key ^= zobrist::NORTH_TO_MOVE;
        }
        if self.bonus {
            key ^= zobrist::BONUS;
        }
        if self.variant.captures_facing_empty() {
            key ^= zobrist::EMPTY_CAPTURE;
        }
        key
    }

    /// `side`'s six houses, in sowing order.
    #[inline]
    pub fn row(&self, side: Side) -> [u8; 6] {
        let f = side.first_house();
        [
            self.houses[f],
            self.houses[f + 1],
            self.houses[f + 2],
            self.houses[f + 3],
            self.houses[f + 4],
            self.houses[f + 5],
        ]
    }

    /// Seeds on `side`'s row.
    #[inline]
    pub fn row_seeds(&self, side: Side) -> u32 {
        row::sum(self.row_word(side))
    }

    /// `side`'s row as one word ([`row::word`]).
    #[inline]
    fn row_word(&self, side: Side) -> u64 {
        row::word(&self.houses, side.first_house())
    }

    /// Plays `m` if it is legal, returning the new board; the board itself is unchanged.
    pub fn try_play(&self, m: Move) -> Result<Board, IllegalMove> {
        match self.moves_or_end() {
            Ok(moves) if moves.contains(m) => Ok(self.play_unchecked(m)),
            Ok(_) => Err(IllegalMove {
                mv: m,
                side: self.side,
                reason: self.why_illegal(m),
            }),
            Err(end) => Err(IllegalMove {
                mv: m,
                side: self.side,
                reason: IllegalReason::GameOver(end),
            }),
        }
    }

    /// Plays `m`, which must be legal.
    ///
    /// # Panics
    /// If `m` is not legal here (for input a user typed, use [`Board::try_play`]).
    pub fn play(&self, m: Move) -> Board {
        match self.try_play(m) {
            Ok(board) => board,
            Err(e) => panic!("Board::play({m}) on {self}: {e}"),
        }
    }

    /// Why a move that is not in the legal list is illegal (the game is not over).
    fn why_illegal(&self, m: Move) -> IllegalReason {
        if m.side() != self.side {
            IllegalReason::NotYourHouse
        } else if self.houses[m.house()] == 0 {
            IllegalReason::EmptyHouse
        } else if self.variant == Variant::Ayoayo
            && relay_sow(&mut self.houses.clone(), m.house()).is_none()
        {
            IllegalReason::Endless
        } else {
            IllegalReason::MustFeed
        }
    }

    /// Plays `m` without checking it: for the search and perft, which play only moves from
    /// [`Board::legal_moves`]. An illegal move gives a board that play cannot reach (an empty
    /// house sows nothing but passes the turn), never undefined behaviour.
    #[inline]
    pub fn play_unchecked(&self, m: Move) -> Board {
        let mut b = *self;
        b.make_unchecked(m);
        b
    }

    /// [`Board::play_unchecked`] on this board itself: for a caller that has already copied
    /// the board where the child belongs (the search's child list). Writing the child in place
    /// spares copying it out again just after its bytes were written one by one, which the
    /// processor would have to wait for.
    #[inline]
    pub fn make_unchecked(&mut self, m: Move) {
        self.make_unchecked_in(self.variant, m)
    }

    /// [`Board::make_unchecked`] for a caller that knows the board's `variant` when it is
    /// compiled (see [`Board::moves_or_end_in`]).
    #[inline(always)]
    pub fn make_unchecked_in(&mut self, variant: Variant, m: Move) {
        debug_assert_eq!(variant, self.variant, "the board's own variant");
        match variant {
            Variant::Oware | Variant::Awari => self.sow_oware(m.house()),
            Variant::Ahl => self.sow_ahl(m.house()),
            Variant::Kalah | Variant::KalahEmpty => self.sow_kalah(variant, m.house()),
            Variant::Ayoayo => self.sow_ayoayo(m.house()),
        }
        if variant.ply_limit().is_some() {
            self.ply = self.ply.saturating_add(1);
        }
    }

    #[inline]
    fn set_house(&mut self, i: usize, n: u8) {
        let old = self.houses[i];
        self.key ^= zobrist::HOUSE[i][old as usize] ^ zobrist::HOUSE[i][n as usize];
        self.houses[i] = n;
    }

    /// Takes every seed out of house `i`.
    #[inline]
    fn take(&mut self, i: usize) -> u8 {
        let n = self.houses[i];
        self.set_house(i, 0);
        n
    }

    /// Drops one seed into house `i`. Cannot overflow: at most 255 seeds are in play.
    #[inline]
    fn add_seed(&mut self, i: usize) {
        let n = self.houses[i];
        self.key ^= zobrist::HOUSE_STEP[i][n as usize];
        self.houses[i] = n + 1;
    }

    #[inline]
    fn add_to_store(&mut self, side: Side, seeds: u8) {
        let s = side.index();
        let old = self.stores[s];
        let new = old + seeds;
        self.key ^= zobrist::STORE[s][old as usize] ^ zobrist::STORE[s][new as usize];
        self.stores[s] = new;
    }

    #[inline]
    fn pass_turn(&mut self) {
        self.side = self.side.opponent();
        self.key ^= zobrist::NORTH_TO_MOVE;
    }

    #[inline]
    fn set_bonus(&mut self, bonus: bool) {
        if self.bonus != bonus {
            self.bonus = bonus;
            self.key ^= zobrist::BONUS;
        }
    }
}
