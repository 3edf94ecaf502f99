//! A person plays against the engine or a classic opponent: [`terminal`] is `awari play`, the
//! game in a terminal as the 1978 program drew it.

pub mod terminal;
