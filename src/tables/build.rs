//! `awari tables build`: solves and writes layers 0..=N in order, resuming after the last whole
//! file, on a pool of threads, with progress on a terminal and plain lines otherwise.

use super::file::{layer_path, write_layer, FileError, Layer};
use super::index::{layer_size, positions_up_to};
use super::layer::{Lower, Progress};
use super::probe::supported;
use super::solve::solve_layer;
use super::value::{Value, MAX_ENCODED_LAYER};
use crate::rules::Variant;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What to build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Oware or kalah.
    pub variant: Variant,
    /// Every layer up to this seed count.
    pub seeds: usize,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Where the files go.
    pub dir: PathBuf,
    /// Progress bars (on a terminal) instead of plain lines.
    pub bars: bool,
}

/// What a build did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Layers solved now.
    pub built: Vec<usize>,
    /// Layers found whole and kept.
    pub kept: Vec<usize>,
    /// Wall time.
    pub time: Duration,
    /// Peak resident memory in bytes, where the platform says.
    pub peak_memory: Option<u64>,
}

/// The smaller layers, mapped from their files (the MPI build reads them through it too).
pub(crate) struct Opened(pub(crate) Vec<Layer>);

impl Lower for Opened {
    #[inline]
    fn value(&self, layer: usize, index: u64) -> Value {
        let l = &self.0[layer];
        // Every byte was checked when the layer was opened; the widest bounds otherwise.
        Value::decode(l.entries()[index as usize], layer).unwrap_or(Value {
            lo: 0,
            hi: layer as u8,
        })
    }

    fn release(&self) {
        for layer in &self.0 {
            layer.release();
        }
    }
}

/// How much longer a position of the next layer takes to solve than one of the last, for the
/// estimate of the time left.
const GROWTH: f64 = 1.15;

/// Progress of one layer: a bar on a terminal, nothing otherwise (the caller prints a line per
/// layer).
struct Bar {
    bar: Option<ProgressBar>,
    done: AtomicU64,
    /// When the layer began.
    start: Instant,
    /// Seconds this layer and the ones after it should take, from the last layer's time per
    /// position grown by [`GROWTH`] a layer (`None` before one was built).
    expected: Option<(f64, f64)>,
}

impl Bar {
    /// The progress of layer `n` of the build `options` asks for (a bar on a terminal where it
    /// asks for bars), `per_position` the seconds a position of the last layer built took, and
    /// that layer.
    fn new(options: &BuildOptions, n: usize, per_position: Option<(f64, usize)>) -> Bar {
        Bar {
            bar: options.bars.then(|| {
                let bar = ProgressBar::new(layer_size(n));
                bar.set_style(
                    ProgressStyle::with_template(&format!(
                        "layer {n:>2} {{msg}} [{{bar:30}}] {{human_pos}}/{{human_len}} {{rate}}, \
                         layer {{elapsed}}"
                    ))
                    .expect("a valid template")
                    .with_key(
                        "rate",
                        |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                            let _ = write!(w, "{:.2} M positions/s", state.per_sec() / 1e6);
                        },
                    )
                    .progress_chars("=> "),
                );
                bar
            }),
            done: AtomicU64::new(0),
            start: Instant::now(),
            expected: per_position.map(|(spp, last)| {
                // The time per position grows by some 15% a layer (layers 15 to 20 of oware).
                let layer = |m: usize| spp * GROWTH.powi((m - last) as i32) * layer_size(m) as f64;
                (layer(n), (n + 1..=options.seeds).map(layer).sum())
            }),
        }
    }

    /// About how long the build has left: this layer's expected time less what it took so
    /// far (at least a tenth of it, while it runs), and the layers after it.
    fn left(&self) -> Option<Duration> {
        let (this, after) = self.expected?;
        let spent = self.start.elapsed().as_secs_f64();
        Some(Duration::from_secs_f64(
            (this - spent).max(this / 10.0) + after,
        ))
    }
}

impl Progress for Bar {
    fn advance(&self, positions: u64) {
        self.done.fetch_add(positions, Ordering::Relaxed);
        if let Some(bar) = &self.bar {
            bar.inc(positions);
            // A pass of the propagating solver may take on positions as it goes.
            if bar.length().is_some_and(|length| bar.position() > length) {
                bar.set_length(bar.position());
            }
        }
    }

