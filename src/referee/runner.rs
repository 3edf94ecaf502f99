//! A match between two engines: openings played as game pairs (each opening twice, colours
//! swapped), games run on `concurrency` threads, results and records taken in the order games
//! finish, and an optional SPRT that stops the match on a bound.
//!
//! Each thread keeps its two engine processes from game to game while they behave
//! (`ucinewgame` and `isready` between games) and starts a fresh one after any fault, as
//! cutechess-cli's `restart=auto` does; [`Restart::Always`] starts fresh processes for every
//! game. A crashed or hung engine costs one game, never the match.

use super::game::{play, Scoring, Setup};
use super::stats::Verdict;
use crate::client::handshake::{self, Logs, Refusal, Step};
use crate::client::limit::Limit;
use crate::client::process::{self, Process, Spec};
use crate::cluster::shard::Shard;
use crate::record::Record;
use crate::record::{GameRecord, Meta, Sink};
use crate::rules::{parse_move_list, Board, Move, Side, Variant};
use crossbeam_channel::{bounded, unbounded, Sender};
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// The SPRT a match may run ([`Config::sprt`]).
pub use super::stats::Sprt;

/// When an engine process is replaced by a fresh one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Restart {
    /// After a fault of that engine (a forfeit, a failed start); otherwise kept across games.
    #[default]
    Auto,
    /// Before every game.
    Always,
}

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
    /// When engine processes are replaced.
    pub restart: Restart,
    /// Where each game's engine stderr and protocol exchange are written, if anywhere:
    /// `game-<round>-<south|north>-<name>.stderr` and `.log`.
    pub log_dir: Option<std::path::PathBuf>,
    /// The part of the match this run plays ([`Shard::WHOLE`]: all of it).
    pub shard: Shard,
    /// Event name for the records.
    pub event: String,
    /// Date for the records.
    pub date: String,
}

impl Config {
    /// Games in the match: `games` rounded up to whole pairs.
    pub fn total_games(&self) -> u64 {
        self.games.saturating_add(self.games % 2)
    }

    /// The opening of game `round` (from 1): each opening for one pair, in order, repeated.
    pub fn opening(&self, round: u64) -> Opening {
        let pair = round.saturating_sub(1) / 2;
        if self.openings.is_empty() {
            Opening {
                start: Board::start(self.variant),
                moves: Vec::new(),
            }
        } else {
            self.openings[(pair % self.openings.len() as u64) as usize].clone()
        }
    }

    /// The time controls of South's engine and North's in game `round`, as PGN writes them.
    pub fn time_controls(&self, round: u64) -> [String; 2] {
        let [a, b] = &self.engines;
        let tags = [a.limit.tag(), b.limit.tag()];
        if round % 2 == 1 {
            tags
        } else {
            let [a, b] = tags;
            [b, a]
        }
    }
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
    /// Games that were no contest (left out of everything else).
    pub no_contest: u64,
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
}

/// Totals counted game by game, in any order: a pair counts when its second game does.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// What is counted so far.
    pub totals: Totals,
    /// A's half points in the first game seen of each pair whose other game is not.
    first_of_pair: HashMap<u64, u8>,
}

impl Tally {
    /// Counts game `round` (from 1) with A's half points, `None` for no contest.
    pub fn add(&mut self, round: u64, points: Option<u8>) {
        let Some(points) = points else {
            self.totals.no_contest += 1;
            return;
        };
        self.totals.add(points);
        let pair = (round - 1) / 2;
        match self.first_of_pair.remove(&pair) {
            Some(first) => self.totals.pairs[usize::from(first + points)] += 1,
            None => {
                self.first_of_pair.insert(pair, points);
            }
        }
    }

