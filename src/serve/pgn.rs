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
    /// The annotations: the ply of the move each follows, and its NAG (`$4`; a suffix `!`,
    /// `?`, `!!`, `??`, `!?`, `?!` reads as `$1` to `$6`).
    pub nags: Vec<(usize, u8)>,
    /// The variations, in the order written: the ply of the main line's move each is an
    /// alternative to, and its text (its moves, comments and variations of its own), kept as
    /// written. The main line is the game.
    pub variations: Vec<(usize, String)>,
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
    let mut movetext = Movetext::default();
    for (n, line) in text.lines().enumerate() {
        let at = |what: String| format!("line {}: {what}", n + 1);
        let trimmed = line.trim();
        if !movetext.comment && trimmed.starts_with('[') {
            if movetext.started {
                return Err(at("a tag after the moves (one game at a time)".to_string()));
            }
            tags.push(tag(trimmed).map_err(at)?);
            continue;
        }
        movetext.line(line).map_err(at)?;
    }
    if movetext.depth > 0 {
        return Err("a variation `(` that is never closed".to_string());
    }
    if movetext.comment {
        return Err("a comment `{` that is never closed".to_string());
    }
    let find = |key: &str| tags.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
    let variant = find("Variant").ok_or("no [Variant \"...\"] tag: which rules is it?")?;
    let start = find("FEN");
    Ok(Pgn {
        variant,
        start,
        moves: format_move_list(&movetext.moves),
        opening: movetext.opening.unwrap_or(0),
        tags,
        comments: movetext.comments,
        nags: movetext.nags,
        variations: movetext.variations,
    })
}

/// The movetext as it is read, a line at a time: the main line's moves, comments and
/// annotations, and each variation's text, kept whole for [`super::tree`] to read.
#[derive(Default)]
struct Movetext {
    moves: Vec<crate::rules::Move>,
    comments: Vec<(usize, String)>,
    nags: Vec<(usize, u8)>,
    variations: Vec<(usize, String)>,
    /// How deep in variations the text is, the one being read (at the top level) and the
    /// ply it branches at.
    depth: usize,
    variation: String,
    branch: usize,
    /// A word of the movetext has been read (a tag may no longer follow).
    started: bool,
    /// The result has been read: nothing may follow.
    ended: bool,
    /// Inside a comment, and its text so far (at the top level).
    comment: bool,
    said: String,
    /// The opening's length, once its `{opening}` comment is read.
    opening: Option<usize>,
}

impl Movetext {
    /// Reads one line of movetext.
    fn line(&mut self, line: &str) -> Result<(), String> {
        let mut word = String::new();
        let mut chars = line.chars();
        loop {
            let c = chars.next();
            if self.comment {
                if self.in_comment(c) {
                    continue;
                }
                break;
            }
            let end_of_word = matches!(c, None | Some('{' | ';' | '(' | ')'))
                || c.is_some_and(char::is_whitespace);
            if end_of_word && !word.is_empty() {
                self.started = true;
                main_line_word(&word, &mut self.ended, &mut self.moves, &mut self.nags)?;
                word.clear();
            }
            match c {
                None | Some(';') => {
                    if self.depth > 0 {
                        self.variation.push(' ');
                    }
                    return Ok(());
                }
                Some('{') => {
                    self.started = true;
                    self.comment = true;
                    if self.depth > 0 {
                        self.variation.push('{');
                    }
                }
                Some('(') => self.open()?,
                Some(')') => self.close()?,
                Some(c) if self.depth > 0 => {
                    self.variation.push(if c.is_whitespace() { ' ' } else { c })
                }
                Some(c) if c.is_whitespace() => {}
                Some(c) => word.push(c),
            }
        }
        Ok(())
    }

    /// A character of a comment (`None`: the line's end); whether the line goes on.
    fn in_comment(&mut self, c: Option<char>) -> bool {
        match c {
            Some('}') if self.depth > 0 => {
                self.comment = false;
                self.variation.push('}');
            }
            Some('}') => {
                self.comment = false;
                if self.said.trim() == "opening" && self.opening.is_none() {
                    self.opening = Some(self.moves.len());
                }
                let said = std::mem::take(&mut self.said);
                self.comments
                    .push((self.moves.len(), said.trim().to_string()));
            }
            Some(c) if self.depth > 0 => self.variation.push(c),
            Some(c) => self.said.push(c),
            // A comment goes on over the line's end, as one space.
            None if self.depth > 0 => {
                self.variation.push(' ');
                return false;
            }
            None => {
                self.said.push(' ');
                return false;
            }
        }
        true
    }

