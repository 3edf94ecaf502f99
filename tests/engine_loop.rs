//! The protocol loop run in-process: scripted input, captured output. Each script ends at the
//! end of its input, which lets a bounded search finish and stops an unbounded one.

use crate::common;
use awari::rng::Rng;
use awari::rules::{format_move_list, Board, Game, Move, Variant};
use awari::uci::options::OPTIONS;
use awari::uci::run_with_tables;
use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};

#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The engine loop, with the tests' empty data directory in place of the user's: no test reads
/// the user's tables.
fn run(input: impl std::io::BufRead, output: Shared) -> std::io::Result<()> {
    let tables = common::home().join("data/awari/tables");
    run_with_tables(input, output, Some(tables))
}

/// Runs a script; returns the output lines.
fn session(script: &str) -> Vec<String> {
    let out = Shared::default();
    run(Cursor::new(script.as_bytes().to_vec()), out.clone()).unwrap();
    let bytes = out.0.lock().unwrap().clone();
    String::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn count(lines: &[String], prefix: &str) -> usize {
    lines.iter().filter(|l| l.starts_with(prefix)).count()
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect()
}

/// The `Position:` line of `d`.
fn shown_position(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("Position: ").map(str::to_string))
        .collect()
}

fn bestmoves(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove ").map(str::to_string))
        .collect()
}

#[test]
fn handshake_lists_every_option_once() {
    let lines = session("uci\nisready\n");
    assert!(lines[0].starts_with("id name awari"));
    assert!(lines[1].starts_with("id author "));
    assert_eq!(count(&lines, "option name "), OPTIONS.len());
    for spec in OPTIONS {
        let prefix = format!("option name {} type", spec.name);
        assert_eq!(count(&lines, &prefix), 1, "{}", spec.name);
    }
    let uciok = lines.iter().position(|l| l == "uciok").unwrap();
    assert_eq!(lines[uciok + 1], "readyok");
}

#[test]
fn positions_are_set_whole_or_not_at_all() {
    // (command, error expected, position `d` shows afterwards)
    let after_ffea = "6-5-5-5-0-1-0-7-7-6-5-1-0-0-S";
    let rows = [
        ("position startpos moves FfEa", false, after_ffea),
        ("position startpos moves F f E a", false, after_ffea),
        ("position startpos moves FfEaX", true, after_ffea),
        ("position startpos moves FfEaE", true, after_ffea), // E is empty
        ("position startpos moves FfEab", true, after_ffea), // North's house, South to move
        (
            "position fen 4-4-4-4-4-4-4-4-4-4-4-4-0-0-X",
            true,
            after_ffea,
        ),
        (
            "position fen 4-4-4-4-4-4-4-4-4-4-4-256-0-0-S",
            true,
            after_ffea,
        ),
        ("position fen 4-4-4-4-4", true, after_ffea),
        (
            "position startpos moves",
            false,
            "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
        ),
        (
            "position fen 0-0-0-0-0-3-0-0-0-0-1-0-25-19-N moves a",
            true,
            "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
        ),
        (
            "position fen 0-0-0-0-0-3-0-0-0-0-1-0-25-19-N",
            false,
            "0-0-0-0-0-3-0-0-0-0-1-0-25-19-N",
        ),
    ];
    let mut script = String::new();
    for (command, _, _) in rows {
        script += &format!("{command}\nd\n");
    }
    let lines = session(&script);
    let shown = shown_position(&lines);
    assert_eq!(shown.len(), rows.len());
    let mut error_count = 0;
    for ((command, error, position), shown) in rows.iter().zip(&shown) {
        assert_eq!(shown, position, "after {command}");
        error_count += usize::from(*error);
    }
    assert_eq!(errors(&lines).len(), error_count, "{lines:#?}");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("Game over: South wins 28-20")));
}

