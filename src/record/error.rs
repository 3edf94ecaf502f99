//! What is wrong with a game record or its SPRT's settings: one error type for the room, so
//! that a reader of records can tell a record it cannot read from one that breaks a rule.

use std::fmt;

/// An error of the record room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// A record's rule set that is not one.
    Variant(String),
    /// A field that does not read: its name (`start`, `opening`, `moves`), its text, why.
    Field {
        /// The field.
        field: &'static str,
        /// Its text.
        text: String,
        /// Why it does not read.
        why: String,
    },
    /// Not one `info` a move: the moves, the entries.
    Info(usize, usize),
    /// `plies` that does not count the moves.
    Plies(usize),
    /// SPRT settings that make no test.
    Sprt(Sprt),
}

/// What makes an SPRT's settings no test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sprt {
    /// An Elo bound outside -1000 to 1000.
    EloRange,
    /// `alpha` or `beta` outside 0..1.
    Rates,
    /// `elo1` not above `elo0`.
    Order,
    /// `alpha + beta` of 1 or more.
    Sum,
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Sprt::EloRange => "elo0 and elo1 must lie within -1000 to 1000",
            Sprt::Rates => "alpha and beta must lie within 0..1",
            Sprt::Order => "elo1 must be above elo0",
            Sprt::Sum => "alpha + beta must be below 1",
        })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Variant(v) => write!(f, "unknown variant {v:?}"),
            Error::Field { field, text, why } => write!(f, "{field} {text:?}: {why}"),
            Error::Info(moves, info) => write!(f, "{moves} moves but {info} info entries"),
            Error::Plies(plies) => write!(f, "plies {plies} does not count the moves"),
            Error::Sprt(why) => write!(f, "sprt: {why}"),
        }
    }
}

impl std::error::Error for Error {}
impl std::error::Error for Sprt {}

/// The commands still speak in words: an error of this room is its sentence.
impl From<Sprt> for String {
    fn from(e: Sprt) -> String {
        e.to_string()
    }
}
