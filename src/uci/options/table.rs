//! The one table of options, [`OPTIONS`], in the order `uci` lists them: each option's
//! name, kind (default and range), help, and what storing a checked value does.

use super::{Effect, OptionType, Spec, Value};
use crate::classic::opponent::Opponent;
use crate::rules::Variant;
use crate::search::switches;

/// `TablesPath`'s default: the directory `awari tables build` writes to when given none.
pub const DEFAULT_TABLES: &str = "<default>";

/// The most threads `Threads` allows, and with it every `--threads` of `awari bench` and
/// `awari tables`: beyond a machine's cores more threads only take turns, and a count far
/// beyond them (100,000) stalls the machine while they start.
pub const MAX_THREADS: i64 = 256;

/// The most lines `MultiPV` allows: a side has six houses, so no position has more moves.
pub const MAX_MULTIPV: i64 = 6;

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

#[cfg(test)]
mod tests {
    use super::super::{find, set, uci_line, Settings};
    use super::*;
    use crate::search::eval::{Weights, WEIGHTS};

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

    /// Each weight option sets the weight `WEIGHTS` names it for, and lists as a string
    /// defaulting to the rule set's own.
    #[test]
    fn weight_options_match_the_weights_table() {
        for (i, w) in WEIGHTS.iter().enumerate() {
            let spec = find(w.option).expect("an option per weight");
            let mut s = Settings::default();
            set(&mut s, w.option, Some("4321")).unwrap();
            let mut expected = Weights::OWARE;
            (w.set)(&mut expected, 4321);
            assert_eq!(s.weights(), expected, "{}", w.option);
            assert_eq!(s.weight_overrides[i], Some(4321));
            assert_eq!(
                uci_line(spec),
                format!("option name {} type string default <variant>", w.option)
            );
        }
    }
}
