//! The requests the page's worker sends the engine, one JSON object each (`op` names it), and
//! their answers. Every request is answered, a wrong one with `{"error": "..."}`; none panics.
//!
//! - `{"op": "perft", "variant": V, "depth": D, "start": B?, "moves": M?}`: `{"nodes": N}`, the
//!   leaves of the moves' tree `D` plies deep from the position (as `go` reads it).
//! - `{"op": "go", "variant": V, "start": B?, "moves": M?, "depth": D?, "nodes": N?,
//!   "movetime": MS?, "multipv": K?, "tables": true?}`: a search of the position after the moves
//!   `M` (the protocol's notation, space-separated) from the board `B` (protocol.md's notation;
//!   V's start if absent). At least one limit is asked for: a search in the page cannot be told
//!   to stop (the worker is ended instead). Each iteration's report goes to the host as
//!   `{"info": {...}}`; the answer is `{"best": "c" | null, "ponder", "score", "depth",
//!   "nodes", "time", "tbhits"}`. With `tables`, the tables given last (`tables`) are probed.
//! - `{"op": "bench", "depth": D?}`: `awari bench`'s positions searched, each reported as
//!   `{"bench": line}`; the answer is `{"nodes": N, "time": MS, "nps": NPS}`.
//! - `{"op": "hash", "mb": MB}`: a transposition table of that size (and empty).
//! - `{"op": "clear"}`: the table emptied (a new game).
//! - `{"op": "tables", "variant": V}`: the table files handed over since the last `tables`
//!   request (`table_file`), checked and put to use; the answer is `{"reach": N | null,
//!   "layers": K, "problems": [...]}`.
//!
//! - `{"op": "page", "method": M, "url": U, "body": B?}`: one request of `awari serve`'s API,
//!   answered by [`awari::serve::local::Local`] as the server answers it: `{"status", "type",
//!   "body", "file", "events"}`, `events` being `[{"id": SESSION, "text": server-sent events}]`
//!   of the sessions listened to.
//! - `{"op": "listen", "id": SESSION}`: that session's events from its latest state on, in
//!   this answer's `events` and every later one's.
//! - `{"op": "step"}`: one job of the sessions' engines; `{"next": "busy" | {"wait": MS} |
//!   "idle" | "quit", "events"}`.
//!
//! A score is `{"cp": C}` (centi-seeds), `{"mate": P}` (the game ends in P plies, won if
//! positive) or `{"tables": M}` (a result the endgame tables prove, by M seeds).

use crate::page;
use awari::rules::{format_move_list, perft, Board, Game, Variant};
use awari::search::eval::Evaluator;
use awari::search::time::Limits;
use awari::search::tt::{Bound, HashTable};
use awari::search::{self, bench, Analysis, Control, Report, Score, Setup};
use awari::serve::local::Local;
use awari::serve::tables::{held, use_tables};
use awari::tables::file::FileKind;
use awari::tables::Tables;
use serde::Deserialize;
use serde_json::{json, Value};

/// The transposition table's size when none is asked for, in MiB: the engine's `Hash` default.
pub const DEFAULT_HASH_MB: usize = 64;
/// The largest table a request may ask for, in MiB: a wasm instance has 4 GiB at most.
pub const MAX_HASH_MB: usize = 1024;

/// One request, as the page writes it.
#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "lowercase", deny_unknown_fields)]
enum Request {
    Perft {
        variant: Variant,
        depth: u32,
        start: Option<String>,
        moves: Option<String>,
    },
    Go {
        variant: Variant,
        start: Option<String>,
        moves: Option<String>,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<u64>,
        multipv: Option<usize>,
        #[serde(default)]
        tables: bool,
    },
    Bench {
        depth: Option<u32>,
    },
    Hash {
        mb: usize,
    },
    Clear,
    Tables {
        variant: Variant,
    },
    Page {
        method: String,
        url: String,
        #[serde(default)]
        body: Option<String>,
    },
    Listen {
        id: String,
    },
    Step,
}

/// The engine a module holds: its transposition table, and the table files handed over and not
/// yet put to use. The endgame tables put to use are the process's
/// ([`awari::serve::tables::held`]), which the page's sessions read too.
pub struct Engine {
    tt: HashTable,
    files: Vec<(FileKind, usize, Box<[u8]>)>,
    /// The page's sessions, made at the first page request.
    page: Option<Local>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine with the default table and no endgame tables.
    pub fn new() -> Engine {
        Engine {
            tt: HashTable::new(DEFAULT_HASH_MB),
            files: Vec::new(),
            page: None,
        }
    }

    /// Keeps a table file's bytes for the next `tables` request; `false` for an unknown kind.
    pub fn add_file(&mut self, kind: u32, layer: usize, bytes: &[u8]) -> bool {
        let kind = match kind {
            0 => FileKind::Table,
            1 => FileKind::Paths,
            _ => return false,
        };
        self.files.push((kind, layer, bytes.into()));
        true
    }

    /// The answer to the request in `bytes`, passing each report to `report` as it comes.
    pub fn answer(&mut self, bytes: &[u8], report: &mut dyn FnMut(&str)) -> String {
        let answer = match serde_json::from_slice::<Request>(bytes) {
            Ok(request) => self.run(request, report),
            Err(e) => Err(format!("not a request: {e}")),
        };
        match answer {
            Ok(value) => value.to_string(),
            Err(error) => json!({ "error": error }).to_string(),
        }
    }

