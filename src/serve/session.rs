//! One page's game: the rules' [`Game`], who sits on each side, what the page was last told
//! (a numbered list of events, read as server-sent events), and the thread that runs the
//! session's engines. A change of the game bumps its generation: an engine's search of an
//! older position is stopped and its move discarded.

use super::engine::{self, Engine, Kind};
use super::info::{self, Line};
use super::trace::{self, Shown};
use super::view::{self, BoardView, Illegal};
use crate::rules::{Board, Game, Move, Side, Variant};
use serde::Serialize;
use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Events kept for a page that reconnects; older ones are dropped (each state event is whole).
const KEPT_EVENTS: usize = 200;

/// Who plays a side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// The person at the page.
    Human,
    /// An engine of this kind (an index into the server's kinds).
    Engine(usize),
}

/// The last move and how to show it.
#[derive(Clone, Debug, Serialize)]
pub struct LastMove {
    /// Its letter.
    pub mv: char,
    /// Who played it: `S` or `N`.
    pub side: char,
    /// The position before it.
    pub before: BoardView,
    /// Its sowing and captures.
    pub shown: Shown,
    /// The mover moves again (ahl's bonus, kalah's extra move).
    pub again: bool,
}

/// A review of the game: the engine's score of every position, and each move that lost seeds
/// against the engine's best.
#[derive(Clone, Debug, Serialize)]
pub struct Review {
    /// The generation reviewed.
    pub generation: u64,
    /// Milliseconds per position.
    pub ms: u64,
    /// The positions scored so far (South's view, seeds): one per ply, then the end.
    pub evals: Vec<f64>,
    /// The moves judged so far.
    pub moves: Vec<Judged>,
    /// Whether every position is scored.
    pub done: bool,
}

/// One move of a review.
#[derive(Clone, Debug, Serialize)]
pub struct Judged {
    /// Its ply, from 1.
    pub ply: usize,
    /// The move.
    pub mv: char,
    /// The engine's best move there.
    pub best: Option<char>,
    /// Seeds it lost against the best (its mover's view).
    pub loss: f64,
    /// `inaccuracy` (a seed or more), `mistake` (2), `blunder` (4), or none.
    pub mark: Option<&'static str>,
}

/// A score in seeds from South's view; a forced win counts as 50 seeds.
fn seeds(score: view::Score) -> f64 {
    match score {
        view::Score::Cp(n) => f64::from(n) / 100.0,
        view::Score::Mate(n) => 50.0f64.copysign(f64::from(n)),
    }
}

/// What a move lost: `before` and `after` are South's view; the mover's view decides.
fn judge(ply: usize, mv: Move, best: Option<char>, before: f64, after: f64) -> Judged {
    let sign = if mv.side() == Side::South { 1.0 } else { -1.0 };
    let loss = if best == Some(mv.to_char()) {
        0.0
    } else {
        ((before - after) * sign).max(0.0)
    };
    let mark = if loss >= 4.0 {
        Some("blunder")
    } else if loss >= 2.0 {
        Some("mistake")
    } else if loss >= 1.0 {
        Some("inaccuracy")
    } else {
        None
    };
    Judged {
        ply,
        mv: mv.to_char(),
        best,
        loss: (loss * 100.0).round() / 100.0,
        mark,
    }
}

/// A session's state, behind its lock.
pub struct State {
    /// The game.
    pub game: Game,
    /// South's seat, North's.
    pub seats: [Seat; 2],
    /// Bumped on every change of the game or the seats.
    pub generation: u64,
    /// Bumped on every new game (engines are told `ucinewgame`).
    pub game_number: u64,
    /// The last move, when the game has one.
    pub last: Option<LastMove>,
    /// An engine's failure, which stops play until a new game or a take-back.
    pub error: Option<String>,
    /// The side whose engine is thinking.
    pub thinking: Option<Side>,
    /// Whether the analysis runs.
    pub analyse: bool,
    /// The generation a hint was asked for.
    pub hint: Option<u64>,
    /// The analysis lines of this generation, by `multipv`.
    pub lines: Vec<Line>,
    /// What the endgame tables say of this generation's position (the analysis engine's
    /// `info string tables: ...` lines), when it is within their reach.
    pub tables: Vec<String>,
    /// How many analysis lines the page asked for (1 to [`engine::MAX_LINES`]).
    pub lines_wanted: u32,
    /// The most lines the analysis engine gives (its `MultiPV` option's max; 1 without
    /// one), once it has started.
    pub lines_max: Option<u32>,
    /// The review of the game, asked for or done.
    pub review: Option<Review>,
    /// Set when the session ends: its thread ends its engines and stops.
    pub closed: bool,
    /// The last request or open event stream.
    pub seen: Instant,
    /// Event streams open now.
    pub streams: usize,
    /// The session's id.
    pub id: String,
    events: VecDeque<(u64, String)>,
    next_event: u64,
}

