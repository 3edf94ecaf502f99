//! The page's API: what each `/api/` request gets, whoever carries it. The server
//! (`routes`) carries it over HTTP, after its own checks (the `Host`, a `POST`'s type and
//! origin); the page's WebAssembly worker carries it over the worker's messages. Both answer
//! from here, so that the page reads the same answers from either.
//!
//! Where the sessions live, and how a new one is started with its engines, is the [`Host`]'s.

use super::actions::Refused;
use super::kinds::Kind;
use super::load::Loaded;
use super::session::{NewGame, Seat, Session};
use crate::rules::{Board, Move, Variant};
use serde::Deserialize;
use std::sync::Arc;

/// Where the sessions live.
pub trait Host {
    /// The engines a page can choose.
    fn kinds(&self) -> &[Kind];

    /// The session `id`, if there is one (a page asked something of it: it is not idle).
    fn find(&self, id: &str) -> Option<Arc<Session>>;

    /// A new session for `new`, with its id set and what drives its engines started.
    fn create(&self, new: NewGame) -> Result<Arc<Session>, Refused>;

    /// Ends session `id` and its engines; `later`: the page has gone, and may come back (a
    /// reload) before a grace period ends it.
    fn close(&self, id: &str, session: &Arc<Session>, later: bool);
}

/// An answer to the page.
#[derive(Debug, PartialEq, Eq)]
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// Its type.
    pub kind: &'static str,
    /// The text.
    pub body: String,
    /// A file to save, by this name.
    pub file: Option<&'static str>,
}

const JSON: &str = "application/json";

fn json(status: u16, body: String) -> Answer {
    Answer {
        status,
        kind: JSON,
        body,
        file: None,
    }
}

fn error(status: u16, message: &str) -> Answer {
    json(status, serde_json::json!({ "error": message }).to_string())
}

/// A file to save.
fn download(body: String, kind: &'static str, name: &'static str) -> Answer {
    Answer {
        status: 200,
        kind,
        body,
        file: Some(name),
    }
}

/// A request's query parameter, as sent (the page sends its values URI-encoded only where
/// they need it: ids, moves and letters are plain).
pub fn query<'a>(url: &'a str, key: &str) -> Option<&'a str> {
    let (_, q) = url.split_once('?')?;
    q.split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v)
}

/// The answer to a `GET` of `url` (its path, then its query), if the path is one of the
/// API's (the event stream, `/api/events`, is the carrier's own).
pub fn get(host: &impl Host, url: &str) -> Option<Answer> {
    let path = url.split_once('?').map_or(url, |(p, _)| p);
    let kinds = host.kinds();
    let find = || query(url, "id").and_then(|id| host.find(id));
    Some(match path {
        "/api/config" => json(200, config_json(kinds)),
        path if path.starts_with("/api/puzzles/") => {
            let (status, body) = super::puzzles::answer(path, |key| query(url, key));
            json(status, body)
        }
        "/api/record" => match find() {
            Some(session) => {
                let st = session.lock();
                let record = st.record(kinds);
                match query(url, "format") {
                    Some("pgn") => {
                        let variations: Vec<(usize, Vec<String>)> = st
                            .variations
                            .iter()
                            .map(|(ply, line)| (*ply, line.variation_words()))
                            .collect();
                        let pgn = record.pgn_with(&variations);
                        download(pgn, "application/x-chess-pgn", "awari.pgn")
                    }
                    Some("json") => download(record.json() + "\n", JSON, "awari.json"),
                    _ => error(400, "format: pgn or json"),
                }
            }
            None => error(404, "no such session"),
        },
        "/api/position" => match find() {
            Some(session) => {
                let st = session.lock();
                let at = query(url, "at").map(|at| super::viewed::read_at(&st.game, at));
                match at {
                    Some(Ok(at)) => {
                        let game = super::viewed::game_at(&st.game, Some(&at));
                        let view = super::viewed::Position::of(&game);
                        json(200, serde_json::to_string(&view).unwrap_or_default())
                    }
                    Some(Err(e)) => error(400, &e),
                    None => error(400, "at: the moves from the start to the position"),
                }
            }
            None => error(404, "no such session"),
        },
        "/api/state" => match find() {
            Some(session) => json(200, session.lock().json(kinds)),
            None => error(404, "no such session"),
        },
        _ => return None,
    })
}

/// The page's settings: the rule sets with their starts, and the engines it can choose.
fn config_json(kinds: &[Kind]) -> String {
    let kinds: Vec<_> = kinds
        .iter()
        .map(|k| serde_json::json!({ "id": k.id, "label": k.label, "limit": k.limit.tag() }))
        .collect();
    let variants: Vec<_> = Variant::ALL
        .iter()
        .map(|v| serde_json::json!({ "name": v.name(), "start": Board::start(*v).to_string() }))
        .collect();
    serde_json::json!({ "variants": variants, "engines": kinds }).to_string()
}

/// A new game's settings, as the page sends them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameRequest {
    #[serde(default)]
    id: Option<String>,
    variant: String,
    south: String,
    north: String,
    #[serde(default)]
    fen: Option<String>,
    #[serde(default)]
    moves: Option<String>,
    /// A game record: its JSON line or its PGN (the referee's): its rule set, start and
    /// moves.
    #[serde(default)]
    record: Option<String>,
    /// The delay before each engine move when engines play both sides (none by default).
    #[serde(default)]
    delay_ms: Option<u64>,
}

