//! `awari serve` in a real browser: headless Chromium driven through WebDriver
//! (`chromedriver`, spoken to over plain HTTP), and the server's HTTP API alone under load.
//!
//! The browser plays whole games against greedy in each rule set by clicking houses, and after
//! every move the board the page shows is compared with the rules' position, computed here
//! from the moves the page lists; it takes back, sets up a position, plays two games in two
//! tabs at once, and shows an engine that crashes mid-game. Screenshots of each rule set's
//! board go to `target/serve-artifacts/`. Without `chromium` or `chromedriver` the browser
//! tests say `skipped: <test>: <reason>` (`.ci/run` installs both where it can).
//!
//! Whatever a test starts (the server, chromedriver, the browser through it) it stops by pid.

mod common;

use awari::rules::{Board, Game, Move, Variant};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const AWARI: &str = env!("CARGO_BIN_EXE_awari");
const MISBEHAVE: &str = env!("CARGO_BIN_EXE_misbehave");

// ---- plain HTTP ----

/// How long a request waits for its whole answer: beyond WebDriver's own limits set below
/// (a script 60 s, a page load 120 s), so that the driver's error, naming what it waited
/// for, comes first.
const ANSWER: Duration = Duration::from_secs(180);

/// One HTTP/1.1 request to `addr` (host:port); the status and the body. A request that gets
/// no whole answer within [`ANSWER`] fails the test, saying which request it was.
fn http(addr: &str, method: &str, path: &str, body: Option<&Value>) -> (u16, String) {
    http_within(addr, method, path, body, ANSWER)
}

/// [`http`], waiting at most `limit` for the answer.
fn http_within(
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

fn post(addr: &str, path: &str, body: Value) -> Value {
    let (code, text) = http(addr, "POST", path, Some(&body));
    assert_eq!(code, 200, "POST {path} {body}: {text}");
    serde_json::from_str(&text).unwrap()
}

// ---- the server ----

/// `awari serve` on a free port, stopped (SIGTERM: it ends its engines) when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = common::hermetic(AWARI)
            .arg("serve")
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("awari serve");
        let addr = common::served_address(&mut child);
        Server { child, addr }
    }

    fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// The server's engines now: its children's pids.
    fn children(&self) -> Vec<u32> {
        common::children_of(self.child.id())
    }

    /// Resident memory, in KiB.
    fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .arg(self.child.id().to_string())
            .status();
        let until = Instant::now() + Duration::from_secs(10);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn wait_until(limit: Duration, what: &str, mut done: impl FnMut() -> bool) {
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
/// at a time in this binary: it holds [`common::one_browser`] from start to end.
struct Browser {
    _driver: common::Group,
    addr: String,
    session: String,
    /// The browser's profile, removed once it has ended.
    _profile: common::Scratch,
    /// Dropped last, once everything above has ended.
    _one: std::sync::MutexGuard<'static, ()>,
}

/// A browser and its driver, or why there are none.
fn tools() -> Result<(PathBuf, PathBuf), String> {
    let browser = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|b| common::on_path(b))
        .ok_or("no chromium on PATH (.ci/run installs Debian's chromium)")?;
    let driver = common::on_path("chromedriver")
        .ok_or("no chromedriver on PATH (.ci/run installs Debian's chromium-driver)")?;
    Ok((browser, driver))
}

/// How long chromedriver may take to say it listens.
const DRIVER_START: Duration = Duration::from_secs(60);

