//! The protocol loop. The thread that reads the input never waits for a search or a file: it
//! sets the stop flag on `stop`, answers `isready` at once while a search is under way, and
//! hands everything that takes time to one worker thread over a crossbeam channel, in order:
//! searches, perft, bench, the classic opponents' moves, the hash table's allocation and
//! clearing, opening the endgame tables (at the start, on `TablesPath` and on a change of rule
//! set; never in a search), reading the classic players' files and `EvalFile`'s network. An
//! `isready` with no search under way goes through the same queue, so `readyok` comes once all
//! the setup sent before it is done (a 2 GiB table allocated, a memory file read), as UCI
//! clients expect.
//! The worker owns the transposition table and the classic player, and prints each search's
//! `info` lines and its one `bestmove`.
//!
//! Every answer comes after the answers of the commands sent before it: the reader writes an
//! answer itself (`uci`, `d`, `eval`, `help`, an error) only when the worker has nothing left
//! to do, and otherwise queues it behind the worker's jobs, to be made and written in its turn
//! (a `d` queued behind `TablesPath` shows the tables it opened). Only `isready` during a
//! search is answered ahead of the search's `bestmove`, as UCI requires, and only once the
//! worker has begun the search, so never ahead of an answer owed before the `go`.
//!
//! Output goes through one lock per line, so lines from the two threads never interleave, and
//! each line is flushed at once. A write error (the GUI closed the pipe) ends the loop.
//!
//! One file per concept: this one is the reader (the loop, the position, the options, and the
//! dispatch of each command); `out` the shared output, `worker` the worker thread and its
//! jobs, `flight` a search as both threads share it (stopped, released, answered), `go` a
//! search's or a classic opponent's answer, `tables` the endgame tables as `TablesPath` names
//! them, and `text` the longer lines written (`info`, `eval`, `help`).

mod flight;
mod go;
pub mod options;
mod out;
pub mod protocol;
mod proven;
mod tables;
mod text;
mod worker;

pub use tables::tables_dir;

use self::options::{Effect, Settings, OPTIONS};
use self::protocol::{parse, Command, Go, Start};
use crate::classic::opponent::Opponent;
use crate::info::describe;
use crate::rules::diagram::diagram;
use crate::rules::{parse_move_list, Board, Game, MoveList};
use crate::search::Analysis;
use crate::sys::lines::{read_line, Line};
use crate::tables::probe::{default_dir, supported};
use crate::tables::Tables;
use flight::Flight;
use out::Out;
use proven::Proven;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread;
use std::time::Duration;
use text::{eval_lines, help_lines};
use worker::{queue, worker, Job, Queue, Task};

/// The engine's name and author, as `uci` reports them.
pub const NAME: &str = concat!("awari ", env!("CARGO_PKG_VERSION"));
/// The author line.
pub const AUTHOR: &str = "the awari developers";

/// Lines longer than this are refused whole (and read to their end), so no input can make
/// the engine hold unbounded memory.
pub const MAX_LINE: usize = 16 << 20;

/// How long `quit` waits for the worker to write the answers queued before it. The worker then
/// skips what only prepares later work, and a stopped search ends within a poll interval, so it
/// is done in milliseconds; only a step already under way (a large table being allocated) can
/// take longer, and is left to the exit.
const QUIT_WAIT: Duration = Duration::from_secs(1);

