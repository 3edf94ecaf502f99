//! `awari serve`'s page state in a real browser (headless Chromium through WebDriver): the end
//! of a game drawn with the final count, a new game that clears the engine panel, a reload
//! and a server restart that keep the game, two engines watched at a pace (pause, step), and
//! analysis that follows the position viewed. Screenshots go to `target/serve-artifacts/`.
//! Without `chromium` or `chromedriver` each test says `skipped: <test>: <reason>`. The
//! analysis status the page reads, and the refusals of the pace and the viewed ply, are
//! checked through the HTTP API alone.
//!
//! Whatever a test starts (the server, chromedriver, the browser through it) it stops by pid.

use crate::common::serve::*;
use awari::rules::{format_move_list, Board, Game, Move, Variant};
use serde_json::Value;
use std::time::Duration;

/// The legal moves of `game`, A to f.
fn legal(game: &Game) -> Vec<Move> {
    (0..12)
        .filter_map(Move::new)
        .filter(|&m| game.legal_moves().contains(m))
        .collect()
}

/// A game of `variant` played to its end by a fixed choice of moves, one whose end gathers
/// rows into the stores where the rule set counts them (the first such of a few tries).
fn a_finished_game(variant: Variant) -> Game {
    let mut any = None;
    for k in 0..30usize {
        let mut game = Game::new(Board::start(variant));
        let mut i = 0usize;
        while game.outcome().is_none() {
            let moves = legal(&game);
            game.play(moves[(k * 7 + i * (k + 3)) % moves.len()])
                .unwrap();
            i += 1;
        }
        if drawn_at_end(&game).1 != game.board().stores() {
            return game;
        }
        any.get_or_insert(game);
    }
    any.unwrap()
}

/// The numbers the banner's "Final stores: South S, North N." names.
fn banner_stores(banner: &str) -> [u64; 2] {
    let tail = banner.split("Final stores:").nth(1).expect(banner);
    let n: Vec<u64> = tail
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .collect();
    [n[0], n[1]]
}

#[test]
fn the_end_of_a_game_shows_the_final_count_on_the_board_in_every_rule_set() {
    let (browser, driver) = browser_or_skip!();
    let server = Server::start(&[]);
    let b = Browser::start(&browser, &driver, "page-end");
    for variant in Variant::ALL {
        // Set up one move before the end, a person on both sides; the last move is sown
        // and the rows gathered seed by seed (the animation is on).
        let game = a_finished_game(variant);
        let n = game.moves().len();
        let start = Board::start(variant).to_string();
        b.go(&format!(
            "{}?variant={variant}&south=human&north=human&fen={start}&moves={}",
            server.url(),
            format_move_list(&game.moves()[..n - 1])
        ));
        let before = settled(&b);
        assert_eq!(before["moves"].as_str().unwrap().len(), n - 1, "{variant}");
        let house = game.moves()[n - 1].house();
        b.click(&format!("[data-house-cell=\"{house}\"]"));
        wait_until(Duration::from_secs(60), "the end", || {
            b.eval(READ)["over"].as_str().is_some_and(|o| !o.is_empty())
        });
        let page = settled(&b);
        let what = format!("{variant}: {}", game.board());
        check_board(&page, &game, &what);
        let shown = [
            page["stores"][0].as_u64().unwrap(),
            page["stores"][1].as_u64().unwrap(),
        ];
        let outcome = game.outcome().unwrap();
        assert_eq!(
            banner_stores(page["banner"].as_str().unwrap()),
            shown,
            "{what}: the banner and the board"
        );
        assert_eq!(
            shown,
            [u64::from(outcome.stores[0]), u64::from(outcome.stores[1])],
            "{what}"
        );
        eprintln!(
            "{variant}: {} ({}), the board's stores {shown:?}, rows {:?}",
            outcome,
            outcome.reason.name(),
            page["houses"]
        );
        b.screenshot(&format!("page-end-{variant}"));
    }
}

