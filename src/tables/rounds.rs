//! Tighter path bounds by rounds of the tables' own two stages, each round's safe cores leaning
//! on what the rounds before it proved.
//!
//! The build ([`solve_layer`](super::solve::solve_layer)) proves `lo >= k` for the side `S` to
//! move when `S` can force its way, without repeating a position, out through an exit worth
//! `k` or into its safe core: positions where its row holds `k` and from which it can keep play
//! among such positions for ever. Seen as a game on the layer's graph with `k` fixed, that is
//! one step of the solution of a co-Büchi game for `S`: "from some point on, every position
//! holds at least `k` in `S`'s row" (or the play leaves through an exit worth `k`). The full
//! solution iterates: a safe core may also let play go into the region already won (`lo >= k`
//! from an earlier round, for the side concerned), and the region won grows by the positions
//! that can force their way into the new core. A co-Büchi game's winner has a positional
//! strategy under which every cycle of the positions play can reach lies in the good positions
//! (along any play the round of the region never grows, the way into a core strictly shortens,
//! and a core is only left for an earlier round's region). Under oware's repetition rule the
//! first position that repeats lies on such a cycle, so it leaves `S` its row there, at least
//! `k`: the game from an empty history is worth `k` to `S` or more. The same for the opponent
//! bounds `hi`.
//!
//! Exits read the smaller layers' best proven bounds (a capture empties the history). Only
//! bounds proven this way (positional strategies) may enter a round; the bounds of the path
//! search ([`paths`](super::paths)), whose strategies follow the history, come after.

use super::graph::Graph;
use super::layer::Lower;
use super::value::Value;
use crate::rules::Variant;

/// The bounds of layer `n` after rounds until one proves nothing new, starting from
/// `known` (sound bounds from an empty history proven by positional strategies: the table's),
/// with the smaller layers' best bounds in `exits`. Returns the bounds and the rounds run.
pub fn tighten(
    variant: Variant,
    n: usize,
    exits: &dyn Lower,
    known: &[Value],
) -> (Vec<Value>, u32) {
    let g = Graph::new(variant, n, exits);
    let nb = n as u8;
    let size = known.len();
    let mut lo: Vec<u8> = known.iter().map(|v| v.lo).collect();
    let mut hi: Vec<u8> = known.iter().map(|v| v.hi).collect();
    let mut rounds = 0;
    loop {
        rounds += 1;
        // The safe cores: `s` for the side to move, `t` for the other, from above, where play
        // may also go into what is already won (`lo` for the side to move there, `n - hi` for
        // the other).
        let mut s: Vec<u8> = (0..size)
            .map(|i| if g.over[i] { lo[i] } else { g.row[i] })
            .collect();
        let mut t: Vec<u8> = (0..size)
            .map(|i| if g.over[i] { nb - hi[i] } else { nb - g.row[i] })
            .collect();
        loop {
            let mut changed = false;
            for i in 0..size {
                if g.over[i] {
                    continue;
                }
                let mut best = g.exit[i].map_or(0, |e| e.0);
                let mut worst = g.exit[i].map_or(nb, |e| nb - e.1);
                for &j in g.kids(i) {
                    let j = j as usize;
                    best = best.max(t[j].max(nb - hi[j]));
                    worst = worst.min(s[j].max(lo[j]));
                }
                if best < s[i] {
                    s[i] = best;
                    changed = true;
                }
                if worst < t[i] {
                    t[i] = worst;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        // The regions won: forced into a core, what was won before, or a good exit.
        let mut new_lo: Vec<u8> = (0..size).map(|i| lo[i].max(s[i])).collect();
        let mut new_hi: Vec<u8> = (0..size).map(|i| hi[i].min(nb - t[i])).collect();
        loop {
            let mut changed = false;
            for i in 0..size {
                if g.over[i] || new_lo[i] == new_hi[i] {
                    continue;
                }
                let mut best_lo = g.exit[i].map_or(0, |e| e.0);
                let mut best_hi = g.exit[i].map_or(0, |e| e.1);
                for &j in g.kids(i) {
                    let j = j as usize;
                    best_lo = best_lo.max(nb - new_hi[j]);
                    best_hi = best_hi.max(nb - new_lo[j]);
                }
                if best_lo > new_lo[i] {
                    new_lo[i] = best_lo;
                    changed = true;
                }
                if best_hi < new_hi[i] {
                    new_hi[i] = best_hi;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let same = new_lo == lo && new_hi == hi;
        lo = new_lo;
        hi = new_hi;
        if same {
            break;
        }
    }
    let values = lo
        .iter()
        .zip(&hi)
        .map(|(&lo, &hi)| {
            assert!(lo <= hi, "layer {n}: bounds crossed");
            Value { lo, hi }
        })
        .collect();
    (values, rounds)
}
