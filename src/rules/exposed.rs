//! Houses exposed to a capture on the next move: a fact of the board that two evaluations
//! read (the engine's and the evolved player's), so it lives with the rules that define
//! sowing and capture rather than in either of them.

use super::{row, Side};

/// Oware sowing: which opponent houses a move of `attacker` ends in while holding 1 or 2
/// seeds before the move, so that its last seed makes 2 or 3 (a capture). Counted per house,
/// not per move: two moves ending in the same house expose it once. A sowing of `n` seeds from
/// house `h` skips `h`, so its last seed lands at `h + n + (n - 1) / 11` and that house gets
/// `1 + (n - 1) / 11` seeds.
///
/// The search's leaves run this twice each, so it works on bit sets: a sowing of at most 11
/// seeds from the attacker's house `c` (counted from its first house) ends `c + n` houses on,
/// which is the opponent's house `c + n - 6` when that is 0 to 5. Sowings of a lap or more
/// (rare) are looked at one by one.
pub fn exposed(houses: &[u8; 12], attacker: Side) -> (i32, i32) {
    let first = attacker.first_house();
    let target_first = attacker.opponent().first_house();
    let mut reach = 0u64;
    for c in 0..6 {
        // An empty house sets a bit below 6, a lapping one (12 seeds or more) a bit above 11:
        // neither is looked at.
        let n = u64::from(houses[first + c]);
        reach |= 1 << (n + c as u64).min(63);
    }
    let theirs = row::word(houses, target_first);
    let (ones, twos) = (row::equal(theirs, 1), row::equal(theirs, 2));
    let hits = (reach >> 6) as u32 & 0x3f;
    let (mut capture2, mut capture3) = (hits & row::bits(ones), hits & row::bits(twos));
    if row::at_least(row::word(houses, first), 12) != 0 {
        for h in first..first + 6 {
            let n = usize::from(houses[h]);
            if n <= 11 {
                continue;
            }
            let laps = (n - 1) / 11;
            let last = (h + n + laps) % 12;
            if (target_first..target_first + 6).contains(&last) {
                match usize::from(houses[last]) + 1 + laps {
                    2 => capture2 |= 1 << (last - target_first),
                    3 => capture3 |= 1 << (last - target_first),
                    _ => {}
                }
            }
        }
    }
    // Counted by table: `count_ones` is a dozen instructions without `popcnt`.
    const COUNT: [u8; 64] = {
        let mut t = [0u8; 64];
        let mut i = 0;
        while i < 64 {
            t[i] = (i as u32).count_ones() as u8;
            i += 1;
        }
        t
    };
    let count = |set: u32| i32::from(COUNT[set as usize & 63]);
    (count(capture2), count(capture3))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::rules::{Board, Game, Move, Variant};

    /// `exposed` against sowing each house seed by seed, on the positions of random games
    /// (with boards of many seeds, so that laps occur).
    #[test]
    fn exposed_agrees_with_sowing() {
        let mut rng = Rng::new(7);
        let mut laps = 0;
        for seeds in [4, 4, 4, 9] {
            for _ in 0..100 {
                let mut game = Game::new(Board::start_with_seeds(Variant::Oware, seeds).unwrap());
                loop {
                    let moves: Vec<Move> = game.legal_moves().collect();
                    if moves.is_empty() || game.moves().len() > 200 {
                        break;
                    }
                    let houses = game.board().houses();
                    for attacker in [Side::South, Side::North] {
                        let (mut twos, mut threes) = (0u16, 0u16);
                        for h in attacker.first_house()..attacker.first_house() + 6 {
                            let mut after = houses;
                            let (mut seeds, mut pos) = (std::mem::take(&mut after[h]), h);
                            laps += usize::from(seeds >= 12);
                            while seeds > 0 {
                                pos = (pos + 1) % 12;
                                if pos != h {
                                    after[pos] += 1;
                                    seeds -= 1;
                                }
                            }
                            let target = Side::of_house(pos) != attacker;
                            if houses[h] > 0 && target && after[pos] == 2 {
                                twos |= 1 << pos;
                            }
                            if houses[h] > 0 && target && after[pos] == 3 {
                                threes |= 1 << pos;
                            }
                        }
                        let expected = (twos.count_ones() as i32, threes.count_ones() as i32);
                        assert_eq!(exposed(&houses, attacker), expected, "{}", game.board());
                    }
                    game.play(moves[rng.below(moves.len() as u64) as usize])
                        .unwrap();
                }
            }
        }
        assert!(laps > 100, "{laps} sowings of a lap or more");
    }
}
