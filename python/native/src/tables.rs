//! `awari.tables.Tables`: a directory of endgame tables (built by `awari tables build`) opened
//! for probing, read through the crate's own [`awari::tables::Tables`], so a value here is the
//! one the engine plays by and `awari tables probe` prints.

use crate::board::{variant, Board};
use crate::errors;
use awari::rules::{Move, Variant};
use awari::sys::sigbus;
use awari::tables::probe::{after_move, show, supported};
use awari::tables::{Tables as RulesTables, Value as RulesValue};
use pyo3::exceptions::{PyFileNotFoundError, PyNotADirectoryError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

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

/// The tables of one rule set (oware, kalah or kalah-empty) in one directory, until closed.
///
/// The layer files are mapped into memory and guarded ([`awari::sys::sigbus`]), as the
/// engine's are: a file cut short under an open `Tables` (rewritten, truncated) makes the probe
/// that reads past its new end raise `LayerFileError` (an `OSError`) naming it, and its layer is
/// dropped from then on (named in `problems`), instead of SIGBUS ending the interpreter.
#[pyclass(module = "awari.tables", frozen)]
pub struct Tables {
    variant: Variant,
    dir: PathBuf,
    /// The open tables; `None` once closed. An `Arc`, so that a probe holds them while it
    /// reads, without the lock, and a `close` meanwhile only lets them go after it.
    tables: Mutex<Option<Arc<RulesTables>>>,
}

impl Tables {
    /// The open tables, or `TablesClosedError` once closed.
    fn open(&self) -> PyResult<Arc<RulesTables>> {
        let tables = self
            .tables
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        tables.ok_or_else(|| Python::attach(|py| errors::closed(py, &self.dir)))
    }

    /// Runs `read` on the open tables for `board`: `TablesClosedError` when they are closed,
    /// `RulesMismatchError` when the board is of another rule set, `LayerFileError` naming the
    /// file when a read found one cut short under them (its guard caught the SIGBUS and dropped
    /// its layer).
    fn read<T>(&self, board: &Board, read: impl FnOnce(&RulesTables) -> T) -> PyResult<T> {
        let tables = self.open()?;
        let rules = board.game().board().variant();
        if rules != tables.variant() {
            return Err(Python::attach(|py| {
                errors::rules_mismatch(py, rules, tables.variant())
            }));
        }
        let seen = sigbus::faults();
        let value = read(&tables);
        if sigbus::faults() != seen {
            // Another `Tables` may have faulted meanwhile: only what these find is raised.
            let found = tables.recheck();
            if !found.is_empty() {
                return Err(Python::attach(|py| errors::layer_file(py, &found)));
            }
        }
        Ok(value)
    }
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
        let variant = variant(py, rules)?;
        if !supported(variant) {
            return Err(errors::unsupported_rules(py, variant, rules));
        }
        // In the form `open()` raises (errno, words, path), so that `filename` names the path.
        match std::fs::metadata(&dir) {
            Err(e) => {
                return Err(PyFileNotFoundError::new_err((
                    e.raw_os_error(),
                    "no such directory (build tables with `awari tables build --dir DIR`)",
                    dir,
                )))
            }
            Ok(metadata) if !metadata.is_dir() => {
                let errno = std::fs::read_dir(&dir).err().and_then(|e| e.raw_os_error());
                return Err(PyNotADirectoryError::new_err((
                    errno,
                    "not a directory",
                    dir,
                )));
            }
            Ok(_) => {}
        }
        // Guarded before the checksums are read, so that a file cut short while they are read
        // is a dropped layer too.
        let tables = py.detach(|| {
            let tables = RulesTables::open_unverified(&dir, variant).guarded();
            if verify {
                tables.verify();
            }
            tables
        });
        Ok(Tables {
            variant,
            dir,
            tables: Mutex::new(Some(Arc::new(tables))),
        })
    }

    /// The rule set's name.
    #[getter]
    fn rules(&self) -> &'static str {
        self.variant.name()
    }

    /// The directory.
    #[getter]
    fn dir(&self) -> PathBuf {
        self.dir.clone()
    }

    /// Whether `close` was called.
    #[getter]
    fn closed(&self) -> bool {
        self.tables
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_none()
    }

    /// The most seeds on the board a probe can answer for (every layer up to it is present),
    /// or None when there is no layer.
    #[getter]
    fn reach(&self) -> PyResult<Option<usize>> {
        Ok(self.open()?.reach())
    }

    /// What was left out when opening, one sentence each, and each file changed or cut short
    /// since (looked at now: one `fstat` per file).
    #[getter]
    fn problems(&self) -> PyResult<Vec<String>> {
        let tables = self.open()?;
        tables.recheck();
        Ok(tables.problems().iter().map(ToString::to_string).collect())
    }

    /// The value of `board`'s current position for its side to move; None when its seed count
    /// has no layer here. Stores and history are not part of a table position.
    /// `RulesMismatchError` for a board of another rule set.
    fn probe(&self, board: &Board) -> PyResult<Option<Value>> {
        self.read(board, |tables| {
            tables.probe(board.game().board()).map(Value::from)
        })
    }

    /// What each legal move of `board` leads to, for the side making it: {move: Value}, a move
    /// whose position has no layer mapped to None. Empty when the game is over.
    /// `RulesMismatchError` for a board of another rule set.
    fn probe_moves<'py>(&self, py: Python<'py>, board: &Board) -> PyResult<Bound<'py, PyDict>> {
        let position = board.game().board();
        let values: Vec<(Move, Option<Value>)> = self.read(board, |tables| {
            board
                .game()
                .legal_moves()
                .into_iter()
                .map(|m| (m, after_move(tables, position, m).map(Value::from)))
                .collect()
        })?;
        let dict = PyDict::new(py);
        for (m, value) in values {
            dict.set_item(m.to_char().to_string(), value)?;
        }
        Ok(dict)
    }

    /// Lets the files go (their maps and guards); any use but `rules`, `dir` and `closed` then
    /// raises `TablesClosedError`. Closing twice does nothing. The guards are few in a process
    /// (the tables' files of a few openings), so a program that opens tables again and again
    /// closes them, or opens them in a `with` block.
    fn close(&self) {
        self.tables
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
    }

    fn __enter__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    /// Closes the tables; an exception from the block goes on.
    fn __exit__(
        &self,
        _kind: &Bound<'_, PyAny>,
        _value: &Bound<'_, PyAny>,
        _traceback: &Bound<'_, PyAny>,
    ) -> bool {
        self.close();
        false
    }

    fn __repr__(&self) -> String {
        let state = match self.open() {
            Ok(tables) => format!(
                "reach={}",
                tables.reach().map_or("None".to_string(), |r| r.to_string())
            ),
            Err(_) => "closed".to_string(),
        };
        format!(
            "<Tables rules='{}' dir='{}' {state}>",
            self.rules(),
            self.dir.display()
        )
    }
}
