//! A match between two engines: openings played as game pairs (each opening twice, colours
//! swapped), games run on `concurrency` threads, each game with fresh engine processes
//! (so a crashed or hung engine costs one game, never the match), results and records
//! taken in the order games finish, and an optional SPRT that stops the match on a bound.

use super::game::{play, Limit, Record, Scoring, Setup, Termination};
use super::process::{OutputLimits, Process, Spec};
use super::records::{self, json_line, Meta, Sink};
use super::stats;
use crate::rules::{parse_move_list, Board, Move, Side, Variant};
use crossbeam_channel::unbounded;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// One side of the match.
#[derive(Clone, Debug)]
pub struct Contestant {
    /// How to start it.
    pub spec: Spec,
    /// Its time control.
    pub limit: Limit,
}

/// A start for a game pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The position.
    pub start: Board,
    /// Moves from it.
    pub moves: Vec<Move>,
}

/// Reads an opening suite: one opening per line, a position in the notation (`4-4-...-S`,
/// optionally followed by moves) or a move list from the start; `#` starts a comment.
pub fn read_openings(variant: Variant, text: &str) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or("");
        let (start, moves) = if first.contains('-') {
            let board =
                Board::from_notation(variant, first).map_err(|e| format!("line {}: {e}", n + 1))?;
            (board, words.collect::<Vec<_>>().join(""))
        } else {
            (Board::start(variant), line.to_string())
        };
        let moves = parse_move_list(&moves).map_err(|e| format!("line {}: {e}", n + 1))?;
        let mut game = crate::rules::Game::new(start);
        game.play_all(&moves)
            .map_err(|e| format!("line {}: {e}", n + 1))?;
        if game.outcome().is_some() {
            return Err(format!("line {}: the game is already over", n + 1));
        }
        openings.push(Opening { start, moves });
    }
    Ok(openings)
}

/// Every two-ply opening of `variant` that leaves a game going (36 in oware): a built-in
/// suite when none is given.
pub fn two_ply_openings(variant: Variant) -> Vec<Opening> {
    let start = Board::start(variant);
    let mut openings = Vec::new();
    let mut game = crate::rules::Game::new(start);
    for a in game.legal_moves() {
        game.play(a).expect("listed");
        for b in game.legal_moves() {
            game.play(b).expect("listed");
            if game.outcome().is_none() {
                openings.push(Opening {
                    start,
                    moves: vec![a, b],
                });
            }
            game.undo();
        }
        game.undo();
    }
    openings
}

/// SPRT parameters (normalized Elo, on game pairs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// H0's normalized Elo.
    pub elo0: f64,
    /// H1's normalized Elo.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// The match.
#[derive(Clone, Debug)]
pub struct Config {
    /// Engine A (first) and B.
    pub engines: [Contestant; 2],
    /// The rule set (sent as `UCI_Variant` to both).
    pub variant: Variant,
    /// Games to play (an odd number is rounded up to whole pairs).
    pub games: u64,
    /// Openings, used in order and repeated as needed.
    pub openings: Vec<Opening>,
    /// Time beyond the clock before a time forfeit.
    pub margin: Duration,
    /// Ply limit.
    pub max_plies: usize,
    /// How the ply limit is scored.
    pub scoring: Scoring,
    /// Time allowed for `uciok`, `readyok`, and depth/node limited moves.
    pub stall: Duration,
    /// Games at once.
    pub concurrency: usize,
    /// Stop on an SPRT bound.
    pub sprt: Option<Sprt>,
    /// Where each game's engine stderr and protocol exchange are written, if anywhere:
    /// `game-<round>-<south|north>-<name>.stderr` and `.log`.
    pub log_dir: Option<std::path::PathBuf>,
    /// Event name for the records.
    pub event: String,
    /// Date for the records.
    pub date: String,
}

/// The running totals, from engine A's point of view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Games won by A.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost by A.
    pub losses: u64,
    /// Complete pairs by A's score in them: 0, 1/2, 1, 3/2, 2.
    pub pairs: [u64; 5],
    /// Games lost by forfeit, per engine (A, B).
    pub forfeits: [u64; 2],
}

