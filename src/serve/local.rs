//! The sessions of a page that carries its own engine (the WebAssembly worker): the API's
//! [`Host`] without a server. Its sessions' drivers run in turn between the page's requests
//! ([`Local::step`]), each with engines searching in this process ([`InProc`]); what they
//! tell the page is drained as the server's event stream would send it ([`Local::events`]).

use super::actions::Refused;
use super::api::{self, Answer, Host};
use super::driver::{Driver, Poll};
use super::inproc::InProc;
use super::kinds::Kind;
use super::session::{NewGame, Session};
use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::time::Duration;

/// Sessions at once, at most: a page has one (another only where the page replays its game
/// into a new one); past this the oldest is ended.
pub const MAX_SESSIONS: usize = 8;

/// One session, its driver, and the last event the page was given (`None`: the page does not
/// listen to it).
struct Entry {
    id: String,
    driver: Driver<InProc>,
    sent: Option<u64>,
}

/// The sessions of a page's worker.
pub struct Local {
    kinds: Arc<Vec<Kind>>,
    analyst: Kind,
    sessions: RefCell<Vec<Entry>>,
    made: Cell<u64>,
    /// The session whose driver steps next: each gets its turn.
    turn: Cell<usize>,
}

impl Local {
    /// No sessions yet; the page chooses among `kinds`, and `analyst` analyses.
    pub fn new(kinds: Vec<Kind>, analyst: Kind) -> Local {
        Local {
            kinds: Arc::new(kinds),
            analyst,
            sessions: RefCell::new(Vec::new()),
            made: Cell::new(0),
            turn: Cell::new(0),
        }
    }

    /// The answer to a request of the page: `method` (`GET` or `POST`) `url` (the path and its
    /// query) with `body`.
    pub fn request(&self, method: &str, url: &str, body: &[u8]) -> Answer {
        let path = url.split_once('?').map_or(url, |(p, _)| p);
        let refused = |status, message: &str| Answer {
            status,
            kind: "application/json",
            body: serde_json::json!({ "error": message }).to_string(),
            file: None,
        };
        match method {
            "GET" => api::get(self, url).unwrap_or_else(|| refused(404, "not found")),
            "POST" if path.starts_with("/api/") => api::post(self, path, body),
            _ => refused(405, "method not allowed"),
        }
    }

    /// Sends the page session `id`'s events from its latest state on (its event stream);
    /// `false` when there is no such session.
    pub fn listen(&self, id: &str) -> bool {
        let mut sessions = self.sessions.borrow_mut();
        let Some(entry) = sessions.iter_mut().find(|e| e.id == id) else {
            return false;
        };
        let from = entry.driver.session().lock().state_event();
        entry.sent = Some(from.saturating_sub(1));
        true
    }

    /// The events not yet given of the sessions the page listens to: each session's id and
    /// its events as server-sent event text.
    pub fn events(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for entry in self.sessions.borrow_mut().iter_mut() {
            let Some(sent) = entry.sent else { continue };
            let (text, last) = entry.driver.session().lock().events_after(sent);
            entry.sent = Some(last);
            if !text.is_empty() {
                out.push((entry.id.clone(), text));
            }
        }
        out
    }

    /// One job of one session's driver, the sessions taking turns: [`Poll::Busy`] when one
    /// ran (call again), else the shortest wait asked for, else [`Poll::Idle`]. Sessions that
    /// ended are dropped with their engines.
    pub fn step(&self) -> Poll {
        let mut sessions = self.sessions.borrow_mut();
        let count = sessions.len();
        let mut wait: Option<Duration> = None;
        let mut over = Vec::new();
        for k in 0..count {
            let i = (self.turn.get() + k) % count;
            match sessions[i].driver.step() {
                Poll::Busy => {
                    self.turn.set(i + 1);
                    return Poll::Busy;
                }
                Poll::Wait(w) => wait = Some(wait.map_or(w, |v| v.min(w))),
                Poll::Idle => {}
                Poll::Quit => over.push(i),
            }
        }
        for i in over.into_iter().rev() {
            sessions.remove(i);
        }
        wait.map_or(Poll::Idle, Poll::Wait)
    }
}

