//! Game records: a PGN-style text per game and one JSON object per line, each written and
//! flushed the moment its game ends (a match killed afterwards loses nothing finished).

use super::game::{Record, Termination};
use crate::rules::{format_move_list, Board};
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

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
    /// The TimeControl tag.
    pub time_control: &'a str,
}

/// Today's date (UTC) as `YYYY.MM.DD`, from the system clock.
pub fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
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

/// A file records are appended to.
pub struct Sink(File);

impl Sink {
    /// Opens `path` for appending (creating it).
    pub fn open(path: &Path) -> io::Result<Sink> {
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map(Sink)
    }

    /// Appends `text` and flushes it to the disk.
    pub fn write(&mut self, text: &str) -> io::Result<()> {
        self.0.write_all(text.as_bytes())?;
        self.0.flush()?;
        self.0.sync_data()
    }
}

fn termination_text(t: &Termination) -> String {
    t.to_string()
}

/// The PGN-style text of a game.
pub fn pgn(meta: &Meta<'_>, record: &Record) -> String {
    let variant = record.start.variant();
    let mut tags = vec![
        ("Event", meta.event.to_string()),
        ("Date", meta.date.to_string()),
        ("Round", meta.round.to_string()),
        ("South", meta.south.to_string()),
        ("North", meta.north.to_string()),
        ("Variant", variant.to_string()),
    ];
    if record.start != Board::start(variant) {
        tags.push(("FEN", record.start.to_string()));
    }
    let plies = record.opening.len() + record.moves.len();
    tags.push(("Result", record.result_tag().to_string()));
    tags.push(("Termination", termination_text(&record.termination)));
    tags.push(("PlyCount", plies.to_string()));
    tags.push(("TimeControl", meta.time_control.to_string()));
    let mut text: String = tags
        .iter()
        .map(|(k, v)| {
            format!(
                "[{k} \"{}\"]\n",
                v.replace('\\', "\\\\").replace('"', "\\\"")
            )
        })
        .collect();
    text.push('\n');
    let mut words = Vec::new();
    if !record.opening.is_empty() {
        words.push(format!("{} {{opening}}", format_move_list(&record.opening)));
    }
    for m in &record.moves {
        let score = m.score.as_deref().unwrap_or("-").replace(' ', ":");
        let depth = m.depth.map_or("-".to_string(), |d| d.to_string());
        words.push(format!(
            "{} {{{score}/{depth} {}ms}}",
            m.mv,
            m.time.as_millis()
        ));
    }
    words.push(record.result_tag().to_string());
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

/// A JSON string literal.
pub fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// One JSON line for a game (no trailing newline).
pub fn json_line(meta: &Meta<'_>, record: &Record) -> String {
    let moves: Vec<_> = record.moves.iter().map(|m| m.mv).collect();
    format!(
        "{{\"round\":{},\"south\":{},\"north\":{},\"variant\":{},\"start\":{},\"opening\":{},\
         \"moves\":{},\"result\":{},\"termination\":{},\"plies\":{},\"stores\":[{},{}]}}",
        meta.round,
        json_string(meta.south),
        json_string(meta.north),
        json_string(record.start.variant().name()),
        json_string(&record.start.to_string()),
        json_string(&format_move_list(&record.opening)),
        json_string(&format_move_list(&moves)),
        json_string(record.result_tag()),
        json_string(&termination_text(&record.termination)),
        record.opening.len() + record.moves.len(),
        record.stores[0],
        record.stores[1]
    )
}

/// The value of `"key":` in one of our JSON lines: an unsigned number or a string without
/// escapes (enough for reading back the lines [`json_line`] writes).
pub fn json_field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let pattern = format!("\"{key}\":");
    let start = line.find(&pattern)? + pattern.len();
    let rest = &line[start..];
    if let Some(s) = rest.strip_prefix('"') {
        let end = s.find('"')?;
        Some(&s[..end])
    } else {
        let end = rest.find([',', '}', ']']).unwrap_or(rest.len());
        Some(&rest[..end])
    }
}
