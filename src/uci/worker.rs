//! The worker thread: it does, in order, everything that takes time (searches, perft, bench,
//! the classic opponents' moves, the hash table's allocation and clearing, opening the tables,
//! reading the classic players' files), so that the reader never waits. It owns the
//! transposition table and the classic player. It also writes the reader's answers that
//! arrive while it is busy ([`Job::Say`]), so that no answer overtakes the answer of a command
//! sent before it.

use super::flight::Flight;
use super::go::{run_classic, run_search, Search};
use super::options::LoadedNetwork;
use super::out::Out;
use super::proven::Proven;
use super::tables::{open_tables, recheck_tables, reopen_tables, Reported};
use crate::classic::player::{Classic, Player};
use crate::rng::Rng;
use crate::rules::{Game, Variant};
use crate::search::bench::{bench, perft_lines};
use crate::search::book::Book;
use crate::search::eval::Evaluator;
use crate::search::network::Network;
use crate::search::time::Limits;
use crate::search::tt::HashTable;
use crate::search::Analysis;
use crossbeam_channel::{unbounded, Receiver, SendError, Sender};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// Work for the worker thread, in the order it arrived.
pub(super) enum Job {
    /// Work that answers (a `bestmove`, perft's or bench's total), shared with the reader as
    /// `flight`. Boxed: a search's settings would make every job as large.
    Answer {
        flight: Arc<Flight>,
        task: Box<Task>,
    },
    /// Open the tables of a path and rule set now (again, if they were open), and say what was
    /// found.
    OpenTables {
        path: String,
        variant: Variant,
    },
    Resize(usize),
    Clear,
    /// The answer of a command the reader read while the worker was busy: the lines are
    /// made, and written, when the jobs before it are done (`isready` with no search under
    /// way is one: `readyok` once the setup sent before it is done).
    Say(Box<dyn FnOnce() -> Vec<String> + Send>),
    /// `LearnFile`: `basic`'s memory (`None`: this run only).
    LoadMemory(Option<PathBuf>),
    /// `EvolvedWeights` (`None`: the shipped weights).
    LoadWeights(Option<PathBuf>),
    /// `EvalFile` (empty: the shipped network), read and set `into` the network the
    /// searches take; refused, keeping the current one, if it does not read.
    LoadNetwork {
        path: String,
        into: LoadedNetwork,
    },
    /// `Randomness`: `greedy`'s tie breaks (0: none).
    Reseed(u64),
    /// A position was set up: if its game is over, `basic` learns from it.
    Position(Game),
    /// `ucinewgame`.
    NewGame,
}

impl Job {
    /// Whether the job only prepares later work (a table sized, a file read), which nothing
    /// will use once `quit` has come.
    fn prepares(&self) -> bool {
        match self {
            Job::OpenTables { .. }
            | Job::Resize(_)
            | Job::Clear
            | Job::LoadMemory(_)
            | Job::LoadWeights(_)
            | Job::Reseed(_)
            | Job::NewGame => true,
            // A game that `basic` learns from is kept in its file; work that answers, and
            // answers, are still written.
            Job::Answer { .. } | Job::Say(_) | Job::Position(_) => false,
            // An `eval` queued behind it shows its network (a network's length at most is
            // read: it costs the exit nothing).
            Job::LoadNetwork { .. } => false,
        }
    }
}

/// The reader's end of the worker's queue: the jobs go in order, and it knows whether any is
/// still to be done, so that an answer is written at once only when nothing sent before it
/// can still write one.
pub(super) struct Queue {
    jobs: Sender<Job>,
    /// Jobs sent and not yet done.
    pending: Arc<AtomicUsize>,
    /// Set on `quit`: the worker skips the jobs that only prepare later work.
    quitting: Arc<AtomicBool>,
    /// False once the worker has died (a panic); jobs are sent under this lock, so that none
    /// is sent after the dying worker has let the searches left in the queue begin.
    alive: Arc<Mutex<bool>>,
}

/// The worker's end of the queue.
pub(super) struct Jobs {
    jobs: Receiver<Job>,
    pending: Arc<AtomicUsize>,
    quitting: Arc<AtomicBool>,
    alive: Arc<Mutex<bool>>,
}

/// A queue from the reader to the worker.
pub(super) fn queue() -> (Queue, Jobs) {
    let (sender, receiver) = unbounded();
    let pending = Arc::new(AtomicUsize::new(0));
    let quitting = Arc::new(AtomicBool::new(false));
    let alive = Arc::new(Mutex::new(true));
    let jobs = Jobs {
        jobs: receiver,
        pending: pending.clone(),
        quitting: quitting.clone(),
        alive: alive.clone(),
    };
    let queue = Queue {
        jobs: sender,
        pending,
        quitting,
        alive,
    };
    (queue, jobs)
}

