//! `read_info`, `read_bestmove`, `read_option`: an engine's lines read by the crate's own reader
//! ([`awari::client::reply::Reply`]), the one the referee and the page (`awari serve`) use, so
//! that the Python client reads every line exactly as they do. `tests/data/replies.json` holds
//! the cases that both this binding (`python/tests/test_reply.py`) and the reader run.

use crate::errors;
use awari::client::reply::{EngineOption, Info, Reply, ScoreBound};
use awari::rules::parse_move_list;
use awari::said::EngineScore;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The fields of an `info` line, as a dict with a key for each field the line has: `depth`,
/// `seldepth`, `multipv`, `nodes`, `nps`, `time` (milliseconds), `hashfull`, `tbhits` (ints),
/// `score` (`("cp", n)` or `("mate", n)`), `lowerbound` or `upperbound` (True, when the score
/// is only a bound), `tables` (True, when the score is marked as the endgame tables' proven
/// result: `score cp 800 tables`), `pv`, `currmove` (the move as written) and `string` (the rest of the line
/// after the word `string`). A value that is not a number of its kind is left out.
///
/// `pv` is the variation read as the rules read a move list (`FfEa` or `F f E a`): a list of
/// house letters, `[]` when `pv` names no move. A variation with a word that is not a move
/// (`0000` among them) is left out whole, as a number that does not parse is: the page reads
/// a variation the same way and shows none for it. Its legality is not checked here (there is
/// no position); `Board.push_moves` checks it. `ReplyError` (a `ValueError`)
/// when `line` is not an `info` line.
#[pyfunction]
pub fn read_info<'py>(py: Python<'py>, line: &str) -> PyResult<Bound<'py, PyDict>> {
    let Reply::Info(info) = Reply::parse(line) else {
        return Err(errors::not_a(py, line, "info"));
    };
    let Info {
        depth,
        seldepth,
        time,
        score,
        bound,
        tables,
        multipv,
        nodes,
        nps,
        hashfull,
        tbhits,
        currmove,
        pv,
        string,
    } = info;
    let dict = PyDict::new(py);
    let small = [
        ("depth", depth),
        ("seldepth", seldepth),
        ("multipv", multipv),
        ("hashfull", hashfull),
    ];
    for (key, value) in small {
        if let Some(n) = value {
            dict.set_item(key, n)?;
        }
    }
    for (key, value) in [
        ("nodes", nodes),
        ("nps", nps),
        ("time", time),
        ("tbhits", tbhits),
    ] {
        if let Some(n) = value {
            dict.set_item(key, n)?;
        }
    }
    match score {
        Some(EngineScore::Cp(n)) => dict.set_item("score", ("cp", n))?,
        Some(EngineScore::Mate(n)) => dict.set_item("score", ("mate", n))?,
        None => {}
    }
    match bound {
        Some(ScoreBound::Lower) => dict.set_item("lowerbound", true)?,
        Some(ScoreBound::Upper) => dict.set_item("upperbound", true)?,
        None => {}
    }
    if tables {
        dict.set_item("tables", true)?;
    }
    if let Some(Ok(moves)) = pv.map(parse_move_list) {
        let letters: Vec<String> = moves.iter().map(|m| m.to_char().to_string()).collect();
        dict.set_item("pv", letters)?;
    }
    if let Some(m) = currmove {
        dict.set_item("currmove", m)?;
    }
    if let Some(text) = string {
        dict.set_item("string", text)?;
    }
    Ok(dict)
}

/// A `bestmove` line's move as written (`""` when it names none; `0000` when the engine says
/// the game is over) and its ponder move as written (None when it names none). The caller
/// checks the move against the position, as the referee does. `ReplyError` (a `ValueError`)
/// when `line` is not a `bestmove` line.
#[pyfunction]
pub fn read_bestmove(py: Python<'_>, line: &str) -> PyResult<(String, Option<String>)> {
    match Reply::parse(line) {
        Reply::BestMove(mv, ponder) => Ok((mv.to_string(), ponder.map(str::to_string))),
        _ => Err(errors::not_a(py, line, "bestmove")),
    }
}

/// An `option` line as a dict: `name`, `type` (None when the line names none), `default` (as
/// written, None when none), `min` and `max` (ints, None when absent or not integers) and
/// `var` (a list, each as written). None when `line` is not an `option` line naming an option.
#[pyfunction]
pub fn read_option<'py>(py: Python<'py>, line: &str) -> PyResult<Option<Bound<'py, PyDict>>> {
    let Reply::Option(EngineOption {
        name,
        kind,
        default,
        min,
        max,
        vars,
    }) = Reply::parse(line)
    else {
        return Ok(None);
    };
    let dict = PyDict::new(py);
    dict.set_item("name", name)?;
    dict.set_item("type", kind)?;
    dict.set_item("default", default)?;
    dict.set_item("min", min)?;
    dict.set_item("max", max)?;
    dict.set_item("var", vars)?;
    Ok(Some(dict))
}
