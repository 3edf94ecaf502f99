//! The browser tests' shared parts: plain HTTP to `awari serve`, the server itself, and
//! headless Chromium driven through WebDriver (`chromedriver`), each stopped by pid when
//! dropped, also when a test fails.

use awari::rules::{Board, Game, Move, Variant};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The engine binary under test.
pub const AWARI: &str = env!("CARGO_BIN_EXE_awari");
/// The test engine that misbehaves on purpose.
pub const MISBEHAVE: &str = env!("CARGO_BIN_EXE_misbehave");

// ---- plain HTTP ----

/// How long a request waits for its whole answer: beyond WebDriver's own limits set below
/// (a script 60 s, a page load 120 s), so that the driver's error, naming what it waited
/// for, comes first.
pub const ANSWER: Duration = Duration::from_secs(180);

/// One HTTP/1.1 request to `addr` (host:port); the status and the body. A request that gets
/// no whole answer within [`ANSWER`] fails the test, saying which request it was.
pub fn http(addr: &str, method: &str, path: &str, body: Option<&Value>) -> (u16, String) {
    http_within(addr, method, path, body, ANSWER)
}

/// [`http`], waiting at most `limit` for the answer.
pub fn http_within(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    limit: Duration,
) -> (u16, String) {
    let fail = |what: &str, e: std::io::Error| -> ! {
        let why = match e.kind() {
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => {
                format!("no {what} within {limit:?}")
            }
            _ => format!("{what}: {e}"),
        };
        panic!("{method} http://{addr}{path}: {why}")
    };
    let mut stream = TcpStream::connect(addr).unwrap_or_else(|e| fail("connection", e));
    stream.set_read_timeout(Some(limit)).unwrap();
    stream.set_write_timeout(Some(limit)).unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream
        .write_all(request.as_bytes())
        .unwrap_or_else(|e| fail("request sent", e));
    let mut reader = BufReader::new(stream);
    let mut status = String::new();
    reader
        .read_line(&mut status)
        .unwrap_or_else(|e| fail("status line", e));
    let code: u16 = status
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let mut length = None;
    let mut chunked = false;
    loop {
        let mut line = String::new();
        reader
            .read_line(&mut line)
            .unwrap_or_else(|e| fail("header", e));
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let lower = line.to_ascii_lowercase();
        if let Some(v) = lower.strip_prefix("content-length:") {
            length = v.trim().parse::<usize>().ok();
        }
        if lower.starts_with("transfer-encoding:") && lower.contains("chunked") {
            chunked = true;
        }
    }
    let mut out = Vec::new();
    if chunked {
        loop {
            let mut size = String::new();
            reader
                .read_line(&mut size)
                .unwrap_or_else(|e| fail("chunk", e));
            let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            if n == 0 {
                break;
            }
            let mut chunk = vec![0; n + 2];
            reader
                .read_exact(&mut chunk)
                .unwrap_or_else(|e| fail("chunk", e));
            out.extend_from_slice(&chunk[..n]);
        }
    } else if let Some(n) = length {
        out.resize(n, 0);
        reader
            .read_exact(&mut out)
            .unwrap_or_else(|e| fail("body", e));
    } else {
        reader
            .read_to_end(&mut out)
            .unwrap_or_else(|e| fail("body", e));
    }
    (code, String::from_utf8_lossy(&out).into_owned())
}

pub fn post(addr: &str, path: &str, body: Value) -> Value {
    let (code, text) = http(addr, "POST", path, Some(&body));
    assert_eq!(code, 200, "POST {path} {body}: {text}");
    serde_json::from_str(&text).unwrap()
}

// ---- the server ----

/// `awari serve` on a free port, stopped (SIGTERM: it ends its engines) when dropped.
pub struct Server {
    pub child: Child,
    pub addr: String,
}

impl Server {
    pub fn start(args: &[&str]) -> Server {
        let (child, addr) = super::serve(args, None);
        Server { child, addr }
    }

    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// The server's engines now: its children's pids.
    pub fn children(&self) -> Vec<u32> {
        super::children_of(self.child.id())
    }

    /// Resident memory, in KiB.
    pub fn rss_kib(&self) -> u64 {
        super::proc_status(self.child.id(), "VmRSS").expect("the server is running")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        super::terminate(&mut self.child);
    }
}

pub fn wait_until(limit: Duration, what: &str, mut done: impl FnMut() -> bool) {
    let until = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < until, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(30));
    }
}

// ---- WebDriver ----

/// `chromedriver` on a port of its own choosing with one headless Chromium session; both
/// stopped when dropped, also when the test fails (the session deleted, which ends the
/// browser, then chromedriver's process group and every process under it, by pid). One runs
/// at a time in this binary: it holds [`super::one_browser`] from start to end.
pub struct Browser {
    pub _driver: super::Group,
    pub addr: String,
    pub session: String,
    /// The browser's profile, removed once it has ended.
    pub _profile: super::Scratch,
    /// Dropped last, once everything above has ended.
    pub _one: std::sync::MutexGuard<'static, ()>,
}

