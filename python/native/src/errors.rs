//! The exceptions of `awari._native`, each built from one of the crate's typed errors by a
//! match on its variants, never from its message. Each is a subclass of the built-in exception
//! the same failure raised before it had a class of its own (`ValueError` for what was asked,
//! `OSError` for what a file did), so that `except ValueError` goes on catching it, and each
//! carries what a program needs to act on it without reading the message: where text went
//! wrong, which move was refused and why, which rule set was asked for, which file was cut
//! short.
//!
//! The tables' exceptions share a base of their own, `awari.tables.TablesError`, beside their
//! built-in one, so that one `except` catches whatever the tables raise. A class of two bases
//! is more than `create_exception!` makes: those are made by calling `type`, once.

use awari::rules::{
    IllegalMove, IllegalReason, MovesError, NotationError as Notation, SetupError as Setup,
    UnknownVariant, Variant,
};
use awari::tables::file::Change;
use awari::tables::problem::Dropped;
use pyo3::exceptions::{PyException, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};
use pyo3::IntoPyObjectExt;
use std::path::Path;
use std::sync::Arc;

pyo3::create_exception!(
    awari,
    NotationError,
    PyValueError,
    "Text that is not a position, a move or a move list; `column` is where it goes wrong \
     (1-based), or None when the text as a whole is wrong."
);

pyo3::create_exception!(
    awari,
    IllegalMoveError,
    PyValueError,
    "A move that is not legal in the position: `move` (its letter), `reason` (game-over, \
     not-your-house, empty-house, must-feed or endless) and, for a move list, `index`, the \
     0-based place of the refused move in it (None for a single move)."
);

pyo3::create_exception!(
    awari,
    SetupError,
    PyValueError,
    "A start position that cannot be set up: `reason` says why (seeds-per-house: \
     `Board(seeds=)` out of 1 to 21)."
);

pyo3::create_exception!(
    awari,
    UnknownRulesError,
    PyValueError,
    "A rule set's name that is none of `awari.RULES`: `rules` is the name as given."
);

pyo3::create_exception!(
    awari.engine,
    ReplyError,
    PyValueError,
    "A line given to the reply reader that is not of the kind asked for: `line`, and \
     `expected` (info or bestmove)."
);

pyo3::create_exception!(
    awari.tables,
    TablesError,
    PyException,
    "What `awari.tables.Tables` raises, but for a directory that is not there \
     (FileNotFoundError, NotADirectoryError) and a name that is no rule set \
     (awari.UnknownRulesError): each subclass is also a ValueError or an OSError."
);

/// The subclasses of `TablesError`, each with a built-in base too.
#[derive(Clone, Copy)]
pub enum TablesClass {
    /// Tables used after `close`.
    Closed,
    /// A board of another rule set than the tables'.
    RulesMismatch,
    /// A rule set with no tables.
    UnsupportedRules,
    /// A layer file cut short or rewritten under the open tables.
    LayerFile,
}

impl TablesClass {
    /// Every one, as the module exports them.
    pub const ALL: [TablesClass; 4] = [
        TablesClass::Closed,
        TablesClass::RulesMismatch,
        TablesClass::UnsupportedRules,
        TablesClass::LayerFile,
    ];

