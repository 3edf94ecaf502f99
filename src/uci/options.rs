//! The engine's options, declared once in [`OPTIONS`]: that one table drives both the `uci`
//! listing and `setoption`, so an option cannot be listed and not settable, or the reverse.

use crate::classic::opponent::Opponent;
use crate::rules::Variant;
use crate::search::eval::{Weights, WEIGHTS};
use crate::search::network::Network;
use crate::search::switches;
use std::fmt;
use std::sync::{Arc, Mutex};

/// Everything the options set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The rule set (`UCI_Variant`).
    pub variant: Variant,
    /// Seeds per house of the start position; 0 = the variant's own (`Seeds`).
    pub seeds: u32,
    /// Transposition table size in MiB (`Hash`).
    pub hash_mb: usize,
    /// Search threads (`Threads`).
    pub threads: usize,
    /// Lines the search reports, best first (`MultiPV`).
    pub multipv: usize,
    /// Milliseconds kept back from the clock for pipes and the GUI (`MoveOverhead`).
    pub move_overhead: u64,
    /// Whether the opening book chooses the moves it knows (`OwnBook`).
    pub own_book: bool,
    /// How far below the best book move (centi-seeds) a move may be and still be chosen, at
    /// random (`BookMargin`).
    pub book_margin: i32,
    /// Accepted for GUIs that send it; pondering is driven by `go ponder` (`Ponder`).
    pub ponder: bool,
    /// Evaluation weights set by option (`EvalA2` ... `EvalFree`), in [`WEIGHTS`]' order;
    /// `None` keeps the rule set's own ([`Settings::weights`]).
    pub weight_overrides: [Option<i32>; WEIGHTS.len()],
    /// Who chooses the moves (`Opponent`).
    pub opponent: Opponent,
    /// Seed for random tie breaks of `greedy`; 0 = none (`Randomness`).
    pub randomness: u64,
    /// `basic`'s memory file; empty = memory for this run only (`LearnFile`).
    pub learn_file: String,
    /// `evolved`'s weight file; empty = the shipped weights (`EvolvedWeights`).
    pub evolved_weights: String,
    /// `evolved`'s search depth (`EvolvedDepth`).
    pub evolved_depth: u32,
    /// Where the endgame tables are: [`DEFAULT_TABLES`] for the platform's data directory,
    /// empty for none (`TablesPath`).
    pub tables_path: String,
    /// Whether the search reads the paths files beside the tables (`PathValues`).
    pub path_values: bool,
    /// Whether oware positions are evaluated by the network (`UseNetwork`).
    pub use_network: bool,
    /// The network's weights file; empty = the shipped network (`EvalFile`).
    pub eval_file: String,
    /// The network `EvalFile` loaded, once the engine has read it (the shipped one until then).
    pub network: LoadedNetwork,
}

