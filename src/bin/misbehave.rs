//! `misbehave`: a test engine that breaks the protocol on purpose, for the referee's tests.
//! It speaks just enough of the protocol to play the first legal move, except where its mode
//! says otherwise. Its modes are listed by `misbehave --help` (`HELP`).
//!
//! Usage: `misbehave MODE [ARG]`
//!
//! It ships, installed beside `awari` and `referee`, on purpose: whoever writes a tournament
//! manager or a GUI for awari engines can test theirs against the faults it makes, as the
//! referee's tests do, and a user can watch the referee handle them. It is not behind a cargo
//! feature because the tests need it: cargo builds a binary for the tests (and tells them its
//! path, `CARGO_BIN_EXE_misbehave`) only as a target of the package, so a feature would have
//! to be on by default, shipping it anyway, or `cargo test --profile ci` without flags would
//! skip the referee's fault tests. It builds only on the rules.

use awari::rules::{Board, Game, Move, Variant};
use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// What `misbehave --help` prints: the usage and every mode.
const HELP: &str = "\
A test engine that breaks the protocol on purpose.

Usage: misbehave MODE [ARG]

Modes:
  normal                   behaves (the default)
  crash-at K               exits with status 3 when asked to move at ply K or later
  hang-at K                stops answering anything at ply K or later
  garbage                  answers `go` with `bestmove ???`
  illegal                  answers `go` with a move that is not legal there
  slow-start MS            sleeps before reading anything
  no-uciok                 answers `uci` with its id but never `uciok`
  flood                    answers `go` with an endless stream of info lines
  ignore-quit              does not exit on `quit` (nor on end of input), ignores SIGTERM
  slow-move MS             sleeps before each `bestmove`
  late-garbage             follows each `bestmove` with a second one, `bestmove ???`
  bad-info                 reports `score cp 5} [Evil \"tag\"]` before each `bestmove`
  info-after-pv            before each `bestmove M`, an `info` line whose `pv M` comes before
                           other fields and a `string` (lawful, not the usual order)
  book                     answers only from its book (the start and the 4 plies after it);
                           elsewhere its moves are illegal
  leave-children DIR       on its first `go` after each `ucinewgame`, starts `DIR/sleep 300`
                           in a session of its own and leaves a `DIR/sleep 0` orphaned in
                           another, appending a line to `DIR/children`; on each `ucinewgame`,
                           appends to `DIR/zombies` how many zombie children its parent has
  exit-leaving-child DIR   on `go`, starts `DIR/sleep 300` with its stdout and exits with
                           status 0, as `sleep 300 & exit 0` in a shell does
  refuse-searchmoves MS    refuses each `go` with `searchmoves` (`info string error`) and
                           answers it `bestmove 0000` late, as a search thread may: MS ms
                           after `stop`, or on the next `go`, just before that one's answer
";

enum Mode {
    Normal,
    CrashAt(usize),
    HangAt(usize),
    Garbage,
    Illegal,
    SlowStart(u64),
    NoUciok,
    Flood,
    IgnoreQuit,
    SlowMove(u64),
    LateGarbage,
    BadInfo,
    InfoAfterPv,
    Book,
    LeaveChildren(std::path::PathBuf),
    ExitLeavingChild(std::path::PathBuf),
    RefuseSearchmoves(u64),
}

/// The mode the arguments name; `None` for `--help`.
fn mode() -> Result<Option<Mode>, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize| -> Result<u64, String> {
        args.get(i)
            .and_then(|a| a.parse().ok())
            .ok_or_else(|| format!("{} needs a number", args[0]))
    };
    Ok(Some(match args.first().map(String::as_str) {
        Some("--help" | "-h" | "help") => return Ok(None),
        Some("normal") | None => Mode::Normal,
        Some("crash-at") => Mode::CrashAt(number(1)? as usize),
        Some("hang-at") => Mode::HangAt(number(1)? as usize),
        Some("garbage") => Mode::Garbage,
        Some("illegal") => Mode::Illegal,
        Some("slow-start") => Mode::SlowStart(number(1)?),
        Some("no-uciok") => Mode::NoUciok,
        Some("flood") => Mode::Flood,
        Some("ignore-quit") => Mode::IgnoreQuit,
        Some("slow-move") => Mode::SlowMove(number(1)?),
        Some("late-garbage") => Mode::LateGarbage,
        Some("bad-info") => Mode::BadInfo,
        Some("info-after-pv") => Mode::InfoAfterPv,
        Some("book") => Mode::Book,
        Some("leave-children") => Mode::LeaveChildren(
            args.get(1)
                .map(std::path::PathBuf::from)
                .ok_or("leave-children needs a directory")?,
        ),
        Some("exit-leaving-child") => Mode::ExitLeavingChild(
            args.get(1)
                .map(std::path::PathBuf::from)
                .ok_or("exit-leaving-child needs a directory")?,
        ),
        Some("refuse-searchmoves") => Mode::RefuseSearchmoves(number(1)?),
        Some(other) => {
            return Err(format!(
                "unknown mode '{other}' (`misbehave --help` lists the modes)"
            ))
        }
    }))
}

