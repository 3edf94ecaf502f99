//! The real `awari` binary driven through pipes, as a GUI or a tournament manager drives it:
//! full games in every variant, answers during a deep search, `quit` and end of input
//! mid-search, pondering, clocks.

use crate::common;
use crate::common::{without_counts, Engine};
use awari::rules::{parse_move_list, Board, Game, Variant};
use std::io::Write;
use std::process::Stdio;
use std::thread;
use std::time::Duration;

const SECOND: Duration = Duration::from_secs(1);
/// What "at once" allows beyond the machine's own round trip.
const FAST: Duration = Duration::from_millis(100);

impl Engine {
    /// "At once" on this machine now: [`FAST`] beyond [`Engine::slack`].
    fn at_once(&mut self) -> Duration {
        FAST + self.slack()
    }
}

#[test]
fn isready_and_stop_are_answered_within_100ms_during_a_deep_search() {
    let mut e = Engine::start();
    let fast = e.at_once();
    e.send("position startpos");
    e.send("go infinite");
    e.expect("info depth 10 ", 10 * SECOND);
    for _ in 0..5 {
        e.send("isready");
        let (_, took) = e.expect("readyok", SECOND);
        assert!(took < fast, "readyok took {took:?}");
        thread::sleep(Duration::from_millis(20));
    }
    e.send("stop");
    let (best, took) = e.expect("bestmove ", SECOND);
    assert!(took < fast, "bestmove after stop took {took:?}");
    assert!(best.len() > "bestmove ".len());
    // One bestmove per go: nothing more comes.
    assert_eq!(e.up_to_readyok(), ["readyok"]);
}

#[test]
fn quit_mid_search_exits_within_100ms() {
    let mut e = Engine::start();
    let fast = e.at_once();
    e.send("go infinite");
    e.expect("info depth 8 ", 10 * SECOND);
    e.send("quit");
    let (status, took) = e.exit(5 * SECOND);
    assert!(status.success(), "{status}");
    assert!(took < fast, "quit took {took:?}");
}

#[test]
fn end_of_input_mid_search_stops_it_cleanly() {
    let mut e = Engine::start();
    e.send("go infinite");
    e.expect("info depth 8 ", 10 * SECOND);
    e.close_stdin();
    e.expect("bestmove ", SECOND);
    let (status, _) = e.exit(5 * SECOND);
    assert!(status.success());
}

#[test]
fn end_of_input_lets_a_bounded_search_finish() {
    let mut e = Engine::start();
    e.send("position startpos moves FfEa");
    e.send("go depth 9");
    e.close_stdin();
    e.expect("info depth 9 ", 10 * SECOND);
    e.expect("bestmove ", 10 * SECOND);
    let (status, _) = e.exit(5 * SECOND);
    assert!(status.success());
}

#[test]
fn a_go_during_a_search_ends_it_with_its_own_bestmove() {
    let mut e = Engine::start();
    e.send("go infinite");
    e.expect("info depth 6 ", 10 * SECOND);
    e.send("go depth 3");
    e.expect("bestmove ", SECOND);
    e.expect("info depth 3 ", SECOND);
    e.expect("bestmove ", SECOND);
    e.send("stop");
    assert_eq!(e.up_to_readyok(), ["readyok"]);
}

#[test]
fn ponder_then_ponderhit() {
    let mut e = Engine::start();
    let slack = e.slack();
    let fast = FAST + slack;
    e.send("position startpos moves F");
    e.send("go ponder wtime 3000 btime 3000");
    // Pondering searches on past what its clock would allow (by its own reported time: 300
    // ms, three times its budget), and answers nothing meanwhile.
    let mut early = Vec::new();
    loop {
        let (line, _) = e.expect("", 30 * SECOND);
        assert!(!line.starts_with("bestmove"), "{early:?} {line}");
        let time = line
            .split(' ')
            .skip_while(|&w| w != "time")
            .nth(1)
            .and_then(|t| t.parse::<u64>().ok());
        early.push(line);
        if time.is_some_and(|t| t >= 300) {
            break;
        }
    }
    e.send("ponderhit");
    // North's budget is about 3000/30 ms once the move is its own: well within the clock.
    let (_, took) = e.expect("bestmove ", 3 * SECOND + slack);
    assert!(took < Duration::from_millis(1500) + slack, "{took:?}");
    // And a ponder search ended by stop answers at once.
    e.send("go ponder wtime 3000 btime 3000");
    e.expect("info depth 1 ", 10 * SECOND);
    e.send("stop");
    let (_, took) = e.expect("bestmove ", SECOND);
    assert!(took < fast, "{took:?}");
}

