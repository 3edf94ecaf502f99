//! The HTTP side: `tiny_http` accepts connections and parses requests; each request is
//! answered on a thread of its own (at most [`MAX_HANDLERS`] at once), after these checks: the
//! `Host` is the server's own address (no other site's name resolving to it can reach the
//! page's API), a `POST` carries JSON of at most [`MAX_BODY`] bytes and comes from no other
//! origin, and the session named exists. No path from a request is ever opened: the page's
//! files are compiled in.

use super::engine::{self, Kind};
use super::session::{NewGame, Seat, Session};
use super::{Config, IDLE, MAX_SESSIONS};
use crate::rules::{Board, Move, Variant};
use serde::Deserialize;
use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tiny_http::{Header, Method, Request, Response, Server};

/// A request body's size, at most.
pub const MAX_BODY: usize = 64 << 10;

/// Requests answered at once, at most (an event stream holds one for as long as it is open).
const MAX_HANDLERS: usize = 512;

/// Event streams per session, at most (a page holds one).
const MAX_STREAMS: usize = 4;

const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = include_str!("serve.js");
const STYLE: &str = include_str!("serve.css");
const BOARD: &str = include_str!("../referee/report/board.js");
const BOARD_STYLE: &str = include_str!("../referee/report/board.css");

/// The page's own files and nothing else.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// What every request handler shares.
struct Shared {
    kinds: Arc<Vec<Kind>>,
    analyst: Kind,
    sessions: Mutex<HashMap<String, Arc<Session>>>,
    /// The `Host` values the page may be reached by.
    hosts: Vec<String>,
    handlers: AtomicUsize,
}

/// Binds, prints the page's address and answers requests until the process is interrupted.
pub fn serve(config: &Config, exe: &Path) -> Result<(), String> {
    let server = Server::http((config.bind, config.port))
        .map_err(|e| format!("cannot listen on {}:{}: {e}", config.bind, config.port))?;
    let port = server
        .server_addr()
        .to_ip()
        .map(|a| a.port())
        .ok_or("the server has no address")?;
    let host = match config.bind {
        std::net::IpAddr::V6(a) => format!("[{a}]"),
        a => a.to_string(),
    };
    if !config.bind.is_loopback() {
        crate::sys::stderr::line(format_args!(
            "warning: listening on {host}, not a loopback address: anyone who can reach it can \
             start engines on this machine"
        ));
    }
    let url = format!("http://{host}:{port}/");
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{url}").and_then(|()| out.flush());
    drop(out);
    if config.open {
        open_browser(&url);
    }
    let mut hosts = vec![
        format!("{host}:{port}"),
        format!("localhost:{port}"),
        format!("127.0.0.1:{port}"),
        format!("[::1]:{port}"),
    ];
    hosts.dedup();
    let shared = Arc::new(Shared {
        kinds: Arc::new(engine::kinds(
            exe,
            config.engines.clone(),
            config.tables.as_deref(),
        )),
        analyst: engine::analyst(exe, config.tables.as_deref()),
        sessions: Mutex::new(HashMap::new()),
        hosts,
        handlers: AtomicUsize::new(0),
    });
    let reaper = Arc::clone(&shared);
    std::thread::Builder::new()
        .name("serve-idle".to_string())
        .spawn(move || loop {
            std::thread::sleep(Duration::from_secs(5));
            reap(&reaper);
        })
        .map_err(|e| format!("cannot start a thread: {e}"))?;
    for request in server.incoming_requests() {
        if shared.handlers.fetch_add(1, Ordering::AcqRel) >= MAX_HANDLERS {
            shared.handlers.fetch_sub(1, Ordering::AcqRel);
            let _ = request.respond(text(503, "too many requests at once"));
            continue;
        }
        let s = Arc::clone(&shared);
        let spawned = std::thread::Builder::new()
            .name("serve-request".to_string())
            .spawn(move || {
                handle(&s, request);
                s.handlers.fetch_sub(1, Ordering::AcqRel);
            });
        if spawned.is_err() {
            shared.handlers.fetch_sub(1, Ordering::AcqRel);
        }
    }
    Ok(())
}

/// Ends the sessions idle for [`IDLE`] with no event stream open.
fn reap(shared: &Shared) {
    let mut sessions = shared.sessions.lock().unwrap_or_else(|e| e.into_inner());
    sessions.retain(|_, session| {
        let st = session.lock();
        let idle = st.streams == 0 && st.seen.elapsed() >= IDLE;
        drop(st);
        if idle {
            session.close();
        }
        !idle
    });
}

/// Tries the desktop's opener; the address is printed anyway.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    if let Ok(mut child) = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        std::thread::spawn(move || child.wait());
    }
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("ASCII header")
}

