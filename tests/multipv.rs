//! `MultiPV` and `go searchmoves` through the real binary over pipes, as an analysis GUI
//! drives them: several lines per iteration, best first, each with its own score and line;
//! the root moves restricted; a move that cannot be searched answered, never left hanging; and
//! with `MultiPV` 1, the output of the plain search, word for word.

use crate::common;
use crate::common::{without_counts, Engine};
use awari::rules::{parse_move_list, Board, Game, Move, Variant};
use std::collections::HashSet;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(30);

/// One `info depth` line, read.
#[derive(Debug)]
struct Info {
    depth: u32,
    multipv: Option<usize>,
    /// The score, ordered as the engine orders them: a win in fewer plies above one in more,
    /// above every `cp`; a loss in more plies above one in fewer, below every `cp`.
    rank: i64,
    bound: bool,
    pv: Vec<Move>,
}

/// The word after `key` in `line`.
fn after<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.find(|&w| w == key)?;
    words.next()
}

fn info(line: &str) -> Info {
    let number = |key: &str| -> i64 {
        after(line, key)
            .unwrap_or_else(|| panic!("no '{key}' in {line}"))
            .parse()
            .unwrap()
    };
    let rank = match after(line, "mate") {
        Some(n) => {
            let n: i64 = n.parse().unwrap();
            if n > 0 {
                1_000_000 - n
            } else {
                -1_000_000 - n
            }
        }
        None => number("cp"),
    };
    Info {
        depth: number("depth") as u32,
        multipv: after(line, "multipv").map(|k| k.parse().unwrap()),
        rank,
        bound: line.contains("bound"),
        pv: after(line, "pv").map_or(Vec::new(), |pv| parse_move_list(pv).unwrap()),
    }
}

