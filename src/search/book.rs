//! The opening book as the engine plays it (`OwnBook`): for the first plies of a game, every
//! legal move of every position with its score by a search deeper than a game's and its
//! self-play record, from which the engine picks at once, at random among the moves within
//! `BookMargin` of the best, each as likely as its record says. `awari book build` (the
//! tools' `book`) makes the file.
//!
//! The file is text, one position a line: its notation, then each move with its score for the
//! side to move and, when games were played, its record (`F:-12:40/7/33`), best score first.
//! The shipped book (`book/oware.txt`) is compiled in; it is held in a hash map keyed by the
//! position's Zobrist key (`ahash`: the keys are already random, and a fast hash suits them).

use crate::rng::Rng;
use crate::rules::{Board, Game, Move, MoveParseError, NotationError, Variant};
use ahash::AHashMap;
use once_cell::sync::Lazy;
use std::fmt::Write as _;

/// One move of a book position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The move.
    pub mv: Move,
    /// Its score by the book's search, for the side that plays it (100 = one seed).
    pub score: i32,
    /// The self-play games through it: wins, draws, losses of the side that played it.
    pub record: [u32; 3],
}

impl Entry {
    /// The weight of the random choice: the record's score with one win and one loss added
    /// (Laplace's rule), so a move with no games weighs ½ and a few games move it only a
    /// little; in thousandths.
    fn weight(&self) -> u64 {
        let [w, d, l] = self.record.map(u64::from);
        (1000 * (2 * w + d + 1)) / (2 * (w + d + l + 2))
    }
}

/// A book: for each position, its moves, best score first; positions in the order they were
/// built or read (so that writing a book back gives the same file), found by Zobrist key.
#[derive(Clone, Debug, Default)]
pub struct Book {
    #[cfg_attr(not(feature = "native"), allow(dead_code))]
    pub(crate) variant: Variant,
    pub(crate) lines: Vec<(Board, Vec<Entry>)>,
    pub(crate) index: AHashMap<u64, usize>,
}

/// The shipped oware book.
static OWARE: Lazy<Book> = Lazy::new(|| {
    Book::parse(Variant::Oware, include_str!("../../book/oware.txt"))
        .expect("book/oware.txt is a valid book")
});

impl Book {
    /// The shipped book of `variant`, if there is one (oware only so far).
    pub fn shipped(variant: Variant) -> Option<&'static Book> {
        (variant == Variant::Oware).then(|| &*OWARE)
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether the book is empty.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Reads a book's text; an error names the line.
    pub fn parse(variant: Variant, text: &str) -> Result<Book, BookError> {
        let mut lines = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            lines.push(parse_line(variant, line).map_err(|e| BookError::Line(n + 1, Box::new(e)))?);
        }
        Ok(Book::new(variant, lines))
    }

    /// A book of these positions (a later line for the same position replaces the earlier).
    pub(crate) fn new(variant: Variant, lines: Vec<(Board, Vec<Entry>)>) -> Book {
        let mut book = Book {
            variant,
            lines: Vec::with_capacity(lines.len()),
            index: AHashMap::with_capacity(lines.len()),
        };
        for (board, moves) in lines {
            match book.index.get(&board.key()) {
                Some(&i) => book.lines[i] = (board, moves),
                None => {
                    book.index.insert(board.key(), book.lines.len());
                    book.lines.push((board, moves));
                }
            }
        }
        book
    }

    /// The book's moves for `board`, best first.
    pub fn moves(&self, board: &Board) -> Option<&[Entry]> {
        self.index
            .get(&board.key())
            .map(|&i| self.lines[i].1.as_slice())
    }

    /// A move for `board`: with `rng`, one of those within `margin` of the best score, at
    /// random, each as likely as its self-play record says ([`Entry`]'s weight); without, the
    /// best. Only moves that `game` allows (its repetition rule). Also returns how many moves
    /// were within the margin.
    pub fn choose(
        &self,
        game: &Game,
        margin: i32,
        rng: Option<&mut Rng>,
    ) -> Option<(Entry, usize)> {
        let legal = game.legal_moves();
        let moves: Vec<Entry> = self
            .moves(game.board())?
            .iter()
            .copied()
            .filter(|e| legal.contains(e.mv))
            .collect();
        let best = moves.first()?.score;
        let near: Vec<Entry> = moves
            .into_iter()
            .filter(|e| e.score >= best - margin.max(0))
            .collect();
        let pick = match rng {
            Some(rng) => {
                let total: u64 = near.iter().map(Entry::weight).sum();
                let mut x = rng.below(total.max(1));
                *near
                    .iter()
                    .find(|e| {
                        let w = e.weight();
                        let here = x < w;
                        x = x.saturating_sub(w);
                        here
                    })
                    .unwrap_or(&near[0])
            }
            None => near[0],
        };
        Some((pick, near.len()))
    }

    /// The book as text, `header` (one line, without `#`) first.
    pub fn to_text(&self, header: &str) -> String {
        let mut text = format!("# {header}\n");
        for (board, moves) in &self.lines {
            text.push_str(&line_text(board, moves));
            text.push('\n');
        }
        text
    }
}