#[test]
fn a_new_game_clears_the_engine_panel() {
    let (browser, driver) = browser_or_skip!();
    let server = Server::start(&[]);
    let b = Browser::start(&browser, &driver, "page-clear");
    b.go(&format!(
        "{}?variant=oware&south=human&north=depth2",
        server.url()
    ));
    settled(&b);
    no_animation(&b);
    let start = Board::start(Variant::Oware).to_string();
    play_out(&b, Variant::Oware, &start, "oware", 4);
    // The engine's line, the analysis and its lines selector, a hint.
    wait_until(Duration::from_secs(30), "the engine's line", || {
        b.eval("return document.getElementById('thinking').textContent")
            .as_str()
            .is_some_and(|t| t.starts_with("North: depth"))
    });
    b.click("#analyse");
    wait_until(Duration::from_secs(60), "the lines selector", || {
        b.eval("return !document.getElementById('lines-choice').hidden") == true
    });
    b.click("#analyse");
    wait_until(Duration::from_secs(30), "the analysis off", || {
        b.eval("return document.getElementById('lines-choice').hidden") == true
    });
    b.click("#hint");
    wait_until(Duration::from_secs(60), "a hint", || {
        b.eval(READ)["notice"]
            .as_str()
            .is_some_and(|t| t.starts_with("Hint: "))
    });
    b.screenshot("page-clear-before");
    b.click("#new");
    wait_until(Duration::from_secs(30), "the new game", || {
        b.eval(READ)["moves"] == ""
    });
    settled(&b);
    let panel = b.eval(
        r##"return {
          thinking: document.getElementById("thinking").textContent,
          notice: document.getElementById("notice").textContent,
          lines: document.querySelectorAll("#lines tbody tr").length,
          evaltext: document.getElementById("evaltext").textContent,
          choice: !document.getElementById("lines-choice").hidden,
          hint: document.querySelectorAll("#board .hint").length,
        };"##,
    );
    // Nothing of the last game's engines stays; the notice offers the game (it held moves) back.
    assert_eq!(
        panel,
        serde_json::json!({"thinking": "", "notice": "Bring back the game before", "lines": 0, "evaltext": "", "choice": false, "hint": 0}),
        "the panel after New game"
    );
    b.screenshot("page-clear-after");
}

#[test]
fn a_reload_keeps_the_game_and_a_server_restart_is_told() {
    let (browser, driver) = browser_or_skip!();
    let server = Server::start(&[]);
    let b = Browser::start(&browser, &driver, "page-reload");
    b.go(&format!(
        "{}?variant=kalah&south=human&north=greedy",
        server.url()
    ));
    settled(&b);
    no_animation(&b);
    let start = Board::start(Variant::Kalah).to_string();
    let page = play_out(&b, Variant::Kalah, &start, "kalah", 4);
    let moves = page["moves"].as_str().unwrap().to_string();
    let seats = "return [document.getElementById('south').value, document.getElementById('north').value, document.getElementById('variant').value]";
    let session = b.eval("return document.body.getAttribute('data-session')");

    b.eval("location.reload(); return 0;");
    wait_until(Duration::from_secs(60), "the reloaded page", || {
        b.eval("return document.body.getAttribute('data-reattached')") == "1"
    });
    let page = settled(&b);
    assert_eq!(page["moves"], moves.as_str(), "the moves after a reload");
    assert_eq!(
        b.eval(seats),
        serde_json::json!(["human", "greedy", "kalah"])
    );
    assert_eq!(
        b.eval("return document.body.getAttribute('data-session')"),
        session,
        "the same session"
    );
    check_board(&page, &game_of(Variant::Kalah, &start, &page), "reloaded");
    b.screenshot("page-reloaded");

    // The server restarts on the same port: the page says so and plays on.
    let port = server.addr.rsplit(':').next().unwrap().to_string();
    drop(server);
    let server = Server::start(&["--port", &port]);
    wait_until(Duration::from_secs(60), "the notice of the restart", || {
        b.eval(READ)["notice"]
            .as_str()
            .is_some_and(|t| t.contains("server restarted"))
    });
    let page = settled(&b);
    assert_eq!(page["moves"], moves.as_str(), "the moves after a restart");
    assert_eq!(
        b.eval(seats),
        serde_json::json!(["human", "greedy", "kalah"])
    );
    assert_ne!(
        b.eval("return document.body.getAttribute('data-session')"),
        session
    );
    let state = server_state(&server, &b);
    assert_eq!(state["moves"], moves.as_str(), "the new session's game");
    assert_eq!(state["seats"], serde_json::json!(["human", "greedy"]));
    check_board(&page, &game_of(Variant::Kalah, &start, &page), "restarted");
    b.screenshot("page-restarted");
    // It plays on.
    play_out(&b, Variant::Kalah, &start, "kalah", moves.len() + 2);
}