    /// The tally of a match's records, as the match counted them (engine A is South in odd
    /// rounds).
    pub fn of_records<'a>(records: impl IntoIterator<Item = &'a GameRecord>) -> Tally {
        let mut tally = Tally::default();
        for r in records {
            tally.add(r.round, r.result.half_points(r.round % 2 == 1));
            if let Some(side) = r.forfeited() {
                tally.forfeit((side == Side::South) == (r.round % 2 == 1));
            }
        }
        tally
    }

    /// Counts a forfeit by engine A (`true`) or B.
    pub fn forfeit(&mut self, by_a: bool) {
        self.totals.forfeits[usize::from(!by_a)] += 1;
    }

    /// The verdict of an SPRT on the pairs counted ([`Verdict::Continue`] before the first).
    pub fn sprt_verdict(&self, s: &Sprt) -> Verdict {
        let pairs = &self.totals.pairs;
        if pairs.iter().sum::<u64>() == 0 {
            return Verdict::Continue;
        }
        s.verdict(s.llr(pairs))
    }

    /// Whether an SPRT on the pairs counted has decided.
    pub fn sprt_decided(&self, s: &Sprt) -> bool {
        self.sprt_verdict(s) != Verdict::Continue
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
    /// A's score in half points, or `None` for no contest.
    pub fn half_points(&self) -> Option<u8> {
        if !self.record.is_contest() {
            return None;
        }
        let a = if self.a_south {
            Side::South
        } else {
            Side::North
        };
        Some(match self.record.winner {
            Some(w) if w == a => 2,
            None => 1,
            Some(_) => 0,
        })
    }
}

/// A log file of game `stem` (`.log` or `.stderr`), if logging.
fn open_log(logs: Option<&(&Path, String)>, ext: &str) -> Result<Option<std::fs::File>, String> {
    match logs {
        Some((dir, stem)) => process::open_log(&dir.join(format!("{stem}.{ext}")))
            .map(Some)
            .map_err(|e| format!("log file: {e}")),
        None => Ok(None),
    }
}

/// Starts an engine and does the handshake ([`shake`]). With a log directory, its stderr and
/// protocol exchange go to files named by the stem given.
fn ready(
    spec: &Spec,
    variant: Variant,
    stall: Duration,
    logs: Option<&(&Path, String)>,
) -> Result<Process, String> {
    let logs = Logs {
        stderr: open_log(logs, "stderr")?,
        log: open_log(logs, "log")?,
    };
    match shake(spec, variant, stall, logs) {
        Ok(p) => Ok(p),
        Err(r) if r.step == Step::Start => Err(r.to_string()),
        Err(r) => Err(format!("at the handshake: {r}")),
    }
}

/// [`handshake::start`] with the match's variant: `UCI_Variant`, but for oware, every
/// engine's default.
fn shake(spec: &Spec, variant: Variant, stall: Duration, logs: Logs) -> Result<Process, Refusal> {
    let name = variant.to_string();
    let settings: &[(&str, &str)] = match variant {
        Variant::Oware => &[],
        _ => &[("UCI_Variant", &name)],
    };
    handshake::start(spec, settings, stall, logs).map(|(p, _)| p)
}

/// Every engine of `engines` started and shaken hands with once, before any game: one that
/// fails would lose every game of its matches, and a match of forfeits says nothing. The
/// first to fail, in the order given, is named with why; each is ended at once. They are
/// tried `at_once` at a time.
pub fn handshake_all(
    engines: &[Contestant],
    variant: Variant,
    stall: Duration,
    at_once: usize,
) -> Result<(), String> {
    for group in engines.chunks(at_once.max(1)) {
        let verdicts: Vec<Result<(), String>> = std::thread::scope(|scope| {
            let tries: Vec<_> = group
                .iter()
                .map(|e| {
                    scope.spawn(move || {
                        shake(&e.spec, variant, stall, Logs::default())
                            .map(|mut p| {
                                p.end(Duration::from_millis(500));
                            })
                            .map_err(|r| r.to_string())
                    })
                })
                .collect();
            tries
                .into_iter()
                .map(|t| {
                    t.join()
                        .unwrap_or_else(|_| Err("its start panicked".into()))
                })
                .collect()
        });
        crate::sys::subreaper::sweep();
        for (e, verdict) in group.iter().zip(verdicts) {
            verdict.map_err(|why| format!("engine {} failed its handshake: {why}", e.spec.name))?;
        }
    }
    Ok(())
}

/// A kept engine process for game `round`, or a fresh one: the kept one is used if it is
/// still there (its output has not ended) and the match keeps engines.
fn seat(
    kept: &mut Option<Process>,
    config: &Config,
    spec: &Spec,
    logs: Option<&(&Path, String)>,
) -> Result<Process, String> {
    if let Some(mut p) = kept.take() {
        if config.restart == Restart::Auto && p.drain().is_ok() {
            p.set_logs(open_log(logs, "stderr")?, open_log(logs, "log")?);
            return Ok(p);
        }
        p.end(Duration::from_millis(200));
    }
    ready(spec, config.variant, config.stall, logs)
}

