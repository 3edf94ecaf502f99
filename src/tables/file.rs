//! Layer files: one per seed count, a 32-byte header, then two arrays of one byte per position.
//! A table file (`oware-12.awtb`, written by `awari tables build`) holds the values, then the
//! ranks (the distance the engine converts with; see
//! [`Solved::ranks`](super::layer::Solved::ranks)). A paths file (`oware-12.awpv`, written by
//! `awari tables paths`) holds the path bounds (encoded as values: at least as tight as the
//! table's), then the point values ([`points`](super::points)).
//!
//! Header (little-endian): magic (`AWARITB\0` or `AWARIPV\0`), format version (u32), variant
//! (u8, its place in [`Variant::ALL`]), seed count (u8), two reserved zero bytes, entry count
//! (u64), CRC-32 of both arrays (u32), four reserved zero bytes. A file is written under a
//! temporary name, synced and renamed, so a directory only ever holds whole files: a build
//! killed at any moment resumes from the first layer missing.

use super::index::layer_size;
use super::value::Value;
use crate::rules::Variant;
#[cfg(feature = "native")]
use memmap2::Mmap;
use std::fmt;
use std::io;
#[cfg(feature = "native")]
use std::io::Write;
use std::path::{Path, PathBuf};

/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// Bytes before the entries.
pub const HEADER: usize = 32;

/// What a layer file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// The table's values and ranks.
    Table,
    /// The path bounds and the point values.
    Paths,
}

impl FileKind {
    fn magic(self) -> &'static [u8; 8] {
        match self {
            FileKind::Table => b"AWARITB\0",
            FileKind::Paths => b"AWARIPV\0",
        }
    }

    fn extension(self) -> &'static str {
        match self {
            FileKind::Table => "awtb",
            FileKind::Paths => "awpv",
        }
    }

    /// The file of layer `n` of `variant` in `dir`: `oware-12.awtb`, `oware-12.awpv`.
    pub fn path(self, dir: &Path, variant: Variant, n: usize) -> PathBuf {
        dir.join(format!("{}-{n:02}.{}", variant.name(), self.extension()))
    }
}

/// The table file of layer `n` of `variant` in `dir`: `oware-12.awtb`.
pub fn layer_path(dir: &Path, variant: Variant, n: usize) -> PathBuf {
    FileKind::Table.path(dir, variant, n)
}

/// What is wrong with a layer file.
#[derive(Debug)]
pub enum FileError {
    /// It cannot be opened or read (missing, no permission...).
    Io(PathBuf, io::Error),
    /// Shorter or longer than its header says.
    Size {
        /// The file.
        path: PathBuf,
        /// Its length.
        actual: u64,
        /// The length it should have.
        expected: u64,
    },
    /// Not a table file, or a version this build cannot read.
    Header(PathBuf, String),
    /// A table of another rule set or layer than its name says.
    Mismatch(PathBuf, String),
    /// The entries do not match the checksum: the file is corrupt.
    Checksum(PathBuf),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            FileError::Size {
                path,
                actual,
                expected,
            } => write!(
                f,
                "{}: truncated or padded: {actual} bytes, expected {expected}",
                path.display()
            ),
            FileError::Header(p, what) => write!(f, "{}: not a table file: {what}", p.display()),
            FileError::Mismatch(p, what) => write!(f, "{}: {what}", p.display()),
            FileError::Checksum(p) => write!(
                f,
                "{}: corrupt: the entries do not match the header's checksum",
                p.display()
            ),
        }
    }
}

impl std::error::Error for FileError {}

impl FileError {
    /// Whether the file simply is not there (as opposed to there and broken).
    pub fn is_missing(&self) -> bool {
        matches!(self, FileError::Io(_, e) if e.kind() == io::ErrorKind::NotFound)
    }
}

/// What has become of a layer file in use since it was opened, when its layer must no longer
/// be read: typed, so that a caller (the Python bindings) can tell a file cut short from one
/// rewritten without reading the sentence.
#[derive(Debug)]
pub enum Change {
    /// Its metadata can no longer be read.
    Unreadable(io::Error),
    /// Its length is no longer the one mapped: cut short (truncated), or grown, in place.
    Resized {
        /// Its length now.
        actual: u64,
        /// The length mapped.
        expected: u64,
    },
    /// Written in place: the same length, another modification time.
    Written,
    /// A read of its mapped pages failed (a SIGBUS its guard caught) with no change in sight.
    Faulted,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::Unreadable(e) => write!(f, "unreadable: {e}"),
            Change::Resized { actual, expected } => write!(
                f,
                "changed in place while in use: {actual} bytes, expected {expected}"
            ),
            Change::Written => f.write_str("written in place while in use"),
            Change::Faulted => f.write_str("a read failed while in use (SIGBUS)"),
        }
    }
}

