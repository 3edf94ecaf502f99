//! The position notation of the Aualé GUI and the Aalina engine, and this project's two
//! extensions:
//!
//! ```text
//! 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S          houses A..F a..f, South's store, North's store, side
//! 3-3-3-0-4-4-3-3-3-3-3-3-1-0-S+         ahl: `+` after the side = its bonus move is pending
//! 0-1-0-3-2-4-1-0-0-0-5-0-8-24-S-120     awari: a 16th field, the plies played (move limit)
//! ```
//!
//! Oware positions print exactly as Aualé prints them. Every malformed text gives a
//! [`NotationError`] naming the field, its column and what is wrong; nothing panics.

use super::board::{Board, SetupError};
use super::side::Side;
use super::variant::Variant;
use std::fmt;

/// Number of fields without and with the ply count.
const FIELDS: usize = 15;
const FIELDS_WITH_PLY: usize = 16;

/// What is wrong with a position's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationErrorKind {
    /// Not 15 fields (16 with awari's ply count).
    FieldCount(usize),
    /// A field with nothing in it.
    EmptyField,
    /// A count that is not a plain decimal number.
    NotANumber(String),
    /// A house or store holding more than 255 seeds.
    TooManyInOne(String),
    /// A side other than `S` or `N` (with an optional `+` in ahl).
    BadSide(String),
    /// A ply count over 65535.
    PlyTooLarge(String),
    /// A ply count in a variant whose rules do not use one.
    PlyNotInVariant(Variant),
    /// The fields are fine but do not make a position (too many seeds, misplaced bonus mark).
    Setup(SetupError),
}

/// A malformed position: what is wrong and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    /// 1-based field number (1-12 houses `A`-`f`, 13-14 stores, 15 side, 16 ply), or 0 when
    /// the text as a whole is wrong.
    pub field: usize,
    /// 1-based character column where the field starts (1 when `field` is 0).
    pub column: usize,
    /// What is wrong.
    pub kind: NotationErrorKind,
}

/// The name of field `field` (1-based), for messages.
fn field_name(field: usize) -> String {
    match field {
        1..=6 => format!("house {}", (b'A' + field as u8 - 1) as char),
        7..=12 => format!("house {}", (b'a' + field as u8 - 7) as char),
        13 => "South's store".to_string(),
        14 => "North's store".to_string(),
        15 => "side to move".to_string(),
        _ => "ply count".to_string(),
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use NotationErrorKind::*;
        if self.field > 0 {
            write!(
                f,
                "field {} ({}) at column {}: ",
                self.field,
                field_name(self.field),
                self.column
            )?;
        } else {
            f.write_str("position: ")?;
        }
        match &self.kind {
            FieldCount(n) => write!(
                f,
                "expected {FIELDS} fields separated by `-` (houses A-F a-f, two stores, side), \
                 found {n}"
            ),
            EmptyField => f.write_str("empty; expected a number of seeds"),
            NotANumber(s) => write!(f, "`{s}` is not a number of seeds"),
            TooManyInOne(s) => write!(f, "{s} seeds; a house or store holds at most 255"),
            BadSide(s) => write!(f, "`{s}` is not a side; expected `S` or `N`"),
            PlyTooLarge(s) => write!(f, "{s} plies; at most 65535"),
            PlyNotInVariant(v) => write!(
                f,
                "a ply count is part of the notation only in awari (its move limit), not in {v}"
            ),
            Setup(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for NotationError {}

/// A decimal number of at most `max`, or what is wrong with it.
fn number(
    text: &str,
    max: u64,
    too_large: fn(String) -> NotationErrorKind,
) -> Result<u64, NotationErrorKind> {
    if text.is_empty() {
        return Err(NotationErrorKind::EmptyField);
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NotationErrorKind::NotANumber(text.to_string()));
    }
    // Saturating, so a thousand digits are "too large", not an overflow.
    let value = text.bytes().fold(0u64, |acc, b| {
        acc.saturating_mul(10).saturating_add(u64::from(b - b'0'))
    });
    if value > max {
        return Err(too_large(text.to_string()));
    }
    Ok(value)
}

impl Board {
    /// Parses a position of `variant` from its notation. Surrounding whitespace is ignored.
    pub fn from_notation(variant: Variant, text: &str) -> Result<Board, NotationError> {
        let text = text.trim();
        // (1-based field number, 1-based column, text)
        let mut fields = Vec::with_capacity(FIELDS_WITH_PLY);
        let mut column = 1;
        for (i, part) in text.split('-').enumerate() {
            fields.push((i + 1, column, part));
            column += part.chars().count() + 1;
        }
        if fields.len() != FIELDS && fields.len() != FIELDS_WITH_PLY {
            return Err(NotationError {
                field: 0,
                column: 1,
                kind: NotationErrorKind::FieldCount(fields.len()),
            });
        }
        let at = |&(field, column, _): &(usize, usize, &str), kind| NotationError {
            field,
            column,
            kind,
        };
        let mut counts = [0u8; 14];
        for (slot, f) in counts.iter_mut().zip(&fields) {
            *slot = number(f.2, 255, NotationErrorKind::TooManyInOne).map_err(|k| at(f, k))? as u8;
        }
        let side_field = &fields[14];
        let (side, bonus) = match side_field.2 {
            "S" => (Side::South, false),
            "N" => (Side::North, false),
            "S+" => (Side::South, true),
            "N+" => (Side::North, true),
            other => {
                return Err(at(
                    side_field,
                    NotationErrorKind::BadSide(other.to_string()),
                ))
            }
        };
        let ply = match fields.get(15) {
            None => 0,
            Some(f) if variant.ply_limit().is_none() => {
                return Err(at(f, NotationErrorKind::PlyNotInVariant(variant)))
            }
            Some(f) => number(f.2, u64::from(u16::MAX), NotationErrorKind::PlyTooLarge)
                .map_err(|k| at(f, k))? as u16,
        };
        let mut houses = [0u8; 12];
        houses.copy_from_slice(&counts[..12]);
        Board::from_parts(variant, houses, [counts[12], counts[13]], side, bonus, ply).map_err(
            |e| match e {
                SetupError::BonusNotInVariant(_) => at(side_field, NotationErrorKind::Setup(e)),
                _ => NotationError {
                    field: 0,
                    column: 1,
                    kind: NotationErrorKind::Setup(e),
                },
            },
        )
    }
}

impl fmt::Display for Board {
    /// The notation, e.g. `4-4-4-4-4-4-4-4-4-4-4-4-0-0-S`; the ply only in awari, and only
    /// once play has started (so every start position prints as Aualé prints it).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for n in self.houses() {
            write!(f, "{n}-")?;
        }
        let [s, n] = self.stores();
        write!(f, "{s}-{n}-{}", self.side_to_move().letter())?;
        if self.bonus_pending() {
            f.write_str("+")?;
        }
        if self.ply() > 0 {
            write!(f, "-{}", self.ply())?;
        }
        Ok(())
    }
}
