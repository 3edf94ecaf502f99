//! Finding puzzles in game records (the referee's JSON lines): each position of each game,
//! right after a move that threw away a result the tables proved for its mover, where exactly
//! one move keeps the result the tables now prove for the other side.
//!
//! Every value is the tables', for the position as it stands with an empty history (as the
//! tables are built; the page poses each puzzle that way too): the games only say where to
//! look.

use super::{result, Goal, Puzzle};
use crate::record::{GameRecord, MAX_LINE};
use crate::rules::{parse_move_list, Board, Game, Move, Variant};
use crate::sys::lines::{excerpt, FileLine, FileLines};
use crate::tables::probe::after_move;
use crate::tables::{Tables, Value};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// A position the tables make a puzzle of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judged {
    /// The result proven for the side to move.
    pub goal: Goal,
    /// The one move that keeps it.
    pub answer: Move,
    /// Every legal move with the seeds its mover ends with (store included).
    pub moves: Vec<(Move, Value)>,
}

/// What the tables make of a position: its one right move and every move's value, if it is
/// a puzzle (a win or a draw proven, at least two legal moves, exactly one keeping that result
/// and every other one proven to lose it).
pub fn judge(tables: &Tables, board: &Board) -> Option<Judged> {
    if board.outcome().is_some() {
        return None;
    }
    let total = board.total_seeds();
    let store = board.store(board.side_to_move());
    let goal = Goal::of(result(store + tables.probe(board)?.lo, total))?;
    let legal = board.legal_moves();
    if legal.len() < 2 {
        return None;
    }
    let mut moves = Vec::new();
    let mut keeping = Vec::new();
    for m in legal {
        let v = after_move(tables, board, m)?;
        let v = Value {
            lo: store + v.lo,
            hi: store + v.hi,
        };
        if result(v.lo, total) >= goal.ordering() {
            keeping.push(m);
        } else if result(v.hi, total) >= goal.ordering() {
            // Bounds that do not say whether this move keeps the result: no puzzle.
            return None;
        }
        moves.push((m, v));
    }
    let [answer] = keeping[..] else {
        return None;
    };
    Some(Judged {
        goal,
        answer,
        moves,
    })
}

/// Whether the move from `before` to `after` was a mistake the tables prove: its mover was
/// sure of a result at `before` better than the best it can get at `after`, where the other
/// side is sure of `goal`.
fn was_mistake(tables: &Tables, before: &Board, goal: Goal) -> bool {
    let mover = before.side_to_move();
    let Some(v) = tables.probe(before) else {
        return false;
    };
    let had = result(before.store(mover) + v.lo, before.total_seeds());
    // The other side is sure of `goal`: the mover can get at most its reverse.
    had > goal.ordering().reverse()
}

/// Puzzles found in record files, with the tables of each rule set opened once.
pub struct Finder {
    dir: PathBuf,
    tables: HashMap<Variant, Tables>,
    seen: HashSet<String>,
    /// The puzzles found so far, in the order found, numbered per rule set.
    pub puzzles: Vec<Puzzle>,
    /// The games read so far.
    pub games: usize,
    /// What was wrong with the tables' files (the layers left out), one line each.
    pub warnings: Vec<String>,
    /// Stop once this many puzzles are found.
    max: usize,
}

impl Finder {
    /// A finder reading the tables in `dir`, stopping at `max` puzzles.
    pub fn new(dir: &Path, max: usize) -> Finder {
        Finder {
            dir: dir.to_path_buf(),
            tables: HashMap::new(),
            seen: HashSet::new(),
            puzzles: Vec::new(),
            games: 0,
            warnings: Vec::new(),
            max,
        }
    }

    /// Whether `max` puzzles are found.
    pub fn full(&self) -> bool {
        self.puzzles.len() >= self.max
    }

