//! Game records: one [`GameRecord`] per finished game, written as one JSON line (with `serde`)
//! and as a PGN-style text made from the same record. The JSON line is written and flushed
//! first: it is the record of the game, and the PGN can always be made again from it (which
//! `--resume` does, so a kill between the two writes loses nothing).
//!
//! A room of its own, not the referee's, because two programs write these records: the
//! referee for its matches and the page (`awari serve`) for a game played on it, which it
//! offers as a download in the same two formats. Both build on it and neither on the other.
//! It builds on the rules and on what an engine said as checked values ([`crate::said`]),
//! never on the engine client, and knows nothing of matches: the referee reads an SPRT out of [`SprtSettings`].

mod error;
#[cfg(feature = "native")]
mod files;
mod played;

pub use error::{Error, Sprt as SprtError};
#[cfg(feature = "native")]
pub use files::{json_lines, pgn_games, replace, Sink};
pub use played::{Played, Record, Termination};

use crate::rules::{format_move_list, parse_move_list, Board, Variant};
use crate::said::EngineScore;
use serde::{Deserialize, Serialize};

/// What a record needs besides the game.
#[derive(Clone, Debug)]
pub struct Meta<'a> {
    /// Event name.
    pub event: &'a str,
    /// Date, `YYYY.MM.DD`.
    pub date: &'a str,
    /// Game number in the match, from 1.
    pub round: u64,
    /// South's engine.
    pub south: &'a str,
    /// North's engine.
    pub north: &'a str,
    /// The time controls of South's engine and North's, as PGN writes them.
    pub time_control: [String; 2],
}

/// A game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameResult {
    /// South won.
    #[serde(rename = "1-0")]
    South,
    /// North won.
    #[serde(rename = "0-1")]
    North,
    /// A draw.
    #[serde(rename = "1/2-1/2")]
    Draw,
    /// No contest: nobody's result, left out of the statistics.
    #[serde(rename = "*")]
    NoContest,
}

impl GameResult {
    /// The PGN result: `1-0`, `0-1`, `1/2-1/2`, `*`.
    pub fn tag(self) -> &'static str {
        match self {
            GameResult::South => "1-0",
            GameResult::North => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::NoContest => "*",
        }
    }

    /// The first engine's score in half points (0, 1, 2), or `None` for no contest.
    pub fn half_points(self, a_south: bool) -> Option<u8> {
        match (self, a_south) {
            (GameResult::NoContest, _) => None,
            (GameResult::Draw, _) => Some(1),
            (GameResult::South, true) | (GameResult::North, false) => Some(2),
            _ => Some(0),
        }
    }
}

/// What the engine said about one of its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveInfo {
    /// Its last score (left out when it gave none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<EngineScore>,
    /// Its last depth (left out when it gave none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Whether the score was the endgame tables' proven result (`"tables":true`; left out
    /// when it was an estimate or a `mate`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tables: bool,
    /// The time charged, in milliseconds.
    pub ms: u64,
}

impl MoveInfo {
    /// The move's comment in PGN, without its braces: `cp:104/8 5ms` (score, depth and time;
    /// `-` for a score or depth not given).
    pub fn comment(&self) -> String {
        let score = self
            .score
            .map_or("-".to_string(), |s| s.to_string().replace(' ', ":"));
        let depth = self.depth.map_or("-".to_string(), |d| d.to_string());
        format!("{score}/{depth} {}ms", self.ms)
    }

    /// Reads what [`MoveInfo::comment`] writes; `None` for another comment (a person's
    /// remark). The tables mark is not in the comment, so it reads as unmarked.
    pub fn from_comment(text: &str) -> Option<MoveInfo> {
        let (said, time) = text.trim().split_once(' ')?;
        let (score, depth) = said.split_once('/')?;
        let ms = time.strip_suffix("ms")?.parse().ok()?;
        let score = match score {
            "-" => None,
            s => Some(s.parse().ok()?),
        };
        let depth = match depth {
            "-" => None,
            d => Some(d.parse().ok()?),
        };
        Some(MoveInfo {
            score,
            depth,
            tables: false,
            ms,
        })
    }
}

/// The longest record line read: the record of the longest game (100,000 plies, each with
/// its score, depth and time) is under 8 MiB.
pub const MAX_LINE: usize = 16 << 20;

