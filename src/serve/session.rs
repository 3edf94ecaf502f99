//! One page's game: the rules' [`Game`], who sits on each side, what the page was last told
//! (a numbered list of events, read as server-sent events). A change of the game bumps its
//! generation: an engine's search of an older position is stopped and its move discarded
//! ([`super::driver`] runs the engines; `review` judges the moves).

use super::info::Line;
use super::kinds::Kind;
use super::pace::Pace;
use super::review::Review;
use super::trace::{self, Shown};
use super::tree::{self, Variation};
use super::view::{self, BoardView, Illegal};
use crate::rules::{format_move_list, Board, Game, Move, Side};
use crate::search::instant::Instant;
use serde::Serialize;
use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

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
    /// The generation a hint was asked for, and the position viewed it is for (`None`: the
    /// game's).
    pub hint: Option<(u64, Option<Vec<Move>>)>,
    /// The analysis lines of this generation, by `multipv`.
    pub lines: Vec<Line>,
    /// What the endgame tables say of this generation's position (the analysis engine's
    /// `info string tables: ...` lines), when it is within their reach.
    pub tables: Vec<String>,
    /// How many analysis lines the page asked for (1 to [`super::kinds::MAX_LINES`]).
    pub lines_wanted: u32,
    /// The most lines the analysis engine gives (its `MultiPV` option's max; 1 without
    /// one), once it has started.
    pub lines_max: Option<u32>,
    /// The review of the game, asked for or done.
    pub review: Option<Review>,
    /// How many of the game's first moves are a loaded record's opening (an opening suite's
    /// moves, which the review does not judge and the records write as the opening).
    pub opening: usize,
    /// What the engine said of each move of the game that an engine played, by ply (`None`
    /// for a person's moves), for the records.
    pub said: Vec<Option<crate::record::Played>>,
    /// What a loaded record said of its game beside the moves (players, event, date, round,
    /// time controls), written back in the game's own record; `None` for a game begun here.
    pub about: Option<super::load::About>,
    /// Set when the session ends: its thread ends its engines and stops.
    pub closed: bool,
    /// The last request or open event stream.
    pub seen: Instant,
    /// Event streams open now.
    pub streams: usize,
    /// The session's id.
    pub id: String,
    /// The pace of a game between engines.
    pub pace: Pace,
    /// When the game last changed (the pace counts its delay from it).
    pub changed_at: Instant,
    /// The position the page views, which the analysis searches: the moves from the start
    /// that lead to it, a past position of the game or a variation's (`None`: the game's
    /// position, followed as the game goes on).
    pub analyse_at: Option<Vec<Move>>,
    /// The position the analysis searches now: the moves that lead to it (`None`: the
    /// game's) and its notation.
    pub analysing: Option<(Option<Vec<Move>>, String)>,
    /// The variations tried beside the game's moves (see `tree`).
    pub variations: Vec<Variation>,
    /// Set when the page has gone (`pagehide`): ended after a grace period unless a page
    /// reattaches (a reload opens its event stream again).
    pub leaving: Option<Instant>,
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
    /// The pace, when engines play both sides.
    pub pace: Pace,
}

impl Session {
    /// A session for `new`, its state sent as the first event; [`super::driver::start`]
    /// gives it the thread that runs its engines.
    pub fn new(new: NewGame, kinds: &[Kind]) -> Session {
        let session = Session {
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
                opening: 0,
                said: Vec::new(),
                about: None,
                closed: false,
                seen: Instant::now(),
                streams: 0,
                id: String::new(),
                pace: new.pace,
                changed_at: Instant::now(),
                analyse_at: None,
                analysing: None,
                variations: Vec::new(),
                leaving: None,
                events: VecDeque::new(),
                next_event: 1,
            }),
            changed: Condvar::new(),
        };
        session.lock().publish_state(kinds);
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
    over: Option<super::viewed::Over>,
    last: Option<&'a LastMove>,
    error: Option<&'a str>,
    thinking: Option<char>,
    analyse: bool,
    tables: &'a [String],
    table_values: Option<super::tables::Values>,
    lines_wanted: u32,
    lines_max: Option<u32>,
    can_take_back: bool,
    review: Option<&'a Review>,
    seats: [&'a str; 2],
    pace: Pace,
    /// The ply viewed, when the page views a past position of the game.
    analyse_ply: Option<usize>,
    /// The position viewed (the moves that lead to it), when the page views another than
    /// the game's.
    analyse_at: Option<String>,
    analysing: Option<Analysing>,
    /// The game's moves with the variations tried beside them, as [`tree::Line::text`]
    /// writes them.
    tree: String,
}

