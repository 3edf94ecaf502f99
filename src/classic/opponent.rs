//! Who chooses an engine's moves: its own search, or one of the classic opponents. The
//! engine's `Opponent` option and `awari play --opponent` both choose with it.

use super::player::Classic;

/// Who chooses the engine's moves: the search, or one of the classic opponents. Also
/// `awari play --opponent`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "native", derive(clap::ValueEnum))]
pub enum Opponent {
    /// The engine's own search.
    #[default]
    Engine,
    /// The tutorial's one-turn greedy player.
    Greedy,
    /// The 1978 BASIC program, with its learning.
    Basic,
    /// The paper's evolved player.
    Evolved,
}

impl Opponent {
    /// Every choice, in the order the `Opponent` option lists them.
    pub const ALL: [Opponent; 4] = [
        Opponent::Engine,
        Opponent::Greedy,
        Opponent::Basic,
        Opponent::Evolved,
    ];

    /// The names of [`Opponent::ALL`]: the option's values, `awari play --opponent`'s too.
    pub const NAMES: [&'static str; 4] = [
        Opponent::ALL[0].name(),
        Opponent::ALL[1].name(),
        Opponent::ALL[2].name(),
        Opponent::ALL[3].name(),
    ];

    /// Its name: `engine`, or the classic player's own.
    pub const fn name(self) -> &'static str {
        match self.classic() {
            None => "engine",
            Some(classic) => classic.name(),
        }
    }

    /// The choice named `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Opponent> {
        Opponent::ALL.into_iter().find(|o| o.name() == name)
    }

    /// The classic player, if it is one.
    pub const fn classic(self) -> Option<Classic> {
        match self {
            Opponent::Engine => None,
            Opponent::Greedy => Some(Classic::Greedy),
            Opponent::Basic => Some(Classic::Basic),
            Opponent::Evolved => Some(Classic::Evolved),
        }
    }
}
