//! `awari book build`: the opening book the engine plays from (`OwnBook`,
//! [`crate::search::book`]), made in two steps. First every position up to a number of plies
//! from the start, each move searched to a fixed depth: the move's score. Then self-play games
//! from the start, each choosing at random among the book's moves within a margin of the best
//! while it is in the book and searching to a fixed depth after it: each book move's record
//! (wins, draws, losses of the side that played it). The score says which moves are good
//! enough to play (within `BookMargin` of the best); among those, the record weighs the
//! random choice, so that a move whose games went better comes more often.
//! The file's format is [`crate::search::book`]'s.

use crate::cluster::shard::Shard;
use crate::rng::Rng;
use crate::rules::{Board, Game, Move, Side, Variant};
use crate::search::book::{Book, Entry};
use crate::search::eval::Evaluator;
use crate::search::fixed::search_to_depth;
use crate::search::tt::HashTable;
use crate::search::MATE;
use crate::tools::tune::result_for;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// What `awari book build` makes of: the settings that decide the book. Each field is named
/// as its flag's argument (`line_plies`: `--line-plies`), and a sharded build's manifest
/// holds them under the same names ([`crate::tools::jobs::BookManifest`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildOptions {
    /// The rule set.
    pub variant: Variant,
    /// Positions up to this many plies from the start.
    pub plies: usize,
    /// The search depth of each move.
    pub depth: u32,
    /// Self-play games for the moves' records (0: none).
    pub games: usize,
    /// The games' search depth after the book.
    pub game_depth: u32,
    /// In the games, book moves within this many centi-seeds of the best are chosen at random.
    pub explore: i32,
    /// The seed of the games' random choices.
    pub seed: u64,
    /// Beyond `plies`, the main lines go on to this many plies from the start (no more than
    /// `plies`: no main lines).
    pub line_plies: usize,
    /// A main line goes on through every move within this many centi-seeds of the best...
    pub line_margin: i32,
    /// ... by a search to this depth (shallower than `depth`: it only picks the lines).
    pub line_depth: u32,
}

impl BuildOptions {
    /// The book file's first line (without its `#`): how the book was made.
    pub fn header(&self) -> String {
        let BuildOptions {
            variant,
            plies,
            depth,
            games,
            game_depth,
            explore,
            seed,
            line_plies,
            line_margin,
            line_depth,
        } = self;
        let lines = if line_plies > plies {
            format!(
                " and the main lines up to {line_plies} plies (the moves within {line_margin} of \
                 the best by a search to depth {line_depth})"
            )
        } else {
            String::new()
        };
        format!(
            "awari opening book v2: {variant}, every position up to {plies} plies{lines}, each \
             move searched to depth {depth} (score for the side to move, 100 = one seed); \
             {games} self-play games (book moves within {explore} of the best at random, then \
             depth {game_depth}, seed {seed}): wins/draws/losses of the side to move"
        )
    }

    /// The plies of the build's deepest positions.
    pub fn deepest(&self) -> usize {
        self.plies.max(self.line_plies)
    }
}

impl Book {
    /// Plays `games` self-play games from the start and adds each book move's record. Each
    /// game has a side that plays as the engine would: in the book, a random move within
    /// `explore` of the best score (so that every move the engine may choose gets games); the
    /// other side plays any book move, at random, as an opponent may (so that the positions
    /// the engine can meet get games). After the book both search to `depth`. Games that have
    /// not ended after [`MAX_GAME_PLIES`](super::MAX_GAME_PLIES) count for nothing. Deterministic for a given `seed`.
    pub fn play_games(
        &mut self,
        games: usize,
        depth: u32,
        explore: i32,
        seed: u64,
        threads: usize,
    ) -> Result<(), String> {
        let records = self.game_records(games, depth, explore, seed, threads, Shard::WHOLE)?;
        for (board, mv, record) in records {
            self.add_record(&board, mv, record)
                .expect("the games play the book's own moves");
        }
        Ok(())
    }

