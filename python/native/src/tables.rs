//! `awari.tables.Tables`: a directory of endgame tables (built by `awari tables build`) opened
//! for probing, read through the crate's own [`awari::tables::Tables`], so a value here is the
//! one the engine plays by and `awari tables probe` prints.

use crate::board::{variant, Board};
use awari::tables::probe::{after_move, show, supported};
use awari::tables::{Tables as RulesTables, Value as RulesValue};
use pyo3::exceptions::{PyFileNotFoundError, PyNotADirectoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;

/// Bounds on the seeds, of those on the board, that the side to move ends the game with under
/// perfect play from a position with no history (doc/tables.md says why they can differ).
#[pyclass(module = "awari.tables", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Value {
    /// What the side to move can force.
    #[pyo3(get)]
    lo: u8,
    /// What the opponent can hold it to.
    #[pyo3(get)]
    hi: u8,
}

impl From<RulesValue> for Value {
    fn from(v: RulesValue) -> Value {
        Value { lo: v.lo, hi: v.hi }
    }
}

#[pymethods]
impl Value {
    /// The value when the bounds meet, else None.
    #[getter]
    fn exact(&self) -> Option<u8> {
        (self.lo == self.hi).then_some(self.lo)
    }

    /// As `awari tables probe` prints it: `7`, or `3..8` when only bounded.
    fn __str__(&self) -> String {
        show(RulesValue {
            lo: self.lo,
            hi: self.hi,
        })
    }

    fn __repr__(&self) -> String {
        format!("Value(lo={}, hi={})", self.lo, self.hi)
    }
}

/// The tables of one rule set (oware, kalah or kalah-empty) in one directory.
#[pyclass(module = "awari.tables", frozen)]
pub struct Tables {
    tables: RulesTables,
}

#[pymethods]
impl Tables {
    /// Opens the layer files of `rules` in `dir`. With `verify` (the default) every byte is
    /// read and its checksum checked first, as `awari tables verify` does; without it only the
    /// headers are read, which costs nothing however large the tables. A layer file that is
    /// missing below the last one, or unsound, is left out and named in `problems`.
    #[new]
    #[pyo3(signature = (dir, *, rules="oware", verify=true))]
    fn new(py: Python<'_>, dir: PathBuf, rules: &str, verify: bool) -> PyResult<Self> {
        let variant = variant(rules)?;
        if !supported(variant) {
            return Err(PyValueError::new_err(format!(
                "rules={rules:?}: tables exist for oware and kalah (both readings)"
            )));
        }
        if !dir.exists() {
            return Err(PyFileNotFoundError::new_err(format!(
                "{}: no such directory (build tables with `awari tables build --dir DIR`)",
                dir.display()
            )));
        }
        if !dir.is_dir() {
            return Err(PyNotADirectoryError::new_err(format!(
                "{}: not a directory",
                dir.display()
            )));
        }
        let tables = py.detach(|| {
            if verify {
                RulesTables::open(&dir, variant)
            } else {
                RulesTables::open_unverified(&dir, variant)
            }
        });
        Ok(Tables { tables })
    }

    /// The rule set's name.
    #[getter]
    fn rules(&self) -> &'static str {
        self.tables.variant().name()
    }

    /// The directory.
    #[getter]
    fn dir(&self) -> PathBuf {
        self.tables.dir().to_path_buf()
    }

    /// The most seeds on the board a probe can answer for (every layer up to it is present),
    /// or None when there is no layer.
    #[getter]
    fn reach(&self) -> Option<usize> {
        self.tables.reach()
    }

    /// What was left out when opening, one sentence each.
    #[getter]
    fn problems(&self) -> Vec<String> {
        self.tables.problems()
    }

    /// The value of `board`'s current position for its side to move; None when its seed count
    /// has no layer here or the board is of another rule set. Stores and history are not part
    /// of a table position.
    fn probe(&self, board: &Board) -> Option<Value> {
        self.tables.probe(board.game().board()).map(Value::from)
    }

    /// What each legal move of `board` leads to, for the side making it: {move: Value}, a move
    /// whose position has no layer mapped to None. Empty when the game is over.
    fn probe_moves<'py>(&self, py: Python<'py>, board: &Board) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        let position = board.game().board();
        for m in board.game().legal_moves() {
            let value = after_move(&self.tables, position, m).map(Value::from);
            dict.set_item(m.to_char().to_string(), value)?;
        }
        Ok(dict)
    }

    fn __repr__(&self) -> String {
        format!(
            "<Tables rules='{}' dir='{}' reach={}>",
            self.rules(),
            self.tables.dir().display(),
            self.reach().map_or("None".to_string(), |r| r.to_string())
        )
    }
}
