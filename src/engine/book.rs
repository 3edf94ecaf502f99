//! The opening book (`OwnBook`): for the first plies of a game, every legal move of every
//! position scored by a search deeper than a game's, so that the engine plays its opening at
//! once and, choosing at random among the moves within `BookMargin` of the best, not always
//! the same way.
//!
//! `awari book build` makes it: every position up to a number of plies from the start, each
//! move searched to a fixed depth. The file is text, one position a line: its notation, then
//! each move with its score for the side to move (`F:-12`), best first. The shipped book
//! (`book/oware.txt`) is compiled in; it is held in a hash map keyed by the position's Zobrist
//! key (`ahash`: the keys are already random, and a fast hash suits them).

use super::eval::Weights;
use super::search::{self, Control, Setup, MATE};
use super::time::Limits;
use super::tt::Table;
use crate::rng::Rng;
use crate::rules::{Board, Game, Move, Variant};
use ahash::AHashMap;
use once_cell::sync::Lazy;
use rayon::prelude::*;
use std::fmt::Write as _;

/// A book: for each position, its moves and their scores, best first.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: AHashMap<u64, Vec<(Move, i32)>>,
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
        self.entries.len()
    }

    /// Whether the book is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Reads a book's text; an error names the line.
    pub fn parse(variant: Variant, text: &str) -> Result<Book, String> {
        let mut entries = AHashMap::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let position = words.next().unwrap_or_default();
            let board = Board::from_notation(variant, position)
                .map_err(|e| format!("line {}: {e}", n + 1))?;
            let mut moves = Vec::new();
            for w in words {
                let (m, score) = w
                    .split_once(':')
                    .ok_or_else(|| format!("line {}: expected MOVE:SCORE, got {w}", n + 1))?;
                let m: Move = m.parse().map_err(|e| format!("line {}: {m}: {e}", n + 1))?;
                if !board.legal_moves().contains(m) {
                    return Err(format!("line {}: {m} is not legal in {position}", n + 1));
                }
                let score: i32 = score
                    .parse()
                    .map_err(|_| format!("line {}: {score} is not a score", n + 1))?;
                moves.push((m, score));
            }
            if moves.is_empty() {
                return Err(format!("line {}: no moves", n + 1));
            }
            moves.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
            entries.insert(board.key(), moves);
        }
        Ok(Book { entries })
    }

    /// The book's moves for `board`, best first.
    pub fn moves(&self, board: &Board) -> Option<&[(Move, i32)]> {
        self.entries.get(&board.key()).map(Vec::as_slice)
    }

    /// A move for `board`: one of those within `margin` of the best, at random with `rng`,
    /// else the best. Only moves that `game` allows (its repetition rule).
    pub fn choose(
        &self,
        game: &Game,
        margin: i32,
        rng: Option<&mut Rng>,
    ) -> Option<(Move, i32, usize)> {
        let legal = game.legal_moves();
        let moves: Vec<(Move, i32)> = self
            .moves(game.board())?
            .iter()
            .copied()
            .filter(|&(m, _)| legal.contains(m))
            .collect();
        let best = moves.first()?.1;
        let near: Vec<(Move, i32)> = moves
            .into_iter()
            .filter(|&(_, s)| s >= best - margin.max(0))
            .collect();
        let pick = match rng {
            Some(rng) => near[rng.below(near.len() as u64) as usize],
            None => near[0],
        };
        Some((pick.0, pick.1, near.len()))
    }
}

/// Every position up to `plies` plies from `variant`'s start, each once, in the order found.
fn positions(variant: Variant, plies: usize) -> Vec<Game> {
    let mut seen = std::collections::HashSet::new();
    let mut found = Vec::new();
    let mut layer = vec![Game::new(Board::start(variant))];
    for ply in 0..=plies {
        let mut next = Vec::new();
        for game in layer {
            if game.outcome().is_some() || !seen.insert(game.board().key()) {
                continue;
            }
            if ply < plies {
                for m in game.legal_moves() {
                    let mut child = game.clone();
                    child.play(m).expect("a legal move");
                    next.push(child);
                }
            }
            found.push(game);
        }
        layer = next;
    }
    found
}