    /// The games of [`Book::play_games`] that are `shard`'s (game `i`, from 0, is shard
    /// `i mod N`'s): the records they give each book move they made, in the book's order. Each
    /// game's seed comes from `seed` and its number alone, and a game does not look at other
    /// games' records, so the records of every shard added up are [`Book::play_games`]'.
    pub fn game_records(
        &self,
        games: usize,
        depth: u32,
        explore: i32,
        seed: u64,
        threads: usize,
        shard: Shard,
    ) -> Result<Vec<(Board, Move, [u32; 3])>, String> {
        let pool = crate::tools::pool::threads(threads)?;
        let mine: Vec<u64> = (0..games as u64).filter(|&i| shard.owns_item(i)).collect();
        let played: Vec<Vec<(u64, Move, f64)>> = pool.install(|| {
            mine.into_par_iter()
                .map(|i| self.one_game(depth, explore, crate::rng::item_seed(seed, i)))
                .collect()
        });
        // (line, move's place in it) -> wins, draws, losses.
        let mut records = std::collections::BTreeMap::<(usize, usize), [u32; 3]>::new();
        for (key, mv, result) in played.into_iter().flatten() {
            let Some(&line) = self.index.get(&key) else {
                continue;
            };
            let Some(place) = self.lines[line].1.iter().position(|e| e.mv == mv) else {
                continue;
            };
            let slot = if result == 1.0 {
                0
            } else if result == 0.5 {
                1
            } else {
                2
            };
            records.entry((line, place)).or_default()[slot] += 1;
        }
        Ok(records
            .into_iter()
            .map(|((line, place), record)| {
                let (board, moves) = &self.lines[line];
                (*board, moves[place].mv, record)
            })
            .collect())
    }

    /// Adds `record` (wins, draws, losses) to move `mv` of `board`; an error if the book does
    /// not have that move there.
    pub fn add_record(&mut self, board: &Board, mv: Move, record: [u32; 3]) -> Result<(), String> {
        let entry = self
            .index
            .get(&board.key())
            .and_then(|&i| self.lines[i].1.iter_mut().find(|e| e.mv == mv))
            .ok_or_else(|| format!("the book has no move {mv} in {board}"))?;
        for (total, n) in entry.record.iter_mut().zip(record) {
            *total = total.saturating_add(n);
        }
        Ok(())
    }

    /// One game of [`Book::play_games`]: the book moves it made (position key, move, result
    /// for the side that made it).
    fn one_game(&self, depth: u32, explore: i32, seed: u64) -> Vec<(u64, Move, f64)> {
        let mut rng = Rng::new(seed);
        let engine = if rng.below(2) == 0 {
            Side::South
        } else {
            Side::North
        };
        let mut game = Game::new(Board::start(self.variant));
        let mut made = Vec::new();
        let mut table = HashTable::new(1);
        let evaluator = Evaluator::engine(self.variant);
        while game.outcome().is_none() && game.moves().len() < super::MAX_GAME_PLIES {
            let board = *game.board();
            let in_book = self.moves(&board).and_then(|moves| {
                let best = moves.first()?.score;
                let engine_to_move = board.side_to_move() == engine;
                let near: Vec<Move> = moves
                    .iter()
                    .filter(|e| {
                        let near = !engine_to_move || e.score >= best - explore;
                        near && game.legal_moves().contains(e.mv)
                    })
                    .map(|e| e.mv)
                    .collect();
                (!near.is_empty()).then(|| near[rng.below(near.len() as u64) as usize])
            });
            let m = match in_book {
                Some(m) => {
                    made.push((board.key(), m, board.side_to_move()));
                    m
                }
                None => match search_to_depth(&game, depth, evaluator, None, &mut table).best {
                    Some(m) => m,
                    None => break,
                },
            };
            game.play(m).expect("book and search moves are legal");
        }
        let Some(outcome) = game.outcome() else {
            return Vec::new();
        };
        made.into_iter()
            .map(|(key, m, side)| (key, m, result_for(outcome.winner, side)))
            .collect()
    }
}

/// The build's positions, each once, in the order found: every position up to
/// `options.plies` plies from the start, then the main lines up to `options.line_plies`: from
/// a position of `plies` plies or more, only the moves within `line_margin` of the best by a
/// search to `line_depth` lead on. Those searches run on `threads` threads; each has a table of
/// its own, so the positions are the same whatever the threads (and in every shard).
pub fn positions(options: &BuildOptions, threads: usize) -> Result<Vec<Game>, String> {
    let pool = crate::tools::pool::threads(threads)?;
    let mut seen = std::collections::HashSet::new();
    let mut found = Vec::new();
    let mut layer = vec![Game::new(Board::start(options.variant))];
    let deepest = options.deepest();
    for ply in 0..=deepest {
        let fresh: Vec<Game> = layer
            .into_iter()
            .filter(|game| game.outcome().is_none() && seen.insert(game.board().key()))
            .collect();
        let leads_on: Vec<Vec<Move>> = if ply == deepest {
            Vec::new()
        } else if ply < options.plies {
            fresh
                .iter()
                .map(|game| game.legal_moves().collect())
                .collect()
        } else {
            pool.install(|| {
                fresh
                    .par_iter()
                    .map(|game| main_moves(options, game))
                    .collect()
            })
        };
        layer = fresh
            .iter()
            .zip(leads_on)
            .flat_map(|(game, moves)| {
                moves.into_iter().map(move |m| {
                    let mut child = game.clone();
                    child.play(m).expect("a legal move");
                    child
                })
            })
            .collect();
        found.extend(fresh);
    }
    Ok(found)
}