impl Queue {
    /// Queues `job`; gives it back if the worker is gone.
    pub(super) fn send(&self, job: Job) -> Result<(), Job> {
        let alive = self.alive.lock().unwrap_or_else(PoisonError::into_inner);
        if !*alive {
            return Err(job);
        }
        // Counted before it is sent, so that the worker, done with it, never counts below zero.
        self.pending.fetch_add(1, Ordering::AcqRel);
        self.jobs.send(job).map_err(|SendError(job)| {
            self.pending.fetch_sub(1, Ordering::AcqRel);
            job
        })
    }

    /// Whether every job sent is done, its output written.
    pub(super) fn idle(&self) -> bool {
        self.pending.load(Ordering::Acquire) == 0
    }

    /// `quit`: the jobs that only prepare later work are skipped from now on.
    pub(super) fn quit(&self) {
        self.quitting.store(true, Ordering::Release);
    }
}

/// What a `go` or `bench` asks of the worker.
pub(super) enum Task {
    Search {
        game: Game,
        limits: Limits,
        evaluator: Evaluator,
        overhead: u64,
        tables_path: String,
        /// `PathValues`.
        path_values: bool,
        threads: usize,
        /// `OwnBook` on: the book's margin (`BookMargin`).
        book: Option<i32>,
        /// `MultiPV` and `go searchmoves`.
        analysis: Analysis,
        /// Where to keep what the search proves beyond the tables.
        proven: Proven,
    },
    Perft {
        game: Game,
        depth: u32,
    },
    /// A move from a classic opponent instead of the search.
    Classic {
        game: Game,
        kind: Classic,
        depth: u32,
        limits: Limits,
        overhead: u64,
    },
    Bench {
        depth: Option<u32>,
        /// Oware evaluated by the terms (`UseNetwork false`) rather than the network.
        terms: bool,
    },
    /// A `go` refused once read against the position (a `searchmoves` move that is not
    /// legal): its error, then `bestmove 0000`, held as a search's would be.
    Refused {
        error: String,
        limits: Limits,
    },
}

/// What the worker owns.
struct Worker {
    out: Out,
    /// The table's size in MiB, and the table (`None` only after a failed resize left no
    /// memory for the old size either).
    size: usize,
    table: Option<HashTable>,
    /// What has been said of each tables directory, per rule set.
    reported: Reported,
    /// The directory `TablesPath`'s default names.
    default_tables: Option<PathBuf>,
    classic: Player,
    /// The opening book's random choices, seeded from the clock at start-up so that games
    /// differ.
    book_rng: Rng,
    /// The network `EvalFile` loaded, which a search that evaluates with a network takes.
    network: LoadedNetwork,
}

/// The worker's loop: the table allocated and the endgame tables of `tables` (the
/// `TablesPath` and rule set the engine starts with) opened first, then each job in turn until
/// the reader has gone.
pub(super) fn worker(
    jobs: Jobs,
    out: Out,
    hash_mb: usize,
    default_tables: Option<PathBuf>,
    tables: (String, Variant),
    network: LoadedNetwork,
) {
    let _dying = Dying {
        jobs: &jobs,
        out: out.clone(),
    };
    let mut w = Worker {
        network,
        table: None,
        size: hash_mb,
        out,
        reported: Reported::new(),
        default_tables,
        classic: Player::new(Classic::Greedy),
        book_rng: Rng::new(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64),
        ),
    };
    // The table is allocated now, before the first `isready` is answered, not at the first
    // search, whose time it would eat.
    w.resize(hash_mb);
    // The endgame tables too, as quietly as before `uci` is answered.
    let default = w.default_tables.clone();
    reopen_tables(
        &tables.0,
        default.as_deref(),
        tables.1,
        &mut w.reported,
        None,
    );
    for job in &jobs.jobs {
        if !(jobs.quitting.load(Ordering::Acquire) && job.prepares()) {
            w.run(job);
        }
        // Its output is written: the reader may write the next answer itself.
        jobs.pending.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Held by the worker while it runs: if it dies (a panic), the searches still queued never
/// run, so they begin here, writing the `readyok`s kept for them, and no job is sent after.
struct Dying<'a> {
    jobs: &'a Jobs,
    out: Out,
}

impl Drop for Dying<'_> {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            return;
        }
        let mut alive = self
            .jobs
            .alive
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        *alive = false;
        while let Ok(job) = self.jobs.jobs.try_recv() {
            if let Job::Answer { flight, .. } = job {
                flight.begin(&self.out);
            }
        }
    }
}

