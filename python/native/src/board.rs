//! `awari.Board`: a game under one rule set, from a start position through the moves pushed on
//! it, with undo. It holds the crate's [`Game`], so oware's repetition rule sees the history
//! exactly as the engine does, and every answer (legal moves, why a move is refused, the end
//! and its result, perft, the Zobrist key) is the crate's own.

use crate::errors;
use awari::rules::{
    format_move_list, Board as RulesBoard, Game, Move, Outcome as RulesOutcome, Side, Variant,
};
use pyo3::exceptions::{PyIndexError, PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// A side as Python sees it.
fn side_name(side: Side) -> &'static str {
    match side {
        Side::South => "south",
        Side::North => "north",
    }
}

/// The rule set named `rules` (any case), or `UnknownRulesError` listing them.
pub fn variant(py: Python<'_>, rules: &str) -> PyResult<Variant> {
    rules
        .parse::<Variant>()
        .map_err(|e| errors::unknown_rules(py, &e))
}

/// One move letter (`A`-`F` South's houses, `a`-`f` North's).
fn parse_move(py: Python<'_>, text: &str) -> PyResult<Move> {
    text.parse::<Move>().map_err(|e| {
        errors::notation(
            py,
            format!("{text:?} is not a move: {e}"),
            Some(e.offset + 1),
        )
    })
}

/// How a finished game ended: why, who won, and each side's seeds once the rule set's
/// end-of-game collection is done.
#[pyclass(module = "awari", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// `majority`, `no-feeding-move`, `repetition`, `empty-row`, `grand-slam`, `move-limit`
    /// or `no-moves`.
    #[pyo3(get)]
    reason: &'static str,
    /// `south`, `north`, or None for a draw.
    #[pyo3(get)]
    winner: Option<&'static str>,
    /// South's seeds, then North's.
    #[pyo3(get)]
    stores: (u8, u8),
    /// The engine's sentence for it (`South wins 28-20 (a store holds a majority ...)`).
    sentence: String,
}

impl From<RulesOutcome> for Outcome {
    fn from(o: RulesOutcome) -> Outcome {
        Outcome {
            reason: o.reason.name(),
            winner: o.winner.map(side_name),
            stores: (o.stores[0], o.stores[1]),
            sentence: o.to_string(),
        }
    }
}

#[pymethods]
impl Outcome {
    /// `1-0` when South won, `0-1` when North won, `1/2-1/2` for a draw (South first, as a
    /// record's result).
    fn result(&self) -> &'static str {
        match self.winner {
            Some("south") => "1-0",
            Some(_) => "0-1",
            None => "1/2-1/2",
        }
    }

    fn __str__(&self) -> &str {
        &self.sentence
    }

    fn __repr__(&self) -> String {
        format!(
            "Outcome(reason='{}', winner={}, stores={:?})",
            self.reason,
            self.winner.map_or("None".to_string(), |w| format!("'{w}'")),
            self.stores
        )
    }
}

/// A game in progress under one rule set: its start position, the moves pushed since, and the
/// position they lead to.
#[pyclass(module = "awari")]
#[derive(Clone)]
pub struct Board {
    game: Game,
}

#[pymethods]
impl Board {
    /// `Board()` is oware's start; `Board(rules="kalah")` another rule set's; `seeds=` sets the
    /// seeds per house of a start position (1-21); `Board("4-4-...-S")` a position in the
    /// notation (doc/rules.md).
    #[new]
    #[pyo3(signature = (fen=None, *, rules="oware", seeds=None))]
    fn new(py: Python<'_>, fen: Option<&str>, rules: &str, seeds: Option<u32>) -> PyResult<Self> {
        let variant = variant(py, rules)?;
        let start = match (fen, seeds) {
            (Some(_), Some(_)) => {
                return Err(PyValueError::new_err(
                    "give a position or seeds per house, not both",
                ))
            }
            (Some(text), None) => RulesBoard::from_notation(variant, text)
                .map_err(|e| errors::from_notation(py, &e))?,
            (None, Some(n)) => {
                RulesBoard::start_with_seeds(variant, n).map_err(|e| errors::setup(py, &e))?
            }
            (None, None) => RulesBoard::start(variant),
        };
        Ok(Board {
            game: Game::new(start),
        })
    }

