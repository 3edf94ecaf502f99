//! Tables opened for play: the layer files of one rule set in one directory, memory-mapped
//! once per process and shared by every search in it.

#[cfg(feature = "native")]
use super::file::{Change, FileError};
use super::file::{FileKind, Layer};
use super::index::locate;
#[cfg(feature = "native")]
use super::problem::Dropped;
use super::problem::Problem;
use super::value::{Value, MAX_ENCODED_LAYER};
use crate::rules::{Board, Variant};
#[cfg(feature = "native")]
use crate::sys::sigbus::{self, Guard};
#[cfg(feature = "native")]
use once_cell::sync::Lazy;
#[cfg(feature = "native")]
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
#[cfg(feature = "native")]
use std::sync::Arc;
use std::sync::{Mutex, PoisonError};

/// Whether `variant` has tables: oware and kalah, in both readings. (Awari's grand slam ends the game and its
/// move limit counts plies, so oware's values are not awari's; ahl's bonus move and ayoayo's
/// relay sowing are not built.)
pub fn supported(variant: Variant) -> bool {
    matches!(
        variant,
        Variant::Oware | Variant::Kalah | Variant::KalahEmpty
    )
}

/// The directory tables go to and are read from when none is named: `awari/tables` in the
/// platform's data directory (`$XDG_DATA_HOME` or `~/.local/share` on Linux,
/// `~/Library/Application Support` on macOS, `%APPDATA%` on Windows).
#[cfg(feature = "native")]
pub fn default_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("awari").join("tables"))
}

/// Lowers the calling thread's priority to the least, so that checking the tables' checksums
/// takes only the time a search leaves. On Linux a thread's nice value is its own; elsewhere it
/// would be the process's, so nothing is done there.
#[cfg(feature = "native")]
fn yield_to_search() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only reads its arguments; `who` 0 is the calling thread on Linux.
    unsafe {
        nix::libc::setpriority(nix::libc::PRIO_PROCESS, 0, 19);
    }
}

/// The layers of one rule set found in a directory.
pub struct Tables {
    variant: Variant,
    dir: PathBuf,
    /// `layers[n]`: layer `n`, if its file is there and sound.
    layers: Vec<Option<Layer>>,
    /// `dropped[n]`: layer `n` failed [`Tables::verify`], or its file changed under us
    /// ([`Tables::recheck`]), and is no longer used.
    dropped: Vec<AtomicBool>,
    /// `paths[n]`: the paths file of layer `n` (`awari tables paths`), if there and sound.
    paths: Vec<Option<Layer>>,
    /// `paths_dropped[n]`: the paths file of layer `n` failed [`Tables::verify`] or changed.
    paths_dropped: Vec<AtomicBool>,
    /// `guards[n]`, `paths_guards[n]`: a read of layer `n`'s file (its paths file) past an end
    /// it was truncated to drops it ([`sigbus`]) instead of ending the process. Each points at
    /// its flag in `dropped` (`paths_dropped`), so they go first (see `Drop`).
    #[cfg(feature = "native")]
    guards: Vec<Option<Guard>>,
    #[cfg(feature = "native")]
    paths_guards: Vec<Option<Guard>>,
    /// The files whose change [`Tables::recheck`] has reported.
    #[cfg(feature = "native")]
    noticed: Mutex<Vec<(FileKind, usize)>>,
    /// Whether the layers' checksums are still to be checked ([`Tables::open_unverified`]).
    unverified: bool,
    problems: Mutex<Vec<Problem>>,
}

/// The tables opened in this process, by directory and rule set.
#[cfg(feature = "native")]
type Opened = HashMap<(PathBuf, Variant), Arc<Tables>>;
#[cfg(feature = "native")]
static OPENED: Lazy<Mutex<Opened>> = Lazy::new(|| Mutex::new(HashMap::new()));

