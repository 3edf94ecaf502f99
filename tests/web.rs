//! The engine compiled to WebAssembly (`web/`) is the same engine: `sh web/build.sh DIR` builds
//! the site once for these tests (or `AWARI_WEB_SITE` names one built already, as `.ci/run`
//! does), and node runs its engine. Its perft counts are the reference
//! counts every native test checks (`tests/data/perft.txt`, every rule set) and `awari perft`'s;
//! its searches find the same move, score and node count as the native engine's at the same
//! depth; its bench signs with the native bench's node count.

use crate::common::{self, skipped, Engine, Need};
use awari::rules::Variant;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

/// The repository, where `web/` is.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Why the site cannot be built here, if it cannot: no node, or neither the toolchain nor root
/// (or sudo) and apt-get to install it.
fn unavailable() -> Option<String> {
    if common::on_path("node").is_none() {
        return Some("node is not installed".into());
    }
    let toolchain = Path::new("/usr/bin/rustc").exists()
        && Path::new("/usr/lib/rustlib/src/rust/library/std").exists();
    let root_user = nix::unistd::geteuid().is_root();
    let installer =
        common::on_path("apt-get").is_some() && (root_user || common::on_path("sudo").is_some());
    (!toolchain && !installer).then(|| {
        "the WebAssembly toolchain (rustc-web, rust-web-src, lld-22) is missing and cannot be \
         installed here"
            .into()
    })
}

/// The site, built once for every test here (`None`, said, when it cannot be built here).
fn site() -> Option<&'static Path> {
    static SITE: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let built = SITE.get_or_init(|| {
        // Built already (`.ci/run` builds it before the tests, off their clock).
        if let Some(dir) = std::env::var_os("AWARI_WEB_SITE") {
            let dir = PathBuf::from(dir);
            assert!(
                dir.join("awari.wasm").is_file(),
                "AWARI_WEB_SITE names {}, which holds no awari.wasm",
                dir.display()
            );
            return Ok(dir);
        }
        if let Some(reason) = unavailable() {
            return Err(reason);
        }
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-site");
        // The tables are built with the tests' own engine, not a release build of it.
        let out = Command::new("sh")
            .arg(root().join("web/build.sh"))
            .arg(&dir)
            .env("AWARI", env!("CARGO_BIN_EXE_awari"))
            .output()
            .expect("sh runs");
        assert!(
            out.status.success(),
            "web/build.sh failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        Ok(dir)
    });
    match built {
        Ok(dir) => Some(dir),
        Err(reason) => {
            skipped(Need::Wasm, reason);
            None
        }
    }
}

/// `node web/SCRIPT DIR ARGS...`'s output; panics, with its error output, if it fails.
fn node(script: &str, dir: &Path, args: &[&str]) -> String {
    let out = Command::new("node")
        .arg(root().join("web").join(script))
        .arg(dir)
        .args(args)
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "node web/{script} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The rows of `tests/data/perft.txt`: variant, position, moves, counts by depth from 1.
fn perft_rows() -> Vec<(String, String, String, Vec<u64>)> {
    let text = std::fs::read_to_string(root().join("tests/data/perft.txt")).unwrap();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split('|').map(str::trim).collect();
            let counts = fields[4]
                .split_whitespace()
                .map(|c| c.parse().unwrap())
                .collect();
            (
                fields[1].to_string(),
                fields[2].to_string(),
                fields[3].to_string(),
                counts,
            )
        })
        .collect()
}

/// Leaves a row is counted to at most in the browser's engine: its deepest count within this.
const PERFT_LEAVES: u64 = 3_000_000;

#[test]
fn perft_in_webassembly_gives_every_reference_count() {
    let Some(dir) = site() else { return };
    let rows = perft_rows();
    let variants: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(
        variants.len(),
        Variant::ALL.len(),
        "every rule set has rows"
    );
    for (variant, position, moves, counts) in &rows {
        let depth = counts
            .iter()
            .rposition(|&c| c <= PERFT_LEAVES)
            .expect("a count within the limit");
        let depth_text = (depth + 1).to_string();
        let mut args = vec![variant.as_str(), depth_text.as_str()];
        if position != "startpos" {
            args.extend(["--fen", position.as_str()]);
        }
        if moves != "-" {
            args.extend(["--moves", moves.as_str()]);
        }
        let printed = node("perft.mjs", dir, &args);
        assert_eq!(
            printed.trim(),
            counts[depth].to_string(),
            "{variant} {position} {moves} at depth {}",
            depth + 1
        );
    }
}

