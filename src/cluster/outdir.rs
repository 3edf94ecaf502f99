//! The shared directory (`--out-dir`) of a job run in shards on a cluster (`awari tune`,
//! `awari book build`): the only channel between the shards and the step that puts their
//! parts together, so a cluster needs nothing but a directory every node mounts.
//!
//! - The manifest (`tune.json`, `book.json`; see [`manifest`](super::manifest)): the settings
//!   that decide the job's results. The first shard writes it; every other shard, and the step
//!   that reads the parts, checks its own settings against it and names what differs, so parts
//!   of two runs never mix.
//! - One file per shard and part (`tune-shard-K-of-N.json`): a JSON document that names what
//!   it holds, its shard and its run's settings, then the data. It is written whole
//!   ([`crate::sys::write`]), so it is either complete or absent; one cut short or damaged
//!   later does not parse and is refused.
//!
//! (The referee's matches have a directory of their own kind, `referee::outdir`: records
//! appended a game at a time, an SPRT read by every shard.)

use super::error::Error;
use super::manifest::ManifestFile;
use super::shard::Shard;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The manifest `name` of a run ([`manifest`](super::manifest)): two differ in the fields
/// [`differences`] names.
fn manifest_file<M: Serialize>(name: &str) -> ManifestFile<'_, M> {
    ManifestFile {
        name,
        job: "run",
        kind: "a manifest of this program",
        differs: |there, here| {
            let differs = differences(&to_value(there), &to_value(here));
            (!differs.is_empty()).then(|| differs.join("; "))
        },
    }
}

/// Reads the manifest `name` of `dir`, if there is one.
pub fn read_manifest<M: Serialize + DeserializeOwned>(
    dir: &Path,
    name: &str,
) -> Result<Option<M>, Error> {
    manifest_file(name).read(dir)
}

/// Makes `dir` the directory of the run `manifest` describes: creates it and writes the
/// manifest as `name`, or checks the one there (another shard's) and says what differs.
pub fn settle<M: Serialize + DeserializeOwned>(
    dir: &Path,
    name: &str,
    manifest: &M,
) -> Result<(), Error> {
    manifest_file(name).settle(dir, manifest)
}

fn to_value<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("settings serialize")
}

/// What differs between two runs' settings, one `field: A there, B here` each (`there` is
/// the directory's, `here` this command's); fields of nested objects as `outer.inner`.
pub fn differences(there: &Value, here: &Value) -> Vec<String> {
    fn walk(path: &str, there: &Value, here: &Value, out: &mut Vec<String>) {
        match (there, here) {
            (Value::Object(a), Value::Object(b)) => {
                let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
                keys.sort();
                keys.dedup();
                for key in keys {
                    let inner = if path.is_empty() {
                        key.clone()
                    } else {
                        format!("{path}.{key}")
                    };
                    walk(
                        &inner,
                        a.get(key).unwrap_or(&Value::Null),
                        b.get(key).unwrap_or(&Value::Null),
                        out,
                    );
                }
            }
            _ if there != here => out.push(format!(
                "{path}: {} there, {} here",
                show(there),
                show(here)
            )),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk("", there, here, &mut out);
    out
}

/// A setting's value as a person writes it: a string without its quotes, `none` for null.
pub fn show(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => "none".to_string(),
        other => other.to_string(),
    }
}

/// Checks the settings a person gave with `--from` against the run's `manifest` (read from
/// `path`): each `(field, value)` of `given` must be the manifest's, so a fit or a merge never
/// reports settings its data were not made with. The flag is the field with `-` for `_`.
pub fn check_given<M: Serialize>(
    path: &Path,
    manifest: &M,
    given: &[(String, String)],
) -> Result<(), Error> {
    let there = to_value(manifest);
    for (field, value) in given {
        let theirs = there.get(field).map(show).unwrap_or_default();
        if &theirs != value {
            return Err(Error::NotTheRuns(format!(
                "--{} {value}: the run in {} has {field} {theirs} ({}); leave the flag out to \
                 take the run's",
                field.replace('_', "-"),
                path.parent().unwrap_or(path).display(),
                path.display()
            )));
        }
    }
    Ok(())
}

/// One shard's part of a run: what the file is, whose, of which run, then the data.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Part<M, T> {
    /// What the file holds, e.g. `awari tune: samples`.
    job: String,
    /// `K/N`.
    shard: String,
    /// The run's manifest.
    settings: M,
    /// The shard's results.
    data: T,
}

/// The path of shard `shard`'s part `prefix` in `dir`: `PREFIX-K-of-N.json`.
pub fn part_path(dir: &Path, prefix: &str, shard: Shard) -> PathBuf {
    dir.join(format!("{prefix}-{}-of-{}.json", shard.index, shard.count))
}

/// Writes shard `shard`'s part `data` of the job `job` (its run: `settings`) into `dir`, whole.
pub fn write_part<M: Serialize, T: Serialize>(
    dir: &Path,
    prefix: &str,
    job: &str,
    shard: Shard,
    settings: &M,
    data: &T,
) -> Result<PathBuf, Error> {
    let path = part_path(dir, prefix, shard);
    let part = Part {
        job: job.to_string(),
        shard: shard.to_string(),
        settings,
        data,
    };
    let mut bytes = serde_json::to_vec(&part).expect("a part serializes");
    bytes.push(b'\n');
    crate::sys::write::replace(&path, &bytes).map_err(|e| Error::Io {
        path: e.path,
        error: e.error,
    })?;
    Ok(path)
}