/// One finished game, as both files hold it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// Game number in the match, from 1.
    pub round: u64,
    /// Event name.
    pub event: String,
    /// Date, `YYYY.MM.DD`.
    pub date: String,
    /// South's engine.
    pub south: String,
    /// North's engine.
    pub north: String,
    /// The rule set.
    pub variant: String,
    /// The start position, in the notation.
    pub start: String,
    /// The opening moves (concatenated).
    pub opening: String,
    /// The engines' moves (concatenated).
    pub moves: String,
    /// The result.
    pub result: GameResult,
    /// How it ended, for people.
    pub termination: String,
    /// Plies in all, opening included.
    pub plies: usize,
    /// The final stores as scored.
    pub stores: [u8; 2],
    /// South's time control and North's.
    pub time_control: [String; 2],
    /// One entry per engine move.
    pub info: Vec<MoveInfo>,
    /// The SPRT the match ran, if any, so that a report of the records alone gives the
    /// verdict the match gave. Records written without one (older ones) read as `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtSettings>,
}

/// An SPRT's settings as a record carries them: the hypotheses, the error rates and the Elo
/// model they are in, named so that a record read later cannot take them for another model's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SprtSettings {
    /// H0's Elo.
    pub elo0: f64,
    /// H1's Elo.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// The Elo model of `elo0` and `elo1`.
    pub model: EloModel,
}

/// The Elo model an SPRT's hypotheses are written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EloModel {
    /// Normalized Elo on game pairs (fishtest's), the only model the referee runs.
    Normalized,
}

impl SprtSettings {
    /// Whether the parameters make a test: Elo values within ±1000 with `elo1` above `elo0`,
    /// `alpha` and `beta` in 0..1 with a sum below 1 (from 1 on the bounds cross and the test
    /// decides on its first pair, whatever the games say). The error says what is wrong. The
    /// referee's SPRT is checked by the same code, so a record holds only a test it can run.
    pub fn check(&self) -> Result<(), SprtError> {
        let elo = |v: f64| v.is_finite() && v.abs() <= 1000.0;
        let rate = |v: f64| v > 0.0 && v < 1.0;
        if !(elo(self.elo0) && elo(self.elo1)) {
            return Err(SprtError::EloRange);
        }
        if !(rate(self.alpha) && rate(self.beta)) {
            return Err(SprtError::Rates);
        }
        if self.elo1 <= self.elo0 {
            return Err(SprtError::Order);
        }
        if self.alpha + self.beta >= 1.0 {
            return Err(SprtError::Sum);
        }
        Ok(())
    }
}

impl GameRecord {
    /// The record of a finished game.
    pub fn new(meta: &Meta<'_>, record: &Record) -> GameRecord {
        let moves: Vec<_> = record.moves.iter().map(|m| m.mv).collect();
        GameRecord {
            round: meta.round,
            event: meta.event.to_string(),
            date: meta.date.to_string(),
            south: meta.south.to_string(),
            north: meta.north.to_string(),
            variant: record.start.variant().name().to_string(),
            start: record.start.to_string(),
            opening: format_move_list(&record.opening),
            moves: format_move_list(&moves),
            result: match (&record.termination, record.winner) {
                (Termination::NoContest(_), _) => GameResult::NoContest,
                (_, Some(crate::rules::Side::South)) => GameResult::South,
                (_, Some(crate::rules::Side::North)) => GameResult::North,
                (_, None) => GameResult::Draw,
            },
            termination: record.termination.to_string(),
            plies: record.opening.len() + record.moves.len(),
            stores: record.stores,
            time_control: meta.time_control.clone(),
            info: record
                .moves
                .iter()
                .map(|m| MoveInfo {
                    score: m.said.score,
                    depth: m.said.depth,
                    tables: m.said.tables,
                    ms: u64::try_from(m.time.as_millis()).unwrap_or(u64::MAX),
                })
                .collect(),
            sprt: None,
        }
    }

    /// The side that forfeited, if one did (read from the termination the record was written
    /// with: `South forfeits: ...`).
    pub fn forfeited(&self) -> Option<crate::rules::Side> {
        crate::rules::Side::BOTH
            .into_iter()
            .find(|side| self.termination.starts_with(&format!("{side} forfeits: ")))
    }

    /// The JSON line (no line break).
    pub fn json(&self) -> String {
        serde_json::to_string(self).expect("a record serializes")
    }

    /// Reads a JSON line and checks that it holds a game: a known variant, a position, move
    /// lists that read, one `info` per move.
    pub fn from_json(line: &[u8]) -> Result<GameRecord, serde_json::Error> {
        let record: GameRecord = serde_json::from_slice(line)?;
        record.check().map_err(serde::de::Error::custom)?;
        Ok(record)
    }

    fn check(&self) -> Result<(), Error> {
        let field = |field, text: &str, why: String| Error::Field {
            field,
            text: text.to_string(),
            why,
        };
        let variant: Variant = self
            .variant
            .parse()
            .map_err(|_| Error::Variant(self.variant.clone()))?;
        Board::from_notation(variant, &self.start)
            .map_err(|e| field("start", &self.start, e.to_string()))?;
        let opening = parse_move_list(&self.opening)
            .map_err(|e| field("opening", &self.opening, e.to_string()))?;
        let moves =
            parse_move_list(&self.moves).map_err(|e| field("moves", &self.moves, e.to_string()))?;
        if moves.len() != self.info.len() {
            return Err(Error::Info(moves.len(), self.info.len()));
        }
        if self.plies != opening.len() + moves.len() {
            return Err(Error::Plies(self.plies));
        }
        if let Some(sprt) = self.sprt {
            sprt.check().map_err(Error::Sprt)?;
        }
        Ok(())
    }