/// The reader's state: options, the position, and the search in flight.
struct Engine {
    settings: Settings,
    /// The directory `TablesPath`'s default names.
    default_tables: Option<PathBuf>,
    game: Game,
    out: Out,
    jobs: Queue,
    /// The last search, perft or bench handed over, and whether it needs `stop` to end.
    current: Option<(Arc<Flight>, bool)>,
    /// What the last search proved beyond the tables, for `d`.
    proven: Proven,
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
    let (jobs, receiver) = queue();
    let (done_tx, done_rx) = crossbeam_channel::bounded::<()>(1);
    let worker_out = out.clone();
    let hash_mb = settings.hash_mb;
    let worker_tables = default_tables.clone();
    let first_tables = (settings.tables_path.clone(), settings.variant);
    let network = settings.network.clone();
    let handle = thread::Builder::new()
        .name("search".to_string())
        .spawn(move || {
            worker(
                receiver,
                worker_out,
                hash_mb,
                worker_tables,
                first_tables,
                network,
            );
            let _ = done_tx.send(());
        })?;
    let mut engine = Engine {
        game: Game::new(Board::start(settings.variant)),
        settings,
        default_tables,
        out,
        jobs,
        current: None,
        proven: Proven::default(),
    };
    let mut buffer = Vec::new();
    let flow = loop {
        match read_line(&mut input, &mut buffer, MAX_LINE) {
            Ok(Line::Eof) | Err(_) => break Flow::Continue,
            Ok(Line::TooLong(n)) => engine.error(format!(
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
            engine.jobs.quit();
            drop(engine);
            if done_rx.recv_timeout(QUIT_WAIT).is_ok() {
                let _ = handle.join();
            }
        }
        Flow::Continue => {
            if let Some((flight, true)) = &engine.current {
                flight.stop();
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
            .is_some_and(|(flight, _)| !flight.control.has_answered())
    }

    /// Answers `isready` (`lines` end with its `readyok`) during the flight in progress: at
    /// once if the worker has begun it, else as it begins.
    fn ready(&self, lines: Vec<String>) {
        if let Some((flight, _)) = &self.current {
            flight.ready(&self.out, lines);
        }
    }

    /// Stops the search in flight, if any.
    fn stop(&mut self) {
        if let Some((flight, _)) = &self.current {
            flight.stop();
        }
    }

    fn send(&self, job: Job) {
        // The worker lives as long as the engine; a failed send means it died, and the
        // protocol goes on answering what it can.
        if self.jobs.send(job).is_err() {
            self.out.error("the search thread is gone");
        }
    }

    /// Writes this command's answer, the lines `make` gives: at once when the worker has
    /// nothing left to do, else behind its jobs, made when their turn comes (so that they show
    /// what those jobs did: the tables opened, what a search proved).
    fn answer(&self, make: impl FnOnce() -> Vec<String> + Send + 'static) {
        if self.jobs.idle() {
            return self.out.lines(&make());
        }
        if let Err(Job::Say(make)) = self.jobs.send(Job::Say(Box::new(make))) {
            self.out.error("the search thread is gone");
            self.out.lines(&make());
        }
    }

    /// An answer of one line.
    fn say(&self, line: String) {
        self.answer(move || vec![line]);
    }

    /// `info string error: ...`, in its turn.
    fn error(&self, message: impl std::fmt::Display) {
        self.say(format!("info string error: {message}"));
    }

    fn handle(&mut self, line: &str) -> Flow {
        let parsed = match parse(line) {
            Ok(parsed) => parsed,
            Err(e) => {
                self.error(e);
                return Flow::Continue;
            }
        };
        // UCI skips unknown words; say which, so a typo is not silent, before the command's
        // own answer.
        let skipped = (!parsed.skipped.is_empty()).then(|| {
            format!(
                "info string skipped unknown words: {}",
                parsed.skipped.join(" ")
            )
        });
        let command = parsed.command;
        if command == Command::IsReady && self.searching() {
            // During a search, at once (UCI), once the search has begun.
            self.ready(skipped.into_iter().chain(["readyok".to_string()]).collect());
            return Flow::Continue;
        }
        if let Some(line) = skipped {
            self.say(line);
        }
        match command {
            Command::Empty | Command::Register | Command::Debug(_) => {}
            Command::Uci => self.answer(|| {
                let mut lines = vec![format!("id name {NAME}"), format!("id author {AUTHOR}")];
                lines.extend(OPTIONS.iter().map(options::uci_line));
                lines.push("uciok".to_string());
                lines
            }),
            Command::IsReady => {
                // No search under way: once the setup sent before it is done, always through
                // the queue, since the worker's start (the first table allocated) is setup too.
                self.send(Job::Say(Box::new(|| vec!["readyok".to_string()])));
            }
            Command::Stop => self.stop(),
            Command::PonderHit => {
                if let Some((flight, _)) = &self.current {
                    flight.ponderhit();
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
                let game = self.game.clone();
                let tables = self.tables_dir();
                let proven = self.proven.clone();
                self.answer(move || {
                    let mut lines = diagram(&game);
                    lines.extend(table_line(game.board(), tables.as_deref()));
                    lines.extend(proven.get(&game));
                    lines
                });
            }
            Command::Eval => {
                let board = *self.game.board();
                // The evaluator is taken when the answer is made, after an `EvalFile` read
                // before it.
                let settings = self.settings.clone();
                let tables = self.tables_dir();
                self.answer(move || {
                    let mut lines = eval_lines(&board, &settings.evaluator());
                    lines.extend(table_line(&board, tables.as_deref()));
                    lines
                });
            }
            Command::Bench(depth) => {
                self.stop();
                let terms = !self.settings.use_network;
                self.hand_over(Task::Bench { depth, terms }, Flight::new(false), false);
            }
            Command::Help => self.answer(help_lines),
        }
        Flow::Continue
    }

    /// The directory `TablesPath` names now.
    fn tables_dir(&self) -> Option<PathBuf> {
        tables_dir(&self.settings.tables_path, self.default_tables.as_deref())
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
            Err(e) => return self.error(e),
            Ok(effect) => effect,
        };
        match effect {
            Effect::NewStart if settings.seeds != 0 => {
                if let Err(e) = Board::start_with_seeds(settings.variant, settings.seeds) {
                    return self.error(e);
                }
            }
            // Files are read by the worker, bounded in size; only what can be known without
            // opening the file (that it is a FIFO or a device) is refused here.
            Effect::LoadMemory => {
                if let Err(e) = not_a_file(&settings.learn_file) {
                    return self.error(format!("LearnFile {e}"));
                }
            }
            Effect::LoadWeights => {
                if let Err(e) = not_a_file(&settings.evolved_weights) {
                    return self.error(format!("EvolvedWeights {e}"));
                }
            }
            Effect::LoadNetwork => {
                if let Err(e) = not_a_file(&settings.eval_file) {
                    return self.error(format!("EvalFile {e}; keeping the current network"));
                }
            }
            _ => {}
        }
        if settings.randomness != seed_before {
            self.send(Job::Reseed(settings.randomness));
        }
        // Another rule set's tables are opened now, before the `readyok` that follows.
        let new_variant = settings.variant != self.settings.variant;
        self.settings = settings;
        if new_variant && effect != Effect::OpenTables {
            self.send(Job::OpenTables {
                path: self.settings.tables_path.clone(),
                variant: self.settings.variant,
            });
        }
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
            // Read by the worker, never past a network's length: a file of any size costs
            // the reader nothing, and what follows (a search, `eval`) uses it in its turn.
            Effect::LoadNetwork => self.send(Job::LoadNetwork {
                path: self.settings.eval_file.clone(),
                into: self.settings.network.clone(),
            }),
        }
    }

    /// Sets up the position, or changes nothing and says why.
    fn position(&mut self, start: Start<'_>, moves: &str) {
        let board = match start {
            Start::StartPos => self.start_board(),
            Start::Fen(text) => match Board::from_notation(self.settings.variant, text) {
                Ok(b) => b,
                Err(e) => return self.error(format!("position: {e}")),
            },
        };
        let mut game = Game::new(board);
        if let Err(e) = game.play_text(moves) {
            return self.error(format!("position: {e}"));
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
        let flight = Flight::new(limits.ponder);
        if let Some(depth) = go.perft {
            if go.searchmoves.is_some() {
                // Perft answers no `bestmove`: refused like any other bad line.
                return self.error("go: searchmoves: perft counts every move");
            }
            let game = self.game.clone();
            return self.hand_over(Task::Perft { game, depth }, flight, false);
        }
        let needs_stop = !limits.ends_by_itself();
        let searchmoves = match go.searchmoves.as_deref().map(|t| self.searchmoves(t)) {
            None => None,
            Some(Ok(moves)) => Some(moves),
            Some(Err(error)) => {
                // Refused, but answered: a GUI waiting for `bestmove` gets one.
                let task = Task::Refused { error, limits };
                return self.hand_over(task, flight, needs_stop);
            }
        };
        let game = self.game.clone();
        let overhead = self.settings.move_overhead;
        let multipv = self.settings.multipv;
        let task = match self.settings.opponent.classic() {
            Some(kind) => Task::Classic {
                game,
                kind,
                depth: self.settings.evolved_depth,
                limits,
                overhead,
            },
            None => Task::Search {
                game,
                limits,
                evaluator: self.settings.evaluator(),
                overhead,
                tables_path: self.settings.tables_path.clone(),
                path_values: self.settings.path_values,
                threads: self.settings.threads,
                // The book knows one move for any root: not for several lines, nor for some
                // of the moves.
                book: (self.settings.own_book && multipv == 1 && searchmoves.is_none())
                    .then_some(self.settings.book_margin),
                analysis: Analysis {
                    multipv,
                    searchmoves,
                },
                proven: self.proven.clone(),
            },
        };
        self.hand_over(task, flight, needs_stop);
    }

    /// The root moves of `go searchmoves`, `text` as typed: every one a legal move of the
    /// position, for the engine's search.
    fn searchmoves(&self, text: &str) -> Result<MoveList, String> {
        let error = |e: String| format!("go: searchmoves: {e}");
        if let Some(kind) = self.settings.opponent.classic() {
            return Err(error(format!(
                "Opponent {} chooses among every move; only the engine's search takes searchmoves",
                kind.name()
            )));
        }
        let legal = self.game.legal_moves();
        let mut moves = MoveList::EMPTY;
        for m in parse_move_list(text).map_err(|e| error(e.to_string()))? {
            if !legal.contains(m) {
                return Err(error(match legal.is_empty() {
                    true => format!("{m} is not legal: the game is over"),
                    false => format!("{m} is not legal here (legal moves: {legal})"),
                }));
            }
            moves.insert(m);
        }
        Ok(moves)
    }

    /// Hands `task` to the worker as the work in flight; `needs_stop`: only `stop` ends it.
    fn hand_over(&mut self, task: Task, flight: Flight, needs_stop: bool) {
        let flight = Arc::new(flight);
        self.current = Some((flight.clone(), needs_stop));
        let job = Job::Answer {
            flight,
            task: Box::new(task),
        };
        if let Err(Job::Answer { flight, .. }) = self.jobs.send(job) {
            // It will never run: `isready` is answered at once, as it was for a search.
            self.out.error("the search thread is gone");
            flight.begin(&self.out);
        }
    }
}

/// What the tables of `dir` say of `board`, for `d` and `eval`, if the worker has opened them
/// (the reader opens no file).
fn table_line(board: &Board, dir: Option<&Path>) -> Option<String> {
    if !supported(board.variant()) {
        return None;
    }
    let tables = Tables::cached(dir?, board.variant())?;
    describe(&tables, board)
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