#[test]
fn two_engines_are_watched_at_a_pace_with_pause_and_step() {
    let (browser, driver) = browser_or_skip!();
    let server = Server::start(&[]);
    let b = Browser::start(&browser, &driver, "page-pace");
    // Every position the page draws is recorded as it is drawn.
    b.go(&format!(
        "{}?variant=oware&south=greedy&north=greedy",
        server.url()
    ));
    b.eval(
        r#"window.seen = [];
        new MutationObserver(() => {
          const m = document.body.getAttribute("data-moves");
          if (m !== null && window.seen[window.seen.length - 1] !== m) window.seen.push(m);
        }).observe(document.body, { attributes: true, attributeFilter: ["data-moves"] });
        return 0;"#,
    );
    wait_until(Duration::from_secs(120), "six moves shown", || {
        b.eval("return window.seen.length").as_u64().unwrap() >= 7
    });
    let seen: Vec<String> = serde_json::from_value(b.eval("return window.seen")).unwrap();
    for pair in seen.windows(2) {
        assert!(
            pair[1].len() == pair[0].len() + 1 && pair[1].starts_with(&pair[0]),
            "positions one by one: {seen:?}"
        );
    }
    assert!(
        b.eval(READ)["over"] == "",
        "the game goes at its pace: {seen:?}"
    );
    b.click("#pause");
    let held = || {
        wait_until(Duration::from_secs(60), "the engines held", || {
            b.eval("return document.body.getAttribute('data-held')") == "1"
                && b.eval(READ)["busy"] == "0"
        });
        b.eval(READ)["moves"].as_str().unwrap().len()
    };
    let at = held();
    assert_eq!(
        server_state(&server, &b)["moves"].as_str().unwrap().len(),
        at
    );
    b.click("#step");
    wait_until(Duration::from_secs(60), "a step", || {
        b.eval(READ)["moves"].as_str().unwrap().len() > at
    });
    assert_eq!(held(), at + 1, "one step, one move");
    b.click("#step");
    wait_until(Duration::from_secs(60), "a second step", || {
        b.eval(READ)["moves"].as_str().unwrap().len() > at + 1
    });
    assert_eq!(held(), at + 2, "one step, one move");
    // Paused, the position can be analysed; a step still moves (the analysis makes way), and
    // the analysis goes on in the new position.
    b.click("#analyse");
    for now in [at + 2, at + 3] {
        wait_until(
            Duration::from_secs(60),
            "the paused position analysed",
            || {
                let st = server_state(&server, &b);
                let mut game = Game::new(Board::start(Variant::Oware));
                game.play_text(st["moves"].as_str().unwrap()).unwrap();
                st["moves"].as_str().unwrap().len() == now
                    && st["analysing"]["fen"] == game.board().to_string()
                    && b.eval("return document.querySelectorAll('#lines td.pv').length")
                        .as_u64()
                        .unwrap()
                        > 0
            },
        );
        b.screenshot(&format!("page-paused-{now}"));
        b.click("#step");
        wait_until(Duration::from_secs(60), "a step while analysing", || {
            b.eval(READ)["moves"].as_str().unwrap().len() > now
        });
        assert_eq!(held(), now + 1, "one step, one move");
    }
    b.click("#analyse");
    b.click("#pause");
    wait_until(Duration::from_secs(120), "the game to go on", || {
        b.eval(READ)["moves"].as_str().unwrap().len() > at + 5
    });
}