impl Totals {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Adds one game with A's score in half points (0, 1, 2).
    pub fn add(&mut self, half_points: u8) {
        match half_points {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
    }

    /// The final table's lines.
    pub fn report(&self, names: [&str; 2], sprt: Option<Sprt>) -> Vec<String> {
        let n = self.games();
        let mut lines = vec![format!(
            "{} vs {}: {} games, +{} ={} -{}, score {:.1}%",
            names[0],
            names[1],
            n,
            self.wins,
            self.draws,
            self.losses,
            if n == 0 {
                0.0
            } else {
                100.0 * (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
            }
        )];
        if n > 0 && (self.wins == n || self.losses == n) {
            lines.push(format!(
                "Elo: not finite (one engine scored every point), LOS {:.1}%",
                100.0 * stats::los(self.wins, self.losses)
            ));
        } else if n > 0 {
            let trinomial = [self.losses, self.draws, self.wins];
            let e = stats::elo(&trinomial);
            lines.push(format!(
                "Elo {:+.1} +/- {:.1} (95%), LOS {:.1}%",
                e.elo,
                e.margin,
                100.0 * stats::los(self.wins, self.losses)
            ));
        }
        let pairs = self.pairs.iter().sum::<u64>();
        if pairs > 0 && self.pairs[0] != pairs && self.pairs[4] != pairs {
            let e = stats::elo(&self.pairs);
            let ne = stats::normalized_elo(&self.pairs);
            lines.push(format!(
                "pairs (0, 1/2, 1, 3/2, 2 points): {:?}; Elo {:+.1} +/- {:.1}, normalized Elo {:+.1} +/- {:.1}",
                self.pairs, e.elo, e.margin, ne.elo, ne.margin
            ));
            if let Some(s) = sprt {
                let llr = stats::llr_normalized(s.elo0, s.elo1, &self.pairs);
                let (lower, upper) = stats::sprt_bounds(s.alpha, s.beta);
                lines.push(format!(
                    "SPRT nElo0={} nElo1={}: LLR {llr:.3} ({lower:.3}, {upper:.3}){}",
                    s.elo0,
                    s.elo1,
                    if llr >= upper {
                        " H1 accepted"
                    } else if llr <= lower {
                        " H0 accepted"
                    } else {
                        ""
                    }
                ));
            }
        }
        if self.forfeits != [0, 0] {
            lines.push(format!(
                "forfeits: {} {}, {} {}",
                names[0], self.forfeits[0], names[1], self.forfeits[1]
            ));
        }
        lines
    }
}

/// A finished game as the runner reports it.
pub struct Finished {
    /// Game number from 1.
    pub round: u64,
    /// Whether engine A played South.
    pub a_south: bool,
    /// The game.
    pub record: Record,
}

impl Finished {
    /// A's score in half points.
    pub fn half_points(&self) -> u8 {
        let a = if self.a_south {
            Side::South
        } else {
            Side::North
        };
        match self.record.winner {
            Some(w) if w == a => 2,
            None => 1,
            Some(_) => 0,
        }
    }
}

/// Starts an engine and does the handshake: `uci`/`uciok`, the variant, its options. With a
/// log directory, its stderr and protocol exchange go to files named by the stem given.
fn ready(
    spec: &Spec,
    variant: Variant,
    stall: Duration,
    logs: Option<(&std::path::Path, String)>,
) -> Result<Process, String> {
    let open = |ext: &str| -> Result<Option<std::fs::File>, String> {
        match &logs {
            Some((dir, stem)) => super::process::open_log(&dir.join(format!("{stem}.{ext}")))
                .map(Some)
                .map_err(|e| format!("log file: {e}")),
            None => Ok(None),
        }
    };
    let mut p = Process::start(spec, OutputLimits::default(), open("stderr")?, open("log")?)
        .map_err(|e| e.to_string())?;
    let handshake = (|| {
        p.send("uci")?;
        p.wait_for("uciok", stall, &mut |_| {})?;
        if variant != Variant::Oware {
            p.send(&format!("setoption name UCI_Variant value {variant}"))?;
        }
        for (name, value) in &spec.options {
            p.send(&format!("setoption name {name} value {value}"))?;
        }
        Ok::<(), super::process::Failure>(())
    })();
    match handshake {
        Ok(()) => Ok(p),
        Err(f) => {
            p.end(Duration::from_millis(200));
            Err(format!("at the handshake: {f}"))
        }
    }
}

/// Plays game `round` (from 1).
fn one_game(config: &Config, round: u64) -> Finished {
    let pair = (round - 1) / 2;
    let a_south = round % 2 == 1;
    let opening = if config.openings.is_empty() {
        Opening {
            start: Board::start(config.variant),
            moves: Vec::new(),
        }
    } else {
        config.openings[(pair % config.openings.len() as u64) as usize].clone()
    };
    let [a, b] = &config.engines;
    let (south, north) = if a_south { (a, b) } else { (b, a) };
    let setup = Setup {
        start: opening.start,
        opening: opening.moves.clone(),
        limits: [south.limit, north.limit],
        margin: config.margin,
        max_plies: config.max_plies,
        scoring: config.scoring,
        stall: config.stall,
    };
    let logs = |side: &str, spec: &Spec| {
        config.log_dir.as_deref().map(|dir| {
            let name: String = spec
                .name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '-' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            (dir, format!("game-{round}-{side}-{name}"))
        })
    };
    let started = [
        ready(
            &south.spec,
            config.variant,
            config.stall,
            logs("south", &south.spec),
        ),
        ready(
            &north.spec,
            config.variant,
            config.stall,
            logs("north", &north.spec),
        ),
    ];
    let record = match started {
        [Ok(mut s), Ok(mut n)] => {
            let record = play([&mut s, &mut n], &setup);
            let grace = Duration::from_millis(500);
            s.end(grace);
            n.end(grace);
            record
        }
        [s, n] => {
            // One (or both) could not start: it loses; both failing is a draw.
            let failed_south = s.as_ref().err().cloned();
            let failed_north = n.as_ref().err().cloned();
            let (winner, side, reason) = match (failed_south, failed_north) {
                (Some(e), None) => (Some(Side::North), Side::South, e),
                (None, Some(e)) => (Some(Side::South), Side::North, e),
                (Some(e), Some(_)) => (None, Side::South, e),
                (None, None) => unreachable!("both started"),
            };
            Record {
                start: setup.start,
                opening: setup.opening.clone(),
                moves: Vec::new(),
                winner,
                stores: setup.start.stores(),
                termination: Termination::Forfeit { side, reason },
            }
        }
    };
    Finished {
        round,
        a_south,
        record,
    }
}

/// Output files and what was already played (for `--resume`).
pub struct Output<'a> {
    /// PGN file.
    pub pgn: Option<Sink>,
    /// JSON lines file.
    pub json: Option<Sink>,
    /// Rounds already finished in an earlier run, with A's half points.
    pub done: HashMap<u64, u8>,
    /// Called once per finished game with its line and the totals.
    pub progress: &'a mut dyn FnMut(&Finished, &Totals),
}

/// Runs the match; returns the totals (including games resumed from `output.done`).
pub fn run(config: &Config, output: Output<'_>) -> Totals {
    let Output {
        mut pgn,
        mut json,
        done,
        progress,
    } = output;
    let total = config.games.div_ceil(2) * 2;
    let mut totals = Totals::default();
    let mut pair_points: HashMap<u64, u8> = HashMap::new();
    let mut count_pair = |totals: &mut Totals, round: u64, points: u8| {
        let pair = (round - 1) / 2;
        match pair_points.remove(&pair) {
            Some(first) => totals.pairs[usize::from(first + points)] += 1,
            None => {
                pair_points.insert(pair, points);
            }
        }
    };
    for (&round, &points) in &done {
        totals.add(points);
        count_pair(&mut totals, round, points);
    }
    let next = AtomicU64::new(1);
    let stop = AtomicBool::new(false);
    let (tx, rx) = unbounded::<Finished>();
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1) {
            let tx = tx.clone();
            let (next, stop, done) = (&next, &stop, &done);
            scope.spawn(move || loop {
                if stop.load(Ordering::Acquire) {
                    break;
                }
                let round = next.fetch_add(1, Ordering::AcqRel);
                if round > total {
                    break;
                }
                if done.contains_key(&round) {
                    continue;
                }
                if tx.send(one_game(config, round)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let names = [
            config.engines[0].spec.name.as_str(),
            config.engines[1].spec.name.as_str(),
        ];
        for finished in rx {
            let (south, north) = if finished.a_south {
                (names[0], names[1])
            } else {
                (names[1], names[0])
            };
            let tc = config.engines[0].limit.tag();
            let meta = Meta {
                event: &config.event,
                date: &config.date,
                round: finished.round,
                south,
                north,
                time_control: &tc,
            };
            if let Some(sink) = &mut json {
                let line = json_line(&meta, &finished.record) + "\n";
                if let Err(e) = sink.write(&line) {
                    eprintln!("warning: cannot write the JSON record: {e}");
                }
            }
            if let Some(sink) = &mut pgn {
                if let Err(e) = sink.write(&records::pgn(&meta, &finished.record)) {
                    eprintln!("warning: cannot write the PGN record: {e}");
                }
            }
            let points = finished.half_points();
            totals.add(points);
            if let Termination::Forfeit { side, .. } = &finished.record.termination {
                let a_failed = (*side == Side::South) == finished.a_south;
                totals.forfeits[usize::from(!a_failed)] += 1;
            }
            count_pair(&mut totals, finished.round, points);
            progress(&finished, &totals);
            if let Some(s) = config.sprt {
                let llr = stats::llr_normalized(s.elo0, s.elo1, &totals.pairs);
                let (lower, upper) = stats::sprt_bounds(s.alpha, s.beta);
                if totals.pairs.iter().sum::<u64>() > 0 && (llr >= upper || llr <= lower) {
                    stop.store(true, Ordering::Release);
                }
            }
        }
    });
    totals
}
