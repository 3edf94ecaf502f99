//! `--resume`: the games a match's JSON lines file already holds, checked against the match
//! being resumed, and both record files made whole again before play goes on.
//!
//! A file resumes only the match it belongs to: every record must be a round of this match,
//! with its engines on the sides that round gives them, its variant, its time controls and
//! its opening, or resuming stops and says what does not match. Damage that a kill or a full
//! disk leaves (a line cut short, a line that is not JSON, bytes that are not UTF-8) is not
//! a finished game: such a line is dropped with a warning and its game played again, as is a
//! game that was no contest (whatever stopped it may be fixed). A round recorded twice keeps
//! its first record.

use super::runner::Config;
use crate::record::{replace, GameRecord, GameResult, MAX_LINE};
use crate::sys::lines::{FileLine, FileLines};
use serde::{Deserialize, Serialize};
use serde_json::error::Category;
use std::collections::HashMap;
use std::path::Path;

/// What a file held.
#[derive(Clone, Debug, Default)]
pub struct Resumed {
    /// The finished games, in the file's order.
    pub records: Vec<GameRecord>,
    /// Lines dropped, and why.
    pub warnings: Vec<String>,
}

impl Resumed {
    /// Rounds already finished, with the first engine's half points (`None`: no contest).
    pub fn done(&self) -> HashMap<u64, Option<u8>> {
        self.records
            .iter()
            .map(|r| (r.round, r.result.half_points(r.round % 2 == 1)))
            .collect()
    }
}

/// Reads the records of `path` (none if it does not exist) and checks each against `config`.
pub fn read(path: &Path, config: &Config) -> Result<Resumed, String> {
    read_schedule(path, &Schedule::of(config), "--resume")
}

/// [`read`], against a schedule; errors start with `what` (the flag or command reading).
pub fn read_schedule(path: &Path, schedule: &Schedule, what: &str) -> Result<Resumed, String> {
    let mut lines = match FileLines::open(path, MAX_LINE) {
        Ok(lines) => lines,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Resumed::default()),
        Err(e) => return Err(format!("{what} {}: {e}", path.display())),
    };
    let mut resumed = Resumed::default();
    let mut seen = HashMap::new();
    loop {
        let (n, line) = match lines.next_line() {
            Ok(Some((n, FileLine::Text(line)))) => (n, line),
            Ok(Some((n, FileLine::Cut(_)))) => {
                resumed.warnings.push(format!(
                    "line {n}: cut short (the match was stopped while writing it); its game is played again"
                ));
                break;
            }
            Ok(Some((n, FileLine::TooLong(length)))) => {
                resumed.warnings.push(format!(
                    "line {n}: {length} bytes, longer than any record ({MAX_LINE}); skipped"
                ));
                continue;
            }
            Ok(None) => break,
            Err(e) => return Err(format!("{what} {}: {e}", path.display())),
        };
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let record = match GameRecord::from_json(line) {
            Ok(r) => r,
            // A fragment with the next record glued on may even read as JSON, of the wrong
            // shape: a line holding two record starts is damaged all the same.
            Err(e) if matches!(e.classify(), Category::Syntax | Category::Eof) || glued(line) => {
                resumed
                    .warnings
                    .push(format!("line {n}: damaged ({e}); its game is played again"));
                continue;
            }
            Err(e) => {
                return Err(format!(
                    "{what} {}: line {n} is not a game record of this referee: {e}",
                    path.display()
                ))
            }
        };
        if let Err(e) = record.verify() {
            resumed.warnings.push(format!(
                "line {n}: round {} refused, its end does not follow from its moves ({e}); \
                 its game is played again",
                record.round
            ));
            continue;
        }
        if let Some(first) = seen.get(&record.round) {
            resumed.warnings.push(format!(
                "line {n}: round {} again (first on line {first}); the first is kept",
                record.round
            ));
            continue;
        }
        if let Err(e) = schedule.belongs(&record) {
            return Err(format!(
                "{what} {}: line {n} (round {}) is not of this match: {e}",
                path.display(),
                record.round
            ));
        }
        seen.insert(record.round, n);
        if record.result == GameResult::NoContest {
            // Nobody's result: played again, now that whatever stopped it may be fixed.
            resumed.warnings.push(format!(
                "line {n}: round {} was no contest; it is played again",
                record.round
            ));
            continue;
        }
        resumed.records.push(record);
    }
    Ok(resumed)
}

