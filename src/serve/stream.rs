//! A session's event stream: its events sent to the page as server-sent events for as long
//! as the page listens, at most [`MAX_STREAMS`] at once; when the last one closes, the session
//! is leaving (the browser may have ended without a word), and its analysis stops.

use super::http::{self, Response};
use super::session::Session;
use std::io::Write;
use std::net::TcpStream;
use std::sync::Arc;
use std::time::Duration;

/// Event streams per session, at most (a page holds one).
const MAX_STREAMS: usize = 4;

/// One of a session's event streams, counted while it lives, on every path out of
/// [`stream`].
struct StreamSlot<'a>(&'a Session);

impl<'a> StreamSlot<'a> {
    /// A slot, unless [`MAX_STREAMS`] are open.
    fn take(session: &'a Session) -> Option<StreamSlot<'a>> {
        let mut st = session.lock();
        if st.streams >= MAX_STREAMS {
            return None;
        }
        st.streams += 1;
        // A page that went and came back (a reload) keeps its session.
        st.leaving = None;
        drop(st);
        // The engine thread may analyse again: a page listens.
        session.changed.notify_all();
        Some(StreamSlot(session))
    }
}

impl Drop for StreamSlot<'_> {
    fn drop(&mut self) {
        let mut st = self.0.lock();
        st.streams = st.streams.saturating_sub(1);
        st.seen = std::time::Instant::now();
        if st.streams == 0 {
            // No page listens: the browser may have ended without a word (no `pagehide`), so
            // the session is leaving as if it had said so, and its analysis stops at once (an
            // HTTP client that never opened a stream is not leaving).
            st.leaving.get_or_insert_with(std::time::Instant::now);
            drop(st);
            self.0.changed.notify_all();
        }
    }
}

/// A session's events, as server-sent events, for as long as the page listens: from the
/// event after `after` (a reconnecting page's `Last-Event-ID`), else from the current state.
pub fn stream(
    session: Arc<Session>,
    mut connection: TcpStream,
    after: Option<u64>,
    head_only: bool,
) {
    let head = http::head(200, "text/event-stream", None);
    if head_only {
        let _ = connection.write_all(head.as_bytes());
        http::close(connection);
        return;
    }
    let Some(_slot) = StreamSlot::take(&session) else {
        refused().send(connection, false);
        return;
    };
    let mut ok = connection
        .write_all((head + "retry: 1000\n\n").as_bytes())
        .and_then(|()| connection.flush())
        .is_ok();
    let mut last = after.unwrap_or_else(|| session.lock().state_event().saturating_sub(1));
    let mut quiet = std::time::Instant::now();
    while ok {
        let mut st = session.lock();
        if st.closed {
            break;
        }
        let (text, n) = st.events_after(last);
        let chunk = if text.is_empty() {
            // Woken each second to see whether the page has gone, so that its stream's slot
            // comes back at once rather than at the next failed write.
            let (guard, timeout) = session
                .changed
                .wait_timeout(st, Duration::from_secs(1))
                .unwrap_or_else(|e| e.into_inner());
            st = guard;
            st.seen = std::time::Instant::now();
            if !timeout.timed_out() {
                continue;
            }
            drop(st);
            if hung_up(&connection) {
                break;
            }
            if quiet.elapsed() < Duration::from_secs(15) {
                continue;
            }
            ": keep-alive\n\n".to_string()
        } else {
            last = n;
            drop(st);
            text
        };
        quiet = std::time::Instant::now();
        ok = connection
            .write_all(chunk.as_bytes())
            .and_then(|()| connection.flush())
            .is_ok();
    }
}

/// Whether the client of an event stream has closed its side (it sends nothing else).
fn hung_up(connection: &TcpStream) -> bool {
    let mut byte = [0u8; 1];
    if connection.set_nonblocking(true).is_err() {
        return true;
    }
    let gone = match connection.peek(&mut byte) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
    };
    gone || connection.set_nonblocking(false).is_err()
}

/// The answer to a stream asked for beyond [`MAX_STREAMS`].
fn refused() -> Response {
    let body = serde_json::json!({ "error": "too many event streams for this session" });
    http::Response::new(429, "application/json", body.to_string().into_bytes())
}
