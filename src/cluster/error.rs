//! What can go wrong with a job's shared directory, its manifest, a shard's part or a shard's
//! number: one error type for the room, so that a command can tell a directory of another job
//! from a damaged part or a system's refusal. Each says, for a person, the file or flag and
//! what to do.

use std::fmt;
use std::path::PathBuf;

/// An error of the cluster room.
#[derive(Debug)]
pub enum Error {
    /// `--shard TEXT` names no shard.
    Shard {
        /// What was given.
        text: String,
        /// Why it is no shard.
        why: String,
    },
    /// A file or directory the system would not read or write.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The system's error.
        error: std::io::Error,
    },
    /// The `--out-dir` could not be made the job's.
    OutDir {
        /// The directory.
        dir: PathBuf,
        /// Why.
        why: String,
    },
    /// A manifest that does not read as one.
    NotAManifest {
        /// Its file.
        path: PathBuf,
        /// What it should be: `a match manifest of this referee`.
        kind: String,
        /// The reader's error.
        error: String,
    },
    /// The directory holds another job.
    AnotherJob {
        /// The directory.
        dir: PathBuf,
        /// What it is for: `match`.
        job: String,
        /// Its manifest.
        manifest: PathBuf,
        /// What differs between that job's settings and this command's.
        differs: String,
    },
    /// A setting given with a flag that is not the run's: the flag's words, for a person.
    NotTheRuns(String),
    /// A shard's part that is not one of this run's (another job's, another run's, damaged,
    /// misnamed).
    Part {
        /// Its file.
        path: PathBuf,
        /// Why.
        why: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Shard { text, why } => write!(f, "--shard {text}: {why}"),
            Error::Io { path, error } => write!(f, "{}: {error}", path.display()),
            Error::OutDir { dir, why } => write!(f, "--out-dir {}: {why}", dir.display()),
            Error::NotAManifest { path, kind, error } => {
                write!(f, "{}: not {kind}: {error}", path.display())
            }
            Error::AnotherJob {
                dir,
                job,
                manifest,
                differs,
            } => write!(
                f,
                "--out-dir {} holds another {job} ({}): {differs}; use another directory",
                dir.display(),
                manifest.display()
            ),
            Error::NotTheRuns(text) => f.write_str(text),
            Error::Part { path, why } => write!(f, "{}: {why}", path.display()),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// The commands still speak in words: an error of this room is its sentence.
impl From<Error> for String {
    fn from(e: Error) -> String {
        e.to_string()
    }
}
