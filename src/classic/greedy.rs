//! `greedy`, the computer opponent of a JavaScript tutorial: it looks one turn ahead and takes
//! whatever fills its own store most, following its own bonus moves.

use crate::rng::Rng;
use crate::rules::{Board, Move};

/// The fullest own store this turn can reach after `m` (bonus moves followed, all of them).
fn turn_value(board: &Board, m: Move) -> u8 {
    let me = board.side_to_move();
    let next = board.play_unchecked(m);
    if next.side_to_move() == me {
        if let Ok(moves) = next.moves_or_end() {
            return moves
                .into_iter()
                .map(|f| turn_value(&next, f))
                .max()
                .unwrap_or(next.store(me));
        }
    }
    next.store(me)
}

/// The move `greedy` plays: for each house in sowing order, the store its turn leaves; the
/// fullest wins; ties go to the first house, or with `rng` to one of the tied at random.
/// `None` when the game is over.
pub fn choose(board: &Board, rng: Option<&mut Rng>) -> Option<Move> {
    let moves = board.moves_or_end().ok()?;
    let values: Vec<(Move, u8)> = moves
        .into_iter()
        .map(|m| (m, turn_value(board, m)))
        .collect();
    let best = values.iter().map(|&(_, v)| v).max()?;
    let tied: Vec<Move> = values
        .iter()
        .filter(|&&(_, v)| v == best)
        .map(|&(m, _)| m)
        .collect();
    Some(match rng {
        Some(rng) => tied[rng.below(tied.len() as u64) as usize],
        None => tied[0],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    /// (variant, position, the move greedy plays, why)
    #[test]
    fn table() {
        let rows = [
            (
                Variant::Oware,
                "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
                'A',
                "no capture anywhere: the first house",
            ),
            (
                Variant::Oware,
                "1-0-0-0-0-1-2-1-1-1-1-4-22-14-S",
                'F',
                "F captures 3 from a",
            ),
            (
                Variant::Oware,
                "0-2-0-0-1-1-1-2-0-0-0-0-10-10-S",
                'F',
                "only F captures (a: 1 -> 2)",
            ),
            (
                Variant::Oware,
                "0-0-0-0-2-1-1-3-0-0-0-0-10-10-S",
                'E',
                "E and F both take 2 from a: the first house",
            ),
            // Kalah: D sows E, F and the store: a bonus move; then F (now 5) ... the turn with
            // the most in store wins. C: 4 seeds to D E F store -> bonus too.
            (
                Variant::Kalah,
                "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
                'C',
                "C ends in the store, and its follow-ups store most",
            ),
        ];
        for (variant, text, expected, why) in rows {
            let board = Board::from_notation(variant, text).unwrap();
            let m = choose(&board, None).unwrap();
            assert_eq!(m.to_char(), expected, "{why}");
        }
    }

    #[test]
    fn randomness_picks_among_the_tied_only() {
        let board = Board::start(Variant::Oware);
        let mut rng = Rng::new(5);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..200 {
            seen.insert(choose(&board, Some(&mut rng)).unwrap().to_char());
        }
        // At the start every move leaves the store at 0: all six are tied.
        assert_eq!(seen.len(), 6);
        let board =
            Board::from_notation(Variant::Oware, "1-0-0-0-0-1-2-1-1-1-1-4-22-14-S").unwrap();
        for _ in 0..50 {
            assert_eq!(choose(&board, Some(&mut rng)).unwrap().to_char(), 'F');
        }
    }
}