/// Builds a book: every position up to `plies` plies, each legal move searched to `depth`
/// (its position after the move, to `depth - 1`), on `threads` threads. Returns the book's
/// text; `progress` is told of each position done.
pub fn build(
    variant: Variant,
    plies: usize,
    depth: u32,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> String {
    let games = positions(variant, plies);
    let total = games.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .expect("a thread pool");
    let lines: Vec<String> = pool.install(|| {
        games
            .par_iter()
            .map(|game| {
                let mut table = Table::new(16);
                let mut scored: Vec<(Move, i32)> = game
                    .legal_moves()
                    .into_iter()
                    .map(|m| {
                        let mut child = game.clone();
                        child.play(m).expect("a legal move");
                        let score = match child.outcome() {
                            // A move that ends the game (none does this early in oware).
                            Some(o) => match o.winner {
                                None => 0,
                                Some(w) if w == game.board().side_to_move() => MATE - 1,
                                Some(_) => 1 - MATE,
                            },
                            None => {
                                let control = Control::new(false);
                                let limits = Limits {
                                    depth: Some(depth.saturating_sub(1).max(1)),
                                    ..Limits::default()
                                };
                                let setup = Setup {
                                    tt: &mut table,
                                    threads: 1,
                                    control: &control,
                                    weights: Weights::of(variant),
                                    limits: &limits,
                                    overhead: 0,
                                    tables: None,
                                };
                                let found = search::search(&child, setup, &mut |_| {});
                                let same_side =
                                    child.board().side_to_move() == game.board().side_to_move();
                                if same_side {
                                    found.score
                                } else {
                                    -found.score
                                }
                            }
                        };
                        (m, score)
                    })
                    .collect();
                scored.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
                let mut line = game.board().to_string();
                for (m, s) in scored {
                    let _ = write!(line, " {m}:{s}");
                }
                progress(
                    done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1,
                    total,
                );
                line
            })
            .collect()
    });
    let mut text = format!(
        "# awari opening book v1: {variant}, every position up to {plies} plies, each move \
         searched to depth {depth}; scores for the side to move (100 = one seed)\n"
    );
    for line in lines {
        text.push_str(&line);
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_book_reads_back_and_chooses_within_the_margin() {
        let text = build(Variant::Oware, 1, 4, 2, &|_, _| {});
        let book = Book::parse(Variant::Oware, &text).unwrap();
        // The start and its six children.
        assert_eq!(book.len(), 7);
        let game = Game::new(Board::start(Variant::Oware));
        let moves = book.moves(game.board()).unwrap();
        assert_eq!(moves.len(), 6);
        assert!(moves.windows(2).all(|w| w[0].1 >= w[1].1));
        let (best, score, _) = book.choose(&game, 0, None).unwrap();
        assert_eq!((best, score), moves[0]);
        // With a margin as wide as every score, every move can come.
        let mut rng = Rng::new(3);
        let wide = moves[0].1 - moves[5].1;
        let picked: std::collections::HashSet<Move> = (0..200)
            .map(|_| book.choose(&game, wide, Some(&mut rng)).unwrap().0)
            .collect();
        assert_eq!(picked.len(), 6);
        assert!(Book::parse(Variant::Oware, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S G:5").is_err());
        assert!(Book::parse(Variant::Oware, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S a:5").is_err());
    }

    #[test]
    fn the_shipped_book_reads() {
        let book = Book::shipped(Variant::Oware).unwrap();
        assert!(!book.is_empty());
        assert!(book.moves(&Board::start(Variant::Oware)).is_some());
        assert!(Book::shipped(Variant::Kalah).is_none());
    }
}