#[test]
fn perft_in_webassembly_equals_awari_perft_from_every_start() {
    let Some(dir) = site() else { return };
    for variant in Variant::ALL {
        let depth = if variant == Variant::Ayoayo { "7" } else { "8" };
        let native = common::awari(&["perft", "--variant", variant.name(), "--depth", depth]);
        assert!(native.status.success());
        let total = common::text(&native.stdout)
            .lines()
            .find_map(|l| l.strip_prefix("total ").map(str::to_string))
            .expect("a total line");
        let wasm = node("perft.mjs", dir, &[variant.name(), depth]);
        assert_eq!(wasm.trim(), total, "{variant} at depth {depth}");
    }
}

/// The answer (JSON) of the engine in WebAssembly to `request`, from `node` driving
/// `web/engine.js`; with `tables`, after that rule set's table files in the site are put to use
/// (their answer must show them all, with no problem).
fn wasm_request(
    dir: &Path,
    tables: Option<Variant>,
    request: serde_json::Value,
) -> serde_json::Value {
    let load_tables = match tables {
        Some(variant) => format!(
            "const layers = [];\n\
             for (let n = 0; n <= 12; n++) layers.push(await readFile(`{tables}/{variant}-${{String(n).padStart(2, '0')}}.awtb`));\n\
             const used = engine.useTables({variant:?}, layers);\n\
             if (used.reach !== 12 || used.problems.length) throw new Error(JSON.stringify(used));\n",
            tables = dir.join("tables").display(),
            variant = variant.name(),
        ),
        None => String::new(),
    };
    let script = format!(
        "import {{ readFile }} from 'node:fs/promises';\n\
         import {{ load }} from {engine:?};\n\
         const engine = await load(await readFile({wasm:?}));\n\
         {load_tables}\
         console.log(JSON.stringify(engine.request({request})));",
        engine = root().join("web/engine.js").display().to_string(),
        wasm = dir.join("awari.wasm").display().to_string(),
    );
    let out = Command::new("node")
        .args(["--input-type=module", "-e", &script])
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "node: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("an answer in JSON")
}

/// A search in WebAssembly of the position after `moves` from the start.
fn wasm_search(dir: &Path, variant: Variant, moves: &str, depth: u32) -> serde_json::Value {
    let request = serde_json::json!({
        "op": "go", "variant": variant.name(), "moves": moves, "depth": depth,
    });
    wasm_request(dir, None, request)
}

/// A native search: the engine's last `info` line with a score (depth, score, nodes) and its
/// `bestmove`, from a fresh engine (an empty table, as the module's).
fn native_search(variant: Variant, moves: &str, depth: u32) -> (String, String) {
    let position = if moves.is_empty() {
        "position startpos".to_string()
    } else {
        format!("position startpos moves {moves}")
    };
    native(variant, &[&position], depth)
}

/// The native engine's last `info` line with a score and its `bestmove` after `setup` (lines
/// sent after the rule set's), searching to `depth` from a fresh engine.
fn native(variant: Variant, setup: &[&str], depth: u32) -> (String, String) {
    let mut engine = Engine::start();
    engine.send(&format!(
        "setoption name UCI_Variant value {}",
        variant.name()
    ));
    for line in setup {
        engine.send(line);
    }
    engine.send(&format!("go depth {depth}"));
    let lines = engine.until("bestmove", Duration::from_secs(300));
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && !l.contains("bound"))
        .cloned()
        .expect("an info line");
    (info, lines.last().unwrap().clone())
}

/// The word after `key` in an `info` line.
fn word<'a>(line: &'a str, key: &str) -> &'a str {
    let mut words = line.split_whitespace();
    words.find(|w| *w == key);
    words.next().unwrap_or_else(|| panic!("no {key} in {line}"))
}