fn seat(kinds: &[Kind], name: &str) -> Result<Seat, String> {
    if name == "human" {
        return Ok(Seat::Human);
    }
    kinds
        .iter()
        .position(|k| k.id == name)
        .map(Seat::Engine)
        .ok_or_else(|| format!("no player {name:?}"))
}

/// The game a request asks for, the moves to play from its start, and the record it was
/// loaded from, if it was.
fn new_game(
    kinds: &[Kind],
    r: &GameRequest,
) -> Result<(NewGame, Vec<Move>, Option<Loaded>), String> {
    if let Some(text) = r.record.as_deref().filter(|t| super::load::is_record(t)) {
        let loaded = super::load::read(text)?;
        let from = GameRequest {
            id: None,
            variant: loaded.variant.clone(),
            south: r.south.clone(),
            north: r.north.clone(),
            fen: loaded.start.clone(),
            moves: Some(loaded.moves.clone()),
            record: None,
            delay_ms: r.delay_ms,
        };
        // The PGN's errors say where they were found; the JSON line's moves are its own.
        let pgn = super::pgn::is_pgn(text.trim_start_matches('\u{feff}'));
        return match new_game(kinds, &from) {
            Ok((new, moves, _)) => {
                // The variations are checked before the game is replaced.
                let tree = super::tree::join(&moves, &loaded.variations);
                tree.check(&new.start)
                    .map_err(|e| format!("the PGN: a variation: {e}"))?;
                Ok((new, moves, Some(loaded)))
            }
            Err(e) if pgn => Err(format!("the PGN: {e}")),
            Err(e) => Err(e),
        };
    }
    let variant: Variant = r
        .variant
        .parse()
        .map_err(|_| format!("no rule set {:?}", r.variant))?;
    let start = match r.fen.as_deref().map(str::trim).filter(|f| !f.is_empty()) {
        Some(fen) => Board::from_notation(variant, fen).map_err(|e| {
            // The notation's own message names the position when it names no field.
            let e = e.to_string();
            if e.starts_with("position: ") {
                e
            } else {
                format!("position: {e}")
            }
        })?,
        None => Board::start(variant),
    };
    let moves = match r.moves.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
        Some(text) => {
            let mut game = crate::rules::Game::new(start);
            game.play_text(text).map_err(|e| e.to_string())?;
            game.moves().to_vec()
        }
        None => Vec::new(),
    };
    let seats = [seat(kinds, &r.south)?, seat(kinds, &r.north)?];
    let pace = match r.delay_ms {
        Some(ms) if ms > super::pace::MAX_DELAY_MS => {
            return Err(format!(
                "delay_ms: 0 to {} ms a move",
                super::pace::MAX_DELAY_MS
            ))
        }
        ms => super::pace::Pace::new(ms.unwrap_or(0)),
    };
    Ok((NewGame { start, seats, pace }, moves, None))
}

/// The answer to a `POST` of `body` to `path` (an `/api/` one).
pub fn post(host: &impl Host, path: &str, body: &[u8]) -> Answer {
    let kinds = host.kinds();
    let bad = |e: serde_json::Error| error(400, &format!("the request: {e}"));
    if path == "/api/session" || path == "/api/new" {
        let r: GameRequest = match serde_json::from_slice(body) {
            Ok(r) => r,
            Err(e) => return bad(e),
        };
        let (new, moves, loaded) = match new_game(kinds, &r) {
            Ok(n) => n,
            Err(e) => return error(400, &e),
        };
        let session = match &r.id {
            Some(id) if path == "/api/new" => match host.find(id) {
                Some(s) => {
                    s.lock().new_game(new);
                    s
                }
                None => return error(404, "no such session"),
            },
            _ => match host.create(new) {
                Ok(s) => s,
                Err(Refused(status, why)) => return error(status, &why),
            },
        };
        let mut st = session.lock();
        // Moves given with the position (a record's), played one by one so that each is
        // checked and shown.
        for m in moves {
            if let Err(e) = st.play(m) {
                return error(400, &e);
            }
        }
        if let Some(loaded) = loaded {
            st.take_up(loaded);
        }
        st.publish_state(kinds);
        session.changed.notify_all();
        let id = st.id.clone();
        drop(st);
        return json(200, serde_json::json!({ "id": id }).to_string());
    }
    let action: super::actions::Action = match serde_json::from_slice(body) {
        Ok(a) => a,
        Err(e) => return bad(e),
    };
    let Some(session) = host.find(&action.id) else {
        return error(404, "no such session");
    };
    if path == "/api/close" {
        host.close(&action.id, &session, action.later == Some(true));
        return json(200, "{}".to_string());
    }
    let mut st = session.lock();
    let Some(result) = super::actions::act(&mut st, path, &action) else {
        return error(404, "no such action");
    };
    match result {
        Ok(()) => {
            st.publish_state(kinds);
            session.changed.notify_all();
            json(200, st.json(kinds))
        }
        Err(Refused(status, why)) => error(status, &why),
    }
}