    /// Its Python name.
    pub fn name(self) -> &'static str {
        match self {
            TablesClass::Closed => "TablesClosedError",
            TablesClass::RulesMismatch => "RulesMismatchError",
            TablesClass::UnsupportedRules => "UnsupportedRulesError",
            TablesClass::LayerFile => "LayerFileError",
        }
    }

    fn doc(self) -> &'static str {
        match self {
            TablesClass::Closed => "Tables used after `close`: `dir`, their directory.",
            TablesClass::RulesMismatch => {
                "A board of another rule set than the tables': `board_rules`, `tables_rules`."
            }
            TablesClass::UnsupportedRules => {
                "A rule set that has no tables (there are oware's and kalah's): `rules`."
            }
            TablesClass::LayerFile => {
                "A layer file cut short or rewritten under open tables, found by the probe \
                 that read it; its layer is left out from then on. `path`, `layer` (the seeds \
                 on the board) and `reason` (resized, written, unreadable or faulted) are those \
                 of the file whose read failed; the message names every file found changed."
            }
        }
    }

    /// The built-in exception the failure raised before it had a class.
    fn builtin<'py>(self, py: Python<'py>) -> Bound<'py, PyType> {
        match self {
            TablesClass::Closed | TablesClass::RulesMismatch | TablesClass::UnsupportedRules => {
                py.get_type::<PyValueError>()
            }
            TablesClass::LayerFile => py.get_type::<PyOSError>(),
        }
    }

    /// The class, made on first use: `type(name, (TablesError, builtin), ...)`.
    pub fn class<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyType>> {
        static CLASSES: [PyOnceLock<Py<PyType>>; 4] = [
            PyOnceLock::new(),
            PyOnceLock::new(),
            PyOnceLock::new(),
            PyOnceLock::new(),
        ];
        let class = CLASSES[self as usize].get_or_try_init(py, || {
            let bases = PyTuple::new(py, [py.get_type::<TablesError>(), self.builtin(py)])?;
            let namespace = PyDict::new(py);
            namespace.set_item("__module__", "awari.tables")?;
            namespace.set_item("__doc__", self.doc())?;
            let made = py
                .get_type::<PyType>()
                .call1((self.name(), bases, namespace))?;
            PyResult::Ok(made.cast_into::<PyType>()?.unbind())
        })?;
        Ok(class.bind(py).clone())
    }

    /// This exception with `message` and the attributes `fields` names.
    fn raise(self, py: Python<'_>, message: String, fields: &[(&str, Py<PyAny>)]) -> PyErr {
        match self.class(py) {
            Ok(class) => with_fields(py, PyErr::from_type(class, message), fields),
            Err(e) => e,
        }
    }
}

/// `err` with the attributes `fields` names. Setting an attribute on a fresh exception object
/// cannot fail short of memory; if it did, that error is the one to raise.
fn with_fields(py: Python<'_>, err: PyErr, fields: &[(&str, Py<PyAny>)]) -> PyErr {
    let value = err.value(py);
    for (name, field) in fields {
        if let Err(e) = value.setattr(*name, field) {
            return e;
        }
    }
    err
}

/// `value` as a Python object, for [`with_fields`].
fn field<'py, T: IntoPyObject<'py>>(py: Python<'py>, value: T) -> Py<PyAny> {
    // Only a conversion that allocates can fail, and only short of memory: the attribute is
    // None then, and the exception is still raised.
    value.into_py_any(py).unwrap_or_else(|_| py.None())
}

/// The code `IllegalMoveError.reason` holds: stable words a program can compare, where the
/// message is for people.
fn reason_code(reason: IllegalReason) -> &'static str {
    match reason {
        IllegalReason::GameOver(_) => "game-over",
        IllegalReason::NotYourHouse => "not-your-house",
        IllegalReason::EmptyHouse => "empty-house",
        IllegalReason::MustFeed => "must-feed",
        IllegalReason::Endless => "endless",
    }
}

/// `NotationError(message)` with its `column`.
pub fn notation(py: Python<'_>, message: String, column: Option<usize>) -> PyErr {
    let err = NotationError::new_err(message);
    with_fields(py, err, &[("column", field(py, column))])
}

/// A position's notation error, its column included.
pub fn from_notation(py: Python<'_>, e: &Notation) -> PyErr {
    let column = (e.field > 0).then_some(e.column);
    notation(py, e.to_string(), column)
}

/// `IllegalMoveError` for `e`, the `index`-th move of a list when there was one.
pub fn illegal(py: Python<'_>, e: &IllegalMove, index: Option<usize>) -> PyErr {
    let message = match index {
        Some(i) => format!("move {} of the list: {e}", i + 1),
        None => e.to_string(),
    };
    let fields = [
        ("move", field(py, e.mv.to_char().to_string())),
        ("reason", field(py, reason_code(e.reason))),
        ("index", field(py, index)),
    ];
    with_fields(py, IllegalMoveError::new_err(message), &fields)
}

