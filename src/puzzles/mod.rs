//! Puzzles that only the endgame tables can make: a position right after a mistake, where
//! exactly one move keeps the result the tables prove for the side to move. [`find`] finds
//! them in game records (`awari puzzles`); this file is the puzzle and its line in a puzzle
//! file (doc/formats.md), read back by the page's puzzle mode and by the tests.
//!
//! A line holds everything a puzzle is judged by (every legal move's value, from the tables),
//! so that whoever reads the file needs no tables to say whether a move is right.

#[cfg(feature = "native")]
pub mod find;

use crate::rules::{Board, Move, Variant};
use crate::tables::Value;
use std::cmp::Ordering;
use std::fmt;

/// The first line of a puzzle file: a comment naming the fields.
pub const HEADER: &str =
    "# awari puzzles: ID VARIANT POSITION ANSWER RESULT SCORE MOVES SOURCE PLY \
                          (doc/formats.md)";

/// The result a puzzle's answer keeps for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// A win, proven.
    Win,
    /// A draw, proven (and no win).
    Draw,
}

impl Goal {
    /// `win` or `draw`.
    pub const fn name(self) -> &'static str {
        match self {
            Goal::Win => "win",
            Goal::Draw => "draw",
        }
    }

    /// The goal of a final count compared with half the seeds (`Greater`: a win), if it is
    /// a win or a draw.
    pub fn of(ordering: Ordering) -> Option<Goal> {
        match ordering {
            Ordering::Greater => Some(Goal::Win),
            Ordering::Equal => Some(Goal::Draw),
            Ordering::Less => None,
        }
    }

    /// The goal as [`result`] gives it: `Greater` for a win, `Equal` for a draw.
    pub fn ordering(self) -> Ordering {
        match self {
            Goal::Win => Ordering::Greater,
            Goal::Draw => Ordering::Equal,
        }
    }
}

/// How `seeds`, a side's final count, compares with the other side's when `total` seeds are in
/// play: `Greater` is a win, `Equal` a draw.
pub fn result(seeds: u8, total: u8) -> Ordering {
    (2 * u16::from(seeds)).cmp(&u16::from(total))
}

/// One puzzle: a position, its one right move and what the tables say of every move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Its name in the file, e.g. `oware-17`.
    pub id: String,
    /// The position, side to move included (its rule set is the puzzle's).
    pub board: Board,
    /// The one move that keeps [`Puzzle::goal`].
    pub answer: Move,
    /// The result the tables prove for the side to move, and the answer keeps.
    pub goal: Goal,
    /// The seeds the side to move ends with after the answer, both sides playing perfectly
    /// (its store now plus the tables' value; at least this much where the tables give bounds).
    pub score: u8,
    /// Every legal move with the seeds its mover ends with (store included): exact, or the
    /// tables' bounds.
    pub moves: Vec<(Move, Value)>,
    /// The game it came from: the record file's name and the line of the record.
    pub source: String,
    /// The plies of that game played before the position.
    pub ply: usize,
}

/// A final count as a line writes it: `26`, or `24..26` when only bounded.
fn show(value: Value) -> String {
    crate::tables::probe::show(value)
}

impl fmt::Display for Puzzle {
    /// The puzzle's line, without a line break.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let moves: Vec<String> = self
            .moves
            .iter()
            .map(|(m, v)| format!("{m}={}", show(*v)))
            .collect();
        write!(
            f,
            "{} {} {} {} {} {} {} {} {}",
            self.id,
            self.board.variant(),
            self.board,
            self.answer,
            self.goal.name(),
            self.score,
            moves.join(","),
            self.source,
            self.ply
        )
    }
}

/// A move's value in a line: `26` or `24..26`.
fn parse_value(text: &str) -> Option<Value> {
    let (lo, hi) = text.split_once("..").unwrap_or((text, text));
    let (lo, hi) = (lo.parse().ok()?, hi.parse().ok()?);
    (lo <= hi).then_some(Value { lo, hi })
}

