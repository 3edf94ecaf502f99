//! The protocol loop. The thread that reads the input never waits for a search or a file: it
//! sets the stop flag on `stop`, answers `isready` at once while a search is under way, and
//! hands everything that takes time to one worker thread over a crossbeam channel, in order:
//! searches, perft, bench, the classic opponents' moves, the hash table's allocation and
//! clearing, opening the endgame tables and reading the classic players' files. An `isready`
//! with no search under way goes through the same queue, so `readyok` comes once all the setup
//! sent before it is done (a 2 GiB table allocated, a memory file read), as UCI clients expect.
//! The worker owns the transposition table and the classic player, and prints each search's
//! `info` lines and its one `bestmove`.
//!
//! Output goes through one lock per line, so lines from the two threads never interleave, and
//! each line is flushed at once. A write error (the GUI closed the pipe) ends the loop.

use super::bench::{bench, perft_lines};
use super::book::Book;
use super::diagram::diagram;
use super::eval::{Terms, Weights, WEIGHTS};
use super::options::{self, Effect, Opponent, Settings, OPTIONS};
use super::protocol::{parse, Command, Go, Start};
use super::search::{self, Control, Report, Score, Setup};
use super::time::Limits;
use super::tt::{Bound, Table};
use crate::classic::player::{Kind, Limit, Player};
use crate::lines::{read_line, Line};
use crate::rng::Rng;
use crate::rules::{format_move_list, Board, Game, Variant};
use crate::tables::probe::{default_dir, supported};
use crate::tables::Tables;
use crossbeam_channel::{unbounded, Receiver, Sender};
use std::collections::HashSet;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// The engine's name and author, as `uci` reports them.
pub const NAME: &str = concat!("awari ", env!("CARGO_PKG_VERSION"));
/// The author line.
pub const AUTHOR: &str = "the awari developers";

/// Lines longer than this are refused whole (and read to their end), so no input can make
/// the engine hold unbounded memory.
pub const MAX_LINE: usize = 16 << 20;

/// The output, shared by the reader and the worker: one locked, flushed write per line.
#[derive(Clone)]
struct Out {
    writer: Arc<Mutex<Box<dyn Write + Send>>>,
    broken: Arc<AtomicBool>,
}

impl Out {
    fn new(w: impl Write + Send + 'static) -> Out {
        Out {
            writer: Arc::new(Mutex::new(Box::new(w))),
            broken: Arc::new(AtomicBool::new(false)),
        }
    }

    fn line(&self, text: &str) {
        self.lines(std::slice::from_ref(&text))
    }

    fn lines<S: AsRef<str>>(&self, lines: &[S]) {
        let mut w = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let ok = lines.iter().try_for_each(|l| writeln!(w, "{}", l.as_ref()));
        if ok.and_then(|()| w.flush()).is_err() {
            self.broken.store(true, Ordering::Release);
        }
    }

    fn error(&self, message: impl std::fmt::Display) {
        self.line(&format!("info string error: {message}"));
    }

    fn is_broken(&self) -> bool {
        self.broken.load(Ordering::Acquire)
    }
}

/// Work for the worker thread, in the order it arrived.
enum Job {
    Search {
        game: Game,
        limits: Limits,
        control: Arc<Control>,
        weights: Weights,
        overhead: u64,
        tables_path: String,
        threads: usize,
        /// `OwnBook` on: the book's margin (`BookMargin`).
        book: Option<i32>,
    },
    /// Open the tables of a path and rule set now, and say what was found.
    OpenTables {
        path: String,
        variant: Variant,
    },
    Perft {
        game: Game,
        depth: u32,
        control: Arc<Control>,
    },
    /// A move from a classic opponent instead of the search.
    Classic {
        game: Game,
        kind: Kind,
        depth: u32,
        limits: Limits,
        overhead: u64,
        control: Arc<Control>,
    },
    Bench {
        depth: Option<u32>,
        control: Arc<Control>,
    },
    Resize(usize),
    Clear,
    /// `isready` with no search under way: answered when everything before it is done.
    Ready,
    /// `LearnFile`: `basic`'s memory (`None`: this run only).
    LoadMemory(Option<PathBuf>),
    /// `EvolvedWeights` (`None`: the shipped weights).
    LoadWeights(Option<PathBuf>),
    /// `Randomness`: `greedy`'s tie breaks (0: none).
    Reseed(u64),
    /// A position was set up: if its game is over, `basic` learns from it.
    Position(Game),
    /// `ucinewgame`.
    NewGame,
}