/// Plays game `round` (from 1) with the thread's kept engines (`kept[0]` is A's, `kept[1]`
/// B's), which it replaces as needed and hands back for the next game.
fn one_game(config: &Config, round: u64, kept: &mut [Option<Process>; 2]) -> Finished {
    let a_south = round % 2 == 1;
    let opening = config.opening(round);
    let setup_for = |south: &Contestant, north: &Contestant| Setup {
        start: opening.start,
        opening: opening.moves.clone(),
        limits: [south.limit, north.limit],
        margin: config.margin,
        max_plies: config.max_plies,
        scoring: config.scoring,
        stall: config.stall,
    };
    // Seats by side: South's engine index (0 = A) first.
    let order = if a_south { [0, 1] } else { [1, 0] };
    let setup = setup_for(&config.engines[order[0]], &config.engines[order[1]]);
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
    let mut started: [Result<Process, String>; 2] = ["south", "north"].map(|_| Err(String::new()));
    for (s, side) in ["south", "north"].into_iter().enumerate() {
        let e = order[s];
        let spec = &config.engines[e].spec;
        started[s] = seat(&mut kept[e], config, spec, logs(side, spec).as_ref());
    }
    let grace = Duration::from_millis(500);
    let record = match started {
        [Ok(mut s), Ok(mut n)] => {
            let record = play([&mut s, &mut n], &setup);
            for (side, mut p) in [(Side::South, s), (Side::North, n)] {
                let e = order[side.index()];
                if config.restart == Restart::Always || record.forfeited() == Some(side) {
                    p.end(grace);
                } else {
                    kept[e] = Some(p);
                }
            }
            record
        }
        [Err(s), Err(n)] => Record::no_contest(
            setup.start,
            setup.opening.clone(),
            format!("neither engine started (South: {s}; North: {n})"),
        ),
        [s, n] => {
            // One could not start: it loses; the other behaved and is kept.
            let (side, reason, other) = match (s, n) {
                (Err(e), Ok(p)) => (Side::South, e, p),
                (Ok(p), Err(e)) => (Side::North, e, p),
                _ => unreachable!("one started"),
            };
            let mut other = other;
            if config.restart == Restart::Always {
                other.end(grace);
            } else {
                kept[order[side.opponent().index()]] = Some(other);
            }
            Record {
                start: setup.start,
                opening: setup.opening.clone(),
                moves: Vec::new(),
                winner: Some(side.opponent()),
                stores: setup.start.stores(),
                termination: crate::record::Termination::Forfeit { side, reason },
            }
        }
    };
    // Whatever an engine started and left behind ends with the game.
    crate::sys::subreaper::sweep();
    Finished {
        round,
        a_south,
        record,
    }
}

/// One of the match's threads: takes the next round not yet played (and owned by this shard),
/// plays it and hands it to the main thread, until the rounds run out or `stop` is set. With
/// an SPRT it waits for each game to be counted before its next, so that once the SPRT has
/// decided no thread starts another (each finishes only the game it is playing).
fn player(
    config: &Config,
    next: &AtomicU64,
    stop: &AtomicBool,
    done: &HashMap<u64, Option<u8>>,
    tx: Sender<(Finished, Sender<()>)>,
) {
    let mut kept: [Option<Process>; 2] = [None, None];
    while !stop.load(Ordering::Acquire) {
        let round = next.fetch_add(1, Ordering::AcqRel);
        if round > config.total_games() {
            break;
        }
        if done.contains_key(&round) || !config.shard.owns(round) {
            continue;
        }
        let (counted, wait) = bounded(1);
        if tx
            .send((one_game(config, round, &mut kept), counted))
            .is_err()
        {
            break;
        }
        if config.sprt.is_some() {
            // Ends when the main thread drops its end, after the SPRT check.
            let _ = wait.recv();
        }
    }
    for p in kept.iter_mut().flatten() {
        p.end(Duration::from_millis(500));
    }
    crate::sys::subreaper::sweep();
}