/// A session.
pub struct Session {
    /// Its state.
    pub state: Mutex<State>,
    /// Told of every change (the engine thread and the event streams wait on it).
    pub changed: Condvar,
}

/// What a page asks for to start a game.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// The start position.
    pub start: Board,
    /// South's seat, North's.
    pub seats: [Seat; 2],
}

impl Session {
    /// A session for `new`; its engine thread runs the `kinds`.
    pub fn start(new: NewGame, kinds: Arc<Vec<Kind>>, analyst: Kind) -> Arc<Session> {
        let session = Arc::new(Session {
            state: Mutex::new(State {
                game: Game::new(new.start),
                seats: new.seats,
                generation: 0,
                game_number: 0,
                last: None,
                error: None,
                thinking: None,
                analyse: false,
                hint: None,
                lines: Vec::new(),
                tables: Vec::new(),
                lines_wanted: 1,
                lines_max: None,
                review: None,
                closed: false,
                seen: Instant::now(),
                streams: 0,
                id: String::new(),
                events: VecDeque::new(),
                next_event: 1,
            }),
            changed: Condvar::new(),
        });
        session.lock().publish_state(&kinds);
        let s = Arc::clone(&session);
        let spawned = std::thread::Builder::new()
            .name("serve-session".to_string())
            .spawn(move || drive(&s, &kinds, &analyst));
        if spawned.is_err() {
            session.lock().error = Some("could not start the session's thread".to_string());
        }
        session
    }

    /// The state, locked (a panic elsewhere does not lock the page out).
    pub fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Ends the session: its thread ends its engines.
    pub fn close(&self) {
        self.lock().closed = true;
        self.changed.notify_all();
    }
}

/// The state as the page sees it.
#[derive(Serialize)]
struct StateView<'a> {
    generation: u64,
    variant: &'static str,
    board: BoardView,
    start: String,
    moves: String,
    legal: String,
    illegal: Vec<Illegal>,
    human: [bool; 2],
    players: [String; 2],
    over: Option<Over>,
    last: Option<&'a LastMove>,
    error: Option<&'a str>,
    thinking: Option<char>,
    analyse: bool,
    tables: &'a [String],
    lines_wanted: u32,
    lines_max: Option<u32>,
    can_take_back: bool,
    review: Option<&'a Review>,
}

/// How the game ended.
#[derive(Serialize)]
struct Over {
    text: String,
    reason: &'static str,
    winner: Option<char>,
    stores: [u8; 2],
}

impl State {
    /// Adds an event (`kind`, JSON `data`) and returns its number.
    pub fn push(&mut self, kind: &str, data: String) -> u64 {
        let n = self.next_event;
        self.next_event += 1;
        self.events
            .push_back((n, format!("event: {kind}\nid: {n}\ndata: {data}\n\n")));
        while self.events.len() > KEPT_EVENTS {
            self.events.pop_front();
        }
        n
    }

    /// The events after `after`, as server-sent event text, and the last one's number. One
    /// that fell behind the kept events, or names one not yet sent (a `Last-Event-ID` from
    /// elsewhere), gets the current state first.
    pub fn events_after(&self, after: u64) -> (String, u64) {
        let mut text = String::new();
        let mut last = after;
        let oldest = self.events.front().map_or(u64::MAX, |e| e.0);
        if after.saturating_add(1) < oldest || after >= self.next_event {
            // Too far behind: the latest state event is enough to start again.
            if let Some((n, e)) = self
                .events
                .iter()
                .rev()
                .find(|(_, e)| e.starts_with("event: state"))
            {
                text.push_str(e);
                last = *n;
            }
        }
        for (n, e) in &self.events {
            if *n > last {
                text.push_str(e);
                last = *n;
            }
        }
        (text, last)
    }

