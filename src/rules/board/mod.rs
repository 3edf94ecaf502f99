//! The board: a small `Copy` value holding everything a position needs except the history that
//! oware's repetition rule looks at (that is [`Game`](super::game::Game)'s job).
//!
//! Moves are played copy-make: [`Board::play_unchecked`] returns a new board, which is what a
//! search wants. [`Board::try_play`] checks legality first and [`Board::play`] panics on an
//! illegal move.

use super::mv::{Move, MoveList};
use super::outcome::{EndReason, Outcome};
use super::row;
use super::side::Side;
use super::variant::Variant;
use super::zobrist;
use std::fmt;

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

/// Why a board could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// More seeds in play than [`MAX_SEEDS`].
    TooManySeeds(u32),
    /// Seeds per house for a start position out of 1..=21.
    SeedsPerHouse(u32),
    /// A pending bonus move in a variant that has none (only ahl has one).
    BonusNotInVariant(Variant),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::TooManySeeds(n) => {
                write!(f, "{n} seeds in play; at most {MAX_SEEDS} are supported")
            }
            SetupError::SeedsPerHouse(n) => {
                write!(f, "{n} seeds per house; it must be 1 to 21")
            }
            SetupError::BonusNotInVariant(v) => {
                write!(
                    f,
                    "a pending bonus move (`+`) exists only in ahl, not in {v}"
                )
            }
        }
    }
}

impl std::error::Error for SetupError {}

/// Why a move is not legal in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    /// The game is already over.
    GameOver(EndReason),
    /// The house belongs to the side not to move.
    NotYourHouse,
    /// The house is empty.
    EmptyHouse,
    /// The opponent's row is empty and this move does not give it seeds, while another does.
    MustFeed,
    /// Ayoayo: this relay sowing never ends (more than [`MAX_RELAYS`] relays).
    Endless,
}