/// What the worker owns.
struct Worker {
    out: Out,
    /// The table's size in MiB, and the table (`None` only after a failed resize left no
    /// memory for the old size either).
    size: usize,
    table: Option<Table>,
    /// Tables directories already reported, per rule set.
    reported: HashSet<(String, Variant)>,
    /// The directory `TablesPath`'s default names.
    default_tables: Option<PathBuf>,
    classic: Player,
    /// The opening book's random choices, seeded from the clock at start-up so that games
    /// differ.
    book_rng: Rng,
}

fn worker(jobs: Receiver<Job>, out: Out, hash_mb: usize, default_tables: Option<PathBuf>) {
    let mut w = Worker {
        table: None,
        size: hash_mb,
        out,
        reported: HashSet::new(),
        default_tables,
        classic: Player::new(Kind::Greedy),
        book_rng: Rng::new(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64),
        ),
    };
    // The table is allocated now, before the first `isready` is answered, not at the first
    // search, whose time it would eat.
    w.resize(hash_mb);
    for job in jobs {
        w.run(job);
    }
}

impl Worker {
    fn run(&mut self, job: Job) {
        let out = &self.out.clone();
        match job {
            Job::Search {
                game,
                limits,
                control,
                weights,
                overhead,
                tables_path,
                threads,
                book,
            } => {
                if let Some(margin) = book {
                    if self.book_move(&game, margin, &limits) {
                        control.answered.store(true, Ordering::Release);
                        return;
                    }
                }
                let size = self.size;
                let table = self.table.get_or_insert_with(|| Table::new(size));
                let tables = open_tables(
                    &tables_path,
                    self.default_tables.as_deref(),
                    game.board().variant(),
                    &mut self.reported,
                    out,
                );
                let search = Search {
                    limits: &limits,
                    control: &control,
                    weights,
                    overhead,
                    tables: tables.as_deref(),
                    threads,
                };
                run_search(&game, search, table, out);
                control.answered.store(true, Ordering::Release);
            }
            Job::OpenTables { path, variant } => {
                let default = self.default_tables.as_deref();
                open_tables(&path, default, variant, &mut self.reported, out);
            }
            Job::Perft {
                game,
                depth,
                control,
            } => {
                perft_lines(&game, depth, &control, &mut |l| out.line(&l));
                control.answered.store(true, Ordering::Release);
            }
            Job::Classic {
                game,
                kind,
                depth,
                limits,
                overhead,
                control,
            } => {
                self.classic.kind = kind;
                self.classic.depth = depth;
                run_classic(&game, &mut self.classic, &limits, overhead, &control, out);
                control.answered.store(true, Ordering::Release);
            }
            Job::Bench { depth, control } => {
                bench(depth, None, 1, &control, &mut |l| out.line(&l));
                control.answered.store(true, Ordering::Release);
            }
            Job::Resize(mb) => self.resize(mb),
            Job::Clear => {
                if let Some(t) = &mut self.table {
                    t.clear();
                }
            }
            Job::Ready => out.line("readyok"),
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

    /// Plays the book's move for `game`, if it has one and the search is not an analysis
    /// (`infinite`, `ponder`): `info string book: ...`, then `bestmove`. Returns whether it did.
    fn book_move(&mut self, game: &Game, margin: i32, limits: &Limits) -> bool {
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
        self.out.line(&format!("bestmove {m}"));
        true
    }

    /// A table of `mb` MiB. The old one is freed first, so that two are never resident at
    /// once; if the new size cannot be had, that is said and the old size taken again.
    fn resize(&mut self, mb: usize) {
        let had = self.table.take().map(|_| self.size);
        match Table::try_new(mb) {
            Ok(t) => {
                self.size = mb;
                self.table = Some(t);
            }
            Err(e) => {
                self.out
                    .error(format!("Hash {mb}: {e}; keeping {} MiB", self.size));
                if had.is_some() {
                    self.table = Table::try_new(self.size).ok();
                }
            }
        }
    }
}

/// The directory `TablesPath` names: `None` when empty (no tables); its default stands for
/// `default`.
pub fn tables_dir(path: &str, default: Option<&Path>) -> Option<PathBuf> {
    match path {
        "" => None,
        options::DEFAULT_TABLES => default.map(Path::to_path_buf),
        dir => Some(PathBuf::from(dir)),
    }
}

/// The tables of `path` for `variant`, opened once per process; what is wrong with them, or
/// that a named directory holds none, is said once per directory and rule set.
fn open_tables(
    path: &str,
    default: Option<&Path>,
    variant: Variant,
    reported: &mut HashSet<(String, Variant)>,
    out: &Out,
) -> Option<Arc<Tables>> {
    if !supported(variant) {
        return None;
    }
    let dir = tables_dir(path, default)?;
    let tables = Tables::shared(&dir, variant);
    if reported.insert((path.to_string(), variant)) {
        if tables.count() == 0 && !tables.problems().is_empty() {
            // Nothing usable (a path that is not a readable directory, or only bad files):
            // what is wrong, once.
            out.line(&format!(
                "info string warning: tables: {}; playing on without tables",
                tables.problems().join("; ")
            ));
            return None;
        }
        for problem in tables.problems() {
            out.line(&format!(
                "info string warning: tables: {problem}; playing on without that layer"
            ));
        }
        match tables.count() {
            0 if path == options::DEFAULT_TABLES => {}
            0 => out.line(&format!(
                "info string warning: tables: no {variant} tables in {}",
                dir.display()
            )),
            count => out.line(&format!(
                "info string tables: {count} {variant} layers in {}, complete up to {} seeds",
                dir.display(),
                tables
                    .reach()
                    .map_or_else(|| "none".to_string(), |r| r.to_string())
            )),
        }
    }
    (tables.count() > 0).then_some(tables)
}

/// What the tables say of `board`, with its stores counted, if it is within their reach:
/// `tables: value 7: South ends with 7 of the 12 seeds on the board and wins by 4`.
fn describe(tables: &Tables, board: &Board) -> Option<String> {
    let value = tables.probe(board)?;
    let seeds: u32 = board.houses().iter().map(|&h| u32::from(h)).sum();
    let (lower, upper) = search::table_scores(board, value);
    let result = |score: i32| match Score::of(score) {
        Score::Tables(m) if m > 0 => format!("wins by {m}"),
        Score::Tables(m) => format!("loses by {}", -m),
        _ => "draws".to_string(),
    };
    let side = board.side_to_move().name();
    Some(match value.exact() {
        Some(v) => format!(
            "tables: value {v}: {side} ends with {v} of the {seeds} seeds on the board and {}",
            result(lower)
        ),
        None => format!(
            "tables: value {}..{}: {side} ends with {} to {} of the {seeds} seeds on the board \
             (a repetition decides) and {} at worst, {} at best",
            value.lo,
            value.hi,
            value.lo,
            value.hi,
            result(lower),
            result(upper)
        ),
    })
}

/// One search's settings.
struct Search<'a> {
    limits: &'a Limits,
    control: &'a Control,
    weights: Weights,
    overhead: u64,
    tables: Option<&'a Tables>,
    threads: usize,
}

fn run_search(game: &Game, search: Search<'_>, table: &mut Table, out: &Out) {
    let Search {
        limits,
        control,
        weights,
        overhead,
        tables,
        threads,
    } = search;
    if let Some(outcome) = game.outcome() {
        out.line(&format!("info string game over: {outcome}"));
        wait_for_release(limits, control);
        out.line("bestmove 0000");
        return;
    }
    let setup = Setup {
        tt: table,
        threads,
        control,
        weights,
        limits,
        overhead,
        tables,
    };
    // The last complete iteration's line, and whether a bound (a failed aspiration window)
    // was printed after it.
    let mut last_exact: Option<String> = None;
    let mut bound_last = false;
    let found = search::search(game, setup, &mut |r| {
        let line = info_line(r, game);
        out.line(&line);
        bound_last = r.bound.is_some();
        if !bound_last {
            last_exact = Some(line);
        }
        if out.is_broken() {
            // Nobody is listening: end the search rather than think for no one.
            control.stop.store(true, Ordering::Release);
        }
    });
    if let Some((unstarted, why)) = &found.unstarted {
        out.line(&format!(
            "info string warning: Threads {threads}: {unstarted} of the search threads could not \
             be started ({why}); searched with {}",
            threads - unstarted
        ));
    }
    // A search stopped inside a widened window would leave a GUI showing a bound with a short
    // line as its score: repeat the last complete iteration, exact score and whole line.
    if bound_last {
        if let Some(line) = &last_exact {
            out.line(line);
        }
    }
    if let Some(line) = tables.and_then(|t| describe(t, game.board())) {
        out.line(&format!("info string {line}"));
    } else if let Score::Tables(margin) = Score::of(found.score) {
        // Evaluations stay below the table scores, so a completed iteration scoring in their
        // range rests on proven results alone (table results and finished games) on the side
        // that decides it: the result is proven. Not the margin: a finished game scores as a
        // win or a loss whatever its margin, above or below every table result.
        out.line(&format!(
            "info string tables: the search proves that {} {}",
            game.board().side_to_move().name(),
            if margin > 0 { "wins" } else { "loses" },
        ));
    }
    // `infinite` and `ponder` searches answer only after `stop` (or `ponderhit`).
    wait_for_release(limits, control);
    let best = found.best.map_or("0000".to_string(), |m| m.to_string());
    match found.ponder {
        Some(p) => out.line(&format!("bestmove {best} ponder {p}")),
        None => out.line(&format!("bestmove {best}")),
    }
}

/// A classic opponent's move, answered like a search's: it obeys `stop`, `movetime`, the
/// clocks and `go depth` as the search does (`evolved` deepens until one of them says so;
/// `greedy` and `basic` answer at once), and `infinite` and `ponder` hold the answer alike.
fn run_classic(
    game: &Game,
    player: &mut Player,
    limits: &Limits,
    overhead: u64,
    control: &Control,
    out: &Out,
) {
    let budget = limits.budget(game.board().side_to_move(), overhead);
    // While pondering no time limit applies; after `ponderhit` time counts from the `go`, a
    // little early, which errs on the safe side.
    let past = |limit: Option<Duration>| {
        !control.pondering() && limit.is_some_and(|l| control.asked.elapsed() >= l)
    };
    let stop = || control.stopped() || past(budget.hard);
    // An iteration of `evolved` takes about as long as all before it together, times its
    // branching: start one only in the first half of the soft budget.
    let enough = || past(budget.soft.map(|s| s / 2));
    let limit = Limit {
        depth: limits.depth,
        stop: &stop,
        enough: &enough,
    };
    let choice = player.choose(game, &limit);
    match (choice, game.outcome()) {
        (Some(m), _) => out.line(&format!("info string {} plays {m}", player.kind.name())),
        (None, Some(outcome)) => out.line(&format!("info string game over: {outcome}")),
        (None, None) => {}
    }
    wait_for_release(limits, control);
    out.line(&format!(
        "bestmove {}",
        choice.map_or("0000".to_string(), |m| m.to_string())
    ));
}

/// Holds a finished `go infinite` until `stop`, and a finished `go ponder` until `stop` or
/// `ponderhit`, as UCI requires.
fn wait_for_release(limits: &Limits, control: &Control) {
    while !control.stopped() && (limits.infinite || (limits.ponder && control.pondering())) {
        thread::sleep(Duration::from_millis(1));
    }
}

/// An `info` line for one search report from `game`'s position.
pub fn info_line(r: &Report, game: &Game) -> String {
    let ms = r.time.as_millis() as u64;
    let nps = r.nodes.saturating_mul(1000) / ms.max(1);
    let score = match Score::of(r.score) {
        Score::Cp(cp) => format!("cp {cp}"),
        // `mate` for UCI clients, then `cp` for those that read only `cp` (Aualé): a proven
        // result must not show as an even game.
        Score::Mate(n) => format!("mate {n} cp {}", 100 * mate_margin(game, &r.pv, n)),
        Score::Tables(margin) => format!("cp {}", 100 * margin),
    };
    let bound = match r.bound {
        Some(Bound::Lower) => " lowerbound",
        Some(Bound::Upper) => " upperbound",
        _ => "",
    };
    let pv = if r.pv.is_empty() {
        String::new()
    } else {
        format!(" pv {}", format_move_list(&r.pv))
    };
    format!(
        "info depth {} seldepth {} score {score}{bound} nodes {} nps {nps} time {ms} hashfull {} tbhits {}{pv}",
        r.depth, r.seldepth, r.nodes, r.hashfull, r.tbhits
    )
}

/// The seeds the side to move ends ahead (negative: behind) in a game proven to end in `plies`
/// plies (`mate` N): the final margin of the principal variation when it reaches the end, else
/// one seed, the least a result can be decided by.
fn mate_margin(game: &Game, pv: &[crate::rules::Move], plies: i32) -> i32 {
    let me = game.board().side_to_move();
    let mut line = game.clone();
    for &m in pv {
        if line.play(m).is_err() {
            break;
        }
    }
    match line.outcome() {
        Some(o) => {
            let margin =
                i32::from(o.stores[me.index()]) - i32::from(o.stores[me.opponent().index()]);
            // A line whose end disagrees with the proven result (it should not) is not shown.
            if margin.signum() == plies.signum() {
                margin
            } else {
                plies.signum()
            }
        }
        None => plies.signum(),
    }
}

/// The reader's state: options, the position, and the search in flight.
struct Engine {
    settings: Settings,
    /// The directory `TablesPath`'s default names.
    default_tables: Option<PathBuf>,
    game: Game,
    out: Out,
    jobs: Sender<Job>,
    /// The last search, perft or bench handed over, and whether it needs `stop` to end.
    current: Option<(Arc<Control>, bool)>,
}

/// How a line leaves the loop.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// Runs the protocol on `input` and `output` until `quit` or the end of the input, then
/// returns. At the end of the input, a search that would end by itself (a depth, node or time
/// limit) is allowed to finish and answer; one that only `stop` would end is stopped.
pub fn run(input: impl BufRead, output: impl Write + Send + 'static) -> io::Result<()> {
    run_with_tables(input, output, default_dir())
}

/// [`run`], with `default_tables` as the directory `TablesPath`'s default names instead of
/// the user's data directory: tests run the engine with nothing of the user's.
pub fn run_with_tables(
    mut input: impl BufRead,
    output: impl Write + Send + 'static,
    default_tables: Option<PathBuf>,
) -> io::Result<()> {
    let out = Out::new(output);
    let settings = Settings::default();
    let (jobs, receiver) = unbounded();
    let (done_tx, done_rx) = crossbeam_channel::bounded::<()>(1);
    let worker_out = out.clone();
    let hash_mb = settings.hash_mb;
    let worker_tables = default_tables.clone();
    let handle = thread::Builder::new()
        .name("search".to_string())
        .spawn(move || {
            worker(receiver, worker_out, hash_mb, worker_tables);
            let _ = done_tx.send(());
        })?;
    let mut engine = Engine {
        game: Game::new(Board::start(settings.variant)),
        settings,
        default_tables,
        out,
        jobs,
        current: None,
    };
    let mut buffer = Vec::new();
    let flow = loop {
        match read_line(&mut input, &mut buffer, MAX_LINE) {
            Ok(Line::Eof) | Err(_) => break Flow::Continue,
            Ok(Line::TooLong(n)) => engine.out.error(format!(
                "line of {n} bytes refused (the limit is {MAX_LINE})"
            )),
            Ok(Line::Text) => {
                let text = String::from_utf8_lossy(&buffer);
                if engine.handle(&text) == Flow::Quit {
                    break Flow::Quit;
                }
            }
        }
        if engine.out.is_broken() {
            break Flow::Quit;
        }
    };
    match flow {
        Flow::Quit => {
            engine.stop();
            drop(engine);
            // The worker ends within a poll interval; a long perft is left to the exit.
            if done_rx.recv_timeout(Duration::from_millis(50)).is_ok() {
                let _ = handle.join();
            }
        }
        Flow::Continue => {
            if let Some((control, true)) = &engine.current {
                control.stop.store(true, Ordering::Release);
            }
            drop(engine);
            let _ = handle.join();
        }
    }
    Ok(())
}

impl Engine {
    /// Whether a search, perft or bench handed over has yet to answer.
    fn searching(&self) -> bool {
        self.current
            .as_ref()
            .is_some_and(|(control, _)| !control.has_answered())
    }