    /// The number of the latest state event (0 before the first).
    pub fn state_event(&self) -> u64 {
        self.events
            .iter()
            .rev()
            .find(|(_, e)| e.starts_with("event: state"))
            .map_or(0, |e| e.0)
    }

    /// The state as JSON.
    pub fn json(&self, kinds: &[Kind]) -> String {
        let board = self.game.board();
        let (legal, illegal) = view::moves(&self.game);
        let name = |seat: &Seat| match seat {
            Seat::Human => "you".to_string(),
            Seat::Engine(k) => kinds
                .get(*k)
                .map_or("engine".to_string(), |k| k.label.clone()),
        };
        let over = self.game.outcome().map(|o| Over {
            text: o.to_string(),
            reason: o.reason.name(),
            winner: o.winner.map(Side::letter),
            stores: o.stores,
        });
        let human = [self.seats[0] == Seat::Human, self.seats[1] == Seat::Human];
        let view = StateView {
            generation: self.generation,
            variant: board.variant().name(),
            board: BoardView::of(board),
            start: self.game.start().to_string(),
            moves: crate::rules::format_move_list(self.game.moves()),
            legal: if human[board.side_to_move().index()] && self.error.is_none() {
                legal
            } else {
                String::new()
            },
            illegal,
            human,
            players: [name(&self.seats[0]), name(&self.seats[1])],
            over,
            last: self.last.as_ref(),
            error: self.error.as_deref(),
            thinking: self.thinking.map(Side::letter),
            analyse: self.analyse,
            tables: &self.tables,
            lines_wanted: self.lines_wanted,
            lines_max: self.lines_max,
            can_take_back: !self.game.moves().is_empty(),
            review: self.review.as_ref(),
        };
        serde_json::to_string(&view).unwrap_or_else(|_| "{}".to_string())
    }

    /// Sends the state to the page.
    pub fn publish_state(&mut self, kinds: &[Kind]) {
        let json = self.json(kinds);
        self.push("state", json);
    }

    /// Plays `m`, checked by the rules; the game changes generation.
    pub fn play(&mut self, m: Move) -> Result<(), String> {
        let before = *self.game.board();
        self.game.play(m).map_err(|e| e.to_string())?;
        let after = self.game.board();
        self.last = Some(LastMove {
            mv: m.to_char(),
            side: before.side_to_move().letter(),
            before: BoardView::of(&before),
            shown: trace::trace(&before, m.house(), after),
            again: after.side_to_move() == before.side_to_move() && self.game.outcome().is_none(),
        });
        self.changed_game();
        Ok(())
    }

    /// Takes moves back: to the last position where a person is to move (one move when
    /// engines play both sides). Returns whether anything was taken back.
    pub fn take_back(&mut self) -> bool {
        if self.game.undo().is_none() {
            return false;
        }
        if self.seats.contains(&Seat::Human) {
            while !self.human_to_move() && self.game.undo().is_some() {}
        }
        self.last = None;
        self.error = None;
        self.changed_game();
        true
    }

    /// Starts a new game.
    pub fn new_game(&mut self, new: NewGame) {
        self.game = Game::new(new.start);
        self.seats = new.seats;
        self.last = None;
        self.error = None;
        self.game_number += 1;
        self.changed_game();
    }

    /// The game as the referee records one: its JSON line's record, from which its PGN is
    /// made too. An unfinished game has the result `*`.
    pub fn record(&self, kinds: &[Kind]) -> crate::record::GameRecord {
        use crate::record::{today, GameRecord, Meta};
        use crate::record::{Played, Record, Termination};
        let outcome = self.game.outcome();
        let record = Record {
            start: *self.game.start(),
            opening: Vec::new(),
            moves: self
                .game
                .moves()
                .iter()
                .map(|&mv| Played {
                    mv,
                    score: None,
                    depth: None,
                    time: Duration::ZERO,
                })
                .collect(),
            winner: outcome.and_then(|o| o.winner),
            stores: outcome.map_or(self.game.board().stores(), |o| o.stores),
            termination: match outcome {
                Some(o) => Termination::Rules(o.reason),
                None => Termination::NoContest("unfinished".to_string()),
            },
        };
        let name = |seat: &Seat| match seat {
            Seat::Human => ("a person".to_string(), "-".to_string()),
            Seat::Engine(k) => kinds
                .get(*k)
                .map_or(("engine".to_string(), "-".to_string()), |k| {
                    (k.label.clone(), k.limit.tag())
                }),
        };
        let (south, south_tc) = name(&self.seats[0]);
        let (north, north_tc) = name(&self.seats[1]);
        let date = today();
        GameRecord::new(
            &Meta {
                event: "awari serve",
                date: &date,
                round: 1,
                south: &south,
                north: &north,
                time_control: [south_tc, north_tc],
            },
            &record,
        )
    }