#[test]
fn clocks_and_movetime_are_kept() {
    let mut e = Engine::start();
    let slack = e.slack();
    e.send("position startpos");
    e.send("go wtime 400 btime 400");
    let (_, took) = e.expect("bestmove ", 5 * SECOND);
    assert!(
        took < Duration::from_millis(400) + slack,
        "{took:?} on a 400 ms clock ({slack:?} this machine's round trip)"
    );
    e.send("go movetime 300");
    let (_, took) = e.expect("bestmove ", 5 * SECOND);
    assert!(
        took < Duration::from_millis(300) + FAST + slack,
        "movetime 300 took {took:?} ({slack:?} this machine's round trip)"
    );
    assert!(
        took > Duration::from_millis(200),
        "movetime 300 took only {took:?}"
    );
    // Aualé's `go depth 10 movetime 1000`: both limits apply, the depth comes first here.
    e.send("go depth 4 movetime 5000");
    let (_, took) = e.expect("bestmove ", 5 * SECOND);
    assert!(took < SECOND + slack, "{took:?}");
}

#[test]
fn the_largest_clocks_go_accepts_give_a_long_search_not_a_1_ms_one() {
    // i64::MAX on the clock with one move to go once overflowed into a 1 ms budget: the search
    // stopped after depth 1. Now the depth limit ends it.
    let mut e = Engine::start();
    e.send("position startpos");
    e.send(
        "go wtime 9223372036854775807 btime 9223372036854775807 winc 9223372036854775807 \
         movestogo 1 depth 12",
    );
    let (best, _) = e.expect("bestmove ", 30 * SECOND);
    let lines = e.up_to_readyok();
    assert_eq!(lines, ["readyok"], "after {best}");
    e.send("go wtime 9223372036854775807 movestogo 1 depth 12");
    // Depth 12 may fail its aspiration window first; its exact line comes after.
    let line = loop {
        let (line, _) = e.expect("info depth 12 ", 30 * SECOND);
        if !line.contains("bound") {
            break line;
        }
    };
    assert!(line.contains(" pv "), "{line}");
    e.expect("bestmove ", 30 * SECOND);
}

#[test]
fn every_number_go_takes_is_safe_at_its_edges() {
    // Each argument at its largest (and the clocks at their most negative), beside a limit
    // that ends the search: every `go` answers, with a legal move, and nothing overflows (a
    // debug build would panic on an overflow; this test runs in both).
    let rows = [
        "go depth 4294967295 movetime 50",
        "go nodes 18446744073709551615 movetime 50",
        "go movetime 18446744073709551615 depth 3",
        "go movetime 0",
        "go nodes 0",
        "go depth 0",
        "go wtime 100 btime 100 movestogo 4294967295",
        "go wtime 100 movestogo 0",
        "go wtime -9223372036854775808 btime -9223372036854775808",
        "go wtime 100 winc -9223372036854775808",
        "go wtime 9223372036854775807 winc 9223372036854775807 movetime 50",
        "go btime 9223372036854775807 binc 9223372036854775807 movestogo 1 depth 3",
    ];
    let mut e = Engine::start();
    e.send("position startpos moves FfEa");
    for go in rows {
        e.send(go);
        let (best, _) = e.expect("bestmove ", 30 * SECOND);
        let m = best.split_whitespace().nth(1).unwrap();
        assert!("ABCDEF".contains(m), "{go}: {best}");
    }
    e.send("isready");
    e.expect("readyok", 5 * SECOND);
}

/// The lines from now up to the first that answers a `go`: its `bestmove` or its error.
fn go_answer(e: &Engine) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        let (line, _) = e.expect("", 30 * SECOND);
        let done = line.starts_with("bestmove ") || line.starts_with("info string error");
        lines.push(line);
        if done {
            return lines;
        }
    }
}

#[test]
fn clocks_up_to_2_to_the_64_are_accepted_as_protocol_md_says() {
    // `wtime 18446744073709551615` was refused ("needs a number that fits") though the
    // protocol allows every clock up to 2^64-1: a GUI's "no limit" clock got no move.
    let mut e = Engine::start();
    e.send("position startpos");
    let max = u64::MAX;
    for go in [
        format!("go wtime {max} btime {max} depth 3"),
        format!("go wtime {max} winc {max} movestogo 1 depth 3"),
        format!("go btime {max} binc {max} wtime 1000 depth 3"),
        format!("go wtime -9223372036854775808 winc {max} depth 3"),
    ] {
        e.send(&go);
        let lines = go_answer(&e);
        let last = lines.last().unwrap();
        assert!(last.starts_with("bestmove "), "{go}: {lines:?}");
    }
    // One beyond either end is still refused, naming the argument.
    for go in [
        "go wtime 18446744073709551616",
        "go binc -9223372036854775809",
    ] {
        e.send(go);
        let lines = go_answer(&e);
        let key = go.split_whitespace().nth(1).unwrap();
        let expected = format!("info string error: go: '{key}' needs a number that fits");
        assert!(
            lines.last().unwrap().starts_with(&expected),
            "{go}: {lines:?}"
        );
    }
}

