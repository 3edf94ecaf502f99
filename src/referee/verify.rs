//! A record's end checked against its moves: the moves are replayed through the rules, and
//! the result, the termination, the final stores and the ply count must be what the referee
//! would have written for them. Whoever reads records for totals (`referee merge`, `referee
//! report`, `--resume`, a shard counting the others' games for the SPRT) asks here, so that an
//! edited or forged line is refused rather than counted.
//!
//! What the moves cannot show is taken as written but checked as far as it can be: a
//! forfeit (a crash, a time loss, an illegal or unreadable move, an engine that did not
//! start) needs legal moves up to it, the forfeiting side to move and the game not already
//! over; an adjudication at the move limit needs a game the rules have not ended, and stores
//! and a winner that one of the two ways of scoring gives for the final position (the record
//! does not say which was asked for; its stores say which was used); a no contest needs no
//! engine moves, and a bad opening one that does not play.

use super::game::{adjudicate, Scoring};
use crate::record::{GameRecord, GameResult};
use crate::rules::{parse_move_list, Board, EndReason, Game, Side, Variant};

/// How a record says its game ended, read back from its termination text.
enum Ended<'a> {
    Rules(EndReason),
    Adjudicated,
    Forfeit(Side),
    NoContest(&'a str),
}

/// Every end the rules know, to read a termination text back.
const REASONS: [EndReason; 7] = [
    EndReason::Majority,
    EndReason::NoFeedingMove,
    EndReason::Repetition,
    EndReason::EmptyRow,
    EndReason::GrandSlam,
    EndReason::MoveLimit,
    EndReason::NoMoves,
];

fn ended(termination: &str) -> Option<Ended<'_>> {
    if let Some(r) = REASONS.iter().find(|r| r.describe() == termination) {
        return Some(Ended::Rules(*r));
    }
    if termination == "adjudicated at the move limit" {
        return Some(Ended::Adjudicated);
    }
    if let Some(side) = Side::BOTH
        .into_iter()
        .find(|side| termination.starts_with(&format!("{side} forfeits: ")))
    {
        return Some(Ended::Forfeit(side));
    }
    termination
        .strip_prefix("no contest: ")
        .map(Ended::NoContest)
}

/// The result a winner gives (`None`: a draw).
fn result_of(winner: Option<Side>) -> GameResult {
    match winner {
        Some(Side::South) => GameResult::South,
        Some(Side::North) => GameResult::North,
        None => GameResult::Draw,
    }
}

impl GameRecord {
    /// Replays the record's moves and checks that its end follows from them (see the
    /// module's documentation); the error says what disagrees.
    pub fn verify(&self) -> Result<(), String> {
        let variant: Variant = self
            .variant
            .parse()
            .map_err(|_| format!("unknown variant {:?}", self.variant))?;
        let start = Board::from_notation(variant, &self.start)
            .map_err(|e| format!("start {:?}: {e}", self.start))?;
        let opening = parse_move_list(&self.opening)
            .map_err(|e| format!("opening {:?}: {e}", self.opening))?;
        let moves =
            parse_move_list(&self.moves).map_err(|e| format!("moves {:?}: {e}", self.moves))?;
        if self.plies != opening.len() + moves.len() {
            return Err(format!(
                "{} plies stated, {} played",
                self.plies,
                opening.len() + moves.len()
            ));
        }
        let how = ended(&self.termination)
            .ok_or_else(|| format!("unknown termination {:?}", self.termination))?;
        let mut game = Game::new(start);
        let opening_plays = game.play_all(&opening);
        let expected = match how {
            Ended::NoContest(reason) => {
                if !moves.is_empty() {
                    return Err(format!("no contest after {} engine moves", moves.len()));
                }
                if reason.starts_with("bad opening") {
                    if opening_plays.is_ok() {
                        return Err("a bad opening stated, but the opening plays".to_string());
                    }
                } else if let Err(e) = opening_plays {
                    return Err(format!("opening: {e}"));
                }
                (GameResult::NoContest, vec![start.stores()])
            }
            _ => {
                opening_plays.map_err(|e| format!("opening: {e}"))?;
                game.play_all(&moves).map_err(|e| format!("moves: {e}"))?;
                let board = *game.board();
                let outcome = game.outcome();
                match how {
                    Ended::Rules(reason) => {
                        let Some(o) = outcome else {
                            return Err(format!(
                                "\"{reason}\" stated, but the game is not over after its moves"
                            ));
                        };
                        if o.reason != reason {
                            return Err(format!(
                                "\"{reason}\" stated, but the moves end the game by \"{}\"",
                                o.reason
                            ));
                        }
                        (result_of(o.winner), vec![o.stores])
                    }
                    Ended::Adjudicated => {
                        if let Some(o) = outcome {
                            return Err(format!(
                                "adjudicated at the move limit, but the moves end the game by \
                                 \"{}\"",
                                o.reason
                            ));
                        }
                        // The stores say which scoring was used; the winner must follow.
                        let scored: Vec<_> = [Scoring::Stores, Scoring::Rows]
                            .into_iter()
                            .map(|s| adjudicate(&board, s))
                            .collect();
                        match scored.iter().find(|(stores, _)| *stores == self.stores) {
                            Some(&(stores, winner)) => (result_of(winner), vec![stores]),
                            None => {
                                return Err(format!(
                                    "stores {:?} stated, but the final position scores {:?} \
                                     by the stores or {:?} with the rows",
                                    self.stores, scored[0].0, scored[1].0
                                ))
                            }
                        }
                    }
                    Ended::Forfeit(side) => {
                        if moves.is_empty() {
                            // Before the first engine move (a failed start or new game): either
                            // side, the stores of the start or after the opening.
                            (
                                result_of(Some(side.opponent())),
                                vec![start.stores(), board.stores()],
                            )
                        } else {
                            if let Some(o) = outcome {
                                return Err(format!(
                                    "{side} forfeits, but the moves already ended the game by \
                                     \"{}\"",
                                    o.reason
                                ));
                            }
                            if board.side_to_move() != side {
                                return Err(format!(
                                    "{side} forfeits, but {} was to move",
                                    board.side_to_move()
                                ));
                            }
                            (result_of(Some(side.opponent())), vec![board.stores()])
                        }
                    }
                    Ended::NoContest(_) => unreachable!("handled above"),
                }
            }
        };
        let (result, stores) = expected;
        if self.result != result {
            return Err(format!(
                "result {} stated, but the moves give {}",
                self.result.tag(),
                result.tag()
            ));
        }
        if !stores.contains(&self.stores) {
            return Err(format!(
                "stores {:?} stated, but the moves leave {:?}",
                self.stores, stores[0]
            ));
        }
        Ok(())
    }
}
