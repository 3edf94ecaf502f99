//! What the server answers: its routes, and the checks on every request before them: one
//! `Host`, naming this server (the address the client connected to, a loopback name on a
//! loopback connection, or a name given with `--host`), so that no other site's name resolving
//! to this machine can reach the page's API; a `POST` carries JSON of at most
//! [`http::MAX_BODY`] bytes and comes from no other origin; the session named exists. No path
//! from a request is ever opened: the page's files are compiled in. `HEAD` is answered as
//! `GET`, without the body.

use super::actions::Refused;
use super::api::{self, query, Host as _};
use super::driver;
use super::engine;
use super::http::{self, Request, Response};
use super::kinds::{self, Kind};
use super::session::{NewGame, Session};
use super::{Config, IDLE, MAX_SESSIONS};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{IpAddr, TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long a session whose page has gone (`pagehide`, or its last event stream closed)
/// waits for a page to reattach (a reload) before it is ended with its engines.
const LEAVING: Duration = Duration::from_secs(15);

/// What every request handler shares.
struct Shared {
    kinds: Arc<Vec<Kind>>,
    analyst: Kind,
    sessions: Mutex<HashMap<String, Arc<Session>>>,
    /// The port listened on.
    port: u16,
    /// The names given with `--host`, in lower case.
    names: Vec<String>,
}

impl Shared {
    /// Whether `host` (a `Host` field, or an `Origin` without its scheme) names this server
    /// for a client connected to `local`: this port, and the address connected to, a loopback
    /// name on a loopback connection, or a name given with `--host`.
    fn is_own(&self, host: &str, local: IpAddr) -> bool {
        names_this(host, local, self.port, &self.names)
    }
}

/// Whether `host` names a server on `port` reached at `local` and known by `names` too.
fn names_this(host: &str, local: IpAddr, port: u16, names: &[String]) -> bool {
    let (name, said) = match host.rsplit_once(':') {
        Some((name, said)) if !said.contains(']') => (name, said.parse::<u16>().ok()),
        _ => (host, Some(80)),
    };
    if said != Some(port) {
        return false;
    }
    let name = name.to_ascii_lowercase();
    if names.contains(&name) {
        return true;
    }
    let literal = name.strip_prefix('[').and_then(|n| n.strip_suffix(']'));
    match literal.unwrap_or(&name).parse::<IpAddr>() {
        // An IPv6 address only in brackets, an IPv4 one only without.
        Ok(ip) if literal.is_some() == ip.is_ipv6() => {
            let ip = ip.to_canonical();
            ip == local || (ip.is_loopback() && local.is_loopback())
        }
        Ok(_) => false,
        Err(_) => name == "localhost" && local.is_loopback(),
    }
}

/// `addr` as it is written in an address (IPv6 in brackets).
fn url_host(addr: IpAddr) -> String {
    match addr {
        IpAddr::V6(a) => format!("[{a}]"),
        a => a.to_string(),
    }
}

/// Binds, prints the page's address and answers requests until the process is interrupted.
pub fn serve(config: &Config, exe: &Path) -> Result<(), String> {
    let listener = TcpListener::bind((config.bind, config.port))
        .map_err(|e| format!("cannot listen on {}:{}: {e}", config.bind, config.port))?;
    let port = listener
        .local_addr()
        .map_err(|e| format!("the server has no address: {e}"))?
        .port();
    // A wildcard address is no address to type: this machine reaches the page on loopback.
    let shown = match config.bind {
        IpAddr::V4(a) if a.is_unspecified() => IpAddr::from([127, 0, 0, 1]),
        IpAddr::V6(a) if a.is_unspecified() => IpAddr::from(std::net::Ipv6Addr::LOCALHOST),
        a => a,
    };
    if !config.bind.is_loopback() {
        let mut names: Vec<String> = config
            .hosts
            .iter()
            .map(|n| format!("http://{n}:{port}/"))
            .collect();
        if config.bind.is_unspecified() {
            names.push(format!(
                "http://ADDRESS:{port}/ (any address of this machine)"
            ));
        } else {
            names.push(format!("http://{}:{port}/", url_host(config.bind)));
        }
        crate::sys::stderr::line(format_args!(
            "warning: listening on {}, not a loopback address: anyone who can reach it can \
             start engines on this machine; other machines open {}",
            url_host(config.bind),
            names.join(" or ")
        ));
    }
    let url = format!("http://{}:{port}/", url_host(shown));
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{url}").and_then(|()| out.flush());
    drop(out);
    if config.open {
        open_browser(&url);
    }
    // Room for every connection (two descriptors each) and every engine.
    let connections =
        (2 * http::MAX_CONNECTIONS as u64).div_ceil(crate::client::process::FILES_PER_ENGINE);
    if let Err(e) = crate::client::process::make_room_for(engine::MAX_ENGINES as u64 + connections)
    {
        crate::sys::stderr::line(format_args!("warning: {e}"));
    }
    super::tables::use_dir(
        config
            .tables
            .clone()
            .or_else(crate::tables::probe::default_dir),
    );
    let shared = Arc::new(Shared {
        kinds: Arc::new(kinds::kinds(
            exe,
            config.engines.clone(),
            config.tables.as_deref(),
        )),
        analyst: kinds::analyst(exe, config.tables.as_deref()),
        sessions: Mutex::new(HashMap::new()),
        port,
        names: config
            .hosts
            .iter()
            .map(|n| n.to_ascii_lowercase())
            .collect(),
    });
    let reaper = Arc::clone(&shared);
    std::thread::Builder::new()
        .name("serve-idle".to_string())
        .spawn(move || loop {
            std::thread::sleep(Duration::from_secs(5));
            reap(&reaper);
        })
        .map_err(|e| format!("cannot start a thread: {e}"))?;
    http::run(&listener, move |request, stream| {
        handle(&shared, request, stream);
    })
}

/// Ends the sessions idle for [`IDLE`] with no event stream open.
fn reap(shared: &Shared) {
    let mut sessions = shared.sessions.lock().unwrap_or_else(|e| e.into_inner());
    sessions.retain(|_, session| {
        let st = session.lock();
        let left = st.leaving.is_some_and(|t| t.elapsed() >= LEAVING);
        let idle = st.streams == 0 && (st.seen.elapsed() >= IDLE || left);
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

fn answer(status: u16, content_type: &'static str, body: Vec<u8>) -> Response {
    Response::new(status, content_type, body)
}

fn text(status: u16, message: &str) -> Response {
    Response::text(status, message)
}

fn json(status: u16, value: String) -> Response {
    answer(status, "application/json", value.into_bytes())
}

fn error(status: u16, message: &str) -> Response {
    json(status, serde_json::json!({ "error": message }).to_string())
}

fn handle(shared: &Shared, request: Request, connection: TcpStream) {
    let head_only = request.method == "HEAD";
    let response = route(shared, &request, head_only);
    match response {
        Routed::Answer(response) => response.send(connection, head_only),
        Routed::Stream(session, after) => {
            super::stream::stream(session, connection, after, head_only)
        }
    }
}

/// What a request gets: an answer, or a session's event stream.
enum Routed {
    Answer(Response),
    Stream(Arc<Session>, Option<u64>),
}

fn route(shared: &Shared, request: &Request, head_only: bool) -> Routed {
    let [host] = request.all("host")[..] else {
        return Routed::Answer(text(400, "a request names its host once"));
    };
    if !shared.is_own(host, request.local) {
        return Routed::Answer(text(421, "this server answers only to its own address"));
    }
    let url = request.target.as_str();
    let method = if head_only { "GET" } else { &request.method };
    if let ("GET", Some((kind, file))) = (method, super::assets::file(request.path())) {
        return Routed::Answer(answer(200, kind, file.into()));
    }
    if method == "GET" && request.path() == "/api/events" {
        let Some(session) = query(url, "id").and_then(|id| shared.find(id)) else {
            return Routed::Answer(error(404, "no such session"));
        };
        let after = request.header("last-event-id").and_then(|v| v.parse().ok());
        return Routed::Stream(session, after);
    }
    if method == "GET" {
        if let Some(answer) = api::get(shared, url) {
            return Routed::Answer(from_api(answer));
        }
    }
    let response = match (method, request.path()) {
        ("POST", path) if path.starts_with("/api/") => match body(shared, request) {
            Ok(body) => from_api(api::post(shared, path, body)),
            Err(response) => response,
        },
        ("GET", _) => text(404, "not found"),
        _ => {
            let mut response = text(405, "method not allowed");
            response
                .extra
                .push(("Allow", "GET, HEAD, POST".to_string()));
            response
        }
    };
    Routed::Answer(response)
}

/// A POST's body, checked: JSON, from this page's origin, at most [`http::MAX_BODY`] bytes.
fn body<'a>(shared: &Shared, request: &'a Request) -> Result<&'a [u8], Response> {
    let is_json = request
        .header("content-type")
        .is_some_and(|t| t.split(';').next().unwrap_or("").trim() == "application/json");
    if !is_json {
        return Err(error(415, "a request's body must be application/json"));
    }
    if let Some(origin) = request.header("origin") {
        let own = origin
            .strip_prefix("http://")
            .is_some_and(|h| shared.is_own(h, request.local));
        if !own {
            return Err(error(403, "a request from another origin"));
        }
    }
    request
        .body
        .as_deref()
        .ok_or_else(|| error(413, "the body is over 64 KiB"))
}

impl api::Host for Shared {
    fn kinds(&self) -> &[Kind] {
        &self.kinds
    }

    fn find(&self, id: &str) -> Option<Arc<Session>> {
        let sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        let session = sessions.get(id).cloned()?;
        session.lock().seen = std::time::Instant::now();
        Some(session)
    }

    fn create(&self, new: NewGame) -> Result<Arc<Session>, Refused> {
        let mut sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        if sessions.len() >= MAX_SESSIONS {
            return Err(Refused(
                503,
                "too many sessions: close a tab or wait".to_string(),
            ));
        }
        let id = token();
        let s = driver::start(new, Arc::clone(&self.kinds), self.analyst.clone());
        sessions.insert(id.clone(), Arc::clone(&s));
        drop(sessions);
        // The page learns its id from the answer.
        s.lock().id = id;
        Ok(s)
    }

    fn close(&self, id: &str, session: &Arc<Session>, later: bool) {
        if later {
            session.lock().leaving = Some(std::time::Instant::now());
            return;
        }
        self.sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
        session.close();
    }
}

/// An answer of the API, over HTTP.
fn from_api(answer: api::Answer) -> Response {
    let mut response = Response::new(answer.status, answer.kind, answer.body.into_bytes());
    if let Some(name) = answer.file {
        response.extra.push((
            "Content-Disposition",
            format!("attachment; filename=\"{name}\""),
        ));
    }
    response
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_names_this_server_by_the_address_connected_to_or_a_given_name() {
        let v4 = IpAddr::from([192, 0, 2, 2]);
        let lo = IpAddr::from([127, 0, 0, 1]);
        let v6: IpAddr = "fd00::2".parse().unwrap();
        let names = ["box.example".to_string()];
        // (Host, connected to, answered)
        let cases = [
            ("192.0.2.2:8080", v4, true),
            ("192.0.2.2:8081", v4, false),
            ("192.0.2.2", v4, false),
            ("192.0.2.3:8080", v4, false),
            ("127.0.0.1:8080", v4, false),
            ("127.0.0.1:8080", lo, true),
            ("[::1]:8080", lo, true),
            ("localhost:8080", lo, true),
            ("LOCALHOST:8080", lo, true),
            ("localhost:8080", v4, false),
            ("[fd00::2]:8080", v6, true),
            ("fd00::2:8080", v6, false),
            ("[fd00::2]", v6, false),
            ("box.example:8080", v4, true),
            ("Box.Example:8080", lo, true),
            ("evil.example:8080", v4, false),
            ("evil.example:8080", lo, false),
            ("0.0.0.0:8080", lo, false),
            ("", lo, false),
        ];
        for (host, local, want) in cases {
            assert_eq!(
                names_this(host, local, 8080, &names),
                want,
                "{host} on {local}"
            );
        }
        // Port 80 may go unsaid.
        assert!(names_this("box.example", v4, 80, &names));
        assert!(names_this("[fd00::2]", v6, 80, &names));
    }
}
