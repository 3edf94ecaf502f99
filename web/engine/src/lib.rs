//! The awari engine as a WebAssembly module: what `web/engine.js` loads and drives.
//!
//! The interface is plain functions over integers and bytes, so that no generated glue is
//! needed:
//! - the module imports `env.host_now() -> f64` (milliseconds from any fixed start, the page's
//!   `performance.now()`: the search's clock), `env.host_date() -> f64` (milliseconds since the
//!   Unix epoch, `Date.now()`: the records' dates) and `env.host_report(ptr, len)` (a search
//!   report, a JSON object in UTF-8, read by the host before it returns);
//! - it exports `alloc(len) -> ptr` and `free(ptr, len)` for the host's bytes, and
//!   `request(ptr, len) -> len`: a JSON request in, a JSON answer out, left at
//!   `answer() -> ptr` until the next request;
//! - `table_file(kind, layer, ptr, len) -> 0 | 1` hands over an endgame table file's bytes
//!   (kind 0 a table, 1 a paths file), which the next `tables` request puts to use.
//!
//! The requests and answers are described in `web/README.md`; what each does is in
//! [`requests`].

pub mod page;
pub mod requests;

use std::cell::RefCell;

#[cfg(target_arch = "wasm32")]
#[link(wasm_import_module = "env")]
extern "C" {
    fn host_now() -> f64;
    fn host_date() -> f64;
    fn host_report(ptr: *const u8, len: usize);
}

thread_local! {
    /// The module's one engine: a wasm instance has one thread.
    static ENGINE: RefCell<requests::Engine> = RefCell::new(requests::Engine::new());
    /// The last answer, kept for the host to read.
    static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The host's clock, for the search.
#[cfg(target_arch = "wasm32")]
fn now() -> f64 {
    // SAFETY: the import takes nothing and returns a number.
    unsafe { host_now() }
}

/// The host's wall clock, for the records' dates.
#[cfg(target_arch = "wasm32")]
fn date() -> f64 {
    // SAFETY: the import takes nothing and returns a number.
    unsafe { host_date() }
}

/// Hands one report to the host.
#[cfg(target_arch = "wasm32")]
fn report(line: &str) {
    // SAFETY: the host reads `len` bytes from `ptr` before it returns, while `line` lives.
    unsafe { host_report(line.as_ptr(), line.len()) }
}

#[cfg(not(target_arch = "wasm32"))]
fn report(_line: &str) {}

/// `len` bytes for the host to write into; freed with [`free`].
#[no_mangle]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    let mut bytes = std::mem::ManuallyDrop::new(Vec::<u8>::with_capacity(len.max(1)));
    bytes.as_mut_ptr()
}

/// Frees what [`alloc`] gave.
///
/// # Safety
/// `ptr` and `len` must be those of one [`alloc`] call, freed once.
#[no_mangle]
pub unsafe extern "C" fn free(ptr: *mut u8, len: usize) {
    // SAFETY: the caller passes back what `alloc` made: a vector's buffer of this capacity.
    drop(unsafe { Vec::from_raw_parts(ptr, 0, len.max(1)) });
}

/// Answers the JSON request in `len` bytes at `ptr` (which stay the host's); returns the
/// answer's length, read at [`answer`].
///
/// # Safety
/// `ptr` must point at `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn request(ptr: *const u8, len: usize) -> usize {
    #[cfg(target_arch = "wasm32")]
    {
        awari::search::instant::set_clock(now);
        awari::record::set_wall_clock(date);
    }
    // SAFETY: the caller's promise.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    let text = ENGINE.with(|engine| engine.borrow_mut().answer(bytes, &mut |r| report(r)));
    ANSWER.with(|answer| {
        let mut answer = answer.borrow_mut();
        *answer = text.into_bytes();
        answer.len()
    })
}

/// Where the last answer's bytes are.
#[no_mangle]
pub extern "C" fn answer() -> *const u8 {
    ANSWER.with(|answer| answer.borrow().as_ptr())
}

/// Keeps a copy of an endgame table file of layer `layer` (`kind` 0: a table, 1: a paths file)
/// for the next `tables` request. Returns 1, or 0 for an unknown kind.
///
/// # Safety
/// `ptr` must point at `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn table_file(kind: u32, layer: u32, ptr: *const u8, len: usize) -> u32 {
    // SAFETY: the caller's promise.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    ENGINE.with(|engine| u32::from(engine.borrow_mut().add_file(kind, layer as usize, bytes)))
}
