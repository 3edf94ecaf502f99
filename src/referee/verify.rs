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
use crate::rules::{
    parse_move_list, Board, EndReason, Game, Move, MovesError, Outcome, Side, Variant,
};

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

/// What a record's stated end makes of its game: the result, and the stores it may leave
/// (more than one where the record cannot say which it was).
type Expected = (GameResult, Vec<[u8; 2]>);

impl GameRecord {
    /// Replays the record's moves and checks that its end follows from them (see the
    /// module's documentation); the error says what disagrees.
    ///
    /// The record is read and replayed here; what its stated end requires is each end's own
    /// function (`no_contest`, `by_rules`, `adjudicated`, `forfeited`), and the result
    /// and stores are checked against what that gives.
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
        let (result, stores) = match how {
            Ended::NoContest(reason) => no_contest(reason, &moves, opening_plays, &start)?,
            _ => {
                opening_plays.map_err(|e| format!("opening: {e}"))?;
                game.play_all(&moves).map_err(|e| format!("moves: {e}"))?;
                let board = *game.board();
                let outcome = game.outcome();
                match how {
                    Ended::Rules(reason) => by_rules(reason, outcome)?,
                    Ended::Adjudicated => adjudicated(&board, outcome, self.stores)?,
                    Ended::Forfeit(side) => forfeited(side, &moves, &start, &board, outcome)?,
                    Ended::NoContest(_) => unreachable!("handled above"),
                }
            }
        };
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

/// A no contest has no engine moves; its opening plays unless the reason is a bad opening,
/// which must then not play.
fn no_contest(
    reason: &str,
    moves: &[Move],
    opening_plays: Result<(), MovesError>,
    start: &Board,
) -> Result<Expected, String> {
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
    Ok((GameResult::NoContest, vec![start.stores()]))
}

/// An end by the rules must be the one the moves reach.
fn by_rules(reason: EndReason, outcome: Option<Outcome>) -> Result<Expected, String> {
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
    Ok((result_of(o.winner), vec![o.stores]))
}

/// An adjudication needs a game the rules have not ended; its `stores` say which scoring was
/// used, and the winner must follow from them.
fn adjudicated(
    board: &Board,
    outcome: Option<Outcome>,
    stores: [u8; 2],
) -> Result<Expected, String> {
    if let Some(o) = outcome {
        return Err(format!(
            "adjudicated at the move limit, but the moves end the game by \
             \"{}\"",
            o.reason
        ));
    }
    let scored: Vec<_> = [Scoring::Stores, Scoring::Rows]
        .into_iter()
        .map(|s| adjudicate(board, s))
        .collect();
    match scored.iter().find(|(scores, _)| *scores == stores) {
        Some(&(stores, winner)) => Ok((result_of(winner), vec![stores])),
        None => Err(format!(
            "stores {:?} stated, but the final position scores {:?} \
             by the stores or {:?} with the rows",
            stores, scored[0].0, scored[1].0
        )),
    }
}

/// A forfeit after an engine move needs a game not yet over with the forfeiting side to move;
/// one before the first (a failed start or new game) may be either side's, with the stores of
/// the start or after the opening.
fn forfeited(
    side: Side,
    moves: &[Move],
    start: &Board,
    board: &Board,
    outcome: Option<Outcome>,
) -> Result<Expected, String> {
    if moves.is_empty() {
        return Ok((
            result_of(Some(side.opponent())),
            vec![start.stores(), board.stores()],
        ));
    }
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
    Ok((result_of(Some(side.opponent())), vec![board.stores()]))
}
