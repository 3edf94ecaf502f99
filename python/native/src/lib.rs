//! `awari._native`: the crate's own rules and endgame tables, for the Python package in
//! `python/awari`. One implementation serves both languages: nothing of the rules is written
//! again in Python, so a position, a legal move, a perft count or a table value is the same in
//! `import awari` as in the engine.
//!
//! - `board`: `Board`, a game in progress (start position, moves, undo) under any rule set.
//! - `tables`: `Tables`, a directory of endgame tables opened for probing.
//! - `reply`: `read_info`, `read_bestmove`, `read_option`, an engine's lines read by the
//!   crate's reader, for the Python engine client.
//! - `errors`: the exceptions they raise, each built from one of the crate's typed errors,
//!   with the fields a program reads.
//!
//! The Python names, their signatures and docstrings are in `python/awari/_native.pyi`, which
//! `mypy --strict` reads; `python/tests` checks every one of them against the real engine.

use pyo3::prelude::*;

mod board;
mod errors;
mod reply;
mod tables;

/// The rules and tables of the awari crate (built by maturin as `awari._native`).
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<board::Board>()?;
    m.add_class::<board::Outcome>()?;
    m.add_class::<tables::Tables>()?;
    m.add_class::<tables::Value>()?;
    m.add_function(wrap_pyfunction!(reply::read_info, m)?)?;
    m.add_function(wrap_pyfunction!(reply::read_bestmove, m)?)?;
    m.add_function(wrap_pyfunction!(reply::read_option, m)?)?;
    m.add("NotationError", py.get_type::<errors::NotationError>())?;
    m.add(
        "IllegalMoveError",
        py.get_type::<errors::IllegalMoveError>(),
    )?;
    m.add("SetupError", py.get_type::<errors::SetupError>())?;
    m.add(
        "UnknownRulesError",
        py.get_type::<errors::UnknownRulesError>(),
    )?;
    m.add("ReplyError", py.get_type::<errors::ReplyError>())?;
    m.add("TablesError", py.get_type::<errors::TablesError>())?;
    for class in errors::TablesClass::ALL {
        m.add(class.name(), class.class(py)?)?;
    }
    let names: Vec<&str> = awari::rules::Variant::ALL
        .iter()
        .map(|v| v.name())
        .collect();
    m.add("RULES", names)?;
    Ok(())
}
