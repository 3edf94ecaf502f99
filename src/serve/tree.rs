//! A game with its variations: the moves tried beside the game's own, each an alternative to
//! one of its moves, with variations of their own, as PGN writes them in parentheses.
//!
//! One text serves the page, its address and the server: the movetext of the whole tree with
//! nothing between the words but what PGN needs (`EaB(Cb$2{a try}(Dd))bC`). A move is one
//! letter, so no space is needed between moves, and every other word starts with a character
//! no move has (`(`, `)`, `{`, `$`). [`Line::words`] gives the same tree as PGN words, for a
//! record's movetext; [`parse`] reads both, and what other programs write in a variation
//! (move numbers, `!?` annotations, `;` remarks).
//!
//! The game itself stays the session's ([`crate::rules::Game`]): [`join`] hangs its
//! variations on its moves, [`split`] takes a tree apart into the game's moves (the main line)
//! and the variations, keyed by the ply of the main-line move each is an alternative to.

use crate::rules::{Board, Game, Move};
use std::fmt;

/// Moves in a tree at most, all lines together: a bound on what a page or a file can make
/// the server keep.
pub const MAX_MOVES: usize = 20_000;

/// How deep variations nest at most (the reader and writer recurse once a level).
pub const MAX_DEPTH: usize = 64;

/// A line of moves, each with what is written after it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// A comment before the line's first move (`( {a try} e ...)`).
    pub comment: Option<String>,
    /// Its moves.
    pub steps: Vec<Step>,
}

/// A move of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The move.
    pub mv: Move,
    /// Its annotations, as NAGs (`$2`; a suffix `?` reads as `$2`).
    pub nags: Vec<u8>,
    /// The comments after it, joined by a space.
    pub comment: Option<String>,
    /// Its variations: lines played instead of it, in the order written.
    pub alternatives: Vec<Line>,
}

impl Step {
    fn new(mv: Move) -> Step {
        Step {
            mv,
            nags: Vec::new(),
            comment: None,
            alternatives: Vec::new(),
        }
    }
}

/// What is wrong with a tree's text, or with one of its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TreeError {
    /// A character no movetext has, at this character of the text.
    Unexpected(char, usize),
    /// A `(` never closed, or a `{` never closed.
    Unclosed(&'static str),
    /// A `)` with no `(` open, at this character.
    StrayClose(usize),
    /// A variation, a NAG or an annotation with no move before it, at this character.
    NoMove(&'static str, usize),
    /// A NAG that is not `$0` to `$255`, or a suffix that is not `!`, `?`, `!!`, `??`, `!?`
    /// or `?!`.
    Annotation(String),
    /// More moves than [`MAX_MOVES`], or variations deeper than [`MAX_DEPTH`].
    TooBig,
    /// A move not legal where it is played: the moves before it from the start, and why.
    Illegal(String, String),
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TreeError::Unexpected(c, at) => {
                write!(f, "{c:?} at character {} is not movetext", at + 1)
            }
            TreeError::Unclosed(what) => write!(f, "a {what} that is never closed"),
            TreeError::StrayClose(at) => {
                write!(f, "a `)` at character {} with no `(` open", at + 1)
            }
            TreeError::NoMove(what, at) => {
                write!(f, "{what} at character {} follows no move", at + 1)
            }
            TreeError::Annotation(word) => write!(f, "{word:?} is not an annotation"),
            TreeError::TooBig => write!(
                f,
                "more than {MAX_MOVES} moves or variations nested deeper than {MAX_DEPTH}"
            ),
            TreeError::Illegal(before, why) => {
                let before = if before.is_empty() {
                    "the start"
                } else {
                    before
                };
                write!(f, "after {before}: {why}")
            }
        }
    }
}

impl std::error::Error for TreeError {}

/// Reads a tree's movetext (see the module's words).
pub fn parse(text: &str) -> Result<Line, TreeError> {
    let mut reader = Reader {
        chars: text.chars().enumerate().peekable(),
        moves: 0,
    };
    let line = reader.line(0)?;
    match reader.chars.next() {
        Some((at, _)) => Err(TreeError::StrayClose(at)),
        None => Ok(line),
    }
}

struct Reader<I: Iterator<Item = (usize, char)>> {
    chars: std::iter::Peekable<I>,
    moves: usize,
}