/// The engine's lines for `setup` then `go`, up to its `bestmove`: the `info depth` lines, read,
/// and the move.
fn search(setup: &[&str], go: &str) -> (Vec<Info>, String) {
    let mut e = Engine::start();
    for line in setup {
        e.send(line);
    }
    e.send(go);
    let lines = e.until("bestmove", WAIT);
    let best = lines.last().unwrap()["bestmove ".len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let mut texts: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .collect();
    // A search stopped inside an iteration or a widened window repeats its last exact line
    // with the search's counts at its end (protocol.md): the same line but for those, not
    // another.
    if let Some((last, before)) = texts.split_last() {
        if before
            .iter()
            .any(|l| without_counts(l) == without_counts(last))
        {
            texts.pop();
        }
    }
    (texts.iter().map(|l| info(l)).collect(), best)
}

/// The position `setup` leads to, read as the engine reads it (`UCI_Variant`, `position`).
fn game_of(setup: &[&str]) -> Game {
    let mut variant = Variant::Oware;
    let mut game = Game::new(Board::start(variant));
    for line in setup {
        if let Some(v) = line.strip_prefix("setoption name UCI_Variant value ") {
            variant = v.parse().unwrap();
            game = Game::new(Board::start(variant));
        } else if let Some(rest) = line.strip_prefix("position ") {
            let (start, moves) = rest.split_once(" moves ").unwrap_or((rest, ""));
            let board = match start.strip_prefix("fen ") {
                Some(fen) => Board::from_notation(variant, fen).unwrap(),
                None => Board::start(variant),
            };
            game = Game::new(board);
            game.play_text(moves).unwrap();
        }
    }
    game
}

/// Checks the lines of a search with `multipv` lines among `searched` root moves: every
/// iteration has `min(multipv, searched)` lines numbered 1.. in order (no number with one
/// line asked for), their first moves distinct and among `searched`, scores falling, every
/// pv legal from `game`, and `bestmove` the last iteration's line 1. The last iteration may
/// have fewer lines (1.. in order) unless the search is `whole` (`go depth` alone). Returns
/// the depths seen.
fn check_lines(
    what: &str,
    game: &Game,
    infos: &[Info],
    best: &str,
    multipv: usize,
    searched: &[Move],
    whole: bool,
) -> Vec<u32> {
    let per_depth = multipv.min(searched.len());
    // A failed aspiration window's bound (one line only) is no line of its own.
    let mut depths: Vec<u32> = infos.iter().filter(|i| !i.bound).map(|i| i.depth).collect();
    depths.dedup();
    assert!(!depths.is_empty(), "{what}: no lines");
    for &depth in &depths {
        let lines: Vec<&Info> = infos
            .iter()
            .filter(|i| i.depth == depth && !i.bound)
            .collect();
        if whole || Some(&depth) != depths.last() {
            assert_eq!(lines.len(), per_depth, "{what}: depth {depth}: {lines:?}");
        } else {
            assert!((1..=per_depth).contains(&lines.len()), "{what}: {lines:?}");
        }
        let mut firsts = HashSet::new();
        for (k, line) in lines.iter().enumerate() {
            let expected = (multipv > 1).then_some(k + 1);
            assert_eq!(line.multipv, expected, "{what}: depth {depth}: {line:?}");
            let first = *line
                .pv
                .first()
                .unwrap_or_else(|| panic!("{what}: empty pv"));
            assert!(searched.contains(&first), "{what}: {first} not searched");
            assert!(firsts.insert(first), "{what}: depth {depth}: {first} twice");
            let mut after = game.clone();
            after
                .play_all(&line.pv)
                .unwrap_or_else(|e| panic!("{what}: pv {:?}: {e}", line.pv));
            if k > 0 {
                assert!(
                    lines[k - 1].rank >= line.rank,
                    "{what}: depth {depth}: line {} scores above line {k}",
                    k + 1
                );
            }
        }
    }
    let played: Move = best.parse().unwrap();
    assert!(searched.contains(&played), "{what}: bestmove {best}");
    // One line alone, stopped inside an iteration, plays a move that beat the last one's in
    // full (protocol.md); with several lines, and after a whole last iteration, line 1's.
    if whole || multipv > 1 {
        let last = infos
            .iter()
            .rfind(|i| i.multipv.unwrap_or(1) == 1 && !i.bound);
        assert_eq!(
            last.map(|i| i.pv[0]),
            Some(played),
            "{what}: bestmove is not the last line 1"
        );
    }
    depths
}

/// `MultiPV` N: N lines per iteration, best first, in every rule set, with proven results
/// (kalah's lost position: every line a `mate`) and with fewer moves than lines.
#[test]
fn each_iteration_reports_its_best_lines_best_first() {
    // (what, setup, MultiPV, depth, legal moves)
    let rows: &[(&str, &[&str], usize, u32, usize)] = &[
        ("oware start", &["position startpos"], 3, 6, 6),
        (
            "oware after FfEa",
            &["position startpos moves FfEa"],
            3,
            7,
            5,
        ),
        (
            "kalah start, extra moves",
            &[
                "setoption name UCI_Variant value kalah",
                "position startpos",
            ],
            4,
            5,
            6,
        ),
        (
            "awari, the move limit in the key",
            &[
                "setoption name UCI_Variant value awari",
                "position startpos",
            ],
            2,
            5,
            6,
        ),
        (
            "ayoayo, relay sowing",
            &[
                "setoption name UCI_Variant value ayoayo",
                "position startpos",
            ],
            6,
            4,
            6,
        ),
        (
            "kalah, lost: two moves, both proven losses",
            &[
                "setoption name UCI_Variant value kalah",
                "position fen 0-0-0-0-2-1-1-0-0-0-5-0-20-19-S",
            ],
            6,
            8,
            2,
        ),
        (
            "oware, two moves",
            &["position fen 0-0-0-0-3-2-4-4-4-4-4-4-10-9-S"],
            5,
            6,
            2,
        ),
    ];
    for &(what, setup, multipv, depth, legal) in rows {
        let game = game_of(setup);
        let moves: Vec<Move> = game.legal_moves().into_iter().collect();
        assert_eq!(moves.len(), legal, "{what}: the row's position");
        let mut lines: Vec<String> = setup.iter().map(|l| l.to_string()).collect();
        lines.insert(0, format!("setoption name MultiPV value {multipv}"));
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let (infos, best) = search(&lines, &format!("go depth {depth}"));
        let depths = check_lines(what, &game, &infos, &best, multipv, &moves, true);
        let last = depths.last().copied();
        let proven = infos
            .iter()
            .filter(|i| Some(i.depth) == last)
            .all(|i| i.rank.abs() > 500_000);
        // The search ends early only on a result proven in every line.
        assert!(
            depths.last() == Some(&depth) || proven,
            "{what}: ended at {depths:?}"
        );
    }
}

/// The kalah position is lost whatever South does: both lines are proven losses, the longer
/// one first (the engine's choice), and the search ends once both are proven.
#[test]
fn proven_lines_end_the_search_once_all_are_proven() {
    let setup = [
        "setoption name UCI_Variant value kalah",
        "setoption name MultiPV value 2",
        "position fen 0-0-0-0-2-1-1-0-0-0-5-0-20-19-S",
    ];
    let (infos, _) = search(&setup, "go depth 30");
    let last = infos.last().unwrap();
    assert!(last.depth < 30, "{infos:?}");
    let final_lines: Vec<&Info> = infos.iter().filter(|i| i.depth == last.depth).collect();
    assert_eq!(final_lines.len(), 2);
    assert!(final_lines.iter().all(|i| i.rank < -500_000), "{infos:?}");
}

/// `go searchmoves`: only the listed moves are searched, alone or with several lines, under
/// every kind of limit; `MultiPV` above their number prints as many lines as there are.
#[test]
fn searchmoves_restricts_the_move_and_every_line() {
    // (what, setup, MultiPV, go, the moves listed)
    let rows: &[(&str, &[&str], usize, &str, &str)] = &[
        (
            "one move",
            &["position startpos"],
            1,
            "go depth 5 searchmoves A",
            "A",
        ),
        (
            "the worst moves",
            &["position startpos"],
            1,
            "go searchmoves A B depth 6",
            "AB",
        ),
        (
            "two moves, three lines",
            &["position startpos"],
            3,
            "go depth 6 searchmoves BD",
            "BD",
        ),
        (
            "three of five, two lines, concatenated and spaced",
            &["position startpos moves FfEa"],
            2,
            "go searchmoves AB F nodes 20000",
            "ABF",
        ),
        (
            "a clock",
            &["position startpos moves F"],
            2,
            "go wtime 2000 btime 2000 searchmoves bcf",
            "bcf",
        ),
        (
            "movetime",
            &[
                "setoption name UCI_Variant value kalah",
                "position startpos",
            ],
            1,
            "go movetime 200 searchmoves C",
            "C",
        ),
        (
            "two threads",
            &["setoption name Threads value 2", "position startpos"],
            2,
            "go depth 7 searchmoves CDE",
            "CDE",
        ),
    ];
    for &(what, setup, multipv, go, listed) in rows {
        let game = game_of(setup);
        let listed = parse_move_list(listed).unwrap();
        let mut lines: Vec<String> = setup.iter().map(|l| l.to_string()).collect();
        lines.push(format!("setoption name MultiPV value {multipv}"));
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let (infos, best) = search(&lines, go);
        let whole = !go.contains("nodes") && !go.contains("time");
        check_lines(what, &game, &infos, &best, multipv, &listed, whole);
    }
}

/// `go infinite searchmoves`, stopped: the lines printed before `stop` are whole iterations or
/// a start of one (lines 1.. in order), and `bestmove` is the last line 1's.
#[test]
fn infinite_searchmoves_with_lines_answers_on_stop() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos moves FfEa");
    e.send("go infinite searchmoves ABCF");
    e.expect("info depth 6 seldepth 6 multipv 3 ", WAIT);
    e.send("stop");
    let lines = e.until("bestmove", WAIT);
    let infos: Vec<Info> = lines
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .map(|l| info(l))
        .collect();
    let best = lines.last().unwrap();
    let last_first = infos.iter().rfind(|i| i.multipv == Some(1));
    if let Some(i) = last_first {
        assert!(
            best.starts_with(&format!("bestmove {}", i.pv[0])),
            "{lines:?}"
        );
    }
    let allowed = parse_move_list("ABCF").unwrap();
    for i in &infos {
        assert!(allowed.contains(&i.pv[0]), "{i:?}");
    }
    let move_played = best.split_whitespace().nth(1).unwrap();
    assert!(["A", "B", "C", "F"].contains(&move_played), "{best}");
}

