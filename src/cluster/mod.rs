//! Heavy jobs cut into shards for a cluster, for the referee and the tools alike: [`shard`]
//! (which part of a job one task of a job array does) and [`outdir`] (the directory the shards
//! share, with its manifest).

pub mod outdir;
pub mod shard;