    /// The rule set's name.
    #[getter]
    fn rules(&self) -> &'static str {
        self.game.board().variant().name()
    }

    /// The current position in the notation.
    fn fen(&self) -> String {
        self.game.board().to_string()
    }

    /// The position the game started from, in the notation.
    #[getter]
    fn start_fen(&self) -> String {
        self.game.start().to_string()
    }

    /// `south` or `north`.
    #[getter]
    fn turn(&self) -> &'static str {
        side_name(self.game.board().side_to_move())
    }

    /// Seeds in each house: `A`-`F` (South's), then `a`-`f` (North's).
    #[getter]
    fn houses(&self) -> Vec<u32> {
        // u32, not u8: PyO3 gives a `Vec<u8>` to Python as `bytes`.
        self.game
            .board()
            .houses()
            .iter()
            .map(|&n| u32::from(n))
            .collect()
    }

    /// South's store, then North's.
    #[getter]
    fn stores(&self) -> (u8, u8) {
        let [s, n] = self.game.board().stores();
        (s, n)
    }

    /// Ahl: the side to move is making its bonus move.
    #[getter]
    fn bonus_pending(&self) -> bool {
        self.game.board().bonus_pending()
    }

    /// The legal moves, as letters; empty when the game is over.
    #[getter]
    fn legal_moves(&self) -> Vec<String> {
        self.game
            .legal_moves()
            .map(|m| m.to_char().to_string())
            .collect()
    }

    /// The moves pushed since the start, oldest first.
    #[getter]
    fn move_stack(&self) -> Vec<String> {
        self.game
            .moves()
            .iter()
            .map(|m| m.to_char().to_string())
            .collect()
    }

    /// The moves pushed since the start as one move list (`FfEa`).
    fn moves_text(&self) -> String {
        format_move_list(self.game.moves())
    }

    /// Whether `move` is legal here; False for text that is not a move (a question asked of
    /// any text, as `in` is; `push` and `illegal_reason` say what is wrong with it).
    fn is_legal(&self, r#move: &str) -> bool {
        r#move
            .parse::<Move>()
            .is_ok_and(|m| self.game.legal_moves().contains(m))
    }

    /// Why `move` is not legal here (the engine's sentence), or None when it is.
    fn illegal_reason(&self, py: Python<'_>, r#move: &str) -> PyResult<Option<String>> {
        let m = parse_move(py, r#move)?;
        let mut game = self.game.clone();
        Ok(game.play(m).err().map(|e| e.to_string()))
    }

    /// Plays `move`, or raises `IllegalMoveError` and changes nothing.
    fn push(&mut self, py: Python<'_>, r#move: &str) -> PyResult<()> {
        let m = parse_move(py, r#move)?;
        self.game.play(m).map_err(|e| errors::illegal(py, &e, None))
    }

    /// Plays a move list (`FfEa` or `F f E a`) all or nothing.
    fn push_moves(&mut self, py: Python<'_>, moves: &str) -> PyResult<()> {
        self.game
            .play_text(moves)
            .map_err(|e| errors::from_moves(py, &e))
    }

    /// The last move pushed, left on the board; `IndexError` at the start.
    fn peek(&self) -> PyResult<String> {
        self.game
            .moves()
            .last()
            .map(|m| m.to_char().to_string())
            .ok_or_else(|| PyIndexError::new_err("peek at a game with no moves"))
    }

    /// Takes back the last move and returns it; `IndexError` at the start.
    fn pop(&mut self) -> PyResult<String> {
        self.game
            .undo()
            .map(|m| m.to_char().to_string())
            .ok_or_else(|| PyIndexError::new_err("pop from a game with no moves"))
    }

    /// Whether the game is over (repetition included, in oware).
    fn is_game_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// How the game ended, or None while it goes on.
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome().map(Outcome::from)
    }

    /// `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
    fn result(&self) -> &'static str {
        match self.game.outcome() {
            None => "*",
            Some(o) => Outcome::from(o).result(),
        }
    }

    /// Whether the current position repeats one since the last capture (oware's rule; False
    /// under the other rule sets).
    fn is_repetition(&self) -> bool {
        self.game.is_repetition()
    }

    /// The Zobrist key of the current position, the engine's own (`d` prints it as `Key:`).
    #[getter]
    fn zobrist(&self) -> u64 {
        self.game.board().key()
    }

    /// The leaves of the game tree exactly `depth` plies below the current position (doc/rules.md's
    /// convention, with the history of the moves pushed). Runs without the interpreter's lock;
    /// Ctrl-C ends it with `KeyboardInterrupt`.
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        if depth == 0 {
            return Ok(1);
        }
        Ok(self.divide_counts(py, depth)?.iter().map(|(_, n)| n).sum())
    }

    /// The leaves below each legal move (`depth` counted from here), as {move: leaves}.
    fn divide<'py>(&self, py: Python<'py>, depth: u32) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (m, n) in self.divide_counts(py, depth)? {
            dict.set_item(m.to_char().to_string(), n)?;
        }
        Ok(dict)
    }

    /// A copy with the same start and moves; the two then go their own ways.
    fn copy(&self) -> Board {
        self.clone()
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.clone()
    }

    /// Same rule set, same position and the same history since the last capture (what decides
    /// every legal move and result from here).
    fn __eq__(&self, other: &Board) -> bool {
        self.game.board() == other.game.board()
            && self.game.keys_since_capture() == other.game.keys_since_capture()
    }

    /// `hash(board.zobrist)`: Python's hash of the key as an int. (The key itself would not
    /// do: Python folds a hash into a signed word, so a key above 2**63 would hash otherwise.)
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        self.game.board().key().into_pyobject(py)?.hash()
    }

    /// What pickle (and `multiprocessing`) rebuild a board from: `Board(start_fen,
    /// rules=...)`, then `__setstate__` with the moves, so the history (oware's repetitions,
    /// `pop`) comes along.
    fn __getnewargs_ex__<'py>(&self, py: Python<'py>) -> PyResult<((String,), Bound<'py, PyDict>)> {
        let keywords = PyDict::new(py);
        keywords.set_item("rules", self.rules())?;
        Ok(((self.start_fen(),), keywords))
    }

    /// The moves since the start, as one move list (`FfEa`).
    fn __getstate__(&self) -> String {
        self.moves_text()
    }

    /// Plays `moves` (what `__getstate__` gave) from the board's start, all or nothing.
    fn __setstate__(&mut self, py: Python<'_>, moves: &str) -> PyResult<()> {
        let mut game = Game::new(*self.game.start());
        game.play_text(moves)
            .map_err(|e| errors::from_moves(py, &e))?;
        self.game = game;
        Ok(())
    }

    /// The board drawn as the engine's `d` draws it.
    fn __str__(&self) -> String {
        awari::rules::diagram::diagram(&self.game).join("\n")
    }

    /// `Board('FEN', rules='oware')`, which builds the same board, while no move has been
    /// pushed; `<Board rules='oware' start='FEN' moves='FfEa'>` after.
    fn __repr__(&self) -> String {
        if self.game.moves().is_empty() {
            format!("Board('{}', rules='{}')", self.game.start(), self.rules())
        } else {
            format!(
                "<Board rules='{}' start='{}' moves='{}'>",
                self.rules(),
                self.game.start(),
                format_move_list(self.game.moves())
            )
        }
    }
}

