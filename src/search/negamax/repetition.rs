//! Oware's repetition rule inside the search: the keys of the positions since the last
//! capture, the game's then the current line's, kept as a stack that grows and shrinks with the
//! line.

use super::super::score::MAX_PLY;

/// The positions since the last capture, and how many of their keys fall in each of 512 classes
/// (their low bits): a key whose class is empty repeats none, which spares most nodes the walk
/// back through the stack.
pub(super) struct Repetitions {
    keys: Vec<u64>,
    classes: Box<[u32; 512]>,
}

impl Repetitions {
    /// The stack holding the game's positions since the last capture (`keys`, oldest first).
    pub(super) fn new(mut keys: Vec<u64>) -> Repetitions {
        keys.reserve(MAX_PLY);
        let mut classes = Box::new([0; 512]);
        for &key in &keys {
            classes[class(key)] += 1;
        }
        Repetitions { keys, classes }
    }

    /// A position of the line, entered.
    #[inline]
    pub(super) fn push(&mut self, key: u64) {
        self.keys.push(key);
        self.classes[class(key)] += 1;
    }

    /// The last position pushed, left.
    #[inline]
    pub(super) fn pop(&mut self) {
        if let Some(key) = self.keys.pop() {
            self.classes[class(key)] -= 1;
        }
    }

    /// How many positions the stack holds: where a child's window starts after a capture.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.keys.len()
    }

    /// Oware: whether `key` occurred in the stack from `since` on. Sides alternate in oware, so only
    /// every second position back can be equal (the side to move is part of the key). A key
    /// whose class counts nothing is not in the stack at all.
    #[inline]
    pub(super) fn repeats(&self, key: u64, since: usize) -> bool {
        if self.classes[class(key)] == 0 {
            return false;
        }
        let mut i = self.keys.len();
        while i >= since + 2 {
            i -= 2;
            if self.keys[i] == key {
                return true;
            }
        }
        false
    }

    /// Oware: whether `key`, a child of the node whose parent was pushed last (the node not
    /// pushed yet), occurred in the stack from `since` on: [`Repetitions::repeats`] a ply
    /// further down, as futility's guards ask before the node's moves are searched.
    #[inline]
    pub(super) fn repeats_below(&self, key: u64, since: usize) -> bool {
        if self.classes[class(key)] == 0 {
            return false;
        }
        let mut i = self.keys.len() + 1;
        while i >= since + 2 {
            i -= 2;
            if self.keys[i] == key {
                return true;
            }
        }
        false
    }
}

/// The class of a position's key in [`Repetitions`]' count.
#[inline]
fn class(key: u64) -> usize {
    key as usize & 511
}
