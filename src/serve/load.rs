//! A record pasted or chosen on the page (one game: the referee's JSON line, or its PGN, as
//! this page downloads them too), read into what a session takes up: the rule set, the start
//! and the moves to play, how many of them are the record's opening, and what the record says
//! beside the moves (its players, event, date, round and time controls, and what the engines
//! said of each move). The session keeps those, so that the game's record downloaded again
//! says them unchanged.

use super::pgn;
use crate::record::{GameRecord, GameResult, MoveInfo};
use crate::rules::parse_move_list;

/// What a record says of its game beside the moves: the fields of the referee's records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct About {
    /// The event.
    pub event: String,
    /// The date, `YYYY.MM.DD` as written.
    pub date: String,
    /// The round.
    pub round: u64,
    /// South's player and North's.
    pub players: [String; 2],
    /// South's time control and North's, as PGN writes them.
    pub time_control: [String; 2],
    /// The record's end, as it says it (its result, how it ended and the stores as scored,
    /// where a JSON line gives them), and after how many plies: a record whose game ended
    /// by the referee's word (adjudicated, forfeited) rather than the rules keeps that end
    /// while the game is still those plies.
    pub end: Option<(GameResult, String, Option<[u8; 2]>)>,
    /// The record's plies.
    pub plies: usize,
}

/// A record read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    /// The rule set's name.
    pub variant: String,
    /// The start position (`None`: the rule set's start).
    pub start: Option<String>,
    /// Every move from the start, the opening's included, as one move list.
    pub moves: String,
    /// How many of them are the opening (an opening suite's, not the players').
    pub opening: usize,
    /// What the record says beside the moves.
    pub about: About,
    /// The variations written beside the moves (a PGN's, in parentheses), by the ply of the
    /// move each is an alternative to; checked by the rules where the game is set up.
    pub variations: Vec<super::tree::Variation>,
    /// What the engine said of each move, by ply from the start (`None`: nothing said, as for
    /// the opening's moves or a person's).
    pub said: Vec<Option<MoveInfo>>,
}

/// Whether `text` is a record at all (anything but blanks).
pub fn is_record(text: &str) -> bool {
    !text.trim().is_empty()
}

/// Reads `text`, a PGN game or a JSON line; the error names which it was read as, and what is
/// wrong.
pub fn read(text: &str) -> Result<Loaded, String> {
    // A record saved by an editor that marks its files as UTF-8 starts with a byte-order mark.
    let text = text.trim_start_matches('\u{feff}');
    if pgn::is_pgn(text) {
        from_pgn(&pgn::parse(text).map_err(|e| format!("the PGN: {e}"))?)
    } else {
        let record = GameRecord::from_json(text.trim().as_bytes())
            .map_err(|e| format!("the record: {e}"))?;
        Ok(from_json(record))
    }
}

/// From a JSON line, which holds every field.
fn from_json(record: GameRecord) -> Loaded {
    let opening = parse_move_list(&record.opening).map_or(0, |m| m.len());
    let said = std::iter::repeat_n(None, opening)
        .chain(record.info.iter().copied().map(Some))
        .collect();
    let end = (record.result != GameResult::NoContest).then(|| {
        (
            record.result,
            record.termination.clone(),
            Some(record.stores),
        )
    });
    Loaded {
        variant: record.variant,
        start: Some(record.start),
        moves: record.opening + &record.moves,
        opening,
        about: About {
            event: record.event,
            date: record.date,
            round: record.round,
            players: [record.south, record.north],
            time_control: record.time_control,
            end,
            plies: record.plies,
        },
        variations: Vec::new(),
        said,
    }
}

