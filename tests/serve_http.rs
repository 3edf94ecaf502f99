//! `awari serve`'s HTTP layer, spoken to in raw HTTP over `TcpStream` (no browser): every
//! answer's checks and headers, a flood of slow connections and an endless header line under
//! a memory limit, engines that die with an aborted server, and the addresses a wildcard
//! bind answers to; an engine's `info` line read whatever follows its variation.
//!
//! Every server a test starts is stopped by pid when the test ends, also when it fails.

use crate::common;
use crate::common::serve::{wait_until, AWARI, MISBEHAVE};
use crate::common::wire::{
    exchange, parse, post, read_events, read_stream, request, running, session, Server,
};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{IpAddr, TcpStream};
use std::process::{Command, Stdio};
use std::time::Duration;

/// The headers every answer must carry.
const SECURITY: [&str; 4] = [
    "content-security-policy: default-src 'none'",
    "x-content-type-options: nosniff",
    "referrer-policy: no-referrer",
    "cache-control: no-store",
];

/// A session whose analysis runs (the analyst engine searches without end): the engine's pid.
fn analysing(server: &Server) -> u32 {
    let addr = server.addr();
    let id = session(
        &addr,
        json!({ "variant": "oware", "south": "human", "north": "human" }),
    );
    let answer = post(&addr, "/api/analyse", &json!({ "id": id, "on": true }));
    assert_eq!(answer.status, 200, "{}", answer.body);
    let mut engines = Vec::new();
    wait_until(Duration::from_secs(60), "the analysis engine", || {
        engines = common::children_of(server.pid());
        !engines.is_empty()
    });
    engines[0]
}