    /// Stops the search in flight, if any.
    fn stop(&mut self) {
        if let Some((control, _)) = &self.current {
            control.stop.store(true, Ordering::Release);
        }
    }

    fn send(&self, job: Job) {
        // The worker lives as long as the engine; a failed send means it died, and the
        // protocol goes on answering what it can.
        if self.jobs.send(job).is_err() {
            self.out.error("the search thread is gone");
        }
    }

    fn handle(&mut self, line: &str) -> Flow {
        let command = match parse(line) {
            Ok(parsed) => {
                if !parsed.skipped.is_empty() {
                    // UCI skips unknown words; say which, so a typo is not silent.
                    self.out.line(&format!(
                        "info string skipped unknown words: {}",
                        parsed.skipped.join(" ")
                    ));
                }
                parsed.command
            }
            Err(e) => {
                self.out.error(e);
                return Flow::Continue;
            }
        };
        match command {
            Command::Empty | Command::Register | Command::Debug(_) => {}
            Command::Uci => {
                let mut lines = vec![format!("id name {NAME}"), format!("id author {AUTHOR}")];
                lines.extend(OPTIONS.iter().map(options::uci_line));
                lines.push("uciok".to_string());
                self.out.lines(&lines);
            }
            Command::IsReady => {
                // During a search, at once (UCI); otherwise once the setup sent before it is
                // done.
                if self.searching() {
                    self.out.line("readyok");
                } else {
                    self.send(Job::Ready);
                }
            }
            Command::Stop => self.stop(),
            Command::PonderHit => {
                if let Some((control, _)) = &self.current {
                    control.pondering.store(false, Ordering::Release);
                }
            }
            Command::Quit => return Flow::Quit,
            Command::UciNewGame => {
                self.game = Game::new(self.start_board());
                self.send(Job::NewGame);
            }
            Command::SetOption { name, value } => self.set_option(name, value),
            Command::Position { start, moves } => self.position(start, moves),
            Command::Go(go) => self.go(go),
            Command::Display => {
                let mut lines = diagram(&self.game);
                lines.extend(self.table_line());
                self.out.lines(&lines);
            }
            Command::Eval => {
                let mut lines = eval_lines(self.game.board(), &self.settings.weights());
                lines.extend(self.table_line());
                self.out.lines(&lines);
            }
            Command::Bench(depth) => {
                self.stop();
                let control = Arc::new(Control::new(false));
                self.current = Some((control.clone(), false));
                self.send(Job::Bench { depth, control });
            }
            Command::Help => self.out.lines(&help_lines()),
        }
        Flow::Continue
    }