#[test]
fn every_go_gets_one_legal_bestmove() {
    let script = "position startpos moves FfEa\ngo depth 6\ngo depth 30\ngo nodes 5000\n\
                  go movetime 50\ngo wtime 500 btime 500\ngo infinite\n";
    let lines = session(script);
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 6, "{lines:#?}");
    let game = {
        let mut g = Game::new(Board::start(Variant::Oware));
        g.play_text("FfEa").unwrap();
        g
    };
    for b in &best {
        let m: Move = b.split_whitespace().next().unwrap().parse().unwrap();
        assert!(game.legal_moves().contains(m), "{b}");
    }
    // Each `go` stopped the one before it; a search alone runs to its depth. Its info lines
    // carry the fields a GUI parses, with the pv concatenated.
    let lines = session("position startpos moves FfEa\ngo depth 6\n");
    assert_eq!(bestmoves(&lines).len(), 1);
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth 6 ") && !l.contains("bound"))
        .expect("a depth 6 line");
    for field in [
        " seldepth ",
        " score cp ",
        " nodes ",
        " nps ",
        " time ",
        " hashfull ",
        " pv ",
    ] {
        assert!(info.contains(field), "{info}");
    }
    let pv = info.split(" pv ").nth(1).unwrap();
    assert!(pv.len() >= 6 && !pv.contains(' '), "{info}");
    assert!(errors(&lines).is_empty(), "{lines:#?}");
}

#[test]
fn finished_game_answers_0000_with_the_reason() {
    let lines = session("position fen 0-0-0-0-0-3-0-0-0-0-1-0-25-19-N\ngo depth 5\n");
    assert_eq!(bestmoves(&lines), ["0000"]);
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info string game over: South wins 28-20")));
}

#[test]
fn perft_through_the_protocol_in_every_variant() {
    // Depth 4 counts of doc/rules.md.
    let rows = [
        ("oware", 1014),
        ("awari", 1014),
        ("ahl", 873),
        ("kalah", 942),
        ("ayoayo", 802),
    ];
    for (variant, total) in rows {
        let lines = session(&format!(
            "setoption name UCI_Variant value {variant}\nposition startpos\ngo perft 4\n"
        ));
        assert!(
            lines.contains(&format!("total {total}")),
            "{variant}: {lines:#?}"
        );
    }
    // Seeds changes the start: Kalah(6,6) has 6 moves and 6 seeds each.
    let lines =
        session("setoption name UCI_Variant value kalah\nsetoption name Seeds value 6\nd\n");
    assert_eq!(shown_position(&lines), ["6-6-6-6-6-6-6-6-6-6-6-6-0-0-S"]);
}

#[test]
fn bad_options_and_commands_are_reported_and_change_nothing() {
    let script = "setoption name Nonsense value 3\nsetoption name Hash value 0\n\
                  setoption name Hash value lots\nsetoption name UCI_Variant value chess\n\
                  setoption name Hash\nsetoption name OwnBook value true\n\
                  setoption name Clear Hash\nfrobnicate\ngo depth sideways\nd\nisready\n";
    let lines = session(script);
    let errs = errors(&lines);
    assert_eq!(errs.len(), 7, "{lines:#?}");
    assert!(errs[0].contains("no option named 'Nonsense'"));
    assert!(errs[1].contains("from 1 to 32768"));
    assert!(errs[3].contains("one of oware, awari, ahl, kalah, ayoayo"));
    assert!(errs[5].contains("unknown command"));
    assert!(errs[6].contains("'depth' needs a number"));
    assert_eq!(shown_position(&lines), ["4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"]);
    assert!(lines.iter().any(|l| l == "Variant: oware"));
    assert_eq!(lines.last().unwrap(), "readyok");
}

#[test]
fn robust_input() {
    // Blank lines, CRLF, tabs, a stop with no search, a line of megabytes, bytes that are not
    // UTF-8: every one is answered or ignored, and the engine still answers afterwards.
    let mut script = Vec::new();
    script.extend_from_slice(b"\n\r\n\t\nstop\nuci\r\nisready\r\n");
    script.extend_from_slice(b"position startpos moves ");
    script.extend(std::iter::repeat_n(b'A', 3 << 20));
    script.extend_from_slice(b"\n\xff\xfe\nposition\tstartpos\tmoves\tF f\r\nd\nisready\n");
    let out = Shared::default();
    run(Cursor::new(script), out.clone()).unwrap();
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    assert_eq!(count(&lines, "readyok"), 2);
    assert_eq!(count(&lines, "uciok"), 1);
    assert_eq!(errors(&lines).len(), 2, "{:#?}", errors(&lines));
    assert_eq!(shown_position(&lines), ["5-5-5-5-4-0-5-5-5-5-4-0-0-0-S"]);
    assert!(bestmoves(&lines).is_empty());
}

#[test]
fn a_line_over_the_limit_is_refused_whole() {
    let mut script = b"position startpos moves ".to_vec();
    script.extend(std::iter::repeat_n(b'A', awari::uci::MAX_LINE));
    script.extend_from_slice(b"\nisready\n");
    let out = Shared::default();
    run(Cursor::new(script), out.clone()).unwrap();
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    assert!(text.contains("info string error: line of"), "{text}");
    assert!(text.ends_with("readyok\n"));
}

