//! A layer's moves worked out once and kept in memory, for the computations that pass over a
//! layer many times and read every position's moves each time ([`rounds`](super::rounds),
//! [`points`](super::points)): generating the moves costs more than reading them back.

use super::index::{layer_size, next, unrank};
use super::layer::{best_exit, moves, Lower, Moves};
use crate::rules::Variant;

/// A layer's moves, worked out once: per position the side to move's row, the best bounds
/// its exits give it, and the positions its other moves lead to.
pub(super) struct Graph {
    pub(super) row: Vec<u8>,
    /// The best lower / upper bound an exit gives the side to move (`None`: no exit); where
    /// the game is over, its value in both.
    pub(super) exit: Vec<Option<(u8, u8)>>,
    pub(super) over: Vec<bool>,
    start: Vec<u32>,
    kids: Vec<u32>,
}

impl Graph {
    pub(super) fn new(variant: Variant, n: usize, exits: &dyn Lower) -> Graph {
        let size = layer_size(n) as usize;
        let mut g = Graph {
            row: Vec::with_capacity(size),
            exit: Vec::with_capacity(size),
            over: Vec::with_capacity(size),
            start: Vec::with_capacity(size + 1),
            kids: Vec::new(),
        };
        let mut houses = unrank(n, 0);
        for _ in 0..size {
            g.start.push(g.kids.len() as u32);
            g.row.push(houses[..6].iter().sum());
            match moves(variant, houses) {
                Moves::Over(v) => {
                    g.over.push(true);
                    g.exit.push(Some((v as u8, v as u8)));
                }
                Moves::Steps(steps, len) => {
                    g.over.push(false);
                    let best = best_exit(&steps[..len], exits, |j| g.kids.push(j as u32));
                    g.exit.push(best);
                }
            }
            next(&mut houses);
        }
        g.start.push(g.kids.len() as u32);
        g
    }

    pub(super) fn kids(&self, i: usize) -> &[u32] {
        &self.kids[self.start[i] as usize..self.start[i + 1] as usize]
    }
}
