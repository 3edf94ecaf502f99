//! A game's PGN text, as the referee writes it ([`crate::record::GameRecord::pgn`])
//! and the page downloads it, read back for the page's load box: its rule set, its start, its
//! moves, every tag, and the comments (`{...}`) with the move each follows; `; ...` remarks are
//! skipped. The moves are read with the rules' move-list code, and their legality is checked
//! where they are played. What the tags and comments mean is [`super::load`]'s business.

use crate::rules::{format_move_list, parse_move_list};

/// A game read from PGN.
#[derive(Debug, PartialEq, Eq)]
pub struct Pgn {
    /// The `Variant` tag.
    pub variant: String,
    /// The `FEN` tag, when there is one (else the rule set's start).
    pub start: Option<String>,
    /// The moves, concatenated.
    pub moves: String,
    /// How many of them are the opening: those before an `{opening}` comment, as the referee
    /// writes a record's opening (0 without one).
    pub opening: usize,
    /// Every tag, `Variant` and `FEN` included, in the order written.
    pub tags: Vec<(String, String)>,
    /// The comments after the moves (the `{opening}` one too): how many moves came before
    /// each, and its text, trimmed.
    pub comments: Vec<(usize, String)>,
}

impl Pgn {
    /// The value of tag `key`, if the game has it.
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Whether `text` looks like PGN rather than a JSON line: it begins with a tag.
pub fn is_pgn(text: &str) -> bool {
    text.trim_start().starts_with('[')
}

/// Reads one game's PGN; the error says what is wrong and on which line.
pub fn parse(text: &str) -> Result<Pgn, String> {
    let mut tags = Vec::new();
    let mut comments = Vec::new();
    let mut moves = Vec::new();
    let mut in_movetext = false;
    let mut ended = false;
    let mut comment = false;
    // The text of the comment being read, and the opening's length once one is read.
    let mut said = String::new();
    let mut opening = None;
    for (n, line) in text.lines().enumerate() {
        let at = |what: String| format!("line {}: {what}", n + 1);
        let trimmed = line.trim();
        if !comment && trimmed.starts_with('[') {
            if in_movetext {
                return Err(at("a tag after the moves (one game at a time)".to_string()));
            }
            tags.push(tag(trimmed).map_err(at)?);
            continue;
        }
        let mut word = String::new();
        let mut chars = line.chars().peekable();
        loop {
            let c = chars.next();
            if comment {
                match c {
                    Some('}') => {
                        comment = false;
                        if said.trim() == "opening" && opening.is_none() {
                            opening = Some(moves.len());
                        }
                        comments.push((moves.len(), said.trim().to_string()));
                        said.clear();
                    }
                    Some(c) => said.push(c),
                    // A comment goes on over the line's end, as one space.
                    None => {
                        said.push(' ');
                        break;
                    }
                }
                continue;
            }
            let end_of_word =
                matches!(c, None | Some('{' | ';')) || c.is_some_and(char::is_whitespace);
            if end_of_word && !word.is_empty() {
                in_movetext = true;
                if ended {
                    return Err(at(format!("{word:?} after the result")));
                }
                if ["1-0", "0-1", "1/2-1/2", "*"].contains(&word.as_str()) {
                    ended = true;
                } else {
                    let list = parse_move_list(&word)
                        .map_err(|e| at(format!("{word:?} is not a move list ({e})")))?;
                    moves.extend(list);
                }
                word.clear();
            }
            match c {
                None | Some(';') => break,
                Some('{') => {
                    in_movetext = true;
                    comment = true;
                }
                Some(c) if c.is_whitespace() => {}
                Some(c) => word.push(c),
            }
        }
    }
    if comment {
        return Err("a comment `{` that is never closed".to_string());
    }
    let find = |key: &str| tags.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
    let variant = find("Variant").ok_or("no [Variant \"...\"] tag: which rules is it?")?;
    let start = find("FEN");
    Ok(Pgn {
        variant,
        start,
        moves: format_move_list(&moves),
        opening: opening.unwrap_or(0),
        tags,
        comments,
    })
}

/// A tag line, `[Key "value"]`, with `\"` and `\\` in the value.
fn tag(line: &str) -> Result<(String, String), String> {
    let bad = || format!("{line:?} is not a tag [Key \"value\"]");
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(bad)?;
    let (key, rest) = inner.split_once(char::is_whitespace).ok_or_else(bad)?;
    let rest = rest.trim();
    let quoted = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or_else(bad)?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next().ok_or_else(bad)?),
            '"' => return Err(bad()),
            c => value.push(c),
        }
    }
    if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(bad());
    }
    Ok((key.to_string(), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_the_referee_writes() {
        let text = "[Event \"a \\\"test\\\"\"]\n[Variant \"kalah\"]\n\
                    [FEN \"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\"]\n[Result \"*\"]\n\n\
                    Ff {opening} E {+0.35/7 12ms} a {-/- 0ms}\nD ; a remark\n*\n";
        assert!(is_pgn(text));
        let tags = [
            ("Event", "a \"test\""),
            ("Variant", "kalah"),
            ("FEN", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"),
            ("Result", "*"),
        ];
        assert_eq!(
            parse(text).unwrap(),
            Pgn {
                variant: "kalah".to_string(),
                start: Some("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S".to_string()),
                moves: "FfEaD".to_string(),
                opening: 2,
                tags: tags
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
                comments: vec![
                    (2, "opening".to_string()),
                    (3, "+0.35/7 12ms".to_string()),
                    (4, "-/- 0ms".to_string()),
                ],
            }
        );
        // A comment over two lines reads as one, its line break a space.
        let two = parse("[Variant \"oware\"]\n\nF {a long\nremark} f *").unwrap();
        assert_eq!(two.comments, vec![(1, "a long remark".to_string())]);
        assert_eq!(two.tag("Variant"), Some("oware"));
        assert_eq!(two.tag("South"), None);
    }

    #[test]
    fn refuses_what_is_malformed() {
        let cases = [
            ("[Variant \"oware\"]\n\nF x9 *", "not a move list"),
            ("[Variant \"oware\"\n\nF *", "not a tag"),
            ("[Variant \"oware\"]\n\nF {never closed", "never closed"),
            ("[Event \"x\"]\n\nF *", "no [Variant"),
            ("[Variant \"oware\"]\n\nF * E", "after the result"),
            (
                "[Variant \"oware\"]\n\nF\n[Variant \"oware\"]",
                "after the moves",
            ),
        ];
        for (text, says) in cases {
            let e = parse(text).unwrap_err();
            assert!(e.contains(says), "{text:?}: {e}");
        }
    }
}
