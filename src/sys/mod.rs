//! What the operating system and the processor give, wrapped once for the whole crate:
//! [`conventions`] (what a Unix command offers: `--version` with the commit, manual pages,
//! shell completions), [`files`] (opening the files a user names without blocking on them),
//! [`lines`] (reading
//! lines from a pipe without trusting it: the engine's input, the referee's engines),
//! [`outputs`] (a command's outputs checked against its inputs, and tried where they will be
//! made, before it starts),
//! [`prefetch`] (a cache-line hint for the searches and table probes), [`procfs`] (the
//! processes `/proc` shows), [`registry`] (the engines started and not yet reaped),
//! [`signals`] (Ctrl-C ends them all), [`subreaper`] (what they leave behind is ours to end
//! and reap), [`sigbus`] (mapped
//! files truncated under the process: a dropped layer, not a dead engine), [`stderr`] (lines
//! to the error output that never panic) and [`write`](mod@write) (writing a file whole, so no
//! reader ever finds a part of one).
//!
//! Without the `native` feature only [`prefetch`] is here: it needs the processor alone.

#[cfg(feature = "native")]
pub mod conventions;
#[cfg(feature = "native")]
pub mod files;
#[cfg(feature = "native")]
pub mod lines;
#[cfg(feature = "native")]
pub mod outputs;
pub mod prefetch;
#[cfg(feature = "native")]
pub mod procfs;
#[cfg(feature = "native")]
pub mod registry;
#[cfg(feature = "native")]
pub mod sigbus;
#[cfg(feature = "native")]
pub mod signals;
#[cfg(feature = "native")]
pub mod stderr;
#[cfg(feature = "native")]
pub mod subreaper;
#[cfg(feature = "native")]
pub mod write;
