//! The protocol loop. The thread that reads the input never waits for a search: it answers
//! `isready` at once, sets the stop flag on `stop`, and hands searches, perft and bench to
//! one worker thread over a crossbeam channel. The worker owns the transposition table and
//! prints each search's `info` lines and its one `bestmove`.
//!
//! Output goes through one lock per line, so lines from the two threads never interleave, and
//! each line is flushed at once. A write error (the GUI closed the pipe) ends the loop.

use super::bench::{bench, perft_lines};
use super::diagram::diagram;
use super::eval::{Terms, Weights};
use super::options::Opponent;
use super::options::{self, Effect, Settings, OPTIONS};
use super::protocol::{parse, Command, Go, Start};
use super::search::{self, Control, Report, Score, Setup};
use super::time::Limits;
use super::tt::{Bound, Table};
use crate::classic::{basic, evolved, greedy};
use crate::lines::{read_line, Line};
use crate::rng::Rng;
use crate::rules::{format_move_list, Board, Game, Side, Variant};
use crate::tables::probe::{default_dir, supported};
use crate::tables::Tables;
use crossbeam_channel::{unbounded, Receiver, Sender};
use std::collections::HashSet;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;
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

/// A classic opponent with what it needs to choose.
enum Player {
    Greedy(Option<u64>),
    Basic(basic::Memory),
    Evolved(evolved::Weights, u32),
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
    },
    /// Open the tables of a path and rule set now, and say what was found.
    OpenTables {
        path: String,
        variant: Variant,
    },
    Perft {
        game: Game,
        depth: u32,
    },
    /// A move from a classic opponent instead of the search.
    Classic {
        game: Game,
        player: Player,
        limits: Limits,
        control: Arc<Control>,
    },
    Bench {
        depth: Option<u32>,
        control: Arc<Control>,
    },
    Resize(usize),
    Clear,
}

fn worker(jobs: Receiver<Job>, out: Out, hash_mb: usize) {
    // The table is allocated when a search first needs it, so a `setoption name Hash` sent
    // before the first `go` never has two tables resident at once.
    let mut size = hash_mb;
    let mut table: Option<Table> = None;
    let mut reported = HashSet::new();
    for job in jobs {
        match job {
            Job::Search {
                game,
                limits,
                control,
                weights,
                overhead,
                tables_path,
            } => {
                let table = table.get_or_insert_with(|| Table::new(size));
                let tables = open_tables(&tables_path, game.board().variant(), &mut reported, &out);
                let search = Search {
                    limits: &limits,
                    control: &control,
                    weights,
                    overhead,
                    tables: tables.as_deref(),
                };
                run_search(&game, search, table, &out);
            }
            Job::OpenTables { path, variant } => {
                open_tables(&path, variant, &mut reported, &out);
            }
            Job::Perft { game, depth } => {
                perft_lines(&game, depth, &mut |l| out.line(&l));
            }
            Job::Classic {
                game,
                player,
                limits,
                control,
            } => run_classic(&game, &player, &limits, &control, &out),
            Job::Bench { depth, control } => {
                bench(depth, None, &control, &mut |l| out.line(&l));
            }
            Job::Resize(mb) => {
                // Free the old table first, so that two are never resident at once; if the new
                // size cannot be had, say so and go back to the old one.
                let had = table.take().map(|_| size);
                match Table::try_new(mb) {
                    Ok(t) => {
                        size = mb;
                        table = Some(t);
                    }
                    Err(e) => {
                        out.error(format!("Hash {mb}: {e}; keeping {size} MiB"));
                        if had.is_some() {
                            table = Some(Table::new(size));
                        }
                    }
                }
            }
            Job::Clear => {
                if let Some(t) = &mut table {
                    t.clear();
                }
            }
        }
    }
}

/// The directory `TablesPath` names: `None` when empty (no tables).
pub fn tables_dir(path: &str) -> Option<PathBuf> {
    match path {
        "" => None,
        options::DEFAULT_TABLES => default_dir(),
        dir => Some(PathBuf::from(dir)),
    }
}