impl Tables {
    /// Opens every layer of `variant` in `dir`, from 0 up to the last file present. A missing
    /// layer below the last one, or a file that is truncated, corrupt or of another rule set,
    /// is left out and described in [`Tables::problems`]; the others are used. Every byte is
    /// read and checked (see [`Layer::open`]). The paths files of the layers present are
    /// opened with them where they are there; one that is there but unsound is left out and
    /// described in the problems.
    #[cfg(feature = "native")]
    pub fn open(dir: &Path, variant: Variant) -> Tables {
        Tables::open_with(dir, variant, Layer::open_kind)
    }

    /// [`Tables::open`] reading only each file's header and size: the cost does not grow with
    /// the tables. The checksums are left to [`Tables::verify`].
    #[cfg(feature = "native")]
    pub fn open_unverified(dir: &Path, variant: Variant) -> Tables {
        let mut tables = Tables::open_with(dir, variant, Layer::open_unverified_kind);
        tables.unverified = true;
        tables
    }

    #[cfg(feature = "native")]
    fn open_with(
        dir: &Path,
        variant: Variant,
        open: fn(FileKind, &Path, Variant, usize) -> Result<Layer, FileError>,
    ) -> Tables {
        let mut layers = Vec::new();
        let mut problems = Vec::new();
        let mut missing = Vec::new();
        // A path that is not a readable directory is one problem, not one per layer.
        let listed = match std::fs::read_dir(dir) {
            Ok(_) => true,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
            Err(e) => {
                problems.push(Problem::Unreadable {
                    dir: dir.to_path_buf(),
                    why: Arc::new(e),
                });
                false
            }
        };
        if supported(variant) && listed {
            for n in 0..=MAX_ENCODED_LAYER {
                match open(FileKind::Table, dir, variant, n) {
                    Ok(layer) => {
                        for m in missing.drain(..) {
                            problems
                                .push(Problem::Missing(super::file::layer_path(dir, variant, m)));
                        }
                        layers.resize_with(n, || None);
                        layers.push(Some(layer));
                    }
                    Err(e) if e.is_missing() => missing.push(n),
                    Err(e) => {
                        for m in missing.drain(..) {
                            problems
                                .push(Problem::Missing(super::file::layer_path(dir, variant, m)));
                        }
                        problems.push(e.into());
                    }
                }
            }
        }
        let paths: Vec<Option<Layer>> = (0..layers.len())
            .map(|n| {
                layers[n].as_ref()?;
                match open(FileKind::Paths, dir, variant, n) {
                    Ok(layer) => Some(layer),
                    Err(e) if e.is_missing() => None,
                    Err(e) => {
                        problems.push(e.into());
                        None
                    }
                }
            })
            .collect();
        Tables {
            variant,
            dir: dir.to_path_buf(),
            dropped: layers.iter().map(|_| AtomicBool::new(false)).collect(),
            layers,
            paths_dropped: paths.iter().map(|_| AtomicBool::new(false)).collect(),
            paths,
            guards: Vec::new(),
            paths_guards: Vec::new(),
            noticed: Mutex::new(Vec::new()),
            unverified: false,
            problems: Mutex::new(problems),
        }
    }

    /// Tables from the files' bytes an embedder read (the page fetches them next to itself):
    /// `files` holds each file's kind, layer and bytes. Each file is checked whole
    /// ([`Layer::from_bytes`]); one that fails, and a missing layer below the last one given,
    /// are left out and described in [`Tables::problems`], as [`Tables::open`] does for a
    /// directory.
    #[cfg(not(feature = "native"))]
    pub fn from_bytes(variant: Variant, files: Vec<(FileKind, usize, Box<[u8]>)>) -> Tables {
        let mut layers: Vec<Option<Layer>> = Vec::new();
        let mut paths: Vec<Option<Layer>> = Vec::new();
        let mut problems = Vec::new();
        for (kind, n, bytes) in files {
            if n > MAX_ENCODED_LAYER || !supported(variant) {
                problems.push(Problem::NotALayer(kind.path(Path::new(""), variant, n)));
                continue;
            }
            match Layer::from_bytes(kind, variant, n, bytes) {
                Ok(layer) => {
                    let list = match kind {
                        FileKind::Table => &mut layers,
                        FileKind::Paths => &mut paths,
                    };
                    if list.len() <= n {
                        list.resize_with(n + 1, || None);
                    }
                    list[n] = Some(layer);
                }
                Err(e) => problems.push(e.into()),
            }
        }
        for (n, layer) in layers.iter().enumerate() {
            if layer.is_none() {
                problems.push(Problem::Missing(super::file::layer_path(
                    Path::new(""),
                    variant,
                    n,
                )));
            }
        }
        // A paths file counts only beside its layer.
        paths.truncate(layers.len());
        for (n, path) in paths.iter_mut().enumerate() {
            if layers[n].is_none() {
                *path = None;
            }
        }
        Tables {
            variant,
            dir: PathBuf::new(),
            dropped: layers.iter().map(|_| AtomicBool::new(false)).collect(),
            layers,
            paths_dropped: paths.iter().map(|_| AtomicBool::new(false)).collect(),
            paths,
            unverified: false,
            problems: Mutex::new(problems),
        }
    }

