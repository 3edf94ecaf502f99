//! `setoption` checked against the table: the option found whatever its case and spacing,
//! its value parsed and checked against the option's kind, and only then applied; a refused
//! value changes nothing.

use super::{Effect, OptionType, Settings, Spec, Value, OPTIONS, VARIANT_WEIGHT};
use std::fmt;

/// Why `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option of that name.
    Unknown(String),
    /// A value the option's type does not allow.
    BadValue {
        /// The option.
        name: &'static str,
        /// The value given.
        value: String,
        /// What would be allowed.
        expected: String,
    },
    /// A check, spin or combo without `value`.
    MissingValue(&'static str),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(name) => {
                let names: Vec<&str> = OPTIONS.iter().map(|s| s.name).collect();
                write!(
                    f,
                    "no option named '{name}' (options: {})",
                    names.join(", ")
                )
            }
            OptionError::BadValue {
                name,
                value,
                expected,
            } => write!(f, "option {name}: '{value}' is not {expected}"),
            OptionError::MissingValue(name) => write!(f, "option {name} needs 'value <v>'"),
        }
    }
}

impl std::error::Error for OptionError {}

/// The option named `name`, whatever its case and spacing.
pub fn find(name: &str) -> Option<&'static Spec> {
    let wanted: Vec<String> = name.split_whitespace().map(str::to_lowercase).collect();
    OPTIONS.iter().find(|spec| {
        spec.name
            .split_whitespace()
            .map(str::to_lowercase)
            .eq(wanted.iter().cloned())
    })
}

/// Checks a `setoption` against the table and applies it to `settings`. On error nothing
/// changes.
pub fn set(
    settings: &mut Settings,
    name: &str,
    value: Option<&str>,
) -> Result<Effect, OptionError> {
    let spec = find(name).ok_or_else(|| OptionError::Unknown(name.trim().to_string()))?;
    let value = match (spec.kind, value.map(str::trim)) {
        (OptionType::Button, _) => Value::Press,
        (OptionType::Text { .. }, v) => {
            let v = v.unwrap_or("");
            Value::Text(if v == "<empty>" {
                String::new()
            } else {
                v.to_string()
            })
        }
        (_, None) => return Err(OptionError::MissingValue(spec.name)),
        (OptionType::Check { .. }, Some(v)) => match v.to_ascii_lowercase().as_str() {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => return Err(bad(spec, v, "true or false".to_string())),
        },
        (OptionType::Spin { min, max, .. }, Some(v)) => match v.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Value::Int(n),
            _ => return Err(bad(spec, v, format!("an integer from {min} to {max}"))),
        },
        (OptionType::Weight { min, max }, Some(v)) => match v.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Value::Int(n),
            _ if v.eq_ignore_ascii_case(VARIANT_WEIGHT) => Value::Text(VARIANT_WEIGHT.into()),
            _ => {
                let expected = format!("an integer from {min} to {max} or {VARIANT_WEIGHT}");
                return Err(bad(spec, v, expected));
            }
        },
        (OptionType::Combo { values, .. }, Some(v)) => {
            match values.iter().find(|x| x.eq_ignore_ascii_case(v)) {
                Some(x) => Value::Text(x.to_string()),
                None => return Err(bad(spec, v, format!("one of {}", values.join(", ")))),
            }
        }
    };
    Ok((spec.apply)(settings, &value))
}

fn bad(spec: &'static Spec, value: &str, expected: String) -> OptionError {
    OptionError::BadValue {
        name: spec.name,
        value: value.to_string(),
        expected,
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;
    use crate::search::eval::Weights;

    #[test]
    fn set_table() {
        // (name, value, Ok(effect) or error text)
        let rows: &[(&str, Option<&str>, Result<Effect, &str>)] = &[
            ("Hash", Some("64"), Ok(Effect::ResizeHash)),
            ("hash", Some(" 1 "), Ok(Effect::ResizeHash)),
            (
                "Hash",
                Some("0"),
                Err("option Hash: '0' is not an integer from 1 to 32768"),
            ),
            (
                "Hash",
                Some("99999999999999999999"),
                Err("option Hash: '99999999999999999999' is not an integer from 1 to 32768"),
            ),
            ("Hash", None, Err("option Hash needs 'value <v>'")),
            ("UCI_Variant", Some("KALAH"), Ok(Effect::NewStart)),
            (
                "UCI_Variant",
                Some("chess"),
                Err(
                    "option UCI_Variant: 'chess' is not one of oware, awari, ahl, kalah, ayoayo, \
                     kalah-empty",
                ),
            ),
            ("OwnBook", Some("false"), Ok(Effect::None)),
            (
                "OwnBook",
                Some("yes"),
                Err("option OwnBook: 'yes' is not true or false"),
            ),
            ("clear   hash", None, Ok(Effect::ClearHash)),
            ("Threads", Some("4"), Ok(Effect::None)),
            (
                "Threads",
                Some("0"),
                Err("option Threads: '0' is not an integer from 1 to 256"),
            ),
            ("MultiPV", Some("6"), Ok(Effect::None)),
            (
                "multipv",
                Some("7"),
                Err("option MultiPV: '7' is not an integer from 1 to 6"),
            ),
        ];
        for (name, value, expected) in rows {
            let mut s = Settings::default();
            let before = s.clone();
            match (set(&mut s, name, *value), expected) {
                (Ok(effect), Ok(e)) => assert_eq!(effect, *e, "{name}"),
                (Err(error), Err(text)) => {
                    assert!(error.to_string().starts_with(text), "{name}: {error}");
                    assert_eq!(s, before, "a refused option changes nothing");
                }
                (got, _) => panic!("{name} {value:?}: got {got:?}, expected {expected:?}"),
            }
        }
        let mut s = Settings::default();
        set(&mut s, "UCI_Variant", Some("KALAH")).unwrap();
        assert_eq!(s.variant, Variant::Kalah);
        assert_eq!(s.weights(), Weights::KALAH);
        set(&mut s, "EvalA2", Some("-7")).unwrap();
        assert_eq!(s.weights().a2, -7);
        set(&mut s, "UCI_Variant", Some("oware")).unwrap();
        assert_eq!(
            s.weights().a2,
            -7,
            "an option overrides every rule set's weight"
        );
        assert_eq!(s.weights().b2, Weights::OWARE.b2);
        set(&mut s, "EvalA2", Some("<VARIANT>")).unwrap();
        assert_eq!(s.weights(), Weights::OWARE);
        let refused = set(&mut s, "EvalA2", Some("10001")).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "option EvalA2: '10001' is not an integer from -10000 to 10000 or <variant>"
        );
    }
}