/// A move that is not legal, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
    /// The side to move when it was tried.
    pub side: Side,
    /// Why it is illegal.
    pub reason: IllegalReason,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.mv;
        match self.reason {
            IllegalReason::GameOver(r) => write!(f, "`{m}`: the game is over ({r})"),
            IllegalReason::NotYourHouse => write!(
                f,
                "`{m}` is {}'s house and {} is to move",
                m.side(),
                self.side
            ),
            IllegalReason::EmptyHouse => write!(f, "`{m}`: house {m} is empty"),
            IllegalReason::MustFeed => write!(
                f,
                "`{m}`: {}'s row is empty and this move gives it no seeds while another would",
                self.side.opponent()
            ),
            IllegalReason::Endless => write!(
                f,
                "`{m}`: its relay sowing never ends (more than {MAX_RELAYS} relays)"
            ),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// The 14 places of ahl's and kalah's sowing ring: houses `A`-`F` are places 0-5, South's store
/// is place 6, houses `a`-`f` are places 7-12 and North's store is place 13.
const SOUTH_STORE_PLACE: usize = 6;
const NORTH_STORE_PLACE: usize = 13;

#[inline]
const fn place_of(house: usize) -> usize {
    if house < 6 {
        house
    } else {
        house + 1
    }
}

#[inline]
const fn house_at(place: usize) -> usize {
    if place < 6 {
        place
    } else {
        place - 1
    }
}

#[inline]
const fn store_place(side: Side) -> usize {
    match side {
        Side::South => SOUTH_STORE_PLACE,
        Side::North => NORTH_STORE_PLACE,
    }
}

#[inline]
const fn next_house(house: usize) -> usize {
    if house == 11 {
        0
    } else {
        house + 1
    }
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

    /// The Zobrist key of houses, stores, side to move and pending bonus (not the ply).
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

    /// Whether the game goes on (with the legal moves) or is over (with the result).
    ///
    /// This sees every ending but oware's repetition, which needs the game's history: ask
    /// [`Game::status`](super::game::Game::status) for that.
    pub fn status(&self) -> Status {
        match self.moves_or_end() {
            Ok(moves) => Status::Ongoing(moves),
            Err(reason) => Status::Over(self.outcome_when(reason)),
        }
    }

    /// The legal moves; empty when the game is over.
    pub fn legal_moves(&self) -> MoveList {
        self.moves_or_end().unwrap_or(MoveList::EMPTY)
    }

    /// The result, if the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.moves_or_end()
            .err()
            .map(|reason| self.outcome_when(reason))
    }

    /// The legal moves, or why there are none. The hot path of perft and search: it builds no
    /// [`Outcome`].
    #[inline]
    pub fn moves_or_end(&self) -> Result<MoveList, EndReason> {
        self.moves_or_end_in(self.variant)
    }

    /// [`Board::moves_or_end`] for a caller that knows the board's `variant` when it is
    /// compiled (a search specialized to each rule set): the rule set's code alone is left,
    /// with no branch on it.
    #[inline(always)]
    pub fn moves_or_end_in(&self, variant: Variant) -> Result<MoveList, EndReason> {
        debug_assert_eq!(variant, self.variant, "the board's own variant");
        match variant {
            Variant::Oware => {
                self.check_majority()?;
                match self.feeding_moves() {
                    m if !m.is_empty() => Ok(m),
                    _ if self.row_seeds(self.side) == 0 => Err(EndReason::NoMoves),
                    _ => Err(EndReason::NoFeedingMove),
                }
            }
            Variant::Awari => {
                self.check_majority()?;
                // Play reaches an empty row for the side to move only through a grand slam
                // (sowing never empties the opponent's row, and feeding is compulsory), so a
                // set-up position with one is read the same way: the opponent has won.
                if self.row_seeds(self.side) == 0 {
                    return Err(EndReason::GrandSlam);
                }
                if self
                    .variant
                    .ply_limit()
                    .is_some_and(|limit| self.ply >= limit)
                {
                    return Err(EndReason::MoveLimit);
                }
                match self.feeding_moves() {
                    m if !m.is_empty() => Ok(m),
                    _ => Err(EndReason::NoFeedingMove),
                }
            }
            Variant::Ahl | Variant::Kalah => {
                if self.row_seeds(Side::South) == 0 || self.row_seeds(Side::North) == 0 {
                    Err(EndReason::EmptyRow)
                } else {
                    Ok(self.nonempty_houses())
                }
            }
            Variant::Ayoayo => {
                if self.row_seeds(self.side) == 0 {
                    return Err(EndReason::EmptyRow);
                }
                let moves = self.ayoayo_moves();
                if moves.is_empty() {
                    Err(EndReason::NoMoves)
                } else {
                    Ok(moves)
                }
            }
        }
    }

    /// Why the game is over, if it is: [`Board::moves_or_end`]'s answer without the moves, for
    /// a search's leaves, which only need to know whether the game goes on. In ayoayo, where
    /// each move's relay sowing must be played out to see whether it ends, one that does is
    /// enough.
    #[inline]
    pub fn end(&self) -> Option<EndReason> {
        self.end_in(self.variant)
    }

    /// [`Board::end`] for a caller that knows the board's `variant` when it is compiled (see
    /// [`Board::moves_or_end_in`]).
    #[inline(always)]
    pub fn end_in(&self, variant: Variant) -> Option<EndReason> {
        debug_assert_eq!(variant, self.variant, "the board's own variant");
        match variant {
            Variant::Ayoayo => {
                if self.row_seeds(self.side) == 0 {
                    return Some(EndReason::EmptyRow);
                }
                let ends = |m: Move| relay_sow(&mut self.houses.clone(), m.house()).is_some();
                match self.nonempty_houses().into_iter().any(ends) {
                    true => None,
                    false => Some(EndReason::NoMoves),
                }
            }
            _ => self.moves_or_end_in(variant).err(),
        }
    }

    /// Oware and awari end as soon as a store holds more than half the seeds, or both hold
    /// exactly half.
    #[inline]
    fn check_majority(&self) -> Result<(), EndReason> {
        let total = u32::from(self.total);
        let [s, n] = self.stores.map(|x| 2 * u32::from(x));
        if s > total || n > total || (s == total && n == total) {
            Err(EndReason::Majority)
        } else {
            Ok(())
        }
    }

    /// The side to move's non-empty houses.
    #[inline]
    fn nonempty_houses(&self) -> MoveList {
        let bits = row::bits(row::nonzero(self.row_word(self.side)));
        MoveList::from_bits((bits as u16) << self.side.first_house())
    }

    /// Oware and awari: the non-empty houses, restricted to those reaching the opponent's row
    /// when that row is empty (a house in column `c` needs `6 - c` seeds to reach it).
    #[inline]
    fn feeding_moves(&self) -> MoveList {
        if self.row_seeds(self.side.opponent()) != 0 {
            return self.nonempty_houses();
        }
        let first = self.side.first_house();
        let mut bits = 0u16;
        for (c, &n) in self.row(self.side).iter().enumerate() {
            bits |= u16::from(usize::from(n) + c >= 6) << (first + c);
        }
        MoveList::from_bits(bits)
    }

    /// Ayoayo: the non-empty houses whose sowing ends; when the opponent's row is empty, only
    /// those that leave it seeds, if any does.
    fn ayoayo_moves(&self) -> MoveList {
        let opponent = self.side.opponent();
        let must_feed = self.row_seeds(opponent) == 0;
        let mut permissible = MoveList::EMPTY;
        let mut feeding = MoveList::EMPTY;
        for m in self.nonempty_houses() {
            let mut houses = self.houses;
            let Some(last) = relay_sow(&mut houses, m.house()) else {
                continue;
            };
            permissible.insert(m);
            if must_feed {
                if Side::of_house(last) == self.side {
                    houses[11 - last] = 0;
                }
                let f = opponent.first_house();
                if houses[f..f + 6].iter().any(|&n| n != 0) {
                    feeding.insert(m);
                }
            }
        }
        if feeding.is_empty() {
            permissible
        } else {
            feeding
        }
    }

    /// The result if the game ended here for `reason`: the variant's end-of-game collection,
    /// then the winner. [`Board::status`] uses it; a search uses it for endings it detects
    /// itself (repetition).
    pub fn outcome_when(&self, reason: EndReason) -> Outcome {
        // Whether each side adds the seeds left on its own row to its store.
        let collect = match self.variant {
            Variant::Oware | Variant::Kalah | Variant::Ayoayo => true,
            // Awari counts the board only when nobody can feed: the side to move takes what is
            // left, all of it on its own row.
            Variant::Awari => reason == EndReason::NoFeedingMove,
            Variant::Ahl => false,
        };
        self.outcome_counting(reason, collect)
    }

    /// The result if the game ended here for `reason`, each side adding its own row to its
    /// store when `collect` says so, whatever the variant's rule: for a referee that stops a
    /// game at its own move limit and scores it one way or the other.
    pub fn outcome_counting(&self, reason: EndReason, collect: bool) -> Outcome {
        let mut stores = self.stores;
        if collect {
            for side in Side::BOTH {
                stores[side.index()] += self.row_seeds(side) as u8;
            }
        }
        let winner = if reason == EndReason::GrandSlam {
            Some(self.side.opponent())
        } else if stores[0] > stores[1] {
            Some(Side::South)
        } else if stores[1] > stores[0] {
            Some(Side::North)
        } else {
            None
        };
        Outcome {
            reason,
            winner,
            stores,
        }
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
            Variant::Kalah => self.sow_kalah(m.house()),
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

    /// Oware and awari: sow skipping the origin, capture 2s and 3s backwards from the last
    /// house; a grand slam captures nothing in oware and everything in awari.
    #[inline(always)]
    fn sow_oware(&mut self, origin: usize) {
        let mut seeds = self.take(origin);
        let mut pos = origin;
        while seeds > 0 {
            pos = next_house(pos);
            if pos != origin {
                self.add_seed(pos);
                seeds -= 1;
            }
        }
        let mover = self.side;
        let opponent = mover.opponent();
        if Side::of_house(pos) == opponent && matches!(self.houses[pos], 2 | 3) {
            let first = opponent.first_house();
            let mut captured = 0u32;
            let mut end = pos + 1; // houses first..=pos, walked backwards, make the chain
            while end > first && matches!(self.houses[end - 1], 2 | 3) {
                end -= 1;
                captured += u32::from(self.houses[end]);
            }
            let grand_slam = captured == self.row_seeds(opponent);
            if !(grand_slam && self.variant == Variant::Oware) {
                for i in end..=pos {
                    self.set_house(i, 0);
                }
                self.add_to_store(mover, captured as u8);
            }
        }
        self.pass_turn();
    }

    /// Ahl: sow over all 14 places, both stores and the origin included; a last seed in the
    /// own store earns one bonus move (not on a bonus move); a last seed in an empty house on
    /// either side takes the facing house's seeds with it, if there are any.
    #[inline(always)]
    fn sow_ahl(&mut self, origin: usize) {
        let mover = self.side;
        let mut seeds = self.take(origin);
        let mut place = place_of(origin);
        while seeds > 0 {
            place = if place == NORTH_STORE_PLACE {
                0
            } else {
                place + 1
            };
            match place {
                SOUTH_STORE_PLACE => self.add_to_store(Side::South, 1),
                NORTH_STORE_PLACE => self.add_to_store(Side::North, 1),
                _ => self.add_seed(house_at(place)),
            }
            seeds -= 1;
        }
        if place == store_place(mover) && !self.bonus {
            self.set_bonus(true);
            return;
        }
        if place != SOUTH_STORE_PLACE && place != NORTH_STORE_PLACE {
            self.capture_lone_seed(house_at(place));
        }
        self.set_bonus(false);
        self.pass_turn();
    }

    /// Kalah: sow through the own store, skipping the opponent's; a last seed in the own store
    /// moves again; a last seed in an empty own house takes the facing house's seeds with it,
    /// if there are any.
    ///
    /// A sowing of fewer seeds than a lap (13 places) sows the houses after the origin, in
    /// their order, and the store once if it reaches it: no test at each seed of whether it is
    /// a store's turn, which the processor cannot foresee (`awari bench`, README).
    #[inline(always)]
    fn sow_kalah(&mut self, origin: usize) {
        let mover = self.side;
        let seeds = usize::from(self.take(origin));
        // Places from the origin to the own store.
        let to_store = mover.first_house() + 6 - origin;
        let last = if seeds < 13 {
            let into_store = seeds >= to_store;
            let mut house = origin;
            for _ in 0..seeds - usize::from(into_store) {
                house = next_house(house);
                self.add_seed(house);
            }
            if into_store {
                self.add_to_store(mover, 1);
            }
            (seeds != to_store).then_some(house)
        } else {
            self.sow_kalah_laps(origin, seeds)
        };
        // A last seed in the own store moves again.
        let Some(last) = last else { return };
        if Side::of_house(last) == mover {
            self.capture_lone_seed(last);
        }
        self.pass_turn();
    }

    /// [`Board::sow_kalah`]'s sowing of `seeds` taken from `origin`, place by place, for a
    /// lap or more; returns the last house, `None` for the own store.
    fn sow_kalah_laps(&mut self, origin: usize, mut seeds: usize) -> Option<usize> {
        let mover = self.side;
        let own_store = store_place(mover);
        let other_store = store_place(mover.opponent());
        let mut place = place_of(origin);
        while seeds > 0 {
            place = if place == NORTH_STORE_PLACE {
                0
            } else {
                place + 1
            };
            if place == other_store {
                continue;
            }
            if place == own_store {
                self.add_to_store(mover, 1);
            } else {
                self.add_seed(house_at(place));
            }
            seeds -= 1;
        }
        (place != own_store).then(|| house_at(place))
    }

    /// Ahl and kalah: a last seed alone in its house (it was empty) facing a non-empty house:
    /// both go to the mover's store.
    #[inline]
    fn capture_lone_seed(&mut self, last: usize) {
        let facing = 11 - last;
        if self.houses[last] == 1 && self.houses[facing] != 0 {
            let seeds = self.take(facing) + self.take(last);
            self.add_to_store(self.side, seeds);
        }
    }

    /// Ayoayo: relay sowing; ending on the own row captures the facing house.
    fn sow_ayoayo(&mut self, origin: usize) {
        let mut houses = self.houses;
        // Only legal moves come here; an endless one (unchecked play of an illegal move) is
        // left as it stood after the last relay, which is as good as any other board.
        let last = relay_sow(&mut houses, origin);
        // Every house's key steps, unchanged ones by nothing: no branch on which changed.
        for (i, &n) in houses.iter().enumerate() {
            self.key ^=
                zobrist::HOUSE[i][usize::from(self.houses[i])] ^ zobrist::HOUSE[i][usize::from(n)];
        }
        self.houses = houses;
        if let Some(last) = last.filter(|&l| Side::of_house(l) == self.side) {
            let seeds = self.take(11 - last);
            self.add_to_store(self.side, seeds);
        }
        self.pass_turn();
    }
}

/// Ayoayo's relay sowing from `origin` on `houses`, skipping the origin throughout: returns the
/// house of the last seed, or `None` if the sowing needs more than [`MAX_RELAYS`] relays (it is
/// endless by this project's rule).
///
/// A relay sows all its seeds at once, the twelve houses held as one number a byte each (no
/// house holds more than [`MAX_SEEDS`], so no byte carries into the next). Every search node of
/// ayoayo plays out each move's relays to know its legality; seed by seed, with a loop whose
/// end the processor cannot foresee, `awari perft --depth 11 --variant ayoayo` took 5.7 s
/// against 4.6 s now.
pub fn relay_sow(houses: &mut [u8; 12], origin: usize) -> Option<usize> {
    let mut all = to_u128(houses);
    let byte = |all: u128, h: usize| (all >> (8 * h)) as u8;
    let mut seeds = byte(all, origin);
    all &= !(0xff << (8 * origin));
    let mut pos = origin;
    let mut relays = 0;
    let last = loop {
        pos = sow_skipping(&mut all, origin, pos, usize::from(seeds));
        seeds = byte(all, pos);
        if seeds == 1 {
            break Some(pos);
        }
        relays += 1;
        if relays > MAX_RELAYS {
            break None;
        }
        all &= !(0xff << (8 * pos));
    };
    *houses = from_u128(all);
    last
}

/// `AFTER[origin][k]`: one seed in each of the `k` houses after `origin` (skipping none, as
/// `k` is at most 11), a byte per house as [`relay_sow`] holds them.
static AFTER: [[u128; 12]; 12] = {
    let mut t = [[0u128; 12]; 12];
    let mut origin = 0;
    while origin < 12 {
        let mut k = 1;
        while k < 12 {
            t[origin][k] = t[origin][k - 1] | 1 << (8 * ((origin + k) % 12));
            k += 1;
        }
        origin += 1;
    }
    t
};

/// The twelve houses as one number, house `i` in byte `i`.
#[inline]
fn to_u128(houses: &[u8; 12]) -> u128 {
    let mut bytes = [0u8; 16];
    bytes[..12].copy_from_slice(houses);
    u128::from_le_bytes(bytes)
}

/// [`to_u128`] undone.
#[inline]
fn from_u128(all: u128) -> [u8; 12] {
    let mut houses = [0u8; 12];
    houses.copy_from_slice(&all.to_le_bytes()[..12]);
    houses
}

/// Sows `seeds` into the houses after `from`, skipping `origin` (so round 11 houses a lap), on
/// `all` (a byte per house); returns the house of the last seed (`from` if there were none).
#[inline]
fn sow_skipping(all: &mut u128, origin: usize, from: usize, seeds: usize) -> usize {
    let after = &AFTER[origin];
    // Counted from the origin, the sown houses are 1 to 11; `from` is `start`.
    let start = (from + 12 - origin) % 12;
    let to_lap = 11 - start;
    let last = if seeds <= to_lap {
        *all += after[start + seeds] - after[start];
        start + seeds
    } else {
        let (laps, rest) = ((seeds - to_lap) / 11, (seeds - to_lap) % 11);
        *all += after[11] - after[start] + after[11] * laps as u128 + after[rest];
        if rest == 0 {
            11
        } else {
            rest
        }
    };
    (origin + last) % 12
}