/// chromedriver listening on `port`, and the port; `port` 0 asks chromedriver to choose one
/// (a free port picked here and dropped before chromedriver binds it could be taken meanwhile
/// by another test's server). `None` when chromedriver exits without listening (the port was
/// taken) or does not say which port it chose (a version without `--port=0`).
fn driver_on(driver: &Path, port: u16) -> Option<(common::Group, u16)> {
    let mut command = Command::new(driver);
    command
        .arg(format!("--port={port}"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut group = common::Group::spawn(command).expect("chromedriver starts");
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
    fn start(browser: &Path, driver: &Path, tag: &str) -> Browser {
        let one = common::one_browser();
        // Its own choice first; then, for a chromedriver that does not say its choice, ports
        // of the dynamic range that differ from run to run, the next on a conflict.
        let seed = std::process::id() as usize;
        let (child, port) = std::iter::once(0)
            .chain((0..20).map(|i| 49152 + ((seed * 7919 + i * 104729) % 16000) as u16))
            .find_map(|port| driver_on(driver, port))
            .expect("chromedriver listening: it exits on every port tried");
        let addr = format!("127.0.0.1:{port}");
        let profile = common::scratch("serve-chromium", tag);
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

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        let body = body.unwrap_or(json!({}));
        let (code, text) = http(
            &self.addr,
            method,
            &path,
            (method == "POST").then_some(&body),
        );
        assert_eq!(code, 200, "{method} {path}: {text}");
        serde_json::from_str::<Value>(&text).unwrap()["value"].take()
    }

    fn go(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
    }

    fn eval(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": [] })),
        )
    }

    fn click(&self, css: &str) {
        let e = self.call(
            "POST",
            "/element",
            Some(json!({ "using": "css selector", "value": css })),
        );
        let id = e
            .as_object()
            .unwrap()
            .values()
            .next()
            .unwrap()
            .as_str()
            .unwrap()
            .to_string();
        self.call("POST", &format!("/element/{id}/click"), None);
    }

    fn type_into(&self, css: &str, text: &str) {
        let e = self.call(
            "POST",
            "/element",
            Some(json!({ "using": "css selector", "value": css })),
        );
        let id = e
            .as_object()
            .unwrap()
            .values()
            .next()
            .unwrap()
            .as_str()
            .unwrap()
            .to_string();
        self.call("POST", &format!("/element/{id}/clear"), None);
        self.call(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({ "text": text })),
        );
    }

    fn screenshot(&self, name: &str) -> PathBuf {
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

    fn new_tab(&self) -> String {
        let v = self.call("POST", "/window/new", Some(json!({ "type": "tab" })));
        v["handle"].as_str().unwrap().to_string()
    }

    fn tab(&self) -> String {
        self.call("GET", "/window", None)
            .as_str()
            .unwrap()
            .to_string()
    }

    fn switch(&self, handle: &str) {
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

fn base64(text: &str) -> Vec<u8> {
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
const READ: &str = r#"
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
fn settled(b: &Browser) -> Value {
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
fn game_of(variant: Variant, start: &str, page: &Value) -> Game {
    let mut game = Game::new(Board::from_notation(variant, start).unwrap());
    game.play_text(page["moves"].as_str().unwrap()).unwrap();
    game
}

/// The page's board is the rules' board, and its clickable houses the legal moves.
fn check_board(page: &Value, game: &Game, what: &str) {
    let board = game.board();
    let houses: Vec<u64> = board.houses().iter().map(|&h| u64::from(h)).collect();
    let shown: Vec<u64> = page["houses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(shown, houses, "{what}: houses after {}", page["moves"]);
    let stores = [u64::from(board.stores()[0]), u64::from(board.stores()[1])];
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
fn play_out(b: &Browser, variant: Variant, start: &str, what: &str, max_plies: usize) -> Value {
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

fn no_animation(b: &Browser) {
    b.eval(r#"document.getElementById("animate").checked = false; return 0;"#);
}

#[test]
fn whole_games_against_greedy_in_every_rule_set() {
    let (browser, driver) = match tools() {
        Ok(t) => t,
        Err(reason) => return common::skipped(common::Need::Browser, reason),
    };
    let server = Server::start(&[]);
    let b = Browser::start(&browser, &driver, "games");
    for variant in Variant::ALL {
        b.go(&format!(
            "{}?variant={variant}&south=human&north=greedy",
            server.url()
        ));
        let first = settled(&b);
        let ms = b.eval("return document.documentElement.getAttribute('data-first-board-ms')");
        eprintln!("{variant}: first board drawn {ms} ms after the page's start");
        // The first moves are sown seed by seed; the rest are shown at once.
        let start = Board::start(variant).to_string();
        check_board(&first, &game_of(variant, &start, &first), "start");
        if variant == Variant::Ayoayo || variant == Variant::Kalah {
            play_out(&b, variant, &start, variant.name(), 4);
        }
        no_animation(&b);
        let end = play_out(&b, variant, &start, variant.name(), usize::MAX);
        assert!(!end["over"].as_str().unwrap().is_empty());
        b.screenshot(variant.name());
    }
}

#[test]
fn take_back_set_up_a_position_and_two_tabs_at_once() {
    let (browser, driver) = match tools() {
        Ok(t) => t,
        Err(reason) => return common::skipped(common::Need::Browser, reason),
    };
    let server = Server::start(&[]);
    let b = Browser::start(&browser, &driver, "tabs");
    b.go(&format!("{}?south=human&north=greedy", server.url()));
    settled(&b);
    no_animation(&b);
    let start = Board::start(Variant::Oware).to_string();
    play_out(&b, Variant::Oware, &start, "oware", 6);
    // Take back: to the person's previous turn (greedy's answer and the person's move).
    b.click("#takeback");
    wait_until(Duration::from_secs(10), "the take-back", || {
        b.eval(READ)["moves"].as_str().is_some_and(|m| m.len() == 4)
    });
    let page = settled(&b);
    check_board(&page, &game_of(Variant::Oware, &start, &page), "taken back");

    // A position set up from the notation: the feeding rule marks E, empty houses A-D.
    let fen = "0-0-0-0-1-3-0-0-0-0-0-0-20-24-S";
    b.type_into("#fen", fen);
    b.type_into("#moves-in", "");
    b.click("#new");
    wait_until(Duration::from_secs(10), "the set-up position", || {
        b.eval(READ)["moves"].as_str() == Some("")
            && b.eval("return document.body.getAttribute('data-fen')") == fen
    });
    let page = settled(&b);
    check_board(&page, &game_of(Variant::Oware, fen, &page), "set up");
    assert_eq!(
        page["illegal"],
        json!([
            [0, "empty"],
            [1, "empty"],
            [2, "empty"],
            [3, "empty"],
            [4, "must-feed"]
        ])
    );
    // A position the rules refuse is said so, and the game stays as it was.
    b.type_into("#fen", "4-4-4-x");
    b.click("#new");
    wait_until(Duration::from_secs(10), "the refusal", || {
        b.eval(READ)["notice"]
            .as_str()
            .is_some_and(|n| n.contains("Not started"))
    });
    assert_eq!(b.eval("return document.body.getAttribute('data-fen')"), fen);

    // Two tabs, two games at once, moves interleaved.
    b.type_into("#fen", "");
    let first = b.tab();
    let second = b.new_tab();
    b.switch(&second);
    b.go(&format!(
        "{}?variant=kalah&south=human&north=greedy",
        server.url()
    ));
    settled(&b);
    no_animation(&b);
    b.switch(&first);
    b.click("#new");
    // The set-up position had no moves either: the new game is seen by its position.
    wait_until(Duration::from_secs(10), "the new game", || {
        b.eval("return document.body.getAttribute('data-fen')") == start.as_str()
    });
    let kalah = Board::start(Variant::Kalah).to_string();
    for plies in [2, 4, 6, 8] {
        for (tab, variant, start) in [
            (&first, Variant::Oware, &start),
            (&second, Variant::Kalah, &kalah),
        ] {
            b.switch(tab);
            play_out(&b, variant, start, variant.name(), plies);
        }
    }
    assert_eq!(
        common::children_of(server.child.id()).len(),
        2,
        "one engine per tab"
    );
}

#[test]
fn an_engine_that_crashes_is_reported_on_the_page() {
    let (browser, driver) = match tools() {
        Ok(t) => t,
        Err(reason) => return common::skipped(common::Need::Browser, reason),
    };
    let server = Server::start(&[
        "--engine",
        &format!("cmd={MISBEHAVE}"),
        "arg=crash-at",
        "arg=5",
        "name=crasher",
    ]);
    let b = Browser::start(&browser, &driver, "crash");
    b.go(&format!("{}?south=human&north=engine-1", server.url()));
    settled(&b);
    no_animation(&b);
    let start = Board::start(Variant::Oware).to_string();
    let mut page = Value::Null;
    wait_until(Duration::from_secs(60), "the crash", || {
        page = settled(&b);
        if page["error"].is_string() {
            return true;
        }
        let legal = page["legal"].as_str().unwrap();
        let house = Move::from_char(legal.chars().next().unwrap())
            .unwrap()
            .house();
        let before = page["moves"].clone();
        b.click(&format!("[data-house-cell=\"{house}\"]"));
        wait_until(Duration::from_secs(10), "the move", || {
            b.eval(READ)["moves"] != before
        });
        false
    });
    let error = page["error"].as_str().unwrap();
    assert!(
        error.contains("crasher") && error.contains("exited (status 3)"),
        "{error}"
    );
    // The board stays the rules' board, and no house can be clicked until a new game.
    check_board(&page, &game_of(Variant::Oware, &start, &page), "crashed");
    assert_eq!(page["legal"], "");
    b.screenshot("crash");
    wait_until(Duration::from_secs(10), "the crashed engine reaped", || {
        server.children().is_empty()
    });
}

/// Plays one game through the API: the person's side picks the first legal move; returns
/// the plies played.
fn api_game(addr: &str, variant: &str) -> usize {
    let id = post(
        addr,
        "/api/session",
        json!({ "variant": variant, "south": "human", "north": "greedy" }),
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    let state_path = format!("/api/state?id={id}");
    let until = Instant::now() + Duration::from_secs(240);
    loop {
        assert!(Instant::now() < until, "a game that does not end");
        let (code, text) = http(addr, "GET", &state_path, None);
        assert_eq!(code, 200, "{text}");
        let state: Value = serde_json::from_str(&text).unwrap();
        assert!(state["error"].is_null(), "{}", state["error"]);
        if !state["over"].is_null() {
            post(addr, "/api/close", json!({ "id": id }));
            return state["moves"].as_str().unwrap().len();
        }
        match state["legal"].as_str().unwrap().chars().next() {
            Some(m) => {
                post(
                    addr,
                    "/api/move",
                    json!({ "id": id, "move": m.to_string() }),
                );
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

#[test]
fn fifty_games_at_once_through_the_api() {
    let server = Server::start(&[]);
    let addr = server.addr.clone();
    // A first game warms the server (threads, allocator) before memory is measured.
    api_game(&addr, "oware");
    let before = server.rss_kib();
    // Two rounds of 50: memory after the second is what it was after the first (flat), and
    // every engine of each round has ended.
    let mut after = [0; 2];
    for round in after.iter_mut() {
        let games: Vec<_> = (0..50)
            .map(|i| {
                let addr = addr.clone();
                let variant = ["oware", "awari", "ahl", "kalah", "ayoayo"][i % 5];
                std::thread::spawn(move || api_game(&addr, variant))
            })
            .collect();
        let mut peak = before;
        let mut plies = 0;
        for g in games {
            plies += g.join().expect("every game finishes");
            peak = peak.max(server.rss_kib());
        }
        wait_until(Duration::from_secs(10), "every engine ended", || {
            server.children().is_empty()
        });
        *round = server.rss_kib();
        eprintln!(
            "50 games ({plies} plies) against greedy: server RSS {before} KiB before, {peak} KiB \
             at the most seen, {round} KiB after"
        );
    }
    assert!(
        after[1] < after[0] + 4 * 1024,
        "memory grew from {} to {} KiB over a second round",
        after[0],
        after[1]
    );
    // Requests the server refuses.
    let (code, _) = http(
        &addr,
        "POST",
        "/api/move",
        Some(&json!({ "id": "nope", "move": "A" })),
    );
    assert_eq!(code, 404);
    let big = json!({ "id": "x".repeat(70 << 10) });
    let (code, _) = http(&addr, "POST", "/api/move", Some(&big));
    assert_eq!(code, 413);
    let (code, body) = http(&addr, "GET", "/../Cargo.toml", None);
    assert_eq!(code, 404, "{body}");
    let (code, _) = http(
        &addr,
        "POST",
        "/api/session",
        Some(&json!({ "variant": "chess", "south": "human", "north": "greedy" })),
    );
    assert_eq!(code, 400);
}

#[test]
fn analysis_hint_review_and_records() {
    let (browser, driver) = match tools() {
        Ok(t) => t,
        Err(reason) => return common::skipped(common::Need::Browser, reason),
    };
    let server = Server::start(&[]);
    let b = Browser::start(&browser, &driver, "analysis");
    b.go(&format!(
        "{}?variant=kalah&south=human&north=greedy",
        server.url()
    ));
    settled(&b);
    no_animation(&b);
    let kalah = Board::start(Variant::Kalah).to_string();

    // Analysis: lines come as the engine searches; each line's variation is legal, and
    // hovering it draws its end, the rules' position after it.
    b.click("#analyse");
    let mut lines = Value::Null;
    wait_until(Duration::from_secs(30), "analysis lines", || {
        lines = b.eval(
            r##"return [...document.querySelectorAll("#lines tbody tr")].map((tr) =>
                 [...tr.children].map((td) => td.textContent));"##,
        );
        lines.as_array().is_some_and(|l| {
            l.first()
                .is_some_and(|r| r[1].as_str().unwrap().parse::<u32>().unwrap() >= 4)
        })
    });
    // Read and hovered in one script, so that no new line comes between.
    let hovered = b.eval(
        r##"const td = document.querySelector("#lines td.pv");
           td.dispatchEvent(new MouseEvent("mouseenter"));
           return { pv: td.textContent, houses: [...Array(12).keys()].map((i) =>
             +document.querySelector(`[data-house="${i}"]`).textContent) };"##,
    );
    let pv = hovered["pv"].as_str().unwrap().to_string();
    let hovered = &hovered["houses"];
    let mut after = Game::new(Board::from_notation(Variant::Kalah, &kalah).unwrap());
    after.play_text(&pv).expect("a legal variation");
    let expected: Vec<u8> = after.board().houses().to_vec();
    assert_eq!(*hovered, json!(expected), "the end of {pv}");
    assert!(b
        .eval(r##"return document.getElementById("evalfill").style.width"##)
        .as_str()
        .unwrap()
        .ends_with('%'));

    // Three lines: the engine offers `MultiPV`, so the page offers a choice; with 3 chosen,
    // three lines of distinct first moves come, each with a depth and a legal variation.
    b.eval(r##"document.querySelector("#lines td.pv").dispatchEvent(new MouseEvent("mouseleave")); return 0;"##);
    wait_until(Duration::from_secs(10), "the choice of lines", || {
        b.eval(r##"return !document.getElementById("lines-choice").hidden"##) == true
    });
    b.eval(
        r##"const s = document.getElementById("lines-n"); s.value = "3";
           s.dispatchEvent(new Event("change")); return 0;"##,
    );
    let mut three = Value::Null;
    wait_until(Duration::from_secs(30), "three analysis lines", || {
        three = b.eval(
            r##"return [...document.querySelectorAll("#lines tbody tr")].map((tr) =>
                 [...tr.children].map((td) => td.textContent));"##,
        );
        three.as_array().is_some_and(|rows| {
            rows.len() == 3
                && rows
                    .iter()
                    .all(|r| r[1].as_str().unwrap().parse::<u32>().unwrap_or(0) >= 2)
        })
    });
    let mut firsts = Vec::new();
    for row in three.as_array().unwrap() {
        let pv = row[3].as_str().unwrap();
        let mut game = Game::new(Board::from_notation(Variant::Kalah, &kalah).unwrap());
        game.play_text(pv).expect("a legal variation");
        firsts.push(pv.chars().next().unwrap());
    }
    firsts.sort_unstable();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "three distinct lines: {three}");
    b.screenshot("three-lines");
    b.click("#analyse");

    // A hint: one of the legal houses, marked on the board.
    b.eval(r##"document.querySelector("#lines td.pv").dispatchEvent(new MouseEvent("mouseleave")); return 0;"##);
    b.click("#hint");
    let mut hint = Value::Null;
    wait_until(Duration::from_secs(20), "a hint", || {
        hint = b.eval(r##"const c = document.querySelector("#board .hint"); return c ? c.getAttribute("data-legal") : null;"##);
        hint.is_string()
    });
    assert!(settled(&b)["legal"]
        .as_str()
        .unwrap()
        .contains(hint.as_str().unwrap()));

    // A whole game, then its review: a score for every position, and each marked move a
    // different move from the engine's best.
    let end = play_out(&b, Variant::Kalah, &kalah, "kalah", usize::MAX);
    let plies = end["moves"].as_str().unwrap().len();
    b.eval(r##"document.getElementById("review-ms").value = "100"; return 0;"##);
    b.click("#review");
    wait_until(Duration::from_secs(120), "the review", || {
        b.eval(r##"return document.body.getAttribute("data-review")"##) == "done"
    });
    let points = b
        .eval(r##"return +document.querySelector("#graph polyline").getAttribute("data-points")"##);
    assert_eq!(points, json!(plies + 1));
    let judged = b.eval(
        r##"return [...document.querySelectorAll("#judged li")].map((li) => li.textContent)"##,
    );
    for line in judged.as_array().unwrap() {
        let line = line.as_str().unwrap();
        let played = line.chars().next().unwrap();
        let better = line.rsplit("better: ").next().unwrap();
        assert_ne!(better, played.to_string(), "{line}");
    }
    b.screenshot("review");

    // The record: the referee's JSON line, and its PGN.
    let id = b.eval(r##"return document.body.getAttribute("data-session")"##);
    let id = id.as_str().unwrap();
    let (code, line) = http(
        &server.addr,
        "GET",
        &format!("/api/record?id={id}&format=json"),
        None,
    );
    assert_eq!(code, 200);
    let record = awari::record::GameRecord::from_json(line.trim().as_bytes()).unwrap();
    assert_eq!(record.moves, end["moves"].as_str().unwrap());
    assert_eq!(record.variant, "kalah");
    assert_ne!(record.result.tag(), "*");
    let (code, pgn) = http(
        &server.addr,
        "GET",
        &format!("/api/record?id={id}&format=pgn"),
        None,
    );
    assert_eq!(code, 200);
    assert!(
        pgn.contains("[Variant \"kalah\"]") || pgn.contains("kalah"),
        "{pgn}"
    );

    // Loaded again into a fresh game, and stepped through: each position is the rules' one.
    b.click("#new");
    wait_until(Duration::from_secs(10), "a fresh game", || {
        b.eval(READ)["moves"] == ""
    });
    b.type_into("#record-in", line.trim());
    b.click("#load");
    wait_until(Duration::from_secs(10), "the record loaded", || {
        b.eval(READ)["moves"] == record.moves.as_str()
    });
    b.click("#ply-first");
    for ply in 0..4usize {
        let want = ply.to_string();
        wait_until(Duration::from_secs(10), "the step", || {
            b.eval(r##"return document.body.getAttribute("data-view")"##) == want.as_str()
        });
        let page = b.eval(READ);
        let mut game = Game::new(Board::from_notation(Variant::Kalah, &record.start).unwrap());
        game.play_text(&record.moves[..ply]).unwrap();
        let houses: Vec<u8> = game.board().houses().to_vec();
        assert_eq!(page["houses"], json!(houses), "ply {ply}");
        b.click("#ply-next");
    }

    // The downloaded PGN loads the same way; a broken one is refused, saying where.
    let broken = pgn.replacen("\n\n", "\n\nF Q9 ", 1);
    b.type_into("#record-in", &broken);
    b.click("#load");
    wait_until(Duration::from_secs(10), "the broken PGN refused", || {
        let notice = b.eval(READ)["notice"].as_str().unwrap_or("").to_string();
        notice.starts_with("Not loaded: the PGN: line ") && notice.contains("\"Q9\"")
    });
    let generation = b.eval(READ)["generation"].clone();
    b.type_into("#record-in", &pgn);
    b.click("#load");
    let mut page = Value::Null;
    let until = Instant::now() + Duration::from_secs(30);
    while page["generation"] == generation || page["moves"] != record.moves.as_str() {
        assert!(Instant::now() < until, "the PGN not loaded: {page}");
        std::thread::sleep(Duration::from_millis(30));
        page = b.eval(READ);
    }
    b.click("#ply-first");
    for ply in 0..=record.moves.len() {
        let want = ply.to_string();
        wait_until(Duration::from_secs(10), "the step", || {
            let at = b.eval(r##"return document.body.getAttribute("data-view")"##);
            at == want.as_str() || (ply == record.moves.len() && at.is_null())
        });
        let page = b.eval(READ);
        let mut game = Game::new(Board::from_notation(Variant::Kalah, &record.start).unwrap());
        game.play_text(&record.moves[..ply]).unwrap();
        let houses: Vec<u8> = game.board().houses().to_vec();
        assert_eq!(page["houses"], json!(houses), "PGN, ply {ply}");
        b.eval(r##"document.getElementById("ply-next").click(); return 0;"##);
    }
}

#[test]
fn the_page_carries_its_policy_and_an_address_off_loopback_is_warned_of() {
    let server = Server::start(&[]);
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    write!(
        stream,
        "GET / HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.addr
    )
    .unwrap();
    let mut text = String::new();
    stream.read_to_string(&mut text).unwrap();
    let (head, html) = text.split_once("\r\n\r\n").unwrap();
    let policy = head
        .lines()
        .find_map(|l| l.strip_prefix("Content-Security-Policy: "))
        .expect("a Content-Security-Policy");
    assert!(policy.contains("default-src 'none'") && policy.contains("script-src 'self'"));
    // Every script is a file of its own: none inline, and none from elsewhere.
    assert_eq!(html.matches("<script").count(), 2, "{html}");
    assert_eq!(html.matches("<script src=\"/").count(), 2, "{html}");
    assert!(!html.contains("http://") && !html.contains("https://"));
    // Another site's name for this address is refused.
    let (code, _) = {
        let mut s = TcpStream::connect(&server.addr).unwrap();
        write!(
            s,
            "GET / HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut t = String::new();
        s.read_to_string(&mut t).unwrap();
        (t.split_whitespace().nth(1).unwrap_or("").to_string(), t)
    };
    assert_eq!(code, "421");

    let mut child = common::hermetic(AWARI)
        .args(["serve", "--bind", "0.0.0.0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut warning = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut warning)
        .unwrap();
    let mut url = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut url)
        .unwrap();
    let _ = Command::new("kill").arg(child.id().to_string()).status();
    let _ = child.wait();
    assert!(
        warning.starts_with("warning: listening on 0.0.0.0"),
        "{warning}"
    );
    // A wildcard address is no address to type: this machine's own is printed.
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
}

#[test]
fn a_review_marks_a_move_that_throws_a_capture_away() {
    // South's F captures 7 seeds (a, b and c to 2, 2 and 3); D fills F to 4, whose last
    // seed then lands in North's empty d: the capture is gone. D is played on purpose.
    let start = "1-0-0-2-0-3-1-1-2-0-0-2-20-16-S";
    let board = Board::from_notation(Variant::Oware, start).unwrap();
    let mut best = Game::new(board);
    best.play_text("F").unwrap();
    assert_eq!(best.board().stores()[0], 27, "the premise: F captures 7");
    let server = Server::start(&[]);
    let id = post(
        &server.addr,
        "/api/session",
        json!({ "variant": "oware", "south": "human", "north": "human", "fen": start, "moves": "D" }),
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    post(&server.addr, "/api/review", json!({ "id": id, "ms": 200 }));
    let mut state = Value::Null;
    wait_until(Duration::from_secs(30), "the review", || {
        let (code, text) = http(&server.addr, "GET", &format!("/api/state?id={id}"), None);
        assert_eq!(code, 200, "{text}");
        state = serde_json::from_str(&text).unwrap();
        state["review"]["done"] == true
    });
    let judged = &state["review"]["moves"][0];
    assert_eq!(judged["ply"], 1, "{state}");
    assert_eq!(judged["mv"], "D", "{judged}");
    assert_eq!(judged["best"], "F", "{judged}");
    assert!(judged["loss"].as_f64().unwrap() >= 2.0, "{judged}");
    assert!(
        ["mistake", "blunder"].contains(&judged["mark"].as_str().unwrap_or("")),
        "{judged}"
    );
}

#[test]
fn the_analysis_shows_the_endgame_tables_value_within_their_reach() {
    let dir = common::scratch("serve", "tables");
    common::build_tables(&dir, Variant::Oware, 6);
    let server = Server::start(&["--tables", dir.to_str().unwrap()]);
    // Six seeds on the board: within the tables.
    let id = post(
        &server.addr,
        "/api/session",
        json!({ "variant": "oware", "south": "human", "north": "human",
                "fen": "0-1-0-2-0-1-1-0-0-1-0-0-20-20-S" }),
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    post(
        &server.addr,
        "/api/analyse",
        json!({ "id": id, "on": true }),
    );
    let mut state = Value::Null;
    wait_until(Duration::from_secs(30), "the tables' value", || {
        let (code, text) = http(&server.addr, "GET", &format!("/api/state?id={id}"), None);
        assert_eq!(code, 200, "{text}");
        state = serde_json::from_str(&text).unwrap();
        state["tables"].as_array().is_some_and(|t| !t.is_empty())
    });
    let first = state["tables"][0].as_str().unwrap();
    assert!(first.starts_with("value"), "{state}");
    // A move changes the position: what the tables said of the old one is gone.
    let m = state["legal"].as_str().unwrap().chars().next().unwrap();
    let after = post(
        &server.addr,
        "/api/move",
        json!({ "id": id, "move": m.to_string() }),
    );
    assert_eq!(after["tables"], json!([]), "{after}");

    // The page shows it above the lines.
    let (browser, driver) = match tools() {
        Ok(t) => t,
        Err(reason) => return common::skipped(common::Need::Browser, reason),
    };
    let b = Browser::start(&browser, &driver, "tables");
    b.go(&format!(
        "{}?variant=oware&south=human&north=human&fen=0-1-0-2-0-1-1-0-0-1-0-0-20-20-S",
        server.url()
    ));
    settled(&b);
    b.click("#analyse");
    wait_until(Duration::from_secs(30), "the tables on the page", || {
        let shown = b.eval(r##"return document.getElementById("tables").textContent"##);
        shown
            .as_str()
            .is_some_and(|t| t.starts_with("Endgame tables: value"))
    });
    b.screenshot("tables");
}
