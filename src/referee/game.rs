//! One game between two engine processes: new game, then per ply `position` (the full move
//! list, concatenated) and `go` with both clocks, every `bestmove` checked by the rules core,
//! clocks kept by the referee, the move limit adjudicated. An engine that fails in any way
//! loses the game, with the reason recorded; a game nobody can be blamed for (a bad
//! opening, no engine started) is no contest.
//!
//! Before each `go` the engine to move is synchronised (`isready` up to `readyok`, every line
//! before it discarded), so that a stale line from its last move cannot answer this one.
//! That time is charged to its clock, as is all the time from then to `bestmove`: a clock may
//! run below zero, and the engine loses once it is more than the margin below.

use crate::client::limit::{Clocks, Limit};
use crate::client::process::{Failure, Process};
use crate::client::reply::{quote, Expect, Reply};
use crate::client::thinking;
use crate::record::{Played, Record, Termination};
use crate::rules::{
    format_move_list, parse_move_list, Board, EndReason, Game, Move, Side, Variant,
};
use crate::said::Said;
use std::time::{Duration, Instant};

/// Everything about one game but its engines.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The start position (a variant's start, or an opening's position).
    pub start: Board,
    /// Moves played from it before the engines take over (an opening line).
    pub opening: Vec<Move>,
    /// The time control of South's engine, then North's (usually the same).
    pub limits: [Limit; 2],
    /// Grace beyond an engine's clock before it loses on time.
    pub margin: Duration,
    /// The game ends at this ply (counting the opening), adjudicated.
    pub max_plies: usize,
    /// How the move limit is scored.
    pub scoring: Scoring,
    /// How long `isready` and the answer to a depth or node limited `go` may take.
    pub stall: Duration,
}

/// How a game stopped at the move limit is scored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Scoring {
    /// As the rules say: `awari` by the stores, the others by the stores after each side
    /// collects its own row.
    #[default]
    Rules,
    /// By the stores alone.
    Stores,
    /// By the stores after each side collects its own row.
    Rows,
}

/// The score at the move limit under `scoring`: the rules' own count
/// ([`Board::outcome_counting`]), with or without the rows.
pub fn adjudicate(board: &Board, scoring: Scoring) -> ([u8; 2], Option<Side>) {
    let rows = match scoring {
        Scoring::Rules => board.variant() != Variant::Awari,
        Scoring::Stores => false,
        Scoring::Rows => true,
    };
    let outcome = board.outcome_counting(EndReason::MoveLimit, rows);
    (outcome.stores, outcome.winner)
}

/// A clock that may run below zero, in microseconds.
type Clock = i64;

fn micros(d: Duration) -> Clock {
    Clock::try_from(d.as_micros()).unwrap_or(Clock::MAX)
}

/// A clock's time as a `go` argument: milliseconds, never below zero.
fn clock_ms(c: Clock) -> i64 {
    c.max(0) / 1000
}

/// Plays one game: `engines[0]` is South, `engines[1]` North. Both must have completed the
/// handshake (`uci`/`uciok`, options).
///
/// The game's setup (the opening, a new game for each engine) is here, as is its end by the
/// rules or the move limit; each turn is `turn`'s, and the clocks are `Time`'s.
pub fn play(engines: [&mut Process; 2], setup: &Setup) -> Record {
    let mut game = Game::new(setup.start);
    if let Err(e) = game.play_all(&setup.opening) {
        // A bad opening is the suite's fault, not an engine's.
        return Record::no_contest(
            setup.start,
            setup.opening.clone(),
            format!("bad opening: {e}"),
        );
    }
    let mut record = Record {
        start: setup.start,
        opening: setup.opening.clone(),
        moves: Vec::new(),
        winner: None,
        stores: [0, 0],
        termination: Termination::Adjudicated,
    };
    let forfeit = |record: &mut Record, game: &Game, side: Side, reason: String| {
        record.winner = Some(side.opponent());
        record.stores = game.board().stores();
        record.termination = Termination::Forfeit { side, reason };
    };
    for side in Side::BOTH {
        let engine = &mut *engines[side.index()];
        let ready = engine
            .drain()
            .and_then(|()| engine.send("ucinewgame"))
            .and_then(|()| engine.sync(setup.stall));
        if let Err(f) = ready {
            forfeit(&mut record, &game, side, format!("at the new game: {f}"));
            return record;
        }
    }
    let mut time = Time::new(setup);
    let start_text = if setup.start == Board::start(setup.start.variant()) {
        "startpos".to_string()
    } else {
        format!("fen {}", setup.start)
    };
    loop {
        if let Some(outcome) = game.outcome() {
            record.winner = outcome.winner;
            record.stores = outcome.stores;
            record.termination = Termination::Rules(outcome.reason);
            return record;
        }
        if game.moves().len() >= setup.max_plies {
            (record.stores, record.winner) = adjudicate(game.board(), setup.scoring);
            record.termination = Termination::Adjudicated;
            return record;
        }
        let side = game.board().side_to_move();
        let engine = &mut *engines[side.index()];
        match turn(engine, &mut game, setup, &mut time, &start_text) {
            Ok(played) => record.moves.push(played),
            Err(reason) => {
                forfeit(&mut record, &game, side, reason);
                return record;
            }
        }
        time.moved(setup, side);
    }
}

