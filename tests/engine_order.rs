//! The order of the real `awari` binary's answers: each after the answers of the commands
//! before it, `readyok` during a search at once but never ahead of what was owed before its
//! `go`, unknown words named before the command's own answer.

use crate::common::{Engine, SECOND};
use awari::rules::{Board, Variant};

#[test]
fn unknown_words_are_skipped_as_uci_says_and_named() {
    // The whole line was once refused: `joho isready` answered an error, no `readyok`.
    let mut e = Engine::start();
    e.send("joho isready");
    let (skipped, _) = e.expect("info string skipped unknown words: joho", 5 * SECOND);
    assert_eq!(skipped, "info string skipped unknown words: joho");
    e.expect("readyok", 5 * SECOND);
    e.send("position startpos");
    e.send("go fast depth 3");
    e.expect("info string skipped unknown words: fast", 5 * SECOND);
    e.expect("info depth 3 ", 5 * SECOND);
    e.expect("bestmove ", 5 * SECOND);
    // A line with no command at all is still an error.
    e.send("hello world");
    e.expect("info string error: hello: unknown command", 5 * SECOND);
}

/// An engine's whole output, read one answer at a time from the front.
struct Answers {
    lines: std::collections::VecDeque<String>,
    /// All of it, for the messages.
    all: Vec<String>,
}

impl Answers {
    /// The answers in `all`, an engine's output.
    fn new(all: Vec<String>) -> Answers {
        Answers {
            lines: all.clone().into(),
            all,
        }
    }

    /// The next answer: its first line must start with `first`, and it runs to the first line
    /// (that one included) starting with `last`.
    fn take(&mut self, first: &str, last: &str) -> Vec<String> {
        let read = self.all.len() - self.lines.len();
        let mut taken = Vec::new();
        while let Some(line) = self.lines.pop_front() {
            if taken.is_empty() {
                assert!(
                    line.starts_with(first),
                    "line {read}: expected '{first}...', got {line:?} in {:#?}",
                    self.all
                );
            }
            let done = line.starts_with(last);
            taken.push(line);
            if done {
                return taken;
            }
        }
        panic!(
            "the output ended inside '{first}' .. '{last}': {:#?}",
            self.all
        );
    }

    /// The next answer, one line starting with `first`.
    fn line(&mut self, first: &str) -> String {
        self.take(first, "").remove(0)
    }

    /// `d`'s board, which must show `position`.
    fn board(&mut self, position: &str) {
        let taken = self.take("", "South to move; legal moves:");
        let shown = format!("Position: {position}");
        assert!(taken.contains(&shown), "{shown} expected in {taken:?}");
    }

    /// `uci`'s answer.
    fn uci(&mut self) {
        let taken = self.take("id name ", "uciok");
        assert!(taken[1].starts_with("id author "), "{taken:?}");
        let options = &taken[2..taken.len() - 1];
        assert!(
            options.iter().all(|l| l.starts_with("option name ")),
            "{taken:?}"
        );
    }
}