    /// Asks for a review of the game, `ms` milliseconds a position.
    pub fn ask_review(&mut self, ms: u64) {
        self.review = Some(Review {
            generation: self.generation,
            ms,
            evals: Vec::new(),
            moves: Vec::new(),
            done: false,
        });
    }

    /// Whether a person is to move (and may).
    pub fn human_to_move(&self) -> bool {
        self.seats[self.game.board().side_to_move().index()] == Seat::Human
    }

    fn changed_game(&mut self) {
        self.generation += 1;
        self.lines.clear();
        self.tables.clear();
        self.review = None;
        self.thinking = None;
    }
}

/// The variant of a board, for engines.
fn variant(game: &Game) -> Variant {
    game.board().variant()
}

/// What the engine thread does next.
enum Job {
    /// The engine of this side, of this kind, moves in this game.
    Move(Side, usize, Game, u64, u64),
    /// The analyst searches this game's position until it changes (or a hint: for a second).
    Analyse(Game, u64, u64, bool),
    /// The analyst scores every position of this game, this many ms each.
    Review(Game, u64, u64, u64),
    /// The session is over.
    Quit,
}

/// The session's engine thread: it moves for the engines' sides, analyses and gives hints,
/// and ends every engine it started when the session closes.
fn drive(session: &Session, kinds: &[Kind], analyst_kind: &Kind) {
    let mut seats: [Option<Engine>; 2] = [None, None];
    let mut analyst: Option<Engine> = None;
    // The generations already analysed and hinted, so each is done once.
    let mut analysed = None;
    let mut hinted = None;
    let mut reviewed = None;
    loop {
        let job = {
            let mut st = session.lock();
            loop {
                if st.closed {
                    break Job::Quit;
                }
                let side = st.game.board().side_to_move();
                let playing = st.error.is_none() && st.game.outcome().is_none();
                if let (true, Seat::Engine(k)) = (playing, &st.seats[side.index()]) {
                    break Job::Move(side, *k, st.game.clone(), st.generation, st.game_number);
                }
                let g = st.generation;
                if st.hint == Some(g) && hinted != Some(g) && st.game.outcome().is_none() {
                    hinted = Some(g);
                    break Job::Analyse(st.game.clone(), g, st.game_number, true);
                }
                if let Some(r) = st.review.as_ref().filter(|r| r.generation == g && !r.done) {
                    if reviewed != Some(g) {
                        reviewed = Some(g);
                        break Job::Review(st.game.clone(), g, st.game_number, r.ms);
                    }
                }
                if st.analyse && analysed != Some(g) && st.game.outcome().is_none() {
                    analysed = Some(g);
                    break Job::Analyse(st.game.clone(), g, st.game_number, false);
                }
                // Engines of seats given up are ended.
                for side in Side::BOTH {
                    let wanted = match &st.seats[side.index()] {
                        Seat::Engine(k) => kinds.get(*k).map(|k| k.id.as_str()),
                        Seat::Human => None,
                    };
                    if seats[side.index()].as_ref().map(|e| e.kind.as_str()) != wanted {
                        seats[side.index()] = None;
                    }
                }
                st = session
                    .changed
                    .wait_timeout(st, Duration::from_secs(1))
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
            }
        };
        match job {
            Job::Quit => break,
            Job::Move(side, k, game, generation, number) => {
                let kind = &kinds[k];
                let slot = &mut seats[side.index()];
                if slot.as_ref().is_some_and(|e| e.kind != kind.id) {
                    *slot = None;
                }
                let result = ready(slot, kind, number, variant(&game)).and_then(|engine| {
                    set_thinking(session, generation, Some(side));
                    let (go, within) = engine::go(&kind.limit);
                    let mut lines = |line: &str| {
                        if let Some(l) = info::parse(line, &game) {
                            publish_line(session, generation, side, l, false);
                        }
                    };
                    let stop = || {
                        let st = session.lock();
                        st.closed || st.generation != generation
                    };
                    engine
                        .search(&game, &go, within, &mut lines, &stop)
                        .map_err(|f| format!("{} {f}", kind.label))
                });
                let mut st = session.lock();
                if st.generation != generation {
                    continue;
                }
                let played = match result {
                    Ok(Some(text)) => match crate::rules::parse_move_list(&text) {
                        Ok(moves) if moves.len() == 1 => st
                            .play(moves[0])
                            .map_err(|e| format!("{} played {e}", kind.label)),
                        _ => Err(format!("{} answered with `bestmove {text}`", kind.label)),
                    },
                    Ok(None) => Ok(()),
                    Err(e) => Err(e),
                };
                if let Err(e) = played {
                    st.error = Some(format!("{}'s engine: {e}", side.name()));
                    seats[side.index()] = None;
                }
                st.thinking = None;
                st.publish_state(kinds);
                session.changed.notify_all();
            }
            Job::Analyse(game, generation, number, hint) => {
                let wanted = session.lock().lines_wanted;
                let result =
                    ready(&mut analyst, analyst_kind, number, variant(&game)).and_then(|engine| {
                        note_lines_max(session, kinds, engine.multipv);
                        let count = if hint { 1 } else { wanted.min(engine.multipv) };
                        if engine.multipv > 0 {
                            engine
                                .set_option("MultiPV", &count.to_string())
                                .map_err(|f| format!("the analysis engine {f}"))?;
                        }
                        let go = if hint {
                            "go movetime 1000"
                        } else {
                            "go infinite"
                        };
                        let side = game.board().side_to_move();
                        let mut lines = |line: &str| {
                            if let Some(l) = info::parse(line, &game) {
                                publish_line(session, generation, side, l, true);
                            } else if let Some(t) = line.strip_prefix("info string tables: ") {
                                publish_tables(session, kinds, generation, t);
                            }
                        };
                        let stop = || {
                            let st = session.lock();
                            st.closed
                                || st.generation != generation
                                || (!hint && !st.analyse)
                                || (!hint && st.lines_wanted != wanted)
                                || (!hint
                                    && st.hint == Some(generation)
                                    && hinted != Some(generation))
                                || (hint && st.hint != Some(generation))
                        };
                        let within = if hint {
                            Duration::from_secs(6)
                        } else {
                            Duration::from_secs(86_400)
                        };
                        engine
                            .search(&game, go, within, &mut lines, &stop)
                            .map_err(|f| format!("the analysis engine {f}"))
                    });
                let mut st = session.lock();
                if !hint && st.generation == generation && st.analyse {
                    // Stopped for a hint: it goes on after it.
                    analysed = None;
                }
                match result {
                    Ok(Some(best)) if hint && st.generation == generation => {
                        let data = serde_json::json!({ "generation": generation, "move": best });
                        st.push("hint", data.to_string());
                    }
                    Ok(_) => {}
                    Err(e) => {
                        analyst = None;
                        st.analyse = false;
                        st.push("notice", serde_json::json!({ "text": e }).to_string());
                    }
                }
                session.changed.notify_all();
            }
            Job::Review(game, generation, number, ms) => {
                if let Err(e) = review(
                    session,
                    &mut analyst,
                    analyst_kind,
                    &game,
                    generation,
                    number,
                    ms,
                ) {
                    analyst = None;
                    let mut st = session.lock();
                    st.push("notice", serde_json::json!({ "text": e }).to_string());
                    session.changed.notify_all();
                }
            }
        }
    }
    // Dropping them ends them.
    drop(seats);
    drop(analyst);
}