#[test]
fn a_search_in_webassembly_equals_the_native_one() {
    let Some(dir) = site() else { return };
    let positions = [
        (Variant::Oware, "", 12),
        (Variant::Oware, "F f E a B e", 12),
        (Variant::Awari, "C d", 11),
        (Variant::Ahl, "", 12),
        (Variant::Kalah, "C", 12),
        (Variant::KalahEmpty, "A b", 12),
        (Variant::Ayoayo, "", 10),
    ];
    for (variant, moves, depth) in positions {
        let wasm = wasm_search(dir, variant, moves, depth);
        let (info, bestmove) = native_search(variant, moves, depth);
        let what = format!("{variant} after {moves:?} to depth {depth}: {info} / {wasm}");
        assert_eq!(
            Some(word(&bestmove, "bestmove")),
            wasm["best"].as_str(),
            "{what}"
        );
        assert_eq!(word(&info, "depth"), wasm["depth"].to_string(), "{what}");
        assert_eq!(word(&info, "nodes"), wasm["nodes"].to_string(), "{what}");
        let score = &wasm["score"];
        match score.get("mate") {
            Some(plies) => assert_eq!(word(&info, "mate"), plies.to_string(), "{what}"),
            None => assert_eq!(word(&info, "cp"), score["cp"].to_string(), "{what}"),
        }
    }
}

#[test]
fn the_tables_in_webassembly_give_the_native_move_and_result() {
    let Some(dir) = site() else { return };
    let tables = dir.join("tables");
    // Ten seeds on the board, within the site's tables (12 seeds).
    let positions = [
        (Variant::Oware, "1-0-2-0-1-0-0-3-0-1-2-0-20-18-S"),
        (Variant::Oware, "3-2-1-0-2-1-0-0-1-0-0-0-20-18-S"),
        (Variant::Oware, "0-0-1-0-0-0-2-3-1-2-1-0-18-20-S"),
        (Variant::Kalah, "3-2-1-0-2-1-0-0-1-0-0-0-20-18-S"),
        (Variant::KalahEmpty, "0-1-0-2-0-3-1-0-2-0-1-0-19-19-N"),
        (Variant::KalahEmpty, "3-2-1-0-2-1-0-0-1-0-0-0-20-18-N"),
    ];
    let mut decided = 0;
    for (variant, board) in positions {
        let request = serde_json::json!({
            "op": "go", "variant": variant.name(), "start": board, "depth": 8, "tables": true,
        });
        let wasm = wasm_request(dir, Some(variant), request);
        let (info, bestmove) = native(
            variant,
            &[
                &format!("setoption name TablesPath value {}", tables.display()),
                &format!("position fen {board}"),
            ],
            8,
        );
        let what = format!("{variant} {board}: {info} / {bestmove} / {wasm}");
        assert_eq!(
            Some(word(&bestmove, "bestmove")),
            wasm["best"].as_str(),
            "{what}"
        );
        assert!(wasm["tbhits"].as_u64() > Some(0), "{what}");
        // A proven result: `cp` is 100 a seed of the margin, and `tables` follows the score;
        // a proven draw is `cp 0`.
        match wasm["score"]["tables"].as_i64() {
            Some(margin) => {
                assert_eq!(word(&info, "cp"), (100 * margin).to_string(), "{what}");
                assert!(info.contains(" tables "), "{what}");
            }
            None => assert_eq!(wasm["score"]["cp"], 0, "{what}"),
        }
        decided += usize::from(wasm["score"]["tables"].as_i64().is_some_and(|m| m != 0));
    }
    assert!(decided >= 5, "only {decided} positions won or lost");
}