/// The browser and its driver, or the test says why it is skipped (and returns). (Test
/// binaries that include `common` without a browser test leave it unused.)
#[allow(unused_macros)]
macro_rules! browser_or_skip {
    () => {
        match $crate::common::serve::tools() {
            Ok(t) => t,
            Err(reason) => return $crate::common::skipped($crate::common::Need::Browser, reason),
        }
    };
}
#[allow(unused_imports)]
pub(crate) use browser_or_skip;

/// The server's state of the session the page in `b` shows.
pub fn server_state(server: &Server, b: &Browser) -> Value {
    let id = b.eval("return document.body.getAttribute('data-session')");
    let (code, text) = http(
        &server.addr,
        "GET",
        &format!("/api/state?id={}", id.as_str().unwrap()),
        None,
    );
    assert_eq!(code, 200, "{text}");
    serde_json::from_str(&text).unwrap()
}

/// A browser and its driver, or why there are none.
pub fn tools() -> Result<(PathBuf, PathBuf), String> {
    let browser = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|b| super::on_path(b))
        .ok_or("no chromium on PATH (.ci/run installs Debian's chromium)")?;
    let driver = super::on_path("chromedriver")
        .ok_or("no chromedriver on PATH (.ci/run installs Debian's chromium-driver)")?;
    Ok((browser, driver))
}

/// How long chromedriver may take to say it listens.
pub const DRIVER_START: Duration = Duration::from_secs(60);

/// chromedriver listening on `port`, and the port; `port` 0 asks chromedriver to choose one
/// (a free port picked here and dropped before chromedriver binds it could be taken meanwhile
/// by another test's server). `None` when chromedriver exits without listening (the port was
/// taken) or does not say which port it chose (a version without `--port=0`).
pub fn driver_on(driver: &Path, port: u16) -> Option<(super::Group, u16)> {
    let mut command = Command::new(driver);
    command
        .arg(format!("--port={port}"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut group = super::Group::spawn(command).expect("chromedriver starts");
    let stdout = group.0.stdout.take().unwrap();
    let (tx, lines) = std::sync::mpsc::channel();
    // Read to its end, so that chromedriver never blocks on a full pipe.
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let _ = tx.send(line);
        }
    });
    let until = Instant::now() + DRIVER_START;
    let mut seen = Vec::new();
    loop {
        let left = until.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            // "ChromeDriver was started successfully on port 43835."
            Ok(line) if line.contains("started successfully") => {
                let said = line
                    .rsplit(' ')
                    .next()
                    .and_then(|w| w.trim_end_matches('.').parse::<u16>().ok());
                return match said {
                    Some(p) if p != 0 => Some((group, p)),
                    _ if port != 0 => Some((group, port)),
                    _ => None,
                };
            }
            Ok(line) => seen.push(line),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return None,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                panic!("chromedriver did not say it listens within {DRIVER_START:?}: {seen:?}")
            }
        }
    }
}