/// A `searchmoves` move that is not a move, not legal, or asked of a classic opponent refuses
/// the `go` with an error and answers it `bestmove 0000` (after `stop` under `infinite`); the
/// engine then searches as before.
#[test]
fn a_searchmoves_move_that_cannot_be_searched_is_answered() {
    // (what, setup, go, the error's words)
    let rows: &[(&str, &[&str], &str, &str)] = &[
        (
            "not a move",
            &["position startpos"],
            "go depth 3 searchmoves X",
            "go: searchmoves: character 1 (`X`) is not a move",
        ),
        (
            "a chess move",
            &["position startpos"],
            "go searchmoves e2e4 depth 3",
            "is not a move",
        ),
        (
            "the opponent's move",
            &["position startpos"],
            "go depth 3 searchmoves A a",
            "go: searchmoves: a is not legal here (legal moves: ABCDEF)",
        ),
        (
            "an empty house",
            &["position startpos moves Ff"],
            "go movetime 100 searchmoves F",
            "F is not legal here (legal moves: ABCDE)",
        ),
        (
            "a finished game",
            &["position fen 0-0-0-0-0-0-1-0-0-0-0-0-25-22-S"],
            "go depth 3 searchmoves A",
            "A is not legal: the game is over",
        ),
        (
            "a classic opponent",
            &["setoption name Opponent value greedy", "position startpos"],
            "go depth 3 searchmoves A",
            "Opponent greedy chooses among every move",
        ),
    ];
    for &(what, setup, go, error) in rows {
        let mut e = Engine::start();
        for line in setup {
            e.send(line);
        }
        e.send(go);
        let lines = e.until("bestmove", WAIT);
        assert_eq!(lines.len(), 2, "{what}: {lines:?}");
        assert!(
            lines[0].starts_with("info string error: ") && lines[0].contains(error),
            "{what}: {lines:?}"
        );
        assert_eq!(lines[1], "bestmove 0000", "{what}");
        // Nothing was searched, and the next `go` is answered as usual.
        e.send("go depth 2");
        let next = e.until("bestmove", WAIT);
        assert!(
            !next.iter().any(|l| l.contains("error")),
            "{what}: {next:?}"
        );
        if game_of(setup).outcome().is_none() {
            assert_ne!(next.last().unwrap(), "bestmove 0000", "{what}: {next:?}");
        }
    }
    // Under `infinite`, the refusal's `bestmove` waits for `stop`, as a search's would.
    let mut e = Engine::start();
    e.send("go infinite searchmoves Z");
    e.expect("info string error: go: searchmoves: ", WAIT);
    assert_eq!(e.up_to_readyok(), ["readyok"]);
    e.send("stop");
    e.expect("bestmove 0000", WAIT);
    // Perft answers no `bestmove`: a `searchmoves` there is an error alone.
    e.send("go perft 3 searchmoves A");
    e.send("isready");
    assert_eq!(
        e.until("readyok", WAIT),
        [
            "info string error: go: searchmoves: perft counts every move",
            "readyok"
        ]
    );
}