impl Puzzle {
    /// Reads a puzzle's line and checks it: nine fields, a known rule set, a position in the
    /// notation with at least two legal moves, each listed once in house order, and the answer
    /// the only one whose value keeps the goal while every other one's bounds fall short of
    /// it. The error says which field is wrong.
    pub fn parse(line: &str) -> Result<Puzzle, String> {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [id, variant, position, answer, goal, score, moves, source, ply] = fields[..] else {
            return Err(format!("{} fields, not 9", fields.len()));
        };
        let variant: Variant = variant
            .parse()
            .map_err(|_| format!("rule set {variant:?}: unknown"))?;
        let board = Board::from_notation(variant, position)
            .map_err(|e| format!("position {position:?}: {e}"))?;
        let answer: Move = answer
            .parse()
            .map_err(|e| format!("answer {answer:?}: {e}"))?;
        let goal = match goal {
            "win" => Goal::Win,
            "draw" => Goal::Draw,
            _ => return Err(format!("result {goal:?}: win or draw")),
        };
        let score: u8 = score
            .parse()
            .map_err(|_| format!("score {score:?}: not a seed count"))?;
        let mut values = Vec::new();
        for item in moves.split(',') {
            let parsed = item.split_once('=').and_then(|(m, v)| {
                let m: Move = m.parse().ok()?;
                Some((m, parse_value(v)?))
            });
            let Some(pair) = parsed else {
                return Err(format!("move {item:?}: MOVE=SEEDS or MOVE=LO..HI"));
            };
            values.push(pair);
        }
        let ply: usize = ply
            .parse()
            .map_err(|_| format!("ply {ply:?}: not a whole number"))?;
        let puzzle = Puzzle {
            id: id.to_string(),
            board,
            answer,
            goal,
            score,
            moves: values,
            source: source.to_string(),
            ply,
        };
        puzzle.check()?;
        Ok(puzzle)
    }

    /// Whether the fields agree with each other and with the rules (see [`Puzzle::parse`]).
    fn check(&self) -> Result<(), String> {
        if self.board.outcome().is_some() {
            return Err(format!("position {}: the game is over", self.board));
        }
        let legal: Vec<Move> = self.board.legal_moves().collect();
        let listed: Vec<Move> = self.moves.iter().map(|(m, _)| *m).collect();
        if legal.len() < 2 {
            return Err(format!(
                "position {}: fewer than two legal moves",
                self.board
            ));
        }
        if listed != legal {
            let legal: String = legal.iter().map(Move::to_string).collect();
            return Err(format!("moves: one value for each legal move, {legal}"));
        }
        let total = self.board.total_seeds();
        let keeps: Vec<Move> = self
            .moves
            .iter()
            .filter(|(_, v)| result(v.lo, total) >= self.goal.ordering())
            .map(|(m, _)| *m)
            .collect();
        if keeps != [self.answer] {
            return Err(format!(
                "answer {}: not the one move whose value keeps a {}",
                self.answer,
                self.goal.name()
            ));
        }
        let unsure = self
            .moves
            .iter()
            .any(|(m, v)| *m != self.answer && result(v.hi, total) >= self.goal.ordering());
        if unsure {
            return Err(format!(
                "moves: another move may keep the {} too",
                self.goal.name()
            ));
        }
        let value = self.value_of(self.answer).unwrap_or(Value { lo: 0, hi: 0 });
        if value.lo != self.score || Goal::of(result(self.score, total)) != Some(self.goal) {
            return Err(format!(
                "score {}: not the answer's value or not a {}",
                self.score,
                self.goal.name()
            ));
        }
        Ok(())
    }

    /// The seeds `m`'s mover ends with, if `m` is one of the puzzle's moves.
    pub fn value_of(&self, m: Move) -> Option<Value> {
        self.moves.iter().find(|(x, _)| *x == m).map(|(_, v)| *v)
    }
}