#[test]
fn ten_thousand_move_lists() {
    // A real game to its end, then padded to 10,000 moves: refused whole, quickly.
    let mut rng = Rng::new(7);
    let mut game = Game::new(Board::start(Variant::Oware));
    while let Some(m) = {
        let moves: Vec<Move> = game.legal_moves().collect();
        (!moves.is_empty()).then(|| moves[rng.below(moves.len() as u64) as usize])
    } {
        game.play(m).unwrap();
    }
    let mut moves = game.moves().to_vec();
    let played = moves.len();
    moves.resize(10_000, Move::from_char('A').unwrap());
    let concatenated = format_move_list(&moves);
    let spaced: String = concatenated.chars().map(|c| format!("{c} ")).collect();
    let script = format!(
        "position startpos moves {}\nd\nposition startpos moves {concatenated}\nd\n\
         position startpos moves {spaced}\nd\n",
        format_move_list(&moves[..played])
    );
    let lines = session(&script);
    let shown = shown_position(&lines);
    assert_eq!(shown.len(), 3);
    assert!(shown.iter().all(|p| *p == game.board().to_string()));
    let errs = errors(&lines);
    assert_eq!(errs.len(), 2);
    assert!(
        errs[0].contains(&format!("move {}", played + 1)),
        "{}",
        errs[0]
    );
}

#[test]
fn eval_and_bench_print_their_figures() {
    let lines = session("position startpos moves FfEa\neval\nbench 4\n");
    let total = lines.iter().find(|l| l.starts_with("total ")).unwrap();
    // Row -4 and tempo 1 (both sides have five houses with seeds, nothing exposed).
    let w = awari::search::eval::Weights::OWARE;
    let expected = (-4 * w.row + w.tempo).to_string();
    assert_eq!(
        total.split_whitespace().last(),
        Some(&*expected),
        "{lines:#?}"
    );
    assert!(lines
        .iter()
        .any(|l| l.starts_with("mobility (own houses with seeds - opponent's)")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("row (own row - opponent's row)")));
    let bench = lines
        .iter()
        .find(|l| l.starts_with("bench nodes "))
        .unwrap();
    let nodes: u64 = bench.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert!(nodes > 0);
    // The node counts are a signature: the same on every run (times differ).
    let nodes_of = |ls: &[String]| -> Vec<String> {
        ls.iter()
            .filter(|l| l.starts_with("bench "))
            .map(|l| l.split(" time ").next().unwrap().to_string())
            .collect()
    };
    let again = session("bench 4\n");
    assert_eq!(nodes_of(&again), nodes_of(&lines));
    assert_eq!(
        nodes_of(&again).len(),
        awari::search::bench::POSITIONS.len() + 1
    );
}

#[test]
fn the_variant_option_changes_the_rules() {
    let lines = session(
        "setoption name UCI_Variant value ahl\nposition startpos moves D\nd\n\
         setoption name UCI_Variant value kalah\nd\n",
    );
    // Ahl: D's 3 seeds end in South's store: a bonus move, shown with `+`.
    assert_eq!(
        shown_position(&lines),
        [
            "3-3-3-0-4-4-3-3-3-3-3-3-1-0-S+",
            "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"
        ]
    );
}

#[test]
fn extreme_weights_still_give_sane_scores() {
    let lines = session(
        "setoption name EvalA2 value 10000\nsetoption name EvalRow value -10000\n\
         position startpos moves FfEaDb\ngo depth 8\n",
    );
    assert_eq!(bestmoves(&lines).len(), 1);
    assert!(errors(&lines).is_empty(), "{lines:#?}");
    // No evaluation may pose as a finished game.
    assert!(
        lines.iter().all(|l| !l.contains("score mate")),
        "{lines:#?}"
    );
}

#[test]
fn classic_opponents_answer_through_the_protocol() {
    for (name, expected) in [
        ("greedy", "greedy plays"),
        ("basic", "basic plays"),
        ("evolved", "evolved plays"),
    ] {
        let lines = session(&format!(
            "setoption name Opponent value {name}\nposition startpos moves FfEa\ngo depth 3\n\
             position fen 0-0-0-0-0-3-0-0-0-0-1-0-25-19-N\ngo\n"
        ));
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("info string {expected}"))),
            "{lines:#?}"
        );
        let best = bestmoves(&lines);
        assert_eq!(best.len(), 2, "{name}");
        assert_eq!(best[1], "0000", "{name}: a finished game");
    }
    // Options of the classic opponents: bad values are refused.
    let lines = session(
        "setoption name EvolvedWeights value /nonexistent/w.txt\nsetoption name Randomness value -1\n",
    );
    assert_eq!(errors(&lines).len(), 2, "{lines:#?}");
}