    /// The PGN-style text of the game.
    pub fn pgn(&self) -> String {
        self.pgn_with(&[])
    }

    /// The PGN-style text of the game with `variations`: each the ply (from the start, the
    /// opening's moves counted) of the move it is an alternative to, and its words,
    /// parentheses included, written after that move.
    pub fn pgn_with(&self, variations: &[(usize, Vec<String>)]) -> String {
        let variant: Variant = self.variant.parse().unwrap_or_default();
        let mut tags = vec![
            ("Event", self.event.clone()),
            ("Date", self.date.clone()),
            ("Round", self.round.to_string()),
            ("South", self.south.clone()),
            ("North", self.north.clone()),
            ("Variant", self.variant.clone()),
        ];
        if Board::from_notation(variant, &self.start).ok() != Some(Board::start(variant)) {
            tags.push(("FEN", self.start.clone()));
        }
        tags.push(("Result", self.result.tag().to_string()));
        tags.push(("Termination", self.termination.clone()));
        tags.push(("PlyCount", self.plies.to_string()));
        let [south_tc, north_tc] = &self.time_control;
        if south_tc == north_tc {
            tags.push(("TimeControl", south_tc.clone()));
        } else {
            tags.push(("SouthTimeControl", south_tc.clone()));
            tags.push(("NorthTimeControl", north_tc.clone()));
        }
        let mut text: String = tags
            .iter()
            .map(|(k, v)| {
                let v: String = v
                    .chars()
                    .map(|c| if c.is_control() { ' ' } else { c })
                    .collect();
                format!(
                    "[{k} \"{}\"]\n",
                    v.replace('\\', "\\\\").replace('"', "\\\"")
                )
            })
            .collect();
        text.push('\n');
        let mut words = Vec::new();
        let after = |ply: usize| {
            variations
                .iter()
                .filter(move |v| v.0 == ply)
                .flat_map(|v| v.1.iter().cloned())
        };
        let opening = parse_move_list(&self.opening).unwrap_or_default();
        if variations.iter().any(|v| v.0 < opening.len()) {
            // A variation of the opening goes after its move: the opening's moves one by one.
            for (ply, mv) in opening.iter().enumerate() {
                words.push(mv.to_string());
                words.extend(after(ply));
            }
            words.push("{opening}".to_string());
        } else if !self.opening.is_empty() {
            words.push(format!("{} {{opening}}", self.opening));
        }
        let moves = parse_move_list(&self.moves).unwrap_or_default();
        for (ply, (mv, info)) in (opening.len()..).zip(moves.iter().zip(&self.info)) {
            words.push(format!("{mv} {{{}}}", info.comment()));
            words.extend(after(ply));
        }
        words.push(self.result.tag().to_string());
        // Lines of at most about 80 characters, as PGN readers like.
        let mut line = String::new();
        for w in words {
            if !line.is_empty() && line.len() + w.len() + 1 > 80 {
                text.push_str(&line);
                text.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&w);
        }
        text.push_str(&line);
        text.push_str("\n\n");
        text
    }
}

/// The embedder's wall clock, in milliseconds since the Unix epoch, where the system's cannot
/// be read (a page gives `Date.now()`).
#[cfg(not(feature = "native"))]
static WALL: std::sync::OnceLock<fn() -> f64> = std::sync::OnceLock::new();

/// Sets the wall clock [`today`] reads without the `native` feature; only the first call
/// counts. Returns whether it was this one.
#[cfg(not(feature = "native"))]
pub fn set_wall_clock(now: fn() -> f64) -> bool {
    WALL.set(now).is_ok()
}