#[test]
fn movestogo_0_is_no_time_control_ahead_not_the_last_move_before_one() {
    // `movestogo 0` was read as 1: the last move before a time control, which may take 80% of
    // the clock (24 s of 30, stopping no sooner than 8.6 s). It means that no control is
    // ahead, as with no `movestogo`: a 30th of the clock (1 s), 4 s at most.
    let mut e = Engine::start();
    let slack = e.slack();
    e.send("position startpos");
    e.send("go wtime 30000 btime 30000 movestogo 0");
    let (_, took) = e.expect("bestmove ", 30 * SECOND);
    assert!(took < 6 * SECOND + slack, "go movestogo 0 took {took:?}");
}

#[test]
fn control_characters_are_shown_escaped_never_echoed_raw() {
    // A NUL, an escape sequence or a bell sent in a line came back raw in `unknown command`
    // and `skipped unknown words`: invisible, or acted on by the terminal or the GUI.
    let mut e = Engine::start();
    e.send("foo\u{0}bar\u{1b}[31m");
    let (line, _) = e.expect("info string error: ", 5 * SECOND);
    assert_eq!(
        line,
        "info string error: foo\\u{0}bar\\u{1b}[31m: unknown command (try 'help')"
    );
    e.send("jo\u{7}ho\u{9b}2J isready");
    let (line, _) = e.expect("info string skipped", 5 * SECOND);
    assert_eq!(
        line,
        "info string skipped unknown words: jo\\u{7}ho\\u{9b}2J"
    );
    e.expect("readyok", 5 * SECOND);
    e.send("setoption name LearnFile\u{7f} value x");
    let (line, _) = e.expect("info string error: ", 5 * SECOND);
    assert!(line.contains("LearnFile\\u{7f}"), "{line}");
    assert!(!line.chars().any(char::is_control), "{line:?}");
}

#[test]
fn a_hash_size_the_machine_cannot_give_is_an_error_and_the_old_table_stays() {
    // 32 GiB is within the option's range but beyond this machine (24 GiB): the allocation
    // once aborted the process at the next `go`.
    let mut e = Engine::start();
    e.send("setoption name Hash value 32768");
    let (error, _) = e.expect("info string error: Hash 32768", 30 * SECOND);
    assert!(error.contains("keeping 16 MiB"), "{error}");
    e.send("position startpos");
    e.send("go depth 6");
    e.expect("bestmove ", 30 * SECOND);
    // A size that can be had is taken, silently.
    e.send("setoption name Hash value 32");
    e.send("go depth 6");
    let mut rest = e.until("bestmove ", 30 * SECOND);
    rest.extend(e.up_to_readyok());
    assert!(rest.iter().all(|l| !l.contains("error")), "{rest:?}");
}

#[test]
fn the_last_info_before_bestmove_is_a_complete_iteration() {
    // With this node limit the search stops inside a failed aspiration window of depth 5: the
    // last line it printed is an upper bound without a line. (The premise rests on the
    // search's node counts, like `bench`'s signature: a change to the search or the evaluation
    // may move it.)
    let mut e = Engine::start();
    e.send("position startpos moves FfEa");
    e.send("go nodes 330");
    e.expect(
        "info depth 5 seldepth 5 score cp 31 upperbound",
        10 * SECOND,
    );
    let mut before = Vec::new();
    loop {
        let (line, _) = e.expect("", 10 * SECOND);
        if line.starts_with("bestmove") {
            break;
        }
        before.push(line);
    }
    let last = before.last().expect("a line after the bound");
    assert!(last.starts_with("info depth 4 "), "{before:?}");
    assert!(!last.contains("bound"), "{last}");
    let pv = last.split(" pv ").nth(1).expect("a pv");
    assert!(pv.len() > 1, "{last}");
    // With the whole search's nodes: the limit, reached.
    assert!(count(last, "nodes") >= 330, "{last}");
}

/// The number after `key` in an `info` line.
fn count(line: &str, key: &str) -> u64 {
    let mut words = line.split_whitespace();
    words.find(|w| *w == key).expect(key);
    words.next().and_then(|n| n.parse().ok()).expect(key)
}