impl Board {
    /// The game, for the tables.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// [`awari::rules::divide_until`] on a thread of its own while this one, without the
    /// interpreter's lock, looks for a signal every tenth of a second: a count of hours can be
    /// ended by Ctrl-C like any Python call.
    fn divide_counts(&self, py: Python<'_>, depth: u32) -> PyResult<Vec<(Move, u64)>> {
        let stop = AtomicBool::new(false);
        let game = &self.game;
        py.detach(|| {
            std::thread::scope(|scope| {
                let (done, finished) = mpsc::channel();
                let stop = &stop;
                scope.spawn(move || {
                    let counts = awari::rules::divide_until(game, depth, stop);
                    // The receiver waits until this is sent or the count was stopped.
                    let _ = done.send(counts);
                });
                loop {
                    match finished.recv_timeout(Duration::from_millis(100)) {
                        Ok(Some(counts)) => return Ok(counts),
                        Ok(None) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                            return Err(PyKeyboardInterrupt::new_err("perft stopped"))
                        }
                        Err(mpsc::RecvTimeoutError::Timeout) => {
                            if let Err(e) = Python::attach(|py| py.check_signals()) {
                                stop.store(true, Ordering::Relaxed);
                                let _ = finished.recv();
                                return Err(e);
                            }
                        }
                    }
                }
            })
        })
    }
}