/// With `MultiPV` 1 (set, or set back after 3) the output is the plain search's, word for word
/// but the time: no `multipv` word, the same lines, nodes and moves.
#[test]
fn multipv_1_prints_what_the_plain_search_prints() {
    let masked = |lines: Vec<String>| -> Vec<String> {
        lines
            .into_iter()
            .filter(|l| l.starts_with("info") || l.starts_with("bestmove"))
            .map(|l| {
                let mut words: Vec<&str> = l.split_whitespace().collect();
                for key in ["nps", "time"] {
                    if let Some(i) = words.iter().position(|&w| w == key) {
                        words[i + 1] = "_";
                    }
                }
                words.join(" ")
            })
            .collect()
    };
    let run = |before: &[&str]| {
        let mut e = Engine::start();
        let mut lines = Vec::new();
        for line in before {
            e.send(line);
            if line.starts_with("go ") {
                lines.extend(e.until("bestmove", WAIT));
            }
        }
        e.send("ucinewgame");
        e.send("position startpos moves FfEa");
        e.send("go depth 9");
        lines.extend(e.until("bestmove", WAIT));
        masked(lines)
    };
    let plain = run(&[]);
    assert!(plain.len() >= 10, "{plain:?}");
    assert!(plain.iter().all(|l| !l.contains("multipv")), "{plain:?}");
    // The line as Aualé reads it: depth, seldepth, score, nodes, ... pv.
    assert!(plain[0].starts_with("info depth 1 seldepth 1 score cp "));
    let set = run(&["setoption name MultiPV value 1"]);
    assert_eq!(set, plain);
    let back = run(&[
        "setoption name MultiPV value 3",
        "position startpos",
        "go depth 5",
        "setoption name MultiPV value 1",
    ]);
    // The first search's lines, then the same as the plain one's (the table emptied between).
    let second = back.iter().position(|l| l.starts_with("bestmove")).unwrap();
    assert_eq!(back[second + 1..], plain[..]);
}