impl Worker {
    fn run(&mut self, job: Job) {
        let out = &self.out.clone();
        match job {
            Job::Answer { flight, task } => {
                flight.begin(out);
                // Whichever way the task ends, it has answered once this is dropped.
                let _answered = flight.answering();
                self.answer(*task, &flight);
            }
            Job::OpenTables { path, variant } => {
                let default = self.default_tables.as_deref();
                reopen_tables(&path, default, variant, &mut self.reported, Some(out));
            }
            Job::Resize(mb) => self.resize(mb),
            Job::Clear => {
                if let Some(t) = &mut self.table {
                    t.clear();
                }
            }
            Job::Say(make) => out.lines(&make()),
            Job::LoadMemory(path) => {
                if let Err(e) = self.classic.load_memory(path.as_deref()) {
                    out.line(&format!(
                        "info string warning: LearnFile unusable, starting with no memory: {e}"
                    ));
                }
            }
            Job::LoadWeights(path) => {
                if let Err(e) = self.classic.load_weights(path.as_deref()) {
                    out.error(format!("EvolvedWeights {e}; keeping the previous weights"));
                }
            }
            Job::LoadNetwork { path, into } => match Network::load(&path) {
                Ok(network) => into.set((!path.is_empty()).then_some(network)),
                Err(e) => out.error(format!("EvalFile {e}; keeping the current network")),
            },
            Job::Reseed(seed) => self.classic.rng = (seed != 0).then(|| Rng::new(seed)),
            Job::Position(game) => {
                if let Err(e) = self.classic.game_over(&game) {
                    out.line(&format!("info string warning: LearnFile: {e}"));
                }
            }
            Job::NewGame => {
                self.classic.new_game();
                if let Some(t) = &mut self.table {
                    t.clear();
                }
            }
        }
    }

    /// Does `task`, which ends with its answer: a `bestmove`, perft's or bench's total.
    fn answer(&mut self, task: Task, flight: &Flight) {
        let out = &self.out.clone();
        match task {
            Task::Search {
                game,
                limits,
                evaluator,
                overhead,
                tables_path,
                path_values,
                threads,
                book,
                analysis,
                proven,
            } => {
                if let Some(margin) = book {
                    if self.book_move(&game, margin, &limits, flight) {
                        return;
                    }
                }
                // The network of the last `EvalFile` read before this search, which the
                // reader could not know when it sent it.
                let mut evaluator = evaluator;
                if evaluator.network.is_some() {
                    evaluator.network = Some(self.network.get().unwrap_or_else(Network::shipped));
                }
                let size = self.size;
                let table = self.table.get_or_insert_with(|| HashTable::new(size));
                let default = self.default_tables.as_deref();
                let variant = game.board().variant();
                let tables = open_tables(&tables_path, default, variant, &mut self.reported, out);
                let mut seen = crate::sys::sigbus::faults();
                let reported = &mut self.reported;
                let mut recheck = || {
                    recheck_tables(&tables_path, default, variant, &mut seen, reported, out);
                };
                let search = Search {
                    limits: &limits,
                    flight,
                    evaluator,
                    overhead,
                    tables: tables.as_deref(),
                    path_values,
                    threads,
                    analysis,
                    proven: &proven,
                    recheck: &mut recheck,
                };
                run_search(&game, search, table, out);
            }
            Task::Perft { game, depth } => {
                perft_lines(&game, depth, &flight.control, &mut |l| out.line(&l));
            }
            Task::Classic {
                game,
                kind,
                depth,
                limits,
                overhead,
            } => {
                self.classic.kind = kind;
                self.classic.depth = depth;
                run_classic(&game, &mut self.classic, &limits, overhead, flight, out);
            }
            Task::Bench { depth, terms } => {
                let evaluator = if terms {
                    Evaluator::terms
                } else {
                    Evaluator::engine
                };
                bench(depth, None, 1, evaluator, &flight.control, &mut |l| {
                    out.line(&l)
                });
            }
            Task::Refused { error, limits } => {
                out.error(error);
                flight.hold(&limits);
                flight.answer(out, "bestmove 0000");
            }
        }
    }

    /// Plays the book's move for `game`, if it has one and the search is not an analysis
    /// (`infinite`, `ponder`): `info string book: ...`, then `bestmove`. Returns whether it did.
    fn book_move(&mut self, game: &Game, margin: i32, limits: &Limits, flight: &Flight) -> bool {
        if limits.infinite || limits.ponder {
            return false;
        }
        let Some(book) = Book::shipped(game.board().variant()) else {
            return false;
        };
        let Some((entry, choices)) = book.choose(game, margin, Some(&mut self.book_rng)) else {
            return false;
        };
        let (m, score) = (entry.mv, entry.score);
        let [w, d, l] = entry.record;
        self.out.line(&format!(
            "info string book: {m} (score {score} cp, self-play {w}/{d}/{l}, one of {choices} within {margin} cp of the best)"
        ));
        flight.answer(&self.out, &format!("bestmove {m}"));
        true
    }

    /// A table of `mb` MiB. The old one is freed first, so that two are never resident at
    /// once; if the new size cannot be had, that is said and the old size taken again.
    fn resize(&mut self, mb: usize) {
        let had = self.table.take().map(|_| self.size);
        match HashTable::try_new(mb) {
            Ok(t) => {
                self.size = mb;
                self.table = Some(t);
            }
            Err(e) => {
                self.out
                    .error(format!("Hash {mb}: {e}; keeping {} MiB", self.size));
                if had.is_some() {
                    self.table = HashTable::try_new(self.size).ok();
                }
            }
        }
    }
}