impl Browser {
    pub fn start(browser: &Path, driver: &Path, tag: &str) -> Browser {
        let one = super::one_browser();
        // Its own choice first; then, for a chromedriver that does not say its choice, ports
        // of the dynamic range that differ from run to run, the next on a conflict.
        let seed = std::process::id() as usize;
        let (child, port) = std::iter::once(0)
            .chain((0..20).map(|i| 49152 + ((seed * 7919 + i * 104729) % 16000) as u16))
            .find_map(|port| driver_on(driver, port))
            .expect("chromedriver listening: it exits on every port tried");
        let addr = format!("127.0.0.1:{port}");
        let profile = super::scratch("serve-chromium", tag);
        let dir = profile.display().to_string();
        let mut b = Browser {
            _driver: child,
            addr,
            session: String::new(),
            _profile: profile,
            _one: one,
        };
        let mut args = vec![
            "--headless=new".to_string(),
            "--disable-gpu".to_string(),
            // A tab not in front is "backgrounded": its renderer runs at a lower priority and
            // its timers are throttled. Beside busy processes it then got no time at all, and a
            // navigation in the second tab timed out after 120 s; every tab here is under test.
            "--disable-renderer-backgrounding".to_string(),
            "--disable-background-timer-throttling".to_string(),
            "--disable-backgrounding-occluded-windows".to_string(),
            "--window-size=1300,1000".to_string(),
            format!("--user-data-dir={dir}"),
        ];
        // SAFETY: geteuid has no preconditions.
        if unsafe { nix::libc::geteuid() } == 0 {
            args.push("--no-sandbox".to_string());
        }
        // WebDriver's own limits, each below `ANSWER`: a script, a page load.
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "timeouts": {"script": 60_000, "pageLoad": 120_000, "implicit": 0},
            "goog:chromeOptions": {"binary": browser.display().to_string(), "args": args}
        }}});
        let (code, text) = http(&b.addr, "POST", "/session", Some(&caps));
        assert_eq!(code, 200, "new WebDriver session: {text}");
        let v: Value = serde_json::from_str(&text).unwrap();
        b.session = v["value"]["sessionId"].as_str().unwrap().to_string();
        b
    }

    pub fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let (code, text) = self.request(method, path, body);
        assert_eq!(code, 200, "{method} {path}: {text}");
        serde_json::from_str::<Value>(&text).unwrap()["value"].take()
    }

    /// A WebDriver request of this session: its status and its body.
    fn request(&self, method: &str, path: &str, body: Option<Value>) -> (u16, String) {
        let path = format!("/session/{}{path}", self.session);
        let body = body.unwrap_or(json!({}));
        http(
            &self.addr,
            method,
            &path,
            (method == "POST").then_some(&body),
        )
    }

    /// `action` (a request on an element, `/element/ID/...`) on the first element `css`
    /// selects, found again while the page replaces that element between the finding and the
    /// action: a state the server pushes redraws the board and the moves list at any time.
    /// Each try follows a change of the page, so the count bounds no duration.
    fn on_element(&self, css: &str, action: &str, body: Option<Value>) {
        for _ in 0..100 {
            let id = self.element(css);
            let path = format!("/element/{id}/{action}");
            let (code, text) = self.request("POST", &path, body.clone());
            if code == 200 {
                return;
            }
            let stale = serde_json::from_str::<Value>(&text)
                .is_ok_and(|v| v["value"]["error"] == "stale element reference");
            assert!(stale, "POST {path}: {code} {text}");
        }
        panic!("{css}: replaced 100 times between its finding and {action}");
    }

    pub fn go(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
    }

    pub fn eval(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": [] })),
        )
    }

    /// The WebDriver id of the first element `css` selects.
    pub fn element(&self, css: &str) -> String {
        let e = self.call(
            "POST",
            "/element",
            Some(json!({ "using": "css selector", "value": css })),
        );
        e.as_object()
            .unwrap()
            .values()
            .next()
            .unwrap()
            .as_str()
            .unwrap()
            .to_string()
    }

    pub fn click(&self, css: &str) {
        self.on_element(css, "click", None);
    }

    pub fn type_into(&self, css: &str, text: &str) {
        self.on_element(css, "clear", None);
        self.on_element(css, "value", Some(json!({ "text": text })));
    }

    pub fn screenshot(&self, name: &str) -> PathBuf {
        let data = self.call("GET", "/screenshot", None);
        let png = base64(data.as_str().unwrap());
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .parent()
            .unwrap()
            .join("serve-artifacts");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, &png).unwrap();
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        path
    }

    pub fn new_tab(&self) -> String {
        let v = self.call("POST", "/window/new", Some(json!({ "type": "tab" })));
        v["handle"].as_str().unwrap().to_string()
    }

    pub fn tab(&self) -> String {
        self.call("GET", "/window", None)
            .as_str()
            .unwrap()
            .to_string()
    }

    pub fn switch(&self, handle: &str) {
        self.call("POST", "/window", Some(json!({ "handle": handle })));
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // Politely first (chromedriver ends the browser it started), but not for long: the
        // group's end below stops whatever is left.
        if !self.session.is_empty() && !std::thread::panicking() {
            let _ = std::panic::catch_unwind(|| {
                http_within(
                    &self.addr,
                    "DELETE",
                    &format!("/session/{}", self.session),
                    None,
                    Duration::from_secs(20),
                )
            });
        }
        // `self._driver` (a `Group`) is dropped next: chromedriver, the browser and its
        // helpers, by pid.
    }
}