impl<I: Iterator<Item = (usize, char)>> Reader<I> {
    /// A line, up to its `)` (left unread) or the text's end.
    fn line(&mut self, depth: usize) -> Result<Line, TreeError> {
        if depth > MAX_DEPTH {
            return Err(TreeError::TooBig);
        }
        let mut line = Line::default();
        while let Some(&(at, c)) = self.chars.peek() {
            match c {
                ')' => break,
                c if c.is_whitespace() || c == '.' => {
                    self.chars.next();
                }
                '{' => {
                    self.chars.next();
                    let said = self.comment()?;
                    match line.steps.last_mut() {
                        Some(step) => join_comment(&mut step.comment, said),
                        None => join_comment(&mut line.comment, said),
                    }
                }
                ';' => while self.chars.next_if(|&(_, c)| c != '\n').is_some() {},
                '(' => {
                    self.chars.next();
                    let variation = self.line(depth + 1)?;
                    if self.chars.next().is_none() {
                        return Err(TreeError::Unclosed("variation `(`"));
                    }
                    line.steps
                        .last_mut()
                        .ok_or(TreeError::NoMove("a variation", at))?
                        .alternatives
                        .push(variation);
                }
                '$' => {
                    self.chars.next();
                    let digits = self.take(|c| c.is_ascii_digit());
                    let nag = digits
                        .parse()
                        .map_err(|_| TreeError::Annotation(format!("${digits}")))?;
                    self.annotate(&mut line, nag, at)?;
                }
                '!' | '?' => {
                    let word = self.take(|c| c == '!' || c == '?');
                    let nag = suffix_nag(&word).ok_or(TreeError::Annotation(word))?;
                    self.annotate(&mut line, nag, at)?;
                }
                // A move number (`12.`, `12...`), which other programs write.
                c if c.is_ascii_digit() => {
                    self.take(|c| c.is_ascii_digit());
                    if self.chars.peek().map(|&(_, c)| c) != Some('.') {
                        return Err(TreeError::Unexpected(c, at));
                    }
                }
                c => {
                    let mv = Move::from_char(c).ok_or(TreeError::Unexpected(c, at))?;
                    self.chars.next();
                    self.moves += 1;
                    if self.moves > MAX_MOVES {
                        return Err(TreeError::TooBig);
                    }
                    line.steps.push(Step::new(mv));
                }
            }
        }
        Ok(line)
    }

    /// A comment's text, its `{` read: up to its `}`, trimmed, its line breaks spaces.
    fn comment(&mut self) -> Result<String, TreeError> {
        let mut said = String::new();
        loop {
            match self.chars.next() {
                Some((_, '}')) => return Ok(said.split_whitespace().collect::<Vec<_>>().join(" ")),
                Some((_, c)) => said.push(c),
                None => return Err(TreeError::Unclosed("comment `{`")),
            }
        }
    }

    fn take(&mut self, keep: impl Fn(char) -> bool) -> String {
        let mut word = String::new();
        while let Some((_, c)) = self.chars.next_if(|&(_, c)| keep(c)) {
            word.push(c);
        }
        word
    }

    fn annotate(&mut self, line: &mut Line, nag: u8, at: usize) -> Result<(), TreeError> {
        line.steps
            .last_mut()
            .ok_or(TreeError::NoMove("an annotation", at))?
            .nags
            .push(nag);
        Ok(())
    }
}

/// The NAG a suffix annotation stands for: `!` `$1`, `?` `$2`, `!!` `$3`, `??` `$4`, `!?`
/// `$5`, `?!` `$6` (PGN's own numbering).
pub fn suffix_nag(suffix: &str) -> Option<u8> {
    ["!", "?", "!!", "??", "!?", "?!"]
        .iter()
        .position(|&s| s == suffix)
        .map(|i| i as u8 + 1)
}

fn join_comment(to: &mut Option<String>, said: String) {
    if said.is_empty() {
        return;
    }
    match to {
        Some(text) => {
            text.push(' ');
            text.push_str(&said);
        }
        None => *to = Some(said),
    }
}

impl Line {
    /// The line as PGN words: a move, a NAG (`$2`), a comment (`{...}`, one word however
    /// many spaces it holds), a variation's `(` joined to its first word and `)` to its last.
    pub fn words(&self) -> Vec<String> {
        let mut words = Vec::new();
        self.write(&mut words);
        words
    }

    fn write(&self, words: &mut Vec<String>) {
        if let Some(c) = &self.comment {
            words.push(format!("{{{c}}}"));
        }
        for step in &self.steps {
            words.push(step.mv.to_char().to_string());
            words.extend(step.nags.iter().map(|n| format!("${n}")));
            if let Some(c) = &step.comment {
                words.push(format!("{{{c}}}"));
            }
            for alternative in &step.alternatives {
                alternative.write_variation(words);
            }
        }
    }