fn variant_code(variant: Variant) -> u8 {
    Variant::ALL
        .iter()
        .position(|&v| v == variant)
        .expect("every variant is in ALL") as u8
}

#[cfg(feature = "native")]
fn header(
    kind: FileKind,
    variant: Variant,
    n: usize,
    entries: &[u8],
    ranks: &[u8],
) -> [u8; HEADER] {
    let mut crc = crc32fast::Hasher::new();
    crc.update(entries);
    crc.update(ranks);
    header_of(kind, variant, n, entries.len() as u64, crc.finalize())
}

fn header_of(kind: FileKind, variant: Variant, n: usize, size: u64, crc: u32) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(kind.magic());
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12] = variant_code(variant);
    h[13] = n as u8;
    h[16..24].copy_from_slice(&size.to_le_bytes());
    h[24..28].copy_from_slice(&crc.to_le_bytes());
    h
}

/// The header of a table file of layer `n` of `variant` with `size` positions whose two arrays
/// have the CRC-32 `crc`: for a writer that streams the arrays in and learns the checksum on
/// the way (the MPI build's rank 0).
pub fn table_header(variant: Variant, n: usize, size: u64, crc: u32) -> [u8; HEADER] {
    header_of(FileKind::Table, variant, n, size, crc)
}

/// Writes the table of layer `n` of `variant` into `dir`, whole
/// ([`crate::sys::write::replace_name_with`]: a temporary file, synced, then renamed, also
/// over a FIFO or device left with a layer's name). The error names the file.
///
/// # Panics
/// If `entries` and `ranks` are not both one byte per position of the layer.
#[cfg(feature = "native")]
pub fn write_layer(
    dir: &Path,
    variant: Variant,
    n: usize,
    entries: &[u8],
    ranks: &[u8],
) -> io::Result<PathBuf> {
    write_file(FileKind::Table, dir, variant, n, entries, ranks)
}

/// Writes the paths file of layer `n` of `variant` into `dir`, as [`write_layer`] does.
///
/// # Panics
/// If `bounds` and `points` are not both one byte per position of the layer.
#[cfg(feature = "native")]
pub fn write_paths(
    dir: &Path,
    variant: Variant,
    n: usize,
    bounds: &[u8],
    points: &[u8],
) -> io::Result<PathBuf> {
    write_file(FileKind::Paths, dir, variant, n, bounds, points)
}

#[cfg(feature = "native")]
fn write_file(
    kind: FileKind,
    dir: &Path,
    variant: Variant,
    n: usize,
    entries: &[u8],
    ranks: &[u8],
) -> io::Result<PathBuf> {
    assert!(entries.len() as u64 == layer_size(n) && ranks.len() == entries.len());
    let path = kind.path(dir, variant, n);
    crate::sys::write::replace_name_with(&path, |file| {
        file.write_all(&header(kind, variant, n, entries, ranks))?;
        file.write_all(entries)?;
        file.write_all(ranks)
    })?;
    Ok(path)
}

/// A layer file's bytes: mapped from the file, or (with no operating system to map from, as in
/// WebAssembly) handed over whole ([`Layer::from_bytes`]).
#[cfg(feature = "native")]
type Bytes = Mmap;
#[cfg(not(feature = "native"))]
type Bytes = Box<[u8]>;

/// A layer file, mapped into memory (or given as bytes) and checked.
pub struct Layer {
    map: Bytes,
    size: usize,
    kind: FileKind,
    /// The file mapped, kept open to see whether it changes ([`Layer::changed`]).
    #[cfg(feature = "native")]
    file: std::fs::File,
    /// Its modification time when opened (`None` where the system keeps none).
    #[cfg(feature = "native")]
    modified: Option<std::time::SystemTime>,
}

impl Layer {
    /// Opens and checks layer `n` of `variant` in `dir`: header, size, variant, layer,
    /// checksum, and that every value byte reads as bounds of the layer (so that no byte a file
    /// holds can stop a reader later, whatever its checksum says). The file is memory-mapped:
    /// processes that open the same tables share the page cache.
    #[cfg(feature = "native")]
    pub fn open(dir: &Path, variant: Variant, n: usize) -> Result<Layer, FileError> {
        Layer::open_kind(FileKind::Table, dir, variant, n)
    }

