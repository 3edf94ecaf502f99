//! Point values: one number per position for play, where the path bounds still differ.
//!
//! Where a position's bounds meet, its value is proven and its point value is that value. Where
//! they differ, the value depends on the path (oware's repetition rule), and a search that
//! reaches such a position at its horizon needs a single number. The point value is a guess
//! built on the convention Romein and Bal used when they solved awari: a game that goes round
//! without end leaves each side the seeds of its own row. It is the value of the game of
//! [`HORIZON`] moves from the position, both sides playing their best, where each move is an
//! exit (worth the seeds it takes plus what the smaller layer's point value leaves) or a move
//! within the layer, every position's value is kept within its bounds, and a position reached
//! at the horizon is worth its own row (clamped into its bounds): what a repetition there
//! would leave. Computed by passes over the layer, each from the last pass's values, starting
//! from the rows; a pass that changes nothing has reached the value of every longer horizon
//! too, and ends them.
//!
//! Why a horizon and not "the" fixed point of the one-move recursion: the recursion need not
//! have one (a position whose move leads to its own mirror image, the opponent to move, is one
//! position of the layer's index: `p = n - p` has no solution in whole seeds when `n` is odd),
//! and where it has several, which one a pass order reaches is an accident. The horizon's
//! value is defined for every position; in the layers measured, all but a few hundred
//! positions of each reach a fixed point long before it (`awari tables paths` prints how many
//! still move).
//!
//! Nothing here is proven: the guess of a bounded position never leaves its bounds, and is
//! used only to score positions a search cannot look past (`protocol.md`, section 8).

use super::graph::Graph;
use super::layer::Lower;
use super::value::Value;
use crate::rules::Variant;

/// Moves in the game whose value the point value is: the most passes. Even, so that a guess
/// that alternates between two values is always taken at the same side's turn.
pub const HORIZON: u32 = 128;

/// The point values of a layer.
pub struct Points {
    /// One per position: the seeds of those on the board the side to move is guessed to end
    /// with, within its bounds.
    pub values: Vec<u8>,
    /// Passes run, the last of which changed nothing (unless they reached [`HORIZON`]).
    pub passes: u32,
    /// Positions whose guess the last pass still changed (0 when a fixed point was reached).
    pub moving: u64,
}

/// The point values of layer `n`, whose positions have the path bounds `bounds`, with the
/// smaller layers' point values in `exits` (read as `lo == hi`).
pub fn points(variant: Variant, n: usize, exits: &dyn Lower, bounds: &[Value]) -> Points {
    let g = Graph::new(variant, n, exits);
    let nb = n as u8;
    let mut p: Vec<u8> = bounds
        .iter()
        .zip(&g.row)
        .map(|(v, &row)| row.clamp(v.lo, v.hi))
        .collect();
    let open: Vec<u32> = (0..bounds.len())
        .filter(|&i| !g.over[i] && bounds[i].exact().is_none())
        .map(|i| i as u32)
        .collect();
    let mut passes = 0;
    let mut moving = 0;
    let mut last = p.clone();
    while passes < HORIZON {
        passes += 1;
        moving = 0;
        for &i in &open {
            let i = i as usize;
            let mut best = g.exit[i].map_or(0, |e| e.0);
            for &j in g.kids(i) {
                best = best.max(nb - last[j as usize]);
            }
            let guess = best.clamp(bounds[i].lo, bounds[i].hi);
            if guess != last[i] {
                moving += 1;
            }
            p[i] = guess;
        }
        std::mem::swap(&mut p, &mut last);
        if moving == 0 {
            break;
        }
    }
    Points {
        values: last,
        passes,
        moving,
    }
}