    /// What the tables say of the current position, for `d` and `eval`.
    fn table_line(&self) -> Option<String> {
        let board = self.game.board();
        if !supported(board.variant()) {
            return None;
        }
        let dir = tables_dir(&self.settings.tables_path, self.default_tables.as_deref())?;
        let tables = Tables::shared(&dir, board.variant());
        describe(&tables, board)
    }

    fn start_board(&self) -> Board {
        let s = &self.settings;
        if s.seeds == 0 {
            Board::start(s.variant)
        } else {
            Board::start_with_seeds(s.variant, s.seeds).unwrap_or_else(|_| Board::start(s.variant))
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let mut settings = self.settings.clone();
        let seed_before = settings.randomness;
        let effect = match options::set(&mut settings, name, value) {
            Err(e) => return self.out.error(e),
            Ok(effect) => effect,
        };
        match effect {
            Effect::NewStart if settings.seeds != 0 => {
                if let Err(e) = Board::start_with_seeds(settings.variant, settings.seeds) {
                    return self.out.error(e);
                }
            }
            // Files are read by the worker, bounded in size; only what can be known without
            // opening the file (that it is a FIFO or a device) is refused here.
            Effect::LoadMemory => {
                if let Err(e) = not_a_file(&settings.learn_file) {
                    return self.out.error(format!("LearnFile {e}"));
                }
            }
            Effect::LoadWeights => {
                if let Err(e) = not_a_file(&settings.evolved_weights) {
                    return self.out.error(format!("EvolvedWeights {e}"));
                }
            }
            _ => {}
        }
        if settings.randomness != seed_before {
            self.send(Job::Reseed(settings.randomness));
        }
        self.settings = settings;
        let path = |p: &str| (!p.is_empty()).then(|| PathBuf::from(p));
        match effect {
            Effect::None => {}
            Effect::ResizeHash => self.send(Job::Resize(self.settings.hash_mb)),
            Effect::ClearHash => self.send(Job::Clear),
            Effect::NewStart => self.game = Game::new(self.start_board()),
            Effect::LoadMemory => self.send(Job::LoadMemory(path(&self.settings.learn_file))),
            Effect::LoadWeights => {
                self.send(Job::LoadWeights(path(&self.settings.evolved_weights)))
            }
            Effect::OpenTables => self.send(Job::OpenTables {
                path: self.settings.tables_path.clone(),
                variant: self.settings.variant,
            }),
        }
    }

    /// Sets up the position, or changes nothing and says why.
    fn position(&mut self, start: Start<'_>, moves: &str) {
        let board = match start {
            Start::StartPos => self.start_board(),
            Start::Fen(text) => match Board::from_notation(self.settings.variant, text) {
                Ok(b) => b,
                Err(e) => return self.out.error(format!("position: {e}")),
            },
        };
        let mut game = Game::new(board);
        if let Err(e) = game.play_text(moves) {
            return self.out.error(format!("position: {e}"));
        }
        self.game = game;
        if self.game.outcome().is_some() && self.settings.opponent == Opponent::Basic {
            // `basic` learns from a game whose end it sees.
            self.send(Job::Position(self.game.clone()));
        }
    }

    fn go(&mut self, go: Go) {
        // A `go` during a search ends that search first (it still answers its bestmove).
        self.stop();
        let limits = go.limits;
        let control = Arc::new(Control::new(limits.ponder));
        if let Some(depth) = go.perft {
            self.current = Some((control.clone(), false));
            self.send(Job::Perft {
                game: self.game.clone(),
                depth,
                control,
            });
            return;
        }
        self.current = Some((control.clone(), !limits.ends_by_itself()));
        let game = self.game.clone();
        let overhead = self.settings.move_overhead;
        self.send(match self.settings.opponent.classic() {
            Some(kind) => Job::Classic {
                game,
                kind,
                depth: self.settings.evolved_depth,
                limits,
                overhead,
                control,
            },
            None => Job::Search {
                game,
                limits,
                control,
                weights: self.settings.weights(),
                overhead,
                tables_path: self.settings.tables_path.clone(),
                threads: self.settings.threads,
                book: self.settings.own_book.then_some(self.settings.book_margin),
            },
        });
    }
}

/// `eval`'s lines: each term, its weight and its share, from the side to move's view.
fn eval_lines(board: &Board, w: &Weights) -> Vec<String> {
    let t = Terms::of(board);
    // The terms of this rule set (or weighed by an option), with the weight's sign.
    let rows = std::iter::once(("stores (own - opponent's)", t.stores, 100)).chain(
        WEIGHTS
            .iter()
            .map(|x| (x.label, (x.term)(&t), x.sign * (x.get)(w)))
            .filter(|&(_, value, weight)| value != 0 || weight != 0),
    );
    let mut lines = vec![format!(
        "eval of {board} for {} (100 = one seed):",
        board.side_to_move().name()
    )];
    lines.push(format!(
        "{:<50} {:>6} {:>7} {:>7}",
        "term", "value", "weight", "score"
    ));
    for (name, value, weight) in rows {
        lines.push(format!(
            "{name:<50} {value:>6} {weight:>7} {:>7}",
            value * weight
        ));
    }
    lines.push(format!(
        "{:<50} {:>6} {:>7} {:>7}",
        "total",
        "",
        "",
        t.score(w)
    ));
    lines
}

fn help_lines() -> Vec<String> {
    [
        "commands (protocol.md has them all):",
        "  uci | isready | ucinewgame | quit | stop | ponderhit | debug on|off",
        "  setoption name <name> [value <value>]",
        "  position startpos|fen <notation> [moves <list>]    e.g. position startpos moves FfEa",
        "  go [depth D] [nodes N] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS]",
        "     [movestogo N] [infinite] [ponder]  |  go perft D",
        "  d (board) | eval (evaluation terms) | bench [depth] | help",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain(
        OPTIONS
            .iter()
            .map(|o| format!("  option {}: {}", o.name, o.help)),
    )
    .collect()
}

/// An error when `path` names something that exists and is not a regular file (a FIFO would
/// block a read, a device such as `/dev/zero` never end one). Asked of the file's metadata,
/// which never blocks.
fn not_a_file(path: &str) -> Result<(), String> {
    if path.is_empty() {
        return Ok(());
    }
    match std::fs::metadata(Path::new(path)) {
        Ok(m) if !m.is_file() => Err(format!("{path}: not a regular file")),
        _ => Ok(()),
    }
}
