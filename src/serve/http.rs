//! The HTTP/1.1 layer, written here over std's [`TcpListener`], bounded everywhere a client
//! could make it grow or wait: a request line of at most [`MAX_LINE`] bytes (else 414), a
//! header line of at most [`MAX_LINE`] and a head of at most [`MAX_HEAD`] bytes and
//! [`MAX_HEADERS`] fields (else 431), a body of at most [`MAX_BODY`] bytes (else 413), a whole
//! request within [`REQUEST_TIME`] (else 408), each write within [`WRITE_TIME`], and at most
//! [`MAX_CONNECTIONS`] connections open, each on a thread of its own with a small stack.
//!
//! Past that cap, the connection that has waited longest for its request is closed to make
//! room (a slow client holds nothing a fresh one needs); when every open connection is busy
//! (a request being answered, an event stream), the newcomer gets a 503 written without
//! waiting, and is closed. The acceptor never stops: an error from `accept` (out of file
//! descriptors or memory) closes the oldest waiting connection, pauses a moment and accepts
//! again; a thread that cannot start closes its connection.
//!
//! Why not a crate: `tiny_http` grows a header line without limit and gives each connection
//! a thread, without a cap, whose failure to start panics its acceptor; `hyper` or `axum` on
//! `tokio` bound all of this but bring a score of crates or more (`tokio`, `mio`, `hyper`,
//! `http`, `bytes`, the `futures` family, ...) to build on every machine, for a page that needs
//! a few `GET` routes, JSON `POST`s and one event stream per page. The subset
//! of HTTP/1.1 read here is small enough to check strictly by hand (no `httparse`): origin-form
//! targets, `Content-Length` bodies only (`Transfer-Encoding` is refused), no line folding,
//! one answer per connection (`Connection: close`), so that no request can be smuggled behind
//! another.
//!
//! Every answer, errors and the event stream included, carries the same security headers
//! ([`SECURITY`]).

