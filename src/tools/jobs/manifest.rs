//! The manifests of the sharded runs (`tune.json`, `book.json`): the settings every shard of a
//! run must share, written by the first shard and read back by the others and by `--from`.
//! Each holds its command's options whole (flattened: their fields are the manifest's), so
//! that the settings are listed once, in the options.

use crate::cluster::outdir;
use crate::search::eval::{Evaluator, Weights, WEIGHTS};
use crate::tools::book::BuildOptions;
use crate::tools::tune::TuneOptions;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The manifest of a tuning run's directory.
pub const TUNE_MANIFEST: &str = "tune.json";

/// The manifest of a book build's directory.
pub const BOOK_MANIFEST: &str = "book.json";

/// The weights as engine options and values.
fn weights_map(weights: &Weights) -> BTreeMap<String, i32> {
    WEIGHTS
        .iter()
        .map(|w| (w.option.to_string(), (w.get)(weights)))
        .collect()
}

/// The weights of [`weights_map`]; every one must be there.
fn weights_of(map: &BTreeMap<String, i32>) -> Result<Weights, String> {
    let mut weights = Weights::OWARE;
    for w in &WEIGHTS {
        let value = map
            .get(w.option)
            .ok_or_else(|| format!("the weights lack {}", w.option))?;
        (w.set)(&mut weights, *value);
    }
    Ok(weights)
}

/// The settings that decide a tuning run's samples: every shard's must be these.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TuneManifest {
    /// The run's options, their fields the manifest's own, as the directories of runs before
    /// have them (`variant`, `games`, `depth`, `opening_plies`, `seed`; not `threads`, as the
    /// games are the same on any number).
    #[serde(flatten)]
    pub options: TuneOptions,
    /// The weights the games were played with, by engine option.
    pub weights: BTreeMap<String, i32>,
    /// The endgame tables' reach in seeds, if the games used tables.
    pub tables: Option<u64>,
    /// Shards of the run.
    pub shards: u64,
}

impl TuneManifest {
    /// The manifest of a run of `options` with `weights`, tables reaching `tables` seeds (if
    /// any), in `shards` shards.
    pub fn new(
        options: &TuneOptions,
        weights: &Weights,
        tables: Option<usize>,
        shards: u64,
    ) -> TuneManifest {
        TuneManifest {
            options: options.clone(),
            weights: weights_map(weights),
            tables: tables.map(|t| t as u64),
            shards,
        }
    }

    /// The weights the games were played with (the fit starts from them).
    pub fn weights(&self) -> Result<Weights, String> {
        weights_of(&self.weights)
    }
}

/// The manifest of the tuning run in `dir`: an error if there is none.
pub fn tune_manifest(dir: &Path) -> Result<TuneManifest, String> {
    let manifest: TuneManifest = outdir::read_manifest(dir, TUNE_MANIFEST)
        .map_err(|e| format!("--from: {e}"))?
        .ok_or_else(|| no_manifest(dir, TUNE_MANIFEST, "awari tune"))?;
    manifest
        .weights()
        .map_err(|e| format!("--from: {TUNE_MANIFEST}: {e}"))?;
    if manifest.shards == 0 {
        return Err(format!("--from: {TUNE_MANIFEST}: 0 shards"));
    }
    Ok(manifest)
}

fn no_manifest(dir: &Path, name: &str, command: &str) -> String {
    if dir.is_dir() {
        format!(
            "--from {}: no {name} there: not the --out-dir of `{command} --shard K/N --out-dir DIR`",
            dir.display()
        )
    } else {
        format!("--from {}: no such directory", dir.display())
    }
}

/// The settings that decide a book: every shard's must be these.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BookManifest {
    /// The build's options, their fields the manifest's own, as the directories of builds
    /// before have them.
    #[serde(flatten)]
    pub options: BuildOptions,
    /// The weights of the searches, by engine option.
    pub weights: BTreeMap<String, i32>,
    /// The network of the searches (its checksum, in hexadecimal), if they use one.
    pub network: Option<String>,
    /// Shards of the build.
    pub shards: u64,
}

/// The most plies a book build goes to (as `awari book build --plies` allows).
const MAX_PLIES: usize = 8;