/// The clocks the referee keeps: each side's time left (which may run below zero) and moves
/// made, which a time control's periods count.
struct Time {
    /// South's clock, North's.
    clocks: [Clock; 2],
    /// Moves made by South's engine, by North's.
    made: [u32; 2],
    /// How far below zero a clock may run before its engine loses.
    margin: Clock,
}

impl Time {
    /// Both clocks at their time control's base (0 for a control without a clock).
    fn new(setup: &Setup) -> Time {
        let clocks_of = |limit: Limit| match limit {
            Limit::Clock { base, .. } => micros(base),
            _ => 0,
        };
        Time {
            clocks: setup.limits.map(clocks_of),
            made: [0; 2],
            margin: micros(setup.margin),
        }
    }

    /// After `side`'s move: its increment, and its base again when a period is complete.
    fn moved(&mut self, setup: &Setup, side: Side) {
        let i = side.index();
        if let Limit::Clock { moves, base, inc } = setup.limits[i] {
            self.clocks[i] = self.clocks[i].saturating_add(micros(inc));
            self.made[i] += 1;
            if moves.is_some_and(|m| m > 0 && self.made[i] % m == 0) {
                self.clocks[i] = self.clocks[i].saturating_add(micros(base));
            }
        }
    }
}

/// One turn of the side to move: its engine is synchronised, sent the position and `go`, and
/// waited for within what its time control allows; the time is charged to its clock and its
/// move played if the rules allow it. An error is why the engine forfeits.
fn turn(
    engine: &mut Process,
    game: &mut Game,
    setup: &Setup,
    time: &mut Time,
    start_text: &str,
) -> Result<Played, String> {
    let side = game.board().side_to_move();
    let i = side.index();
    let position = format!(
        "position {start_text} moves {}",
        format_move_list(game.moves())
    );
    let limit = setup.limits[i];
    let go = go_command(setup, &time.clocks, &time.made, side);
    // How long the answer may take, from now: the clock (below zero down to minus the
    // margin), the move time plus the margin, or the stall timeout.
    let allowed = match limit {
        Limit::Clock { .. } => {
            Duration::from_micros(u64::try_from(time.clocks[i] + time.margin).unwrap_or(0))
        }
        Limit::MoveTime(d) => d + setup.margin,
        Limit::Depth(_) | Limit::Nodes(_) => setup.stall,
    };
    let started = Instant::now();
    let mut said = Said::default();
    let answer = engine
        .sync(allowed)
        .and_then(|()| engine.send(position.trim_end()))
        .and_then(|()| engine.send(&go))
        .and_then(|()| {
            let left = allowed.saturating_sub(started.elapsed());
            engine.wait_for(Expect::BestMove, left, &mut |line| {
                thinking::hear(&mut said, line)
            })
        });
    let took = started.elapsed();
    let timed = matches!(limit, Limit::Clock { .. } | Limit::MoveTime(_));
    let lost_on_time = || format!("lost on time ({} ms)", took.as_millis());
    let line = match answer {
        Ok(line) => line,
        Err(Failure::Timeout(_)) if timed => return Err(lost_on_time()),
        // The whole allowance, not what was left of it after `isready`.
        Err(Failure::Timeout(_)) => return Err(Failure::Timeout(allowed).to_string()),
        Err(f) => return Err(f.to_string()),
    };
    if let Limit::Clock { .. } = limit {
        time.clocks[i] -= micros(took);
        if time.clocks[i] < -time.margin {
            return Err(lost_on_time());
        }
    } else if timed && took > allowed {
        return Err(lost_on_time());
    }
    let Reply::BestMove(text, _) = Reply::parse(&line) else {
        return Err(format!("unreadable answer: {}", quote(&line)));
    };
    let mv = match parse_move_list(text) {
        Ok(list) if list.len() == 1 => list[0],
        _ => return Err(format!("unreadable move: {}", quote(&line))),
    };
    if let Err(e) = game.play(mv) {
        return Err(format!("illegal move {mv}: {e}"));
    }
    Ok(Played {
        mv,
        said,
        time: took,
    })
}

/// The `go` line for `side` to move.
fn go_command(setup: &Setup, clocks: &[Clock; 2], made: &[u32; 2], side: Side) -> String {
    let inc_of = |limit: Limit| match limit {
        Limit::Clock { inc, .. } => inc.as_millis(),
        _ => 0,
    };
    let limit = setup.limits[side.index()];
    let moves_to_go = match limit {
        Limit::Clock { moves, .. } => moves.filter(|&m| m > 0).map(|m| m - made[side.index()] % m),
        _ => None,
    };
    limit.go(Some(&Clocks {
        left_ms: [clock_ms(clocks[0]), clock_ms(clocks[1])],
        inc_ms: [inc_of(setup.limits[0]), inc_of(setup.limits[1])],
        moves_to_go,
    }))
}
