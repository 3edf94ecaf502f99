//! `awari serve` loses nothing and leaves nothing running: a load with nothing to load
//! changes nothing, a game replaced by a load or a new game can be brought back, a loaded
//! record (PGN or JSON line, the referee's) is downloaded again unchanged, a file of two games
//! lists them and loads the one chosen with its players, and a browser that ends without a
//! word (no `pagehide`) leaves no engine searching, and none at all after the grace period.
//! The browser tests run headless Chromium through WebDriver; without `chromium` or
//! `chromedriver` each says `skipped: <test>: <reason>`.
//!
//! Whatever a test starts (the server, chromedriver, the browser through it) it stops by pid.

use crate::common;
use crate::common::serve::*;
use serde_json::{json, Value};
use std::time::Duration;

#[test]
fn a_load_of_nothing_changes_nothing_and_a_replaced_game_comes_back() {
    let (browser, driver) = browser_or_skip!();
    let server = Server::start(&[]);
    let b = Browser::start(&browser, &driver, "kept");
    let played = "FfEaDb";
    b.go(&format!(
        "{}?variant=oware&south=human&north=human&moves={played}",
        server.url()
    ));
    settled(&b);
    assert_eq!(server_state(&server, &b)["moves"], played);
    // Nothing in the box: said so, and the game is as it was.
    b.type_into("#record-in", "");
    let generation = b.eval(READ)["generation"].clone();
    b.click("#load");
    wait_until(Duration::from_secs(30), "the empty load refused", || {
        b.eval(READ)["notice"]
            .as_str()
            .is_some_and(|n| n.starts_with("Nothing to load"))
    });
    let page = b.eval(READ);
    assert_eq!(page["generation"], generation, "{page}");
    assert_eq!(page["moves"], played);
    assert_eq!(server_state(&server, &b)["moves"], played);
    // Another game's record replaces it, and the game before is offered back.
    let other = post(
        &server.addr,
        "/api/session",
        json!({ "variant": "oware", "south": "human", "north": "human", "moves": "AfBe" }),
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (code, pgn) = http(
        &server.addr,
        "GET",
        &format!("/api/record?id={other}&format=pgn"),
        None,
    );
    assert_eq!(code, 200, "{pgn}");
    b.type_into("#record-in", &pgn);
    b.click("#load");
    wait_until(Duration::from_secs(30), "the record loaded", || {
        b.eval(READ)["moves"] == "AfBe"
    });
    wait_until(
        Duration::from_secs(30),
        "the offer to bring it back",
        || b.eval("return !!document.getElementById('undo-replace')") == true,
    );
    b.click("#undo-replace");
    wait_until(Duration::from_secs(30), "the game before, back", || {
        b.eval(READ)["moves"] == played
    });
    assert_eq!(server_state(&server, &b)["moves"], played);
    // A new game replaces it too, and it comes back again.
    b.type_into("#moves-in", "");
    b.click("#new");
    wait_until(Duration::from_secs(30), "a new game", || {
        b.eval(READ)["moves"] == ""
    });
    wait_until(
        Duration::from_secs(30),
        "the offer after a new game",
        || b.eval("return !!document.getElementById('undo-replace')") == true,
    );
    b.click("#undo-replace");
    wait_until(
        Duration::from_secs(30),
        "the game back after a new game",
        || b.eval(READ)["moves"] == played,
    );
    // A game with no moves has nothing to lose: no offer.
    b.click("#new");
    wait_until(Duration::from_secs(30), "a new game", || {
        b.eval(READ)["moves"] == ""
    });
    b.click("#new");
    settled(&b);
    wait_until(Duration::from_secs(30), "the notice cleared", || {
        b.eval(READ)["notice"] == ""
    });
    assert_eq!(
        b.eval("return !!document.getElementById('undo-replace')"),
        false
    );
}

/// CPU time of process `pid` so far, in clock ticks (user and system), or `None` once it has
/// ended.
fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After the name: state is field 3, utime 14 and stime 15 (proc(5)), here 0, 11 and 12.
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

#[test]
fn an_ended_browser_leaves_no_engine_searching() {
    let (browser, driver) = browser_or_skip!();
    let server = Server::start(&[]);
    let b = Browser::start(&browser, &driver, "page-ended");
    b.go(&format!(
        "{}?variant=oware&south=human&north=human",
        server.url()
    ));
    settled(&b);
    b.click("#analyse");
    wait_until(Duration::from_secs(60), "the analysis", || {
        !server_state(&server, &b)["analysing"].is_null()
    });
    let id = b.eval("return document.body.getAttribute('data-session')");
    let id = id.as_str().unwrap().to_string();
    let engines = server.children();
    assert_eq!(engines.len(), 1, "the analysis engine alone: {engines:?}");
    // The browser itself ends, as when it is quit or crashes: no `pagehide`, no tab closed,
    // only its connections dropped. chromedriver started it; its helpers follow it.
    let browsers: Vec<u32> = common::children_of(b._driver.0.id())
        .into_iter()
        .filter(|&pid| {
            std::fs::read_to_string(format!("/proc/{pid}/comm"))
                .is_ok_and(|c| c.trim().starts_with("chrom"))
        })
        .collect();
    assert_eq!(browsers.len(), 1, "chromedriver's browser: {browsers:?}");
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &browsers[0].to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    // The analysis stops while the session still waits for the page to come back.
    let state = || http(&server.addr, "GET", &format!("/api/state?id={id}"), None);
    wait_until(Duration::from_secs(60), "the analysis stopped", || {
        let (code, text) = state();
        assert_eq!(
            code, 200,
            "the session ended before its analysis stopped: {text}"
        );
        serde_json::from_str::<Value>(&text).unwrap()["analysing"].is_null()
    });
    // Its engine, not yet ended, searches no more: at most a tenth of a second of CPU over
    // the next two (a search takes all of it).
    if let Some(before) = cpu_ticks(engines[0]) {
        std::thread::sleep(Duration::from_secs(2));
        if let Some(after) = cpu_ticks(engines[0]) {
            assert!(after - before <= 10, "{} ticks in 2 s", after - before);
        }
    }
    // Nobody comes back: after the grace period the session ends with its engine.
    wait_until(Duration::from_secs(120), "the session ended", || {
        state().0 == 404
    });
    wait_until(Duration::from_secs(60), "its engine ended", || {
        server.children().is_empty()
    });
}

/// A two-game match between two depth-limited engines, recorded by the referee: its PGN file
/// and its JSON lines file, in `dir`.
fn two_games(dir: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let (pgn, json) = (dir.join("two.pgn"), dir.join("two.jsonl"));
    let awari = env!("CARGO_BIN_EXE_awari");
    let out = common::referee()
        .args(["--engine", &format!("cmd={awari}"), "name=alpha", "depth=2"])
        .args(["--engine", &format!("cmd={awari}"), "name=beta", "depth=3"])
        .args(["--games", "2", "--openings"])
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tournament/openings/oware.txt"
        ))
        .arg("--pgnout")
        .arg(&pgn)
        .arg("--jsonout")
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::printed(&out));
    (pgn, json)
}

