//! The thread that runs a session's engines: it moves for the engines' seats, analyses and
//! gives hints, reviews the game, and ends every engine it started when the session closes.
//! It reads and writes the session's state under its lock, never holding it while an engine
//! thinks.

use super::engine::{self, Engine};
use super::info::{self, Line};
use super::kinds::Kind;
use super::pace::Gate;
use super::review::{judge, Eval, Judged};
use super::session::{NewGame, Seat, Session, State};
use crate::client::thinking;
use crate::record::Played;
use crate::rules::{format_move_list, Game, Move, Side, Variant};
use crate::said::Said;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A session for `new`, with the thread that runs its `kinds` (and `analyst`).
pub fn start(new: NewGame, kinds: Arc<Vec<Kind>>, analyst: Kind) -> Arc<Session> {
    let session = Arc::new(Session::new(new, &kinds));
    let s = Arc::clone(&session);
    let spawned = std::thread::Builder::new()
        .name("serve-session".to_string())
        .spawn(move || drive(&s, &kinds, &analyst));
    if spawned.is_err() {
        session.lock().error = Some("could not start the session's thread".to_string());
    }
    session
}

/// The variant of a board, for engines.
fn variant(game: &Game) -> Variant {
    game.board().variant()
}

/// What the engine thread does next.
enum Job {
    /// The engine of this side, of this kind, moves in this game.
    Move(Side, usize, Game, u64, u64),
    /// The analyst searches this game's position until it changes (or a hint: for a second);
    /// the last field is the position viewed that it is (the moves to it; `None`: the game's
    /// position).
    Analyse(Game, u64, u64, bool, Option<Vec<Move>>),
    /// The analyst scores every position of this game, this many ms each.
    Review(Game, u64, u64, u64),
    /// The session is over.
    Quit,
}

/// The session's engine thread: it moves for the engines' sides, analyses and gives hints,
/// and ends every engine it started when the session closes.
fn drive(session: &Session, kinds: &[Kind], analyst_kind: &Kind) {
    let mut driver = Driver {
        session,
        kinds,
        analyst_kind,
        seats: [None, None],
        analyst: None,
        analysed: None,
        hinted: None,
        reviewed: None,
    };
    loop {
        match driver.next_job() {
            Job::Quit => break,
            Job::Move(side, k, game, generation, number) => {
                driver.play(side, k, &game, generation, number);
            }
            Job::Analyse(game, generation, number, hint, at) => {
                driver.analyse(&game, generation, number, hint, at);
            }
            Job::Review(game, generation, number, ms) => {
                driver.review(&game, generation, number, ms);
            }
        }
    }
    // Dropping it ends its engines.
    drop(driver);
}

/// The engine thread's own state: its engines, and which jobs it has done.
struct Driver<'a> {
    session: &'a Session,
    kinds: &'a [Kind],
    analyst_kind: &'a Kind,
    /// The engines playing South and North, started when first needed.
    seats: [Option<Engine>; 2],
    /// The engine that analyses, hints and reviews.
    analyst: Option<Engine>,
    /// The generation and position viewed already analysed, so that each is searched once.
    analysed: Option<(u64, Option<Vec<Move>>)>,
    /// The same for the hint.
    hinted: Option<(u64, Option<Vec<Move>>)>,
    /// The generation already reviewed.
    reviewed: Option<u64>,
}

/// What an engine's turn to move asks of the thread.
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