#[test]
fn a_search_stopped_inside_an_iteration_ends_with_its_counts() {
    // Stopped by its node limit, by `stop`, by its time: the last `info` before `bestmove` is
    // the last complete iteration's line again, with the whole search's nodes and time (a
    // tournament manager records the last line's counts as the move's).
    for (go, stop) in [
        ("go nodes 50000", false),
        ("go infinite", true),
        ("go movetime 300", false),
    ] {
        let mut e = Engine::start();
        e.send("position startpos moves FfEa");
        e.send(go);
        let mut lines = Vec::new();
        if stop {
            lines.push(e.expect("info depth 8 ", 10 * SECOND).0);
            e.send("stop");
        }
        lines.extend(e.until("bestmove ", 30 * SECOND));
        lines.retain(|l| l.starts_with("info depth "));
        let Some((last, before)) = lines.split_last() else {
            panic!("{go}: no line");
        };
        // The last line with an exact score before it (a failed window's bound may follow).
        let complete = before
            .iter()
            .rev()
            .find(|l| !l.contains("bound"))
            .unwrap_or_else(|| panic!("{go}: {lines:?}"));
        assert!(!last.contains("bound"), "{go}: {lines:?}");
        assert_eq!(without_counts(last), without_counts(complete), "{go}");
        assert!(
            count(last, "nodes") > count(before.last().unwrap(), "nodes"),
            "{go}: {lines:?}"
        );
        assert!(
            count(last, "time") >= count(before.last().unwrap(), "time"),
            "{go}: {lines:?}"
        );
        if go == "go nodes 50000" {
            assert!(count(last, "nodes") >= 50_000, "{last}");
        }
    }
    // A search that ends at an iteration's end repeats nothing.
    let mut e = Engine::start();
    e.send("position startpos moves FfEa");
    e.send("go depth 6");
    let lines = e.until("bestmove ", 30 * SECOND);
    let depths: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .collect();
    assert!(
        depths.last().unwrap().starts_with("info depth 6 "),
        "{lines:?}"
    );
    assert_eq!(
        depths
            .iter()
            .filter(|l| l.starts_with("info depth 6 "))
            .count(),
        1
    );
}

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
    let mut a = Answers {
        lines: all.clone().into(),
        all,
    };
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
        let mut a = Answers {
            lines: all.clone().into(),
            all,
        };
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
    let mut a = Answers {
        lines: read.clone().into(),
        all: read,
    };
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

#[test]
fn perft_obeys_stop_and_the_commands_after_it_run() {
    // `go perft 40` once ignored `stop`, and the search queued behind it never answered.
    let mut e = Engine::start();
    let slack = e.slack();
    e.send("go perft 40");
    // (Perft prints nothing until its first move's count: a short pause lets it start; were
    // it not started yet, `isready` would still be answered, and `stop` below still checked.)
    thread::sleep(Duration::from_millis(50));
    // During perft, `isready` is answered at once, as during a search.
    e.send("isready");
    let (_, took) = e.expect("readyok", 5 * SECOND);
    assert!(took < SECOND + slack, "{took:?}");
    e.send("stop");
    e.expect("perft stopped after ", 5 * SECOND);
    e.send("position startpos");
    e.send("go depth 5");
    e.expect("bestmove ", 10 * SECOND);
    // A perft that is let run still gives its total.
    e.send("go perft 4");
    let (total, _) = e.expect("total ", 10 * SECOND);
    assert_eq!(total, "total 1014"); // rules.md, oware at depth 4
}

#[test]
fn classic_opponents_obey_stop_movetime_and_clocks() {
    // `evolved` at depth 30 once ignored all of them: `go movetime 100` never answered.
    let mut e = Engine::start();
    let slack = e.slack();
    e.send("setoption name Opponent value evolved");
    e.send("setoption name EvolvedDepth value 30");
    e.send("position startpos moves FfEa");
    e.send("go movetime 100");
    let (_, took) = e.expect("bestmove ", 10 * SECOND);
    assert!(took < SECOND + slack, "movetime 100 took {took:?}");
    e.send("go wtime 2000 btime 2000 winc 0 binc 0");
    let (_, took) = e.expect("bestmove ", 10 * SECOND);
    assert!(took < SECOND + slack, "a 2 s clock took {took:?}");
    e.send("go infinite");
    // (The classic opponents print nothing while they search: a short pause lets it start;
    // were it not started yet, `stop` would still have to be answered.)
    thread::sleep(Duration::from_millis(200));
    e.send("stop");
    let (best, took) = e.expect("bestmove ", 10 * SECOND);
    assert!(took < SECOND + slack, "stop took {took:?}");
    assert_ne!(best, "bestmove 0000");
    // `go depth` bounds it too, and a finished search of its own depth answers at once.
    e.send("go depth 2");
    e.expect("bestmove ", 10 * SECOND);
    e.send("isready");
    e.expect("readyok", 5 * SECOND);
}