#[test]
fn every_answer_is_checked_and_carries_the_security_headers() {
    let server = Server::start(&[], None);
    let a = server.addr();
    let id = session(
        &a,
        json!({ "variant": "oware", "south": "human", "north": "human" }),
    );
    let long = "x".repeat(9 << 10);
    let json = "Content-Type: application/json\r\n";
    // The server's own records of a game, each behind a byte-order mark.
    let moved = post(&a, "/api/move", &json!({ "id": id, "move": "F" }));
    assert_eq!(moved.status, 200, "{}", moved.body);
    let record = |format: &str| {
        let path = format!("/api/record?id={id}&format={format}");
        let answer = exchange(&a, &request(&a, "GET", &path, "", ""));
        assert_eq!(answer.status, 200, "{}", answer.body);
        format!("\u{feff}{}", answer.body)
    };
    let (pgn, line) = (record("pgn"), record("json"));
    let load = |record: &str| {
        json!({ "variant": "oware", "south": "human", "north": "human", "record": record })
            .to_string()
    };
    let bad_fen =
        json!({ "variant": "oware", "south": "human", "north": "human", "fen": "1-2" }).to_string();
    // (what, request, status, a text the body holds, or none)
    let rows: Vec<(&str, Vec<u8>, u16, Option<&str>)> = vec![
        ("the page", request(&a, "GET", "/", "", ""), 200, Some("<!doctype html>")),
        ("HEAD: no body", request(&a, "HEAD", "/", "", ""), 200, None),
        ("not found", request(&a, "GET", "/nothing", "", ""), 404, Some("not found")),
        ("no such session's events", request(&a, "GET", "/api/events?id=0", "", ""), 404, None),
        ("another method", request(&a, "PUT", "/", "", ""), 405, None),
        (
            "another site's name",
            request("evil.example:80", "GET", "/", "", ""),
            421,
            None,
        ),
        (
            "two Host fields",
            request(&a, "GET", "/", &format!("Host: {a}\r\n"), ""),
            400,
            Some("host once"),
        ),
        (
            "no Host",
            b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n".to_vec(),
            400,
            Some("host once"),
        ),
        ("a POST that is not JSON", request(&a, "POST", "/api/move", "", "{}"), 415, None),
        (
            "a POST from another origin",
            request(&a, "POST", "/api/move", &format!("{json}Origin: http://evil.example\r\n"), "{}"),
            403,
            None,
        ),
        (
            "a body over 64 KiB",
            format!("POST /api/move HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\n{json}Content-Length: 70000\r\n\r\n")
                .into_bytes(),
            413,
            None,
        ),
        (
            "a chunked body",
            format!("POST /api/move HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\n{json}Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
                .into_bytes(),
            501,
            None,
        ),
        (
            "a request line over 8 KiB",
            format!("GET /{long} HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\n\r\n").into_bytes(),
            414,
            None,
        ),
        (
            "a header line over 8 KiB",
            format!("GET / HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\nX-Long: {long}\r\n\r\n").into_bytes(),
            431,
            None,
        ),
        (
            "a position's error, said once",
            request(&a, "POST", "/api/session", json, &bad_fen),
            400,
            Some("\"position: expected 15 fields"),
        ),
        (
            "a PGN after a byte-order mark",
            request(&a, "POST", "/api/session", json, &load(&pgn)),
            200,
            Some("\"id\""),
        ),
        (
            "a JSON line after a byte-order mark",
            request(&a, "POST", "/api/session", json, &load(&line)),
            200,
            Some("\"id\""),
        ),
    ];
    let page_length = exchange(&a, &request(&a, "GET", "/", "", ""))
        .field("content-length")
        .map(str::to_string);
    for (what, raw, status, holds) in rows {
        let answer = exchange(&a, &raw);
        assert_eq!(answer.status, status, "{what}: {}", answer.body);
        for header in SECURITY {
            assert!(
                answer.fields.iter().any(|f| f.starts_with(header)),
                "{what}: no {header:?} in {:?}",
                answer.fields
            );
        }
        if let Some(text) = holds {
            assert!(answer.body.contains(text), "{what}: {}", answer.body);
        }
        assert!(
            !answer.body.contains("position: position:"),
            "{what}: {}",
            answer.body
        );
        if raw.starts_with(b"HEAD") {
            assert!(answer.body.is_empty(), "{what}: {}", answer.body);
            assert_eq!(
                answer.field("content-length").map(str::to_string),
                page_length
            );
        }
    }

    // The event stream carries them too, and a `Last-Event-ID` at the end of the numbers
    // still gets the state, again and again: each stream's count is given back.
    for round in 0..6 {
        // A page's stream is counted until the server sees it gone: wait for a slot.
        let mut text = String::new();
        wait_until(
            Duration::from_secs(60),
            "a stream's slot given back",
            || {
                text = read_stream(&a, &id, "Last-Event-ID: 18446744073709551615\r\n");
                parse(text.as_bytes()).status != 429
            },
        );
        let answer = parse(text.as_bytes());
        assert_eq!(answer.status, 200, "stream {round}: {text}");
        assert_eq!(answer.field("content-type"), Some("text/event-stream"));
        for header in SECURITY {
            assert!(
                answer.fields.iter().any(|f| f.starts_with(header)),
                "stream {round}: no {header:?} in {:?}",
                answer.fields
            );
        }
        assert!(text.contains("event: state"), "stream {round}: {text}");
    }
    // HEAD on the stream: its head alone.
    let head = exchange(
        &a,
        &request(&a, "HEAD", &format!("/api/events?id={id}"), "", ""),
    );
    assert_eq!((head.status, head.body.as_str()), (200, ""));
}

/// Raises this process's limit on open files as far as it may go (the slow connections
/// below are 500 at a time).
fn room_for_files() {
    use nix::sys::resource::{getrlimit, setrlimit, Resource};
    if let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE) {
        if soft < hard {
            let _ = setrlimit(Resource::RLIMIT_NOFILE, hard, hard);
        }
    }
}