/// An answer with the headers every answer carries.
fn answer(status: u16, content_type: &str, body: Vec<u8>) -> Response<std::io::Cursor<Vec<u8>>> {
    Response::from_data(body)
        .with_status_code(status)
        .with_header(header("Content-Type", content_type))
        .with_header(header("Content-Security-Policy", CSP))
        .with_header(header("X-Content-Type-Options", "nosniff"))
        .with_header(header("Referrer-Policy", "no-referrer"))
        .with_header(header("Cache-Control", "no-store"))
}

fn text(status: u16, message: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    answer(
        status,
        "text/plain; charset=utf-8",
        format!("{message}\n").into_bytes(),
    )
}

fn json(status: u16, value: String) -> Response<std::io::Cursor<Vec<u8>>> {
    answer(status, "application/json", value.into_bytes())
}

/// A file to save.
fn download(body: String, content_type: &str, name: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    answer(200, content_type, body.into_bytes()).with_header(header(
        "Content-Disposition",
        &format!("attachment; filename=\"{name}\""),
    ))
}

fn error(status: u16, message: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    json(status, serde_json::json!({ "error": message }).to_string())
}

fn header_value<'a>(request: &'a Request, name: &'static str) -> Option<&'a str> {
    request
        .headers()
        .iter()
        .find(|h| h.field.equiv(name))
        .map(|h| h.value.as_str())
}

/// A request's query parameter.
fn query<'a>(url: &'a str, key: &str) -> Option<&'a str> {
    let (_, q) = url.split_once('?')?;
    q.split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v)
}

fn handle(shared: &Shared, mut request: Request) {
    let host_ok =
        header_value(&request, "Host").is_some_and(|h| shared.hosts.iter().any(|a| a == h));
    if !host_ok {
        let _ = request.respond(text(421, "this server answers only to its own address"));
        return;
    }
    let url = request.url().to_string();
    let path = url.split('?').next().unwrap_or("").to_string();
    let method = request.method().clone();
    let response = match (&method, path.as_str()) {
        (Method::Get, "/") => answer(200, "text/html; charset=utf-8", PAGE.into()),
        (Method::Get, "/serve.js") => answer(200, "text/javascript; charset=utf-8", SCRIPT.into()),
        (Method::Get, "/board.js") => answer(200, "text/javascript; charset=utf-8", BOARD.into()),
        (Method::Get, "/serve.css") => answer(200, "text/css; charset=utf-8", STYLE.into()),
        (Method::Get, "/board.css") => answer(200, "text/css; charset=utf-8", BOARD_STYLE.into()),
        (Method::Get, "/api/config") => json(200, config_json(shared)),
        (Method::Get, "/api/events") => {
            let Some(session) = query(&url, "id").and_then(|id| find(shared, id)) else {
                let _ = request.respond(error(404, "no such session"));
                return;
            };
            let after = header_value(&request, "Last-Event-ID").and_then(|v| v.parse().ok());
            stream(session, request, after);
            return;
        }
        (Method::Get, "/api/record") => match query(&url, "id").and_then(|id| find(shared, id)) {
            Some(session) => {
                let record = session.lock().record(&shared.kinds);
                match query(&url, "format") {
                    Some("pgn") => download(record.pgn(), "application/x-chess-pgn", "awari.pgn"),
                    Some("json") => {
                        download(record.json() + "\n", "application/json", "awari.json")
                    }
                    _ => error(400, "format: pgn or json"),
                }
            }
            None => error(404, "no such session"),
        },
        (Method::Get, "/api/ply") => match query(&url, "id").and_then(|id| find(shared, id)) {
            Some(session) => {
                let st = session.lock();
                let ply = query(&url, "ply").and_then(|p| p.parse::<usize>().ok());
                match ply.and_then(|p| st.game.positions().get(p)) {
                    Some(board) => json(
                        200,
                        serde_json::to_string(&super::view::BoardView::of(board))
                            .unwrap_or_default(),
                    ),
                    None => error(400, "ply: a whole number from 0 to the game's length"),
                }
            }
            None => error(404, "no such session"),
        },
        (Method::Get, "/api/state") => match query(&url, "id").and_then(|id| find(shared, id)) {
            Some(session) => json(200, session.lock().json(&shared.kinds)),
            None => error(404, "no such session"),
        },
        (Method::Post, _) if path.starts_with("/api/") => match body(shared, &mut request) {
            Ok(body) => post(shared, &path, &body),
            Err(response) => response,
        },
        (Method::Get | Method::Head, _) => text(404, "not found"),
        _ => text(405, "method not allowed"),
    };
    let _ = request.respond(response);
}

