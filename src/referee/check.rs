//! `referee check`: a compliance test of an engine, the checks a tournament manager relies on
//! (handshake, `isready` during a search, `stop`, bad input, `go` arguments in any order,
//! `quit`), each reported as passed or failed with what was seen. Besides the start position
//! (which a book engine answers from its book) it probes a middle game, given as a position.
//! Each probe starts by synchronising with the engine (`isready`, every earlier line
//! discarded), so that a late line from one check is never blamed on the next.

use crate::client::handshake::{self, Hello, Logs, Step};
use crate::client::process::{Process, Spec};
use crate::client::reply::{quote, Expect, Reply};
use crate::rules::{parse_move_list, Board, Game, Variant};
use std::time::{Duration, Instant};

/// One check's outcome.
pub type Outcome = Result<String, String>;

/// Whether `line` is a `bestmove` with a legal move for `game`.
fn legal_bestmove(game: &Game, line: &str) -> Outcome {
    let Reply::BestMove(text, _) = Reply::parse(line) else {
        return Err(format!("not a bestmove: {}", quote(line)));
    };
    match parse_move_list(text) {
        Ok(m) if m.len() == 1 && game.legal_moves().contains(m[0]) => Ok(line.to_string()),
        _ => Err(format!("not a legal move here: {}", quote(line))),
    }
}

/// A middle game of `variant`: 20 plies from the start by a fixed rule (the legal move at
/// index `7 * ply` modulo their number), or fewer if the game would end.
pub fn middle_game(variant: Variant) -> Game {
    let mut game = Game::new(Board::start(variant));
    for ply in 0..20 {
        let moves: Vec<_> = game.legal_moves().into_iter().collect();
        if moves.is_empty() {
            break;
        }
        let mv = moves[(7 * ply) % moves.len()];
        game.play(mv).expect("a listed move is legal");
        if game.outcome().is_some() {
            game.undo();
            break;
        }
    }
    game
}

/// How long each kind of answer may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// `uciok`, `readyok` when idle, and the synchronisation before each probe.
    pub answer: Duration,
    /// A depth- or node-limited search's `bestmove`.
    pub search: Duration,
    /// `readyok` during a search: "at once".
    pub at_once: Duration,
    /// `bestmove` after `stop`, and the exit after `quit`.
    pub stop: Duration,
}

impl Default for Timeouts {
    /// What a tournament manager allows: 5 s, 10 s, 100 ms, 1 s.
    fn default() -> Timeouts {
        Timeouts {
            answer: Duration::from_secs(5),
            search: Duration::from_secs(10),
            at_once: Duration::from_millis(100),
            stop: Duration::from_secs(1),
        }
    }
}

/// Runs every check on the engine `spec` in `variant` with the `limits`; calls `report` with
/// each check's name and outcome; returns whether all passed.
///
/// The checks run in stages, each a function of its own, in the order a tournament manager
/// meets them: the handshake (without which nothing else can run), searches from the start and
/// from a middle game, a long search interrupted, `stop` with nothing to stop, bad input, and
/// `quit`.
pub fn check(
    spec: &Spec,
    variant: Variant,
    limits: Timeouts,
    report: &mut dyn FnMut(&str, &Outcome),
) -> bool {
    let mut all = true;
    let mut say = |name: &str, outcome: Outcome| {
        all &= outcome.is_ok();
        report(name, &outcome);
    };
    let Some(mut p) = handshake_checks(spec, variant, limits.answer, &mut say) else {
        return false;
    };
    search_checks(&mut p, variant, limits, &mut say);
    interrupt_checks(&mut p, variant, limits, &mut say);
    bad_input_checks(&mut p, variant, limits, &mut say);
    quit_check(&mut p, limits.stop, &mut say);
    all
}

/// Where each stage reports a check: its name and outcome.
type Say<'a> = dyn FnMut(&str, Outcome) + 'a;

/// A limit as the checks' names give it: `1 s`, `100 ms`.
fn ms(d: Duration) -> String {
    match d.as_millis() {
        n if n % 1000 == 0 => format!("{} s", n / 1000),
        n => format!("{n} ms"),
    }
}

/// `isready` answered within `within`, and how long it took.
fn ready(p: &mut Process, within: Duration) -> Outcome {
    let t = Instant::now();
    p.send("isready")
        .and_then(|()| p.wait_for(Expect::ReadyOk, within, &mut |_| {}))
        .map(|_| format!("readyok after {} ms", t.elapsed().as_millis()))
        .map_err(|e| e.to_string())
}

/// The handshake, as a match does it: the variant, then the options given. Returns the
/// engine ready for the other checks, or `None` when the handshake failed (which it reports),
/// since no other check can run without it.
fn handshake_checks(
    spec: &Spec,
    variant: Variant,
    answer: Duration,
    say: &mut Say,
) -> Option<Process> {
    let name = variant.to_string();
    let settings: &[(&str, &str)] = match variant {
        Variant::Oware => &[],
        _ => &[("UCI_Variant", &name)],
    };
    let handshake = "handshake: uci -> id name ... uciok";
    let id = |hello: &Hello| match &hello.name {
        Some(name) => Ok(format!("id name {name}")),
        None => Err("no `id name`".to_string()),
    };
    match handshake::start(spec, settings, answer, Logs::default()) {
        Ok((p, hello)) => {
            say(handshake, id(&hello));
            let ms = hello.ready_after.as_millis();
            say("isready -> readyok", Ok(format!("readyok after {ms} ms")));
            Some(p)
        }
        Err(r) => {
            match r.step {
                Step::Start => say("start", Err(r.failure.to_string())),
                Step::Uci | Step::Options => say(handshake, Err(r.to_string())),
                Step::Ready => {
                    say(handshake, id(&r.hello));
                    say("isready -> readyok", Err(r.failure.to_string()));
                }
            }
            None
        }
    }
}