/// The moves of `game` a main line goes on through: those within `options.line_margin` of
/// the best by a search to `options.line_depth`.
fn main_moves(options: &BuildOptions, game: &Game) -> Vec<Move> {
    let scored = search_moves(options.variant, game, options.line_depth);
    let best = scored.first().map_or(0, |e| e.score);
    scored
        .into_iter()
        .filter(|e| e.score >= best - options.line_margin.max(0))
        .map(|e| e.mv)
        .collect()
}

/// Builds a book: every position of [`positions`], each legal move searched to
/// `options.depth` (its position after the move, to `depth - 1`), on `threads` threads, no
/// records yet ([`Book::play_games`] adds them); `progress` is told of each position done.
pub fn build(
    options: &BuildOptions,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Book, String> {
    let games = positions(options, threads)?;
    let scored = search_positions(options, &games, threads, Shard::WHOLE, progress)?;
    Ok(Book::new(
        options.variant,
        scored
            .into_iter()
            .map(|(_, board, moves)| (board, moves))
            .collect(),
    ))
}

/// The searches of [`build`] that are `shard`'s: position `i` (from 0, of `games`, the
/// build's [`positions`]) is shard `i mod N`'s. Each position's moves are searched with a
/// table of their own, so a position's scores do not depend on which shard searched it.
/// Returns each position's number, board and moves, best first; `progress` is told of each
/// position done, of the shard's.
pub fn search_positions(
    options: &BuildOptions,
    games: &[Game],
    threads: usize,
    shard: Shard,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<(usize, Board, Vec<Entry>)>, String> {
    let mine: Vec<(usize, &Game)> = games
        .iter()
        .enumerate()
        .filter(|&(i, _)| shard.owns_item(i as u64))
        .collect();
    let total = mine.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let pool = crate::tools::pool::threads(threads)?;
    Ok(pool.install(|| {
        mine.par_iter()
            .map(|&(i, game)| {
                let moves = search_moves(options.variant, game, options.depth);
                progress(
                    done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1,
                    total,
                );
                (i, *game.board(), moves)
            })
            .collect()
    }))
}

/// Every legal move of `game` scored by a search to `depth`, best first.
fn search_moves(variant: Variant, game: &Game, depth: u32) -> Vec<Entry> {
    let mut table = HashTable::new(16);
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
                    let below = depth.saturating_sub(1).max(1);
                    let found = search_to_depth(
                        &child,
                        below,
                        Evaluator::engine(variant),
                        None,
                        &mut table,
                    );
                    let same_side = child.board().side_to_move() == game.board().side_to_move();
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
    scored
        .into_iter()
        .map(|(mv, score)| Entry {
            mv,
            score,
            record: [0; 3],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A build of oware's positions to `plies`, searched to `depth`, no main lines.
    fn options(plies: usize, depth: u32) -> BuildOptions {
        BuildOptions {
            variant: Variant::Oware,
            plies,
            depth,
            games: 0,
            game_depth: 2,
            explore: 100,
            seed: 1,
            line_plies: 0,
            line_margin: 0,
            line_depth: 1,
        }
    }

    /// The main lines: past the full plies, only the moves within the margin lead on, and the
    /// full plies are the same as without them.
    #[test]
    fn main_lines_go_on_only_through_the_moves_within_the_margin() {
        let full = positions(&options(2, 1), 2).unwrap();
        assert_eq!(full.len(), 1 + 6 + 36);
        let lines = BuildOptions {
            line_plies: 4,
            line_margin: 30,
            line_depth: 4,
            ..options(2, 1)
        };
        let found = positions(&lines, 2).unwrap();
        assert_eq!(
            &found[..full.len()],
            &full[..],
            "the full plies come first, unchanged"
        );
        assert_eq!(
            positions(&lines, 1).unwrap(),
            found,
            "the same on one thread"
        );
        let keys: std::collections::HashSet<u64> = found.iter().map(|g| g.board().key()).collect();
        assert_eq!(keys.len(), found.len(), "each position once");
        let at = |ply: usize| found.iter().filter(move |g| g.moves().len() == ply);
        for ply in 2..4 {
            let (mut picked, mut legal) = (0, 0);
            for game in at(ply) {
                let moves = main_moves(&lines, game);
                assert!(!moves.is_empty());
                for &m in &moves {
                    let mut child = game.clone();
                    child.play(m).unwrap();
                    assert!(
                        keys.contains(&child.board().key()),
                        "{m} of {}",
                        game.board()
                    );
                }
                picked += moves.len();
                legal += game.legal_moves().len();
            }
            let next = at(ply + 1).count();
            assert!(
                0 < next && next <= picked && picked < legal,
                "ply {ply}: {next} positions after, {picked} moves picked of {legal}"
            );
        }
        assert_eq!(at(5).count(), 0);
    }

    #[test]
    fn a_small_book_reads_back_and_chooses_within_the_margin() {
        let book = build(&options(1, 4), 2, &|_, _| {}).unwrap();
        let text = book.to_text("test");
        let book = Book::parse(Variant::Oware, &text).unwrap();
        assert_eq!(
            book.to_text("test"),
            text,
            "the text reads back to the same book"
        );
        // The start and its six children.
        assert_eq!(book.len(), 7);
        let game = Game::new(Board::start(Variant::Oware));
        let moves = book.moves(game.board()).unwrap();
        assert_eq!(moves.len(), 6);
        assert!(moves.windows(2).all(|w| w[0].score >= w[1].score));
        let (best, _) = book.choose(&game, 0, None).unwrap();
        assert_eq!(best, moves[0]);
        // With a margin as wide as every score, every move can come.
        let mut rng = Rng::new(3);
        let wide = moves[0].score - moves[5].score;
        let picked: std::collections::HashSet<Move> = (0..200)
            .map(|_| book.choose(&game, wide, Some(&mut rng)).unwrap().0.mv)
            .collect();
        assert_eq!(picked.len(), 6);
    }

    #[test]
    fn bad_lines_are_refused_with_their_line_number() {
        let start = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";
        for word in [
            "G:5",
            "a:5",
            "F",
            "F:x",
            "F:5:1/2",
            "F:5:a/b/c",
            "F:5:1/2/3:4",
        ] {
            let text = format!("# header\n{start} {word}\n");
            let error = Book::parse(Variant::Oware, &text).unwrap_err();
            assert!(
                matches!(error, crate::search::book::BookError::Line(2, _)),
                "{word}: {error}"
            );
        }
        let book = Book::parse(Variant::Oware, &format!("{start} F:5:1/2/3 A:4")).unwrap();
        let moves = book.moves(&Board::start(Variant::Oware)).unwrap();
        assert_eq!((moves[0].record, moves[1].record), ([1, 2, 3], [0; 3]));
    }

    /// Every game goes through the start and one of its children, so the records add up: the
    /// start's moves hold every game once, and each child's moves hold the games of the move
    /// that led there, seen from the other side.
    #[test]
    fn self_play_records_add_up() {
        let mut book = build(&options(1, 3), 2, &|_, _| {}).unwrap();
        book.play_games(60, 2, 10_000, 5, 2).unwrap();
        let start = Game::new(Board::start(Variant::Oware));
        let total: u32 = book
            .moves(start.board())
            .unwrap()
            .iter()
            .map(|e| e.record.iter().sum::<u32>())
            .sum();
        assert_eq!(total, 60, "every game ended and went through the start");
        for e in book.moves(start.board()).unwrap() {
            let mut child = start.clone();
            child.play(e.mv).unwrap();
            let sum = book
                .moves(child.board())
                .unwrap()
                .iter()
                .fold([0; 3], |acc, c| {
                    [
                        acc[0] + c.record[0],
                        acc[1] + c.record[1],
                        acc[2] + c.record[2],
                    ]
                });
            assert_eq!(sum, [e.record[2], e.record[1], e.record[0]], "{}", e.mv);
        }
    }

    /// Among moves within the margin, a better record is chosen more often, as its weight says.
    #[test]
    fn the_record_weighs_the_choice() {
        let start = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";
        let book =
            Book::parse(Variant::Oware, &format!("{start} F:0:90/0/10 E:0:10/0/90")).unwrap();
        let game = Game::new(Board::start(Variant::Oware));
        let mut rng = Rng::new(9);
        let f = (0..2000)
            .filter(|_| {
                book.choose(&game, 0, Some(&mut rng))
                    .unwrap()
                    .0
                    .mv
                    .to_char()
                    == 'F'
            })
            .count();
        // Weights 181/204 and 21/204: F comes 89.6% of the time.
        assert!((1700..1880).contains(&f), "F chosen {f} times of 2000");
    }

    #[test]
    fn the_shipped_book_reads() {
        let book = Book::shipped(Variant::Oware).unwrap();
        assert!(!book.is_empty());
        assert!(book.moves(&Board::start(Variant::Oware)).is_some());
        assert!(Book::shipped(Variant::Kalah).is_none());
    }
}
