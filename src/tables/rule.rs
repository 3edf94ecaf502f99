//! The rule that solves a layer, written once: what every solver (sweeping, propagating,
//! packed, MPI) computes at a position and asks of a change, whatever its storage and its order
//! of passes. [`solve`](super::solve) says what the two stages mean.

use super::layer::Solved;
use super::value::Value;

/// What a solver that keeps an exit's best bounds in two bytes of their own (the sweeping one)
/// writes in both where no move leaves the layer.
pub(super) const NO_EXIT: u8 = u8::MAX;

/// The best bounds exits kept as two bytes give, `(0, 0)` where none leaves the layer
/// ([`NO_EXIT`]): what [`Core::new`] and [`Bounds::new`] read.
#[inline(always)]
pub(super) fn exits(xlo: u8, xhi: u8) -> (u8, u8) {
    match xlo {
        NO_EXIT => (0, 0),
        _ => (xlo, xhi),
    }
}

/// Stage 1 at a position whose game goes on: the safe cores its moves leave each side,
/// from the best its exits give (`(0, 0)` where none leaves the layer) and each child's
/// `(s, t)`, never above what the position held.
#[derive(Clone, Copy)]
pub(super) struct Core {
    best: u8,
    worst: u8,
}

impl Core {
    /// A position of layer `n` whose exits give at best `(xlo, xhi)`.
    #[inline(always)]
    pub(super) fn new(n: u8, (xlo, xhi): (u8, u8)) -> Core {
        Core {
            best: xlo,
            worst: n - xhi,
        }
    }

    /// A child's `(s, t)` (its side to move is the other side): the side to move stays safe
    /// through one move, the other side through all of them.
    #[inline(always)]
    pub(super) fn child(&mut self, (s, t): (u8, u8)) {
        self.best = self.best.max(t);
        self.worst = self.worst.min(s);
    }

    /// The position's new `(s, t)`, from what it held.
    #[inline(always)]
    pub(super) fn held(self, (s, t): (u8, u8)) -> (u8, u8) {
        (s.min(self.best), t.min(self.worst))
    }
}

/// Whether a child whose stage-1 pair went from `was` to `now` can lower its parent's pair
/// `parent`: a parent's `s` only falls below a child's new `t`, its `t` below the child's new
/// `s`.
#[inline(always)]
pub(super) fn core_reaches(now: (u8, u8), was: (u8, u8), parent: (u8, u8)) -> bool {
    let ((sj, tj), (was_s, was_t), (sp, tp)) = (now, was, parent);
    (tj != was_t && tj < sp) || (sj != was_s && sj < tp)
}

/// Stage 2 at a position whose game goes on and whose bounds differ: the best of its moves for
/// each bound, from its exits (`(0, 0)` where none leaves the layer) and each child's bounds.
#[derive(Clone, Copy)]
pub(super) struct Bounds {
    n: u8,
    lo: u8,
    hi: u8,
}

impl Bounds {
    /// A position of layer `n` whose exits give at best `(xlo, xhi)`.
    #[inline(always)]
    pub(super) fn new(n: u8, (xlo, xhi): (u8, u8)) -> Bounds {
        Bounds {
            n,
            lo: xlo,
            hi: xhi,
        }
    }

    /// A child's `(lo, hi)`, for its side to move: what it leaves the mover.
    #[inline(always)]
    pub(super) fn child(&mut self, (lo, hi): (u8, u8)) {
        self.lo = self.lo.max(self.n - hi);
        self.hi = self.hi.max(self.n - lo);
    }

    /// The position's new `(lo, hi)`, from what it held: `lo` only rises, `hi` only falls.
    #[inline(always)]
    pub(super) fn held(self, (lo, hi): (u8, u8)) -> (u8, u8) {
        (lo.max(self.lo), hi.min(self.hi))
    }
}

/// Whether a child whose bounds became `(lo, hi)` (`lo_moved`, `hi_moved`: which moved) can
/// move the bounds `parent` of its parent in layer `n`: a parent's `lo` only rises if the
/// child's new `hi` leaves it more, its `hi` only falls if the child's new `lo` leaves it less,
/// and a settled parent never moves.
#[inline(always)]
pub(super) fn bounds_reach(
    n: u8,
    (lo, hi): (u8, u8),
    moved: (bool, bool),
    parent: (u8, u8),
) -> bool {
    let ((lo_moved, hi_moved), (lp, hp)) = (moved, parent);
    lp != hp && ((hi_moved && n - hi > lp) || (lo_moved && n - lo < hp))
}

/// The byte of the layer file for the position at `index` of layer `n` whose bounds ended at
/// `(lo, hi)`, counted in `unsettled` where they differ. Bounds that crossed are a solver's
/// bug: the build stops rather than write them.
#[inline]
pub(super) fn finish(n: usize, index: u64, (lo, hi): (u8, u8), unsettled: &mut u64) -> u8 {
    let v = Value { lo, hi };
    assert!(
        v.lo <= v.hi,
        "layer {n} index {index}: bounds crossed: {v:?}"
    );
    *unsettled += u64::from(v.lo != v.hi);
    v.encode(n)
}

/// The solved layer `n` from its positions' final bounds in index order (each checked and
/// counted by [`finish`]), the rank bytes and what the passes counted.
pub(super) fn solved(
    n: usize,
    bounds: impl Iterator<Item = (u8, u8)>,
    ranks: Vec<u8>,
    passes: u32,
    evaluated: u64,
) -> Solved {
    let mut unsettled = 0;
    let bytes = bounds
        .enumerate()
        .map(|(i, pair)| finish(n, i as u64, pair, &mut unsettled))
        .collect();
    Solved::new(bytes, ranks, passes, unsettled, evaluated)
}