    /// A `(`: a variation begins (at the top level, an alternative to the last move).
    fn open(&mut self) -> Result<(), String> {
        self.started = true;
        if self.depth == 0 {
            self.branch = self
                .moves
                .len()
                .checked_sub(1)
                .ok_or_else(|| "a variation `(` before any move".to_string())?;
            self.variation.clear();
        } else {
            self.variation.push('(');
        }
        self.depth += 1;
        Ok(())
    }

    /// A `)`: a variation ends.
    fn close(&mut self) -> Result<(), String> {
        self.depth = self
            .depth
            .checked_sub(1)
            .ok_or_else(|| "a `)` with no variation `(` open".to_string())?;
        if self.depth == 0 {
            let text = self.variation.trim().to_string();
            self.variations.push((self.branch, text));
        } else {
            self.variation.push(')');
        }
        Ok(())
    }
}

/// A word of the main line's movetext: a move list (with a suffix annotation, `!` to `?!`,
/// read as its NAG), a move number (`12.`, `12...`, which the referee does not write and other
/// programs do), a NAG (`$4`), or the result, after which nothing may follow.
fn main_line_word(
    word: &str,
    ended: &mut bool,
    moves: &mut Vec<crate::rules::Move>,
    nags: &mut Vec<(usize, u8)>,
) -> Result<(), String> {
    if *ended {
        return Err(format!("{word:?} after the result"));
    }
    if ["1-0", "0-1", "1/2-1/2", "*"].contains(&word) {
        *ended = true;
        return Ok(());
    }
    let number = word.trim_end_matches('.');
    if number.len() < word.len() && !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit())
    {
        return Ok(());
    }
    let nag = |moves: &[crate::rules::Move], n: u8| -> Result<(usize, u8), String> {
        let ply = moves
            .len()
            .checked_sub(1)
            .ok_or_else(|| format!("{word:?}: an annotation before any move"))?;
        Ok((ply, n))
    };
    if let Some(n) = word.strip_prefix('$') {
        let n = n
            .parse()
            .map_err(|_| format!("{word:?} is not a NAG ($0 to $255)"))?;
        nags.push(nag(moves, n)?);
        return Ok(());
    }
    let core = word.trim_end_matches(['!', '?']);
    let list = parse_move_list(core).map_err(|e| format!("{word:?} is not a move list ({e})"))?;
    moves.extend(list);
    let suffix = &word[core.len()..];
    if !suffix.is_empty() {
        let n = super::tree::suffix_nag(suffix)
            .ok_or_else(|| format!("{word:?}: {suffix:?} is not an annotation"))?;
        nags.push(nag(moves, n)?);
    }
    Ok(())
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
                nags: Vec::new(),
                variations: Vec::new(),
            }
        );
        // A comment over two lines reads as one, its line break a space.
        let two = parse("[Variant \"oware\"]\n\nF {a long\nremark} f *").unwrap();
        assert_eq!(two.comments, vec![(1, "a long remark".to_string())]);
        assert_eq!(two.tag("Variant"), Some("oware"));
        assert_eq!(two.tag("South"), None);
    }

    #[test]
    fn reads_the_variations_annotations_and_move_numbers_other_programs_write() {
        let text = "[Variant \"oware\"]\n\n1. F f?! $14 (1... e!? {a try\n) here} E (D) e) 2. E\n\
                    a!! (b (c) B) *";
        let game = parse(text).unwrap();
        assert_eq!(game.moves, "FfEa");
        assert_eq!(game.nags, vec![(1, 6), (1, 14), (3, 3)]);
        assert_eq!(
            game.variations,
            vec![
                (1, "1... e!? {a try ) here} E (D) e".to_string()),
                (3, "b (c) B".to_string()),
            ]
        );
        assert!(
            game.comments.is_empty(),
            "a variation's comments are its own"
        );
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
            ("[Variant \"oware\"]\n\n(f) F *", "before any move"),
            ("[Variant \"oware\"]\n\nF (f *", "never closed"),
            ("[Variant \"oware\"]\n\nF f) *", "no variation"),
            ("[Variant \"oware\"]\n\n$2 F *", "before any move"),
            ("[Variant \"oware\"]\n\nF $x *", "not a NAG"),
            ("[Variant \"oware\"]\n\nF?? f!?! *", "not an annotation"),
        ];
        for (text, says) in cases {
            let e = parse(text).unwrap_err();
            assert!(e.contains(says), "{text:?}: {e}");
        }
    }
}
