//! `awari serve` in a real browser: headless Chromium driven through WebDriver
//! (`chromedriver`, spoken to over plain HTTP), and the server's HTTP API alone under load.
//!
//! The browser plays whole games against greedy in each rule set by clicking houses, and after
//! every move the board the page shows is compared with the rules' position, computed here
//! from the moves the page lists; it takes back, sets up a position, plays two games in two
//! tabs at once, and shows an engine that crashes mid-game. Screenshots of each rule set's
//! board go to `target/serve-artifacts/`. Without `chromium` or `chromedriver` the browser
//! tests say `skipped: <test>: <reason>` (`.ci/run` installs both where it can).
//!
//! Whatever a test starts (the server, chromedriver, the browser through it) it stops by pid.

use crate::common;
use awari::rules::{Board, Game, Move, Variant};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use crate::common::serve::*;

#[test]
fn whole_games_against_greedy_in_every_rule_set() {
    let (browser, driver) = match tools() {
        Ok(t) => t,
        Err(reason) => return common::skipped(common::Need::Browser, reason),
    };
    let server = Server::start(&[]);
    let b = Browser::start(&browser, &driver, "games");
    for variant in Variant::ALL {
        b.go(&format!(
            "{}?variant={variant}&south=human&north=greedy",
            server.url()
        ));
        let first = settled(&b);
        let ms = b.eval("return document.documentElement.getAttribute('data-first-board-ms')");
        eprintln!("{variant}: first board drawn {ms} ms after the page's start");
        // The first moves are sown seed by seed; the rest are shown at once.
        let start = Board::start(variant).to_string();
        check_board(&first, &game_of(variant, &start, &first), "start");
        if variant == Variant::Ayoayo || variant == Variant::Kalah {
            play_out(&b, variant, &start, variant.name(), 4);
        }
        no_animation(&b);
        let end = play_out(&b, variant, &start, variant.name(), usize::MAX);
        assert!(!end["over"].as_str().unwrap().is_empty());
        b.screenshot(variant.name());
    }
}

#[test]
fn take_back_set_up_a_position_and_two_tabs_at_once() {
    let (browser, driver) = match tools() {
        Ok(t) => t,
        Err(reason) => return common::skipped(common::Need::Browser, reason),
    };
    let server = Server::start(&[]);
    let b = Browser::start(&browser, &driver, "tabs");
    b.go(&format!("{}?south=human&north=greedy", server.url()));
    settled(&b);
    no_animation(&b);
    let start = Board::start(Variant::Oware).to_string();
    play_out(&b, Variant::Oware, &start, "oware", 6);
    // Take back: to the person's previous turn (greedy's answer and the person's move).
    b.click("#takeback");
    wait_until(Duration::from_secs(10), "the take-back", || {
        b.eval(READ)["moves"].as_str().is_some_and(|m| m.len() == 4)
    });
    let page = settled(&b);
    check_board(&page, &game_of(Variant::Oware, &start, &page), "taken back");

    // A position set up from the notation: the feeding rule marks E, empty houses A-D.
    let fen = "0-0-0-0-1-3-0-0-0-0-0-0-20-24-S";
    b.type_into("#fen", fen);
    b.type_into("#moves-in", "");
    b.click("#new");
    wait_until(Duration::from_secs(10), "the set-up position", || {
        b.eval(READ)["moves"].as_str() == Some("")
            && b.eval("return document.body.getAttribute('data-fen')") == fen
    });
    let page = settled(&b);
    check_board(&page, &game_of(Variant::Oware, fen, &page), "set up");
    assert_eq!(
        page["illegal"],
        json!([
            [0, "empty"],
            [1, "empty"],
            [2, "empty"],
            [3, "empty"],
            [4, "must-feed"]
        ])
    );
    // A position the rules refuse is said so, and the game stays as it was.
    b.type_into("#fen", "4-4-4-x");
    b.click("#new");
    wait_until(Duration::from_secs(10), "the refusal", || {
        b.eval(READ)["notice"]
            .as_str()
            .is_some_and(|n| n.contains("Not started"))
    });
    assert_eq!(b.eval("return document.body.getAttribute('data-fen')"), fen);

    // Two tabs, two games at once, moves interleaved.
    b.type_into("#fen", "");
    let first = b.tab();
    let second = b.new_tab();
    b.switch(&second);
    b.go(&format!(
        "{}?variant=kalah&south=human&north=greedy",
        server.url()
    ));
    settled(&b);
    no_animation(&b);
    b.switch(&first);
    b.click("#new");
    // The set-up position had no moves either: the new game is seen by its position.
    wait_until(Duration::from_secs(10), "the new game", || {
        b.eval("return document.body.getAttribute('data-fen')") == start.as_str()
    });
    let kalah = Board::start(Variant::Kalah).to_string();
    for plies in [2, 4, 6, 8] {
        for (tab, variant, start) in [
            (&first, Variant::Oware, &start),
            (&second, Variant::Kalah, &kalah),
        ] {
            b.switch(tab);
            play_out(&b, variant, start, variant.name(), plies);
        }
    }
    assert_eq!(
        common::children_of(server.child.id()).len(),
        2,
        "one engine per tab"
    );
}