/// Limited searches must end with a legal move: from the start, with `go`'s arguments in any
/// order, and from a middle game given as a position, which no book answers.
fn search_checks(p: &mut Process, variant: Variant, limits: Timeouts, say: &mut Say) {
    let Timeouts { answer, search, .. } = limits;
    let start = Game::new(Board::start(variant));
    let mut go = |line: &str| -> Outcome {
        p.sync(answer)
            .and_then(|()| p.send("position startpos"))
            .and_then(|()| p.send(line))
            .and_then(|()| p.wait_for(Expect::BestMove, search, &mut |_| {}))
            .map_err(|e| e.to_string())
    };
    say(
        "go depth 1 -> legal bestmove",
        go("go depth 1").and_then(|l| legal_bestmove(&start, &l)),
    );
    for line in [
        "go movetime 100 depth 3",
        "go depth 3 movetime 100",
        "go nodes 1000 wtime 5000 btime 5000",
    ] {
        say(
            &format!("arguments in any order: {line}"),
            go(line).and_then(|l| legal_bestmove(&start, &l)),
        );
    }

    let middle = middle_game(variant);
    let probe = p
        .sync(answer)
        .and_then(|()| p.send(&format!("position fen {}", middle.board())))
        .and_then(|()| p.send("go depth 3"))
        .and_then(|()| p.wait_for(Expect::BestMove, search, &mut |_| {}))
        .map_err(|e| e.to_string());
    say(
        &format!(
            "middle game (fen {}): go depth 3 -> legal bestmove",
            middle.board()
        ),
        probe.and_then(|l| legal_bestmove(&middle, &l)),
    );
}

/// A long search: `isready` must be answered at once and `stop` must end it; then `stop` with
/// no search must bring no `bestmove`, which a manager would take for the next search's.
fn interrupt_checks(p: &mut Process, variant: Variant, limits: Timeouts, say: &mut Say) {
    let Timeouts {
        answer,
        at_once,
        stop,
        ..
    } = limits;
    let start = Game::new(Board::start(variant));
    let searching = p
        .sync(answer)
        .and_then(|()| p.send("position startpos"))
        .and_then(|()| p.send("go infinite"))
        .map_err(|e| e.to_string());
    std::thread::sleep(Duration::from_millis(200));
    let during = searching.clone().and_then(|()| ready(p, at_once));
    say(
        &format!(
            "isready during go infinite -> readyok within {}",
            ms(at_once)
        ),
        during,
    );
    let t = Instant::now();
    let stopped = searching.and_then(|()| {
        p.send("stop")
            .and_then(|()| p.wait_for(Expect::BestMove, stop, &mut |_| {}))
            .map_err(|e| e.to_string())
    });
    say(
        &format!(
            "stop during go infinite -> legal bestmove within {}",
            ms(stop)
        ),
        stopped
            .and_then(|l| legal_bestmove(&start, &l))
            .map(|l| format!("{l} after {} ms", t.elapsed().as_millis())),
    );

    let _ = p.send("stop");
    let mut extra = Vec::new();
    let quiet = p.send("isready").map_err(|e| e.to_string()).and_then(|()| {
        p.wait_for(Expect::ReadyOk, stop, &mut |l| extra.push(l.to_string()))
            .map_err(|e| e.to_string())
    });
    say(
        "stop with no search -> nothing",
        quiet.and_then(|_| {
            match extra
                .iter()
                .find(|l| matches!(Reply::parse(l), Reply::BestMove(..)))
            {
                Some(l) => Err(format!("answered {l}")),
                None => Ok("no output".to_string()),
            }
        }),
    );
}

/// Bad input: the engine stays alive and keeps the previous position, so that one bad line
/// from a manager does not lose a game.
fn bad_input_checks(p: &mut Process, variant: Variant, limits: Timeouts, say: &mut Say) {
    let Timeouts { answer, search, .. } = limits;
    let mut after_ffea = Game::new(Board::start(variant));
    let setup = after_ffea.play_text("FfEa").is_ok();
    if setup {
        let _ = p.sync(answer);
        let _ = p.send("position startpos moves FfEa");
    }
    for bad in [
        "position startpos moves FfEaXYZ",
        "go sideways",
        "frobnicate",
        "setoption name NoSuchOption value 1",
    ] {
        let _ = p.send(bad);
    }
    say("bad input -> still answers isready", ready(p, answer));
    if setup {
        let kept = p
            .send("go depth 1")
            .and_then(|()| p.wait_for(Expect::BestMove, search, &mut |_| {}))
            .map_err(|e| e.to_string())
            .and_then(|l| legal_bestmove(&after_ffea, &l));
        say("a refused position keeps the previous one", kept);
    }
}

/// `quit`: the engine must exit within `stop`, or a manager has to kill it.
fn quit_check(p: &mut Process, stop: Duration, say: &mut Say) {
    let t = Instant::now();
    let exited = p.end(stop);
    say(
        &format!("quit -> exits within {}", ms(stop)),
        if exited {
            Ok(format!("exited after {} ms", t.elapsed().as_millis()))
        } else {
            Err(format!("still running after {} (killed)", ms(stop)))
        },
    );
}