/// Today's date (UTC) as `YYYY.MM.DD`, from the system clock; without the `native` feature,
/// from the embedder's (`set_wall_clock`), else PGN's unknown date `????.??.??`.
pub fn today() -> String {
    #[cfg(feature = "native")]
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    #[cfg(not(feature = "native"))]
    let secs = match WALL.get().map(|now| now() / 1e3) {
        Some(secs) if secs.is_finite() && secs >= 0.0 => secs as u64,
        _ => return "????.??.??".to_string(),
    };
    let days = (secs / 86_400) as i64;
    // Howard Hinnant's civil-from-days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moves_comment_reads_back() {
        use crate::said::EngineScore::{Cp, Mate};
        // (what was said, its comment)
        let rows = [
            (Some(Cp(104)), Some(8), 5, "cp:104/8 5ms"),
            (Some(Mate(-3)), Some(12), 1000, "mate:-3/12 1000ms"),
            (None, None, 0, "-/- 0ms"),
            (Some(Cp(0)), None, 7, "cp:0/- 7ms"),
        ];
        for (score, depth, ms, comment) in rows {
            let info = MoveInfo {
                score,
                depth,
                tables: false,
                ms,
            };
            assert_eq!(info.comment(), comment);
            assert_eq!(MoveInfo::from_comment(comment), Some(info), "{comment}");
        }
        // A person's remark, or a broken one, is no engine's comment.
        for other in [
            "a fine move",
            "opening",
            "cp:1/8",
            "cp:x/8 5ms",
            "cp:1/8 5",
            "",
        ] {
            assert_eq!(MoveInfo::from_comment(other), None, "{other:?}");
        }
    }

    /// A record line of a two-ply game with `sprt` (a JSON value, or nothing) added.
    fn line(sprt: Option<&str>) -> String {
        let sprt = sprt.map_or(String::new(), |s| format!(",\"sprt\":{s}"));
        format!(
            "{{\"round\":1,\"event\":\"e\",\"date\":\"2026.11.25\",\"south\":\"a\",\
             \"north\":\"b\",\"variant\":\"oware\",\"start\":\"{}\",\"opening\":\"\",\
             \"moves\":\"Ff\",\"result\":\"*\",\"termination\":\"t\",\"plies\":2,\
             \"stores\":[0,0],\"time_control\":[\"depth=1\",\"depth=1\"],\
             \"info\":[{{\"ms\":0}},{{\"ms\":0}}]{sprt}}}",
            Board::start(Variant::Oware)
        )
    }

    /// A move's info keeps the tables' mark only where it was one: `"tables":true`, left out
    /// otherwise, and read as absent from records that never had it.
    #[test]
    fn a_move_says_whether_its_score_was_the_tables_result() {
        let rows = [
            (
                MoveInfo {
                    score: Some(EngineScore::Cp(800)),
                    depth: Some(3),
                    tables: true,
                    ms: 5,
                },
                r#"{"score":{"cp":800},"depth":3,"tables":true,"ms":5}"#,
            ),
            (
                MoveInfo {
                    score: Some(EngineScore::Cp(104)),
                    depth: Some(8),
                    tables: false,
                    ms: 5,
                },
                r#"{"score":{"cp":104},"depth":8,"ms":5}"#,
            ),
        ];
        for (info, json) in rows {
            assert_eq!(serde_json::to_string(&info).unwrap(), json);
            assert_eq!(serde_json::from_str::<MoveInfo>(json).unwrap(), info);
        }
    }

    #[test]
    fn a_record_carries_its_sprt_and_older_records_read_without_one() {
        let normalized = SprtSettings {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.1,
            model: EloModel::Normalized,
        };
        /// What a line reads as: its SPRT, or `None` for a line refused.
        type Reads = Option<Option<SprtSettings>>;
        // (what, the sprt field, what it reads as)
        let rows: [(&str, Option<&str>, Reads); 6] = [
            ("an older record", None, Some(None)),
            (
                "normalized",
                Some(r#"{"elo0":0,"elo1":5,"alpha":0.05,"beta":0.1,"model":"normalized"}"#),
                Some(Some(normalized)),
            ),
            (
                "another model",
                Some(r#"{"elo0":0,"elo1":5,"alpha":0.05,"beta":0.1,"model":"logistic"}"#),
                None,
            ),
            (
                "no model",
                Some(r#"{"elo0":0,"elo1":5,"alpha":0.05,"beta":0.1}"#),
                None,
            ),
            (
                "bounds that cross",
                Some(r#"{"elo0":0,"elo1":5,"alpha":0.6,"beta":0.6,"model":"normalized"}"#),
                None,
            ),
            (
                "elo1 below elo0",
                Some(r#"{"elo0":5,"elo1":0,"alpha":0.05,"beta":0.1,"model":"normalized"}"#),
                None,
            ),
        ];
        for (what, sprt, reads) in rows {
            let read = GameRecord::from_json(line(sprt).as_bytes());
            match reads {
                Some(expected) => {
                    let record = read.unwrap_or_else(|e| panic!("{what}: {e}"));
                    assert_eq!(record.sprt, expected, "{what}");
                    // Written again, it reads the same.
                    let again = GameRecord::from_json(record.json().as_bytes()).unwrap();
                    assert_eq!(again, record, "{what}");
                    assert_eq!(record.json().contains("\"sprt\""), expected.is_some());
                }
                None => assert!(read.is_err(), "{what}: read as {read:?}"),
            }
        }
    }
}