/// A POST's body, checked: JSON, from this page's origin, at most [`MAX_BODY`] bytes.
fn body(
    shared: &Shared,
    request: &mut Request,
) -> Result<Vec<u8>, Response<std::io::Cursor<Vec<u8>>>> {
    let is_json = header_value(request, "Content-Type")
        .is_some_and(|t| t.split(';').next().unwrap_or("").trim() == "application/json");
    if !is_json {
        return Err(error(415, "a request's body must be application/json"));
    }
    if let Some(origin) = header_value(request, "Origin") {
        let own = origin
            .strip_prefix("http://")
            .is_some_and(|h| shared.hosts.iter().any(|a| a == h));
        if !own {
            return Err(error(403, "a request from another origin"));
        }
    }
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(error(413, "the body is over 64 KiB"));
    }
    let mut data = Vec::new();
    let read = request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut data);
    if read.is_err() {
        return Err(error(400, "the body could not be read"));
    }
    if data.len() > MAX_BODY {
        return Err(error(413, "the body is over 64 KiB"));
    }
    Ok(data)
}

fn config_json(shared: &Shared) -> String {
    let kinds: Vec<_> = shared
        .kinds
        .iter()
        .map(|k| serde_json::json!({ "id": k.id, "label": k.label, "limit": k.limit.tag() }))
        .collect();
    let variants: Vec<_> = Variant::ALL
        .iter()
        .map(|v| serde_json::json!({ "name": v.name(), "start": Board::start(*v).to_string() }))
        .collect();
    serde_json::json!({ "variants": variants, "engines": kinds }).to_string()
}

fn find(shared: &Shared, id: &str) -> Option<Arc<Session>> {
    let sessions = shared.sessions.lock().unwrap_or_else(|e| e.into_inner());
    let session = sessions.get(id).cloned()?;
    session.lock().seen = std::time::Instant::now();
    Some(session)
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
}

/// An action on a session.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Action {
    id: String,
    #[serde(default, rename = "move")]
    mv: Option<String>,
    #[serde(default)]
    on: Option<bool>,
    #[serde(default)]
    ms: Option<u64>,
    /// The analysis lines wanted (1 to [`super::engine::MAX_LINES`]).
    #[serde(default)]
    lines: Option<u32>,
}

fn seat(shared: &Shared, name: &str) -> Result<Seat, String> {
    if name == "human" {
        return Ok(Seat::Human);
    }
    shared
        .kinds
        .iter()
        .position(|k| k.id == name)
        .map(Seat::Engine)
        .ok_or_else(|| format!("no player {name:?}"))
}

