//! Solving one layer: the values of every position with `n` seeds on the board, from the
//! values of the smaller layers (a capture leaves fewer seeds) and of the layer itself (moves
//! without capture keep them all).
//!
//! The values are bounds, `lo <= hi`, on the seeds the side to move ends the game with; `lo`
//! is what it can force without ever counting on a repetition, `hi` what the opponent cannot
//! stop it from reaching on the same terms (see [`Value`](super::Value) and `protocol.md`, section 8). They
//! are two fixed points, reached by passes over the layer until nothing changes:
//! 1. The safe core, from above. `s(X)`: the largest `k` such that the side to move at `X` can
//!    keep every position from here on at `k` or more seeds of its own row, unless the game
//!    leaves the layer through an exit worth `k` or more to it; `t(X)`: the same for the side
//!    not to move at `X`. Inside such a core a repetition can only happen at a position
//!    worth `k`.
//! 2. The bounds, from the core: `lo(X)` rises from `s(X)` and `hi(X)` falls from
//!    `n - t(X)`, each the best of the moves (exits, and the opponent's bounds after moves
//!    that stay in the layer). A side that forces its way into its core or out through a good
//!    exit never passes a position twice on the way, so no repetition can spoil the bound.
//!    Each pass reads only the last pass's bounds, so the pass at which a bound last moved is
//!    a distance: see [`Solved::ranks`](super::layer::Solved::ranks).
//!
//! A position whose bounds meet is settled and never looked at again. In kalah a move that
//! keeps every seed on the board moves seeds towards the mover's store and never back, so the
//! layer has no cycles and every position settles.
//!
//! Two solvers compute the same bytes: [`propagate`](super::propagate) (the one builds use)
//! looks at a position again only when one of its children changed in the last pass;
//! [`sweep`](super::sweep), the first, evaluates every position in every pass and is kept as
//! the reference.

use super::layer::{Lower, Progress, Solved};
use crate::rules::Variant;

/// Which solver computes a layer; both write the same bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Solver {
    /// [`propagate`](super::propagate): only the positions a change can reach; from 22 seeds
    /// its [`packed`](super::packed) form, each position's state in one word.
    #[default]
    Propagate,
    /// [`sweep`](super::sweep): every position in every pass (the reference).
    Sweep,
    /// [`packed`](super::packed): the propagating solver with each position's state in one
    /// word, as it runs [`NARROW_UP_TO`](super::propagate::NARROW_UP_TO) seeds, held in runs of 65,536
    /// positions: for the tests, which cannot reach those layers, and whose layers are smaller
    /// than one of the build's runs.
    PropagatePacked,
}

/// Solves layer `n` of `variant`, with the smaller layers in `lower`, on the current rayon
/// pool, with the default solver.
pub fn solve_layer(
    variant: Variant,
    n: usize,
    lower: &impl Lower,
    progress: &impl Progress,
) -> Solved {
    solve_layer_with(Solver::default(), variant, n, lower, progress)
}

/// [`solve_layer`] with the solver named.
pub fn solve_layer_with(
    solver: Solver,
    variant: Variant,
    n: usize,
    lower: &impl Lower,
    progress: &impl Progress,
) -> Solved {
    match solver {
        Solver::Propagate if n <= super::propagate::NARROW_UP_TO => {
            super::propagate::solve_layer_propagating(variant, n, lower, progress)
        }
        Solver::Propagate => super::packed::solve_layer_packed(variant, n, lower, progress),
        Solver::Sweep => super::sweep::solve_layer_sweeping(variant, n, lower, progress),
        Solver::PropagatePacked => super::packed::solve_in_runs(variant, n, lower, progress, 16),
    }
}