    fn pass(&self, number: u32, positions: u64) {
        if let Some(bar) = &self.bar {
            bar.set_length(positions);
            bar.set_position(0);
            bar.set_message(match self.left() {
                Some(left) => format!(
                    "pass {number}, about {} left",
                    indicatif::HumanDuration(left)
                ),
                None => format!("pass {number}"),
            });
        }
    }
}

/// Why a build could not run or finish.
#[derive(Debug)]
pub enum BuildError {
    /// The options make no sense (named in the message).
    Options(String),
    /// The directory could not be made.
    Directory(PathBuf, std::io::Error),
    /// The worker threads could not be started.
    Threads(usize, rayon::ThreadPoolBuildError),
    /// Layer `n`'s file could not be written.
    Write(usize, std::io::Error),
    /// Layer `n`'s file was written but does not read back as a sound layer.
    Reread(usize, FileError),
    /// The ranks of an MPI build were not given the same build, or do not see the same layer
    /// files (named in the message).
    Ranks(String),
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::Options(m) | BuildError::Ranks(m) => f.write_str(m),
            BuildError::Directory(dir, e) => write!(f, "cannot create {}: {e}", dir.display()),
            BuildError::Threads(n, e) => write!(f, "cannot start {n} threads: {e}"),
            BuildError::Write(n, e) => write!(f, "layer {n}: cannot write: {e}"),
            BuildError::Reread(n, e) => write!(f, "layer {n}: written but unreadable: {e}"),
        }
    }
}

impl std::error::Error for BuildError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BuildError::Options(_) | BuildError::Ranks(_) => None,
            BuildError::Directory(_, e) | BuildError::Write(_, e) => Some(e),
            BuildError::Threads(_, e) => Some(e),
            BuildError::Reread(_, e) => Some(e),
        }
    }
}

impl BuildOptions {
    /// Whether the options can build anything: tables for the rule set, layers one byte can
    /// hold, a thread. Both builds ask first, in the same words.
    pub fn check(&self) -> Result<(), BuildError> {
        if !supported(self.variant) {
            return Err(BuildError::Options(format!(
                "no tables for {}: tables exist for oware and kalah (both readings)",
                self.variant
            )));
        }
        if self.seeds > MAX_ENCODED_LAYER {
            return Err(BuildError::Options(format!(
                "--seeds {}: at most {MAX_ENCODED_LAYER}",
                self.seeds
            )));
        }
        if self.threads == 0 {
            return Err(BuildError::Options("--threads must be at least 1".into()));
        }
        Ok(())
    }

    /// Makes the directory and removes the temporary files a stopped build left there, saying
    /// so on `out`: what both builds do (the MPI build on one rank) before the first layer.
    pub(crate) fn prepare(&self, out: &mut dyn Write) -> Result<(), BuildError> {
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| BuildError::Directory(self.dir.clone(), e))?;
        for stale in remove_stale_temporaries(&self.dir, self.variant) {
            let _ = writeln!(
                out,
                "removed {}: a temporary file of a build that was stopped",
                stale.display()
            );
        }
        Ok(())
    }
}

/// Where a build solves its layers: a pool of threads in this process ([`build`]), or the
/// ranks of an MPI job (`tables::distributed`). [`layers`] runs the layer loop of both through
/// this, so that both say the same things in the same words.
pub(crate) trait Workers {
    /// What the build's first line says it runs on: `2 threads`, `4 MPI ranks`.
    fn named(&self) -> String;

    /// Says `line` on `out` (the MPI build: rank 0 only).
    fn say(&self, out: &mut dyn Write, line: &str) {
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }

    /// Layer `n`'s file as it is in the build's directory (the MPI build: as rank 0 found it,
    /// told to every rank).
    fn found(&mut self, options: &BuildOptions, n: usize) -> Found;