use std::collections::VecDeque;
use std::io::{ErrorKind, Read, Write};
use std::net::{IpAddr, Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A request line or a header line, at most.
pub const MAX_LINE: usize = 8 << 10;

/// A request's head (its line and header fields), at most.
pub const MAX_HEAD: usize = 64 << 10;

/// Header fields in a request, at most.
pub const MAX_HEADERS: usize = 100;

/// A request body's size, at most.
pub const MAX_BODY: usize = 64 << 10;

/// Connections open at once, at most (each has a thread).
pub const MAX_CONNECTIONS: usize = 512;

/// Connections being closed to make room may briefly take the count this far above
/// [`MAX_CONNECTIONS`]; beyond it a newcomer is refused at once.
const OVERFLOW: usize = 64;

/// The time a client has to send a whole request, head and body.
pub const REQUEST_TIME: Duration = Duration::from_secs(10);

/// The time one write may wait for a client that reads nothing.
pub const WRITE_TIME: Duration = Duration::from_secs(10);

/// A connection thread's stack: a request is answered with little recursion (the JSON read
/// is bounded by `serde_json`'s own depth limit).
const STACK: usize = 512 << 10;

/// How long a closing connection reads what the client still sends, so that the answer
/// reaches it before the close.
const LINGER: Duration = Duration::from_secs(1);

/// The page's own files and nothing else.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
                       img-src 'self' data:; connect-src 'self'; base-uri 'none'; \
                       form-action 'none'; frame-ancestors 'none'";

/// The headers every answer carries.
pub const SECURITY: [(&str, &str); 4] = [
    ("Content-Security-Policy", CSP),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-store"),
];

/// A request, read whole.
pub struct Request {
    /// `GET`, `HEAD`, `POST`, ...
    pub method: String,
    /// The target as sent (a path and a query).
    pub target: String,
    /// The header fields, names in lower case, in order.
    pub headers: Vec<(String, String)>,
    /// The body; `None` when its `Content-Length` was over [`MAX_BODY`] (it was not read).
    pub body: Option<Vec<u8>>,
    /// The address of this machine the client connected to.
    pub local: IpAddr,
}

impl Request {
    /// The values of the field `name` (lower case).
    pub fn all(&self, name: &str) -> Vec<&str> {
        self.headers
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// The field `name` (lower case), when it is there (the first one).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The target's path, without its query.
    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("")
    }
}

/// An answer with a body of known length.
pub struct Response {
    /// The status code.
    pub status: u16,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its body.
    pub body: Vec<u8>,
    /// Header fields beyond the ones every answer has.
    pub extra: Vec<(&'static str, String)>,
}

impl Response {
    /// An answer of `status` with `body`.
    pub fn new(status: u16, content_type: &'static str, body: Vec<u8>) -> Response {
        Response {
            status,
            content_type,
            body,
            extra: Vec::new(),
        }
    }

    /// A plain text answer (the message and a newline).
    pub fn text(status: u16, message: &str) -> Response {
        Response::new(
            status,
            "text/plain; charset=utf-8",
            format!("{message}\n").into_bytes(),
        )
    }

    /// The head of this answer: status line, fields, blank line.
    fn head(&self) -> String {
        let mut head = head(self.status, self.content_type, Some(self.body.len()));
        head.truncate(head.len() - 2);
        for (name, value) in &self.extra {
            head += &format!("{name}: {value}\r\n");
        }
        head + "\r\n"
    }

    /// Writes the answer (its head alone for `HEAD`), then closes the connection.
    pub fn send(&self, mut stream: TcpStream, head_only: bool) {
        let mut data = self.head().into_bytes();
        if !head_only {
            data.extend_from_slice(&self.body);
        }
        let _ = stream.write_all(&data).and_then(|()| stream.flush());
        close(stream);
    }
}

/// A head for `status` with every answer's fields; `length` when the body's size is known
/// (an event stream's is not: it ends with the connection).
pub fn head(status: u16, content_type: &str, length: Option<usize>) -> String {
    let mut head = format!(
        "HTTP/1.1 {status} {}\r\nContent-Type: {content_type}\r\n",
        reason(status)
    );
    if let Some(n) = length {
        head += &format!("Content-Length: {n}\r\n");
    }
    for (name, value) in SECURITY {
        head += &format!("{name}: {value}\r\n");
    }
    head + "Connection: close\r\n\r\n"
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        414 => "URI Too Long",
        415 => "Unsupported Media Type",
        421 => "Misdirected Request",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Status",
    }
}

/// Closes a connection whose answer is written: no more writes, then what the client still
/// sends is read (for at most [`LINGER`] or [`MAX_HEAD`] bytes), so that the close does not
/// reset the connection before the client has read the answer.
pub fn close(stream: TcpStream) {
    let _ = stream.shutdown(Shutdown::Write);
    let until = Instant::now() + LINGER;
    let mut chunk = [0u8; 4096];
    let mut read = 0;
    while read < MAX_HEAD {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            break;
        }
        match (&stream).read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => read += n,
        }
    }
}

/// The open connections: how many, and those still waiting for their request, oldest first
/// (each a second handle on its socket, to close it from the acceptor).
struct Open {
    count: AtomicUsize,
    waiting: Mutex<VecDeque<(u64, TcpStream)>>,
}

impl Open {
    fn waiting(&self) -> std::sync::MutexGuard<'_, VecDeque<(u64, TcpStream)>> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Closes the connection that has waited longest for its request; whether there was one.
    fn evict_oldest(&self) -> bool {
        let oldest = self.waiting().pop_front();
        oldest.is_some_and(|(_, stream)| {
            let _ = stream.shutdown(Shutdown::Both);
            true
        })
    }
}

/// One open connection, counted until it is dropped, on every path out of its thread.
struct Slot {
    open: Arc<Open>,
    id: u64,
}

