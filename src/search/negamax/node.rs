//! Where a node stands in the search ([`Node`]: its ply, its depth, its repetition window,
//! its extensions) and which of its scores matter ([`Window`]): what the node search hands
//! from a node to its children.

use super::super::score::INF;

/// An alpha-beta window: a node's score matters only between `alpha` and `beta`. A score at
/// or below `alpha` is an upper bound on its value (the side to move has better elsewhere), one
/// at or above `beta` a lower bound (the opponent has better elsewhere).
#[derive(Clone, Copy, Debug)]
pub(super) struct Window {
    pub(super) alpha: i32,
    pub(super) beta: i32,
}

impl Window {
    /// Every score matters.
    pub(super) const FULL: Window = Window {
        alpha: -INF,
        beta: INF,
    };

    /// The window just above `alpha`: the search only tells whether a score beats it.
    pub(super) fn null(alpha: i32) -> Window {
        Window {
            alpha,
            beta: alpha + 1,
        }
    }

    /// The same window from the other side's point of view.
    pub(super) fn negated(self) -> Window {
        Window {
            alpha: -self.beta,
            beta: -self.alpha,
        }
    }

    /// Whether scores inside the window are possible: a principal-variation node, whose exact
    /// score and line are wanted.
    pub(super) fn is_open(self) -> bool {
        self.beta - self.alpha > 1
    }
}

/// Where a node stands in the search.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    /// Plies from the root.
    pub(super) ply: usize,
    /// Plies left to search (after reductions): at 0 or less the node is evaluated.
    pub(super) depth: i32,
    /// Oware: where the node's positions since the last capture start in `keys`.
    pub(super) since: usize,
    /// Plies the line to this node was extended (`Extensions`).
    pub(super) extended: i32,
}

impl Node {
    /// The root, searched to `depth`. Its repetition window starts at 0: `keys` starts with
    /// the game's positions since the last capture, and they count.
    pub(super) fn root(depth: i32) -> Node {
        Node {
            ply: 0,
            depth,
            since: 0,
            extended: 0,
        }
    }

    /// A child of this node, whose positions since the last capture start at `since`,
    /// searched `extension` plies deeper than the node's depth says.
    pub(super) fn child(self, since: usize, extension: i32) -> Node {
        Node {
            ply: self.ply + 1,
            depth: self.depth - 1 + extension,
            since,
            extended: self.extended + extension,
        }
    }

    /// The same node searched `plies` shallower.
    pub(super) fn reduced(self, plies: i32) -> Node {
        Node {
            depth: self.depth - plies,
            ..self
        }
    }
}