#[cfg(unix)]
#[test]
fn file_options_never_block_the_engine_or_exhaust_its_memory() {
    // `LearnFile` naming a FIFO once blocked `isready` for ever; `EvolvedWeights=/dev/zero`
    // read until memory ran out.
    let dir = common::scratch("pipes", "fifo");
    let fifo = dir.join("fifo");
    let status = common::hermetic("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
    let big = dir.join("big.txt");
    std::fs::write(&big, "1 ".repeat(1 << 20)).unwrap();
    let mut e = Engine::start();
    e.send(&format!(
        "setoption name LearnFile value {}",
        fifo.display()
    ));
    e.send("setoption name EvolvedWeights value /dev/zero");
    e.send(&format!(
        "setoption name EvolvedWeights value {}",
        big.display()
    ));
    e.send("isready");
    let mut lines = Vec::new();
    loop {
        let (line, _) = e.expect("", 10 * SECOND);
        if line == "readyok" {
            break;
        }
        lines.push(line);
    }
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].contains("LearnFile") && lines[0].contains("not a regular file"));
    assert!(lines[1].contains("EvolvedWeights") && lines[1].contains("not a regular file"));
    assert!(lines[2].contains("EvolvedWeights") && lines[2].contains("larger than"));
    assert!(lines.iter().all(|l| l.starts_with("info string error: ")));
    // The engine still plays, with the shipped weights.
    e.send("setoption name Opponent value evolved");
    e.send("position startpos");
    e.send("go depth 3");
    e.expect("bestmove ", 10 * SECOND);
}

#[test]
fn a_proven_result_shows_its_seed_margin_as_cp_beside_mate() {
    // Aualé reads only `cp`: `score mate 3` alone once showed a forced win as "+0.00 seeds".
    // Kalah: F and E each end in the store (extra moves), then F again ends the game with
    // South's 30 + 4 against North's 30.
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value kalah");
    e.send("position fen 0-0-0-0-2-1-1-0-0-0-0-0-30-30-S");
    e.send("go depth 6");
    let (line, _) = e.expect("info depth 3 ", 5 * SECOND);
    assert!(line.contains(" score mate 3 cp 200 "), "{line}");
    assert!(line.ends_with(" pv FEF"), "{line}");
    e.expect("bestmove F", 5 * SECOND);
    // A lost game shows a negative margin.
    e.send("setoption name UCI_Variant value oware");
    e.send("position fen 0-0-0-0-0-3-0-0-0-0-1-0-22-22-S");
    e.send("go depth 6");
    let (line, _) = e.expect("info depth 1 ", 5 * SECOND);
    assert!(line.contains(" score mate -1 cp -400 "), "{line}");
}