#[test]
fn the_bench_in_webassembly_signs_as_the_native_one() {
    let Some(dir) = site() else { return };
    let native = common::awari(&["bench"]);
    assert!(native.status.success());
    let nodes = |text: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix("bench nodes "))
            .and_then(|rest| rest.split_whitespace().next())
            .map(str::to_string)
            .unwrap_or_else(|| panic!("no total in {text}"))
    };
    let wasm = node("bench.mjs", dir, &[]);
    assert_eq!(nodes(&wasm), nodes(&common::text(&native.stdout)));
    let last = wasm.lines().last().unwrap();
    let nps: f64 = last
        .strip_prefix("nps ")
        .unwrap_or_else(|| panic!("the last line is {last:?}"))
        .parse()
        .unwrap();
    assert!(nps > 0.0);
}

/// A plain static file server (Python's `http.server`) on the site, and its address; it is
/// killed, with its process group, however the test ends.
fn static_server(dir: &Path) -> (common::Group, String) {
    let mut command = Command::new("python3");
    command
        .args([
            "-u",
            "-m",
            "http.server",
            "0",
            "--bind",
            "127.0.0.1",
            "--directory",
        ])
        .arg(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null());
    let mut server = common::Group::spawn(command).expect("python3 starts");
    let stdout = server.0.stdout.take().unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line).unwrap();
    // "Serving HTTP on 127.0.0.1 port 43567 (http://127.0.0.1:43567/) ..."
    let port = word(&line, "port").to_string();
    (server, format!("http://127.0.0.1:{port}/"))
}

#[test]
fn the_engine_searches_in_a_browsers_worker_from_a_static_server() {
    let Some(dir) = site() else { return };
    let (browser, driver) = crate::common::serve::browser_or_skip!();
    if common::on_path("python3").is_none() {
        return skipped(Need::Python, "python3 is not installed");
    }
    let (_server, url) = static_server(dir);
    let b = crate::common::serve::Browser::start(&browser, &driver, "web-worker");
    b.go(&url);
    let board = "3-2-1-0-2-1-0-0-1-0-0-0-20-18-S";
    let go_tables = serde_json::json!({
        "op": "go", "variant": "oware", "start": board, "depth": 8, "tables": true,
    });
    let go_kalah = serde_json::json!({
        "op": "go", "variant": "kalah", "moves": "C", "depth": 12,
    });
    // The tables first, then two searches, in order; each answer kept by its id.
    b.eval(&format!(
        "window.answers = {{}}; window.reports = 0;
         const worker = new Worker('worker.js', {{ type: 'module' }});
         worker.onmessage = (e) => {{
           if (e.data.report) window.reports++; else window.answers[e.data.id] = e.data.answer;
         }};
         worker.onerror = (e) => {{ window.answers.error = String(e.message); }};
         worker.postMessage({{ id: 1, tables: 'oware' }});
         worker.postMessage({{ id: 2, request: {go_tables} }});
         worker.postMessage({{ id: 3, request: {go_kalah} }});
         window.worker = worker;
         return 0;"
    ));
    crate::common::serve::wait_until(Duration::from_secs(120), "three answers", || {
        let answers = b.eval("return window.answers");
        assert!(answers.get("error").is_none(), "{answers}");
        answers.get("3").is_some()
    });
    let answers = b.eval("return window.answers");
    assert_eq!(answers["1"]["reach"], 12, "{answers}");
    assert_eq!(answers["1"]["problems"], serde_json::json!([]), "{answers}");
    assert!(b.eval("return window.reports").as_u64() > Some(0));
    // The browser's engine answers as node's: the same move, score and nodes.
    let node_tables = wasm_request(dir, Some(Variant::Oware), go_tables);
    let node_kalah = wasm_request(dir, None, go_kalah);
    for (browser, node) in [(&answers["2"], &node_tables), (&answers["3"], &node_kalah)] {
        for key in ["best", "score", "depth", "nodes"] {
            assert_eq!(browser[key], node[key], "{key}: {browser} / {node}");
        }
    }
    assert!(answers["2"]["score"]["tables"].is_i64(), "{answers}");
    // A search without end is stopped by ending its worker; a new one answers at once.
    b.eval(
        "window.reports = 0;
         window.worker.postMessage({ id: 4, request: { op: 'go', variant: 'oware', depth: 60 } });
         return 0;",
    );
    crate::common::serve::wait_until(
        Duration::from_secs(60),
        "a report of the long search",
        || b.eval("return window.reports").as_u64() > Some(2),
    );
    b.eval(
        "window.worker.terminate();
         window.answers = {};
         const fresh = new Worker('worker.js', { type: 'module' });
         fresh.onmessage = (e) => { if (!e.data.report) window.answers[e.data.id] = e.data.answer; };
         fresh.postMessage({ id: 5, request: { op: 'perft', variant: 'oware', depth: 5 } });
         return 0;",
    );
    crate::common::serve::wait_until(Duration::from_secs(60), "the new worker's answer", || {
        b.eval("return window.answers").get("5").is_some()
    });
    assert_eq!(b.eval("return window.answers")["5"]["nodes"], 5219);
    assert!(b.eval("return window.answers").get("4").is_none());
}

