//! The protocol parser, one table of good lines and one of bad lines per command.

use awari::search::time::Limits;
use awari::uci::protocol::{parse, Command, Go, Parsed, Start};

fn go(f: impl FnOnce(&mut Go)) -> Command<'static> {
    let mut g = Go::default();
    f(&mut g);
    Command::Go(g)
}

#[test]
fn good_lines() {
    let rows: Vec<(&str, Command)> = vec![
        ("", Command::Empty),
        (" \t \r", Command::Empty),
        ("uci", Command::Uci),
        ("uci\r", Command::Uci),
        ("\tisready  ", Command::IsReady),
        ("ucinewgame", Command::UciNewGame),
        ("stop", Command::Stop),
        ("ponderhit", Command::PonderHit),
        ("quit", Command::Quit),
        ("d", Command::Display),
        ("eval", Command::Eval),
        ("help", Command::Help),
        ("debug on", Command::Debug(true)),
        ("debug off", Command::Debug(false)),
        ("register later", Command::Register),
        ("bench", Command::Bench(None)),
        ("bench 9", Command::Bench(Some(9))),
        (
            "setoption name Hash value 64",
            Command::SetOption {
                name: "Hash",
                value: Some("64"),
            },
        ),
        (
            "setoption name Clear Hash",
            Command::SetOption {
                name: "Clear Hash",
                value: None,
            },
        ),
        (
            "setoption\tname  UCI_Variant\tvalue kalah\r",
            Command::SetOption {
                name: "UCI_Variant",
                value: Some("kalah"),
            },
        ),
        (
            "setoption name Learn File value /tmp/a b.txt",
            Command::SetOption {
                name: "Learn File",
                value: Some("/tmp/a b.txt"),
            },
        ),
        (
            "setoption name X value",
            Command::SetOption {
                name: "X",
                value: Some(""),
            },
        ),
        (
            "position startpos",
            Command::Position {
                start: Start::StartPos,
                moves: "",
            },
        ),
        (
            "position startpos moves FfEa",
            Command::Position {
                start: Start::StartPos,
                moves: "FfEa",
            },
        ),
        (
            "position startpos moves F f  E a\r",
            Command::Position {
                start: Start::StartPos,
                moves: "F f  E a",
            },
        ),
        (
            "position startpos moves",
            Command::Position {
                start: Start::StartPos,
                moves: "",
            },
        ),
        (
            "position fen 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S moves A",
            Command::Position {
                start: Start::Fen("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"),
                moves: "A",
            },
        ),
        (
            // Notation is checked later, against the rules.
            "position fen nonsense",
            Command::Position {
                start: Start::Fen("nonsense"),
                moves: "",
            },
        ),
        ("go", go(|_| {})),
        ("go infinite", go(|g| g.limits.infinite = true)),
        (
            "go depth 10 movetime 1000",
            go(|g| {
                g.limits.depth = Some(10);
                g.limits.movetime = Some(1000);
            }),
        ),
        (
            "go movetime 1000 depth 10",
            go(|g| {
                g.limits.depth = Some(10);
                g.limits.movetime = Some(1000);
            }),
        ),
        (
            "go btime 300 winc 5 movestogo 7 wtime -20 binc 0 ponder nodes 99",
            go(|g| {
                g.limits = Limits {
                    time: [Some(-20), Some(300)],
                    inc: [Some(5), Some(0)],
                    movestogo: Some(7),
                    nodes: Some(99),
                    ponder: true,
                    ..Limits::default()
                }
            }),
        ),
        ("go depth 3 depth 5", go(|g| g.limits.depth = Some(5))),
        ("go perft 6", go(|g| g.perft = Some(6))),
        (
            "go searchmoves A  c\tEF depth 4",
            go(|g| {
                g.searchmoves = Some("A c EF".to_string());
                g.limits.depth = Some(4);
            }),
        ),
        (
            "go infinite searchmoves X e2e4",
            go(|g| {
                g.limits.infinite = true;
                g.searchmoves = Some("X e2e4".to_string());
            }),
        ),
        (
            "go nodes 18446744073709551615",
            go(|g| g.limits.nodes = Some(u64::MAX)),
        ),
        // A clock up to 2^64-1 is taken, as the largest one that can be held.
        (
            "go wtime 18446744073709551615 binc -9223372036854775808",
            go(|g| {
                g.limits.time[0] = Some(i64::MAX);
                g.limits.inc[1] = Some(i64::MIN);
            }),
        ),
    ];
    for (line, expected) in rows {
        let parsed = Parsed {
            command: expected,
            skipped: Vec::new(),
        };
        assert_eq!(parse(line), Ok(parsed), "{line:?}");
    }
}