    /// Solves layer `n` from the smaller layers in `lower` and writes its file, checked by
    /// reading it back; `per_position` is the last layer built's seconds a position, and its
    /// seed count, for the estimate of the time left.
    fn solve(
        &mut self,
        options: &BuildOptions,
        n: usize,
        lower: &Opened,
        per_position: Option<(f64, usize)>,
    ) -> Result<Built, BuildError>;

    /// Layer `n`'s file for the layers above, `kept` if it was opened already.
    fn open(
        &mut self,
        options: &BuildOptions,
        n: usize,
        kept: Option<Layer>,
    ) -> Result<Layer, BuildError>;

    /// The peak resident memory of this process, and as the last line says it.
    fn peak(&mut self) -> (Option<u64>, String);
}

/// A layer's file as a build finds it.
pub(crate) enum Found {
    /// Whole: kept, and opened already where the build opened it to see.
    Whole(Option<Layer>),
    /// Not there: built.
    Missing,
    /// There, but not a sound layer: built again (the build says why).
    Unsound(FileError),
}

/// What solving and writing a layer found.
pub(crate) struct Built {
    /// Passes over the layer.
    pub(crate) passes: u32,
    /// Positions whose bounds differ (a repetition bounds them).
    pub(crate) unsettled: u64,
    /// Positions evaluated, all passes together.
    pub(crate) evaluated: u64,
    /// The largest rank byte.
    pub(crate) max_rank: u8,
    /// The file read back, where the build read it.
    pub(crate) layer: Option<Layer>,
    /// More to say on the layer's line (the MPI build: the traffic between its ranks).
    pub(crate) more: String,
}

/// Builds the tables `options` asks for, writing one line per layer to `out`.
pub fn build(options: &BuildOptions, out: &mut dyn Write) -> Result<Summary, BuildError> {
    options.check()?;
    options.prepare(out)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| BuildError::Threads(options.threads, e))?;
    layers(options, out, &mut Threads(pool))
}

/// The layers of the build `options` asks for on `workers`, in order, each kept if its file is
/// whole and solved otherwise, with a line for each on `out` and a last line for the build.
pub(crate) fn layers(
    options: &BuildOptions,
    out: &mut dyn Write,
    workers: &mut impl Workers,
) -> Result<Summary, BuildError> {
    workers.say(
        out,
        &format!(
            "building {} tables up to {} seeds ({} positions) in {} with {}",
            options.variant,
            options.seeds,
            positions_up_to(options.seeds),
            options.dir.display(),
            workers.named()
        ),
    );
    let start = Instant::now();
    let mut summary = Summary::default();
    let mut lower = Opened(Vec::new());
    // The last layer built: its seconds per position, and its seed count.
    let mut per_position: Option<(f64, usize)> = None;
    for n in 0..=options.seeds {
        let kept = match workers.found(options, n) {
            Found::Whole(layer) => {
                summary.kept.push(n);
                layer
            }
            found => {
                if let Found::Unsound(e) = found {
                    workers.say(out, &format!("layer {n}: {e}; building it again"));
                }
                let size = layer_size(n);
                let t = Instant::now();
                let built = workers.solve(options, n, &lower, per_position)?;
                let secs = t.elapsed().as_secs_f64();
                // Larger layers take longer per position: the estimate leans on the last one.
                per_position = Some((secs / size.max(1) as f64, n));
                workers.say(out, &layer_line(options, n, secs, &built));
                if built.max_rank == u8::MAX {
                    workers.say(
                        out,
                        &format!(
                            "layer {n}: warning: distances of 255 passes or more share one rank"
                        ),
                    );
                }
                summary.built.push(n);
                built.layer
            }
        };
        lower.0.push(workers.open(options, n, kept)?);
    }
    summary.time = start.elapsed();
    let (peak, said) = workers.peak();
    summary.peak_memory = peak;
    workers.say(
        out,
        &format!(
            "done: {} layers built, {} kept, {:.1} s, peak memory {said}",
            summary.built.len(),
            summary.kept.len(),
            summary.time.as_secs_f64(),
        ),
    );
    Ok(summary)
}

