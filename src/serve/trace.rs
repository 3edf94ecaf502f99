//! The path of a sowing, seed by seed, for the page to animate: which place each seed falls
//! in, and where ayoayo's relays pick seeds up again. Only the path is traced here; what the
//! move does is the rules' ([`Board::try_play`]). A trace is checked against the rules' board
//! after the move: every house either holds what the trace left in it or was emptied by a
//! capture, and the stores hold at least what the trace sowed into them. A trace that does not
//! agree is not sent (the page then shows the move without animation).

use crate::rules::{Board, Side, Variant, MAX_RELAYS};
use serde::Serialize;

/// Places: houses 0-11 as in the rules, 12 South's store, 13 North's.
const SOUTH_STORE: usize = 12;
const NORTH_STORE: usize = 13;

/// The most steps a trace may have: a longer sowing is shown without animation.
const MAX_STEPS: usize = 4000;

/// One step of a sowing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "step", content = "place", rename_all = "lowercase")]
pub enum Step {
    /// All the seeds of this house are picked up (the move's house, or a relay's).
    Lift(usize),
    /// One seed falls in this place.
    Drop(usize),
}

/// What the page needs to show a move: its sowing, the houses its captures emptied, and
/// whether the mover moves again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Shown {
    /// The sowing, or empty when it could not be traced (or is too long to show).
    pub steps: Vec<Step>,
    /// Houses the trace left seeds in that the rules' board has emptied: the captures.
    pub captured: Vec<usize>,
    /// Relay laps (ayoayo): pick-ups after the first.
    pub relays: usize,
}

/// The sowing of `house` from `before`, checked against `after` (the rules' board).
pub fn trace(before: &Board, house: usize, after: &Board) -> Shown {
    let mut places = [0u32; 14];
    for (i, &n) in before.houses().iter().enumerate() {
        places[i] = u32::from(n);
    }
    places[SOUTH_STORE] = u32::from(before.store(Side::South));
    places[NORTH_STORE] = u32::from(before.store(Side::North));
    let mover = before.side_to_move();
    let mut steps = Vec::new();
    let mut relays = 0;
    let traced = sow(
        before.variant(),
        mover,
        house,
        &mut places,
        &mut steps,
        &mut relays,
    );
    let mut captured = Vec::new();
    let mut agrees = traced;
    for (i, &n) in after.houses().iter().enumerate() {
        let n = u32::from(n);
        if n != places[i] {
            if n == 0 {
                captured.push(i);
            } else {
                agrees = false;
            }
        }
    }
    for (side, place) in [(Side::South, SOUTH_STORE), (Side::North, NORTH_STORE)] {
        if u32::from(after.store(side)) < places[place] {
            agrees = false;
        }
    }
    if !agrees {
        steps.clear();
        relays = 0;
    }
    Shown {
        steps,
        captured,
        relays,
    }
}

/// Sows on `places`, writing the steps; false when the sowing is longer than [`MAX_STEPS`].
fn sow(
    variant: Variant,
    mover: Side,
    origin: usize,
    places: &mut [u32; 14],
    steps: &mut Vec<Step>,
    relays: &mut usize,
) -> bool {
    // The ring of places a seed can fall in, in sowing order from house 0.
    let ring: Vec<usize> = match variant {
        Variant::Oware | Variant::Awari | Variant::Ayoayo => (0..12).collect(),
        Variant::Ahl => (0..6)
            .chain([SOUTH_STORE])
            .chain(6..12)
            .chain([NORTH_STORE])
            .collect(),
        // Kalah skips the opponent's store.
        Variant::Kalah | Variant::KalahEmpty if mover == Side::South => {
            (0..6).chain([SOUTH_STORE]).chain(6..12).collect()
        }
        Variant::Kalah | Variant::KalahEmpty => (0..12).chain([NORTH_STORE]).collect(),
    };
    // Oware, awari and ayoayo skip the house sown from.
    let skips_origin = !matches!(variant, Variant::Ahl | Variant::Kalah | Variant::KalahEmpty);
    let mut at = ring.iter().position(|&p| p == origin).unwrap_or(0);
    let mut from = origin;
    loop {
        let mut seeds = std::mem::take(&mut places[from]);
        steps.push(Step::Lift(from));
        while seeds > 0 {
            at = (at + 1) % ring.len();
            let place = ring[at];
            if skips_origin && place == origin {
                continue;
            }
            places[place] += 1;
            steps.push(Step::Drop(place));
            seeds -= 1;
            if steps.len() > MAX_STEPS {
                return false;
            }
        }
        let last = ring[at];
        // Ayoayo relays: a last seed in a house that held some picks them all up.
        if variant == Variant::Ayoayo && last < 12 && places[last] > 1 {
            *relays += 1;
            if *relays > MAX_RELAYS as usize {
                return false;
            }
            from = last;
            continue;
        }
        return true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Game, Move};

    /// Plays every rule set's games at random-ish (the first, then the last legal move, in
    /// turn): each move's trace must agree with the rules, so none comes back empty.
    #[test]
    fn every_traced_move_agrees_with_the_rules() {
        for variant in Variant::ALL {
            let mut game = Game::new(Board::start(variant));
            let mut k = 0usize;
            while game.outcome().is_none() && game.moves().len() < 200 {
                let moves: Vec<Move> = (0..12)
                    .filter_map(Move::new)
                    .filter(|&m| game.legal_moves().contains(m))
                    .collect();
                let m = moves[(k * 7) % moves.len()];
                k += 1;
                let before = *game.board();
                game.play(m).unwrap();
                let shown = trace(&before, m.house(), game.board());
                assert!(
                    !shown.steps.is_empty(),
                    "{variant}: {m} from {before} to {} not traced",
                    game.board()
                );
                let drops = shown
                    .steps
                    .iter()
                    .filter(|s| matches!(s, Step::Drop(_)))
                    .count();
                assert!(drops >= usize::from(before.house(m.house())));
            }
        }
    }
}