/// UCI: an unknown word is skipped and the rest of the line read; the skipped words are
/// returned so that the engine can say what it skipped.
#[test]
fn unknown_words_are_skipped() {
    let rows: Vec<(&str, Command, Vec<&str>)> = vec![
        ("joho debug on", Command::Debug(true), vec!["joho"]),
        (
            "hello there  isready",
            Command::IsReady,
            vec!["hello", "there"],
        ),
        ("UCI uci", Command::Uci, vec!["UCI"]),
        ("go fast", go(|_| {}), vec!["fast"]),
        // `mate` (not supported) ends the moves of `searchmoves`; a repeated one takes the last.
        (
            "go searchmoves A searchmoves B mate 3",
            go(|g| g.searchmoves = Some("B".to_string())),
            vec!["mate", "3"],
        ),
        (
            "go fast depth 5 soon",
            go(|g| g.limits.depth = Some(5)),
            vec!["fast", "soon"],
        ),
        (
            "x go movetim 100 depth 3",
            go(|g| g.limits.depth = Some(3)),
            vec!["x", "movetim", "100"],
        ),
    ];
    for (line, command, skipped) in rows {
        assert_eq!(parse(line), Ok(Parsed { command, skipped }), "{line:?}");
    }
}

#[test]
fn bad_lines() {
    // (line, command word, words the message must contain)
    let rows = [
        ("hello", "hello", "unknown command"),
        ("UCI", "UCI", "unknown command"),
        ("isready now", "isready", "takes no arguments"),
        ("quit please", "quit", "takes no arguments"),
        ("debug", "debug", "'on' or 'off'"),
        ("debug maybe", "debug", "'on' or 'off'"),
        ("bench x", "bench", "optional depth"),
        ("bench 99999999999", "bench", "optional depth"),
        ("setoption", "setoption", "expected 'name"),
        ("setoption Hash 5", "setoption", "expected 'name"),
        ("setoption name", "setoption", "name is missing"),
        ("setoption name value 5", "setoption", "name is missing"),
        ("position", "position", "'startpos' or 'fen"),
        ("position fen", "position", "'startpos' or 'fen"),
        ("position start", "position", "'startpos' or 'fen"),
        ("position startpos FfEa", "position", "expected 'moves"),
        (
            "position fen 4-4 4-4 moves A",
            "position",
            "expected 'moves",
        ),
        ("go depth", "go", "'depth' needs a number"),
        ("go depth ten", "go", "'depth' needs a number"),
        ("go depth -1", "go", "'depth' needs a number"),
        ("go depth 99999999999", "go", "'depth' needs a number"),
        (
            "go nodes 18446744073709551616",
            "go",
            "'nodes' needs a number",
        ),
        ("go movetime 1.5", "go", "'movetime' needs a number"),
        ("go wtime", "go", "'wtime' needs a number"),
        ("go wtime --5", "go", "'wtime' needs a number"),
        (
            "go wtime 18446744073709551616",
            "go",
            "'wtime' needs a number",
        ),
        (
            "go winc -9223372036854775809",
            "go",
            "'winc' needs a number",
        ),
        ("hello world", "hello", "unknown command"),
        ("joho debug", "debug", "'on' or 'off'"),
        ("go fast depth x", "go", "'depth' needs a number"),
        (
            "go searchmoves",
            "go",
            "'searchmoves' needs at least one move",
        ),
        (
            "go searchmoves depth 3",
            "go",
            "'searchmoves' needs at least one move",
        ),
    ];
    for (line, command, message) in rows {
        match parse(line) {
            Err(e) => {
                assert_eq!(e.command, command, "{line:?}");
                assert!(e.message.contains(message), "{line:?}: {e}");
            }
            Ok(c) => panic!("{line:?} parsed as {c:?}"),
        }
    }
}

#[test]
fn no_line_panics() {
    // Mutations of good lines: every prefix, and odd bytes spliced in.
    let lines = [
        "position fen 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S moves FfEa",
        "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 5 depth 7 nodes 5 ponder",
        "setoption name UCI_Variant value kalah",
        "bench 3",
    ];
    for line in lines {
        for (i, _) in line.char_indices() {
            let _ = parse(&line[..i]);
            for odd in ["\u{0}", "é", "-", " ", "9999999999999999999999"] {
                let spliced = format!("{}{odd}{}", &line[..i], &line[i..]);
                let _ = parse(&spliced);
            }
        }
    }
}