    /// These tables, with a read of a page that was cut off from a file under them dropping
    /// that layer ([`sigbus`]) instead of ending the process: for the tables of play
    /// ([`Tables::reopen`]), where a search can go on without a layer, and for the Python
    /// bindings, where the probe that read it can raise instead of ending the interpreter. The
    /// tools that compute from the tables ([`Tables::open`]: `awari tables paths`, `solve`,
    /// ...) stay unguarded, and stop with SIGBUS rather than carry on as if the layer had never
    /// been there.
    #[cfg(feature = "native")]
    pub fn guarded(mut self) -> Tables {
        // The vectors are complete and never resized, so the flags stay where the guards
        // point (moving `self` moves no element).
        let guard = |layers: &[Option<Layer>], dropped: &[AtomicBool]| {
            layers
                .iter()
                .zip(dropped)
                // SAFETY: the layer's bytes are a read-only file mapping; the layer and the
                // flag live in `self`, whose `Drop` ends the guards before either goes.
                .map(|(layer, flag)| unsafe { sigbus::guard(layer.as_ref()?.bytes(), flag) })
                .collect()
        };
        self.guards = guard(&self.layers, &self.dropped);
        self.paths_guards = guard(&self.paths, &self.paths_dropped);
        let unguarded = |layers: &[Option<Layer>], guards: &[Option<Guard>]| {
            layers
                .iter()
                .zip(guards)
                .filter(|(layer, guard)| layer.is_some() && guard.is_none())
                .count()
        };
        let unguarded =
            unguarded(&self.layers, &self.guards) + unguarded(&self.paths, &self.paths_guards);
        if cfg!(target_os = "linux") && unguarded > 0 {
            self.problems
                .get_mut()
                .unwrap_or_else(PoisonError::into_inner)
                .push(Problem::Unguarded {
                    files: unguarded,
                    slots: sigbus::SLOTS,
                });
        }
        self
    }

    /// Drops every layer whose file was written or truncated in place since it was opened
    /// ([`Layer::changed`]) or lost pages under a read (a SIGBUS its guard caught), and adds
    /// each to [`Tables::problems`] once. Returns the files found now. One `fstat` per file:
    /// for each search, not for each probe (a read of a page cut off during a search drops its
    /// layer at once; this says so, and catches a change that did not fault).
    #[cfg(feature = "native")]
    pub fn recheck(&self) -> Vec<Arc<Dropped>> {
        let mut noticed = self.noticed.lock().unwrap_or_else(PoisonError::into_inner);
        let mut found = Vec::new();
        let files = [
            (FileKind::Table, &self.layers, &self.dropped, &self.guards),
            (
                FileKind::Paths,
                &self.paths,
                &self.paths_dropped,
                &self.paths_guards,
            ),
        ];
        for (kind, layers, dropped, guards) in files {
            for (n, layer) in layers.iter().enumerate() {
                let Some(layer) = layer else { continue };
                if noticed.contains(&(kind, n)) {
                    continue;
                }
                let faulted = guards[n].as_ref().is_some_and(Guard::faulted);
                let change = layer
                    .changed()
                    .or_else(|| faulted.then_some(Change::Faulted));
                if let Some(change) = change {
                    dropped[n].store(true, Ordering::Relaxed);
                    noticed.push((kind, n));
                    found.push(Arc::new(Dropped {
                        path: kind.path(&self.dir, self.variant, n),
                        kind,
                        layer: n,
                        change,
                        faulted,
                    }));
                }
            }
        }
        self.problems
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend(found.iter().cloned().map(Problem::Dropped));
        found
    }