fn main() -> ExitCode {
    let mode = match mode() {
        Ok(Some(m)) => m,
        Ok(None) => {
            print!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("misbehave: {e}");
            return ExitCode::from(2);
        }
    };
    if let Mode::SlowStart(ms) = mode {
        std::thread::sleep(Duration::from_millis(ms));
    }
    if let Mode::IgnoreQuit = mode {
        // Blocked, SIGTERM stays pending for ever (this program has one thread).
        let _ = nix::sys::signal::SigSet::from(nix::sys::signal::Signal::SIGTERM).thread_block();
    }
    // Locked line by line, not for good: `refuse-searchmoves` writes from a thread of its own.
    let mut out = io::stdout();
    let mut engine = Engine::new(mode);
    for line in io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let answer = match engine.hear(&words, &mut out) {
            Heard::Answer(lines) => lines,
            Heard::Exit(code) => return code,
        };
        for a in answer {
            if writeln!(out, "{a}").and_then(|()| out.flush()).is_err() {
                return ExitCode::SUCCESS;
            }
        }
    }
    if let Mode::IgnoreQuit = engine.mode {
        loop {
            std::thread::sleep(Duration::from_secs(3600));
        }
    }
    ExitCode::SUCCESS
}

/// What the engine does with a line it read: answers it (with no line or several), or exits
/// with a status, as some modes do mid-game.
enum Heard {
    Answer(Vec<String>),
    Exit(ExitCode),
}

/// The engine between lines: its mode and the game it was given. Each command has a method,
/// so that a mode's fault sits beside the behaviour it breaks.
struct Engine {
    mode: Mode,
    variant: Variant,
    game: Game,
    /// Whether the position came from the start, where the book's moves are legal.
    in_book: bool,
    /// Whether no `go` has come since the last `ucinewgame`.
    new_game: bool,
    /// Whether a refused `go`'s `bestmove 0000` is still owed (`refuse-searchmoves`): whoever
    /// takes it (the timer after `stop`, or the next `go`) writes it.
    owed: Arc<AtomicBool>,
}

impl Engine {
    fn new(mode: Mode) -> Engine {
        let variant = Variant::Oware;
        Engine {
            mode,
            variant,
            game: Game::new(Board::start(variant)),
            in_book: true,
            new_game: false,
            owed: Arc::new(AtomicBool::new(false)),
        }
    }

    /// One line of the protocol, split into words; `out` is for modes that write unasked.
    fn hear(&mut self, words: &[&str], out: &mut impl Write) -> Heard {
        Heard::Answer(match words.first().copied() {
            Some("uci") => {
                let mut a = vec!["id name misbehave".to_string()];
                if !matches!(self.mode, Mode::NoUciok) {
                    a.push("uciok".to_string());
                }
                a
            }
            Some("isready") => vec!["readyok".to_string()],
            Some("setoption") => {
                if let (Some(&"UCI_Variant"), Some(v)) = (words.get(2), words.get(4)) {
                    self.variant = v.parse().unwrap_or(self.variant);
                }
                vec![]
            }
            Some("position") => {
                self.position(words);
                vec![]
            }
            Some("ucinewgame") => {
                self.new_game = true;
                if let Mode::LeaveChildren(dir) = &self.mode {
                    let zombies = zombie_children(std::os::unix::process::parent_id());
                    let _ = std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(dir.join("zombies"))
                        .and_then(|mut f| writeln!(f, "{zombies}"));
                }
                vec![]
            }
            Some("go") => return self.go(words, out),
            Some("stop") => {
                if let (Mode::RefuseSearchmoves(ms), true) =
                    (&self.mode, self.owed.load(Ordering::SeqCst))
                {
                    answer_late(self.owed.clone(), Duration::from_millis(*ms));
                }
                vec![]
            }
            Some("quit") if !matches!(self.mode, Mode::IgnoreQuit) => {
                return Heard::Exit(ExitCode::SUCCESS)
            }
            _ => vec![],
        })
    }

    /// `position startpos|fen F [moves M]`: what cannot be read is taken as the start, and
    /// the moves are played as far as they are legal.
    fn position(&mut self, words: &[&str]) {
        let start = match words.get(1) {
            Some(&"fen") => words
                .get(2)
                .and_then(|f| Board::from_notation(self.variant, f).ok())
                .unwrap_or(Board::start(self.variant)),
            _ => Board::start(self.variant),
        };
        self.game = Game::new(start);
        self.in_book = words.get(1) == Some(&"startpos");
        if let Some(i) = words.iter().position(|w| *w == "moves") {
            let _ = self.game.play_text(&words[i + 1..].join(""));
        }
    }