#[test]
fn slow_connections_and_an_endless_header_leave_the_server_answering() {
    if Command::new("prlimit").arg("--version").output().is_err() {
        common::skipped(common::Need::Linux, "no prlimit (util-linux)");
        return;
    }
    room_for_files();
    // 1 GiB of address space: an endless header read whole would not fit.
    let server = Server::start(&[], Some(1 << 30));
    let a = server.addr();
    let engine = analysing(&server);
    let before = server.rss_kib();
    let mut most = before;
    let partial = format!("GET / HTTP/1.1\r\nHost: {a}\r\nX-Slow: ");
    for batch in 0..6 {
        // The last batch's connections gone (their threads ended), so that the cap on
        // connections sees only this batch.
        wait_until(
            Duration::from_secs(60),
            "the last batch's threads' end",
            || server.threads() < 64,
        );
        // 500 connections that send part of a head and then nothing.
        let slow: Vec<TcpStream> = (0..500)
            .filter_map(|_| {
                let mut s = TcpStream::connect(&a).ok()?;
                let _ = s.write_all(partial.as_bytes());
                Some(s)
            })
            .collect();
        assert!(slow.len() >= 400, "batch {batch}: {} connected", slow.len());
        // While they hang, a fresh client gets its page.
        let page = exchange(&a, &request(&a, "GET", "/", "", ""));
        assert_eq!(page.status, 200, "batch {batch}: {}", page.body);
        most = most.max(server.rss_kib());
        drop(slow);
    }
    // A header line that never ends: 1 GiB sent, or as much as the server takes before it
    // answers and closes.
    let mut stream = TcpStream::connect(&a).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let mut writer = stream.try_clone().unwrap();
    let head = format!("GET / HTTP/1.1\r\nHost: {a}\r\nX-Endless: ");
    let sender = std::thread::spawn(move || {
        let chunk = vec![b'a'; 1 << 20];
        let mut sent = 0u64;
        if writer.write_all(head.as_bytes()).is_err() {
            return sent;
        }
        while sent < 1 << 30 {
            if writer.write_all(&chunk).is_err() {
                break;
            }
            sent += chunk.len() as u64;
        }
        sent
    });
    let mut data = Vec::new();
    let _ = stream.read_to_end(&mut data);
    let answer = parse(&data);
    drop(stream);
    let sent = sender.join().unwrap();
    assert_eq!(answer.status, 431, "the endless header: {}", answer.body);
    assert!(sent < 1 << 30, "the server read all {sent} bytes");
    most = most.max(server.rss_kib());
    let page = exchange(&a, &request(&a, "GET", "/", "", ""));
    assert_eq!(page.status, 200, "after the endless header: {}", page.body);
    let after = server.rss_kib();
    eprintln!(
        "serve: resident memory {before} KiB before, {most} KiB at the most seen, {after} KiB \
         after 3,000 slow connections and an endless header ({sent} bytes sent)"
    );
    // Bounded: 512 connections at most, each holding at most 64 KiB of head (32 MiB), and
    // the server's own few MiB.
    assert!(most < 64 << 10, "{most} KiB resident");
    assert!(running(server.pid()), "the server ended");
    assert!(running(engine), "the session's engine ended");
}

/// Processes killed (SIGKILL) by pid when dropped, those still running.
struct Killed(Vec<u32>);

impl Drop for Killed {
    fn drop(&mut self) {
        for &pid in self.0.iter().filter(|&&p| running(p)) {
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .stderr(Stdio::null())
                .status();
        }
    }
}