/// The tables of `path` for `variant`, opened once per process; what is wrong with them, or
/// that a named directory holds none, is said once per directory and rule set.
fn open_tables(
    path: &str,
    variant: Variant,
    reported: &mut HashSet<(String, Variant)>,
    out: &Out,
) -> Option<Arc<Tables>> {
    if !supported(variant) {
        return None;
    }
    let dir = tables_dir(path)?;
    let tables = Tables::shared(&dir, variant);
    if reported.insert((path.to_string(), variant)) {
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
}

fn run_search(game: &Game, search: Search<'_>, table: &mut Table, out: &Out) {
    let Search {
        limits,
        control,
        weights,
        overhead,
        tables,
    } = search;
    if let Some(outcome) = game.outcome() {
        out.line(&format!("info string game over: {outcome}"));
        wait_for_release(limits, control);
        out.line("bestmove 0000");
        return;
    }
    let setup = Setup {
        tt: table,
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
        let line = info_line(r);
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

/// A classic opponent's move, answered like a search's.
fn run_classic(game: &Game, player: &Player, limits: &Limits, control: &Control, out: &Out) {
    let board = game.board();
    let choice = match game.outcome() {
        Some(outcome) => {
            out.line(&format!("info string game over: {outcome}"));
            None
        }
        None => {
            let (name, m) = match player {
                Player::Greedy(seed) => {
                    let mut rng = seed.map(Rng::new);
                    ("greedy", greedy::choose(board, rng.as_mut()))
                }
                Player::Basic(memory) => ("basic", basic::choose(board, game.moves(), memory)),
                Player::Evolved(w, depth) => ("evolved", evolved::choose(board, w, *depth)),
            };
            // Oware's repetition rule is the game's, not the board's: a classic opponent
            // may pick a move the board allows but the game does not; then the first legal.
            let legal = game.legal_moves();
            let m = m
                .filter(|&m| legal.contains(m))
                .or(legal.into_iter().next());
            if let Some(m) = m {
                out.line(&format!("info string {name} plays {m}"));
            }
            m
        }
    };
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

/// An `info` line for one search report.
pub fn info_line(r: &Report) -> String {
    let ms = r.time.as_millis() as u64;
    let nps = r.nodes.saturating_mul(1000) / ms.max(1);
    let score = match Score::of(r.score) {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
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

/// The reader's state: options, the position, and the search in flight.
struct Engine {
    settings: Settings,
    game: Game,
    out: Out,
    jobs: Sender<Job>,
    /// The last search or bench handed over, and whether it needs `stop` to end.
    current: Option<(Arc<Control>, bool)>,
    /// `basic`'s memory of the games it did not win.
    memory: basic::Memory,
    /// The side `basic` last moved for in this game, and whether the game's end was learnt.
    basic_side: Option<Side>,
    learned: bool,
    /// Tie breaks of `greedy` with `Randomness`.
    rng: Rng,
    /// `evolved`'s weights.
    evolved: evolved::Weights,
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
pub fn run(mut input: impl BufRead, output: impl Write + Send + 'static) -> io::Result<()> {
    let out = Out::new(output);
    let settings = Settings::default();
    let (jobs, receiver) = unbounded();
    let (done_tx, done_rx) = crossbeam_channel::bounded::<()>(1);
    let worker_out = out.clone();
    let hash_mb = settings.hash_mb;
    let handle = thread::Builder::new()
        .name("search".to_string())
        .spawn(move || {
            worker(receiver, worker_out, hash_mb);
            let _ = done_tx.send(());
        })?;
    let mut engine = Engine {
        game: Game::new(Board::start(settings.variant)),
        settings,
        out,
        jobs,
        current: None,
        memory: basic::Memory::default(),
        basic_side: None,
        learned: false,
        rng: Rng::new(0),
        evolved: evolved::shipped(),
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
            Command::IsReady => self.out.line("readyok"),
            Command::Stop => self.stop(),
            Command::PonderHit => {
                if let Some((control, _)) = &self.current {
                    control.pondering.store(false, Ordering::Release);
                }
            }
            Command::Quit => return Flow::Quit,
            Command::UciNewGame => {
                self.game = Game::new(self.start_board());
                self.basic_side = None;
                self.learned = false;
                self.send(Job::Clear);
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
                let mut lines = eval_lines(self.game.board(), &self.settings.weights);
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
        let tables = Tables::shared(&tables_dir(&self.settings.tables_path)?, board.variant());
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
        match options::set(&mut settings, name, value) {
            Err(e) => self.out.error(e),
            Ok(effect) => {
                if effect == Effect::NewStart {
                    let s = &settings;
                    if s.seeds != 0 {
                        if let Err(e) = Board::start_with_seeds(s.variant, s.seeds) {
                            self.out.error(e);
                            return;
                        }
                    }
                }
                if effect == Effect::LoadWeights {
                    match load_weights(&settings.evolved_weights) {
                        Ok(w) => self.evolved = w,
                        Err(e) => return self.out.error(e),
                    }
                }
                if settings.randomness != seed_before {
                    self.rng = Rng::new(settings.randomness);
                }
                self.settings = settings;
                match effect {
                    Effect::None => {}
                    Effect::ResizeHash => self.send(Job::Resize(self.settings.hash_mb)),
                    Effect::ClearHash => self.send(Job::Clear),
                    Effect::NewStart => self.game = Game::new(self.start_board()),
                    Effect::LoadMemory => self.load_memory(),
                    Effect::LoadWeights => {}
                    Effect::OpenTables => self.send(Job::OpenTables {
                        path: self.settings.tables_path.clone(),
                        variant: self.settings.variant,
                    }),
                }
            }
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
        self.learn();
    }

    /// `basic` learns from a game whose end it sees: if it did not win, it remembers the
    /// game's first moves (once per game), and saves its memory file.
    fn learn(&mut self) {
        let Some(outcome) = self.game.outcome() else {
            self.learned = false;
            return;
        };
        let Some(side) = self.basic_side else { return };
        if self.learned || self.settings.opponent != Opponent::Basic {
            return;
        }
        self.learned = true;
        if outcome.winner == Some(side) {
            return;
        }
        self.memory.remember(self.game.moves());
        let path = &self.settings.learn_file;
        if !path.is_empty() {
            if let Err(e) = self.memory.save(std::path::Path::new(path)) {
                self.out.line(&format!(
                    "info string warning: cannot save LearnFile {path}: {e}"
                ));
            }
        }
    }

    /// Loads `basic`'s memory from `LearnFile`; a corrupt file is no memory, with a warning.
    fn load_memory(&mut self) {
        let path = self.settings.learn_file.clone();
        if path.is_empty() {
            return;
        }
        match basic::Memory::load(std::path::Path::new(&path)) {
            Ok(m) => self.memory = m,
            Err(e) => {
                self.memory = basic::Memory::default();
                self.out.line(&format!(
                    "info string warning: LearnFile unusable, starting with no memory: {e}"
                ));
            }
        }
    }

    fn go(&mut self, go: Go) {
        // A `go` during a search ends that search first (it still answers its bestmove).
        self.stop();
        if let Some(depth) = go.perft {
            self.current = None;
            self.send(Job::Perft {
                game: self.game.clone(),
                depth,
            });
            return;
        }
        let l = &go.limits;
        let unbounded = l.infinite
            || l.ponder
            || (l.depth.is_none()
                && l.nodes.is_none()
                && l.movetime.is_none()
                && l.time == [None, None]);
        let control = Arc::new(Control::new(l.ponder));
        self.current = Some((control.clone(), unbounded));
        let player = match self.settings.opponent {
            Opponent::Engine => None,
            Opponent::Greedy => {
                let seed = (self.settings.randomness != 0).then(|| self.rng.next_u64());
                Some(Player::Greedy(seed))
            }
            Opponent::Basic => {
                self.basic_side = Some(self.game.board().side_to_move());
                Some(Player::Basic(self.memory.clone()))
            }
            Opponent::Evolved => Some(Player::Evolved(self.evolved, self.settings.evolved_depth)),
        };
        if let Some(player) = player {
            self.send(Job::Classic {
                game: self.game.clone(),
                player,
                limits: go.limits,
                control,
            });
            return;
        }
        self.send(Job::Search {
            game: self.game.clone(),
            limits: go.limits,
            control,
            weights: self.settings.weights,
            overhead: self.settings.move_overhead,
            tables_path: self.settings.tables_path.clone(),
        });
    }
}

/// `eval`'s lines: each term, its weight and its share, from the side to move's view.
fn eval_lines(board: &Board, w: &Weights) -> Vec<String> {
    let t = Terms::of(board);
    let rows = [
        ("stores (own - opponent's)", t.stores, 100),
        ("a2 (opponent houses open to a capture of 2)", t.a2, w.a2),
        ("a3 (opponent houses open to a capture of 3)", t.a3, w.a3),
        ("b2 (own houses open to a capture of 2)", t.b2, -w.b2),
        ("b3 (own houses open to a capture of 3)", t.b3, -w.b3),
        ("row (own row - opponent's row)", t.row, w.row),
    ];
    let mut lines = vec![format!(
        "eval of {board} for {} (100 = one seed):",
        board.side_to_move().name()
    )];
    lines.push(format!(
        "{:<46} {:>6} {:>7} {:>7}",
        "term", "value", "weight", "score"
    ));
    for (name, value, weight) in rows {
        lines.push(format!(
            "{name:<46} {value:>6} {weight:>7} {:>7}",
            value * weight
        ));
    }
    lines.push(format!(
        "{:<46} {:>6} {:>7} {:>7}",
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

/// `EvolvedWeights`: the shipped weights for an empty name, else the file's.
fn load_weights(path: &str) -> Result<evolved::Weights, String> {
    if path.is_empty() {
        return Ok(evolved::shipped());
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("EvolvedWeights {path}: {e}"))?;
    text.parse()
        .map_err(|e| format!("EvolvedWeights {path}: {e}"))
}