/// The position the analysis searches.
#[derive(Serialize)]
struct Analysing {
    /// Its ply, when it is a position of the game (`None` for the game's own, or a
    /// variation's).
    ply: Option<usize>,
    /// The moves that lead to it (`None`: the game's own position).
    at: Option<String>,
    fen: String,
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
        let over = super::viewed::over(&self.game);
        let seat_id = |seat: &Seat| match seat {
            Seat::Human => "human",
            Seat::Engine(k) => kinds.get(*k).map_or("", |k| k.id.as_str()),
        };
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
            // A loaded record's players keep their names.
            players: match &self.about {
                Some(about) => about.players.clone(),
                None => [name(&self.seats[0]), name(&self.seats[1])],
            },
            over,
            last: self.last.as_ref(),
            error: self.error.as_deref(),
            thinking: self.thinking.map(Side::letter),
            analyse: self.analyse,
            tables: &self.tables,
            table_values: super::tables::of(&self.game),
            lines_wanted: self.lines_wanted,
            lines_max: self.lines_max,
            can_take_back: !self.game.moves().is_empty(),
            review: self.review.as_ref(),
            seats: [seat_id(&self.seats[0]), seat_id(&self.seats[1])],
            pace: self.pace,
            analyse_ply: self.analyse_at.as_deref().and_then(|at| self.ply_of(at)),
            analyse_at: self.analyse_at.as_deref().map(format_move_list),
            analysing: self.analysing.as_ref().map(|(at, fen)| Analysing {
                ply: at.as_deref().and_then(|at| self.ply_of(at)),
                at: at.as_deref().map(format_move_list),
                fen: fen.clone(),
            }),
            tree: self.tree().text(),
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
        self.analyse_at = None;
        tree::cut(&mut self.variations, self.game.moves().len());
        self.changed_game();
        true
    }

    /// Plays `m` in the position after the game's first `ply` moves, the moves after them
    /// taken back: those become a variation (nothing played is lost). For a person's move
    /// from a position viewed: it must be a person's move there.
    pub fn play_at(&mut self, ply: usize, m: Move) -> Result<(), String> {
        let main = self.game.moves().to_vec();
        let ply = ply.min(main.len());
        let mut there = super::viewed::game_at(&self.game, Some(&main[..ply]));
        if self.seats[there.board().side_to_move().index()] != Seat::Human {
            return Err("it is not your move there".to_string());
        }
        if ply == main.len() {
            return self.play(m);
        }
        there.play(m).map_err(|e| e.to_string())?;
        let variations = tree::branch(&main, &self.variations, ply, m);
        self.replace_moves(there.moves())?;
        self.variations = variations;
        Ok(())
    }

    /// The game's moves with the variations tried beside them.
    pub fn tree(&self) -> tree::Line {
        tree::join(self.game.moves(), &self.variations)
    }

    /// Takes the page's tree (checked by the rules from the game's start): its variations,
    /// and its main line as the game's moves, which only a game between persons lets change
    /// so (`analysis`: the game becomes one, its engines leave).
    pub fn set_tree(&mut self, tree: tree::Line, analysis: bool) -> Result<(), String> {
        tree.check(self.game.start())
            .map_err(|e| format!("tree: {e}"))?;
        let (main, variations) = tree::split(tree);
        let moved = main != self.game.moves();
        if moved && !analysis && self.seats.iter().any(|s| *s != Seat::Human) {
            return Err(
                "an engine plays in this game: its moves change by a take-back, or \
                        make the game an analysis first"
                    .to_string(),
            );
        }
        if analysis && self.seats.iter().any(|s| *s != Seat::Human) {
            self.seats = [Seat::Human, Seat::Human];
            self.error = None;
            if !moved {
                self.changed_game();
            }
        }
        if moved {
            self.replace_moves(&main)?;
        }
        self.variations = variations;
        Ok(())
    }

    /// The game's moves made `moves` (checked): those in common stay with what was said of
    /// them, the last one is shown as played.
    fn replace_moves(&mut self, moves: &[Move]) -> Result<(), String> {
        let kept = self
            .game
            .moves()
            .iter()
            .zip(moves)
            .take_while(|(a, b)| a == b)
            .count();
        let mut game = super::viewed::game_at(&self.game, Some(&self.game.moves()[..kept]));
        let mut whole = game.clone();
        for &m in &moves[kept..] {
            whole.play(m).map_err(|e| e.to_string())?;
        }
        self.said.truncate(kept);
        self.last = None;
        self.error = None;
        match moves[kept..].split_last() {
            // The last move is played as any is, so that the page shows it played.
            Some((&last, before)) => {
                for &m in before {
                    game.play(m).map_err(|e| e.to_string())?;
                }
                self.game = game;
                self.play(last)
            }
            None => {
                self.game = game;
                self.changed_game();
                Ok(())
            }
        }
    }

    /// The ply of the position after `at`, when it is one of the game's.
    fn ply_of(&self, at: &[Move]) -> Option<usize> {
        self.game.moves().starts_with(at).then_some(at.len())
    }

    /// Starts a new game.
    pub fn new_game(&mut self, new: NewGame) {
        self.game = Game::new(new.start);
        self.seats = new.seats;
        self.opening = 0;
        self.said.clear();
        self.about = None;
        self.pace = new.pace;
        self.analyse_at = None;
        self.variations.clear();
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
        let (opening, played) = self.game.moves().split_at(self.opening);
        let record = Record {
            start: *self.game.start(),
            opening: opening.to_vec(),
            moves: played
                .iter()
                .zip(self.opening..)
                .map(|(&mv, ply)| match self.said.get(ply) {
                    Some(Some(said)) if said.mv == mv => said.clone(),
                    _ => Played {
                        mv,
                        said: crate::said::Said::default(),
                        time: Duration::ZERO,
                    },
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
        let meta = match &self.about {
            Some(about) => Meta {
                event: &about.event,
                date: &about.date,
                round: about.round,
                south: &about.players[0],
                north: &about.players[1],
                time_control: about.time_control.clone(),
            },
            None => Meta {
                event: "awari serve",
                date: &date,
                round: 1,
                south: &south,
                north: &north,
                time_control: [south_tc, north_tc],
            },
        };
        let mut written = GameRecord::new(&meta, &record);
        // A loaded record that ended by the referee's word (adjudicated, forfeited) keeps its
        // end while the game is still its moves.
        if let Some(about) = self
            .about
            .as_ref()
            .filter(|a| a.plies == self.game.moves().len())
        {
            if let (Some((result, termination, stores)), true) = (&about.end, outcome.is_none()) {
                written.result = *result;
                written.termination.clone_from(termination);
                if let Some(stores) = stores {
                    written.stores = *stores;
                }
            }
        }
        written
    }

    /// Takes up what a loaded record says beside its moves, once they are played: its
    /// opening, its players and event, and what its engines said of each move.
    pub fn take_up(&mut self, loaded: super::load::Loaded) {
        use crate::record::Played;
        self.opening = loaded.opening.min(self.game.moves().len());
        for (ply, info) in loaded.said.into_iter().enumerate() {
            let (Some(info), Some(&mv)) = (info, self.game.moves().get(ply)) else {
                continue;
            };
            self.said[ply] = Some(Played {
                mv,
                said: crate::said::Said {
                    score: info.score,
                    depth: info.depth,
                    tables: info.tables,
                },
                time: Duration::from_millis(info.ms),
            });
        }
        self.about = Some(loaded.about);
        self.variations = loaded.variations;
    }

    /// Asks for a review of the game, `ms` milliseconds a position.
    pub fn ask_review(&mut self, ms: u64) {
        self.review = Some(Review {
            generation: self.generation,
            ms,
            evals: Vec::new(),
            moves: Vec::new(),
            accuracy: [None, None],
            done: false,
        });
    }

    /// Keeps what the engine said of the move just played (`said.mv`), for the records.
    pub fn note_said(&mut self, said: crate::record::Played) {
        let ply = self.game.moves().len();
        if ply > 0 && self.game.moves()[ply - 1] == said.mv {
            self.said[ply - 1] = Some(said);
        }
    }

    /// Whether a person is to move (and may).
    pub fn human_to_move(&self) -> bool {
        self.seats[self.game.board().side_to_move().index()] == Seat::Human
    }

    fn changed_game(&mut self) {
        let plies = self.game.moves().len();
        self.opening = self.opening.min(plies);
        self.said.resize(plies, None);
        self.generation += 1;
        self.lines.clear();
        self.tables.clear();
        self.review = None;
        self.thinking = None;
        self.analysing = None;
        self.changed_at = Instant::now();
    }
}
