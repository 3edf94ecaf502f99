//! The manifest of a shared directory: the file that says which job the directory is for
//! (`match.json`, `tournament.json`, `evolve.json`, `tune.json`, `book.json`). The first
//! shard to arrive writes it; every later one reads it, checks its own settings against it and
//! refuses, naming what differs, if they are another job's; so parts of two jobs never mix.
//!
//! Shards of a job array start at once: several may find no manifest and write one. Each
//! writes its own whole and gives it the manifest's name only if that name is still free
//! ([`crate::sys::write::create_new`]), so exactly one manifest is ever there and every shard,
//! the writer included, checks its settings against that one. (Renaming into place instead
//! would let a later writer replace a manifest a shard had already accepted: two shards of
//! different settings would then both go on.)

use super::error::Error;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// A kind of manifest: its file, how its errors name it, and what makes two differ.
pub struct ManifestFile<'a, M> {
    /// Its name in the directory: `match.json`.
    pub name: &'a str,
    /// What the directory is for, in a refusal (`holds another match`): `match`.
    pub job: &'a str,
    /// What a file that does not read is not: `a match manifest of this referee`.
    pub kind: &'a str,
    /// What differs between the directory's manifest (the first) and this command's (the
    /// second), for a person; `None` when they are of the same job.
    pub differs: fn(&M, &M) -> Option<String>,
}

impl<M: Serialize + DeserializeOwned> ManifestFile<'_, M> {
    /// Its path in `dir`.
    pub fn path(&self, dir: &Path) -> PathBuf {
        dir.join(self.name)
    }

    /// Reads the manifest of `dir`, if it has one.
    pub fn read(&self, dir: &Path) -> Result<Option<M>, Error> {
        let path = self.path(dir);
        match crate::sys::files::read_regular(&path) {
            Ok(bytes) => {
                serde_json::from_slice(&bytes)
                    .map(Some)
                    .map_err(|e| Error::NotAManifest {
                        path,
                        kind: self.kind.to_string(),
                        error: e.to_string(),
                    })
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(Error::Io { path, error }),
        }
    }

    /// Makes `dir` the directory of the job `here` describes: creates it and writes the
    /// manifest, or checks the one there (another shard's, the one that came first) and says
    /// what differs.
    pub fn settle(&self, dir: &Path, here: &M) -> Result<(), Error> {
        let at = |why: String| Error::OutDir {
            dir: dir.to_path_buf(),
            why,
        };
        std::fs::create_dir_all(dir).map_err(|e| at(e.to_string()))?;
        if self.read(dir)?.is_none() {
            let text = serde_json::to_string_pretty(here).expect("a manifest serializes") + "\n";
            match crate::sys::write::create_new(&self.path(dir), text.as_bytes()) {
                // Another shard's came first: it is the one to check against.
                Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => {}
                other => other.map_err(|e| at(e.to_string()))?,
            }
        }
        let there = self
            .read(dir)?
            .ok_or_else(|| at(format!("{} vanished while starting", self.name)))?;
        match (self.differs)(&there, here) {
            None => Ok(()),
            Some(differs) => Err(Error::AnotherJob {
                dir: dir.to_path_buf(),
                job: self.job.to_string(),
                manifest: self.path(dir),
                differs,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Settings {
        seed: u64,
    }

    const FILE: ManifestFile<'static, Settings> = ManifestFile {
        name: "job.json",
        job: "job",
        kind: "a job's manifest",
        differs: |there, here| {
            (there != here).then(|| format!("seed: {} there, {} here", there.seed, here.seed))
        },
    };

    fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("awari-manifest-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn the_first_shard_writes_it_and_a_shard_of_another_job_is_refused() {
        let dir = scratch("first");
        assert_eq!(FILE.read(&dir).unwrap(), None);
        FILE.settle(&dir, &Settings { seed: 1 }).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join("job.json")).unwrap(),
            "{\n  \"seed\": 1\n}\n"
        );
        FILE.settle(&dir, &Settings { seed: 1 }).unwrap();
        let e = FILE.settle(&dir, &Settings { seed: 2 }).unwrap_err();
        assert!(matches!(e, Error::AnotherJob { .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            format!(
                "--out-dir {} holds another job ({}): seed: 1 there, 2 here; use another \
                 directory",
                dir.display(),
                dir.join("job.json").display()
            )
        );
        assert_eq!(FILE.read(&dir).unwrap(), Some(Settings { seed: 1 }));
        // A damaged manifest is named, not taken for none.
        std::fs::write(dir.join("job.json"), "{\"seed\": ").unwrap();
        let e = FILE.settle(&dir, &Settings { seed: 1 }).unwrap_err();
        assert!(matches!(e, Error::NotAManifest { .. }), "{e:?}");
        assert!(
            e.to_string().contains("job.json: not a job's manifest"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn of_shards_starting_at_once_only_those_of_the_manifest_that_stays_go_on() {
        // Shards of two jobs started together in one directory, many times over: whichever
        // manifest stays, every shard that went on is of its job and every other was refused.
        for round in 0..40 {
            let dir = scratch(&format!("race-{round}"));
            let barrier = std::sync::Barrier::new(8);
            let settled: Vec<(u64, bool)> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..8u64)
                    .map(|t| {
                        let (dir, barrier) = (&dir, &barrier);
                        scope.spawn(move || {
                            let here = Settings { seed: t % 2 };
                            barrier.wait();
                            (here.seed, FILE.settle(dir, &here).is_ok())
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
            let stayed = FILE.read(&dir).unwrap().unwrap().seed;
            for (seed, ok) in settled {
                assert_eq!(
                    ok,
                    seed == stayed,
                    "round {round}: seed {seed}, {stayed} stayed"
                );
            }
            let names: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
            assert_eq!(names.len(), 1, "round {round}: {names:?}");
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}
