//! Single games under the referee: the real engine against itself in every variant, and
//! against engines that misbehave in each way the referee must survive.

use crate::common;
use awari::client::Expect;
use awari::client::Limit;
use awari::client::{OutputLimits, Process, Spec};
use awari::record::Termination;
use awari::referee::game::{adjudicate, play, Scoring, Setup};
use awari::rules::{Board, Game, Side, Variant};
use awari::sys::subreaper::become_subreaper;
use std::path::PathBuf;
use std::time::Duration;

fn start(command: &str, args: &[&str]) -> Process {
    become_subreaper();
    let spec = Spec {
        name: "t".to_string(),
        command: PathBuf::from(command),
        args: args.iter().map(|s| s.to_string()).collect(),
        ..Spec::default()
    };
    let mut p = Process::start(&spec, OutputLimits::default(), None, None).unwrap();
    p.send("uci").unwrap();
    p.wait_for(Expect::UciOk, Duration::from_secs(5), &mut |_| {})
        .unwrap();
    p
}

fn awari() -> Process {
    let (command, args) = common::hermetic_argv(env!("CARGO_BIN_EXE_awari"), &[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    start(&command, &args)
}

/// A shell engine: answers the handshake and `isready`, and runs `on_go` for each `go`.
fn script(on_go: &str) -> Process {
    let program = format!(
        "while read -r line; do case \"$line\" in uci) echo uciok;; isready) echo readyok;; \
         go*) {on_go};; quit) exit 0;; esac; done"
    );
    start("/bin/sh", &["-c", &program])
}

fn setup(variant: Variant, limit: Limit) -> Setup {
    Setup {
        start: Board::start(variant),
        opening: Vec::new(),
        limits: [limit, limit],
        margin: Duration::from_millis(50),
        max_plies: 250,
        scoring: Scoring::Rules,
        stall: Duration::from_secs(5),
    }
}

#[test]
fn the_engine_against_itself_in_every_variant() {
    for variant in Variant::ALL {
        let (mut a, mut b) = (awari(), awari());
        for p in [&mut a, &mut b] {
            p.send(&format!("setoption name UCI_Variant value {variant}"))
                .unwrap();
        }
        let record = play([&mut a, &mut b], &setup(variant, Limit::Depth(3)));
        // Every move replays legally, and the result is the rules' own.
        let mut game = Game::new(Board::start(variant));
        for m in &record.moves {
            game.play(m.mv).unwrap();
        }
        match &record.termination {
            Termination::Rules(reason) => {
                let outcome = game.outcome().expect("the game is over");
                assert_eq!(outcome.reason, *reason);
                assert_eq!(outcome.winner, record.winner);
            }
            Termination::Adjudicated => assert_eq!(game.moves().len(), 250),
            t => panic!("{variant}: {t}"),
        }
        assert!(record
            .moves
            .iter()
            .all(|m| m.said.depth.is_some() && m.said.score.is_some()));
        // The grace before a kill: awari exits on `quit` in milliseconds; 10 s leaves a busy
        // machine room to schedule it.
        assert!(a.end(Duration::from_secs(10)) && b.end(Duration::from_secs(10)));
    }
}

#[test]
fn misbehaving_engines_lose_with_the_reason() {
    // (what, North's program on `go`, limit, words the reason must contain)
    let rows = [
        (
            "illegal move",
            "echo 'bestmove A'",
            Limit::Depth(2),
            "illegal move A",
        ),
        (
            "garbage",
            "echo 'bestmove hello'",
            Limit::Depth(2),
            "unreadable move",
        ),
        ("crash", "exit 3", Limit::Depth(2), "exited"),
        (
            "no answer in time",
            "sleep 5",
            Limit::MoveTime(Duration::from_millis(100)),
            "lost on time",
        ),
        (
            "clock overrun",
            "sleep 0.5; echo 'bestmove a'",
            Limit::Clock {
                moves: None,
                base: Duration::from_millis(200),
                inc: Duration::ZERO,
            },
            "lost on time",
        ),
    ];
    for (what, on_go, limit, reason) in rows {
        let mut south = awari();
        let mut north = script(on_go);
        // The limit under test is North's; South searches to a depth, so that a busy machine
        // cannot make the real engine lose on time first.
        let mut setup = setup(Variant::Oware, limit);
        setup.limits[0] = Limit::Depth(2);
        let record = play([&mut south, &mut north], &setup);
        match &record.termination {
            Termination::Forfeit { side, reason: r } => {
                assert_eq!(*side, Side::North, "{what}");
                assert!(r.contains(reason), "{what}: {r}");
            }
            t => panic!("{what}: {t}"),
        }
        assert_eq!(record.winner, Some(Side::South), "{what}");
        assert_eq!(record.moves.len(), 1, "{what}: South's first move only");
        south.end(Duration::from_secs(1));
        north.end(Duration::from_millis(100));
    }
}

/// What a move's record keeps of the engine's thinking: its best line's last score and depth,
/// whatever its other `multipv` lines say and in whatever order they come.
#[test]
fn a_move_keeps_what_its_best_line_said() {
    use awari::said::{EngineScore, Said};
    let said = |cp, depth| Said {
        score: Some(EngineScore::Cp(cp)),
        depth: Some(depth),
        tables: false,
    };
    // (what, South's lines before its `bestmove A`, what its move's record keeps)
    let rows = [
        (
            "one line",
            "echo 'info depth 4 score cp 12 pv A'",
            said(12, 4),
        ),
        (
            "the best line, then others",
            "echo 'info depth 5 multipv 1 score cp 40 pv A'; \
             echo 'info depth 5 multipv 2 score cp -90 pv B'",
            said(40, 5),
        ),
        (
            "others, then the best line",
            "echo 'info depth 6 multipv 3 score cp -7 pv C'; \
             echo 'info depth 6 multipv 1 score cp 3 pv A'; \
             echo 'info depth 7 multipv 2 score cp -60 pv B'",
            said(3, 6),
        ),
        (
            "the endgame tables' result",
            "echo 'info depth 1 score cp 800 tables pv A'",
            Said {
                tables: true,
                ..said(800, 1)
            },
        ),
    ];
    for (what, lines, want) in rows {
        // A is a legal first move; at South's second turn its house is empty and South
        // forfeits, its first move recorded.
        let mut south = script(&format!("{lines}; echo 'bestmove A'"));
        let mut north = awari();
        let record = play(
            [&mut south, &mut north],
            &setup(Variant::Oware, Limit::Depth(1)),
        );
        assert_eq!(record.moves.first().map(|m| m.said), Some(want), "{what}");
        south.end(Duration::from_millis(100));
        north.end(Duration::from_secs(1));
    }
}

#[test]
fn a_stalled_engine_loses_at_the_new_game() {
    let mut south = script("echo 'bestmove A'");
    // Never answers isready.
    let mut north = start(
        "/bin/sh",
        &[
            "-c",
            "while read -r line; do [ \"$line\" = uci ] && echo uciok; done",
        ],
    );
    let mut s = setup(Variant::Oware, Limit::Depth(1));
    // North never answers, whatever the limit; South's shell has this long to answer (a bound
    // that a busy machine's scheduling does not reach; the test waits it out once).
    s.stall = Duration::from_secs(2);
    let record = play([&mut south, &mut north], &s);
    match &record.termination {
        Termination::Forfeit { side, reason } => {
            assert_eq!(*side, Side::North);
            assert!(
                reason.contains("new game") && reason.contains("no answer"),
                "{reason}"
            );
        }
        t => panic!("{t}"),
    }
}

#[test]
fn move_limit_scoring() {
    // South 20 + row 2, North 21 + row 5: by the stores South loses by 1; with rows, by 4.
    let board = Board::from_notation(Variant::Oware, "1-1-0-0-0-0-0-5-0-0-0-0-20-21-S").unwrap();
    assert_eq!(
        adjudicate(&board, Scoring::Stores),
        ([20, 21], Some(Side::North))
    );
    assert_eq!(
        adjudicate(&board, Scoring::Rows),
        ([22, 26], Some(Side::North))
    );
    assert_eq!(
        adjudicate(&board, Scoring::Rules),
        ([22, 26], Some(Side::North))
    );
    // Rows can turn the result: South 22 + 6 on its row, North 24.
    let board = Board::from_notation(Variant::Awari, "6-0-0-0-0-0-0-0-0-0-0-0-18-24-S").unwrap();
    assert_eq!(
        adjudicate(&board, Scoring::Rules),
        ([18, 24], Some(Side::North))
    );
    assert_eq!(adjudicate(&board, Scoring::Rows), ([24, 24], None));
    // A short limit ends a real game by adjudication.
    let (mut a, mut b) = (awari(), awari());
    let mut s = setup(Variant::Oware, Limit::Depth(2));
    s.max_plies = 10;
    let record = play([&mut a, &mut b], &s);
    assert_eq!(record.termination, Termination::Adjudicated);
    assert_eq!(record.moves.len(), 10);
}

#[test]
fn a_bad_opening_is_no_contest() {
    let (mut a, mut b) = (awari(), awari());
    let mut s = setup(Variant::Oware, Limit::Depth(1));
    // South cannot play A twice in a row: the second A is North's turn and illegal there.
    s.opening = awari::rules::parse_move_list("AA").unwrap();
    let record = play([&mut a, &mut b], &s);
    match &record.termination {
        Termination::NoContest(reason) => assert!(reason.contains("bad opening"), "{reason}"),
        t => panic!("{t}"),
    }
    assert_eq!(record.result_tag(), "*");
    assert!(!record.is_contest() && record.winner.is_none() && record.moves.is_empty());
}