/// A move list that could not be read or played: nothing of it was played.
pub fn from_moves(py: Python<'_>, e: &MovesError) -> PyErr {
    match e {
        MovesError::Parse(p) => notation(py, format!("move list: {p}"), Some(p.offset + 1)),
        MovesError::Illegal { index, error } => illegal(py, error, Some(*index)),
    }
}

/// `SetupError` for `e`, with its `reason`.
pub fn setup(py: Python<'_>, e: &Setup) -> PyErr {
    let reason = match e {
        Setup::SeedsPerHouse(_) => "seeds-per-house",
        Setup::TooManySeeds(_) => "too-many-seeds",
        Setup::BonusNotInVariant(_) => "bonus-not-in-rules",
    };
    with_fields(
        py,
        SetupError::new_err(e.to_string()),
        &[("reason", field(py, reason))],
    )
}

/// `UnknownRulesError` for a name that is no rule set, listing the rule sets.
pub fn unknown_rules(py: Python<'_>, e: &UnknownVariant) -> PyErr {
    let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
    let message = format!(
        "unknown rule set {:?}: the rule sets are {}",
        e.0,
        names.join(", ")
    );
    with_fields(
        py,
        UnknownRulesError::new_err(message),
        &[("rules", field(py, e.0.as_str()))],
    )
}

/// `ReplyError` for `line`, read as another kind of line than `expected` (`info` or
/// `bestmove`).
pub fn not_a(py: Python<'_>, line: &str, expected: &'static str) -> PyErr {
    let article = if expected == "info" { "an" } else { "a" };
    let fields = [("line", field(py, line)), ("expected", field(py, expected))];
    with_fields(
        py,
        ReplyError::new_err(format!("not {article} {expected} line: {line:?}")),
        &fields,
    )
}

/// `TablesClosedError` for the tables of `dir`.
pub fn closed(py: Python<'_>, dir: &Path) -> PyErr {
    TablesClass::Closed.raise(
        py,
        format!("the tables in {} are closed", dir.display()),
        &[("dir", field(py, dir))],
    )
}

/// `RulesMismatchError` for a board of `board` given to tables of `tables`.
pub fn rules_mismatch(py: Python<'_>, board: Variant, tables: Variant) -> PyErr {
    TablesClass::RulesMismatch.raise(
        py,
        format!(
            "the board is of rule set {} and the tables are of {}: probe a board of theirs",
            board.name(),
            tables.name()
        ),
        &[
            ("board_rules", field(py, board.name())),
            ("tables_rules", field(py, tables.name())),
        ],
    )
}

/// `UnsupportedRulesError` for tables of `variant`, asked for as `asked`.
pub fn unsupported_rules(py: Python<'_>, variant: Variant, asked: &str) -> PyErr {
    TablesClass::UnsupportedRules.raise(
        py,
        format!("rules={asked:?}: tables exist for oware and kalah (both readings)"),
        &[("rules", field(py, variant.name()))],
    )
}

/// `LayerFileError` for the files a probe found dropped (at least one): the fields of the one
/// whose read failed (else the first), every one's sentence.
pub fn layer_file(py: Python<'_>, found: &[Arc<Dropped>]) -> PyErr {
    let message = found
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ");
    let Some(read) = found.iter().find(|d| d.faulted).or(found.first()) else {
        return PyOSError::new_err(message);
    };
    let reason = match read.change {
        Change::Resized { .. } => "resized",
        Change::Written => "written",
        Change::Unreadable(_) => "unreadable",
        Change::Faulted => "faulted",
    };
    let fields = [
        ("path", field(py, read.path.as_path())),
        ("layer", field(py, read.layer)),
        ("reason", field(py, reason)),
    ];
    TablesClass::LayerFile.raise(py, message, &fields)
}