    /// The tables of `variant`, opened the first time; an error when it has none there.
    fn tables(&mut self, variant: Variant) -> Result<&Tables, String> {
        if !self.tables.contains_key(&variant) {
            if !crate::tables::probe::supported(variant) {
                return Err(format!(
                    "a game of {variant}: there are endgame tables for oware and kalah only"
                ));
            }
            let tables = Tables::open(&self.dir, variant);
            self.warnings
                .extend(tables.problems().iter().map(ToString::to_string));
            if tables.reach().is_none() {
                return Err(format!(
                    "a game of {variant}: no {variant} tables in {} (awari tables build \
                     --variant {variant} --dir ...)",
                    self.dir.display()
                ));
            }
            self.tables.insert(variant, tables);
        }
        Ok(&self.tables[&variant])
    }

    /// Reads the records of the file at `path` (JSON lines; blank lines skipped) and adds the
    /// puzzles of each game, until the end or `max`. A line that is not a record is an error
    /// naming the file and the line; so is a game whose moves are not legal.
    pub fn read(&mut self, path: &Path) -> Result<(), String> {
        let at = |n: usize, e: String| format!("{}: line {n}: {e}", path.display());
        let mut lines =
            FileLines::open(path, MAX_LINE).map_err(|e| format!("{}: {e}", path.display()))?;
        // The file's name, without spaces: a puzzle line's field.
        let name: String = path
            .file_name()
            .map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
            .chars()
            .map(|c| {
                if c.is_whitespace() || c == ',' {
                    '_'
                } else {
                    c
                }
            })
            .collect();
        while let Some((n, line)) = lines
            .next_line()
            .map_err(|e| format!("{}: {e}", path.display()))?
        {
            if self.full() {
                break;
            }
            let line = match line {
                FileLine::Text(l) | FileLine::Cut(l) => l,
                FileLine::TooLong(length) => {
                    return Err(at(
                        n,
                        format!("{length} bytes, longer than a record may be"),
                    ))
                }
            };
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let record = GameRecord::from_json(line).map_err(|e| {
                let text = excerpt(&String::from_utf8_lossy(line), 60);
                at(n, format!("not a game record ({e}): {text}"))
            })?;
            self.games += 1;
            self.game(&record, &format!("{name}:{n}"))
                .map_err(|e| at(n, e))?;
        }
        Ok(())
    }

    /// Adds the puzzles of one game.
    fn game(&mut self, record: &GameRecord, source: &str) -> Result<(), String> {
        let variant: Variant = record
            .variant
            .parse()
            .map_err(|_| format!("unknown rule set {:?}", record.variant))?;
        let start = Board::from_notation(variant, &record.start).map_err(|e| e.to_string())?;
        let mut moves = parse_move_list(&record.opening).map_err(|e| e.to_string())?;
        moves.extend(parse_move_list(&record.moves).map_err(|e| e.to_string())?);
        let mut game = Game::new(start);
        game.play_all(&moves)
            .map_err(|e| format!("the game's moves: {e}"))?;
        self.tables(variant)?;
        let tables = &self.tables[&variant];
        let mut found = Vec::new();
        for (ply, pair) in game.positions().windows(2).enumerate() {
            let (before, after) = (&pair[0], &pair[1]);
            if before.side_to_move() == after.side_to_move()
                || self.seen.contains(&after.to_string())
            {
                continue;
            }
            let Some(Judged {
                goal,
                answer,
                moves: values,
            }) = judge(tables, after)
            else {
                continue;
            };
            if !was_mistake(tables, before, goal) {
                continue;
            }
            let score = values
                .iter()
                .find(|(m, _)| *m == answer)
                .map_or(0, |(_, v)| v.lo);
            found.push(Puzzle {
                id: String::new(),
                board: *after,
                answer,
                goal,
                score,
                moves: values,
                source: source.to_string(),
                ply: ply + 1,
            });
        }
        for mut puzzle in found {
            if self.full() || !self.seen.insert(puzzle.board.to_string()) {
                continue;
            }
            let number = self
                .puzzles
                .iter()
                .filter(|p| p.board.variant() == variant)
                .count()
                + 1;
            puzzle.id = format!("{variant}-{number}");
            self.puzzles.push(puzzle);
        }
        Ok(())
    }

    /// The puzzle file's text: [`super::HEADER`], then a line per puzzle.
    pub fn text(&self) -> String {
        let mut text = format!("{}\n", super::HEADER);
        for puzzle in &self.puzzles {
            text.push_str(&puzzle.to_string());
            text.push('\n');
        }
        text
    }
}