#[test]
fn pause_stops_the_board_at_once_however_far_behind_it_was() {
    let (browser, driver) = browser_or_skip!();
    let server = Server::start(&[]);
    let b = Browser::start(&browser, &driver, "page-pause");
    b.go(&format!(
        "{}?variant=oware&south=greedy&north=greedy",
        server.url()
    ));
    // The pace is set once the page has its session: a change made while the page is still
    // creating it would be lost, and at 1 s a move the board keeps up with the game.
    wait_until(Duration::from_secs(60), "the page's session", || {
        b.eval("return document.body.getAttribute('data-session')")
            .is_string()
    });
    // Each drawing of the board logged with the pause it was drawn under.
    b.eval(
        r#"window.log = [];
        new MutationObserver(() => {
          const b = document.body;
          window.log.push([b.getAttribute("data-paused"), b.getAttribute("data-moves")]);
        }).observe(document.body, { attributes: true, attributeFilter: ["data-moves", "data-paused"] });
        document.addEventListener("click", (e) => {
          if (e.target.id === "pause") window.log.push(["click", document.body.getAttribute("data-moves")]);
        }, true);
        const pace = document.getElementById("pace");
        pace.value = "250";
        pace.dispatchEvent(new Event("change"));
        return 0;"#,
    );
    wait_until(Duration::from_secs(60), "the pace of 0.25 s a move", || {
        server_state(&server, &b)["pace"]["delay_ms"] == 250
    });
    // At 0.25 s a move, sowing each move seed by seed falls behind the game.
    let shown = || b.eval(READ)["moves"].as_str().unwrap_or("").len();
    wait_until(
        Duration::from_secs(120),
        "the board five moves behind",
        || {
            let game = server_state(&server, &b)["moves"].as_str().unwrap().len();
            game >= shown() + 5
        },
    );
    b.click("#pause");
    wait_until(
        Duration::from_secs(60),
        "the board at the game, held",
        || {
            let st = server_state(&server, &b);
            st["pace"]["paused"] == true
                && b.eval("return document.body.getAttribute('data-held')") == "1"
                && b.eval(READ)["moves"] == st["moves"]
        },
    );
    // Drawn once the click came (the board sows on until then): the game's position at once
    // (and a move that was being thought when the pause came), not the moves that were behind.
    let log: Vec<(Option<String>, Option<String>)> =
        serde_json::from_value(b.eval("return window.log")).unwrap();
    let click = log.iter().position(|(p, _)| p.as_deref() == Some("click"));
    let since = &log[click.expect("the click logged")..];
    let mut after: Vec<&str> = since[1..]
        .iter()
        .filter_map(|(_, m)| m.as_deref())
        .collect();
    after.dedup();
    assert!(
        after.len() <= 2,
        "positions drawn after the pause: {after:?} (logged from the click: {since:?})"
    );
}

#[test]
fn analysis_follows_the_position_viewed() {
    let (browser, driver) = browser_or_skip!();
    let server = Server::start(&[]);
    let b = Browser::start(&browser, &driver, "page-follow");
    let mut game = Game::new(Board::start(Variant::Kalah));
    // C sows into the store: South moves again.
    game.play_text("CF").unwrap();
    for i in 0..4 {
        let moves = legal(&game);
        game.play(moves[(i * 3 + 1) % moves.len()]).unwrap();
    }
    let text = format_move_list(game.moves());
    b.go(&format!(
        "{}?variant=kalah&south=human&north=human&moves={text}",
        server.url()
    ));
    settled(&b);
    b.click("#analyse");
    // Back two moves, then the lines must be those of that position.
    for viewed in [text.len() - 2, 1, 0] {
        let view = || b.eval("return document.body.getAttribute('data-view')");
        while view().as_str().and_then(|v| v.parse::<usize>().ok()) != Some(viewed) {
            let was = view();
            b.click("#ply-prev");
            wait_until(Duration::from_secs(30), "the step back", || view() != was);
        }
        let position = &game.positions()[viewed];
        wait_until(
            Duration::from_secs(60),
            "the analysis of the viewed ply",
            || {
                let st = server_state(&server, &b);
                st["analysing"]["ply"] == viewed && st["analysing"]["fen"] == position.to_string()
            },
        );
        let mut past = Game::new(*game.start());
        for &m in &game.moves()[..viewed] {
            past.play(m).unwrap();
        }
        wait_until(Duration::from_secs(60), "its lines", || {
            b.eval("return document.querySelectorAll('#lines td.pv').length")
                .as_u64()
                .unwrap()
                > 0
        });
        let lines = b.eval(
            r##"return [...document.querySelectorAll("#lines td.pv")].map((td) =>
                 [...td.querySelectorAll("span")].map((s) => [s.textContent, s.classList.contains("again")]));"##,
        );
        for line in lines.as_array().unwrap() {
            let moves: Vec<(String, bool)> = serde_json::from_value(line.clone()).unwrap();
            let pv: String = moves.iter().map(|m| m.0.as_str()).collect();
            let mut end = past.clone();
            end.play_text(&pv).unwrap_or_else(|e| {
                panic!(
                    "{pv} at ply {viewed} ({}): {e}; the server: {}",
                    past.board(),
                    server_state(&server, &b)["analysing"]
                )
            });
            // A move after which the same side moves again is marked.
            let mut replay = past.clone();
            for (m, again) in &moves {
                let side = replay.board().side_to_move();
                replay.play_text(m).unwrap();
                let more = replay.board().side_to_move() == side && replay.outcome().is_none();
                let last = std::ptr::eq(m, &moves.last().unwrap().0);
                assert_eq!(*again, more && !last, "{pv}: the mark after {m}");
            }
        }
        b.screenshot(&format!("page-follow-{viewed}"));
    }
    // Back to the game: the analysis follows it again.
    b.click("#ply-last");
    wait_until(Duration::from_secs(60), "the analysis of the game", || {
        let st = server_state(&server, &b);
        st["analysing"]["ply"].is_null() && st["analysing"]["fen"] == game.board().to_string()
    });
    wait_until(Duration::from_secs(60), "the game's lines", || {
        b.eval("return document.querySelectorAll('#lines td.pv').length")
            .as_u64()
            .unwrap()
            > 0
    });
    // The page's picture in doc/serve.md: a kalah game in progress, analysed.
    b.screenshot("page-analysis");
}

