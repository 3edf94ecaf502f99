//! Sowing and capturing, one method per rule set, each keeping the Zobrist key up to date
//! through the board's setters; and ayoayo's relay sowing on the houses held as one number.

use super::{Board, MAX_RELAYS};
use crate::rules::zobrist;
use crate::rules::{Side, Variant};

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
    /// Oware and awari: sow skipping the origin, capture 2s and 3s backwards from the last
    /// house; a grand slam captures nothing in oware and everything in awari.
    ///
    /// Fewer than 12 seeds (nearly every sowing) make no lap: they go to the houses after the
    /// origin, up to house 11 and then on from house 0, with no test at each seed of whether
    /// it came round to the origin.
    #[inline(always)]
    pub(super) fn sow_oware(&mut self, origin: usize) {
        let seeds = self.take(origin);
        let pos = if seeds < 12 {
            // One past the last house, counted on from house 11 to 12 and beyond.
            let end = origin + 1 + usize::from(seeds);
            for house in origin + 1..end.min(12) {
                self.add_seed(house);
            }
            if end > 12 {
                for house in 0..end - 12 {
                    self.add_seed(house);
                }
                end - 13
            } else {
                end - 1
            }
        } else {
            self.sow_oware_laps(origin, seeds)
        };
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

    /// [`Board::sow_oware`]'s sowing of `seeds` taken from `origin`, house by house, for a lap
    /// or more; returns the last house.
    fn sow_oware_laps(&mut self, origin: usize, mut seeds: u8) -> usize {
        let mut pos = origin;
        while seeds > 0 {
            pos = next_house(pos);
            if pos != origin {
                self.add_seed(pos);
                seeds -= 1;
            }
        }
        pos
    }

    /// Ahl: sow over all 14 places, both stores and the origin included; a last seed in the
    /// own store earns one bonus move (not on a bonus move); a last seed in an empty house on
    /// either side takes the facing house's seeds with it, if there are any.
    #[inline(always)]
    pub(super) fn sow_ahl(&mut self, origin: usize) {
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

    /// Kalah (both readings, `variant`): sow through the own store, skipping the opponent's; a
    /// last seed in the own store moves again; a last seed in an empty own house takes the
    /// facing house's seeds with it, if there are any, and in kalah-empty goes to the store
    /// alone if there are none.
    ///
    /// A sowing of fewer seeds than a lap (13 places) sows the houses after the origin, in
    /// their order, and the store once if it reaches it: no test at each seed of whether it is
    /// a store's turn, which the processor cannot foresee (`awari bench`, README).
    #[inline(always)]
    pub(super) fn sow_kalah(&mut self, variant: Variant, origin: usize) {
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
            if variant.captures_facing_empty() {
                self.capture_lone_seed_even_facing_none(last);
            } else {
                self.capture_lone_seed(last);
            }
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

    /// Kalah-empty: a last seed alone in its house (it was empty) goes to the mover's store,
    /// with the facing house's seeds if there are any.
    #[inline]
    fn capture_lone_seed_even_facing_none(&mut self, last: usize) {
        if self.houses[last] == 1 {
            let seeds = self.take(11 - last) + self.take(last);
            self.add_to_store(self.side, seeds);
        }
    }

    /// Ayoayo: relay sowing; ending on the own row captures the facing house.
    pub(super) fn sow_ayoayo(&mut self, origin: usize) {
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
/// house holds more than [`MAX_SEEDS`](super::MAX_SEEDS), so no byte carries into the next). Every search node of
/// ayoayo plays out each move's relays to know its legality; sown seed by seed, with a loop
/// whose end the processor cannot foresee, `awari perft --depth 11 --variant ayoayo` takes
/// 5.7 s instead of 4.6 s.
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