    /// Checks the checksum and the value bytes of every layer that [`Tables::open_unverified`]
    /// left unchecked; a layer that fails is dropped (from then on it is as if missing) and
    /// added to [`Tables::problems`]. Returns what failed. Reads every byte: run
    /// it where no clock runs (a thread of its own, `awari tables verify`).
    pub fn verify(&self) -> Vec<Problem> {
        self.verify_layers(|_| true)
    }

    /// [`Tables::verify`] of the layers of the seeds `wanted` picks only: a one-off probe reads
    /// a few layers, and checking all of them would read every byte of the tables (1.5 GB at
    /// 24 seeds) for it.
    pub fn verify_layers(&self, wanted: impl Fn(usize) -> bool) -> Vec<Problem> {
        if !self.unverified {
            return Vec::new();
        }
        let mut failed = Vec::new();
        let files = [
            (&self.layers, &self.dropped),
            (&self.paths, &self.paths_dropped),
        ];
        for (layers, dropped) in files {
            for (n, layer) in layers.iter().enumerate() {
                let Some(layer) = layer.as_ref().filter(|_| wanted(n)) else {
                    continue;
                };
                // A layer dropped before or during its check (its file changed: see
                // `recheck`) is reported as changed, not as corrupt.
                if dropped[n].load(Ordering::Relaxed) {
                    continue;
                }
                if let Err(e) = layer.verify(&self.dir, self.variant, n) {
                    if !dropped[n].swap(true, Ordering::Relaxed) {
                        failed.push(Problem::from(e));
                    }
                }
            }
        }
        self.problems
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend(failed.iter().cloned());
        failed
    }

    /// The tables of `variant` in `dir`, opened once per process and shared: the ones
    /// [`Tables::reopen`] opened last, or opened now the same way.
    #[cfg(feature = "native")]
    pub fn shared(dir: &Path, variant: Variant) -> Arc<Tables> {
        if let Some(tables) = Tables::cached(dir, variant) {
            return tables;
        }
        Tables::reopen(dir, variant)
    }

    /// The tables of `variant` in `dir` if this process has opened them; opens nothing.
    #[cfg(feature = "native")]
    pub fn cached(dir: &Path, variant: Variant) -> Option<Arc<Tables>> {
        let opened = OPENED.lock().unwrap_or_else(PoisonError::into_inner);
        opened.get(&(dir.to_path_buf(), variant)).cloned()
    }

    /// Opens the tables of `variant` in `dir` again, headers and sizes only, so that layers
    /// written since the last opening are seen, and shares them from now on in place of the
    /// old ones (which stay valid for whoever holds them). Their checksums are checked on a
    /// thread of their own ([`Tables::verify`]); a layer that fails is dropped then. A layer
    /// whose file is cut short under them is dropped too, when a read finds it (see
    /// [`Tables::recheck`]).
    #[cfg(feature = "native")]
    pub fn reopen(dir: &Path, variant: Variant) -> Arc<Tables> {
        let tables = Arc::new(Tables::open_unverified(dir, variant).guarded());
        OPENED
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert((dir.to_path_buf(), variant), tables.clone());
        if tables.count() == 0 {
            return tables;
        }
        let checked = tables.clone();
        let spawned = std::thread::Builder::new()
            .name("tables-verify".to_string())
            .spawn(move || {
                yield_to_search();
                checked.verify()
            });
        if spawned.is_err() {
            // No thread to be had: checked now, still off any clock (the engine opens tables
            // when set up, not in a search).
            tables.verify();
        }
        tables
    }