    /// The line as a variation's PGN words: [`Line::words`] in parentheses.
    pub fn variation_words(&self) -> Vec<String> {
        let mut words = Vec::new();
        self.write_variation(&mut words);
        words
    }

    fn write_variation(&self, words: &mut Vec<String>) {
        let first = words.len();
        self.write(words);
        if words.len() == first {
            words.push("()".to_string());
            return;
        }
        words[first].insert(0, '(');
        if let Some(last) = words.last_mut() {
            last.push(')');
        }
    }

    /// The tree's text for the page and its address: the words with nothing between them.
    pub fn text(&self) -> String {
        self.words().concat()
    }

    /// Checks every move of every line from `start`, by the rules (a game's end included: no
    /// move follows one).
    pub fn check(&self, start: &Board) -> Result<(), TreeError> {
        self.check_from(&Game::new(*start))
    }

    fn check_from(&self, before: &Game) -> Result<(), TreeError> {
        let mut game = before.clone();
        for step in &self.steps {
            for alternative in &step.alternatives {
                alternative.check_from(&game)?;
            }
            if let Err(e) = game.play(step.mv) {
                let moves = crate::rules::format_move_list(game.moves());
                return Err(TreeError::Illegal(moves, e.to_string()));
            }
        }
        Ok(())
    }
}

/// A variation of a game: an alternative to the main line's move at `ply` (0: the first).
pub type Variation = (usize, Line);

/// The tree of a game whose moves are `main` with its `variations` (sorted by ply, each
/// ply's in order). The main line's moves carry no annotations: what was said of them is the
/// game's.
pub fn join(main: &[Move], variations: &[Variation]) -> Line {
    let mut line = Line {
        comment: None,
        steps: main.iter().map(|&m| Step::new(m)).collect(),
    };
    for (ply, variation) in variations {
        if let Some(step) = line.steps.get_mut(*ply) {
            step.alternatives.push(variation.clone());
        }
    }
    line
}

/// A tree taken apart into its main line's moves and its variations, as [`join`] takes them;
/// the main line's annotations are dropped (what is said of the game's moves is the game's).
pub fn split(tree: Line) -> (Vec<Move>, Vec<Variation>) {
    let mut main = Vec::with_capacity(tree.steps.len());
    let mut variations = Vec::new();
    for (ply, step) in tree.steps.into_iter().enumerate() {
        main.push(step.mv);
        variations.extend(step.alternatives.into_iter().map(|v| (ply, v)));
    }
    (main, variations)
}

/// The variations of a game cut back to its first `plies` moves: those that are alternatives
/// to a move still played.
pub fn cut(variations: &mut Vec<Variation>, plies: usize) {
    variations.retain(|(ply, _)| *ply < plies);
}

