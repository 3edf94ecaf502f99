//! The principal variation: the line each node on the current path expects, kept as a
//! triangular table, so that a node that raises alpha takes its child's line behind its own
//! move without a search of its own for it.

use super::super::score::MAX_PLY;
use crate::rules::Move;

/// The line of the node at each ply of the current path, as houses: the node at `ply` owns
/// row `ply`, its first `len[ply]` houses.
pub(super) struct PvTable {
    lines: Box<[[u8; MAX_PLY]; MAX_PLY]>,
    len: [usize; MAX_PLY],
}

impl PvTable {
    /// No lines yet.
    pub(super) fn new() -> PvTable {
        PvTable {
            lines: Box::new([[0; MAX_PLY]; MAX_PLY]),
            len: [0; MAX_PLY],
        }
    }

    /// A node entered at `ply`: no line yet.
    #[inline]
    pub(super) fn clear(&mut self, ply: usize) {
        self.len[ply] = 0;
    }

    /// `m` raised alpha at `ply`: the node's line is `m`, then its child's.
    pub(super) fn update(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line[0] = m.house() as u8;
        let len = if ply + 1 < MAX_PLY {
            let child_len = self.len[ply + 1].min(MAX_PLY - 1);
            line[1..=child_len].copy_from_slice(&tail[0][..child_len]);
            child_len
        } else {
            0
        };
        self.len[ply] = len + 1;
    }

    /// The root's line.
    pub(super) fn root(&self) -> Vec<Move> {
        self.lines[0][..self.len[0]]
            .iter()
            .filter_map(|&h| Move::new(usize::from(h)))
            .collect()
    }
}
