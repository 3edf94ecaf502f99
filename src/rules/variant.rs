//! The six rule sets. Each is described exactly in `doc/rules.md` (section "Rules"); this module
//! only names them and answers the questions the rest of the rules ask about them.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// A rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Variant {
    /// Oware Abapa, as played by OpenSpiel's `oware`, Aalina and Aualé. The default.
    #[default]
    Oware,
    /// The Awari of the evolved-player paper: grand slam wins, no repetition, ply 250 limit.
    Awari,
    /// Awari of BASIC Computer Games (Ahl, 1978): 14-place sowing, one bonus move per turn.
    Ahl,
    /// Kalah(6,4): sowing through the own store, unlimited extra moves.
    Kalah,
    /// Ayoayo of the Yoruba: relay sowing.
    Ayoayo,
    /// Kalah with the "empty capture" rule: a last seed sown into an empty own house goes to
    /// the store even when the facing house is empty. The reading of the published computer
    /// solutions of Kalah (Irving, Donkers and Uiterwijk; Rawlings). Last in the list, so that
    /// the others keep the numbers that table files and training records store.
    KalahEmpty,
}

impl Variant {
    /// All variants, in the order `UCI_Variant` lists them.
    pub const ALL: [Variant; 6] = [
        Variant::Oware,
        Variant::Awari,
        Variant::Ahl,
        Variant::Kalah,
        Variant::Ayoayo,
        Variant::KalahEmpty,
    ];

    /// The name used on the command line and in the protocol.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Oware => "oware",
            Variant::Awari => "awari",
            Variant::Ahl => "ahl",
            Variant::Kalah => "kalah",
            Variant::Ayoayo => "ayoayo",
            Variant::KalahEmpty => "kalah-empty",
        }
    }

    /// Seeds per house at the start, unless the user chooses another number.
    pub const fn default_seeds(self) -> u32 {
        match self {
            Variant::Ahl => 3,
            _ => 4,
        }
    }

    /// Whether a repeated position ends the game (oware only).
    pub const fn has_repetition(self) -> bool {
        matches!(self, Variant::Oware)
    }

    /// The ply at which the game is adjudicated, if the rule set has such a limit (awari: 250).
    pub const fn ply_limit(self) -> Option<u16> {
        match self {
            Variant::Awari => Some(250),
            _ => None,
        }
    }

    /// Whether a side can move twice in a row (sowing into its own store).
    pub const fn has_extra_moves(self) -> bool {
        matches!(self, Variant::Ahl | Variant::Kalah | Variant::KalahEmpty)
    }

    /// Whether this is a reading of kalah (`kalah`, `kalah-empty`): the same board, sowing,
    /// extra moves and end, differing only in a capture facing an empty house.
    pub const fn is_kalah(self) -> bool {
        matches!(self, Variant::Kalah | Variant::KalahEmpty)
    }

    /// Whether a last seed sown into an empty own house goes to the store even when the
    /// facing house is empty (kalah-empty); elsewhere such a seed stays where it fell.
    pub const fn captures_facing_empty(self) -> bool {
        matches!(self, Variant::KalahEmpty)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that is not one of the six.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown variant `{}` (expected one of: ", self.0)?;
        for (i, v) in Variant::ALL.iter().enumerate() {
            let comma = if i == 0 { "" } else { ", " };
            write!(f, "{comma}{v}")?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// Case-insensitive, so `Oware` from a GUI's combo box works too.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

/// By its name, as the settings files of the tools' runs hold it.
impl Serialize for Variant {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// From its name, as [`FromStr`] reads it.
impl<'de> Deserialize<'de> for Variant {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Variant, D::Error> {
        String::deserialize(deserializer)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}
