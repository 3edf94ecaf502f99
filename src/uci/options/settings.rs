//! What the options set: [`Settings`], whose defaults are the [`OPTIONS`] table's, applied
//! one by one as `setoption` would, so that no default is written twice.

use super::{OptionType, Value, OPTIONS, VARIANT_WEIGHT};
use crate::classic::opponent::Opponent;
use crate::rules::Variant;
use crate::search::eval::{Evaluator, Weights, WEIGHTS};
use crate::search::network::Network;
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
    /// Where the endgame tables are: [`DEFAULT_TABLES`](super::DEFAULT_TABLES) for the platform's data directory,
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
        weights
    }

    /// The evaluation in force: [`Settings::weights`], and in oware with `UseNetwork` on the
    /// network `EvalFile` loaded (the shipped one until then).
    pub fn evaluator(&self) -> Evaluator {
        let network = self.use_network && self.variant == Variant::Oware;
        Evaluator {
            weights: self.weights(),
            network: network.then(|| self.network.get().unwrap_or_else(Network::shipped)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::set;
    use super::*;

    #[test]
    fn defaults_come_from_the_table() {
        let mut s = Settings::default();
        assert_eq!(s.variant, Variant::Oware);
        assert_eq!(s.hash_mb, 16);
        assert_eq!(s.move_overhead, 10);
        assert_eq!(s.multipv, 1);
        assert_eq!(s.evaluator(), Evaluator::engine(Variant::Oware));
        assert!(
            s.evaluator().network.is_some(),
            "oware plays with its network"
        );
        set(&mut s, "UseNetwork", Some("false")).unwrap();
        assert_eq!(
            s.evaluator(),
            Evaluator::terms(Variant::Oware),
            "the terms alone"
        );
    }
}