fn new_game(shared: &Shared, r: &GameRequest) -> Result<(NewGame, Vec<Move>), String> {
    if let Some(text) = r.record.as_deref().filter(|t| super::pgn::is_pgn(t)) {
        let pgn = super::pgn::parse(text).map_err(|e| format!("the PGN: {e}"))?;
        let from = GameRequest {
            id: None,
            variant: pgn.variant,
            south: r.south.clone(),
            north: r.north.clone(),
            fen: pgn.start,
            moves: Some(pgn.moves),
            record: None,
        };
        return new_game(shared, &from).map_err(|e| format!("the PGN: {e}"));
    }
    if let Some(line) = r.record.as_deref().map(str::trim).filter(|l| !l.is_empty()) {
        let record = crate::referee::records::GameRecord::from_json(line.as_bytes())
            .map_err(|e| format!("the record: {e}"))?;
        let from = GameRequest {
            id: None,
            variant: record.variant,
            south: r.south.clone(),
            north: r.north.clone(),
            fen: Some(record.start),
            moves: Some(record.opening + &record.moves),
            record: None,
        };
        return new_game(shared, &from);
    }
    let variant: Variant = r
        .variant
        .parse()
        .map_err(|_| format!("no rule set {:?}", r.variant))?;
    let start = match r.fen.as_deref().map(str::trim).filter(|f| !f.is_empty()) {
        Some(fen) => Board::from_notation(variant, fen).map_err(|e| format!("position: {e}"))?,
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
    let seats = [seat(shared, &r.south)?, seat(shared, &r.north)?];
    Ok((NewGame { start, seats }, moves))
}

fn post(shared: &Shared, path: &str, body: &[u8]) -> Response<std::io::Cursor<Vec<u8>>> {
    let bad = |e: serde_json::Error| error(400, &format!("the request: {e}"));
    if path == "/api/session" || path == "/api/new" {
        let r: GameRequest = match serde_json::from_slice(body) {
            Ok(r) => r,
            Err(e) => return bad(e),
        };
        let (new, moves) = match new_game(shared, &r) {
            Ok(n) => n,
            Err(e) => return error(400, &e),
        };
        let session = match &r.id {
            Some(id) if path == "/api/new" => match find(shared, id) {
                Some(s) => {
                    s.lock().new_game(new);
                    s
                }
                None => return error(404, "no such session"),
            },
            _ => {
                let mut sessions = shared.sessions.lock().unwrap_or_else(|e| e.into_inner());
                if sessions.len() >= MAX_SESSIONS {
                    return error(503, "too many sessions: close a tab or wait");
                }
                let id = token();
                let s = Session::start(new, Arc::clone(&shared.kinds), shared.analyst.clone());
                sessions.insert(id.clone(), Arc::clone(&s));
                drop(sessions);
                // The page learns its id from this answer.
                s.lock().id = id;
                s
            }
        };
        let mut st = session.lock();
        // Moves given with the position (a record's), played one by one so that each is
        // checked and shown.
        for m in moves {
            if let Err(e) = st.play(m) {
                return error(400, &e);
            }
        }
        st.publish_state(&shared.kinds);
        session.changed.notify_all();
        let id = st.id.clone();
        drop(st);
        return json(200, serde_json::json!({ "id": id }).to_string());
    }
    let action: Action = match serde_json::from_slice(body) {
        Ok(a) => a,
        Err(e) => return bad(e),
    };
    let Some(session) = find(shared, &action.id) else {
        return error(404, "no such session");
    };
    if path == "/api/close" {
        shared
            .sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&action.id);
        session.close();
        return json(200, "{}".to_string());
    }
    let mut st = session.lock();
    let result = match path {
        "/api/move" => {
            let m = action
                .mv
                .as_deref()
                .and_then(|t| {
                    let mut chars = t.chars();
                    match (chars.next(), chars.next()) {
                        (Some(c), None) => Move::from_char(c),
                        _ => None,
                    }
                })
                .ok_or_else(|| "a move is one house letter, A-F or a-f".to_string());
            m.and_then(|m| {
                if st.error.is_some() {
                    Err("an engine failed: start a new game or take back".to_string())
                } else if !st.human_to_move() {
                    Err("it is not your move".to_string())
                } else {
                    st.play(m)
                }
            })
        }
        "/api/takeback" => {
            if st.take_back() {
                Ok(())
            } else {
                Err("nothing to take back".to_string())
            }
        }
        "/api/analyse" => match action.lines {
            Some(n) if !(1..=super::engine::MAX_LINES).contains(&n) => Err(format!(
                "lines: 1 to {} analysis lines",
                super::engine::MAX_LINES
            )),
            lines => {
                st.analyse = action.on.unwrap_or(false);
                if let Some(n) = lines {
                    st.lines_wanted = n;
                }
                st.lines.clear();
                Ok(())
            }
        },
        "/api/review" => match action.ms {
            Some(ms @ 20..=10_000) => {
                st.ask_review(ms);
                Ok(())
            }
            _ => Err("ms: the time per position, 20 to 10000".to_string()),
        },
        "/api/hint" => {
            st.hint = Some(st.generation);
            Ok(())
        }
        _ => return error(404, "no such action"),
    };
    match result {
        Ok(()) => {
            st.publish_state(&shared.kinds);
            session.changed.notify_all();
            json(200, st.json(&shared.kinds))
        }
        Err(e) => error(409, &e),
    }
}

/// A session's id: 128 random bits, in hex.
fn token() -> String {
    let mut bytes = [0u8; 16];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    if read.is_err() {
        // No /dev/urandom: the time and a counter (ids are then guessable, on a local server).
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        bytes = (t ^ (COUNTER.fetch_add(1, Ordering::Relaxed) as u128) << 64).to_le_bytes();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A session's events, as server-sent events, for as long as the page listens: from the
/// event after `after` (a reconnecting page's `Last-Event-ID`), else from the current state.
fn stream(session: Arc<Session>, request: Request, after: Option<u64>) {
    {
        let mut st = session.lock();
        if st.streams >= MAX_STREAMS {
            drop(st);
            let _ = request.respond(error(429, "too many event streams for this session"));
            return;
        }
        st.streams += 1;
    }
    let mut writer = request.into_writer();
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
                X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\nretry: 1000\n\n";
    let mut ok = writer
        .write_all(head.as_bytes())
        .and_then(|()| writer.flush())
        .is_ok();
    let mut last = after.unwrap_or_else(|| session.lock().state_event().saturating_sub(1));
    while ok {
        let mut st = session.lock();
        if st.closed {
            break;
        }
        let (text, n) = st.events_after(last);
        let chunk = if text.is_empty() {
            let (guard, timeout) = session
                .changed
                .wait_timeout(st, Duration::from_secs(15))
                .unwrap_or_else(|e| e.into_inner());
            st = guard;
            st.seen = std::time::Instant::now();
            if !timeout.timed_out() {
                continue;
            }
            ": keep-alive\n\n".to_string()
        } else {
            last = n;
            text
        };
        drop(st);
        ok = writer
            .write_all(chunk.as_bytes())
            .and_then(|()| writer.flush())
            .is_ok();
    }
    let mut st = session.lock();
    st.streams -= 1;
    st.seen = std::time::Instant::now();
}