    /// [`Layer::open`] for a file of either kind.
    #[cfg(feature = "native")]
    pub fn open_kind(
        kind: FileKind,
        dir: &Path,
        variant: Variant,
        n: usize,
    ) -> Result<Layer, FileError> {
        let layer = Layer::open_unverified_kind(kind, dir, variant, n)?;
        layer.verify(dir, variant, n)?;
        Ok(layer)
    }

    /// [`Layer::open`] without reading the entries: header, size, variant and layer only,
    /// which costs no more than the first page however large the layer. [`Layer::verify`]
    /// does the rest.
    #[cfg(feature = "native")]
    pub fn open_unverified(dir: &Path, variant: Variant, n: usize) -> Result<Layer, FileError> {
        Layer::open_unverified_kind(FileKind::Table, dir, variant, n)
    }

    /// [`Layer::open_unverified`] for a file of either kind.
    #[cfg(feature = "native")]
    pub fn open_unverified_kind(
        kind: FileKind,
        dir: &Path,
        variant: Variant,
        n: usize,
    ) -> Result<Layer, FileError> {
        let path = kind.path(dir, variant, n);
        // Without waiting, regular files only: a FIFO named like a layer must not hang the
        // engine (its worker opens tables holding the tables' lock).
        let file =
            crate::sys::files::open_regular(&path).map_err(|e| FileError::Io(path.clone(), e))?;
        let metadata = file
            .metadata()
            .map_err(|e| FileError::Io(path.clone(), e))?;
        let len = metadata.len();
        let expected = HEADER as u64 + 2 * layer_size(n);
        if len < HEADER as u64 {
            return Err(FileError::Size {
                path,
                actual: len,
                expected,
            });
        }
        // SAFETY: the map is read-only, and no reference into it outlives the `Layer`, which
        // keeps it mapped. Its bytes are not ours alone, though: this process and `awari tables
        // build` only ever replace a table file by rename, which leaves the mapped bytes as they
        // were, but anyone may write or truncate the file in place (`cp` over it, a copy that
        // fills the disk). Then the bytes read change under us, and a read past the new end
        // raises SIGBUS. Only single bytes are read, each a value checked as it is decoded, so
        // a changed byte is a wrong value, not a broken invariant; the tables opened for play
        // turn SIGBUS into a dropped layer (`Tables` and `crate::sys::sigbus`), and notice a
        // change of size or modification time ([`Layer::changed`]). Other readers (a build
        // rereading its layers) are ended by the signal rather than go on with wrong bytes.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| FileError::Io(path.clone(), e))?;
        let size = check_header(&map, kind, variant, n, &path)?;
        Ok(Layer {
            map,
            size,
            kind,
            modified: metadata.modified().ok(),
            file,
        })
    }

    /// Layer `n` of `variant` from a file's bytes, read by the embedder (a page fetches them),
    /// with every check of [`Layer::open_kind`]. The errors name the file as `kind.path` does
    /// in an empty directory.
    #[cfg(not(feature = "native"))]
    pub fn from_bytes(
        kind: FileKind,
        variant: Variant,
        n: usize,
        bytes: Box<[u8]>,
    ) -> Result<Layer, FileError> {
        let path = kind.path(Path::new(""), variant, n);
        let size = check_header(&bytes, kind, variant, n, &path)?;
        let layer = Layer {
            map: bytes,
            size,
            kind,
        };
        layer.verify(Path::new(""), variant, n)?;
        Ok(layer)
    }