/// The game `main` played on from `ply` with `mv` in place of what followed: what followed
/// (the main line from `ply`, with its variations) becomes a variation of `mv`, before the
/// variations that were already alternatives to the main line's move at `ply`. Returns the
/// new main line (to `ply`, then `mv`) and its variations.
pub fn branch(main: &[Move], variations: &[Variation], ply: usize, mv: Move) -> Vec<Variation> {
    let mut tree = join(main, variations);
    let mut kept: Vec<Variation> = Vec::new();
    if ply < tree.steps.len() {
        let mut rest = Line {
            comment: None,
            steps: tree.steps.split_off(ply),
        };
        if rest.steps[0].mv == mv {
            // The same move: the game goes on as it was, its variations kept.
            tree.steps.append(&mut rest.steps);
            return split(tree).1.into_iter().filter(|v| v.0 <= ply).collect();
        }
        let alternatives = std::mem::take(&mut rest.steps[0].alternatives);
        kept.push((ply, rest));
        kept.extend(alternatives.into_iter().map(|a| (ply, a)));
    }
    let mut all: Vec<Variation> = split(tree).1;
    all.extend(kept);
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{parse_move_list, Variant};

    fn moves(text: &str) -> Vec<Move> {
        parse_move_list(text).unwrap()
    }

    #[test]
    fn reads_and_writes_the_same_tree_in_both_texts() {
        // (the text, the same tree as the page writes it, as PGN words)
        let cases = [
            ("", "", ""),
            ("FfEa", "FfEa", "F f E a"),
            ("F f (e E) E a", "Ff(eE)Ea", "F f (e E) E a"),
            (
                "F f?! $14 (1... e!? {a try\n) here} E (D) e) 2. E a!! (b (c) B)",
                "Ff$6$14(e$5{a try ) here}E(D)e)Ea$3(b(c)B)",
                "F f $6 $14 (e $5 {a try ) here} E (D) e) E a $3 (b (c) B)",
            ),
            ("F ({before} E e) f", "F({before}Ee)f", "F ({before} E e) f"),
            ("F ; a remark ( here\n f", "Ff", "F f"),
        ];
        for (text, compact, pgn) in cases {
            let tree = parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(tree.text(), compact, "{text:?}");
            assert_eq!(tree.words().join(" "), pgn, "{text:?}");
            assert_eq!(parse(compact).unwrap(), tree, "{text:?} again");
            assert_eq!(parse(pgn).unwrap(), tree, "{text:?} as PGN");
        }
    }

    #[test]
    fn refuses_what_is_not_a_tree() {
        let cases = [
            ("Fx", "'x' at character 2"),
            ("F(f", "variation `(` that is never closed"),
            ("F{f", "comment `{` that is never closed"),
            ("F)f", "`)` at character 2"),
            ("(f)F", "a variation at character 1 follows no move"),
            ("$2F", "an annotation at character 1"),
            ("F$x", "\"$\" is not an annotation"),
            ("F$300", "\"$300\" is not an annotation"),
            ("F!?!", "\"!?!\" is not an annotation"),
            ("12F", "'1' at character 1"),
        ];
        for (text, says) in cases {
            let e = parse(text).unwrap_err().to_string();
            assert!(e.contains(says), "{text:?}: {e}");
        }
        let deep = "F".to_string() + &"(f".repeat(MAX_DEPTH + 1) + &")".repeat(MAX_DEPTH + 1);
        assert_eq!(parse(&deep), Err(TreeError::TooBig));
        assert_eq!(parse(&"Ff".repeat(MAX_MOVES)), Err(TreeError::TooBig));
    }

    #[test]
    fn checks_every_line_by_the_rules() {
        let start = Board::start(Variant::Oware);
        assert!(parse("Ff(eE(D)d)Ea").unwrap().check(&start).is_ok());
        // (the tree, what the error says)
        let cases = [
            ("Ff(eF)", "after Fe: "),
            ("Ff(eEE)Ea", "after FeE: "),
            ("Ff(eE(D)e)Ea", "after FeE: "),
            ("FF", "after F: "),
        ];
        for (text, says) in cases {
            let e = parse(text).unwrap().check(&start).unwrap_err().to_string();
            assert!(e.starts_with(says), "{text:?}: {e}");
        }
    }

    #[test]
    fn joins_and_splits_a_game_and_its_variations() {
        let tree = parse("Ff(eE(D)e)(aA)Ea$2{x}").unwrap();
        let (main, variations) = split(tree.clone());
        assert_eq!(main, moves("FfEa"));
        let texts: Vec<(usize, String)> = variations.iter().map(|(p, l)| (*p, l.text())).collect();
        assert_eq!(
            texts,
            vec![(1, "eE(D)e".to_string()), (1, "aA".to_string())]
        );
        // The main line's annotations are the game's, not the tree's.
        assert_eq!(join(&main, &variations).text(), "Ff(eE(D)e)(aA)Ea");
        let mut cut_back = variations.clone();
        cut(&mut cut_back, 1);
        assert!(cut_back.is_empty());
    }

    #[test]
    fn a_game_played_on_another_way_keeps_the_old_way_as_a_variation() {
        let main = moves("FfEa");
        let variations = vec![(2, parse("Dd").unwrap()), (0, parse("Aa").unwrap())];
        // (ply, move, the tree after: the main line to `ply`, then the move)
        let cases = [
            (2, 'D', "F(Aa)fD(Ea)(Dd)"),
            (2, 'E', "F(Aa)fE(Dd)"),
            (4, 'D', "F(Aa)fE(Dd)aD"),
            (0, 'B', "B(FfE(Dd)a)(Aa)"),
        ];
        for (ply, mv, want) in cases {
            let mv = Move::from_char(mv).unwrap();
            let kept = branch(&main, &variations, ply, mv);
            let mut line = main[..ply].to_vec();
            line.push(mv);
            assert_eq!(join(&line, &kept).text(), want, "{ply} {mv}");
        }
    }
}