#[test]
fn no_info_line_carries_a_score_no_position_can_have() {
    // A long endgame without tables (found among random ones): its failed aspiration windows
    // printed their edges, `score mate -148 cp -100 upperbound` and `mate -164`, though no line
    // is searched beyond 128 plies. (Like `bench`'s signature, the premise rests on the
    // search's node counts.)
    let mut e = Engine::start();
    e.send("setoption name TablesPath value");
    e.send("position fen 1-1-2-0-1-0-1-1-1-1-2-0-24-13-N");
    e.send("go depth 52");
    let mut lines = 0;
    loop {
        let (line, _) = e.expect("", 20 * SECOND);
        if line.starts_with("bestmove") {
            break;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let after = |key: &str| {
            let i = words.iter().position(|&w| w == key)?;
            words.get(i + 1)?.parse::<i32>().ok()
        };
        if let Some(plies) = after("mate") {
            assert!(plies != 0 && plies.abs() <= 128, "{line}");
            lines += 1;
        } else if let Some(cp) = after("cp") {
            // Evaluations stay below 190 seeds; table results are at most 48 seeds.
            assert!(cp.abs() < 19_000, "{line}");
            lines += 1;
        }
    }
    assert!(lines > 50, "only {lines} lines with a score");
}

/// Runs `awari ARGS` and waits at most `limit` for it to end (killing it after): its status
/// and output, or `None` if it did not end in time.
fn awari_within(args: &[&str], limit: Duration) -> Option<(bool, String)> {
    let child = common::hermetic(common::AWARI)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = common::output_within(child, limit)?;
    Some((out.status.success(), common::printed(&out)))
}

#[test]
fn a_fifo_among_the_table_files_hangs_nothing() {
    // A FIFO named like a layer blocked open(2) in the worker while it held the tables' lock:
    // `isready` and `go` went unanswered. Only regular files are opened, without waiting.
    let dir = common::scratch("pipes", "fifo-tables");
    let d = dir.display().to_string();
    let built = awari_within(
        &["tables", "build", "--seeds", "6", "--dir", &d],
        60 * SECOND,
    );
    assert!(built.is_some_and(|(ok, _)| ok));
    let layer = dir.join("oware-05.awtb");
    std::fs::remove_file(&layer).unwrap();
    let status = common::hermetic("mkfifo").arg(&layer).status().unwrap();
    assert!(status.success());
    let mut e = Engine::start();
    e.send(&format!("setoption name TablesPath value {d}"));
    e.send("isready");
    e.send("position fen 0-0-0-1-0-1-0-0-1-0-0-0-22-23-S");
    e.send("go depth 4");
    let mut lines = e.until("bestmove ", 30 * SECOND);
    if !lines.iter().any(|l| l == "readyok") {
        lines.extend(e.until("readyok", 30 * SECOND));
    }
    assert!(lines.iter().any(|l| l == "readyok"), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("oware-05.awtb") && l.contains("not a regular file")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );
    // The tables' own commands neither: probe says what is wrong, build makes the layer again.
    let fen = "0-0-0-0-0-1-0-0-1-0-0-0-23-23-S";
    let probe = awari_within(&["tables", "probe", "--dir", &d, "--fen", fen], 10 * SECOND);
    let (_, text) = probe.expect("tables probe ends");
    assert!(text.contains("not a regular file"), "{text}");
    let build = awari_within(
        &["tables", "build", "--seeds", "6", "--dir", &d],
        60 * SECOND,
    );
    let (ok, text) = build.expect("tables build ends");
    assert!(ok && text.contains("1 layers built"), "{text}");
    assert!(std::fs::metadata(&layer).unwrap().is_file());
}

#[test]
fn a_tables_path_that_is_no_readable_directory_is_said_once() {
    // It was said once per layer the engine looked for: 32 identical warnings.
    let dir = common::scratch("pipes", "tables-not-a-dir");
    let file = dir.join("plain-file");
    std::fs::write(&file, "not tables").unwrap();
    let mut e = Engine::start();
    e.send(&format!(
        "setoption name TablesPath value {}",
        file.display()
    ));
    e.send("isready");
    e.send("position fen 0-0-0-1-0-1-0-0-1-0-0-0-22-23-S");
    e.send("go depth 2");
    e.send("d");
    // Up to the search's answer, then whatever the engine said before an `isready` after it.
    let mut lines = e.until("bestmove ", 30 * SECOND);
    lines.extend(e.up_to_readyok());
    assert!(
        lines.iter().any(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );
    let warnings: Vec<&String> = lines.iter().filter(|l| l.contains("tables")).collect();
    assert_eq!(warnings.len(), 1, "{lines:?}");
    assert!(
        warnings[0].contains("not a readable directory") && warnings[0].contains("without tables"),
        "{warnings:?}"
    );
}

#[test]
fn threads_the_system_refuses_are_said_and_the_search_goes_on() {
    // Under a limit of 8 processes for its user, `Threads 64` made the scoped spawn panic: the
    // worker died and no `bestmove` came again. Needs root (to run the engine as `nobody`
    // under the limit: root ignores RLIMIT_NPROC), `setpriv` and `prlimit`.
    if let Some(why) = common::nproc_limit_unavailable() {
        common::skipped(common::Need::Root, why);
        return;
    }
    let mut child = common::as_nobody_limited(common::AWARI, 8)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let script = "setoption name Threads value 64\nposition startpos\ngo depth 6\nisready\n\
                  go depth 4\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = common::output_within(child, 20 * SECOND).expect("the engine hangs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("bestmove ").count(), 2, "{text}");
    assert!(text.contains("readyok"), "{text}");
    assert!(
        text.contains("info string warning: Threads 64: ") && text.contains("could not be started"),
        "{text}"
    );
}

/// The engine's resident memory now, in KiB (Linux).
fn resident_kib(e: &Engine) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", e.id())).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

#[test]
#[cfg(target_os = "linux")]
fn hash_changes_and_benches_give_their_memory_back() {
    // Tables of megabytes placed in the allocator's arenas stay there: one long run of `Hash`
    // changes and `bench` grew an engine from 0.48 to 6.8 GiB that way. Each table must be a
    // mapping of its own, unmapped when it goes.
    let mut e = Engine::start();
    e.send("isready");
    e.expect("readyok", 5 * SECOND);
    let baseline = resident_kib(&e);
    for i in 0..150 {
        let mb = if i % 3 == 0 { 128 } else { 16 + i % 50 };
        e.send(&format!("setoption name Hash value {mb}"));
        e.send("bench 8");
    }
    e.send("setoption name Hash value 16");
    e.send("position startpos");
    e.send("go depth 1");
    e.expect("bestmove", 120 * SECOND);
    e.send("isready");
    e.expect("readyok", 5 * SECOND);
    let after = resident_kib(&e);
    // The same 16 MiB table as at the start; 48 MiB of slack for the rest.
    assert!(
        after <= baseline + 48 * 1024,
        "resident {after} KiB after the run, {baseline} KiB at the start"
    );
}

/// A field of `/proc/meminfo`, in MiB.
fn meminfo_mib(field: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix(field))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib / 1024)
}

/// The `Hash` option's maximum, in MiB.
const HASH_MAX: u64 = 32_768;