    /// The checks [`Layer::open_unverified`] leaves out: the checksum, and that every value
    /// byte reads as bounds of the layer (in a paths file, also that every point value lies
    /// within its bounds). `dir`, `variant` and `n` name the file in the error.
    pub fn verify(&self, dir: &Path, variant: Variant, n: usize) -> Result<(), FileError> {
        let path = self.kind.path(dir, variant, n);
        let map = &self.map;
        let size = self.size;
        let crc = u32::from_le_bytes(map[24..28].try_into().expect("4 bytes"));
        if crc32fast::hash(&map[HEADER..]) != crc {
            return Err(FileError::Checksum(path));
        }
        if let Some(i) = map[HEADER..HEADER + size]
            .iter()
            .position(|&b| Value::decode(b, n).is_none())
        {
            return Err(FileError::Header(
                path,
                format!(
                    "entry {i}: value byte {} is no bounds of layer {n}",
                    map[HEADER + i]
                ),
            ));
        }
        if self.kind == FileKind::Paths {
            let outside = self
                .entries()
                .iter()
                .zip(self.ranks())
                .position(|(&b, &p)| {
                    Value::decode(b, n).is_some_and(|v| !(v.lo..=v.hi).contains(&p))
                });
            if let Some(i) = outside {
                return Err(FileError::Header(
                    path,
                    format!(
                        "entry {i}: point value {} outside its bounds",
                        self.ranks()[i]
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The values, one byte per position.
    pub fn entries(&self) -> &[u8] {
        &self.map[HEADER..HEADER + self.size]
    }

    /// The ranks (of a paths file: the point values), one byte per position.
    pub fn ranks(&self) -> &[u8] {
        &self.map[HEADER + self.size..]
    }

    /// Every byte mapped: header, entries and ranks.
    pub fn bytes(&self) -> &[u8] {
        &self.map
    }

    /// Lets go of the pages read so far (they stay in the page cache, and a later read maps
    /// them again), so that a file read whole, as [`Layer::verify`] reads it, or read here
    /// and there over a long run, stops counting in the process's resident memory.
    #[cfg(feature = "native")]
    pub fn release(&self) {
        // SAFETY: the mapping is read-only and of a file: after `MADV_DONTNEED` a read maps
        // the file's page again, with the same bytes, so no reference into it sees a change.
        let _ = unsafe {
            self.map
                .unchecked_advise(memmap2::UncheckedAdvice::DontNeed)
        };
    }

    /// What has become of the file since it was opened, if it was written or truncated in
    /// place: its size or its modification time changed (a file replaced by rename is not
    /// changed: the old one stays mapped, whole). One `fstat`.
    #[cfg(feature = "native")]
    pub fn changed(&self) -> Option<Change> {
        let metadata = match self.file.metadata() {
            Ok(metadata) => metadata,
            Err(e) => return Some(Change::Unreadable(e)),
        };
        let expected = self.map.len() as u64;
        if metadata.len() != expected {
            Some(Change::Resized {
                actual: metadata.len(),
                expected,
            })
        } else if metadata.modified().ok() != self.modified {
            Some(Change::Written)
        } else {
            None
        }
    }
}

/// The header's checks and the size: magic, version, rule set, layer, entry count, and the
/// length the entry count makes. Returns the entry count.
fn check_header(
    map: &[u8],
    kind: FileKind,
    variant: Variant,
    n: usize,
    path: &Path,
) -> Result<usize, FileError> {
    let len = map.len() as u64;
    let expected = HEADER as u64 + 2 * layer_size(n);
    if len < HEADER as u64 {
        return Err(FileError::Size {
            path: path.to_path_buf(),
            actual: len,
            expected,
        });
    }
    if &map[..8] != kind.magic() {
        return Err(FileError::Header(path.to_path_buf(), "bad magic".into()));
    }
    let version = u32::from_le_bytes(map[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(FileError::Header(
            path.to_path_buf(),
            format!("format version {version}, this build reads {VERSION}"),
        ));
    }
    let code = map[12];
    if code != variant_code(variant) {
        let theirs = Variant::ALL
            .get(usize::from(code))
            .map_or_else(|| format!("unknown ({code})"), |v| v.name().to_string());
        return Err(FileError::Mismatch(
            path.to_path_buf(),
            format!("wrong variant: holds {theirs}, expected {}", variant.name()),
        ));
    }
    if usize::from(map[13]) != n {
        return Err(FileError::Mismatch(
            path.to_path_buf(),
            format!("wrong layer: holds {} seeds, expected {n}", map[13]),
        ));
    }
    let entries = u64::from_le_bytes(map[16..24].try_into().expect("8 bytes"));
    if entries != layer_size(n) {
        return Err(FileError::Mismatch(
            path.to_path_buf(),
            format!(
                "wrong entry count: the header says {entries}, a layer of {n} seeds has {}",
                layer_size(n)
            ),
        ));
    }
    if len != expected {
        return Err(FileError::Size {
            path: path.to_path_buf(),
            actual: len,
            expected,
        });
    }
    Ok(entries as usize)
}