    /// Layer `n`, if it is there and has not been dropped.
    #[inline]
    fn layer(&self, n: usize) -> Option<&Layer> {
        let layer = self.layers.get(n)?.as_ref()?;
        (!self.dropped[n].load(Ordering::Relaxed)).then_some(layer)
    }

    /// The paths file of layer `n`, if it is there, its layer too, and neither was dropped.
    #[inline]
    fn paths_layer(&self, n: usize) -> Option<&Layer> {
        self.layer(n)?;
        let layer = self.paths.get(n)?.as_ref()?;
        (!self.paths_dropped[n].load(Ordering::Relaxed)).then_some(layer)
    }

    /// The path bounds and point values of layer `n`, one byte per position each, if its paths
    /// file is there.
    pub fn paths_file(&self, n: usize) -> Option<(&[u8], &[u8])> {
        let layer = self.paths_layer(n)?;
        Some((layer.entries(), layer.ranks()))
    }

    /// The layers that have a paths file.
    pub fn paths_count(&self) -> usize {
        (0..self.paths.len())
            .filter(|&n| self.paths_layer(n).is_some())
            .count()
    }

    /// The rule set.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The largest seed count up to which every layer is there (`None` if layer 0 is not).
    pub fn reach(&self) -> Option<usize> {
        (0..self.layers.len())
            .position(|n| self.layer(n).is_none())
            .map_or_else(
                || self.layers.len().checked_sub(1),
                |first_gap| first_gap.checked_sub(1),
            )
    }

    /// The layers present.
    pub fn count(&self) -> usize {
        (0..self.layers.len())
            .filter(|&n| self.layer(n).is_some())
            .count()
    }

    /// What was wrong with the directory's files, one line each: what opening found, then
    /// what [`Tables::verify`] found.
    pub fn problems(&self) -> Vec<Problem> {
        self.problems
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Whether a board of this rule set with `seeds` on its houses is in the tables.
    #[inline]
    pub fn covers(&self, seeds: usize) -> bool {
        self.layer(seeds).is_some()
    }

    /// The value of `board` for its side to move, if its layer is present. Stores and history
    /// are not looked at: see [`Value`] for what the bounds mean.
    #[inline]
    pub fn probe(&self, board: &Board) -> Option<Value> {
        if board.variant() != self.variant {
            return None;
        }
        let seeds: u32 = board.houses().iter().map(|&h| u32::from(h)).sum();
        let layer = self.layer(seeds as usize)?;
        let (n, index) = locate(board);
        Value::decode(*layer.entries().get(index as usize)?, n)
    }

    /// The path bounds of `board` (at least as tight as [`Tables::probe`]'s) and its point
    /// value (see [`points`](super::points)), if its layer has a paths file.
    #[inline]
    pub fn path(&self, board: &Board) -> Option<(Value, u8)> {
        if board.variant() != self.variant {
            return None;
        }
        let seeds: u32 = board.houses().iter().map(|&h| u32::from(h)).sum();
        let layer = self.paths_layer(seeds as usize)?;
        let (n, index) = locate(board);
        let value = Value::decode(*layer.entries().get(index as usize)?, n)?;
        Some((value, *layer.ranks().get(index as usize)?))
    }

    /// What a search reads for `board`: the path bounds and the point value where its layer
    /// has a paths file, else the table's bounds alone; `None` outside the tables.
    #[inline]
    pub fn probe_for_play(&self, board: &Board) -> Option<(Value, Option<u8>)> {
        match self.path(board) {
            Some((value, point)) => Some((value, Some(point))),
            None => Some((self.probe(board)?, None)),
        }
    }

    /// The rank of `board` (see [`Solved::ranks`](super::layer::Solved::ranks)), if its layer
    /// is present.
    #[inline]
    pub fn rank(&self, board: &Board) -> Option<u8> {
        if board.variant() != self.variant {
            return None;
        }
        // The layer first: a board of more seeds than any layer holds has no rank to compute.
        let seeds: u32 = board.houses().iter().map(|&h| u32::from(h)).sum();
        let layer = self.layer(seeds as usize)?;
        let (_, index) = locate(board);
        layer.ranks().get(index as usize).copied()
    }

    /// Asks the CPU to start loading the entry at `index` of layer `n` (see
    /// [`locate`]), which a probe is about to read: a search that
    /// probes several children can have their entries on the way at once.
    #[inline]
    pub fn prefetch(&self, n: usize, index: u64) {
        let Some(Some(layer)) = self.layers.get(n) else {
            return;
        };
        let Some(entry) = layer.entries().get(index as usize) else {
            return;
        };
        crate::sys::prefetch::prefetch(entry);
    }

    /// The value at `index` of layer `n`, if present.
    pub fn value(&self, n: usize, index: u64) -> Option<Value> {
        let layer = self.layer(n)?;
        Value::decode(*layer.entries().get(index as usize)?, n)
    }
}

#[cfg(feature = "native")]
impl Drop for Tables {
    fn drop(&mut self) {
        // The guards point at the flags: they end before the flags and the mappings go.
        self.guards.clear();
        self.paths_guards.clear();
    }
}

/// A value as `awari tables probe` prints it: `7` when exact, `3..8` when only bounded.
pub fn show(value: Value) -> String {
    match value.exact() {
        Some(v) => v.to_string(),
        None => format!("{}..{}", value.lo, value.hi),
    }
}

/// The value a move of `board` leads to, for the side making it: the seeds of those on the
/// board now that it ends with, if the position after the move is in the tables.
pub fn after_move(tables: &Tables, board: &Board, m: crate::rules::Move) -> Option<Value> {
    let me = board.side_to_move();
    let child = board.play_unchecked(m);
    let gain = child.store(me) - board.store(me);
    let v = tables.probe(&child)?;
    if child.side_to_move() == me {
        Some(Value {
            lo: gain + v.lo,
            hi: gain + v.hi,
        })
    } else {
        let left: u8 = child.houses().iter().sum();
        Some(Value {
            lo: gain + left - v.hi,
            hi: gain + left - v.lo,
        })
    }
}

/// A position no layer present holds: its seeds, and what the tables reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutOfReach {
    /// The seeds on the board.
    pub seeds: usize,
    /// The tables' rule set.
    pub variant: crate::rules::Variant,
    /// Their directory.
    pub dir: std::path::PathBuf,
    /// The most seeds of their layers present, if any is.
    pub reach: Option<usize>,
}