/// The option's range: up to 6, every move a side can have.
#[test]
fn multipv_is_listed_and_checked() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok", WAIT);
    assert!(
        lines.contains(&"option name MultiPV type spin default 1 min 1 max 6".to_string()),
        "{lines:?}"
    );
    e.send("setoption name MultiPV value 7");
    e.expect(
        "info string error: option MultiPV: '7' is not an integer from 1 to 6",
        WAIT,
    );
}

/// At a root within the endgame tables' reach, where they choose the move alone: the lines
/// are their choices in turn, line 1 their move, each with what it guarantees; with
/// `searchmoves`, their choices among the moves listed.
#[test]
fn lines_at_a_root_the_tables_decide() {
    let dir = common::scratch("multipv", "tables");
    common::build_tables(&dir, Variant::Oware, 4);
    let setup = [
        &format!("setoption name TablesPath value {}", dir.display()),
        "setoption name MultiPV value 3",
        "position fen 1-1-1-0-0-0-0-0-0-0-0-1-22-22-S",
    ];
    let game = game_of(&setup);
    let all: Vec<Move> = game.legal_moves().into_iter().collect();
    assert_eq!(all.len(), 3);
    let (infos, best) = search(&setup, "go depth 5");
    // The tables' value is exact: no search, one iteration of three lines.
    assert!(infos.iter().all(|i| i.depth == 1), "{infos:?}");
    check_lines("tables", &game, &infos, &best, 3, &all, true);
    let (infos, best) = search(&setup, "go depth 5 searchmoves BC");
    check_lines("tables, B and C", &game, &infos, &best, 3, &all[1..], true);
}

/// The opening book answers a plain `go` at once, but knows one move only: not asked for
/// several lines, nor for some of the moves.
#[test]
fn the_book_is_not_asked_for_several_lines_or_some_moves() {
    // (MultiPV, go, whether the book answers)
    let rows = [
        (1, "go depth 3", true),
        (2, "go depth 3", false),
        (1, "go depth 3 searchmoves AB", false),
    ];
    for (multipv, go, book) in rows {
        let mut e = Engine::start();
        e.send("setoption name OwnBook value true");
        e.send(&format!("setoption name MultiPV value {multipv}"));
        e.send("position startpos");
        e.send(go);
        let lines = e.until("bestmove", WAIT);
        let answered = lines.iter().any(|l| l.starts_with("info string book: "));
        assert_eq!(answered, book, "{multipv} {go}: {lines:?}");
        let searched = lines.iter().any(|l| l.starts_with("info depth 3 "));
        assert_eq!(searched, !book, "{multipv} {go}: {lines:?}");
    }
}