/// The puzzles of a puzzle file's text: blank lines and `#` comments skipped, ids unique. The
/// error names the line.
pub fn parse_file(text: &str) -> Result<Vec<Puzzle>, String> {
    let mut puzzles: Vec<Puzzle> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let puzzle = Puzzle::parse(line).map_err(|e| format!("line {}: {e}", n + 1))?;
        if puzzles.iter().any(|p| p.id == puzzle.id) {
            return Err(format!("line {}: id {} given twice", n + 1, puzzle.id));
        }
        puzzles.push(puzzle);
    }
    Ok(puzzles)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// South to move with 2 seeds on E and F each, North 1 on a; stores 22-21 of 48. The values
    /// are made up for the format, not the tables'.
    const GOOD: &str = "oware-1 oware 0-0-0-0-2-2-1-0-0-0-0-0-22-21-S E win 26 E=26,F=23 \
                        games.jsonl:3 40";

    #[test]
    fn lines_read_back_as_written() {
        let puzzle = Puzzle::parse(GOOD).unwrap();
        assert_eq!(puzzle.answer.to_string(), "E");
        assert_eq!(puzzle.goal, Goal::Win);
        assert_eq!(
            puzzle.to_string(),
            GOOD.split_whitespace().collect::<Vec<_>>().join(" ")
        );
    }

    #[test]
    fn bad_lines_say_which_field() {
        let rows = [
            ("x", "1 fields"),
            (
                "oware-1 chess 0-0-0-0-2-2-1-0-0-0-0-0-22-21-S E win 26 E=26,F=23 g:3 40",
                "rule set",
            ),
            (
                "oware-1 oware 0-0-0-0-2-2-1-0-0-0-0-0-22-S E win 26 E=26,F=23 g:3 40",
                "position",
            ),
            (
                "oware-1 oware 0-0-0-0-2-2-1-0-0-0-0-0-22-21-S Z win 26 E=26,F=23 g:3 40",
                "answer",
            ),
            (
                "oware-1 oware 0-0-0-0-2-2-1-0-0-0-0-0-22-21-S E loss 26 E=26,F=23 g:3 40",
                "result",
            ),
            (
                "oware-1 oware 0-0-0-0-2-2-1-0-0-0-0-0-22-21-S E win x E=26,F=23 g:3 40",
                "score",
            ),
            (
                "oware-1 oware 0-0-0-0-2-2-1-0-0-0-0-0-22-21-S E win 26 E=26,F g:3 40",
                "move \"F\"",
            ),
            (
                "oware-1 oware 0-0-0-0-2-2-1-0-0-0-0-0-22-21-S E win 26 E=26 g:3 40",
                "each legal",
            ),
            (
                "oware-1 oware 0-0-0-0-2-2-1-0-0-0-0-0-22-21-S E win 26 E=26,F=23 g:3 x",
                "ply",
            ),
            (
                "oware-1 oware 0-0-0-0-2-2-1-0-0-0-0-0-22-21-S F win 26 E=26,F=23 g:3 40",
                "answer F",
            ),
            (
                "oware-1 oware 0-0-0-0-2-2-1-0-0-0-0-0-22-21-S E win 26 E=26,F=23..25 g:3 40",
                "may keep",
            ),
            (
                "oware-1 oware 0-0-0-0-2-2-1-0-0-0-0-0-22-21-S E win 25 E=26,F=23 g:3 40",
                "score 25",
            ),
            (
                "oware-1 oware 0-0-0-0-2-2-1-0-0-0-0-0-22-21-S E draw 26 E=26,F=23 g:3 40",
                "score 26",
            ),
            (
                "oware-1 oware 0-0-0-0-0-2-1-0-0-0-0-0-22-23-S F win 26 F=26 g:3 40",
                "fewer than two",
            ),
        ];
        for (line, want) in rows {
            let error = Puzzle::parse(line).unwrap_err();
            assert!(error.contains(want), "{line}: {error}");
        }
    }

    #[test]
    fn files_skip_comments_and_refuse_twice_the_same_id() {
        let text = format!("{HEADER}\n\n{GOOD}\n");
        assert_eq!(parse_file(&text).unwrap().len(), 1);
        let twice = format!("{GOOD}\n{GOOD}\n");
        assert_eq!(
            parse_file(&twice).unwrap_err(),
            "line 2: id oware-1 given twice"
        );
        let bad = format!("# c\n{GOOD}\nnonsense\n");
        assert!(parse_file(&bad).unwrap_err().starts_with("line 3: "));
    }
}