impl BookManifest {
    /// The manifest of a build of `options` in `shards` shards, whose searches evaluate as
    /// the engine plays ([`Evaluator::engine`]).
    pub fn new(options: &BuildOptions, shards: u64) -> BookManifest {
        let evaluator = Evaluator::engine(options.variant);
        BookManifest {
            options: *options,
            weights: weights_map(&evaluator.weights),
            network: evaluator.network.map(|n| format!("{:016x}", n.checksum())),
            shards,
        }
    }

    /// Whether this program could have made the build: within its reach, in shards.
    pub fn check(&self) -> Result<(), String> {
        let BuildOptions {
            plies, line_plies, ..
        } = self.options;
        if plies.max(line_plies) > MAX_PLIES || self.shards == 0 {
            return Err(format!(
                "{plies} plies (main lines {line_plies}) in {} shards: not a book build of this \
                 program",
                self.shards
            ));
        }
        Ok(())
    }
}

/// The manifest of the book build in `dir`: an error if there is none.
pub fn book_manifest(dir: &Path) -> Result<BookManifest, String> {
    let manifest: BookManifest = outdir::read_manifest(dir, BOOK_MANIFEST)
        .map_err(|e| format!("--from: {e}"))?
        .ok_or_else(|| no_manifest(dir, BOOK_MANIFEST, "awari book build"))?;
    manifest
        .check()
        .map_err(|e| format!("--from: {BOOK_MANIFEST}: {e}"))?;
    Ok(manifest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;
    use serde::de::DeserializeOwned;

    /// The manifest's text as `outdir` writes it, and its fields in that order.
    fn written<M: Serialize>(manifest: &M) -> (String, Vec<String>) {
        let text = serde_json::to_string_pretty(manifest).unwrap() + "\n";
        let fields = text
            .lines()
            .filter_map(|l| l.strip_prefix("  \""))
            .map(|l| l[..l.find('"').unwrap()].to_string())
            .collect();
        (text, fields)
    }

    /// `text` read as a manifest, then written again: the same text.
    fn read_back<M: Serialize + DeserializeOwned>(text: &str) -> M {
        let manifest: M = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
        assert_eq!(written(&manifest).0, text, "written back as read");
        manifest
    }

    const BOOK_FIELDS: [&str; 13] = [
        "variant",
        "plies",
        "depth",
        "games",
        "game_depth",
        "explore",
        "seed",
        "line_plies",
        "line_margin",
        "line_depth",
        "weights",
        "network",
        "shards",
    ];

    const TUNE_FIELDS: [&str; 8] = [
        "variant",
        "games",
        "depth",
        "opening_plies",
        "seed",
        "weights",
        "tables",
        "shards",
    ];

    /// A book build's manifest holds its options under their names and in their order, as
    /// directories written before have them, and reads back as the same options.
    #[test]
    fn book_manifests_hold_their_options_by_name() {
        let options = |variant, plies, line_plies| BuildOptions {
            variant,
            plies,
            depth: 22,
            games: 2000,
            game_depth: 10,
            explore: 100,
            seed: 7,
            line_plies,
            line_margin: 25,
            line_depth: 12,
        };
        // (options, shards, whether a network searches)
        let rows = [
            (options(Variant::Oware, 3, 8), 40, true),
            (options(Variant::Kalah, 1, 0), 1, false),
            (options(Variant::KalahEmpty, 0, 2), 3, false),
        ];
        for (options, shards, network) in rows {
            let manifest = BookManifest::new(&options, shards);
            let (text, fields) = written(&manifest);
            assert_eq!(fields, BOOK_FIELDS, "{text}");
            assert_eq!(manifest.network.is_some(), network, "{text}");
            let read: BookManifest = read_back(&text);
            assert_eq!(read, manifest);
            assert_eq!(read.options, options);
            assert_eq!(read.check(), Ok(()));
        }
    }

    /// A tuning run's manifest holds the options that decide its samples (not its threads)
    /// under their names and in their order, and reads back as the same options.
    #[test]
    fn tune_manifests_hold_their_options_by_name() {
        let options = |variant, seed| TuneOptions {
            variant,
            games: 10_000,
            depth: 8,
            opening_plies: 6,
            seed,
            threads: 4,
        };
        // (options, the weights, the tables' reach, shards)
        let rows = [
            (options(Variant::Oware, 1), Weights::OWARE, Some(18), 10),
            (options(Variant::Ahl, 3), Weights::AHL, None, 1),
        ];
        for (options, weights, tables, shards) in rows {
            let manifest = TuneManifest::new(&options, &weights, tables, shards);
            let (text, fields) = written(&manifest);
            assert_eq!(fields, TUNE_FIELDS, "{text}");
            let read: TuneManifest = read_back(&text);
            assert_eq!(
                read.options,
                TuneOptions {
                    threads: 1,
                    ..options
                }
            );
            assert_eq!(read.weights(), Ok(weights));
            assert_eq!(
                (read.tables, read.shards),
                (tables.map(|t| t as u64), shards)
            );
        }
    }

    /// Manifests as this program wrote them before their options were a type of their own
    /// read as they did, and are written back the same; one with a field more, or less, is
    /// refused, as is an unknown rule set.
    #[test]
    fn manifests_written_before_read_and_others_are_refused() {
        let weights = "  \"weights\": {\n    \"EvalA2\": 155,\n    \"EvalA3\": 142,\n    \
                       \"EvalB2\": 106,\n    \"EvalB3\": 44,\n    \"EvalCapture\": 0,\n    \
                       \"EvalFree\": 0,\n    \"EvalKroo\": 142,\n    \"EvalMobility\": 119,\n    \
                       \"EvalRow\": 0,\n    \"EvalTempo\": -25,\n    \"EvalThreat\": 0\n  },\n";
        let book = format!(
            "{{\n  \"variant\": \"oware\",\n  \"plies\": 1,\n  \"depth\": 3,\n  \"games\": 4,\n  \
             \"game_depth\": 2,\n  \"explore\": 100,\n  \"seed\": 1,\n  \"line_plies\": 2,\n  \
             \"line_margin\": 30,\n  \"line_depth\": 2,\n{weights}  \"network\": \
             \"35b6df84e2ff9614\",\n  \"shards\": 1\n}}\n"
        );
        let tune = format!(
            "{{\n  \"variant\": \"oware\",\n  \"games\": 3,\n  \"depth\": 2,\n  \
             \"opening_plies\": 2,\n  \"seed\": 5,\n{weights}  \"tables\": null,\n  \
             \"shards\": 1\n}}\n"
        );
        let read: BookManifest = read_back(&book);
        assert_eq!(
            read.options,
            BuildOptions {
                variant: Variant::Oware,
                plies: 1,
                depth: 3,
                games: 4,
                game_depth: 2,
                explore: 100,
                seed: 1,
                line_plies: 2,
                line_margin: 30,
                line_depth: 2,
            }
        );
        assert_eq!(read.network.as_deref(), Some("35b6df84e2ff9614"));
        let read: TuneManifest = read_back(&tune);
        assert_eq!(
            read.options,
            TuneOptions {
                variant: Variant::Oware,
                games: 3,
                depth: 2,
                opening_plies: 2,
                seed: 5,
                threads: 1,
            }
        );
        assert_eq!(read.weights(), Ok(Weights::OWARE));
        // (text replaced, by what, the error's start), in the book's manifest, the tuning
        // run's or both: threads are no setting of either.
        let refused = [
            (
                "\"seed\": 1,",
                "\"seed\": 1, \"threads\": 2,",
                "unknown field `threads`",
            ),
            (
                "\"seed\": 5,",
                "\"seed\": 5, \"threads\": 2,",
                "unknown field `threads`",
            ),
            (
                "\"shards\": 1",
                "\"shards\": 1, \"more\": 0",
                "unknown field `more`",
            ),
            ("\"line_depth\": 2,", "", "missing field `line_depth`"),
            ("\"opening_plies\": 2,", "", "missing field `opening_plies`"),
            ("\"oware\"", "\"chess\"", "unknown variant `chess`"),
        ];
        fn refusal<M: DeserializeOwned>(text: &str) -> Option<String> {
            serde_json::from_str::<M>(text).err().map(|e| e.to_string())
        }
        for (from, to, error) in refused {
            let mut tried = 0;
            for (text, refusal) in [
                (&book, refusal::<BookManifest> as fn(&str) -> Option<String>),
                (&tune, refusal::<TuneManifest>),
            ] {
                if !text.contains(from) {
                    continue;
                }
                let changed = text.replacen(from, to, 1);
                let got = refusal(&changed).unwrap_or_else(|| panic!("read: {changed}"));
                assert!(got.starts_with(error), "{got}, not {error}: {changed}");
                tried += 1;
            }
            assert!(tried > 0, "{from}");
        }
    }
}
