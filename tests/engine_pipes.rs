//! The real `awari` binary driven through pipes, as a GUI or a tournament manager drives it:
//! full games in every variant, answers during a deep search, `quit` and end of input
//! mid-search, pondering, threads, the opening book.

use crate::common;
use crate::common::{without_counts, Engine, FAST, SECOND};
use awari::rules::{parse_move_list, Board, Game, Variant};
use std::thread;
use std::time::Duration;

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