/// The record of a finished game, with the match's names, event and time controls.
fn game_record(config: &Config, names: [&str; 2], finished: &Finished) -> GameRecord {
    let (south, north) = if finished.a_south {
        (names[0], names[1])
    } else {
        (names[1], names[0])
    };
    let meta = Meta {
        event: &config.event,
        date: &config.date,
        round: finished.round,
        south,
        north,
        time_control: config.time_controls(finished.round),
    };
    let mut record = GameRecord::new(&meta, &finished.record);
    record.sprt = config.sprt.map(Into::into);
    record
}

/// Writes a game's record to the match's files. The JSON line goes first: it is the game's
/// record, from which `--resume` makes the PGN again if a kill comes between the two.
fn write_record(
    record: &GameRecord,
    json: Option<&mut Sink>,
    pgn: Option<&mut Sink>,
) -> Result<(), String> {
    let texts = json
        .map(|sink| (sink, record.json() + "\n"))
        .into_iter()
        .chain(pgn.map(|sink| (sink, record.pgn())));
    for (sink, text) in texts {
        sink.write(&text)
            .map_err(|e| format!("cannot write to {}: {e}", sink.path().display()))?;
    }
    Ok(())
}

/// Output files and what was already played (for `--resume`).
pub struct Output<'a> {
    /// PGN file.
    pub pgn: Option<Sink>,
    /// JSON lines file.
    pub json: Option<Sink>,
    /// Rounds already finished in an earlier run, with A's half points (`None`: no contest).
    pub done: HashMap<u64, Option<u8>>,
    /// Called once per finished game, its record written, with its record and the totals.
    pub progress: &'a mut dyn FnMut(&Finished, &GameRecord, &Totals),
    /// A shard's SPRT: called after each of its games (its record written), whether the SPRT
    /// over the records of every shard has decided. `None`: the match's own SPRT.
    pub union_sprt: Option<&'a mut dyn FnMut() -> bool>,
}

/// Runs the match; returns the totals (including games resumed from `output.done`). A record
/// that cannot be written stops the match with an error (the games under way finish first).
pub fn run(config: &Config, output: Output<'_>) -> Result<Totals, String> {
    let Output {
        mut pgn,
        mut json,
        done,
        progress,
        mut union_sprt,
    } = output;
    let mut tally = Tally::default();
    let mut rounds: Vec<_> = done.iter().collect();
    rounds.sort();
    for (&round, &points) in rounds {
        tally.add(round, points);
    }
    let next = AtomicU64::new(1);
    let stop = AtomicBool::new(false);
    let mut failed = None;
    // Each finished game goes with a way to tell its thread that the game has been counted:
    // with an SPRT a thread waits for that before its next game, so that once the SPRT has
    // decided no thread starts another (each finishes only the game it is playing).
    let (tx, rx) = unbounded::<(Finished, Sender<()>)>();
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1) {
            let tx = tx.clone();
            let (next, stop, done) = (&next, &stop, &done);
            scope.spawn(move || player(config, next, stop, done, tx));
        }
        drop(tx);
        let names = config.engines.each_ref().map(|e| e.spec.name.as_str());
        for (finished, _counted) in &rx {
            // Once an interrupt is being handled its thread is killing the engines and will
            // end the process: a game that ends now ended by that kill (or could not start),
            // which is no result. It is not recorded, so that `--resume` plays it again.
            if crate::sys::registry::interrupted() {
                stop.store(true, Ordering::Release);
                break;
            }
            let record = game_record(config, names, &finished);
            let written = write_record(&record, json.as_mut(), pgn.as_mut());
            if let Err(e) = written {
                failed = Some(e);
                stop.store(true, Ordering::Release);
                break;
            }
            tally.add(finished.round, finished.half_points());
            if let Some(side) = finished.record.forfeited() {
                tally.forfeit((side == Side::South) == finished.a_south);
            }
            progress(&finished, &record, &tally.totals);
            if let Some(s) = &config.sprt {
                // A shard's SPRT is the one over every shard's games, never its own alone.
                let decided = match &mut union_sprt {
                    Some(decided) => decided(),
                    None => tally.sprt_decided(s),
                };
                if decided {
                    stop.store(true, Ordering::Release);
                }
            }
        }
        // The threads finish the games they are playing; their results are not recorded.
        drop(rx);
    });
    match failed {
        Some(e) => Err(e),
        None => Ok(tally.totals),
    }
}