#[test]
fn basic_learns_from_games_it_does_not_win() {
    let dir = common::scratch("learn", "basic");
    let file = dir.join("memory.txt");
    // basic plays North (it is asked to move as North), and the game ends with North losing
    // 26-22 (South cannot feed North): the end it sees is remembered once, though it comes twice.
    let lost = "FfBeBcDaAbCcDbAcCaDcBeAbBcCdDfAeAfDbCdBcAaBbEeAaDfCaDdEfBbAcAfEaDbEcAeAdBeCfFf";
    let script = format!(
        "setoption name UCI_Variant value oware\nsetoption name Opponent value basic\n\
         setoption name LearnFile value {}\nposition startpos moves F\ngo depth 1\n\
         position startpos moves {lost}\nposition startpos moves {lost}\n",
        file.display()
    );
    let lines = session(&script);
    assert!(errors(&lines).is_empty(), "{lines:#?}");
    let text = std::fs::read_to_string(&file).unwrap();
    let games: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    // F f B e B c D a: columns 5 5 1 4 1 2 3 0 (A/a = 0).
    assert_eq!(games, ["55141230"]);
    // A corrupt file is no memory, with a warning, never a crash.
    std::fs::write(&file, "not a memory\n").unwrap();
    let lines = session(&format!(
        "setoption name Opponent value basic\nsetoption name LearnFile value {}\nisready\n",
        file.display()
    ));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("warning: LearnFile unusable")),
        "{lines:#?}"
    );
    assert_eq!(lines.last().unwrap(), "readyok");
}

/// Sessions of random lines made of the protocol's words and of the values a user gets wrong:
/// each ends (the loop returns `Ok`), and every `isready` in it is answered, whatever came
/// before it. A panic, a lost `readyok` or a hang ([`hang_limit`]) fails the test.
#[test]
fn random_lines_leave_the_engine_answering() {
    // Values put where the line wants a number, a word or a path.
    const VALUES: [&str; 17] = [
        "0",
        "1",
        "-1",
        "3",
        "40",
        "+5",
        "18446744073709551616",
        "4294967296",
        "1e3",
        "0x10",
        "x",
        "",
        "é",
        "true",
        "/nonexistent/x",
        "/dev/null",
        "/",
    ];
    const POSITIONS: [&str; 8] = [
        "startpos",
        "fen 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
        "fen 0-0-0-0-0-0-0-0-0-0-0-0-24-24-S",
        "fen 1-2-0-0-0-3-0-3-2-0-0-23-8-6-S",
        "fen 255-255-0-0-0-0-0-0-0-0-0-0-0-0-S",
        "fen 4-4-4-4-4-4-4-4-4-4-4-4-0-0",
        "fen 3-3-3-3-3-3-3-3-3-3-3-3-0-0-S-b",
        "",
    ];
    const WORDS: [&str; 19] = [
        "A", "B", "C", "D", "E", "F", "a", "b", "c", "d", "e", "f", "AA", "Z", "0000", "--", "A1",
        "moves", "é",
    ];
    // `go`'s keywords, each with the most it may ask here: the script's last search runs to
    // its bound.
    const GO: [(&str, u64); 12] = [
        ("depth", 6),
        ("nodes", 20_000),
        ("movetime", 20),
        ("wtime", 300),
        ("btime", 300),
        ("winc", 10),
        ("movestogo", 3),
        ("perft", 4),
        ("infinite", 0),
        ("ponder", 0),
        ("mate", 3),
        ("searchmoves", 0),
    ];
    const OPTIONS: [&str; 14] = [
        "UCI_Variant",
        "Seeds",
        "Hash",
        "Threads",
        "MultiPV",
        "Clear Hash",
        "MoveOverhead",
        "Ponder",
        "Opponent",
        "EvolvedWeights",
        "TablesPath",
        "UseNetwork",
        "EvalFile",
        "Futility",
    ];
    const BARE: [&str; 11] = [
        "stop",
        "isready",
        "ucinewgame",
        "ponderhit",
        "d",
        "eval",
        "uci",
        "debug on",
        "register",
        "stop now",
        "go",
    ];
    fn pick(n: usize, rng: &mut Rng) -> usize {
        rng.below(n as u64) as usize
    }
    let mut rng = Rng::new(45);
    let mut sessions = Vec::new();
    for _ in 0..200 {
        let mut script = String::new();
        for _ in 0..1 + pick(25, &mut rng) {
            let line = match pick(6, &mut rng) {
                0 => {
                    let name = OPTIONS[pick(OPTIONS.len(), &mut rng)];
                    let value = match name {
                        "UCI_Variant" => {
                            ["oware", "awari", "ahl", "kalah", "ayoayo", "x"][pick(6, &mut rng)]
                        }
                        "Threads" => ["1", "2", "0", "257"][pick(4, &mut rng)],
                        "Hash" => ["1", "2", "0", "x"][pick(4, &mut rng)],
                        _ => VALUES[pick(VALUES.len(), &mut rng)],
                    };
                    format!("setoption name {name} value {value}")
                }
                1 | 2 => {
                    // Half the lists take turns, South's letter then North's, as a game does
                    // from the start (mostly legal there); the others are any words.
                    let turns = pick(2, &mut rng) == 0;
                    let moves: Vec<&str> = (0..pick(12, &mut rng))
                        .map(|i| match turns {
                            true => WORDS[pick(6, &mut rng) + 6 * (i % 2)],
                            false => WORDS[pick(WORDS.len(), &mut rng)],
                        })
                        .collect();
                    let position = POSITIONS[pick(POSITIONS.len(), &mut rng)];
                    format!("position {position} moves {}", moves.join(" "))
                }
                3 | 4 => {
                    let mut line = "go".to_string();
                    for _ in 0..pick(4, &mut rng) {
                        let (word, most) = GO[pick(GO.len(), &mut rng)];
                        line += &format!(" {word}");
                        if most > 0 && pick(5, &mut rng) > 0 {
                            line += &format!(" {}", rng.below(most + 1));
                        } else if most > 0 || word == "searchmoves" {
                            line += &format!(" {}", WORDS[pick(WORDS.len(), &mut rng)]);
                        }
                    }
                    line
                }
                _ => BARE[pick(BARE.len(), &mut rng)].to_string(),
            };
            script += &line;
            script.push('\n');
        }
        script += "isready\n";
        sessions.push(script);
    }
    let limit = hang_limit();
    for (n, script) in sessions.iter().enumerate() {
        let lines =
            session_within(script, limit).unwrap_or_else(|e| panic!("session {n}: {e}:\n{script}"));
        let asked = script.lines().filter(|l| *l == "isready").count();
        assert_eq!(count(&lines, "readyok"), asked, "session {n}:\n{script}");
    }
}

