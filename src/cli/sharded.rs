//! What the two jobs that run in shards on a cluster, `awari tune` and `awari book build`,
//! share on the command line: the shard `--shard` names, and which settings the user gave (a
//! `--from` merge checks only those against the run's manifest; the others are taken from it).

use crate::cluster::outdir::show;
use crate::cluster::shard::Shard;
use clap::parser::ValueSource;
use clap::ArgMatches;
use serde::Serialize;
use serde_json::Value;
use std::path::Path;

/// The fields of `options` (a job's options as its flags make them, which its manifest holds
/// under the same names) whose flag the command line gave, each as (field, value as a person
/// writes it): what [`check_given`](crate::cluster::outdir::check_given) holds against the
/// run's manifest. A field is its flag's argument id (`line_plies`: `--line-plies`).
pub(super) fn given<T: Serialize>(
    matches: Option<&ArgMatches>,
    options: &T,
) -> Vec<(String, String)> {
    let (Some(matches), Value::Object(fields)) = (
        matches,
        serde_json::to_value(options).expect("options serialize"),
    ) else {
        return Vec::new();
    };
    fields
        .into_iter()
        .filter(|(field, _)| {
            // Asked only of the arguments there are: a debug build of clap panics at others.
            matches.ids().any(|id| id == field)
                && matches.value_source(field) == Some(ValueSource::CommandLine)
        })
        .map(|(field, value)| (field, show(&value)))
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

#[cfg(test)]
mod tests {
    use super::super::{book, tune, Cli, Command};
    use super::given;
    use clap::{CommandFactory, FromArgMatches};

    /// The settings a `--from` command line gives, found among the options its flags make:
    /// each option is a flag's argument, and only the flags on the line count, each with its
    /// value as the manifest writes it.
    #[test]
    fn the_settings_given_are_the_flags_on_the_line() {
        let rows: [(&str, &[(&str, &str)]); 6] = [
            ("tune --from d --steps 9 --allow-missing", &[]),
            ("tune --from d --seed 4 --threads 2", &[("seed", "4")]),
            (
                "tune --from d --variant KALAH --games 7 --depth 2 --opening-plies 4 --seed 3",
                &[
                    ("depth", "2"),
                    ("games", "7"),
                    ("opening_plies", "4"),
                    ("seed", "3"),
                    ("variant", "kalah"),
                ],
            ),
            ("book build --from d --out b.txt --threads 2", &[]),
            (
                "book build --from d --out b.txt --depth 5",
                &[("depth", "5")],
            ),
            (
                "book build --from d --out b.txt --variant ahl --plies 2 --depth 5 --games 9 \
                 --game-depth 3 --explore 7 --seed 2 --line-plies 4 --line-margin 30 \
                 --line-depth 6",
                &[
                    ("depth", "5"),
                    ("explore", "7"),
                    ("game_depth", "3"),
                    ("games", "9"),
                    ("line_depth", "6"),
                    ("line_margin", "30"),
                    ("line_plies", "4"),
                    ("plies", "2"),
                    ("seed", "2"),
                    ("variant", "ahl"),
                ],
            ),
        ];
        for (line, expected) in rows {
            let argv = std::iter::once("awari").chain(line.split_whitespace());
            let matches = Cli::command().try_get_matches_from(argv).expect(line);
            let found = match Cli::from_arg_matches(&matches).expect(line).command {
                Some(Command::Tune(args)) => {
                    given(matches.subcommand_matches("tune"), &tune::options_of(&args))
                }
                Some(Command::Book(book::BookCommand::Build(args))) => {
                    let matches = matches.subcommand_matches("book");
                    let build = matches.and_then(|m| m.subcommand_matches("build"));
                    given(build, &book::options_of(&args))
                }
                _ => panic!("{line}: not tune or book build"),
            };
            let expected: Vec<(String, String)> = expected
                .iter()
                .map(|(field, value)| (field.to_string(), value.to_string()))
                .collect();
            assert_eq!(found, expected, "{line}");
        }
    }
}
