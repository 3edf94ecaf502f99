//! `awari serve` loses nothing and leaves nothing running, in a real browser (headless
//! Chromium through WebDriver): a load with nothing to load changes nothing, a game replaced
//! by a load or a new game can be brought back, and a browser that ends without a word (no
//! `pagehide`) leaves no engine searching, and none at all after the grace period. Without
//! `chromium` or `chromedriver` each test says `skipped: <test>: <reason>`.
//!
//! Whatever a test starts (the server, chromedriver, the browser through it) it stops by pid.

use crate::common;
use crate::common::serve::*;
use serde_json::{json, Value};
use std::time::Duration;

/// The browser and its driver, or the test says why it is skipped.
macro_rules! browser_or_skip {
    () => {
        match tools() {
            Ok(t) => t,
            Err(reason) => return common::skipped(common::Need::Browser, reason),
        }
    };
}

/// The session's state from the server, for the page's session.
fn server_state(server: &Server, b: &Browser) -> Value {
    let id = b.eval("return document.body.getAttribute('data-session')");
    let (code, text) = http(
        &server.addr,
        "GET",
        &format!("/api/state?id={}", id.as_str().unwrap()),
        None,
    );
    assert_eq!(code, 200, "{text}");
    serde_json::from_str(&text).unwrap()
}

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