/// The line a build says for layer `n`, built in `secs`.
fn layer_line(options: &BuildOptions, n: usize, secs: f64, built: &Built) -> String {
    let size = layer_size(n).max(1) as f64;
    format!(
        "layer {n:>2}: {:>11} positions, {:>3} passes, {:>5.1}% bounded by repetition, {:>8.2} s, \
         {:>6.2} M positions/s, {:>5.1} evaluations per position ({:.2} M/s){} -> {}",
        layer_size(n),
        built.passes,
        100.0 * built.unsettled as f64 / size,
        secs,
        size / secs.max(1e-9) / 1e6,
        built.evaluated as f64 / size,
        built.evaluated as f64 / secs.max(1e-9) / 1e6,
        built.more,
        layer_path(&options.dir, options.variant, n).display()
    )
}

/// The build on a pool of threads in this process.
struct Threads(rayon::ThreadPool);

impl Workers for Threads {
    fn named(&self) -> String {
        let threads = self.0.current_num_threads();
        format!("{threads} thread{}", if threads == 1 { "" } else { "s" })
    }

    fn found(&mut self, options: &BuildOptions, n: usize) -> Found {
        match Layer::open(&options.dir, options.variant, n) {
            // Opening read it whole; the solves read only what they need of it.
            Ok(layer) => Found::Whole(Some(layer)),
            Err(e) if e.is_missing() => Found::Missing,
            Err(e) => Found::Unsound(e),
        }
    }

    fn solve(
        &mut self,
        options: &BuildOptions,
        n: usize,
        lower: &Opened,
        per_position: Option<(f64, usize)>,
    ) -> Result<Built, BuildError> {
        let bar = Bar::new(options, n, per_position);
        let solved = self
            .0
            .install(|| solve_layer(options.variant, n, lower, &bar));
        if let Some(b) = &bar.bar {
            b.finish_and_clear();
        }
        write_layer(
            &options.dir,
            options.variant,
            n,
            &solved.bytes,
            &solved.ranks,
        )
        .map_err(|e| BuildError::Write(n, e))?;
        let max_rank = solved.ranks.iter().max().copied().unwrap_or(0);
        let (passes, unsettled, evaluated) = (solved.passes, solved.unsettled, solved.evaluated);
        // The layer in memory and its file read back whole would be twice the layer.
        drop(solved);
        let layer =
            Layer::open(&options.dir, options.variant, n).map_err(|e| BuildError::Reread(n, e))?;
        Ok(Built {
            passes,
            unsettled,
            evaluated,
            max_rank,
            layer: Some(layer),
            more: String::new(),
        })
    }

    fn open(
        &mut self,
        options: &BuildOptions,
        n: usize,
        kept: Option<Layer>,
    ) -> Result<Layer, BuildError> {
        let layer = match kept {
            Some(layer) => layer,
            None => Layer::open(&options.dir, options.variant, n)
                .map_err(|e| BuildError::Reread(n, e))?,
        };
        layer.release();
        Ok(layer)
    }

    fn peak(&mut self) -> (Option<u64>, String) {
        let peak = peak_memory();
        let said = peak.map_or_else(
            || "unknown".to_string(),
            |b| format!("{:.1} MiB", b as f64 / 1048576.0),
        );
        (peak, said)
    }
}

/// The process's peak resident memory (Linux's `VmHWM`).
pub fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Removes the temporary layer files (`.<variant>-NN.awtb.tmp-PID-N`, see
/// [`crate::sys::write::temporary_of`]) that builds which are no longer running left in
/// `dir` when they were killed; returns their paths. A file whose process is alive (another
/// build at work, or a process that took the dead one's id) is left alone.
pub fn remove_stale_temporaries(dir: &Path, variant: Variant) -> Vec<PathBuf> {
    let prefix = format!("{}-", variant.name());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(pid) = crate::sys::write::temporary_of(name)
            .filter(|(target, _)| target.starts_with(&prefix) && target.ends_with(".awtb"))
            .and_then(|(_, pid)| i32::try_from(pid).ok())
            .filter(|&pid| pid > 0)
        else {
            continue;
        };
        let alive = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None)
            .map_or_else(|e| e != nix::errno::Errno::ESRCH, |()| true);
        if !alive && std::fs::remove_file(entry.path()).is_ok() {
            removed.push(entry.path());
        }
    }
    removed.sort();
    removed
}