pub fn base64(text: &str) -> Vec<u8> {
    const ABC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in text.bytes() {
        let Some(v) = ABC.iter().position(|&a| a == c) else {
            continue;
        };
        acc = (acc << 6) | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

// ---- what the page shows ----

/// What the page drew, read back from the SVG and the body's attributes.
pub const READ: &str = r#"
const b = document.getElementById("board"), body = document.body;
const num = (sel) => { const n = b.querySelector(sel); return n ? +n.textContent : null; };
return {
  busy: body.getAttribute("data-busy"),
  generation: body.getAttribute("data-generation"),
  moves: body.getAttribute("data-moves"),
  over: body.getAttribute("data-over"),
  houses: [...Array(12).keys()].map((i) => num(`[data-house="${i}"]`)),
  stores: [num('[data-store="0"]'), num('[data-store="1"]')],
  side: (b.querySelector("[data-side]") || { getAttribute: () => null }).getAttribute("data-side"),
  legal: [...b.querySelectorAll("[data-legal]")].map((c) => c.getAttribute("data-legal")).join(""),
  illegal: [...b.querySelectorAll("[data-illegal]")].map((c) => [+c.getAttribute("data-house-cell"), c.getAttribute("data-illegal")]),
  banner: document.getElementById("banner").textContent,
  error: document.getElementById("error").hidden ? null : document.getElementById("error").textContent,
  notice: document.getElementById("notice").textContent,
};"#;

/// Waits until the page has settled with a person to move, the game over, or an error.
pub fn settled(b: &Browser) -> Value {
    let mut last = Value::Null;
    wait_until(Duration::from_secs(60), "the page to settle", || {
        last = b.eval(READ);
        last["busy"] == "0"
            && last["generation"].is_string()
            && (!last["legal"].as_str().unwrap_or("").is_empty()
                || last["over"].as_str().is_some_and(|o| !o.is_empty())
                || last["error"].is_string())
    });
    last
}

/// The rules' game behind what the page shows: its start and its moves.
pub fn game_of(variant: Variant, start: &str, page: &Value) -> Game {
    let mut game = Game::new(Board::from_notation(variant, start).unwrap());
    game.play_text(page["moves"].as_str().unwrap()).unwrap();
    game
}

/// The page's board is the rules' board, and its clickable houses the legal moves.
pub fn check_board(page: &Value, game: &Game, what: &str) {
    let board = game.board();
    let (houses, stores) = drawn_at_end(game);
    let houses: Vec<u64> = houses.iter().map(|&h| u64::from(h)).collect();
    let shown: Vec<u64> = page["houses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(shown, houses, "{what}: houses after {}", page["moves"]);
    let stores = [u64::from(stores[0]), u64::from(stores[1])];
    assert_eq!(page["stores"], json!(stores), "{what}: stores");
    if game.outcome().is_none() && page["error"].is_null() {
        assert_eq!(
            page["side"].as_str().unwrap(),
            board.side_to_move().letter().to_string(),
            "{what}: side to move"
        );
        let legal: String = (0..12)
            .filter_map(Move::new)
            .filter(|&m| game.legal_moves().contains(m))
            .map(Move::to_char)
            .collect();
        if !page["legal"].as_str().unwrap().is_empty() {
            assert_eq!(
                page["legal"].as_str().unwrap(),
                legal,
                "{what}: legal houses"
            );
            // Every other house of the mover is marked with its reason.
            let illegal = page["illegal"].as_array().unwrap().len();
            assert_eq!(illegal + legal.len(), 6, "{what}: {}", page["illegal"]);
        }
    }
}

/// Plays the page's game to its end against its engine, clicking the `pick`-th legal house
/// (wrapping) each turn and checking the board after every move. Returns the final page.
pub fn play_out(b: &Browser, variant: Variant, start: &str, what: &str, max_plies: usize) -> Value {
    let mut k = 0usize;
    loop {
        let page = settled(b);
        assert!(page["error"].is_null(), "{what}: {}", page["error"]);
        let game = game_of(variant, start, &page);
        check_board(&page, &game, what);
        if let Some(outcome) = game.outcome() {
            assert_eq!(page["over"], outcome.reason.name(), "{what}");
            let banner = page["banner"].as_str().unwrap();
            assert!(banner.contains(&outcome.to_string()), "{what}: {banner}");
            return page;
        }
        if game.moves().len() >= max_plies {
            return page;
        }
        let legal = page["legal"].as_str().unwrap();
        let letter = legal.chars().nth((k * 5 + 3) % legal.len()).unwrap();
        k += 1;
        let before = page["moves"].as_str().unwrap().to_string();
        let house = Move::from_char(letter).unwrap().house();
        b.click(&format!("[data-house-cell=\"{house}\"]"));
        wait_until(Duration::from_secs(30), "the move to be taken", || {
            b.eval(READ)["moves"].as_str() != Some(before.as_str())
        });
    }
}

/// The houses and stores the page draws for `game`: its board, and once it is over the
/// final count in the stores, each row the result counts emptied into its owner's store.
pub fn drawn_at_end(game: &Game) -> ([u8; 12], [u8; 2]) {
    let (mut houses, stores) = (game.board().houses(), game.board().stores());
    let Some(outcome) = game.outcome() else {
        return (houses, stores);
    };
    for side in 0..2 {
        if outcome.stores[side] != stores[side] {
            houses[side * 6..side * 6 + 6].fill(0);
        }
    }
    (houses, outcome.stores)
}

pub fn no_animation(b: &Browser) {
    b.eval(r#"document.getElementById("animate").checked = false; return 0;"#);
}
