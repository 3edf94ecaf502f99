//! The search's optional features, each one engine option (`Quiescence`, `Futility`,
//! `Extensions`), so that
//! an SPRT can play one binary with a feature on against itself with it off.
//!
//! They are process-wide flags rather than fields threaded through every caller of the
//! search: the options' table sets them, and each search reads them once, when it starts
//! ([`Switches::current`]), so a change applies from the next `go`. With every switch off the
//! search is exactly the one without the features. A feature is on by default only once an
//! SPRT has accepted it: `Futility` is on, `Quiescence` off (its SPRT leant to a loss), and
//! `Extensions` off until its SPRT decides (tournament/README.md has the matches;
//! doc/figures.md the node counts of `awari bench` with these defaults).

use std::sync::atomic::{AtomicBool, Ordering};

/// `Quiescence`'s default.
pub const QUIESCENCE_DEFAULT: bool = false;
/// `Futility`'s default.
pub const FUTILITY_DEFAULT: bool = true;
/// `Extensions`' default.
pub const EXTENSIONS_DEFAULT: bool = false;

static QUIESCENCE: AtomicBool = AtomicBool::new(QUIESCENCE_DEFAULT);
static FUTILITY: AtomicBool = AtomicBool::new(FUTILITY_DEFAULT);
static EXTENSIONS: AtomicBool = AtomicBool::new(EXTENSIONS_DEFAULT);

/// The features one search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Switches {
    /// At the horizon, captures (and in kalah and ahl extra moves) are searched on until the
    /// position is quiet, with the evaluation as the stand-pat score.
    pub quiescence: bool,
    /// Near the horizon, nodes whose evaluation is far above beta are cut off at once, and
    /// quiet moves of nodes far below alpha are not searched.
    pub futility: bool,
    /// A move that leaves the side to move next with few seeds in its row (starving it, or
    /// setting up a grand slam) is searched a ply deeper, a few times on a line at most.
    pub extensions: bool,
}

impl Switches {
    /// Every feature off: the search as it is without them.
    pub const OFF: Switches = Switches {
        quiescence: false,
        futility: false,
        extensions: false,
    };

    /// The switches as the options last set them.
    pub fn current() -> Switches {
        Switches {
            quiescence: QUIESCENCE.load(Ordering::Relaxed),
            futility: FUTILITY.load(Ordering::Relaxed),
            extensions: EXTENSIONS.load(Ordering::Relaxed),
        }
    }
}

/// Sets `Quiescence` for the searches that start from now on.
pub fn set_quiescence(on: bool) {
    QUIESCENCE.store(on, Ordering::Relaxed);
}

/// Sets `Futility` for the searches that start from now on.
pub fn set_futility(on: bool) {
    FUTILITY.store(on, Ordering::Relaxed);
}

/// Sets `Extensions` for the searches that start from now on.
pub fn set_extensions(on: bool) {
    EXTENSIONS.store(on, Ordering::Relaxed);
}