#[test]
fn an_engine_that_crashes_is_reported_on_the_page() {
    let (browser, driver) = match tools() {
        Ok(t) => t,
        Err(reason) => return common::skipped(common::Need::Browser, reason),
    };
    let server = Server::start(&[
        "--engine",
        &format!("cmd={MISBEHAVE}"),
        "arg=crash-at",
        "arg=5",
        "name=crasher",
    ]);
    let b = Browser::start(&browser, &driver, "crash");
    b.go(&format!("{}?south=human&north=engine-1", server.url()));
    settled(&b);
    no_animation(&b);
    let start = Board::start(Variant::Oware).to_string();
    let mut page = Value::Null;
    wait_until(Duration::from_secs(60), "the crash", || {
        page = settled(&b);
        if page["error"].is_string() {
            return true;
        }
        let legal = page["legal"].as_str().unwrap();
        let house = Move::from_char(legal.chars().next().unwrap())
            .unwrap()
            .house();
        let before = page["moves"].clone();
        b.click(&format!("[data-house-cell=\"{house}\"]"));
        wait_until(Duration::from_secs(10), "the move", || {
            b.eval(READ)["moves"] != before
        });
        false
    });
    let error = page["error"].as_str().unwrap();
    assert!(
        error.contains("crasher") && error.contains("exited (status 3)"),
        "{error}"
    );
    // The board stays the rules' board, and no house can be clicked until a new game.
    check_board(&page, &game_of(Variant::Oware, &start, &page), "crashed");
    assert_eq!(page["legal"], "");
    b.screenshot("crash");
    wait_until(Duration::from_secs(10), "the crashed engine reaped", || {
        server.children().is_empty()
    });
}