/// From a PGN game: its tags as the referee writes them (`Event`, `Date`, `Round`, `South`,
/// `North`, `TimeControl` or `SouthTimeControl` and `NorthTimeControl`; `?` or `-` where one
/// is missing) and each move's engine comment.
fn from_pgn(game: &pgn::Pgn) -> Result<Loaded, String> {
    let tag = |key: &str, missing: &str| game.tag(key).unwrap_or(missing).to_string();
    let both = game.tag("TimeControl");
    let time_control = [
        game.tag("SouthTimeControl")
            .or(both)
            .unwrap_or("-")
            .to_string(),
        game.tag("NorthTimeControl")
            .or(both)
            .unwrap_or("-")
            .to_string(),
    ];
    let plies = parse_move_list(&game.moves).map_or(0, |m| m.len());
    let mut said = vec![None; plies];
    for (before, text) in &game.comments {
        if let (Some(ply), Some(info)) = (before.checked_sub(1), MoveInfo::from_comment(text)) {
            if ply >= game.opening && ply < plies {
                said[ply] = Some(info);
            }
        }
    }
    let variations = game
        .variations
        .iter()
        .map(|(ply, text)| {
            let line = super::tree::parse(text)
                .map_err(|e| format!("the PGN: the variation of move {}: {e}", ply + 1))?;
            Ok((*ply, line))
        })
        .collect::<Result<_, String>>()?;
    Ok(Loaded {
        variant: game.variant.clone(),
        start: game.start.clone(),
        moves: game.moves.clone(),
        opening: game.opening,
        about: About {
            event: tag("Event", "?"),
            date: tag("Date", "????.??.??"),
            round: game.tag("Round").and_then(|r| r.parse().ok()).unwrap_or(1),
            players: [tag("South", "?"), tag("North", "?")],
            time_control,
            end: match game.tag("Result") {
                Some("1-0") => Some(GameResult::South),
                Some("0-1") => Some(GameResult::North),
                Some("1/2-1/2") => Some(GameResult::Draw),
                _ => None,
            }
            .map(|result| (result, tag("Termination", "?"), None)),
            plies,
        },
        variations,
        said,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::said::EngineScore::Cp;

    /// A JSON line of a game with an opening, two engines' moves and what they said.
    const LINE: &str = "{\"round\":3,\"event\":\"a match\",\"date\":\"2026.11.27\",\
        \"south\":\"awari\",\"north\":\"aalina\",\"variant\":\"oware\",\
        \"start\":\"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\",\"opening\":\"Ff\",\"moves\":\"Ea\",\
        \"result\":\"*\",\"termination\":\"unfinished\",\"plies\":4,\"stores\":[0,0],\
        \"time_control\":[\"movetime=10\",\"movetime=1000\"],\
        \"info\":[{\"score\":{\"cp\":104},\"depth\":8,\"ms\":5},{\"ms\":1000}]}";

    #[test]
    fn a_json_line_and_its_pgn_read_the_same() {
        let json = read(LINE).unwrap();
        let info = |score, depth, ms| {
            Some(MoveInfo {
                score,
                depth,
                tables: false,
                ms,
            })
        };
        assert_eq!(
            json,
            Loaded {
                variant: "oware".to_string(),
                start: Some("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S".to_string()),
                moves: "FfEa".to_string(),
                opening: 2,
                about: About {
                    event: "a match".to_string(),
                    date: "2026.11.27".to_string(),
                    round: 3,
                    players: ["awari".to_string(), "aalina".to_string()],
                    time_control: ["movetime=10".to_string(), "movetime=1000".to_string()],
                    end: None,
                    plies: 4,
                },
                variations: Vec::new(),
                said: vec![
                    None,
                    None,
                    info(Some(Cp(104)), Some(8), 5),
                    info(None, None, 1000)
                ],
            }
        );
        // The same game's PGN (which leaves out a start that is the rule set's own).
        let pgn = read(&GameRecord::from_json(LINE.as_bytes()).unwrap().pgn()).unwrap();
        assert_eq!(
            pgn,
            Loaded {
                start: None,
                ..json
            }
        );
    }

    #[test]
    fn what_a_pgn_leaves_out_reads_as_unknown_and_what_is_wrong_is_said() {
        let bare = read("\u{feff}[Variant \"kalah\"]\n\nF {a remark} f {cp:5/2 9ms} *").unwrap();
        assert_eq!(bare.about.players, ["?", "?"]);
        assert_eq!(bare.about.event, "?");
        assert_eq!(bare.about.round, 1);
        assert_eq!(bare.about.time_control, ["-", "-"]);
        assert_eq!(bare.said[0], None, "a person's remark");
        assert_eq!(bare.said[1].and_then(|i| i.depth), Some(2));
        // (text, what the error starts with)
        let rows = [
            ("[Variant \"oware\"]\n\nQ *", "the PGN: line 3"),
            ("{\"round\":1}", "the record: "),
            ("not a record", "the record: "),
        ];
        for (text, says) in rows {
            let e = read(text).unwrap_err();
            assert!(e.starts_with(says), "{text:?}: {e}");
        }
        assert!(!is_record(" \n "));
    }
}