impl Driver<'_> {
    /// The next job, waiting (without the lock) until there is one.
    fn next_job(&mut self) -> Job {
        let session = self.session;
        let mut st = session.lock();
        loop {
            if st.closed {
                return Job::Quit;
            }
            match self.engine_turn(&mut st) {
                Turn::Go(job) => return job,
                Turn::Wait(wait) => {
                    st = session
                        .changed
                        .wait_timeout(st, wait)
                        .unwrap_or_else(|e| e.into_inner())
                        .0;
                    continue;
                }
                // Held by a pause, the engines leave the analysis and a review to run; the
                // analysis stops when they may move again.
                Turn::Held | Turn::None => {}
            }
            if let Some(job) = self.analyst_job(&st) {
                return job;
            }
            self.end_seats_given_up(&st);
            st = session
                .changed
                .wait_timeout(st, Duration::from_secs(1))
                .unwrap_or_else(|e| e.into_inner())
                .0;
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
            st.publish_state(self.kinds);
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
            .is_some_and(|a| a.0 == g && a.1 == at);
        if !st.analyse || st.leaving.is_some() || done {
            return None;
        }
        let viewed = super::viewed::game_at(&st.game, at.as_deref());
        // A position that is over has nothing to search (what was searched before cleared its
        // status when it stopped).
        if viewed.outcome().is_some() {
            return None;
        }
        self.analysed = Some((g, at.clone()));
        Some(Job::Analyse(viewed, g, st.game_number, false, at))
    }

    /// Ends the engines of seats given up.
    fn end_seats_given_up(&mut self, st: &State) {
        for side in Side::BOTH {
            let wanted = match &st.seats[side.index()] {
                Seat::Engine(k) => self.kinds.get(*k).map(|k| k.id.as_str()),
                Seat::Human => None,
            };
            if self.seats[side.index()].as_ref().map(|e| e.kind.as_str()) != wanted {
                self.seats[side.index()] = None;
            }
        }
    }

    /// The engine of kind `k` moves for `side` in `game`.
    fn play(&mut self, side: Side, k: usize, game: &Game, generation: u64, number: u64) {
        let (session, kinds) = (self.session, self.kinds);
        let kind = &kinds[k];
        let slot = &mut self.seats[side.index()];
        if slot.as_ref().is_some_and(|e| e.kind != kind.id) {
            *slot = None;
        }
        // What the engine says, kept as the referee keeps it: its last score (its own view,
        // the mover's) and depth, and the time from `go` to `bestmove`.
        let mut said = Said::default();
        let mut took = Duration::ZERO;
        let result = ready(slot, kind, number, variant(game)).and_then(|engine| {
            set_thinking(session, generation, Some(side));
            let (go, within) = engine::go(&kind.limit);
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
                .search(game, &go, within, &mut lines, &stop)
                .map_err(|f| format!("{} {f}", kind.label));
            took = started.elapsed();
            answer
        });
        let mut st = session.lock();
        if st.generation != generation {
            return;
        }
        let played = match result {
            Ok(Some(text)) => match crate::rules::parse_move_list(&text) {
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
            Ok(None) => Ok(()),
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
    /// end for the analysis, until something else is asked for; for a second for a hint.
    fn analyse(
        &mut self,
        game: &Game,
        generation: u64,
        number: u64,
        hint: bool,
        at: Option<Vec<Move>>,
    ) {
        let (session, kinds) = (self.session, self.kinds);
        let wanted = session.lock().lines_wanted;
        let (hinted, reviewed) = (self.hinted.clone(), self.reviewed);
        let result =
            ready(&mut self.analyst, self.analyst_kind, number, variant(game)).and_then(|engine| {
                note_lines_max(session, kinds, engine.multipv);
                let count = if hint { 1 } else { wanted.min(engine.multipv) };
                if engine.multipv > 0 {
                    engine
                        .set_option("MultiPV", &count.to_string())
                        .map_err(|f| format!("the analysis engine {f}"))?;
                }
                let (go, within) = match hint {
                    true => ("go movetime 1000", Duration::from_secs(6)),
                    false => ("go infinite", Duration::from_secs(86_400)),
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
                    .search(game, go, within, &mut lines, &stop)
                    .map_err(|f| format!("the analysis engine {f}"))
            });
        if !hint {
            // The search has ended: the page no longer says it runs. One stopped (for a hint,
            // other lines, analysis unticked and ticked again) or failed is started again when
            // asked; one that ended by itself is not.
            searching(session, kinds, generation, &at, None);
            if !matches!(result, Ok(Some(_))) {
                self.analysed = None;
            }
        }
        let mut st = session.lock();
        match result {
            Ok(Some(best)) if hint && st.generation == generation => {
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

    /// The analyst reviews `game`, `ms` a position.
    fn review(&mut self, game: &Game, generation: u64, number: u64, ms: u64) {
        let (session, kind) = (self.session, self.analyst_kind);
        if let Err(e) = review(
            session,
            &mut self.analyst,
            kind,
            game,
            generation,
            number,
            ms,
        ) {
            self.analyst = None;
            let mut st = session.lock();
            st.push("notice", serde_json::json!({ "text": e }).to_string());
            session.changed.notify_all();
        }
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

/// Says on the page which position the analysis searches: `game`, the position after the
/// moves `at` (`None`: the game's), once its search has started, or nothing once it has ended
/// (`None`). A search already superseded (another position viewed, the game changed, the
/// analysis unticked)
/// is not shown: it is being stopped. This thread alone sets and clears it (a new game clears
/// it too), so that it is never left naming a search that has ended.
fn searching(
    session: &Session,
    kinds: &[Kind],
    generation: u64,
    at: &Option<Vec<Move>>,
    game: Option<&Game>,
) {
    let mut st = session.lock();
    let now = match game {
        Some(game) if st.generation == generation && st.analyse_at == *at && st.analyse => {
            Some((at.clone(), game.board().to_string()))
        }
        Some(_) => return,
        // This thread runs one search at a time: a status still shown is this search's.
        None if st.analysing.is_some() => None,
        None => return,
    };
    st.analysing = now;
    st.publish_state(kinds);
    session.changed.notify_all();
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

/// An analysis line of the position after the moves `analysis` (`Some(None)`: the game's
/// position), or an engine's thinking while it plays (`None`), to the page.
fn publish_line(
    session: &Session,
    generation: u64,
    side: Side,
    line: Line,
    analysis: Option<&Option<Vec<Move>>>,
) {
    let mut st = session.lock();
    if st.generation != generation || analysis.is_some_and(|at| *at != st.analyse_at) {
        return;
    }
    let at = analysis.and_then(|at| at.as_deref());
    let ply = at
        .filter(|at| st.game.moves().starts_with(at))
        .map(<[Move]>::len);
    let at = at.map(format_move_list);
    let analysis = analysis.is_some();
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
        "ply": ply,
        "at": at,
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
    // The generation's opening: set with its moves, under the same lock.
    let opening = session.lock().opening;
    let mut position = Game::new(*game.start());
    let mut before: Option<(Eval, Option<char>, Option<usize>)> = None;
    for ply in 0..=moves.len() {
        let stale = || {
            let st = session.lock();
            st.closed || st.generation != generation
        };
        if stale() {
            return Ok(());
        }
        let eval = match position.outcome() {
            Some(o) => (
                Eval::Over(f64::from(o.stores[0]) - f64::from(o.stores[1]), o.winner),
                None,
                None,
            ),
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
                let eval = last.map_or(Eval::Seeds(0.0), |l| Eval::of(l.score));
                let best = best.chars().next();
                (
                    eval,
                    best,
                    best.and_then(|b| last_seed(position.board(), b)),
                )
            }
        };
        let mut st = session.lock();
        if st.generation != generation {
            return Ok(());
        }
        let Some(review) = st.review.as_mut() else {
            return Ok(());
        };
        review.evals.push(eval.0.seeds());
        let judged = before.map(|(b, best, best_to)| Judged {
            best_to,
            ..judge(ply, moves[ply - 1], best, b, eval.0, ply <= opening)
        });
        if let Some(j) = &judged {
            review.add(j.clone());
        }
        review.done = ply == moves.len();
        let data = serde_json::json!({
            "generation": generation, "ply": ply, "eval": eval.0.seeds(), "judged": judged,
            "accuracy": review.accuracy, "done": review.done, "total": moves.len(),
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

/// Where the last seed of move `letter` falls on `board` (houses 0-11, 12 South's store, 13
/// North's), for the review's arrow; `None` for a move the rules refuse or a sowing not traced.
fn last_seed(board: &crate::rules::Board, letter: char) -> Option<usize> {
    let mv = crate::rules::Move::from_char(letter)?;
    let after = board.try_play(mv).ok()?;
    super::trace::trace(board, mv.house(), &after)
        .steps
        .iter()
        .rev()
        .find_map(|s| match s {
            super::trace::Step::Drop(p) => Some(*p),
            super::trace::Step::Lift(_) => None,
        })
}
