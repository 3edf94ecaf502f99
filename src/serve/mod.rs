//! `awari serve`: a web page on a local server where a person plays, watches and analyses
//! Awari against this engine, the classic opponents or any engine that speaks the protocol.
//!
//! - `http`: the HTTP/1.1 layer over std's `TcpListener`, bounded in every way a client
//!   could use (line, head and body sizes, time, connections), which never stops accepting,
//!   and the headers on every answer (a Content-Security-Policy that allows only the page's
//!   own files).
//! - `routes`: what the server answers, and the checks on every request before it (its
//!   `Host`, a `POST`'s type and origin); `assets`, the page's files, compiled in; `stream`, a
//!   session's event stream.
//! - `api`: what each `/api/` request gets, whoever carries it (the server, or the page's
//!   worker through `local`), from a [`api::Host`] that holds the sessions.
//! - `actions`: the page's actions on its game (a move, a take-back, the analysis, a hint,
//!   the tree of variations, the pace, a review), one function each.
//! - `session`: one page's game, its seats and its event list.
//! - `tree`: the game with its variations, as PGN movetext: read, written, checked by the
//!   rules, and joined to and split from the game's own moves.
//! - `driver`: what runs a session's engines, each job decided from the session's state
//!   (`publish` writes what it tells the page; `reviewing` is a review under way, a position
//!   a job). On a server its host is a thread (each engine ended with its session, or when the
//!   session has been idle for `IDLE`); that thread starts its engines and outlives them, so
//!   each engine is started to die with it (`PR_SET_PDEATHSIG`): a server killed or aborted,
//!   which can end nothing itself, leaves no engine running.
//! - `thinker`: what the driver asks of an engine; `engine` is one over a pipe, `inproc` this
//!   program's search in the same process.
//! - `local`: the sessions of a page with no server (the WebAssembly worker), their drivers
//!   stepped between the page's requests.
//! - `pace`: the pace of a game between engines (a delay before each move, pause, step),
//!   so that a person can watch it.
//! - `viewed`: the position the page views (a past one of the game or a variation's), which
//!   the analysis and the hint follow.
//! - `ending`: the end of a game as drawn: the rows' seeds the result counts moved into the
//!   stores.
//! - `review`: a game's review, each move judged by what it lost against the engine's best.
//! - `kinds`: the engines offered; `engine`: one running engine, a child process driven with
//!   the engine client's [`crate::client::Process`]; this program itself is started like any
//!   other engine.
//! - `pgn`: a game's PGN text (a [`crate::record`]'s, the referee's and the page's download)
//!   read back for the load box.
//! - `view`, `info`, `trace`: what the page is sent: boards, legal moves and why the other
//!   houses are not, analysis lines checked against the rules, and each sowing's path for the
//!   page to animate.
//! - `tables`: each legal move's value in the endgame tables, for the page to write on the
//!   houses.
//! - `puzzles`: the puzzle mode: the shipped puzzles ([`crate::puzzles`]) posed one at a time,
//!   and a move judged against the answer, which the page is sent only then.
//!
//! The page (`page.html`, `transport.js` (its one way to the server), `serve.js`, `review.js`, `tables.js`, `tree.js`, `variations.js`,
//! `records.js`, `lines.js`, `puzzles.js`, `serve.css`, and the board drawing it shares with the
//! referee's report, `board.js`) is compiled in; it decides nothing about the rules: the
//! server sends the legal moves with every position.

mod actions;
pub mod api;
#[cfg(feature = "native")]
mod assets;
pub mod driver;
mod ending;
#[cfg(feature = "native")]
mod engine;
#[cfg(feature = "native")]
mod http;
mod info;
pub mod inproc;
pub mod kinds;
mod load;
pub mod local;
mod pace;
mod pgn;
mod publish;
mod puzzles;
mod review;
mod reviewing;
#[cfg(feature = "native")]
mod routes;
pub mod session;
#[cfg(feature = "native")]
mod stream;
pub mod tables;
pub mod thinker;
mod trace;
mod tree;
mod view;
mod viewed;

#[cfg(feature = "native")]
use crate::client::limit::Limit;
#[cfg(feature = "native")]
use crate::client::process::Spec;
#[cfg(feature = "native")]
use std::net::IpAddr;
#[cfg(feature = "native")]
use std::time::Duration;

#[cfg(feature = "native")]
/// A session that no page has asked anything of for this long is ended, with its engines.
pub const IDLE: Duration = Duration::from_secs(600);

#[cfg(feature = "native")]
/// Sessions at once, at most.
pub const MAX_SESSIONS: usize = 64;

#[cfg(feature = "native")]
/// What `awari serve` was asked for.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to listen on (loopback unless the user says otherwise).
    pub bind: IpAddr,
    /// The port (0: any free one).
    pub port: u16,
    /// Names other machines reach this one by (`--host`), accepted in a request's `Host`
    /// besides the address connected to.
    pub hosts: Vec<String>,
    /// Engines given with `--engine`, each with its time per move.
    pub engines: Vec<(Spec, Limit)>,
    /// The endgame tables' directory for this program's engines (else their default).
    pub tables: Option<std::path::PathBuf>,
    /// Open the page in the desktop's browser.
    pub open: bool,
}

#[cfg(feature = "native")]
/// Serves until interrupted. The page's address goes to stdout as soon as the port is open.
pub fn run(config: &Config) -> Result<(), String> {
    crate::sys::subreaper::become_subreaper();
    crate::sys::signals::install_interrupt_handler();
    crate::client::process::die_with_starter();
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    routes::serve(config, &exe)
}