/// Reads `path`, shard `shard`'s part of the job `job`, and checks that it is one of the run
/// of `settings`; `Ok(None)` if there is no such file.
pub fn read_part<M, T>(
    path: &Path,
    job: &str,
    shard: Shard,
    settings: &M,
) -> Result<Option<T>, Error>
where
    M: Serialize + DeserializeOwned,
    T: DeserializeOwned,
{
    let bytes = match crate::sys::files::read_regular(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => {
            return Err(Error::Io {
                path: path.to_path_buf(),
                error,
            })
        }
    };
    let at = |why: String| Error::Part {
        path: path.to_path_buf(),
        why,
    };
    let part: Part<M, T> = match serde_json::from_slice(&bytes) {
        Ok(part) => part,
        Err(e) => {
            // A whole file of another kind is named as such; anything else is damaged.
            #[derive(Deserialize)]
            struct Label {
                job: String,
            }
            return Err(match serde_json::from_slice::<Label>(&bytes) {
                Ok(label) if label.job != job => at(format!("holds {:?}, not {job:?}", label.job)),
                _ => at(format!(
                    "damaged or cut short ({e}); delete it and run shard {shard} again"
                )),
            });
        }
    };
    if part.job != job {
        return Err(at(format!("holds {:?}, not {job:?}", part.job)));
    }
    if part.shard != shard.to_string() {
        return Err(at(format!(
            "its name says shard {shard}, it says shard {}",
            part.shard
        )));
    }
    let differs = differences(&to_value(&part.settings), &to_value(settings));
    if !differs.is_empty() {
        return Err(at(format!(
            "a part of another run ({}); remove it",
            differs
                .into_iter()
                .map(|d| d.replace(" here", " in the manifest"))
                .collect::<Vec<_>>()
                .join("; ")
        )));
    }
    Ok(Some(part.data))
}

/// The shards whose part `prefix` is in `dir`, with their files, by shard number. Files of
/// another shard count than `count` are refused: they are another run's.
pub fn parts(dir: &Path, prefix: &str, count: u64) -> Result<Vec<(Shard, PathBuf)>, Error> {
    let mut found = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|error| Error::Io {
        path: dir.to_path_buf(),
        error,
    })?;
    for entry in entries.flatten() {
        let path = entry.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(middle) = name
            .strip_prefix(prefix)
            .and_then(|n| n.strip_prefix('-'))
            .and_then(|n| n.strip_suffix(".json"))
        else {
            continue;
        };
        let Some((k, n)) = middle.split_once("-of-") else {
            continue;
        };
        let shard = Shard::parse(&format!("{k}/{n}"), &|_| None).map_err(|_| Error::Part {
            path: path.clone(),
            why: format!("named like a shard's file, but {k}-of-{n} is no shard: remove it"),
        })?;
        if shard.count != count {
            return Err(Error::Part {
                why: format!(
                    "a shard of {}, but the run in {} has {count} shards: another run's; remove it",
                    shard.count,
                    dir.display()
                ),
                path,
            });
        }
        found.push((shard, path));
    }
    found.sort_by_key(|(shard, _)| shard.index);
    Ok(found)
}

/// The shards of `count` not in `present` (sorted), as `1, 2 and 5 more` for a message.
pub fn list_missing(count: u64, present: &[Shard]) -> (Vec<u64>, String) {
    let mut missing = Vec::new();
    let mut have = present.iter().map(|s| s.index).peekable();
    for k in 0..count {
        if have.peek() == Some(&k) {
            have.next();
        } else {
            missing.push(k);
        }
    }
    let shown: Vec<String> = missing.iter().take(10).map(u64::to_string).collect();
    let mut text = shown.join(", ");
    if missing.len() > 10 {
        text.push_str(&format!(" and {} more", missing.len() - 10));
    }
    (missing, text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn differences_name_each_field_that_differs() {
        let there = json!({"games": 6, "seed": 1, "weights": {"EvalA2": 130, "EvalB2": 68}, "tables": null});
        let here =
            json!({"games": 8, "seed": 1, "weights": {"EvalA2": 131, "EvalB2": 68}, "tables": 18});
        assert_eq!(
            differences(&there, &here),
            [
                "games: 6 there, 8 here",
                "tables: none there, 18 here",
                "weights.EvalA2: 130 there, 131 here"
            ]
        );
        assert!(differences(&there, &there).is_empty());
    }

    #[test]
    fn missing_shards_are_listed_shortly() {
        let present = [Shard { index: 1, count: 3 }];
        assert_eq!(list_missing(3, &present), (vec![0, 2], "0, 2".to_string()));
        let (missing, text) = list_missing(20, &[]);
        assert_eq!(missing.len(), 20);
        assert_eq!(text, "0, 1, 2, 3, 4, 5, 6, 7, 8, 9 and 10 more");
    }
}
