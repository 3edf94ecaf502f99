//! Which moves a board allows and when the game is over: each rule set's legal moves (oware's
//! feeding rule, ayoayo's endless sowings), its endings, and the result with its end-of-game
//! collection.

use super::{relay_sow, Board, Status};
use crate::rules::{row, EndReason, Move, MoveList, Outcome, Side, Variant};

impl Board {
    /// Whether the game goes on (with the legal moves) or is over (with the result).
    ///
    /// This sees every ending but oware's repetition, which needs the game's history: ask
    /// [`Game::status`](crate::rules::game::Game::status) for that.
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
            Variant::Ahl | Variant::Kalah | Variant::KalahEmpty => {
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
            Variant::Oware | Variant::Kalah | Variant::KalahEmpty | Variant::Ayoayo => true,
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
}