impl std::fmt::Display for OutOfReach {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let reach = self
            .reach
            .map_or_else(|| "none".to_string(), |r| r.to_string());
        write!(
            f,
            "{} seeds on the board: no {} table for that in {} (layers up to {reach})",
            self.seeds,
            self.variant,
            self.dir.display()
        )
    }
}

impl std::error::Error for OutOfReach {}

/// The command line speaks in words: the error is its sentence.
impl From<OutOfReach> for String {
    fn from(e: OutOfReach) -> String {
        e.to_string()
    }
}

/// What `awari tables probe` prints for the current position of `game`: `value N` (or
/// `value LO..HI`), then one line per legal move with the value it leads to. Stores and the
/// history since the last capture are not part of a table value; a line says so when the game
/// has such a history.
pub fn probe_lines(tables: &Tables, game: &crate::rules::Game) -> Result<Vec<String>, OutOfReach> {
    let board = game.board();
    let seeds: usize = board.houses().iter().map(|&h| usize::from(h)).sum();
    let Some(value) = tables.probe(board) else {
        return Err(OutOfReach {
            seeds,
            variant: tables.variant(),
            dir: tables.dir().to_path_buf(),
            reach: tables.reach(),
        });
    };
    let mut lines = vec![format!("value {}", show(value))];
    for m in game.legal_moves() {
        let shown = after_move(tables, board, m).map_or_else(|| "?".to_string(), show);
        lines.push(format!("{m} {shown}"));
    }
    if let Some(outcome) = game.outcome() {
        lines.push(format!("game over: {outcome}"));
    }
    let history = game.keys_since_capture().len();
    if history > 0 {
        lines.push(format!(
            "note: {history} position(s) since the last capture; table values assume none"
        ));
    }
    Ok(lines)
}