/// Only the opponent's clock: the side to move has none left (0, as Stockfish reads it), so the
/// search ends by itself, at once, and the end of the input lets it finish. (It once searched
/// with no budget, and the loop waited for it for ever.)
#[test]
fn a_clock_for_the_opponent_alone_leaves_none_for_the_side_to_move() {
    let limit = hang_limit();
    for script in [
        "position startpos\ngo btime 5\n",
        "position startpos moves F\ngo wtime 300 winc 10\n",
        "position startpos\ngo btime 5000 binc 100 movestogo 3\n",
    ] {
        let lines = session_within(script, limit).unwrap_or_else(|e| panic!("{script:?}: {e}"));
        assert_eq!(bestmoves(&lines).len(), 1, "{script:?}: {lines:#?}");
        assert!(errors(&lines).is_empty(), "{script:?}: {lines:#?}");
    }
}

/// [`session`] on a thread of its own, given `limit` to end: why not, if it did not.
fn session_within(script: &str, limit: std::time::Duration) -> Result<Vec<String>, String> {
    use std::sync::mpsc::RecvTimeoutError;
    let (tx, rx) = std::sync::mpsc::channel();
    let script = script.to_string();
    std::thread::spawn(move || {
        let _ = tx.send(session(&script));
    });
    rx.recv_timeout(limit).map_err(|e| match e {
        RecvTimeoutError::Timeout => format!("still running after {limit:?}"),
        RecvTimeoutError::Disconnected => "the session panicked (see above)".to_string(),
    })
}

/// How long a session of these tests may take before it counts as hung: a minute, plus two
/// hundred times what a depth-6 search takes on this machine now.
fn hang_limit() -> std::time::Duration {
    let start = std::time::Instant::now();
    assert_eq!(
        bestmoves(&session("position startpos\ngo depth 6\n")).len(),
        1
    );
    std::time::Duration::from_secs(60) + start.elapsed() * 200
}