impl Slot {
    /// The request is read: the connection is no longer one to close for room.
    fn busy(&self) {
        self.open.waiting().retain(|(id, _)| *id != self.id);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.busy();
        self.open.count.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Accepts connections on `listener` for ever, each answered by `handle` on a thread of its
/// own once its request is read whole and within the bounds.
pub fn run<H>(listener: &TcpListener, handle: H) -> !
where
    H: Fn(Request, TcpStream) + Send + Sync + 'static,
{
    few_arenas();
    let handle = Arc::new(handle);
    let open = Arc::new(Open {
        count: AtomicUsize::new(0),
        waiting: Mutex::new(VecDeque::new()),
    });
    let mut next = 0u64;
    loop {
        let stream = match listener.accept() {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of descriptors (or memory, or a connection gone before it was taken):
                // make room and accept again.
                if e.kind() != ErrorKind::Interrupted {
                    open.evict_oldest();
                    std::thread::sleep(Duration::from_millis(10));
                }
                continue;
            }
        };
        next += 1;
        admit(&open, stream, next, &handle);
    }
}

/// glibc gives each thread that allocates an arena of its own, up to eight per core, each
/// reserving 64 MiB of address space: hundreds of connection threads would reserve a GiB that
/// they never use, and under a limit on address space (`ulimit -v`) the next thread could not
/// start. Two arenas are plenty for a server that mostly waits.
fn few_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` sets one of the allocator's tunables; M_ARENA_MAX takes effect for
    // arenas made later and is safe to set while other threads allocate.
    unsafe {
        nix::libc::mallopt(nix::libc::M_ARENA_MAX, 2);
    }
}

/// Starts a connection's thread, making room or refusing it when [`MAX_CONNECTIONS`] are
/// open.
fn admit<H>(open: &Arc<Open>, stream: TcpStream, id: u64, handle: &Arc<H>)
where
    H: Fn(Request, TcpStream) + Send + Sync + 'static,
{
    let count = open.count.load(Ordering::Acquire);
    if count >= MAX_CONNECTIONS && (!open.evict_oldest() || count >= MAX_CONNECTIONS + OVERFLOW) {
        refuse(&stream);
        return;
    }
    let Ok(second) = stream.try_clone() else {
        refuse(&stream);
        return;
    };
    open.count.fetch_add(1, Ordering::AcqRel);
    open.waiting().push_back((id, second));
    let slot = Slot {
        open: Arc::clone(open),
        id,
    };
    let handle = Arc::clone(handle);
    // A thread that cannot start drops the closure: the slot is counted out and the
    // connection closed.
    let _ = std::thread::Builder::new()
        .name("serve-connection".to_string())
        .stack_size(STACK)
        .spawn(move || connection(slot, stream, &*handle));
}

/// A fast 503, written without waiting (what does not fit in the socket's buffer is lost),
/// then the close.
fn refuse(stream: &TcpStream) {
    let answer = Response::text(503, "too many connections at once: try again");
    let mut data = answer.head().into_bytes();
    data.extend_from_slice(&answer.body);
    let _ = stream.set_nonblocking(true);
    let _ = (&*stream).write(&data);
    let _ = stream.shutdown(Shutdown::Both);
}

/// One connection: its request read within the bounds, then answered by `handle`; a request
/// out of bounds is answered here.
fn connection(slot: Slot, mut stream: TcpStream, handle: &dyn Fn(Request, TcpStream)) {
    let _ = stream.set_write_timeout(Some(WRITE_TIME));
    let local = stream
        .local_addr()
        .map_or(IpAddr::from([0, 0, 0, 0]), |a| a.ip().to_canonical());
    match read_request(&mut stream, Instant::now() + REQUEST_TIME, local) {
        Ok(request) => {
            slot.busy();
            handle(request, stream);
        }
        Err(Bad::Answer(status, message)) => {
            slot.busy();
            Response::text(status, message).send(stream, false);
        }
        Err(Bad::Gone) => {}
    }
    drop(slot);
}

/// A request that is not answered by a route.
#[derive(Debug, PartialEq, Eq)]
enum Bad {
    /// Answered with this status and message, then closed.
    Answer(u16, &'static str),
    /// The client left (or was closed to make room): nothing to answer.
    Gone,
}

/// Reads some bytes before `deadline`: `Gone` on the client's end, 408 at the deadline.
fn read_some(stream: &mut TcpStream, chunk: &mut [u8], deadline: Instant) -> Result<usize, Bad> {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(Bad::Answer(408, "the request took too long to arrive"));
        }
        stream.set_read_timeout(Some(left)).map_err(|_| Bad::Gone)?;
        match stream.read(chunk) {
            Ok(0) => return Err(Bad::Gone),
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => return Err(Bad::Gone),
        }
    }
}

/// Where the head ends (after its blank line), if it has.
fn head_end(data: &[u8]) -> Option<usize> {
    let mut i = 0;
    while let Some(at) = data[i..].iter().position(|&b| b == b'\n') {
        let line_end = i + at + 1;
        match data.get(line_end..) {
            Some([b'\n', ..]) => return Some(line_end + 1),
            Some([b'\r', b'\n', ..]) => return Some(line_end + 2),
            _ => i = line_end,
        }
    }
    None
}

/// Whether a head not yet whole is already over a bound.
fn check_partial(data: &[u8]) -> Result<(), Bad> {
    let line_start = data.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if data.len() - line_start > MAX_LINE {
        return Err(if line_start == 0 {
            Bad::Answer(414, "the request line is over 8 KiB")
        } else {
            Bad::Answer(431, "a header line is over 8 KiB")
        });
    }
    if data.len() > MAX_HEAD {
        return Err(Bad::Answer(431, "the request's head is over 64 KiB"));
    }
    Ok(())
}

/// A request read whole from `stream` before `deadline`.
fn read_request(stream: &mut TcpStream, deadline: Instant, local: IpAddr) -> Result<Request, Bad> {
    let mut data = Vec::new();
    let mut chunk = [0u8; 4096];
    let end = loop {
        if let Some(end) = head_end(&data) {
            break end;
        }
        check_partial(&data)?;
        let n = read_some(stream, &mut chunk, deadline)?;
        data.extend_from_slice(&chunk[..n]);
    };
    let mut request = parse_head(&data[..end], local)?;
    let lengths = request.all("content-length");
    let length = match (lengths.first(), request.header("transfer-encoding")) {
        (_, Some(_)) => return Err(Bad::Answer(501, "a body must come with a Content-Length")),
        (None, None) => 0,
        (Some(first), None) => {
            if lengths.iter().any(|other| other != first) {
                return Err(Bad::Answer(400, "two different Content-Length fields"));
            }
            if first.is_empty() || !first.bytes().all(|b| b.is_ascii_digit()) {
                return Err(Bad::Answer(400, "Content-Length: a number of bytes"));
            }
            first.parse::<usize>().unwrap_or(usize::MAX)
        }
    };
    if length > MAX_BODY {
        return Ok(request);
    }
    let mut body = data.split_off(end);
    while body.len() < length {
        let n = read_some(stream, &mut chunk, deadline)?;
        body.extend_from_slice(&chunk[..n]);
    }
    body.truncate(length);
    request.body = Some(body);
    Ok(request)
}

/// A token's characters (a method, a field's name).
fn is_token(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// A head (its request line and fields, through the blank line), checked.
fn parse_head(head: &[u8], local: IpAddr) -> Result<Request, Bad> {
    let text = std::str::from_utf8(head).map_err(|_| Bad::Answer(400, "a head not in UTF-8"))?;
    let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let first = lines.next().unwrap_or("");
    if first.len() > MAX_LINE {
        return Err(Bad::Answer(414, "the request line is over 8 KiB"));
    }
    let words: Vec<&str> = first.split(' ').collect();
    let [method, target, version] = words[..] else {
        return Err(Bad::Answer(400, "a request line is METHOD TARGET HTTP/1.1"));
    };
    if !is_token(method) {
        return Err(Bad::Answer(400, "a method is a word"));
    }
    if !target.starts_with('/') || !target.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(Bad::Answer(400, "a target is a path on this server"));
    }
    if version != "HTTP/1.1" && version != "HTTP/1.0" {
        return Err(Bad::Answer(505, "HTTP/1.1 or HTTP/1.0 only"));
    }
    let mut headers = Vec::new();
    for line in lines {
        if line.is_empty() {
            break;
        }
        if line.len() > MAX_LINE {
            return Err(Bad::Answer(431, "a header line is over 8 KiB"));
        }
        if headers.len() >= MAX_HEADERS {
            return Err(Bad::Answer(431, "over 100 header fields"));
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(Bad::Answer(400, "a header line without a colon"));
        };
        if !is_token(name) {
            return Err(Bad::Answer(
                400,
                "a header's name is a word, before its colon",
            ));
        }
        let value = value.trim_matches([' ', '\t']);
        if value.bytes().any(|b| b.is_ascii_control() && b != b'\t') {
            return Err(Bad::Answer(400, "a control character in a header"));
        }
        headers.push((name.to_ascii_lowercase(), value.to_string()));
    }
    Ok(Request {
        method: method.to_string(),
        target: target.to_string(),
        headers,
        body: None,
        local,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_end_at_their_blank_line() {
        let cases: [(&[u8], Option<usize>); 5] = [
            (b"GET / HTTP/1.1\r\nHost: a\r\n\r\nbody", Some(27)),
            (b"GET / HTTP/1.1\nHost: a\n\nbody", Some(24)),
            (b"GET / HTTP/1.1\r\nHost: a\r\n", None),
            (b"GET / HTTP/1.1\r\nHost: a\r\n\r", None),
            (b"", None),
        ];
        for (data, want) in cases {
            assert_eq!(head_end(data), want, "{}", String::from_utf8_lossy(data));
        }
    }

    #[test]
    fn heads_are_checked() {
        let local = IpAddr::from([127, 0, 0, 1]);
        let status = |head: &str| match parse_head(head.as_bytes(), local) {
            Ok(_) => 200,
            Err(Bad::Answer(s, _)) => s,
            Err(Bad::Gone) => 0,
        };
        let long = "x".repeat(MAX_LINE + 1);
        let cases = [
            ("GET / HTTP/1.1\r\nHost: a\r\n\r\n", 200),
            ("GET /api/state?id=1 HTTP/1.0\r\n\r\n", 200),
            ("GET  / HTTP/1.1\r\n\r\n", 400),
            ("GET http://a/ HTTP/1.1\r\n\r\n", 400),
            ("GET / HTTP/2\r\n\r\n", 505),
            ("GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nX: a\x01b\r\n\r\n", 400),
            (&format!("GET /{long} HTTP/1.1\r\n\r\n"), 414),
            (&format!("GET / HTTP/1.1\r\nX: {long}\r\n\r\n"), 431),
        ];
        for (head, want) in cases {
            assert_eq!(status(head), want, "{head:.60}");
        }
        let many: String = (0..=MAX_HEADERS).map(|i| format!("X{i}: a\r\n")).collect();
        assert_eq!(status(&format!("GET / HTTP/1.1\r\n{many}\r\n")), 431);
    }

    #[test]
    fn partial_heads_over_a_bound_are_refused_before_they_end() {
        let line = vec![b'a'; MAX_LINE + 1];
        assert_eq!(
            check_partial(&line),
            Err(Bad::Answer(414, "the request line is over 8 KiB"))
        );
        let mut header = b"GET / HTTP/1.1\r\nX: ".to_vec();
        header.extend_from_slice(&line);
        assert!(matches!(check_partial(&header), Err(Bad::Answer(431, _))));
        let fields = "X: a\r\n".repeat(MAX_HEAD / 6 + 1);
        assert!(matches!(
            check_partial(format!("GET / HTTP/1.1\r\n{fields}").as_bytes()),
            Err(Bad::Answer(431, _))
        ));
        assert_eq!(check_partial(b"GET / HTTP/1.1\r\nHost: a"), Ok(()));
    }
}
