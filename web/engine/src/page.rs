//! The page's sessions in the module: the same API as `awari serve`'s, answered here
//! ([`awari::serve::local::Local`]), with the engines searching in the module between the
//! page's requests (`step`).

use awari::serve::driver::Poll;
use awari::serve::kinds::in_process;
use awari::serve::local::Local;
use serde_json::{json, Value};

/// No sessions yet, with this program's strengths to choose from.
pub fn sessions() -> Local {
    let (kinds, analyst) = in_process();
    Local::new(kinds, analyst)
}

/// The events not yet given to the page: `[{"id": session, "text": server-sent event text}]`.
pub fn events(page: &Local) -> Value {
    page.events()
        .into_iter()
        .map(|(id, text)| json!({ "id": id, "text": text }))
        .collect()
}

/// What the worker does next: `"busy"` (step again after the page's messages), `{"wait": ms}`,
/// `"idle"` (until the page asks something) or `"quit"`.
pub fn next(poll: Poll) -> Value {
    match poll {
        Poll::Busy => json!("busy"),
        Poll::Wait(wait) => json!({ "wait": wait.as_millis() as u64 }),
        Poll::Idle => json!("idle"),
        Poll::Quit => json!("quit"),
    }
}
