//! `awari serve` spoken to in raw HTTP over `TcpStream`, byte for byte as a test writes it:
//! the server (under a memory limit if asked), whole answers read off the wire with their head
//! fields, sessions and their event streams. The server is stopped by pid when dropped, also
//! when a test fails. (`serve.rs` holds the well-formed client the browser tests use.)

use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Child;
use std::time::Duration;

/// `awari serve ARGS` (through `prlimit --as=BYTES` when a limit is given), killed by pid
/// when dropped.
pub struct Server {
    pub child: Child,
    pub port: u16,
}

impl Server {
    pub fn start(args: &[&str], memory: Option<u64>) -> Server {
        let (child, addr) = super::serve(args, memory);
        Server::at(child, &addr)
    }

    /// The server `child` that printed `addr` (`HOST:PORT`).
    pub fn at(child: Child, addr: &str) -> Server {
        let port = addr
            .rsplit_once(':')
            .and_then(|(_, p)| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {addr:?}"));
        Server { child, port }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The loopback address and port.
    pub fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// Resident memory, in KiB.
    pub fn rss_kib(&self) -> u64 {
        super::proc_status(self.pid(), "VmRSS").expect("the server is running")
    }

    /// The server's threads.
    pub fn threads(&self) -> u64 {
        super::proc_status(self.pid(), "Threads").expect("the server is running")
    }

    /// Whether the server has exited.
    pub fn exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        super::terminate(&mut self.child);
    }
}

/// An answer, as read off the wire.
pub struct Answer {
    pub status: u16,
    /// The head's fields, each `name: value` with the name in lower case.
    pub fields: Vec<String>,
    pub body: String,
}

impl Answer {
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find_map(|f| f.strip_prefix(&format!("{name}: ")))
    }
}

/// Sends `raw` to `addr` and reads the answer to its end (the server closes every
/// connection after its answer).
pub fn exchange(addr: &str, raw: &[u8]) -> Answer {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    stream.write_all(raw).unwrap();
    let mut data = Vec::new();
    let _ = stream.read_to_end(&mut data);
    parse(&data)
}

pub fn parse(data: &[u8]) -> Answer {
    let text = String::from_utf8_lossy(data);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let fields = lines
        .map(|l| match l.split_once(": ") {
            Some((n, v)) => format!("{}: {v}", n.to_ascii_lowercase()),
            None => l.to_string(),
        })
        .collect();
    Answer {
        status,
        fields,
        body: body.to_string(),
    }
}

/// A request with the server's own `Host`.
pub fn request(addr: &str, method: &str, path: &str, extra: &str, body: &str) -> Vec<u8> {
    format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{extra}\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// A JSON `POST`.
pub fn post(addr: &str, path: &str, body: &Value) -> Answer {
    let raw = request(
        addr,
        "POST",
        path,
        "Content-Type: application/json\r\n",
        &body.to_string(),
    );
    exchange(addr, &raw)
}

/// A new session: its id.
pub fn session(addr: &str, body: Value) -> String {
    let answer = post(addr, "/api/session", &body);
    assert_eq!(answer.status, 200, "{}", answer.body);
    let value: Value = serde_json::from_str(&answer.body).unwrap();
    value["id"].as_str().unwrap().to_string()
}

/// Reads an event stream until `event: state` comes, or it ends; its head and what was read.
pub fn read_stream(addr: &str, id: &str, extra: &str) -> String {
    read_events(addr, id, extra, |text| text.contains("event: state"))
}

/// Reads session `id`'s events, with `extra` header lines, until `done` holds for what was
/// read, or the stream ends (or is silent for a minute); what was read.
pub fn read_events(addr: &str, id: &str, extra: &str, done: impl Fn(&str) -> bool) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(
        stream,
        "GET /api/events?id={id} HTTP/1.1\r\nHost: {addr}\r\n{extra}\r\n"
    )
    .unwrap();
    let mut text = String::new();
    let mut chunk = [0u8; 4096];
    while !done(&text) {
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => text += &String::from_utf8_lossy(&chunk[..n]),
        }
    }
    text
}

/// Whether process `pid` runs (exists and is no zombie).
pub fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let rest = stat.rsplit_once(')').map_or("", |r| r.1);
        rest.split_whitespace().next() != Some("Z")
    })
}
