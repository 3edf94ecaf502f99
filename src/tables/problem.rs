//! What is wrong with a set of tables' files: what opening them left out, and what was dropped
//! since. Typed, so that a caller can tell a missing layer from a corrupt file or one changed
//! under the engine without reading the sentence; `Display` writes the sentence.

use super::file::{Change, FileError, FileKind};
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// One problem of a set of tables.
#[derive(Clone, Debug)]
pub enum Problem {
    /// The directory named cannot be read: no layer was looked for.
    Unreadable {
        /// The directory.
        dir: PathBuf,
        /// Why.
        why: Arc<std::io::Error>,
    },
    /// A layer below the last one present has no file: the layers above it cannot be trusted
    /// to have been built from it, and it is as if missing.
    Missing(PathBuf),
    /// A file handed over names no layer of these tables (past the last layer there can be,
    /// or of a rule set that has none).
    NotALayer(PathBuf),
    /// A file failed its checks (header, size, checksum, values), when opened or verified: its
    /// layer is left out.
    File(Arc<FileError>),
    /// This many files are read without a guard (more table files are open in this process
    /// than there are guards): one cut short under the engine ends the process.
    Unguarded {
        /// The files.
        files: usize,
        /// The guards a process has.
        slots: usize,
    },
    /// A file in use changed since it was opened (cut short, rewritten): its layer is dropped.
    #[cfg(feature = "native")]
    Dropped(Arc<Dropped>),
}

impl From<FileError> for Problem {
    fn from(e: FileError) -> Problem {
        Problem::File(Arc::new(e))
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Unreadable { dir, why } => {
                write!(f, "{}: not a readable directory ({why})", dir.display())
            }
            Problem::Missing(path) => write!(f, "{}: missing", path.display()),
            Problem::NotALayer(path) => write!(f, "{}: no layer of these tables", path.display()),
            Problem::File(e) => write!(f, "{e}"),
            Problem::Unguarded { files, slots } => write!(
                f,
                "{files} files are read unguarded (more than {slots} table files are open in \
                 this process): one cut short under the engine ends it"
            ),
            #[cfg(feature = "native")]
            Problem::Dropped(d) => write!(f, "{d}"),
        }
    }
}

/// A file [`Tables::recheck`](super::probe::Tables::recheck) dropped: which, and what became
/// of it.
#[derive(Debug)]
pub struct Dropped {
    /// The file.
    pub path: PathBuf,
    /// A table file or a paths file.
    pub kind: FileKind,
    /// Its layer (the seeds on the board).
    pub layer: usize,
    /// What became of it.
    pub change: Change,
    /// Whether a read of it failed (a SIGBUS its guard caught): the file a probe was reading
    /// when it found the others.
    pub faulted: bool,
}

impl fmt::Display for Dropped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.change)
    }
}