    /// `go`: first the answer a refused search still owes (`refuse-searchmoves`), then this
    /// one's refusal or [`Engine::search`]'s answer.
    fn go(&mut self, words: &[&str], out: &mut impl Write) -> Heard {
        let late = self.owed.swap(false, Ordering::SeqCst);
        let late = late.then(|| "bestmove 0000".to_string());
        if let (Mode::RefuseSearchmoves(_), true) = (&self.mode, words.contains(&"searchmoves")) {
            self.owed.store(true, Ordering::SeqCst);
            let refusal = "info string error: go: searchmoves refused on purpose".to_string();
            return Heard::Answer(late.into_iter().chain([refusal]).collect());
        }
        match self.search(out) {
            Heard::Answer(a) => Heard::Answer(late.into_iter().chain(a).collect()),
            exit => exit,
        }
    }

    /// A search: where most modes break the protocol (leaving children, crashing, hanging,
    /// flooding, answering garbage or illegal moves); otherwise the first legal move.
    fn search(&mut self, out: &mut impl Write) -> Heard {
        let ply = self.game.moves().len();
        if let (Mode::LeaveChildren(dir), true) = (&self.mode, self.new_game) {
            leave_children(dir);
        }
        self.new_game = false;
        if let Mode::ExitLeavingChild(dir) = &self.mode {
            // Stdout inherited: the child holds the pipe the referee reads.
            let _ = std::process::Command::new(dir.join("sleep"))
                .arg("300")
                .stdin(std::process::Stdio::null())
                .spawn();
            return Heard::Exit(ExitCode::SUCCESS);
        }
        if let Mode::SlowMove(ms) = self.mode {
            std::thread::sleep(Duration::from_millis(ms));
        }
        let book_over = matches!(self.mode, Mode::Book) && (!self.in_book || ply > 4);
        Heard::Answer(match self.mode {
            Mode::CrashAt(k) if ply >= k => return Heard::Exit(ExitCode::from(3)),
            Mode::HangAt(k) if ply >= k => loop {
                std::thread::sleep(Duration::from_secs(3600));
            },
            Mode::Garbage => vec!["bestmove ???".to_string()],
            _ if book_over => vec![format!("bestmove {}", illegal_move(&self.game))],
            Mode::Illegal => vec![format!("bestmove {}", illegal_move(&self.game))],
            Mode::Flood => loop {
                if writeln!(out, "info string flooding the referee").is_err() {
                    return Heard::Exit(ExitCode::SUCCESS);
                }
            },
            _ => self.first_legal_move(),
        })
    }

    /// The answer of a behaving engine, the first legal move, with the `info` line the mode
    /// asks for (and, for `late-garbage`, a second `bestmove` after it).
    fn first_legal_move(&self) -> Vec<String> {
        let best = self
            .game
            .legal_moves()
            .into_iter()
            .next()
            .map_or("0000".to_string(), |m| m.to_string());
        let info = match self.mode {
            Mode::BadInfo => "info depth 1 score cp 5} [Evil \"tag\"]".to_string(),
            Mode::InfoAfterPv => format!(
                "info depth 2 score cp 7 pv {best} multipv 1 nodes 9 \
                 string the variation ends before this"
            ),
            _ => "info depth 1 score cp 0".to_string(),
        };
        let mut a = vec![info, format!("bestmove {best}")];
        if let Mode::LateGarbage = self.mode {
            a.push("bestmove ???".to_string());
        }
        a
    }
}

/// `leave-children`'s fault: starts `DIR/sleep 300` in a session of its own and leaves a
/// `DIR/sleep 0` orphaned in another, noting it in `DIR/children`.
fn leave_children(dir: &std::path::Path) {
    let sleep = dir.join("sleep");
    let _ = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("children"))
        .and_then(|mut f| writeln!(f, "started"));
    let _ = std::process::Command::new("setsid")
        .arg(&sleep)
        .arg("300")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .spawn();
    let _ = std::process::Command::new("/bin/sh")
        .arg("-c")
        .arg(format!("setsid '{}' 0 &", sleep.display()))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .status();
}

/// `refuse-searchmoves`'s late answer: `bestmove 0000` after `delay`, unless the next `go`
/// took it first.
fn answer_late(owed: Arc<AtomicBool>, delay: Duration) {
    std::thread::spawn(move || {
        std::thread::sleep(delay);
        if owed.swap(false, Ordering::SeqCst) {
            let mut out = io::stdout().lock();
            let _ = writeln!(out, "bestmove 0000").and_then(|()| out.flush());
        }
    });
}

/// How many zombie children process `parent` has (from /proc).
fn zombie_children(parent: u32) -> usize {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| {
            let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
            let fields: Vec<&str> = stat
                .rfind(')')
                .map_or("", |i| &stat[i + 1..])
                .split_whitespace()
                .collect();
            fields.first() == Some(&"Z") && fields.get(1) == Some(&parent.to_string().as_str())
        })
        .count()
}

/// A move the game does not allow (a house of the wrong side, or an empty one), or `0000`.
fn illegal_move(game: &Game) -> String {
    let legal = game.legal_moves();
    (0..12)
        .filter_map(Move::new)
        .find(|m| !legal.contains(*m))
        .map_or("0000".to_string(), |m| m.to_string())
}
