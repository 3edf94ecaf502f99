//! What the two jobs that run in shards on a cluster, `awari tune` and `awari book build`,
//! share on the command line: the shard `--shard` names, and which settings the user gave (a
//! `--from` merge checks only those against the run's manifest; the others are taken from it).

use crate::cluster::shard::Shard;
use clap::parser::ValueSource;
use clap::ArgMatches;
use std::path::Path;

/// Among `settings` (argument id, value), those the command line gave.
pub(super) fn given<'a>(
    matches: Option<&ArgMatches>,
    settings: &[(&'a str, String)],
) -> Vec<(&'a str, String)> {
    settings
        .iter()
        .filter(|(id, _)| {
            matches.and_then(|m| m.value_source(id)) == Some(ValueSource::CommandLine)
        })
        .cloned()
        .collect()
}

/// The shard `--shard` names (the whole job without it); it needs `--out-dir`.
pub(super) fn shard_of(text: Option<&str>, out_dir: Option<&Path>) -> Result<Shard, String> {
    match (text, out_dir) {
        (None, _) => Ok(Shard::WHOLE),
        (Some(text), None) => Err(format!(
            "--shard {text} needs --out-dir DIR, the directory every shard writes its part to"
        )),
        (Some(text), Some(_)) => Ok(Shard::parse(text, &|k| std::env::var(k).ok())?),
    }
}