#[test]
fn an_aborted_server_leaves_no_engine_running() {
    // An engine that outlives the end of its input and ignores SIGTERM, besides this
    // program's analysis engine.
    let stubborn = ["--engine", &format!("cmd={MISBEHAVE}"), "arg=ignore-quit"];
    // SIGABRT is how a failed allocation ends a Rust program; SIGKILL leaves it nothing to run.
    for signal in ["KILL", "ABRT"] {
        let mut server = Server::start(&stubborn, None);
        let addr = server.addr();
        let id = session(
            &addr,
            json!({ "variant": "oware", "south": "engine-1", "north": "human" }),
        );
        let answer = post(&addr, "/api/analyse", &json!({ "id": id, "on": true }));
        assert_eq!(answer.status, 200, "{}", answer.body);
        let mut engines = Vec::new();
        wait_until(Duration::from_secs(60), "both engines", || {
            engines = common::children_of(server.pid());
            engines.len() == 2
        });
        let killed = Command::new("kill")
            .args([&format!("-{signal}"), &server.pid().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        wait_until(Duration::from_secs(30), "the server's end", || {
            server.exited()
        });
        // Should the server have left them, they are killed when the test ends.
        let _engines = Killed(engines.clone());
        for &engine in &engines {
            wait_until(
                Duration::from_secs(30),
                &format!("the engine {engine}'s end after SIG{signal}"),
                || !running(engine),
            );
        }
    }
}

/// Reads session `id`'s events from the first one kept until one holds `needle`, or the
/// stream ends (or is silent for a minute); what was read.
fn events_until(addr: &str, id: &str, needle: &str) -> String {
    // An event is whole once the blank line after it has come.
    read_events(addr, id, "Last-Event-ID: 0\r\n", |text| {
        text.rfind("\n\n")
            .is_some_and(|whole| text[..whole].contains(needle))
    })
}

#[test]
fn an_engines_line_is_read_whatever_follows_its_variation() {
    // `info depth 2 score cp 7 pv M multipv 1 nodes 9 string ...`, then `bestmove M`.
    let engine = ["--engine", &format!("cmd={MISBEHAVE}"), "arg=info-after-pv"];
    let server = Server::start(&engine, None);
    let addr = server.addr();
    let id = session(
        &addr,
        json!({ "variant": "oware", "south": "engine-1", "north": "human" }),
    );
    // Its line is told before its move is played.
    let text = events_until(&addr, &id, r#""moves":"A""#);
    let event = text
        .split("\n\n")
        .find(|e| e.starts_with("event: info"))
        .unwrap_or_else(|| panic!("no info event in {text}"));
    let data = event
        .lines()
        .find_map(|l| l.strip_prefix("data: "))
        .unwrap();
    let info: Value = serde_json::from_str(data).unwrap();
    // The engine plays the first legal move, A, and says so in its variation.
    let line = &info["line"];
    assert_eq!(info["side"], "S", "{data}");
    assert_eq!(
        [
            &line["pv"],
            &line["depth"],
            &line["score"],
            &line["nodes"],
            &line["multipv"]
        ],
        [
            &json!("A"),
            &json!(2),
            &json!({ "cp": 7 }),
            &json!(9),
            &json!(1)
        ],
        "{data}"
    );
}

/// This machine's addresses other than loopback (`hostname -I`), if it has any.
fn own_addresses() -> Vec<IpAddr> {
    let out = Command::new("hostname").arg("-I").output();
    let text = out.map(|o| String::from_utf8_lossy(&o.stdout).into_owned());
    text.unwrap_or_default()
        .split_whitespace()
        .filter_map(|w| w.parse::<IpAddr>().ok())
        .filter(|ip| !ip.is_loopback() && ip.is_ipv4())
        .collect()
}

#[test]
fn a_wildcard_bind_answers_the_machines_own_addresses() {
    let args = ["--bind", "0.0.0.0", "--host", "Awari-Box.example"];
    let (child, printed, warning) = common::serve_warned(&args);
    let server = Server::at(child, &printed);
    let port = server.port;
    assert!(
        warning.starts_with("warning: listening on 0.0.0.0"),
        "{warning}"
    );
    assert!(
        warning.contains(&format!("http://Awari-Box.example:{port}/")),
        "{warning}"
    );
    // A wildcard address is no address to type: this machine's own is printed.
    assert_eq!(printed, format!("127.0.0.1:{port}"));
    // (connected to, Host, status)
    let mut rows = vec![
        ("127.0.0.1".to_string(), format!("127.0.0.1:{port}"), 200),
        ("127.0.0.1".to_string(), format!("localhost:{port}"), 200),
        ("127.0.0.2".to_string(), format!("127.0.0.2:{port}"), 200),
        (
            "127.0.0.1".to_string(),
            format!("awari-box.example:{port}"),
            200,
        ),
        ("127.0.0.1".to_string(), format!("evil.example:{port}"), 421),
        (
            "127.0.0.1".to_string(),
            format!("127.0.0.1:{}", port ^ 1),
            421,
        ),
        ("127.0.0.1".to_string(), format!("0.0.0.0:{port}"), 421),
    ];
    let own = own_addresses();
    if own.is_empty() {
        eprintln!("serve_http: this machine has no address but loopback; tested on 127.0.0.2");
    }
    for ip in own {
        rows.push((ip.to_string(), format!("{ip}:{port}"), 200));
        // A name of another site, resolving to this address, gets nothing.
        rows.push((ip.to_string(), format!("evil.example:{port}"), 421));
    }
    for (to, host, status) in rows {
        let addr = format!("{to}:{port}");
        let answer = exchange(&addr, &request(&host, "GET", "/", "", ""));
        assert_eq!(
            answer.status, status,
            "to {to}, Host {host}: {}",
            answer.body
        );
        // A page reached by that address may start a game.
        if status == 200 {
            let body = json!({ "variant": "oware", "south": "human", "north": "human" });
            let raw = request(
                &host,
                "POST",
                "/api/session",
                &format!("Content-Type: application/json\r\nOrigin: http://{host}\r\n"),
                &body.to_string(),
            );
            let answer = exchange(&addr, &raw);
            assert_eq!(
                answer.status, 200,
                "POST to {to}, Host {host}: {}",
                answer.body
            );
        }
    }
    drop(server);

    // A --host that is no host name is refused before anything starts.
    let out = Command::new(AWARI)
        .envs(common::home_env())
        .args(["serve", "--host", "box:8080"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("error: --host \"box:8080\""), "{stderr}");
}