    fn run(&mut self, request: Request, report: &mut dyn FnMut(&str)) -> Result<Value, String> {
        match request {
            Request::Perft {
                variant,
                depth,
                start,
                moves,
            } => {
                let game = position(variant, start.as_deref(), moves.as_deref())?;
                let nodes = perft(&game, depth);
                Ok(json!({ "nodes": nodes }))
            }
            Request::Go {
                variant,
                start,
                moves,
                depth,
                nodes,
                movetime,
                multipv,
                tables,
            } => {
                let game = position(variant, start.as_deref(), moves.as_deref())?;
                if depth.is_none() && nodes.is_none() && movetime.is_none() {
                    return Err("a search needs a limit: depth, nodes or movetime".into());
                }
                let limits = Limits {
                    depth,
                    nodes,
                    movetime,
                    ..Limits::default()
                };
                let tables = held(variant).filter(|_| tables);
                Ok(go(
                    &game,
                    &mut self.tt,
                    tables.as_deref(),
                    &limits,
                    multipv,
                    report,
                ))
            }
            Request::Bench { depth } => {
                let control = Control::new(false);
                let started = search::instant::Instant::now();
                let nodes =
                    bench::bench(depth, None, 1, Evaluator::engine, &control, &mut |line| {
                        report(&json!({ "bench": line }).to_string())
                    });
                let total_ms = started.elapsed().as_secs_f64() * 1e3;
                let nps = nodes as f64 / (total_ms / 1e3).max(1e-9);
                Ok(json!({ "nodes": nodes, "time": total_ms.round(), "nps": nps.round() }))
            }
            Request::Hash { mb } => {
                if !(1..=MAX_HASH_MB).contains(&mb) {
                    return Err(format!("hash: {mb} MiB is not within 1 to {MAX_HASH_MB}"));
                }
                self.tt = HashTable::try_new(mb).map_err(|e| format!("hash: {e}"))?;
                Ok(json!({ "hash": mb }))
            }
            Request::Clear => {
                self.tt.clear();
                Ok(json!({ "cleared": true }))
            }
            Request::Page { method, url, body } => {
                let page = self.page.get_or_insert_with(page::sessions);
                let answer = page.request(&method, &url, body.unwrap_or_default().as_bytes());
                Ok(json!({
                    "status": answer.status,
                    "type": answer.kind,
                    "body": answer.body,
                    "file": answer.file,
                    "events": page::events(page),
                }))
            }
            Request::Listen { id } => {
                let page = self.page.get_or_insert_with(page::sessions);
                if !page.listen(&id) {
                    return Err(format!("no such session: {id}"));
                }
                Ok(json!({ "events": page::events(page) }))
            }
            Request::Step => {
                let page = self.page.get_or_insert_with(page::sessions);
                let poll = page.step();
                Ok(json!({ "next": page::next(poll), "events": page::events(page) }))
            }
            Request::Tables { variant } => {
                let files = std::mem::take(&mut self.files);
                let tables = Tables::from_bytes(variant, files);
                let answer = json!({
                    "reach": tables.reach(),
                    "layers": tables.count(),
                    "problems": tables.problems().iter().map(ToString::to_string).collect::<Vec<_>>(),
                });
                use_tables(tables);
                Ok(answer)
            }
        }
    }
}

/// The game after `moves` from `start` (the variant's start if `None`).
pub fn position(
    variant: Variant,
    start: Option<&str>,
    moves: Option<&str>,
) -> Result<Game, String> {
    let board = match start {
        Some(text) => Board::from_notation(variant, text).map_err(|e| e.to_string())?,
        None => Board::start(variant),
    };
    let mut game = Game::new(board);
    if let Some(moves) = moves.filter(|m| !m.trim().is_empty()) {
        game.play_text(moves).map_err(|e| e.to_string())?;
    }
    Ok(game)
}

/// A search of `game` within `limits`, one thread, each report passed on.
fn go(
    game: &Game,
    tt: &mut HashTable,
    tables: Option<&Tables>,
    limits: &Limits,
    multipv: Option<usize>,
    report: &mut dyn FnMut(&str),
) -> Value {
    let control = Control::new(false);
    let setup = Setup {
        tt,
        threads: 1,
        control: &control,
        evaluator: Evaluator::engine(game.board().variant()),
        limits,
        overhead: 0,
        tables,
        path_values: false,
    };
    let analysis = Analysis {
        multipv: multipv.unwrap_or(1).max(1),
        searchmoves: None,
    };
    let found = search::analyse(game, setup, analysis, &mut |r: &Report| {
        report(&json!({ "info": info(r) }).to_string())
    });
    json!({
        "best": found.best.map(|m| m.to_string()),
        "ponder": found.ponder.map(|m| m.to_string()),
        "score": score(found.score),
        "depth": found.depth,
        "nodes": found.nodes,
        "time": found.time.as_millis() as u64,
        "tbhits": found.tbhits,
    })
}

/// One report as the page reads it.
fn info(r: &Report) -> Value {
    json!({
        "depth": r.depth,
        "seldepth": r.seldepth,
        "multipv": r.multipv,
        "score": score(r.score),
        "bound": match r.bound {
            Some(Bound::Lower) => Some("lower"),
            Some(Bound::Upper) => Some("upper"),
            _ => None,
        },
        "nodes": r.nodes,
        "time": r.time.as_millis() as u64,
        "hashfull": r.hashfull,
        "tbhits": r.tbhits,
        "pv": format_move_list(&r.pv),
    })
}

/// A search score as the page reads it.
fn score(s: i32) -> Value {
    match Score::of(s) {
        Score::Cp(cp) => json!({ "cp": cp }),
        Score::Mate(plies) => json!({ "mate": plies }),
        Score::Tables(margin) => json!({ "tables": margin }),
    }
}
