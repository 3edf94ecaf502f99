//! What runs a session's engines: it moves for the engines' seats, analyses and gives hints,
//! reviews the game, and ends every engine it started when the session closes. It reads and
//! writes the session's state under its lock, never holding it while an engine thinks.
//!
//! The driver decides; its host runs it. On a server ([`start`]) the host is a thread that
//! waits on the session between jobs, and the engines are child processes. In the page's
//! WebAssembly worker the host calls [`Driver::step`] between the page's messages, and the
//! engine is this program's search in the same process: each job there is bounded (a move, a
//! hint, one position of a review, one slice of the analysis), so that the page is answered
//! between two of them.

use super::info;
use super::kinds::Kind;
use super::pace::Gate;
use super::publish::{note_lines_max, publish_line, publish_tables, searching, set_thinking};
use super::reviewing::{Run, Scored};
use super::session::{Seat, Session, State};
use super::thinker::{Ended, Go, Thinker};
use crate::client::thinking;
use crate::record::Played;
use crate::rules::{format_move_list, Game, Move, Side, Variant};
use crate::said::Said;
use crate::search::instant::Instant;
use std::sync::Arc;
use std::time::Duration;

/// A session for `new`, with the thread that runs its `kinds` (and `analyst`) as child
/// processes.
#[cfg(feature = "native")]
pub fn start(new: super::session::NewGame, kinds: Arc<Vec<Kind>>, analyst: Kind) -> Arc<Session> {
    let session = Arc::new(Session::new(new, &kinds));
    let driver = Driver::<super::engine::Engine>::new(Arc::clone(&session), kinds, analyst);
    let spawned = std::thread::Builder::new()
        .name("serve-session".to_string())
        .spawn(move || driver.run_thread());
    if spawned.is_err() {
        session.lock().error = Some("could not start the session's thread".to_string());
    }
    session
}

/// The variant of a board, for engines.
fn variant(game: &Game) -> Variant {
    game.board().variant()
}

/// A job of the driver.
pub enum Job {
    /// The engine of this side, of this kind, moves in this game.
    Move(Side, usize, Game, u64, u64),
    /// The analyst searches this game's position until it changes (or a hint: for a second);
    /// the last field is the position viewed that it is (the moves to it; `None`: the game's
    /// position).
    Analyse(Game, u64, u64, bool, Option<Vec<Move>>),
    /// The analyst starts a review of this game, this many ms a position.
    Review(Game, u64, u64, u64),
    /// The analyst scores the next position of the review under way.
    ReviewNext,
}

/// What the driver has to do now.
pub enum Next {
    /// This job.
    Job(Job),
    /// Nothing until this long has passed (the pace), or the session changes.
    Wait(Duration),
    /// Nothing until the session changes.
    Idle,
    /// The session is over.
    Quit,
}

/// What [`Driver::step`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Poll {
    /// A job: call again (after the host's own events).
    Busy,
    /// Nothing to do for this long, unless the session changes first.
    Wait(Duration),
    /// Nothing to do until the session changes.
    Idle,
    /// The session is over.
    Quit,
}

/// The driver: its engines, and which jobs it has done.
pub struct Driver<T: Thinker> {
    session: Arc<Session>,
    kinds: Arc<Vec<Kind>>,
    analyst_kind: Kind,
    /// The engines playing South and North, started when first needed.
    seats: [Option<T>; 2],
    /// The engine that analyses, hints and reviews.
    analyst: Option<T>,
    /// The generation, position viewed and lines already analysed, so that each is searched
    /// once.
    analysed: Option<(u64, Option<Vec<Move>>, u32)>,
    /// The same for the hint.
    hinted: Option<(u64, Option<Vec<Move>>)>,
    /// The generation already reviewed.
    reviewed: Option<u64>,
    /// The review under way, a position a job.
    reviewing: Option<Run>,
    /// The analysis that returned after a slice of its work ([`Ended::Sliced`]): its status
    /// stays shown while it goes on, and is cleared when something else comes first.
    sliced: Option<(u64, Option<Vec<Move>>)>,
}

