//! One game between two engine processes: new game, then per ply `position` (the full move
//! list, concatenated) and `go` with both clocks, every `bestmove` checked by the rules core,
//! clocks kept by the referee, the move limit adjudicated. An engine that fails in any way
//! loses the game, with the reason recorded.

use super::process::{Failure, Process};
use crate::rules::{
    format_move_list, parse_move_list, Board, EndReason, Game, Move, Side, Variant,
};
use std::fmt;
use std::time::{Duration, Instant};

/// How long each move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// A clock per side: `moves` per period (None: the whole game), `base` per period,
    /// `inc` per move.
    Clock {
        /// Moves per period, if the clock is refilled.
        moves: Option<u32>,
        /// Time per period.
        base: Duration,
        /// Increment per move.
        inc: Duration,
    },
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed depth per move (time is not limited beyond the stall timeout).
    Depth(u32),
    /// A fixed node count per move.
    Nodes(u64),
}

impl Limit {
    /// The PGN TimeControl tag: `40/60+0.5`, `60+0`, `movetime=100`, `depth=5`, `nodes=1000`.
    pub fn tag(&self) -> String {
        let secs = |d: Duration| {
            let s = d.as_secs_f64();
            if s.fract() == 0.0 {
                format!("{}", s as u64)
            } else {
                format!("{s}")
            }
        };
        match *self {
            Limit::Clock { moves, base, inc } => match moves {
                Some(m) => format!("{m}/{}+{}", secs(base), secs(inc)),
                None => format!("{}+{}", secs(base), secs(inc)),
            },
            Limit::MoveTime(d) => format!("movetime={}", d.as_millis()),
            Limit::Depth(d) => format!("depth={d}"),
            Limit::Nodes(n) => format!("nodes={n}"),
        }
    }
}

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

/// How a game ended, for the side that did not fail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The rules ended it.
    Rules(EndReason),
    /// The move limit: adjudicated on the stores (plus rows where the rules collect them).
    Adjudicated,
    /// An engine failed; it lost.
    Forfeit {
        /// The side that failed.
        side: Side,
        /// What it did.
        reason: String,
    },
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::Rules(r) => write!(f, "{}", r.describe()),
            Termination::Adjudicated => write!(f, "adjudicated at the move limit"),
            Termination::Forfeit { side, reason } => write!(f, "{side} forfeits: {reason}"),
        }
    }
}

/// One move as played: what the engine said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The move.
    pub mv: Move,
    /// The last `score ...` the engine reported (`cp 35`, `mate 7`), if any.
    pub score: Option<String>,
    /// The last depth it reported.
    pub depth: Option<u32>,
    /// Time the referee measured, from `go` to `bestmove`.
    pub time: Duration,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Record {
    /// The start position.
    pub start: Board,
    /// The opening moves (not the engines').
    pub opening: Vec<Move>,
    /// The engines' moves.
    pub moves: Vec<Played>,
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Final stores as scored.
    pub stores: [u8; 2],
    /// How it ended.
    pub termination: Termination,
}