/// The static site's page, with its engine in a worker: whole games against the engine (in a
/// rule set with tables and one without), the analysis of a position with several lines, a
/// review, the PGN saved and loaded back, all from a plain static file server.
#[test]
fn the_static_page_plays_analyses_and_reviews_with_no_server() {
    use crate::common::serve::{
        check_board, game_of, no_animation, play_out, settled, wait_until, Browser, READ,
    };
    let Some(dir) = site() else { return };
    let (browser, driver) = crate::common::serve::browser_or_skip!();
    if common::on_path("python3").is_none() {
        return skipped(Need::Python, "python3 is not installed");
    }
    let (_server, url) = static_server(dir);
    let b = Browser::start(&browser, &driver, "web-page");
    // The engine's first move as South, timed from the page's start (the module compiled, the
    // tables fetched, the search): for the figures page.
    for strength in ["depth2", "1s"] {
        b.go(&format!("{url}?variant=oware&south={strength}&north=human"));
        wait_until(Duration::from_secs(60), "the engine's first move", || {
            b.eval(READ)["moves"]
                .as_str()
                .is_some_and(|m| !m.is_empty())
        });
        let ms = b.eval("return Math.round(performance.now())");
        eprintln!("the engine's first move ({strength}) shown {ms} ms after the page's start");
    }
    // A puzzle, posed and judged in the page.
    let puzzle = b.eval(
        "return AwariTransport.get('/api/puzzles/puzzle?n=0').then((p) =>
           AwariTransport.get(`/api/puzzles/answer?n=0&move=${p.legal[0]}`).then((a) => [p, a]));",
    );
    assert!(puzzle[0]["count"].as_u64() > Some(0), "{puzzle}");
    assert!(puzzle[1]["right"].is_boolean(), "{puzzle}");
    // Against the engine, then against the page's default opponent (greedy, a classic one).
    for (variant, north) in [(Variant::Oware, "&north=depth2"), (Variant::Ayoayo, "")] {
        b.go(&format!("{url}?variant={variant}&south=human{north}"));
        let first = settled(&b);
        let seat = b.eval("return document.getElementById('north').value");
        assert_eq!(seat, if north.is_empty() { "greedy" } else { "depth2" });
        let start = awari::rules::Board::start(variant).to_string();
        check_board(&first, &game_of(variant, &start, &first), "start");
        no_animation(&b);
        let end = play_out(&b, variant, &start, variant.name(), usize::MAX);
        assert!(!end["over"].as_str().unwrap().is_empty(), "{end}");
        b.screenshot(&format!("web-page-{variant}"));
    }
    // The game over, the PGN of it saved (a file made in the page) is the game's.
    let moves = b.eval(READ)["moves"].as_str().unwrap().to_string();
    b.eval(
        "window.saved = null;
         const make = URL.createObjectURL.bind(URL);
         URL.createObjectURL = (blob) => { blob.text().then((t) => { window.saved = t; }); return make(blob); };
         return 0;",
    );
    b.click("#pgn");
    wait_until(Duration::from_secs(30), "the PGN saved", || {
        b.eval("return window.saved").is_string()
    });
    let pgn = b.eval("return window.saved").as_str().unwrap().to_string();
    assert!(pgn.contains("[Variant \"ayoayo\"]"), "{pgn}");
    // Dated by the browser's clock.
    let date = pgn
        .split("[Date \"")
        .nth(1)
        .and_then(|d| d.get(..10))
        .unwrap_or("");
    let digits = |r: std::ops::Range<usize>| date[r].bytes().all(|b| b.is_ascii_digit());
    assert!(
        date.len() == 10 && digits(0..4) && digits(5..7) && digits(8..10),
        "{pgn}"
    );
    // Loaded back into the box: the same moves, between persons.
    b.type_into("#record-in", &pgn);
    b.click("#load");
    wait_until(Duration::from_secs(30), "the PGN loaded", || {
        b.eval(READ)["moves"] == moves.as_str()
            && b.eval("return document.getElementById('south').value") == "human"
    });
    // A review of it, position by position, to its end.
    b.click("#review");
    wait_until(Duration::from_secs(300), "the review", || {
        b.eval(r##"return document.body.getAttribute("data-review")"##) == "done"
    });
    let judged = b.eval(r##"return document.querySelectorAll("#judged li").length"##);
    assert!(judged.as_u64() > Some(0), "{judged}");
    // A reload: the game ends with its worker, and is replayed from the address without a
    // word (there is no server that could have restarted).
    b.go(&format!("{url}?variant=kalah&south=human&north=depth2"));
    no_animation(&b);
    let start = awari::rules::Board::start(Variant::Kalah).to_string();
    let before = play_out(&b, Variant::Kalah, &start, "kalah", 4);
    b.eval("location.reload(); return 0;");
    wait_until(Duration::from_secs(60), "the game replayed", || {
        b.eval("return document.body.getAttribute('data-replayed')") == "1"
    });
    let after = settled(&b);
    assert_eq!(after["moves"], before["moves"], "{after}");
    assert_eq!(after["notice"], "", "{after}");
    // A position of kalah within the tables' reach: their values on its houses.
    b.go(&format!(
        "{url}?variant=kalah&south=human&north=human&fen=0-1-0-2-0-1-3-0-1-0-0-2-20-18-S"
    ));
    settled(&b);
    wait_until(
        Duration::from_secs(60),
        "the tables' values on the houses",
        || {
            b.eval(r##"return document.querySelectorAll("#board .table-value").length"##)
                .as_u64()
                > Some(0)
        },
    );
    // The analysis of kalah's start, two lines, deepening while the page waits.
    b.go(&format!("{url}?variant=kalah&south=human&north=human"));
    settled(&b);
    b.click("#analyse");
    wait_until(Duration::from_secs(60), "the lines selector", || {
        b.eval("return !document.getElementById('lines-choice').hidden") == true
    });
    b.eval(
        r##"const n = document.getElementById("lines-n");
        n.value = "2";
        n.dispatchEvent(new Event("change"));
        return 0;"##,
    );
    wait_until(
        Duration::from_secs(60),
        "two analysis lines at depth 10 or more",
        || {
            let rows = b.eval(
                r##"return [...document.querySelectorAll("#lines tbody tr")].map((r) => +r.children[1].textContent);"##,
            );
            let depths: Vec<u64> = rows
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|d| d.as_u64())
                .collect();
            depths.len() == 2 && depths.iter().all(|&d| d >= 10)
        },
    );
    b.screenshot("web-page-analysis");
    // A request while the analysis runs waits at most for the slice under way: for the
    // figures page.
    let waits = b.eval(
        "const id = document.body.getAttribute('data-session');
         const times = [];
         const one = () => { const t = performance.now();
           return AwariTransport.get(`/api/state?id=${id}`).then(() => times.push(performance.now() - t)); };
         let chain = Promise.resolve();
         for (let i = 0; i < 10; i++) chain = chain.then(one).then(() => new Promise((r) => setTimeout(r, 37)));
         return chain.then(() => times.map(Math.round));",
    );
    eprintln!("requests while the analysis runs, answered in (ms): {waits}");
    // Unticked, it stops: the page says nothing is analysed.
    b.click("#analyse");
    wait_until(Duration::from_secs(30), "the analysis stopped", || {
        b.eval("return document.getElementById('lines-choice').hidden") == true
    });
}