/// The engine, shown a `/proc/meminfo` of its own that says `mib` MiB are available (the
/// machine's, with that one field changed), bound over the real one in a mount namespace of
/// its own; or why this machine cannot do that (it needs util-linux's `unshare`, and root or
/// user namespaces). The file is written in `dir`.
#[cfg(target_os = "linux")]
fn engine_seeing_available(dir: &std::path::Path, mib: u64) -> Result<Engine, String> {
    let real =
        std::fs::read_to_string("/proc/meminfo").map_err(|e| format!("/proc/meminfo: {e}"))?;
    let shown: String = real
        .lines()
        .map(|l| {
            if l.starts_with("MemAvailable:") {
                format!("MemAvailable: {} kB\n", mib * 1024)
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let file = dir.join("meminfo");
    std::fs::write(&file, &shown).unwrap();
    // `$0` the file, then the program and its arguments.
    let bind = r#"mount --bind "$0" /proc/meminfo && exec "$@""#;
    let mut refusals = Vec::new();
    // Root needs no user namespace; anyone else needs one to mount.
    for namespaces in [&["--mount"][..], &["--user", "--map-root-user", "--mount"]] {
        let wrapped = |program: &[&str]| {
            let mut command = common::hermetic("unshare");
            command
                .args(namespaces)
                .args(["sh", "-c", bind])
                .arg(&file)
                .args(program);
            command
        };
        let seen = wrapped(&["cat", "/proc/meminfo"])
            .output()
            .map_err(|e| format!("util-linux's unshare does not run: {e}"))?;
        if seen.status.success() && seen.stdout == shown.as_bytes() {
            return Ok(Engine::spawn(wrapped(&[common::AWARI])));
        }
        refusals.push(format!(
            "unshare {}: {}",
            namespaces.join(" "),
            String::from_utf8_lossy(&seen.stderr).trim()
        ));
    }
    Err(format!(
        "no mount namespace could show the engine a /proc/meminfo of its own ({})",
        refusals.join("; ")
    ))
}

#[test]
#[cfg(target_os = "linux")]
fn a_hash_above_the_memory_available_is_refused_before_it_is_taken() {
    // A mapping the system grants but cannot back got the engine killed when its pages were
    // touched. The size asked here is above the memory available and also above all the
    // memory there is (so that an engine without the check fails to allocate rather than
    // being killed, on a machine that is not shared): the refusal must name the memory
    // available.
    let (Some(available), Some(total), Some(swap)) = (
        meminfo_mib("MemAvailable:"),
        meminfo_mib("MemTotal:"),
        meminfo_mib("SwapTotal:"),
    ) else {
        common::skipped(
            common::Need::Linux,
            "no /proc/meminfo, where the engine reads the memory available",
        );
        return;
    };
    let dir = common::scratch("pipes", "meminfo");
    let ask = (available + 1024).max(total + swap + 1024);
    let (mut e, ask, said) = if ask <= HASH_MAX {
        (Engine::start(), ask, "")
    } else {
        // No size the option takes is above this machine's memory: the engine is told that
        // 1 GiB is available and asked for 2 GiB (which an engine without the check would
        // take, from a machine that has them).
        match engine_seeing_available(&dir, 1024) {
            Ok(e) => (e, 2048, " (1024 MiB)"),
            Err(why) => {
                common::skipped(
                    common::Need::Root,
                    format!(
                    "{total} MiB of memory and {swap} MiB of swap, more than the Hash option's \
                     maximum ({HASH_MAX} MiB), and {why}"
                ),
                );
                return;
            }
        }
    };
    e.send(&format!("setoption name Hash value {ask}"));
    let (error, _) = e.expect(&format!("info string error: Hash {ask}"), 30 * SECOND);
    assert!(
        error.contains(&format!("more than the memory available{said}"))
            && error.contains("keeping 16 MiB"),
        "{error}"
    );
    e.send("position startpos");
    e.send("go depth 4");
    e.expect("bestmove ", 30 * SECOND);
}

#[test]
fn a_move_that_wins_at_once_by_repetition_is_played_at_depth_1_with_no_ponder_move() {
    // The positions played before the root count: each of these games has one move that
    // repeats a position seen since the last capture, which ends the game in the mover's
    // favour. It is found at depth 1 with a mate score, and no ponder move follows it (the
    // game is over: a GUI that replays the ponder move stalls on it).
    let positions = common::repetition_wins();
    assert!(positions.len() >= 25, "{} positions", positions.len());
    let mut e = Engine::start();
    for (position, winning) in &positions {
        e.send(&format!("position fen {position}"));
        e.send("go depth 1");
        let (info, _) = e.expect("info depth 1 ", 5 * SECOND);
        assert!(info.contains(" score mate 1 "), "{position}: {info}");
        assert!(
            info.ends_with(&format!(" pv {winning}")),
            "{position}: {info}"
        );
        let (best, _) = e.expect("bestmove", 5 * SECOND);
        assert_eq!(best, format!("bestmove {winning}"), "{position}");
        // Deeper, the same: the game ends there.
        e.send("go depth 6");
        let (best, _) = e.expect("bestmove", 5 * SECOND);
        assert_eq!(best, format!("bestmove {winning}"), "{position}");
    }
}

#[test]
fn threads_search_together_and_answer_once() {
    let mut e = Engine::start();
    let fast = e.at_once();
    e.send("setoption name Threads value 3");
    e.send("setoption name Threads value 0");
    e.expect(
        "info string error: option Threads: '0' is not an integer from 1 to 256",
        5 * SECOND,
    );
    e.send("position startpos moves FfEa");
    e.send("go depth 14");
    e.expect("bestmove ", 60 * SECOND);
    // One answer per go: nothing follows the bestmove.
    assert_eq!(e.up_to_readyok(), ["readyok"]);
    // stop and isready answered at once, as with one thread.
    e.send("go infinite");
    e.expect("info depth 4 ", 10 * SECOND);
    e.send("isready");
    let (_, took) = e.expect("readyok", 5 * SECOND);
    assert!(took < fast, "isready took {took:?}");
    e.send("stop");
    let (best, took) = e.expect("bestmove ", 5 * SECOND);
    assert!(took < fast, "stop took {took:?}");
    assert_ne!(best, "bestmove 0000");
    e.send("go depth 8");
    e.expect("bestmove ", 30 * SECOND);
    e.send("go infinite");
    e.expect("info depth 1 ", 10 * SECOND);
    e.send("quit");
    let (status, took) = e.exit(5 * SECOND);
    assert!(status.success(), "{status}");
    assert!(took < fast, "quit took {took:?}");
}

#[test]
fn the_opening_book_answers_what_it_knows_and_only_that() {
    use awari::search::book::Book;
    let book = Book::shipped(Variant::Oware).expect("a shipped oware book");
    let best = book.moves(&Board::start(Variant::Oware)).unwrap()[0].mv;
    let mut e = Engine::start();
    let slack = e.slack();
    e.send("setoption name OwnBook value true");
    e.send("setoption name BookMargin value 0");
    e.send("position startpos");
    e.send("go movetime 5000");
    let (line, _) = e.expect("info string book: ", 5 * SECOND);
    assert!(
        line.starts_with(&format!("info string book: {best} ")),
        "{line}"
    );
    let (answer, took) = e.expect("bestmove ", 5 * SECOND);
    assert_eq!(answer, format!("bestmove {best}"));
    assert!(took < SECOND + slack, "a book move took {took:?}");
    // Analysis is never answered from the book.
    e.send("go infinite");
    e.expect("info depth 1 ", 5 * SECOND);
    e.send("stop");
    e.expect("bestmove ", 5 * SECOND);
    // Beyond the book, the search: a line of each position's last move (rarely a main line)
    // to the first position the book does not hold.
    let mut game = Game::new(Board::start(Variant::Oware));
    let mut line = String::new();
    while book.moves(game.board()).is_some() {
        let m = game.legal_moves().last().expect("a move");
        game.play(m).unwrap();
        line.push_str(&m.to_string());
    }
    assert!(
        line.len() >= 4,
        "the book holds every position to 3 plies: {line}"
    );
    e.send(&format!("position startpos moves {line}"));
    e.send("go depth 3");
    e.expect("info depth 3 ", 5 * SECOND);
    e.expect("bestmove ", 5 * SECOND);
    // OwnBook false: the search, in the book's positions too.
    e.send("setoption name OwnBook value false");
    e.send("position startpos");
    e.send("go depth 3");
    let mut lines = Vec::new();
    loop {
        let (line, _) = e.expect("", 5 * SECOND);
        if line.starts_with("bestmove") {
            break;
        }
        lines.push(line);
    }
    assert!(lines.iter().all(|l| !l.contains("book")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "{lines:?}"
    );
    e.send("setoption name BookMargin value -1");
    e.expect("info string error: option BookMargin", 5 * SECOND);
}

#[test]
fn a_full_game_against_itself_in_every_variant() {
    for variant in Variant::ALL {
        let mut e = Engine::start();
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.send("ucinewgame");
        let mut game = Game::new(Board::start(variant));
        let mut moves = String::new();
        while game.outcome().is_none() && game.moves().len() < 1000 {
            e.send(&format!("position startpos moves {moves}"));
            e.send("go depth 4");
            let (line, _) = e.expect("bestmove ", 10 * SECOND);
            let text = line.split_whitespace().nth(1).unwrap().to_string();
            let m = parse_move_list(&text).unwrap();
            assert_eq!(m.len(), 1, "{line}");
            game.play(m[0])
                .unwrap_or_else(|err| panic!("{variant}: {text} after {moves}: {err}"));
            moves.push_str(&text);
        }
        assert!(
            game.outcome().is_some(),
            "{variant}: no end in 1000 plies: {moves}"
        );
        e.send(&format!("position startpos moves {moves}"));
        e.send("go depth 4");
        assert_eq!(e.expect("bestmove ", SECOND).0, "bestmove 0000");
        e.send("quit");
        assert!(e.exit(5 * SECOND).0.success());
    }
}