impl Host for Local {
    fn kinds(&self) -> &[Kind] {
        &self.kinds
    }

    fn find(&self, id: &str) -> Option<Arc<Session>> {
        let sessions = self.sessions.borrow();
        let entry = sessions.iter().find(|e| e.id == id)?;
        Some(Arc::clone(entry.driver.session()))
    }

    fn create(&self, new: NewGame) -> Result<Arc<Session>, Refused> {
        let mut sessions = self.sessions.borrow_mut();
        if sessions.len() >= MAX_SESSIONS {
            // The oldest goes: its page has been reloaded or closed.
            sessions.remove(0);
        }
        self.made.set(self.made.get() + 1);
        let id = format!("local-{}", self.made.get());
        let session = Arc::new(Session::new(new, &self.kinds));
        session.lock().id = id.clone();
        let driver = Driver::new(
            Arc::clone(&session),
            Arc::clone(&self.kinds),
            self.analyst.clone(),
        );
        sessions.push(Entry {
            id,
            driver,
            sent: None,
        });
        Ok(session)
    }

    fn close(&self, id: &str, session: &Arc<Session>, later: bool) {
        if later {
            return;
        }
        session.close();
        self.sessions.borrow_mut().retain(|e| e.id != id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Board, Game, Variant};
    use serde_json::Value;

    fn local() -> Local {
        let (kinds, analyst) = super::super::kinds::in_process();
        Local::new(kinds, analyst)
    }

    /// POSTs `body`; the answer's JSON, asserting its status.
    fn post(l: &Local, path: &str, body: Value, status: u16) -> Value {
        let a = l.request("POST", path, body.to_string().as_bytes());
        assert_eq!(a.status, status, "{path}: {}", a.body);
        serde_json::from_str(&a.body).unwrap()
    }

    fn state(l: &Local, id: &str) -> Value {
        let a = l.request("GET", &format!("/api/state?id={id}"), b"");
        assert_eq!(a.status, 200, "{}", a.body);
        serde_json::from_str(&a.body).unwrap()
    }

    /// Steps until the drivers are idle or `done` holds, at most `steps` jobs; the events'
    /// text given meanwhile.
    fn run(l: &Local, steps: usize, done: impl Fn(&Local) -> bool) -> String {
        let mut events = String::new();
        for _ in 0..steps {
            let poll = l.step();
            for (_, text) in l.events() {
                events += &text;
            }
            if done(l) || poll == Poll::Idle {
                return events;
            }
        }
        panic!("still busy after {steps} jobs");
    }

    #[test]
    fn engines_play_a_game_to_its_end_in_steps() {
        let games = [
            (Variant::Oware, "depth2", "depth2"),
            (Variant::Kalah, "greedy", "evolved"),
            (Variant::Ayoayo, "basic", "depth2"),
            (Variant::Awari, "evolved", "greedy"),
        ];
        for (variant, south, north) in games {
            let l = local();
            let body =
                serde_json::json!({ "variant": variant.name(), "south": south, "north": north });
            let id = post(&l, "/api/session", body, 200)["id"]
                .as_str()
                .unwrap()
                .to_string();
            assert!(l.listen(&id));
            let events = run(&l, 2000, |_| false);
            let s = state(&l, &id);
            assert!(s["over"].is_object(), "{variant}: {s}");
            // The moves are the rules' (replayed here) and each came as a state event.
            let mut game = Game::new(Board::start(variant));
            game.play_text(s["moves"].as_str().unwrap()).unwrap();
            assert!(game.outcome().is_some());
            let states = events.matches("event: state\n").count();
            assert!(states > game.moves().len(), "{variant}: {states} states");
        }
    }

    #[test]
    fn the_analysis_goes_on_in_slices_each_deeper_and_stops_when_unticked() {
        let l = local();
        let body = serde_json::json!({ "variant": "oware", "south": "human", "north": "human" });
        let id = post(&l, "/api/session", body, 200)["id"]
            .as_str()
            .unwrap()
            .to_string();
        l.listen(&id);
        post(
            &l,
            "/api/analyse",
            serde_json::json!({ "id": id, "on": true, "lines": 2 }),
            200,
        );
        let mut depths = Vec::new();
        let mut multipv = std::collections::BTreeSet::new();
        for _ in 0..8 {
            assert_eq!(l.step(), Poll::Busy);
            for (_, text) in l.events() {
                for data in text.lines().filter_map(|t| t.strip_prefix("data: ")) {
                    let v: Value = serde_json::from_str(data).unwrap();
                    if v["analysis"] == true {
                        multipv.insert(v["line"]["multipv"].as_u64().unwrap());
                    }
                    if v["analysis"] == true && v["line"]["multipv"] == 1 {
                        depths.push(v["line"]["depth"].as_u64().unwrap());
                    }
                }
            }
            assert!(state(&l, &id)["analysing"].is_object());
        }
        // Each slice prints only deeper lines than the ones before.
        assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
        assert!(depths.len() >= 4, "{depths:?}");
        assert_eq!(multipv.into_iter().collect::<Vec<_>>(), [1, 2]);
        post(
            &l,
            "/api/analyse",
            serde_json::json!({ "id": id, "on": false }),
            200,
        );
        assert_eq!(l.step(), Poll::Idle);
        assert!(state(&l, &id)["analysing"].is_null());
    }

    #[test]
    fn a_hint_and_a_review_are_answered_between_requests() {
        let l = local();
        let body = serde_json::json!({ "variant": "kalah", "south": "human", "north": "human", "moves": "CFa" });
        let id = post(&l, "/api/session", body, 200)["id"]
            .as_str()
            .unwrap()
            .to_string();
        l.listen(&id);
        post(&l, "/api/hint", serde_json::json!({ "id": id }), 200);
        let events = run(&l, 10, |_| false);
        assert!(events.contains("event: hint\n"), "{events}");
        post(
            &l,
            "/api/review",
            serde_json::json!({ "id": id, "ms": 20 }),
            200,
        );
        // One position a step: the review's events come one by one, a page's request
        // answered between any two.
        let mut per_step = Vec::new();
        while l.step() == Poll::Busy {
            let text: String = l.events().into_iter().map(|(_, t)| t).collect();
            per_step.push(text.matches("event: review\n").count());
            assert_eq!(state(&l, &id)["moves"], "CFa");
        }
        assert_eq!(per_step, [1, 1, 1, 1], "{per_step:?}");
        let s = state(&l, &id);
        assert_eq!(s["review"]["done"], true, "{s}");
    }

    #[test]
    fn the_api_refuses_what_it_cannot_do() {
        let l = local();
        let cases = [
            (
                "POST",
                "/api/session",
                r#"{"variant":"nope","south":"human","north":"human"}"#,
                400,
            ),
            (
                "POST",
                "/api/session",
                r#"{"variant":"oware","south":"1978","north":"human"}"#,
                400,
            ),
            ("POST", "/api/move", r#"{"id":"local-9","move":"A"}"#, 404),
            ("POST", "/api/session", "not json", 400),
            ("GET", "/api/state?id=local-9", "", 404),
            ("GET", "/nothing", "", 404),
            ("PUT", "/api/state", "", 405),
        ];
        for (method, url, body, status) in cases {
            let a = l.request(method, url, body.as_bytes());
            assert_eq!(a.status, status, "{method} {url}: {}", a.body);
            let v: Value = serde_json::from_str(&a.body).unwrap();
            assert!(v["error"].is_string(), "{method} {url}: {}", a.body);
        }
    }
}
