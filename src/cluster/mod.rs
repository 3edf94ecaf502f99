//! Heavy jobs cut into shards for a cluster, for the referee and the tools alike: [`shard`]
//! (which part of a job one task of a job array does), [`manifest`] (the file that says which
//! job a shared directory is for, written by the first shard, checked by every other) and
//! [`outdir`] (the tools' shared directory: their manifests and the shards' parts); what goes
//! wrong with any of them is an [`Error`].

mod error;
pub mod manifest;
pub mod outdir;
pub mod shard;

pub use error::Error;