/// The engine in `slot`, started as `kind` if there is none, told of game `number`.
fn ready<'a>(
    slot: &'a mut Option<Engine>,
    kind: &Kind,
    number: u64,
    variant: Variant,
) -> Result<&'a mut Engine, String> {
    if slot.is_none() {
        *slot = Some(Engine::start(kind)?);
    }
    let engine = slot.as_mut().expect("started above");
    if let Err(f) = engine.new_game(number, variant) {
        *slot = None;
        return Err(format!("{} {f}", kind.label));
    }
    Ok(slot.as_mut().expect("kept"))
}

/// Lines of the tables at most, and characters a line.
const TABLES_LINES: usize = 4;
const TABLES_CHARS: usize = 300;

/// What the endgame tables say of the position, to the page (once each).
fn publish_tables(session: &Session, kinds: &[Kind], generation: u64, text: &str) {
    let mut st = session.lock();
    let text: String = text.chars().take(TABLES_CHARS).collect();
    if st.generation != generation || st.tables.len() >= TABLES_LINES || st.tables.contains(&text) {
        return;
    }
    st.tables.push(text);
    st.publish_state(kinds);
    session.changed.notify_all();
}

/// Tells the page how many lines the analysis engine gives, when it first knows.
fn note_lines_max(session: &Session, kinds: &[Kind], max: u32) {
    let mut st = session.lock();
    if st.lines_max != Some(max.max(1)) {
        st.lines_max = Some(max.max(1));
        st.publish_state(kinds);
        session.changed.notify_all();
    }
}

