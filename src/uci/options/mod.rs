//! The engine's options, declared once in [`OPTIONS`]: that one table drives both the `uci`
//! listing and `setoption`, so an option cannot be listed and not settable, or the reverse.
//!
//! This file holds the kinds an option can be, and how `uci` lists each; `table.rs` is the
//! table itself, `settings.rs` what the options set (and so their defaults, read from the
//! table), `setoption.rs` the checking of a value against its option before it is applied.

mod setoption;
mod settings;
mod table;

pub use setoption::{find, set, OptionError};
pub use settings::{LoadedNetwork, Settings};
pub use table::{DEFAULT_TABLES, MAX_MULTIPV, MAX_THREADS, OPTIONS};

/// An evaluation weight's default: the fitted value of the rule set in play.
pub const VARIANT_WEIGHT: &str = "<variant>";

/// An option's type, with its default and range, as `uci` lists it.
#[derive(Clone, Copy, Debug)]
pub enum OptionType {
    /// `true` or `false`.
    Check {
        /// The default.
        default: bool,
    },
    /// An integer in `min..=max`.
    Spin {
        /// The default.
        default: i64,
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// One of a list of words.
    Combo {
        /// The default.
        default: &'static str,
        /// The allowed values.
        values: &'static [&'static str],
    },
    /// An action with no value.
    Button,
    /// An evaluation weight: an integer in `min..=max`, or [`VARIANT_WEIGHT`] for the rule
    /// set's own. Listed as a string, since its default differs by rule set.
    Weight {
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// Any text (a file name); empty by default is shown as `<empty>`.
    Text {
        /// The default.
        default: &'static str,
    },
}

/// A checked option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// For a check.
    Bool(bool),
    /// For a spin.
    Int(i64),
    /// For a combo (in the spelling the table gives).
    Text(String),
    /// For a button.
    Press,
}

/// What the engine must do after an option changed, beyond storing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing more.
    None,
    /// Resize the transposition table.
    ResizeHash,
    /// Load `basic`'s memory from the new file.
    LoadMemory,
    /// Load `evolved`'s weights from the new file.
    LoadWeights,
    /// Empty the transposition table.
    ClearHash,
    /// The rule set or start changed: back to the start position.
    NewStart,
    /// Open the endgame tables of the new path.
    OpenTables,
    /// Read the network of the new `EvalFile` (refused, keeping the current one, if it does
    /// not read), on the worker.
    LoadNetwork,
}

/// One option.
pub struct Spec {
    /// Its name (matched without regard to case).
    pub name: &'static str,
    /// Its type, default and range.
    pub kind: OptionType,
    /// What it is for (shown by `help`).
    pub help: &'static str,
    /// Stores a checked value.
    pub apply: fn(&mut Settings, &Value) -> Effect,
}

/// The `option ...` line `uci` prints for `spec`.
pub fn uci_line(spec: &Spec) -> String {
    let name = spec.name;
    match spec.kind {
        OptionType::Check { default } => format!("option name {name} type check default {default}"),
        OptionType::Spin { default, min, max } => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        OptionType::Combo { default, values } => {
            let vars: String = values.iter().map(|v| format!(" var {v}")).collect();
            format!("option name {name} type combo default {default}{vars}")
        }
        OptionType::Button => format!("option name {name} type button"),
        OptionType::Weight { .. } => {
            format!("option name {name} type string default {VARIANT_WEIGHT}")
        }
        OptionType::Text { default } => {
            let shown = if default.is_empty() {
                "<empty>"
            } else {
                default
            };
            format!("option name {name} type string default {shown}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_lines() {
        let lines: Vec<String> = OPTIONS.iter().map(uci_line).collect();
        assert_eq!(
            lines[0],
            "option name UCI_Variant type combo default oware var oware var awari var ahl var kalah \
             var ayoayo var kalah-empty"
        );
        assert!(
            lines.contains(&"option name Hash type spin default 16 min 1 max 32768".to_string())
        );
        assert!(lines.contains(&"option name Clear Hash type button".to_string()));
    }
}