#[test]
fn every_answer_comes_after_the_answers_of_the_commands_before_it() {
    // The reader once answered `uci`, `d`, `eval`, `help` and its errors itself while the
    // worker answered `isready`, searches and what opening the tables says: `printf
    // 'uci\nisready\nd\n' | awari` printed the board before `readyok`. Here every kind of
    // command is sent in one write, so that the reader reads each while the worker is still
    // busy with those before it, and the whole output is read back in the order sent. No
    // `isready` is sent during a search: that one is answered at once, ahead of the search's
    // `bestmove`.
    let far = "2-2-1-1-1-1-1-1-1-1-1-1-17-17-S";
    let start = Board::start(Variant::Oware).to_string();
    let script = [
        "uci",
        "isready",
        "d",
        "setoption name Nope value 1",
        "setoption name Hash value 32",
        "isready",
        "eval",
        &format!("position fen {far}"),
        "d",
        "position fen nonsense",
        "bench 1",
        "go movetime 300",
        "d",
        "help",
        "setoption name TablesPath value /nonexistent/awari-tables",
        "joho d",
        "go perft 3",
        "eval",
        "uci",
        "hello",
    ];
    let mut e = Engine::start();
    e.send(&script.join("\n"));
    e.close_stdin();
    let all = e.drain(30 * SECOND);
    let mut a = Answers::new(all);
    a.uci();
    a.line("readyok");
    a.board(&start);
    a.line("info string error: no option named 'Nope'");
    a.line("readyok");
    a.take(&format!("eval of {start} "), "total");
    a.board(far);
    a.line("info string error: position:");
    a.take("bench ", "bench nodes ");
    let search = a.take("info ", "bestmove ");
    let infos = &search[..search.len() - 1];
    assert!(infos.iter().all(|l| l.starts_with("info ")), "{search:?}");
    a.board(far);
    a.line("commands (protocol.md has them all):");
    while a.lines.front().is_some_and(|l| l.starts_with("  ")) {
        a.lines.pop_front();
    }
    a.line("info string warning: tables: ");
    a.line("info string skipped unknown words: joho");
    a.board(far);
    let perft = a.take("", "leaves/s ");
    assert!(perft.iter().any(|l| l.starts_with("total ")), "{perft:?}");
    a.take(&format!("eval of {far} "), "total");
    a.uci();
    a.line("info string error: hello: unknown command");
    assert!(a.lines.is_empty(), "more than was asked for: {:#?}", a.all);
    e.exit(10 * SECOND);
    // `quit` right behind them still lets the answers before it out, in their order.
    for _ in 0..3 {
        let mut e = Engine::start();
        e.send("uci\nisready\nd\nquit");
        let all = e.drain(30 * SECOND);
        let mut a = Answers::new(all);
        a.uci();
        a.line("readyok");
        a.board(&start);
        assert!(a.lines.is_empty(), "more than was asked for: {:#?}", a.all);
    }
}

#[test]
fn isready_during_a_search_comes_after_the_answers_owed_before_its_go() {
    // `isready` during a search is answered at once, but only once the search has begun: an
    // `isready` read while the worker was still on the commands before the `go` was answered
    // ahead of their answers (`printf 'isready\ngo depth x\nisready\ngo searchmoves Z\n
    // isready\n' | awari` printed the last `readyok` second). Sent in one write, behind a table
    // being sized, an `eval` and an error; the search is `infinite`, so a `readyok` that came
    // only after it would not come at all.
    let mut e = Engine::start();
    e.send("setoption name Hash value 256\neval\nhello\ngo infinite\nisready");
    let read = e.until("readyok", 30 * SECOND);
    let mut a = Answers::new(read);
    let start = Board::start(Variant::Oware).to_string();
    a.take(&format!("eval of {start} "), "total");
    a.line("info string error: hello: unknown command");
    // The search's lines, if it had written any before the `isready` was read.
    let search = a.take("", "readyok");
    let infos = &search[..search.len() - 1];
    assert!(
        infos.iter().all(|l| l.starts_with("info depth ")),
        "{search:?}"
    );
    e.send("stop");
    e.expect("bestmove ", 10 * SECOND);
    e.send("quit");
    assert!(e.exit(10 * SECOND).0.success());
}

#[test]
fn isready_waits_for_the_hash_table_so_the_first_go_keeps_its_time() {
    // The table was once allocated at the first `go`: with 1 GiB, `readyok` came at once and
    // `go movetime 100` answered after 2.5 s. Now `readyok` waits for the table, and the search
    // has its time.
    let mut e = Engine::start();
    let slack = e.slack();
    e.send("setoption name Hash value 1024");
    e.send("isready");
    e.expect("readyok", 60 * SECOND);
    e.send("position startpos");
    e.send("go movetime 100");
    let (_, took) = e.expect("bestmove ", 60 * SECOND);
    assert!(took < SECOND + slack, "the first move took {took:?}");
    // `ucinewgame` clears the table; `isready` waits for that too, and the next search again
    // has its time.
    e.send("ucinewgame");
    e.send("isready");
    e.expect("readyok", 60 * SECOND);
    e.send("go movetime 100");
    let (_, took) = e.expect("bestmove ", 60 * SECOND);
    assert!(
        took < SECOND + slack,
        "the move after ucinewgame took {took:?}"
    );
}
