//! The real `awari` binary's clocks through pipes: `movetime`, `wtime`/`btime` with their
//! increments and `movestogo`, and every number `go` takes, at its edges.

use crate::common::{Engine, FAST, SECOND};
use std::time::Duration;

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