/// What every record of one match shares, round by round: the engines' names and time
/// controls (engine A is South in odd rounds), the rule set, the number of games and the
/// openings in the order they are played. A match's records are checked against it (by
/// `--resume`, a shard's own resume and `referee merge`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Schedule {
    /// Engine A's name and B's.
    pub names: [String; 2],
    /// Engine A's time control and B's, as the records write them.
    pub time_controls: [String; 2],
    /// The rule set.
    pub variant: String,
    /// Games in the match (whole pairs).
    pub games: u64,
    /// The openings in the order pairs play them (repeated as needed), each as its start
    /// position and its moves, as the records write them.
    pub openings: Vec<(String, String)>,
}

impl Schedule {
    /// The schedule of the match `config` plays.
    pub fn of(config: &Config) -> Schedule {
        let [a, b] = &config.engines;
        let openings = if config.openings.is_empty() {
            vec![config.opening(1)]
        } else {
            config.openings.clone()
        };
        Schedule {
            names: [a.spec.name.clone(), b.spec.name.clone()],
            time_controls: [a.limit.tag(), b.limit.tag()],
            variant: config.variant.name().to_string(),
            games: config.total_games(),
            openings: openings
                .iter()
                .map(|o| {
                    (
                        o.start.to_string(),
                        crate::rules::format_move_list(&o.moves),
                    )
                })
                .collect(),
        }
    }

    /// Whether `record` is a game of this match; if not, what differs.
    pub fn belongs(&self, record: &GameRecord) -> Result<(), String> {
        let total = self.games;
        if record.round == 0 || record.round > total {
            return Err(format!("this match has rounds 1 to {total}"));
        }
        let a_south = record.round % 2 == 1;
        let (south, north) = if a_south { (0, 1) } else { (1, 0) };
        let differs = |what: &str, file: &str, here: &str| {
            Err(format!(
                "{what} is {file:?} in the file, {here:?} in this match"
            ))
        };
        if record.south != self.names[south] {
            return differs("South", &record.south, &self.names[south]);
        }
        if record.north != self.names[north] {
            return differs("North", &record.north, &self.names[north]);
        }
        if record.variant != self.variant {
            return differs("the variant", &record.variant, &self.variant);
        }
        let tc = [&self.time_controls[south], &self.time_controls[north]];
        for (side, (file, here)) in ["South's", "North's"]
            .iter()
            .zip(record.time_control.iter().zip(tc))
        {
            if file != here {
                return differs(&format!("{side} time control"), file, here);
            }
        }
        let pair = (record.round - 1) / 2;
        let (start, moves) = &self.openings[(pair % self.openings.len() as u64) as usize];
        if &record.start != start {
            return differs("the start position", &record.start, start);
        }
        if &record.opening != moves {
            return differs("the opening", &record.opening, moves);
        }
        Ok(())
    }
}

/// Makes both files hold exactly the records of `resumed`: the JSON lines without the lines
/// dropped, the PGN made again from them (a game the JSON holds and the PGN lost to a kill
/// between the two writes is back; one the PGN holds alone is gone, to be played again).
/// Each file is replaced atomically.
pub fn restore(json: &Path, pgn: Option<&Path>, resumed: &Resumed) -> Result<(), String> {
    let lines: String = resumed.records.iter().map(|r| r.json() + "\n").collect();
    replace(json, &lines).map_err(|e| format!("--jsonout {}: {e}", json.display()))?;
    if let Some(pgn) = pgn {
        let text: String = resumed.records.iter().map(GameRecord::pgn).collect();
        replace(pgn, &text).map_err(|e| format!("--pgnout {}: {e}", pgn.display()))?;
    }
    Ok(())
}

/// Whether `line` holds the start of a record more than once: what is left of a record cut
/// short by a failed write, with the next record written on the same line.
fn glued(line: &[u8]) -> bool {
    const START: &[u8] = b"{\"round\":";
    line.windows(START.len()).filter(|w| *w == START).count() > 1
}

#[cfg(test)]
mod tests {
    use super::glued;

    #[test]
    fn two_record_starts_on_one_line_are_glued() {
        assert!(!glued(br#"{"round":3,"south":"a"}"#));
        assert!(glued(
            br#"{"round":3,"south":"a","score":{"round":4,"south":"b"}"#
        ));
        assert!(!glued(b""));
    }
}
