//! A table entry: bounds on the seeds the side to move ends the game with, in one byte.

/// Bounds on the seeds of those on the board that the side to move ends the game with, both
/// sides playing perfectly from a position with an empty history (right after a capture, or at
/// the start of a game).
///
/// `lo` is what the side to move can force while never counting on a repetition: it reaches an
/// exit (a capture, or the end of the game) worth at least `lo`, and no line of the opponent's
/// repeats a position on the way. `hi` is the same for the opponent, seen from the side to move.
/// When they meet the value is exact. Reaching it may still let play repeat a position, but only
/// one where the repetition gives each side no less than its bound (a safe cycle): from 6 seeds
/// on, a few settled positions are like this. When the bounds do not meet, both sides can avoid
/// every exit that is worse for them than what they hold, play goes round without capture until
/// a position repeats, and the value lies between the bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Value {
    /// What the side to move can force.
    pub lo: u8,
    /// What the opponent can hold the side to move to.
    pub hi: u8,
}

/// The largest layer one byte can hold: 5 bits of `lo`.
pub const MAX_ENCODED_LAYER: usize = 31;

/// `hi - lo` at or above this is stored as "hi unknown", read back as `hi = n`.
const GAP_OPEN: u8 = 7;

impl Value {
    /// The exact value, when the bounds meet.
    pub fn exact(self) -> Option<u8> {
        (self.lo == self.hi).then_some(self.lo)
    }

    /// What a move that leaves the layer is worth to its mover, `self` being the value of the
    /// position it leads to (in a layer of `layer` seeds): the `gain` seeds it took, plus the
    /// value there for whoever moves next (the mover again when `same_side`, kalah's extra
    /// move; the opponent otherwise, whose bounds leave the mover the rest).
    pub fn after_exit(self, gain: usize, same_side: bool, layer: usize) -> Value {
        let (g, n) = (gain as u8, layer as u8);
        if same_side {
            Value {
                lo: g + self.lo,
                hi: g + self.hi,
            }
        } else {
            Value {
                lo: g + n - self.hi,
                hi: g + n - self.lo,
            }
        }
    }

    /// One byte: `lo` in the low 5 bits, `hi - lo` in the top 3 (7 = `hi` not kept, read back
    /// as `n`, still a true bound). A layer above [`MAX_ENCODED_LAYER`] cannot be encoded.
    pub fn encode(self, n: usize) -> u8 {
        debug_assert!(n <= MAX_ENCODED_LAYER && self.lo <= self.hi && usize::from(self.hi) <= n);
        let gap = (self.hi - self.lo).min(GAP_OPEN);
        self.lo | (gap << 5)
    }

    /// The value a byte of layer `n` holds; `None` for a byte no [`Value::encode`] of that
    /// layer writes.
    pub fn decode(byte: u8, n: usize) -> Option<Value> {
        let lo = byte & 31;
        let gap = byte >> 5;
        let hi = if gap == GAP_OPEN { n as u8 } else { lo + gap };
        (usize::from(hi) <= n && usize::from(lo) <= n).then_some(Value { lo, hi })
    }
}