#[test]
fn a_loaded_record_is_downloaded_again_unchanged() {
    let dir = common::scratch("serve-kept", "records");
    let (pgn, json) = two_games(&dir);
    let server = Server::start(&[]);
    let addr = server.addr.as_str();
    let pgn = std::fs::read_to_string(pgn).unwrap();
    let games: Vec<String> = pgn
        .split("\n\n[")
        .enumerate()
        .map(|(i, g)| {
            if i == 0 {
                g.to_string()
            } else {
                format!("[{g}")
            }
        })
        .map(|g| g.trim_end().to_string() + "\n\n")
        .collect();
    assert_eq!(games.len(), 2, "{pgn}");
    let lines: Vec<String> = std::fs::read_to_string(json)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    // (what, the record loaded, the format it is downloaded in, what must come back, the
    // players shown: the referee swaps the sides each game)
    let rows = [
        (
            "the first game's PGN",
            &games[0],
            "pgn",
            games[0].clone(),
            ["alpha", "beta"],
        ),
        (
            "the second game's PGN",
            &games[1],
            "pgn",
            games[1].clone(),
            ["beta", "alpha"],
        ),
        (
            "the first game's JSON line",
            &lines[0],
            "json",
            lines[0].clone() + "\n",
            ["alpha", "beta"],
        ),
        (
            "the second game's JSON line",
            &lines[1],
            "json",
            lines[1].clone() + "\n",
            ["beta", "alpha"],
        ),
    ];
    for (what, record, format, want, players) in rows {
        let id = post(
            addr,
            "/api/session",
            json!({ "variant": "oware", "south": "human", "north": "human", "record": record }),
        )["id"]
            .as_str()
            .unwrap()
            .to_string();
        let (code, text) = http(
            addr,
            "GET",
            &format!("/api/record?id={id}&format={format}"),
            None,
        );
        assert_eq!(code, 200, "{what}: {text}");
        // After the byte-order mark the downloads begin with.
        assert_eq!(text.trim_start_matches('\u{feff}'), want, "{what}");
        let (_, state) = http(addr, "GET", &format!("/api/state?id={id}"), None);
        let state: Value = serde_json::from_str(&state).unwrap();
        assert_eq!(
            state["players"],
            json!(players),
            "{what}: the players shown"
        );
    }
}

#[test]
fn a_file_of_two_games_lists_them_and_loads_the_one_chosen() {
    let (browser, driver) = browser_or_skip!();
    let dir = common::scratch("serve-kept", "file");
    let (pgn, _) = two_games(&dir);
    let text = std::fs::read_to_string(&pgn).unwrap();
    let second = awari::record::GameRecord::from_json(
        std::fs::read_to_string(dir.join("two.jsonl"))
            .unwrap()
            .lines()
            .nth(1)
            .unwrap()
            .as_bytes(),
    )
    .unwrap();
    let server = Server::start(&[]);
    let b = Browser::start(&browser, &driver, "kept-file");
    b.go(&format!(
        "{}?variant=oware&south=human&north=human",
        server.url()
    ));
    settled(&b);
    let input = b.element("#record-file");
    b.call(
        "POST",
        &format!("/element/{input}/value"),
        Some(json!({ "text": pgn.display().to_string() })),
    );
    wait_until(Duration::from_secs(30), "the games listed", || {
        b.eval("return document.querySelectorAll('#record-games option').length") == 2
    });
    let listed = b.eval(
        "return [...document.querySelectorAll('#record-games option')].map((o) => o.textContent)",
    );
    let listed: Vec<String> = serde_json::from_value(listed).unwrap();
    assert!(listed[1].starts_with("2. beta - alpha, "), "{listed:?}");
    assert!(text.contains("[South \"beta\"]"), "{text}");
    b.eval(
        "const s = document.getElementById('record-games'); s.value = '1'; \
         s.dispatchEvent(new Event('change')); return 0;",
    );
    b.click("#load");
    let all = second.opening.clone() + &second.moves;
    wait_until(Duration::from_secs(30), "the second game loaded", || {
        b.eval(READ)["moves"] == all.as_str()
    });
    let state = server_state(&server, &b);
    assert_eq!(state["players"], json!(["beta", "alpha"]));
    b.screenshot("kept-file");
}