/// Plays one game through the API: the person's side picks the first legal move; returns
/// the plies played.
fn api_game(addr: &str, variant: &str) -> usize {
    let id = post(
        addr,
        "/api/session",
        json!({ "variant": variant, "south": "human", "north": "greedy" }),
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    let state_path = format!("/api/state?id={id}");
    let until = Instant::now() + Duration::from_secs(240);
    loop {
        assert!(Instant::now() < until, "a game that does not end");
        let (code, text) = http(addr, "GET", &state_path, None);
        assert_eq!(code, 200, "{text}");
        let state: Value = serde_json::from_str(&text).unwrap();
        assert!(state["error"].is_null(), "{}", state["error"]);
        if !state["over"].is_null() {
            post(addr, "/api/close", json!({ "id": id }));
            return state["moves"].as_str().unwrap().len();
        }
        match state["legal"].as_str().unwrap().chars().next() {
            Some(m) => {
                post(
                    addr,
                    "/api/move",
                    json!({ "id": id, "move": m.to_string() }),
                );
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

#[test]
fn fifty_games_at_once_through_the_api() {
    let server = Server::start(&[]);
    let addr = server.addr.clone();
    // A first game warms the server (threads, allocator) before memory is measured.
    api_game(&addr, "oware");
    let before = server.rss_kib();
    // Two rounds of 50: memory after the second is what it was after the first (flat), and
    // every engine of each round has ended.
    let mut after = [0; 2];
    for round in after.iter_mut() {
        let games: Vec<_> = (0..50)
            .map(|i| {
                let addr = addr.clone();
                let variant = ["oware", "awari", "ahl", "kalah", "ayoayo"][i % 5];
                std::thread::spawn(move || api_game(&addr, variant))
            })
            .collect();
        let mut peak = before;
        let mut plies = 0;
        for g in games {
            plies += g.join().expect("every game finishes");
            peak = peak.max(server.rss_kib());
        }
        wait_until(Duration::from_secs(10), "every engine ended", || {
            server.children().is_empty()
        });
        *round = server.rss_kib();
        eprintln!(
            "50 games ({plies} plies) against greedy: server RSS {before} KiB before, {peak} KiB \
             at the most seen, {round} KiB after"
        );
    }
    assert!(
        after[1] < after[0] + 4 * 1024,
        "memory grew from {} to {} KiB over a second round",
        after[0],
        after[1]
    );
    // Requests the server refuses.
    let (code, _) = http(
        &addr,
        "POST",
        "/api/move",
        Some(&json!({ "id": "nope", "move": "A" })),
    );
    assert_eq!(code, 404);
    let big = json!({ "id": "x".repeat(70 << 10) });
    let (code, _) = http(&addr, "POST", "/api/move", Some(&big));
    assert_eq!(code, 413);
    let (code, body) = http(&addr, "GET", "/../Cargo.toml", None);
    assert_eq!(code, 404, "{body}");
    let (code, _) = http(
        &addr,
        "POST",
        "/api/session",
        Some(&json!({ "variant": "chess", "south": "human", "north": "greedy" })),
    );
    assert_eq!(code, 400);
}

#[test]
fn analysis_hint_review_and_records() {
    let (browser, driver) = match tools() {
        Ok(t) => t,
        Err(reason) => return common::skipped(common::Need::Browser, reason),
    };
    let server = Server::start(&[]);
    let b = Browser::start(&browser, &driver, "analysis");
    b.go(&format!(
        "{}?variant=kalah&south=human&north=greedy",
        server.url()
    ));
    settled(&b);
    no_animation(&b);
    let kalah = Board::start(Variant::Kalah).to_string();

    // Analysis: lines come as the engine searches; each line's variation is legal, and
    // hovering it draws its end, the rules' position after it.
    b.click("#analyse");
    let mut lines = Value::Null;
    wait_until(Duration::from_secs(30), "analysis lines", || {
        lines = b.eval(
            r##"return [...document.querySelectorAll("#lines tbody tr")].map((tr) =>
                 [...tr.children].map((td) => td.textContent));"##,
        );
        lines.as_array().is_some_and(|l| {
            l.first()
                .is_some_and(|r| r[1].as_str().unwrap().parse::<u32>().unwrap() >= 4)
        })
    });
    // Read and hovered in one script, so that no new line comes between.
    let hovered = b.eval(
        r##"const td = document.querySelector("#lines td.pv");
           td.dispatchEvent(new MouseEvent("mouseenter"));
           return { pv: td.textContent, houses: [...Array(12).keys()].map((i) =>
             +document.querySelector(`[data-house="${i}"]`).textContent) };"##,
    );
    let pv = hovered["pv"].as_str().unwrap().to_string();
    let hovered = &hovered["houses"];
    let mut after = Game::new(Board::from_notation(Variant::Kalah, &kalah).unwrap());
    after.play_text(&pv).expect("a legal variation");
    let expected: Vec<u8> = after.board().houses().to_vec();
    assert_eq!(*hovered, json!(expected), "the end of {pv}");
    assert!(b
        .eval(r##"return document.getElementById("evalfill").style.width"##)
        .as_str()
        .unwrap()
        .ends_with('%'));

    // Three lines: the engine offers `MultiPV`, so the page offers a choice; with 3 chosen,
    // three lines of distinct first moves come, each with a depth and a legal variation.
    b.eval(r##"document.querySelector("#lines td.pv").dispatchEvent(new MouseEvent("mouseleave")); return 0;"##);
    wait_until(Duration::from_secs(10), "the choice of lines", || {
        b.eval(r##"return !document.getElementById("lines-choice").hidden"##) == true
    });
    b.eval(
        r##"const s = document.getElementById("lines-n"); s.value = "3";
           s.dispatchEvent(new Event("change")); return 0;"##,
    );
    let mut three = Value::Null;
    wait_until(Duration::from_secs(30), "three analysis lines", || {
        three = b.eval(
            r##"return [...document.querySelectorAll("#lines tbody tr")].map((tr) =>
                 [...tr.children].map((td) => td.textContent));"##,
        );
        three.as_array().is_some_and(|rows| {
            rows.len() == 3
                && rows
                    .iter()
                    .all(|r| r[1].as_str().unwrap().parse::<u32>().unwrap_or(0) >= 2)
        })
    });
    let mut firsts = Vec::new();
    for row in three.as_array().unwrap() {
        let pv = row[3].as_str().unwrap();
        let mut game = Game::new(Board::from_notation(Variant::Kalah, &kalah).unwrap());
        game.play_text(pv).expect("a legal variation");
        firsts.push(pv.chars().next().unwrap());
    }
    firsts.sort_unstable();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "three distinct lines: {three}");
    b.screenshot("three-lines");
    b.click("#analyse");

    // A hint: one of the legal houses, marked on the board.
    b.eval(r##"document.querySelector("#lines td.pv").dispatchEvent(new MouseEvent("mouseleave")); return 0;"##);
    b.click("#hint");
    let mut hint = Value::Null;
    wait_until(Duration::from_secs(20), "a hint", || {
        hint = b.eval(r##"const c = document.querySelector("#board .hint"); return c ? c.getAttribute("data-legal") : null;"##);
        hint.is_string()
    });
    assert!(settled(&b)["legal"]
        .as_str()
        .unwrap()
        .contains(hint.as_str().unwrap()));

    // A whole game, then its review: a score for every position, and each marked move a
    // different move from the engine's best.
    let end = play_out(&b, Variant::Kalah, &kalah, "kalah", usize::MAX);
    let plies = end["moves"].as_str().unwrap().len();
    b.eval(r##"document.getElementById("review-ms").value = "100"; return 0;"##);
    b.click("#review");
    wait_until(Duration::from_secs(120), "the review", || {
        b.eval(r##"return document.body.getAttribute("data-review")"##) == "done"
    });
    let points = b
        .eval(r##"return +document.querySelector("#graph polyline").getAttribute("data-points")"##);
    assert_eq!(points, json!(plies + 1));
    let judged = b.eval(
        r##"return [...document.querySelectorAll("#judged li")].map((li) => li.textContent)"##,
    );
    for line in judged.as_array().unwrap() {
        let line = line.as_str().unwrap();
        let played = line.chars().next().unwrap();
        let better = line.rsplit("better: ").next().unwrap();
        assert_ne!(better, played.to_string(), "{line}");
        // Both measures the mark follows: the winning chance lost, and the seeds.
        let lost = line
            .split(": ")
            .nth(1)
            .and_then(|l| l.split_once(" points of winning chance lost ("))
            .unwrap_or_else(|| panic!("{line}"));
        let points: f64 = lost.0.parse().unwrap_or_else(|_| panic!("{line}"));
        let seeds: f64 = lost
            .1
            .split(" seeds)")
            .next()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        assert!(points >= 5.0 && seeds >= 1.0, "marked for less: {line}");
    }
    b.screenshot("review");

    // The record: the referee's JSON line, and its PGN.
    let id = b.eval(r##"return document.body.getAttribute("data-session")"##);
    let id = id.as_str().unwrap();
    let (code, line) = http(
        &server.addr,
        "GET",
        &format!("/api/record?id={id}&format=json"),
        None,
    );
    assert_eq!(code, 200);
    let record = awari::record::GameRecord::from_json(line.trim().as_bytes()).unwrap();
    assert_eq!(record.moves, end["moves"].as_str().unwrap());
    assert_eq!(record.variant, "kalah");
    assert_ne!(record.result.tag(), "*");
    let (code, pgn) = http(
        &server.addr,
        "GET",
        &format!("/api/record?id={id}&format=pgn"),
        None,
    );
    assert_eq!(code, 200);
    assert!(
        pgn.contains("[Variant \"kalah\"]") || pgn.contains("kalah"),
        "{pgn}"
    );

    // Loaded again into a fresh game, and stepped through: each position is the rules' one.
    b.click("#new");
    wait_until(Duration::from_secs(10), "a fresh game", || {
        b.eval(READ)["moves"] == ""
    });
    b.type_into("#record-in", line.trim());
    b.click("#load");
    wait_until(Duration::from_secs(10), "the record loaded", || {
        b.eval(READ)["moves"] == record.moves.as_str()
    });
    b.click("#ply-first");
    for ply in 0..4usize {
        let want = ply.to_string();
        wait_until(Duration::from_secs(10), "the step", || {
            b.eval(r##"return document.body.getAttribute("data-view")"##) == want.as_str()
        });
        let page = b.eval(READ);
        let mut game = Game::new(Board::from_notation(Variant::Kalah, &record.start).unwrap());
        game.play_text(&record.moves[..ply]).unwrap();
        let houses: Vec<u8> = game.board().houses().to_vec();
        assert_eq!(page["houses"], json!(houses), "ply {ply}");
        b.click("#ply-next");
    }

    // The downloaded PGN loads the same way; a broken one is refused, saying where.
    let broken = pgn.replacen("\n\n", "\n\nF Q9 ", 1);
    b.type_into("#record-in", &broken);
    b.click("#load");
    wait_until(Duration::from_secs(10), "the broken PGN refused", || {
        let notice = b.eval(READ)["notice"].as_str().unwrap_or("").to_string();
        notice.starts_with("Not loaded: the PGN: line ") && notice.contains("\"Q9\"")
    });
    let generation = b.eval(READ)["generation"].clone();
    b.type_into("#record-in", &pgn);
    b.click("#load");
    let mut page = Value::Null;
    let until = Instant::now() + Duration::from_secs(30);
    while page["generation"] == generation || page["moves"] != record.moves.as_str() {
        assert!(Instant::now() < until, "the PGN not loaded: {page}");
        std::thread::sleep(Duration::from_millis(30));
        page = b.eval(READ);
    }
    b.click("#ply-first");
    for ply in 0..=record.moves.len() {
        let want = ply.to_string();
        wait_until(Duration::from_secs(10), "the step", || {
            let at = b.eval(r##"return document.body.getAttribute("data-view")"##);
            at == want.as_str() || (ply == record.moves.len() && at.is_null())
        });
        let page = b.eval(READ);
        let mut game = Game::new(Board::from_notation(Variant::Kalah, &record.start).unwrap());
        game.play_text(&record.moves[..ply]).unwrap();
        // The last ply is the game, drawn at its end with the rows counted in the stores.
        let houses: Vec<u8> = drawn_at_end(&game).0.to_vec();
        assert_eq!(page["houses"], json!(houses), "PGN, ply {ply}");
        b.eval(r##"document.getElementById("ply-next").click(); return 0;"##);
    }
}

#[test]
fn the_page_carries_its_policy_and_an_address_off_loopback_is_warned_of() {
    let server = Server::start(&[]);
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    write!(
        stream,
        "GET / HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.addr
    )
    .unwrap();
    let mut text = String::new();
    stream.read_to_string(&mut text).unwrap();
    let (head, html) = text.split_once("\r\n\r\n").unwrap();
    let policy = head
        .lines()
        .find_map(|l| l.strip_prefix("Content-Security-Policy: "))
        .expect("a Content-Security-Policy");
    assert!(policy.contains("default-src 'none'") && policy.contains("script-src 'self'"));
    // Every script is a file of its own: none inline, and none from elsewhere.
    let scripts = html.matches("<script").count();
    assert!(scripts >= 2, "{html}");
    assert_eq!(html.matches("<script src=\"").count(), scripts, "{html}");
    // Each by a relative path, so the page also works from a static host's sub-path.
    assert!(
        !html.contains("src=\"/") && !html.contains("href=\"/"),
        "{html}"
    );
    assert!(!html.contains("http://") && !html.contains("https://"));
    // Another site's name for this address is refused.
    let (code, _) = {
        let mut s = TcpStream::connect(&server.addr).unwrap();
        write!(
            s,
            "GET / HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut t = String::new();
        s.read_to_string(&mut t).unwrap();
        (t.split_whitespace().nth(1).unwrap_or("").to_string(), t)
    };
    assert_eq!(code, "421");

    let (child, addr, warning) = common::serve_warned(&["--bind", "0.0.0.0"]);
    let server = Server { child, addr };
    assert!(
        warning.starts_with("warning: listening on 0.0.0.0"),
        "{warning}"
    );
    // A wildcard address is no address to type: this machine's own is printed.
    assert!(server.addr.starts_with("127.0.0.1:"), "{}", server.addr);
}

#[test]
fn a_review_marks_a_move_that_throws_a_capture_away() {
    // South's F captures 7 seeds (a, b and c to 2, 2 and 3); D fills F to 4, whose last
    // seed then lands in North's empty d: the capture is gone. D is played on purpose.
    let start = "1-0-0-2-0-3-1-1-2-0-0-2-20-16-S";
    let board = Board::from_notation(Variant::Oware, start).unwrap();
    let mut best = Game::new(board);
    best.play_text("F").unwrap();
    assert_eq!(best.board().stores()[0], 27, "the premise: F captures 7");
    let server = Server::start(&[]);
    let id = post(
        &server.addr,
        "/api/session",
        json!({ "variant": "oware", "south": "human", "north": "human", "fen": start, "moves": "D" }),
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    post(&server.addr, "/api/review", json!({ "id": id, "ms": 200 }));
    let mut state = Value::Null;
    wait_until(Duration::from_secs(30), "the review", || {
        let (code, text) = http(&server.addr, "GET", &format!("/api/state?id={id}"), None);
        assert_eq!(code, 200, "{text}");
        state = serde_json::from_str(&text).unwrap();
        state["review"]["done"] == true
    });
    let judged = &state["review"]["moves"][0];
    assert_eq!(judged["ply"], 1, "{state}");
    assert_eq!(judged["mv"], "D", "{judged}");
    assert_eq!(judged["best"], "F", "{judged}");
    assert!(judged["loss"].as_f64().unwrap() >= 2.0, "{judged}");
    assert!(
        ["mistake", "blunder"].contains(&judged["mark"].as_str().unwrap_or("")),
        "{judged}"
    );
}

#[test]
fn the_analysis_shows_the_endgame_tables_value_within_their_reach() {
    let dir = common::scratch("serve", "tables");
    common::build_tables(&dir, Variant::Oware, 6);
    let server = Server::start(&["--tables", dir.to_str().unwrap()]);
    // Six seeds on the board: within the tables.
    let id = post(
        &server.addr,
        "/api/session",
        json!({ "variant": "oware", "south": "human", "north": "human",
                "fen": "0-1-0-2-0-1-1-0-0-1-0-0-20-20-S" }),
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    post(
        &server.addr,
        "/api/analyse",
        json!({ "id": id, "on": true }),
    );
    let mut state = Value::Null;
    wait_until(Duration::from_secs(30), "the tables' value", || {
        let (code, text) = http(&server.addr, "GET", &format!("/api/state?id={id}"), None);
        assert_eq!(code, 200, "{text}");
        state = serde_json::from_str(&text).unwrap();
        state["tables"].as_array().is_some_and(|t| !t.is_empty())
    });
    let first = state["tables"][0].as_str().unwrap();
    assert!(first.starts_with("value"), "{state}");
    // A move changes the position: what the tables said of the old one is gone.
    let m = state["legal"].as_str().unwrap().chars().next().unwrap();
    let after = post(
        &server.addr,
        "/api/move",
        json!({ "id": id, "move": m.to_string() }),
    );
    assert_eq!(after["tables"], json!([]), "{after}");

    // The page shows it above the lines.
    let (browser, driver) = match tools() {
        Ok(t) => t,
        Err(reason) => return common::skipped(common::Need::Browser, reason),
    };
    let b = Browser::start(&browser, &driver, "tables");
    b.go(&format!(
        "{}?variant=oware&south=human&north=human&fen=0-1-0-2-0-1-1-0-0-1-0-0-20-20-S",
        server.url()
    ));
    settled(&b);
    b.click("#analyse");
    wait_until(Duration::from_secs(30), "the tables on the page", || {
        let shown = b.eval(r##"return document.getElementById("tables").textContent"##);
        shown
            .as_str()
            .is_some_and(|t| t.starts_with("Endgame tables: value"))
    });
    b.screenshot("tables");
}