#[test]
fn the_pace_and_the_viewed_ply_refuse_what_is_wrong_and_a_page_gone_is_ended_later() {
    let server = Server::start(&[]);
    let addr = server.addr.as_str();
    let new = |body: Value| http(addr, "POST", "/api/session", Some(&body));
    let (code, text) = new(serde_json::json!({
        "variant": "oware", "south": "human", "north": "human", "delay_ms": 60_001
    }));
    assert_eq!(code, 400, "{text}");
    assert!(text.contains("delay_ms: 0 to 60000 ms a move"), "{text}");
    let id = post(
        addr,
        "/api/session",
        serde_json::json!({ "variant": "oware", "south": "human", "north": "greedy", "moves": "Ff" }),
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    // (path, body, status, what the error says)
    let cases = [
        (
            "/api/pace",
            serde_json::json!({ "id": id, "delay_ms": 70_000 }),
            409,
            "delay_ms: 0 to 60000",
        ),
        (
            "/api/pace",
            serde_json::json!({ "id": id, "delay_ms": -1 }),
            400,
            "the request",
        ),
        (
            "/api/pace",
            serde_json::json!({ "id": id, "step": true }),
            409,
            "step: pause first",
        ),
        (
            "/api/pace",
            serde_json::json!({ "id": id, "paused": "yes" }),
            400,
            "the request",
        ),
        (
            "/api/analyse",
            serde_json::json!({ "id": id, "on": true, "ply": 3 }),
            409,
            "ply: a whole number",
        ),
        (
            "/api/analyse",
            serde_json::json!({ "id": id, "on": true, "ply": "1" }),
            400,
            "the request",
        ),
        (
            "/api/pace",
            serde_json::json!({ "id": "nobody", "paused": true }),
            404,
            "no such session",
        ),
    ];
    for (path, body, status, says) in cases {
        let (code, text) = http(addr, "POST", path, Some(&body));
        assert_eq!(code, status, "{path} {body}: {text}");
        assert!(text.contains(says), "{path} {body}: {text}");
    }
    // What is right is taken, and the state says so.
    let state = post(
        addr,
        "/api/pace",
        serde_json::json!({ "id": id, "delay_ms": 500, "paused": true }),
    );
    assert_eq!(state["pace"]["delay_ms"], 500);
    assert_eq!(state["pace"]["paused"], true);
    let state = post(
        addr,
        "/api/analyse",
        serde_json::json!({ "id": id, "on": false, "ply": 1 }),
    );
    assert_eq!(state["analyse_ply"], 1);

    // A page that goes (`pagehide`) leaves its session for a while, for a reload; nobody
    // comes back, so it is ended with its engine.
    post(
        addr,
        "/api/move",
        serde_json::json!({ "id": id, "move": "A" }),
    );
    wait_until(Duration::from_secs(60), "greedy's engine", || {
        !server.children().is_empty()
    });
    post(
        addr,
        "/api/close",
        serde_json::json!({ "id": id, "later": true }),
    );
    let (code, _) = http(addr, "GET", &format!("/api/state?id={id}"), None);
    assert_eq!(code, 200, "kept for a reload");
    wait_until(Duration::from_secs(120), "the session ended", || {
        http(addr, "GET", &format!("/api/state?id={id}"), None).0 == 404
    });
    wait_until(Duration::from_secs(60), "its engine ended", || {
        server.children().is_empty()
    });
}

/// What the server says the analysis searches once a row's requests are answered.
enum Searched {
    /// Nothing: the search before has stopped, and none has started.
    Nothing,
    /// The position after this ply (`None`: the game's, after the row's move), once its
    /// search has started.
    Ply(Option<usize>),
}

#[test]
fn the_analysis_status_follows_the_position_really_searched() {
    use serde_json::json;
    let server = Server::start(&[]);
    let addr = server.addr.as_str();
    let finished = a_finished_game(Variant::Kalah);
    let mut going = Game::new(Board::start(Variant::Kalah));
    going.play_text("CFb").unwrap();
    let next = legal(&going)[0];
    let len = finished.moves().len();
    // (what, the game, the ply analysed first, then these requests (path, body), searched)
    let rows = vec![
        (
            "the game's last position viewed, which is over",
            &finished,
            Some(0),
            vec![("/api/analyse", json!({ "on": true, "ply": len }))],
            Searched::Nothing,
        ),
        (
            "unticked",
            &finished,
            Some(0),
            vec![("/api/analyse", json!({ "on": false, "ply": 0 }))],
            Searched::Nothing,
        ),
        (
            "another ply viewed",
            &finished,
            Some(0),
            vec![("/api/analyse", json!({ "on": true, "ply": 1 }))],
            Searched::Ply(Some(1)),
        ),
        (
            "unticked and ticked again",
            &finished,
            Some(0),
            vec![
                ("/api/analyse", json!({ "on": false, "ply": 0 })),
                ("/api/analyse", json!({ "on": true, "ply": 0 })),
            ],
            Searched::Ply(Some(0)),
        ),
        (
            "the game moved on",
            &going,
            None,
            vec![("/api/move", json!({ "move": next.to_char().to_string() }))],
            Searched::Ply(None),
        ),
    ];
    for (what, game, first, then, searched) in rows {
        let id = post(
            addr,
            "/api/session",
            json!({ "variant": "kalah", "south": "human", "north": "human",
                    "moves": format_move_list(game.moves()) }),
        )["id"]
            .as_str()
            .unwrap()
            .to_string();
        let state = || {
            let (code, text) = http(addr, "GET", &format!("/api/state?id={id}"), None);
            assert_eq!(code, 200, "{what}: {text}");
            serde_json::from_str::<Value>(&text).unwrap()
        };
        let fen = |game: &Game, ply: Option<usize>| {
            ply.map_or(game.board(), |p| &game.positions()[p])
                .to_string()
        };
        post(
            addr,
            "/api/analyse",
            json!({ "id": id, "on": true, "ply": first }),
        );
        // A past position of the game is said by its ply and the moves that lead to it.
        let at =
            |game: &Game, ply: Option<usize>| ply.map(|p| format_move_list(&game.moves()[..p]));
        let before = json!({ "ply": first, "at": at(game, first), "fen": fen(game, first) });
        wait_until(Duration::from_secs(60), "the first search", || {
            state()["analysing"] == before
        });
        for (path, mut body) in then {
            body["id"] = json!(id);
            post(addr, path, body);
        }
        match searched {
            Searched::Nothing => {
                wait_until(Duration::from_secs(60), what, || {
                    state()["analysing"].is_null()
                });
            }
            Searched::Ply(ply) => {
                let mut after = game.clone();
                if ply.is_none() {
                    after.play(next).unwrap();
                }
                let want = json!({ "ply": ply, "at": at(&after, ply), "fen": fen(&after, ply) });
                wait_until(Duration::from_secs(60), what, || {
                    state()["analysing"] == want
                });
            }
        }
        post(addr, "/api/close", json!({ "id": id }));
    }
}