/// The network `EvalFile` loaded, shared by the protocol's two threads: the worker reads the
/// file, in its turn among the jobs, and sets it here; a search or an `eval` takes it when its
/// own turn comes, so it uses the file set before it without the reader ever waiting for one.
#[derive(Clone, Debug, Default)]
pub struct LoadedNetwork(Arc<Mutex<Option<&'static Network>>>);

impl LoadedNetwork {
    /// The network loaded; `None`: the shipped one.
    pub fn get(&self) -> Option<&'static Network> {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sets the network loaded (`None`: the shipped one).
    pub fn set(&self, network: Option<&'static Network>) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = network;
    }
}

impl PartialEq for LoadedNetwork {
    fn eq(&self, other: &LoadedNetwork) -> bool {
        self.get() == other.get()
    }
}

impl Eq for LoadedNetwork {}

/// An evaluation weight's default: the fitted value of the rule set in play.
pub const VARIANT_WEIGHT: &str = "<variant>";

/// `TablesPath`'s default: the directory `awari tables build` writes to when given none.
pub const DEFAULT_TABLES: &str = "<default>";

/// The most threads `Threads` allows, and with it every `--threads` of `awari bench` and
/// `awari tables`: beyond a machine's cores more threads only take turns, and a count far
/// beyond them (100,000) stalls the machine while they start.
pub const MAX_THREADS: i64 = 256;

/// The most lines `MultiPV` allows: a side has six houses, so no position has more moves.
pub const MAX_MULTIPV: i64 = 6;

impl Default for Settings {
    fn default() -> Settings {
        let mut settings = Settings {
            variant: Variant::Oware,
            seeds: 0,
            hash_mb: 0,
            threads: 0,
            multipv: 0,
            move_overhead: 0,
            own_book: false,
            book_margin: 0,
            ponder: false,
            weight_overrides: [None; WEIGHTS.len()],
            opponent: Opponent::Engine,
            randomness: 0,
            learn_file: String::new(),
            evolved_weights: String::new(),
            evolved_depth: 0,
            tables_path: String::new(),
            path_values: false,
            use_network: true,
            eval_file: String::new(),
            network: LoadedNetwork::default(),
        };
        for spec in OPTIONS {
            let value = match spec.kind {
                OptionType::Check { default } => Value::Bool(default),
                OptionType::Spin { default, .. } => Value::Int(default),
                OptionType::Combo { default, .. } | OptionType::Text { default } => {
                    Value::Text(default.to_string())
                }
                OptionType::Weight { .. } => Value::Text(VARIANT_WEIGHT.to_string()),
                OptionType::Button => continue,
            };
            (spec.apply)(&mut settings, &value);
        }
        settings
    }
}

impl Settings {
    /// The evaluation weights in force: the rule set's own, each overridden by its option
    /// where one was set.
    pub fn weights(&self) -> Weights {
        let mut weights = Weights::of(self.variant);
        for (w, value) in WEIGHTS.iter().zip(self.weight_overrides) {
            if let Some(v) = value {
                (w.set)(&mut weights, v);
            }
        }
        if self.use_network && self.variant == Variant::Oware {
            weights.network = Some(self.network.get().unwrap_or_else(Network::shipped));
        }
        weights
    }
}

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

fn int(v: &Value) -> i64 {
    match v {
        Value::Int(n) => *n,
        _ => 0,
    }
}

fn text(v: &Value) -> String {
    match v {
        Value::Text(t) => t.clone(),
        _ => String::new(),
    }
}

/// An evaluation weight option over `WEIGHTS[$index]`, whose option name it must carry
/// (a unit test checks): `<variant>` (the default) for the rule set's own value.
macro_rules! weight {
    ($name:literal, $index:literal, $help:literal) => {
        Spec {
            name: $name,
            kind: OptionType::Weight {
                min: -10_000,
                max: 10_000,
            },
            help: $help,
            apply: |s, v| {
                s.weight_overrides[$index] = match v {
                    Value::Int(n) => Some(*n as i32),
                    _ => None,
                };
                Effect::None
            },
        }
    };
}

// `UCI_Variant` lists `Variant::ALL` one by one: a seventh rule set must be added there too.
const _: () = assert!(Variant::ALL.len() == 6);

/// Every option, in the order `uci` lists them.
pub const OPTIONS: &[Spec] = &[
    Spec {
        name: "UCI_Variant",
        kind: OptionType::Combo {
            default: "oware",
            // The rule sets' own names, in `Variant::ALL`'s order.
            values: &[
                Variant::ALL[0].name(),
                Variant::ALL[1].name(),
                Variant::ALL[2].name(),
                Variant::ALL[3].name(),
                Variant::ALL[4].name(),
                Variant::ALL[5].name(),
            ],
        },
        help: "the rule set; changing it goes back to its start position",
        apply: |s, v| {
            if let Value::Text(t) = v {
                s.variant = t.parse().unwrap_or_default();
            }
            Effect::NewStart
        },
    },
    Spec {
        name: "Seeds",
        kind: OptionType::Spin {
            default: 0,
            min: 0,
            max: 21,
        },
        help: "seeds per house of the start position (0 = the variant's own: 4, ahl 3)",
        apply: |s, v| {
            s.seeds = int(v) as u32;
            Effect::NewStart
        },
    },
    Spec {
        name: "Hash",
        kind: OptionType::Spin {
            default: 16,
            min: 1,
            max: 32_768,
        },
        help: "transposition table size in MiB",
        apply: |s, v| {
            s.hash_mb = int(v) as usize;
            Effect::ResizeHash
        },
    },
    Spec {
        name: "Threads",
        kind: OptionType::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS,
        },
        help: "search threads, sharing the hash table (lazy SMP)",
        apply: |s, v| {
            s.threads = int(v) as usize;
            Effect::None
        },
    },
    Spec {
        name: "MultiPV",
        kind: OptionType::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTIPV,
        },
        help: "lines the search reports, best first, each with its score (1 = the best move's alone)",
        apply: |s, v| {
            s.multipv = int(v) as usize;
            Effect::None
        },
    },
    Spec {
        name: "Clear Hash",
        kind: OptionType::Button,
        help: "empty the transposition table",
        apply: |_, _| Effect::ClearHash,
    },
    Spec {
        name: "MoveOverhead",
        kind: OptionType::Spin {
            default: 10,
            min: 0,
            max: 10_000,
        },
        help: "milliseconds kept back from the clock for pipes and the GUI",
        apply: |s, v| {
            s.move_overhead = int(v) as u64;
            Effect::None
        },
    },
    Spec {
        name: "Ponder",
        kind: OptionType::Check { default: false },
        help: "accepted for GUIs; pondering happens on `go ponder`",
        apply: |s, v| {
            s.ponder = *v == Value::Bool(true);
            Effect::None
        },
    },
    Spec {
        name: "OwnBook",
        kind: OptionType::Check { default: false },
        help: "true = play the opening book's moves (oware; Aualé sends true); false = pure search",
        apply: |s, v| {
            s.own_book = *v == Value::Bool(true);
            Effect::None
        },
    },
    Spec {
        name: "BookMargin",
        kind: OptionType::Spin {
            default: 10,
            min: 0,
            max: 10_000,
        },
        help: "book moves within this many centi-seeds of the best are chosen at random; 0 = the best",
        apply: |s, v| {
            s.book_margin = int(v) as i32;
            Effect::None
        },
    },
    weight!(
        "EvalA2",
        0,
        "score per opponent house the side to move can capture 2 seeds from (oware, awari)"
    ),
    weight!(
        "EvalA3",
        1,
        "score per opponent house the side to move can capture 3 seeds from (oware, awari)"
    ),
    weight!(
        "EvalB2",
        2,
        "penalty per own house the opponent could capture 2 seeds from (oware, awari)"
    ),
    weight!(
        "EvalB3",
        3,
        "penalty per own house the opponent could capture 3 seeds from (oware, awari)"
    ),
    weight!(
        "EvalRow",
        4,
        "score per seed on the own row minus the opponent's (oware, kalah, ayoayo)"
    ),
    weight!(
        "EvalMobility",
        5,
        "score per own house holding seeds minus the opponent's"
    ),
    weight!(
        "EvalKroo",
        6,
        "score per own house that laps the board minus the opponent's (not ayoayo)"
    ),
    weight!("EvalTempo", 7, "score for being the side to move"),
    weight!(
        "EvalCapture",
        8,
        "score per seed of the largest capture the side to move has (kalah, ahl)"
    ),
    weight!(
        "EvalThreat",
        9,
        "penalty per seed of the largest capture the opponent would have (kalah, ahl)"
    ),
    weight!(
        "EvalFree",
        10,
        "score per own move ending in the own store minus the opponent's (kalah, ahl)"
    ),
    Spec {
        name: "Opponent",
        kind: OptionType::Combo {
            default: "engine",
            values: &Opponent::NAMES,
        },
        help: "who chooses the moves: the search, or a classic opponent (README)",
        apply: |s, v| {
            s.opponent = match v {
                Value::Text(t) => Opponent::from_name(t).unwrap_or_default(),
                _ => Opponent::Engine,
            };
            Effect::None
        },
    },
    Spec {
        name: "Randomness",
        kind: OptionType::Spin {
            default: 0,
            min: 0,
            max: 2_147_483_647,
        },
        help: "greedy: 0 = ties go to the first house; otherwise the seed of random tie breaks",
        apply: |s, v| {
            s.randomness = int(v) as u64;
            Effect::None
        },
    },
    Spec {
        name: "LearnFile",
        kind: OptionType::Text { default: "" },
        help: "basic: its memory of lost games; empty = remembered for this run only",
        apply: |s, v| {
            s.learn_file = text(v);
            Effect::LoadMemory
        },
    },
    Spec {
        name: "EvolvedWeights",
        kind: OptionType::Text { default: "" },
        help: "evolved: a file of six weights; empty = the shipped ones (tournament/)",
        apply: |s, v| {
            s.evolved_weights = text(v);
            Effect::LoadWeights
        },
    },
    Spec {
        name: "EvolvedDepth",
        kind: OptionType::Spin {
            default: 7,
            min: 1,
            max: 30,
        },
        help: "evolved: its minimax depth (the paper's is 7)",
        apply: |s, v| {
            s.evolved_depth = int(v) as u32;
            Effect::None
        },
    },
    Spec {
        name: "TablesPath",
        kind: OptionType::Text {
            default: DEFAULT_TABLES,
        },
        help: "endgame tables (awari tables build): a directory; <default> = the platform's data directory, empty = none",
        apply: |s, v| {
            s.tables_path = text(v);
            Effect::OpenTables
        },
    },
    Spec {
        name: "UseNetwork",
        kind: OptionType::Check { default: true },
        help: "oware: evaluate with the network (EvalFile, doc/network.md) instead of the Eval... terms",
        apply: |s, v| {
            s.use_network = *v == Value::Bool(true);
            Effect::None
        },
    },
    Spec {
        name: "EvalFile",
        kind: OptionType::Text { default: "" },
        help: "the network's weights file (awari train); empty = the shipped network",
        apply: |s, v| {
            s.eval_file = text(v);
            Effect::LoadNetwork
        },
    },
    Spec {
        name: "PathValues",
        kind: OptionType::Check { default: false },
        help: "search with the paths files of awari tables paths: their bounds in the tree, their point values at the horizon (off: SPRT matches found no gain, tournament/README.md)",
        apply: |s, v| {
            s.path_values = *v == Value::Bool(true);
            Effect::None
        },
    },
    Spec {
        name: "Quiescence",
        kind: OptionType::Check {
            default: switches::QUIESCENCE_DEFAULT,
        },
        help: "search captures (kalah, ahl: and extra moves) on at the horizon until the position is quiet (off: its SPRT leant to a loss, tournament/README.md)",
        apply: |_, v| {
            switches::set_quiescence(*v == Value::Bool(true));
            Effect::None
        },
    },
    Spec {
        name: "Futility",
        kind: OptionType::Check {
            default: switches::FUTILITY_DEFAULT,
        },
        help: "near the horizon, cut off nodes far above beta and leave out quiet moves far below alpha (on: +56 Elo in its SPRT, tournament/README.md)",
        apply: |_, v| {
            switches::set_futility(*v == Value::Bool(true));
            Effect::None
        },
    },
    Spec {
        name: "Extensions",
        kind: OptionType::Check {
            default: switches::EXTENSIONS_DEFAULT,
        },
        help: "search a ply deeper, twice on a line at most, a move near the horizon that leaves the opponent 2 seeds or fewer in its row",
        apply: |_, v| {
            switches::set_extensions(*v == Value::Bool(true));
            Effect::None
        },
    },
];

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

    /// The command line (`awari play --opponent`, through clap) and the option accept the same
    /// names, written once in [`Opponent::name`].
    #[test]
    fn opponent_names_are_the_command_lines() {
        use clap::ValueEnum;
        for o in Opponent::ALL {
            let clap = o.to_possible_value().expect("every opponent is a value");
            assert_eq!(clap.get_name(), o.name());
            assert_eq!(Opponent::from_name(o.name()), Some(o));
        }
        assert_eq!(Opponent::value_variants(), &Opponent::ALL);
        assert_eq!(Opponent::from_name("Greedy"), None);
    }

    #[test]
    fn defaults_come_from_the_table() {
        let mut s = Settings::default();
        assert_eq!(s.variant, Variant::Oware);
        assert_eq!(s.hash_mb, 16);
        assert_eq!(s.move_overhead, 10);
        assert_eq!(s.multipv, 1);
        assert_eq!(s.weights(), Weights::engine(Variant::Oware));
        assert!(
            s.weights().network.is_some(),
            "oware plays with its network"
        );
        set(&mut s, "UseNetwork", Some("false")).unwrap();
        assert_eq!(s.weights(), Weights::OWARE, "the terms alone");
    }

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
        assert_eq!(s.weights(), Weights::engine(Variant::Oware));
        let refused = set(&mut s, "EvalA2", Some("10001")).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "option EvalA2: '10001' is not an integer from -10000 to 10000 or <variant>"
        );
    }

    /// Each weight option sets the weight `WEIGHTS` names it for, and lists as a string
    /// defaulting to the rule set's own.
    #[test]
    fn weight_options_match_the_weights_table() {
        for (i, w) in WEIGHTS.iter().enumerate() {
            let spec = find(w.option).expect("an option per weight");
            let mut s = Settings::default();
            set(&mut s, w.option, Some("4321")).unwrap();
            let mut expected = Weights::engine(Variant::Oware);
            (w.set)(&mut expected, 4321);
            assert_eq!(s.weights(), expected, "{}", w.option);
            assert_eq!(s.weight_overrides[i], Some(4321));
            assert_eq!(
                uci_line(spec),
                format!("option name {} type string default <variant>", w.option)
            );
        }
    }

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