impl Record {
    /// `1-0` (South won), `0-1`, `1/2-1/2`.
    pub fn result_tag(&self) -> &'static str {
        match self.winner {
            Some(Side::South) => "1-0",
            Some(Side::North) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// How a game stopped at the move limit is scored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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

/// The score at the move limit under `scoring`.
pub fn adjudicate(board: &Board, scoring: Scoring) -> ([u8; 2], Option<Side>) {
    let rows = match scoring {
        Scoring::Rules => board.variant() != Variant::Awari,
        Scoring::Stores => false,
        Scoring::Rows => true,
    };
    let mut stores = board.stores();
    if rows {
        for side in Side::BOTH {
            stores[side.index()] += board.row_seeds(side) as u8;
        }
    }
    let winner = match stores[0].cmp(&stores[1]) {
        std::cmp::Ordering::Greater => Some(Side::South),
        std::cmp::Ordering::Less => Some(Side::North),
        std::cmp::Ordering::Equal => None,
    };
    (stores, winner)
}

/// Plays one game: `engines[0]` is South, `engines[1]` North. Both must have completed the
/// handshake (`uci`/`uciok`, options).
pub fn play(engines: [&mut Process; 2], setup: &Setup) -> Record {
    let mut game = Game::new(setup.start);
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
    if let Err(e) = game.play_all(&setup.opening) {
        // A bad opening is the suite's fault, not an engine's: no one wins.
        record.termination = Termination::Forfeit {
            side: game.board().side_to_move(),
            reason: format!("bad opening: {e}"),
        };
        record.winner = None;
        return record;
    }
    for side in Side::BOTH {
        let engine = &mut *engines[side.index()];
        let ready = engine
            .send("ucinewgame")
            .and_then(|()| engine.send("isready"))
            .and_then(|()| engine.wait_for("readyok", setup.stall, &mut |_| {}));
        if let Err(f) = ready {
            forfeit(&mut record, &game, side, format!("at the new game: {f}"));
            return record;
        }
    }
    let clocks_of = |limit: Limit| match limit {
        Limit::Clock { base, .. } => base,
        _ => Duration::ZERO,
    };
    let mut clocks = setup.limits.map(clocks_of);
    let mut moves_made = [0u32; 2];
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
        let position = format!(
            "position {start_text} moves {}",
            format_move_list(game.moves())
        );
        let limit = setup.limits[side.index()];
        let (go, allowed) = go_command(setup, &clocks, &moves_made, side);
        let started = Instant::now();
        let mut score = None;
        let mut depth = None;
        let answer = engine
            .send(position.trim_end())
            .and_then(|()| engine.send(&go))
            .and_then(|()| {
                engine.wait_for("bestmove", allowed + setup.margin, &mut |line| {
                    read_info(line, &mut score, &mut depth)
                })
            });
        let took = started.elapsed();
        let lost_on_time = || format!("lost on time ({} ms)", took.as_millis());
        // The turn, or why the engine to move forfeits.
        let turn: Result<Played, String> = 'turn: {
            let line = match answer {
                Ok(line) => line,
                Err(Failure::Timeout(_))
                    if matches!(limit, Limit::Clock { .. } | Limit::MoveTime(_)) =>
                {
                    break 'turn Err(lost_on_time());
                }
                Err(f) => break 'turn Err(f.to_string()),
            };
            let text = line.split_whitespace().nth(1).unwrap_or("");
            let mv = match parse_move_list(text) {
                Ok(list) if list.len() == 1 => list[0],
                _ => break 'turn Err(format!("unreadable move: {line}")),
            };
            if let Limit::Clock { .. } = limit {
                if took > clocks[side.index()] + setup.margin {
                    break 'turn Err(lost_on_time());
                }
            }
            if let Err(e) = game.play(mv) {
                break 'turn Err(format!("illegal move {mv}: {e}"));
            }
            Ok(Played {
                mv,
                score: score.take(),
                depth: depth.take(),
                time: took,
            })
        };
        match turn {
            Ok(played) => record.moves.push(played),
            Err(reason) => {
                forfeit(&mut record, &game, side, reason);
                return record;
            }
        }
        if let Limit::Clock { moves, base, inc } = limit {
            let i = side.index();
            clocks[i] = clocks[i].saturating_sub(took) + inc;
            moves_made[i] += 1;
            if moves.is_some_and(|m| m > 0 && moves_made[i] % m == 0) {
                clocks[i] += base;
            }
        }
    }
}

/// The `go` line for `side` to move and how long its answer may take.
fn go_command(
    setup: &Setup,
    clocks: &[Duration; 2],
    made: &[u32; 2],
    side: Side,
) -> (String, Duration) {
    let inc_of = |limit: Limit| match limit {
        Limit::Clock { inc, .. } => inc.as_millis(),
        _ => 0,
    };
    match setup.limits[side.index()] {
        Limit::Clock { moves, .. } => {
            let ms = |d: Duration| d.as_millis();
            let mut go = format!(
                "go wtime {} btime {} winc {} binc {}",
                ms(clocks[0]),
                ms(clocks[1]),
                inc_of(setup.limits[0]),
                inc_of(setup.limits[1])
            );
            let i = side.index();
            if let Some(m) = moves.filter(|&m| m > 0) {
                go += &format!(" movestogo {}", m - made[i] % m);
            }
            (go, clocks[i])
        }
        Limit::MoveTime(d) => (format!("go movetime {}", d.as_millis()), d),
        Limit::Depth(n) => (format!("go depth {n}"), setup.stall),
        Limit::Nodes(n) => (format!("go nodes {n}"), setup.stall),
    }
}

/// Keeps the last score and depth of an `info` line.
fn read_info(line: &str, score: &mut Option<String>, depth: &mut Option<u32>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") {
        return;
    }
    for (i, w) in words.iter().enumerate() {
        match *w {
            "depth" => {
                if let Some(d) = words.get(i + 1).and_then(|d| d.parse().ok()) {
                    *depth = Some(d);
                }
            }
            "score" => {
                if let (Some(kind), Some(value)) = (words.get(i + 1), words.get(i + 2)) {
                    *score = Some(format!("{kind} {value}"));
                }
            }
            _ => {}
        }
    }
}