/// What an engine's turn to move asks of the driver.
enum Turn {
    /// Its move, now.
    Go(Job),
    /// Wait so long (the pace), then look again.
    Wait(Duration),
    /// Held by a pause: the other jobs may run meanwhile.
    Held,
    /// No engine is to move.
    None,
}

impl<T: Thinker> Driver<T> {
    /// A driver of `session`'s engines, of `kinds`, analysing with `analyst`.
    pub fn new(session: Arc<Session>, kinds: Arc<Vec<Kind>>, analyst: Kind) -> Driver<T> {
        Driver {
            session,
            kinds,
            analyst_kind: analyst,
            seats: [None, None],
            analyst: None,
            analysed: None,
            hinted: None,
            reviewed: None,
            reviewing: None,
            sliced: None,
        }
    }

    /// The session driven.
    pub fn session(&self) -> &Arc<Session> {
        &self.session
    }

    /// A thread's life: jobs until the session closes, waiting on the session (without its
    /// lock) between them. Dropping the driver at the end ends its engines.
    #[cfg(feature = "native")]
    fn run_thread(mut self) {
        let session = Arc::clone(&self.session);
        let mut st = session.lock();
        loop {
            let wait = match self.next(&mut st) {
                Next::Quit => break,
                Next::Job(job) => {
                    drop(st);
                    self.run(job);
                    st = session.lock();
                    continue;
                }
                Next::Wait(wait) => wait,
                Next::Idle => Duration::from_secs(1),
            };
            st = session
                .changed
                .wait_timeout(st, wait)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// One job, or what to wait for: for a host that runs the driver between its own events
    /// (each job is bounded where the engines are [`Ended::Sliced`] ones).
    pub fn step(&mut self) -> Poll {
        let next = {
            let session = Arc::clone(&self.session);
            let mut st = session.lock();
            self.next(&mut st)
        };
        match next {
            Next::Job(job) => {
                self.run(job);
                Poll::Busy
            }
            Next::Wait(wait) => Poll::Wait(wait),
            Next::Idle => Poll::Idle,
            Next::Quit => Poll::Quit,
        }
    }

    /// The next job, or what to wait for.
    fn next(&mut self, st: &mut State) -> Next {
        let next = self.choose(st);
        // An analysis that went on in slices and is not the next job has stopped: the page no
        // longer says it runs.
        if let Some(sliced) = self.sliced.take() {
            let same = matches!(&next, Next::Job(Job::Analyse(_, g, _, false, at))
                if *g == sliced.0 && *at == sliced.1);
            if same {
                self.sliced = Some(sliced);
            } else if st.analysing.is_some() {
                st.analysing = None;
                st.publish_state(&self.kinds);
                self.session.changed.notify_all();
            }
        }
        next
    }

    fn choose(&mut self, st: &mut State) -> Next {
        if st.closed {
            return Next::Quit;
        }
        // A review goes on to its end, a position a job, before anything else.
        if let Some(run) = &self.reviewing {
            if run.generation == st.generation {
                return Next::Job(Job::ReviewNext);
            }
            self.reviewing = None;
        }
        match self.engine_turn(st) {
            Turn::Go(job) => return Next::Job(job),
            Turn::Wait(wait) => return Next::Wait(wait),
            // Held by a pause, the engines leave the analysis and a review to run; the
            // analysis stops when they may move again.
            Turn::Held | Turn::None => {}
        }
        if let Some(job) = self.analyst_job(st) {
            return Next::Job(job);
        }
        self.end_seats_given_up(st);
        Next::Idle
    }

    /// Runs `job`.
    fn run(&mut self, job: Job) {
        match job {
            Job::Move(side, k, game, generation, number) => {
                self.play(side, k, &game, generation, number);
            }
            Job::Analyse(game, generation, number, hint, at) => {
                self.analyse(&game, generation, number, hint, at);
            }
            Job::Review(game, generation, number, ms) => {
                self.review(&game, generation, number, ms);
            }
            Job::ReviewNext => self.review_next(),
        }
    }

    /// Whether an engine is to move, and when (the pace, when engines play both sides: the
    /// page watches).
    fn engine_turn(&self, st: &mut State) -> Turn {
        let side = st.game.board().side_to_move();
        let playing = st.error.is_none() && st.game.outcome().is_none();
        let (true, Seat::Engine(k)) = (playing, &st.seats[side.index()]) else {
            return Turn::None;
        };
        let k = *k;
        let watching = !st.seats.contains(&Seat::Human);
        let was_held = st.pace.held;
        let since = st.changed_at;
        let turn = match st.pace.take(watching, since, Instant::now()) {
            Gate::Go => Turn::Go(Job::Move(
                side,
                k,
                st.game.clone(),
                st.generation,
                st.game_number,
            )),
            Gate::Wait(left) => Turn::Wait(left),
            Gate::Hold => Turn::Held,
        };
        if st.pace.held != was_held {
            st.publish_state(&self.kinds);
            self.session.changed.notify_all();
        }
        turn
    }

    /// The analyst's next job: a hint asked for, a review asked for, or the analysis of the
    /// position viewed, each once a generation (and position).
    fn analyst_job(&mut self, st: &State) -> Option<Job> {
        let g = st.generation;
        if let Some((_, at)) = st
            .hint
            .clone()
            .filter(|h| h.0 == g && self.hinted.as_ref() != Some(h))
        {
            let viewed = super::viewed::game_at(&st.game, at.as_deref());
            if viewed.outcome().is_none() {
                self.hinted = Some((g, at.clone()));
                return Some(Job::Analyse(viewed, g, st.game_number, true, at));
            }
        }
        if let Some(r) = st.review.as_ref().filter(|r| r.generation == g && !r.done) {
            if self.reviewed != Some(g) {
                self.reviewed = Some(g);
                return Some(Job::Review(st.game.clone(), g, st.game_number, r.ms));
            }
        }
        let at = st.analyse_at.clone();
        // No analysis for a page that has gone (its event stream closed, or `pagehide`): it
        // starts again when a page comes back.
        let done = self
            .analysed
            .as_ref()
            .is_some_and(|a| a.0 == g && a.1 == at && a.2 == st.lines_wanted);
        if !st.analyse || st.leaving.is_some() || done {
            return None;
        }
        let viewed = super::viewed::game_at(&st.game, at.as_deref());
        // A position that is over has nothing to search (what was searched before cleared its
        // status when it stopped).
        if viewed.outcome().is_some() {
            return None;
        }
        self.analysed = Some((g, at.clone(), st.lines_wanted));
        Some(Job::Analyse(viewed, g, st.game_number, false, at))
    }

    /// Ends the engines of seats given up.
    fn end_seats_given_up(&mut self, st: &State) {
        for side in Side::BOTH {
            let wanted = match &st.seats[side.index()] {
                Seat::Engine(k) => self.kinds.get(*k).map(|k| k.id.as_str()),
                Seat::Human => None,
            };
            if self.seats[side.index()].as_ref().map(T::kind) != wanted {
                self.seats[side.index()] = None;
            }
        }
    }

    /// The engine of kind `k` moves for `side` in `game`.
    fn play(&mut self, side: Side, k: usize, game: &Game, generation: u64, number: u64) {
        let (session, kinds) = (&*self.session, &*self.kinds);
        let kind = &kinds[k];
        let slot = &mut self.seats[side.index()];
        if slot.as_ref().is_some_and(|e| e.kind() != kind.id) {
            *slot = None;
        }
        // What the engine says, kept as the referee keeps it: its last score (its own view,
        // the mover's) and depth, and the time from `go` to `bestmove`.
        let mut said = Said::default();
        let mut took = Duration::ZERO;
        let result = ready(slot, kind, number, variant(game)).and_then(|engine| {
            set_thinking(session, generation, Some(side));
            let mut lines = |line: &str| {
                thinking::hear(&mut said, line);
                if let Some(l) = info::parse(line, game) {
                    publish_line(session, generation, side, l, None);
                }
            };
            let stop = || {
                let st = session.lock();
                st.closed || st.generation != generation
            };
            let started = Instant::now();
            let answer = engine
                .search(game, &Go::Limit(kind.limit), &mut lines, &stop)
                .map_err(|f| format!("{} {f}", kind.label));
            took = started.elapsed();
            answer
        });
        let mut st = session.lock();
        if st.generation != generation {
            return;
        }
        let played = match result {
            Ok(Ended::Best(text)) => match crate::rules::parse_move_list(&text) {
                Ok(moves) if moves.len() == 1 => st
                    .play(moves[0])
                    .map(|()| {
                        st.note_said(Played {
                            mv: moves[0],
                            said,
                            time: took,
                        })
                    })
                    .map_err(|e| format!("{} played {e}", kind.label)),
                _ => Err(format!("{} answered with `bestmove {text}`", kind.label)),
            },
            Ok(_) => Ok(()),
            Err(e) => Err(e),
        };
        if let Err(e) = played {
            st.error = Some(format!("{}'s engine: {e}", side.name()));
            self.seats[side.index()] = None;
        }
        st.thinking = None;
        st.publish_state(kinds);
        session.changed.notify_all();
    }

    /// The analyst searches `game`'s position (the one viewed, after the moves `at`): without
    /// end for the analysis, until something else is asked for (or a slice of it); for a
    /// second for a hint.
    fn analyse(
        &mut self,
        game: &Game,
        generation: u64,
        number: u64,
        hint: bool,
        at: Option<Vec<Move>>,
    ) {
        let (session, kinds) = (&*self.session, &*self.kinds);
        let wanted = session.lock().lines_wanted;
        let (hinted, reviewed) = (self.hinted.clone(), self.reviewed);
        let result = ready(&mut self.analyst, &self.analyst_kind, number, variant(game)).and_then(
            |engine| {
                note_lines_max(session, kinds, engine.multipv());
                let count = if hint {
                    1
                } else {
                    wanted.min(engine.multipv())
                };
                if engine.multipv() > 0 {
                    engine
                        .set_lines(count)
                        .map_err(|f| format!("the analysis engine {f}"))?;
                }
                let go = match hint {
                    true => Go::MoveTime(Duration::from_secs(1)),
                    false => Go::Infinite,
                };
                if !hint {
                    searching(session, kinds, generation, &at, Some(game));
                }
                let side = game.board().side_to_move();
                let mut lines = |line: &str| {
                    if let Some(l) = info::parse(line, game) {
                        publish_line(session, generation, side, l, Some(&at));
                    } else if let Some(t) = line.strip_prefix("info string tables: ") {
                        publish_tables(session, kinds, generation, t);
                    }
                };
                let asked = Asked {
                    generation,
                    hint,
                    at: &at,
                    wanted,
                    hinted: &hinted,
                    reviewed,
                };
                let stop = || asked.stopped(&session.lock());
                engine
                    .search(game, &go, &mut lines, &stop)
                    .map_err(|f| format!("the analysis engine {f}"))
            },
        );
        if !hint {
            match result {
                // A slice of the analysis: it goes on (asked for again), still shown.
                Ok(Ended::Sliced) => {
                    self.analysed = None;
                    self.sliced = Some((generation, at.clone()));
                }
                // The search has ended: the page no longer says it runs. One stopped (for a
                // hint, other lines, analysis unticked and ticked again) or failed is started
                // again when asked; one that ended by itself is not.
                _ => {
                    searching(session, kinds, generation, &at, None);
                    if !matches!(result, Ok(Ended::Best(_))) {
                        self.analysed = None;
                    }
                }
            }
        }
        let mut st = session.lock();
        match result {
            Ok(Ended::Best(best)) if hint && st.generation == generation => {
                let at = at.as_deref().map(format_move_list);
                let data = serde_json::json!({ "generation": generation, "move": best, "at": at });
                st.push("hint", data.to_string());
            }
            Ok(_) => {}
            Err(e) => {
                self.analyst = None;
                st.analyse = false;
                st.push("notice", serde_json::json!({ "text": e }).to_string());
                st.publish_state(kinds);
            }
        }
        session.changed.notify_all();
    }

    /// The analyst starts reviewing `game`, `ms` a position.
    fn review(&mut self, game: &Game, generation: u64, number: u64, ms: u64) {
        let started = ready(&mut self.analyst, &self.analyst_kind, number, variant(game)).and_then(
            |engine| match engine.multipv() {
                0 => Ok(()),
                _ => engine
                    .set_lines(1)
                    .map_err(|f| format!("the review's engine {f}")),
            },
        );
        if let Err(e) = started {
            self.review_failed(&e);
            return;
        }
        // The generation's opening: set with its moves, under the same lock.
        let opening = self.session.lock().opening;
        self.reviewing = Some(Run::new(game, generation, opening, ms));
        self.review_next();
    }

    /// The review under way scores its next position.
    fn review_next(&mut self) {
        let (Some(run), Some(engine)) = (self.reviewing.as_mut(), self.analyst.as_mut()) else {
            self.reviewing = None;
            return;
        };
        match run.next(&self.session, engine) {
            Ok(Scored::More) => {}
            Ok(Scored::Over) => self.reviewing = None,
            Err(e) => self.review_failed(&e),
        }
    }

    /// A review's engine failed: it is ended, and the page told.
    fn review_failed(&mut self, e: &str) {
        self.analyst = None;
        self.reviewing = None;
        let mut st = self.session.lock();
        st.push("notice", serde_json::json!({ "text": e }).to_string());
        self.session.changed.notify_all();
    }
}

/// What an analysis search was asked for, to tell when it is asked for no more.
struct Asked<'a> {
    generation: u64,
    /// A hint's search rather than the analysis.
    hint: bool,
    /// The position viewed (the moves to it).
    at: &'a Option<Vec<Move>>,
    /// The lines wanted.
    wanted: u32,
    /// The hint already given, and the review already done, when it started.
    hinted: &'a Option<(u64, Option<Vec<Move>>)>,
    reviewed: Option<u64>,
}

impl Asked<'_> {
    /// Whether the search should stop: the session closed or the game changed; for a hint,
    /// another hint asked for; for the analysis, unticked, the page gone, other lines or
    /// another position asked for, an engine to move, or a hint or a review asked for (they
    /// run first; the analysis goes on after).
    fn stopped(&self, st: &State) -> bool {
        let g = self.generation;
        if st.closed || st.generation != g {
            return true;
        }
        if self.hint {
            return st.hint.as_ref() != Some(&(g, self.at.clone()));
        }
        !st.analyse
            || st.leaving.is_some()
            || st.lines_wanted != self.wanted
            || st.analyse_at != *self.at
            || engine_may_move(st)
            || st
                .hint
                .as_ref()
                .is_some_and(|h| h.0 == g && self.hinted.as_ref() != Some(h))
            || (self.reviewed != Some(g)
                && st
                    .review
                    .as_ref()
                    .is_some_and(|r| r.generation == g && !r.done))
    }
}

/// Whether an engine is to move and its pace lets it (the analysis makes way for it).
fn engine_may_move(st: &super::session::State) -> bool {
    let side = st.game.board().side_to_move();
    st.error.is_none()
        && st.game.outcome().is_none()
        && matches!(st.seats[side.index()], Seat::Engine(_))
        && !(st.pace.paused && st.pace.steps == 0)
}

/// The engine in `slot`, started as `kind` if there is none, told of game `number`.
fn ready<'a, T: Thinker>(
    slot: &'a mut Option<T>,
    kind: &Kind,
    number: u64,
    variant: Variant,
) -> Result<&'a mut T, String> {
    if slot.is_none() {
        *slot = Some(T::start(kind)?);
    }
    let engine = slot.as_mut().expect("started above");
    if let Err(f) = engine.new_game(number, variant) {
        *slot = None;
        return Err(format!("{} {f}", kind.label));
    }
    Ok(slot.as_mut().expect("kept"))
}