/// One line of a book's text: the position, then its moves (`MOVE:SCORE` or
/// `MOVE:SCORE:W/D/L`), best first.
pub(crate) fn line_text(board: &Board, moves: &[Entry]) -> String {
    let mut text = board.to_string();
    for e in moves {
        let _ = write!(text, " {}:{}", e.mv, e.score);
        if e.record != [0; 3] {
            let [w, d, l] = e.record;
            let _ = write!(text, ":{w}/{d}/{l}");
        }
    }
    text
}

/// What is wrong with a book's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// At this line of the text (from 1).
    Line(usize, Box<BookError>),
    /// The line's position is not a board of the rule set.
    Position(NotationError),
    /// The line has a position and no move.
    NoMoves,
    /// A word is not `MOVE:SCORE` or `MOVE:SCORE:W/D/L`.
    Word(String),
    /// A word's move is not a move.
    Move(String, MoveParseError),
    /// A word's move is not legal in the line's position.
    Illegal(Move, Board),
    /// A word's score is not a whole number.
    Score(String),
    /// A word's record is not three counts `W/D/L`.
    Record(String),
}

impl std::fmt::Display for BookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BookError::Line(n, e) => write!(f, "line {n}: {e}"),
            BookError::Position(e) => write!(f, "{e}"),
            BookError::NoMoves => write!(f, "no moves"),
            BookError::Word(w) => write!(f, "expected MOVE:SCORE or MOVE:SCORE:W/D/L, got {w}"),
            BookError::Move(m, e) => write!(f, "{m}: {e}"),
            BookError::Illegal(mv, board) => write!(f, "{mv} is not legal in {board}"),
            BookError::Score(s) => write!(f, "{s} is not a score"),
            BookError::Record(r) => write!(f, "{r} is not a record W/D/L"),
        }
    }
}

impl std::error::Error for BookError {}

/// Reads one [`line_text`]: the position and its moves, best score first.
pub(crate) fn parse_line(variant: Variant, line: &str) -> Result<(Board, Vec<Entry>), BookError> {
    let mut words = line.split_whitespace();
    let position = words.next().unwrap_or_default();
    let board = Board::from_notation(variant, position).map_err(BookError::Position)?;
    let mut moves = Vec::new();
    for w in words {
        moves.push(parse_entry(&board, w)?);
    }
    if moves.is_empty() {
        return Err(BookError::NoMoves);
    }
    moves.sort_by_key(|e| std::cmp::Reverse(e.score));
    Ok((board, moves))
}

/// One `MOVE:SCORE` or `MOVE:SCORE:W/D/L` word of `board`'s line.
fn parse_entry(board: &Board, word: &str) -> Result<Entry, BookError> {
    let mut parts = word.split(':');
    let (Some(m), Some(score)) = (parts.next(), parts.next()) else {
        return Err(BookError::Word(word.to_string()));
    };
    let mv: Move = m.parse().map_err(|e| BookError::Move(m.to_string(), e))?;
    if !board.legal_moves().contains(mv) {
        return Err(BookError::Illegal(mv, *board));
    }
    let score: i32 = score
        .parse()
        .map_err(|_| BookError::Score(score.to_string()))?;
    let record = match parts.next() {
        None => [0; 3],
        Some(r) => {
            let counts: Vec<u32> = r
                .split('/')
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map_err(|_| BookError::Record(r.to_string()))?;
            <[u32; 3]>::try_from(counts).map_err(|_| BookError::Record(r.to_string()))?
        }
    };
    if parts.next().is_some() {
        return Err(BookError::Word(word.to_string()));
    }
    Ok(Entry { mv, score, record })
}