fn set_thinking(session: &Session, generation: u64, side: Option<Side>) {
    let mut st = session.lock();
    if st.generation == generation {
        st.thinking = side;
        let data = serde_json::json!({ "generation": generation, "side": side.map(Side::letter) });
        st.push("thinking", data.to_string());
        session.changed.notify_all();
    }
}

/// An analysis line (or an engine's thinking while it plays) to the page.
fn publish_line(session: &Session, generation: u64, side: Side, line: Line, analysis: bool) {
    let mut st = session.lock();
    if st.generation != generation {
        return;
    }
    if analysis {
        match st.lines.iter_mut().find(|l| l.multipv == line.multipv) {
            Some(l) => *l = line.clone(),
            None => {
                st.lines.push(line.clone());
                st.lines.sort_by_key(|l| l.multipv);
            }
        }
    }
    let data = serde_json::json!({
        "generation": generation,
        "side": side.letter(),
        "analysis": analysis,
        "line": line,
    });
    st.push("info", data.to_string());
    session.changed.notify_all();
}

/// Reviews `game` with the analyst, `ms` a position, publishing each judged move.
fn review(
    session: &Session,
    analyst: &mut Option<Engine>,
    kind: &Kind,
    game: &Game,
    generation: u64,
    number: u64,
    ms: u64,
) -> Result<(), String> {
    let engine = ready(analyst, kind, number, variant(game))?;
    if engine.multipv > 0 {
        engine
            .set_option("MultiPV", "1")
            .map_err(|f| format!("the review's engine {f}"))?;
    }
    let moves = game.moves().to_vec();
    let mut position = Game::new(*game.start());
    let mut before: Option<(f64, Option<char>)> = None;
    for ply in 0..=moves.len() {
        let stale = || {
            let st = session.lock();
            st.closed || st.generation != generation
        };
        if stale() {
            return Ok(());
        }
        let eval = match position.outcome() {
            Some(o) => (f64::from(o.stores[0]) - f64::from(o.stores[1]), None),
            None => {
                let mut last: Option<Line> = None;
                let mut lines = |line: &str| {
                    if let Some(l) = info::parse(line, &position) {
                        if l.multipv == 1 {
                            last = Some(l);
                        }
                    }
                };
                let best = engine
                    .search(
                        &position,
                        &format!("go movetime {ms}"),
                        Duration::from_millis(ms) + Duration::from_secs(5),
                        &mut lines,
                        &stale,
                    )
                    .map_err(|f| format!("the review's engine {f}"))?;
                let Some(best) = best else { return Ok(()) };
                let score = last.map_or(0.0, |l| seeds(l.score));
                (score, best.chars().next())
            }
        };
        let mut st = session.lock();
        if st.generation != generation {
            return Ok(());
        }
        let Some(review) = st.review.as_mut() else {
            return Ok(());
        };
        review.evals.push(eval.0);
        let judged = before.map(|(b, best)| judge(ply, moves[ply - 1], best, b, eval.0));
        if let Some(j) = &judged {
            review.moves.push(j.clone());
        }
        review.done = ply == moves.len();
        let data = serde_json::json!({
            "generation": generation, "ply": ply, "eval": eval.0, "judged": judged,
            "done": review.done, "total": moves.len(),
        });
        st.push("review", data.to_string());
        session.changed.notify_all();
        drop(st);
        before = Some(eval);
        if let Some(&m) = moves.get(ply) {
            position.play(m).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}
