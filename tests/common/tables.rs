//! What the tests of the tables share: random positions, and the engine playing with tables.

use super::Engine;
use crate::common;
use awari::rng::Rng;
use awari::rules::{Board, Move, Side, Variant};
use std::path::Path;
use std::time::Duration;

/// `n` seeds dropped into random houses.
pub fn random_houses(rng: &mut Rng, n: usize) -> [u8; 12] {
    let mut houses = [0u8; 12];
    for _ in 0..n {
        houses[rng.below(12) as usize] += 1;
    }
    houses
}

/// South or North, at random.
pub fn random_side(rng: &mut Rng) -> Side {
    if rng.below(2) == 0 {
        Side::South
    } else {
        Side::North
    }
}

/// How long the engine may take for a line the tests wait for: a bound against hanging for
/// ever, far above what their searches (depth 14 at the most) take.
pub const WAIT: Duration = Duration::from_secs(300);

impl Engine {
    /// The engine playing `variant` with the tables in `tables`.
    pub fn with_tables(tables: &Path, variant: Variant) -> Engine {
        let mut e = Engine::start();
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.send(&format!(
            "setoption name TablesPath value {}",
            tables.display()
        ));
        e
    }

    /// The move the engine plays after `moves` from `start` for `go`, with its lines.
    pub fn best(&mut self, start: &Board, moves: &[Move], go: &str) -> (Move, Vec<String>) {
        let list: String = moves.iter().map(|m| m.to_char()).collect();
        self.send(&format!("position fen {start} moves {list}"));
        self.send(go);
        let lines = self.until("bestmove", WAIT);
        let word = lines.last().unwrap().split_whitespace().nth(1).unwrap();
        (word.parse().unwrap(), lines)
    }
}

/// `awari ARGS`: whether it succeeded, its output and its error output.
pub fn awari(args: &[&str]) -> (bool, String, String) {
    let out = common::awari(args);
    let (stdout, stderr) = (common::text(&out.stdout), common::text(&out.stderr));
    (out.status.success(), stdout, stderr)
}

/// A file's bytes.
pub fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}
