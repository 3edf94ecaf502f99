//! `awari serve`'s variations: a move from a position viewed that the game did not play
//! becomes a variation beside the game's moves, drawn inline in the moves list, analysed and
//! hinted where it is viewed, kept in the address across a reload, written to PGN in
//! parentheses and read back into the same tree; one can be made the main line or deleted.
//! Against an engine, a move from an earlier ply asks whether to analyse it as a variation or
//! take back. The HTTP API refuses a tree that is not one, or not legal, with why.
//! The browser tests run headless Chromium through WebDriver; without `chromium` or
//! `chromedriver` each says `skipped: <test>: <reason>`.
//!
//! Whatever a test starts (the server, chromedriver, the browser through it) it stops by pid.

use crate::common::serve::*;
use awari::rules::{Board, Game, Move, Variant};
use serde_json::{json, Value};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(30);

/// The page's view: the moves to the position viewed (null: the game's own), and the tree.
const VIEW: &str = r##"return { at: document.body.getAttribute("data-view-at"),
  tree: document.body.getAttribute("data-tree"),
  spans: [...document.querySelectorAll("#moves .variation span.m")].map((s) => s.getAttribute("data-at")) };"##;

/// The game after `moves` from oware's start.
fn oware(moves: &str) -> Game {
    let mut game = Game::new(Board::start(Variant::Oware));
    game.play_text(moves).unwrap();
    game
}

/// Clicks house `letter` on the page's board.
fn click_house(b: &Browser, letter: char) {
    let house = Move::from_char(letter).unwrap().house();
    b.click(&format!("[data-house-cell=\"{house}\"]"));
}

/// A game of `plies` moves from oware's start, each a legal move picked in turn.
fn some_game(plies: usize) -> String {
    let mut game = oware("");
    for k in 0..plies {
        let legal: Vec<Move> = game.legal_moves().into_iter().collect();
        game.play(legal[(k * 5 + 3) % legal.len()]).unwrap();
    }
    game.moves().iter().map(|m| m.to_char()).collect()
}

/// A legal move of the position after `moves` other than `not`.
fn another_move(moves: &str, not: Option<char>) -> char {
    let game = oware(moves);
    game.legal_moves()
        .into_iter()
        .map(|m| m.to_char())
        .find(|&c| Some(c) != not)
        .unwrap()
}

#[test]
fn a_variation_is_analysed_kept_across_a_reload_and_round_trips_through_pgn() {
    let (browser, driver) = browser_or_skip!();
    let server = Server::start(&[]);
    let b = Browser::start(&browser, &driver, "variations");
    let played = some_game(24);
    let (two, three) = (&played[..2], &played[..3]);
    b.go(&format!(
        "{}?variant=oware&south=human&north=human&moves={played}",
        server.url()
    ));
    settled(&b);
    // From ply 2, a move the game did not play there.
    b.click(&format!("#moves [data-at=\"{two}\"]"));
    wait_until(WAIT, "ply 2 viewed", || b.eval(VIEW)["at"] == two);
    let first = another_move(two, played.chars().nth(2));
    click_house(&b, first);
    let at = format!("{two}{first}");
    wait_until(WAIT, "the variation's first move viewed", || {
        b.eval(VIEW)["at"] == at.as_str()
    });
    // Continued: a move from its end.
    let second = another_move(&at, None);
    click_house(&b, second);
    let at = format!("{at}{second}");
    let tree = format!("{three}({first}{second}){}", &played[3..]);
    wait_until(WAIT, "the variation continued", || {
        let v = b.eval(VIEW);
        v["at"] == at.as_str() && v["tree"] == tree.as_str()
    });
    let state = server_state(&server, &b);
    assert_eq!(state["tree"], tree.as_str(), "{state}");
    assert_eq!(state["moves"], played, "the game's own moves are kept");
    // The moves list draws it inline, each move a link to its position.
    assert_eq!(
        b.eval(VIEW)["spans"],
        json!([format!("{two}{first}"), at.clone()])
    );
    // The board is the variation's position, its clickable houses its legal moves.
    let page = b.eval(READ);
    let game = oware(&at);
    let legal: String = game
        .legal_moves()
        .into_iter()
        .map(|m| m.to_char())
        .collect();
    assert_eq!(page["legal"], legal.as_str(), "{page}");
    assert_eq!(page["houses"], json!(game.board().houses()), "{page}");
    // The analysis searches it, and its lines are lines of that position.
    b.click("#analyse");
    wait_until(Duration::from_secs(60), "the variation analysed", || {
        let st = server_state(&server, &b);
        st["analysing"]["at"] == at.as_str()
            && st["analysing"]["ply"].is_null()
            && st["analysing"]["fen"] == game.board().to_string()
    });
    wait_until(WAIT, "the panel naming the variation's position", || {
        b.eval("return document.getElementById('analysing').textContent")
            == format!("Analysing the variation's position after {at} (the one viewed).").as_str()
    });
    wait_until(Duration::from_secs(60), "an analysis line", || {
        b.eval("return document.querySelectorAll('#lines tbody tr').length") != 0
    });
    let pv = b.eval("return document.querySelector('#lines tbody tr td.pv').textContent");
    let mut line = game.clone();
    line.play_text(pv.as_str().unwrap())
        .unwrap_or_else(|e| panic!("{pv} is not a line of the variation's position: {e}"));
    // A hint there is for that position.
    b.click("#hint");
    wait_until(Duration::from_secs(60), "the variation's hint", || {
        b.eval("return document.querySelectorAll('#board .house.hint').length") == 1
    });
    // A review asked for while the analysis runs is done first, and the analysis goes on
    // after it. The picture in doc/serve.md: the game reviewed, the variation analysed.
    b.eval(r#"document.getElementById("review-ms").value = "100"; return 0;"#);
    b.click("#review");
    wait_until(Duration::from_secs(120), "the review", || {
        server_state(&server, &b)["review"]["done"] == true
    });
    wait_until(
        Duration::from_secs(60),
        "the variation analysed again",
        || {
            server_state(&server, &b)["analysing"]["at"] == at.as_str()
                && b.eval("return document.querySelectorAll('#lines tbody tr').length") != 0
        },
    );
    b.screenshot("page-variations");
    b.click("#analyse");
    // A reload restores the tree and the position viewed.
    b.eval("location.reload(); return 0;");
    wait_until(
        Duration::from_secs(60),
        "the page back at the variation",
        || {
            let v = b.eval(VIEW);
            v["at"] == at.as_str()
                && v["tree"] == tree.as_str()
                && v["spans"].as_array().is_some_and(|s| s.len() == 2)
        },
    );
    assert_eq!(server_state(&server, &b)["tree"], tree.as_str());
    // The PGN writes it in parentheses, and reads back into the same tree.
    let id = b.eval("return document.body.getAttribute('data-session')");
    let (code, pgn) = http(
        &server.addr,
        "GET",
        &format!("/api/record?id={}&format=pgn", id.as_str().unwrap()),
        None,
    );
    assert_eq!(code, 200, "{pgn}");
    assert!(
        pgn.contains(&format!("{} {{-/- 0ms}} ({first} {second})", &played[2..3])),
        "{pgn}"
    );
    b.type_into("#record-in", &pgn);
    b.click("#load");
    wait_until(WAIT, "the PGN loaded", || {
        b.eval(READ)["notice"]
            .as_str()
            .is_some_and(|n| n.starts_with("Loaded"))
    });
    assert_eq!(server_state(&server, &b)["tree"], tree.as_str());
    assert_eq!(b.eval(VIEW)["tree"], tree.as_str());
    // Made the main line: the game's moves are the variation's, the old ones a variation.
    b.click(&format!("#moves [data-at=\"{at}\"]"));
    wait_until(WAIT, "the variation viewed", || {
        b.eval(VIEW)["at"] == at.as_str()
    });
    b.click("#promote");
    let promoted = format!("{two}{first}({}){second}", &played[2..]);
    wait_until(WAIT, "the variation promoted", || {
        server_state(&server, &b)["tree"] == promoted.as_str()
    });
    assert_eq!(server_state(&server, &b)["moves"], at.as_str());
    // Deleted from a move on: that move and what follows it are gone.
    b.click(&format!("#moves [data-at=\"{three}\"]"));
    wait_until(WAIT, "the old line viewed", || b.eval(VIEW)["at"] == three);
    b.click("#delete-from-here");
    wait_until(WAIT, "the old line deleted", || {
        server_state(&server, &b)["tree"] == at.as_str()
    });
    wait_until(WAIT, "ply 2 viewed after the delete", || {
        b.eval(VIEW)["at"] == two
    });
}

#[test]
fn against_an_engine_a_move_from_an_earlier_ply_asks_to_branch_or_take_back() {
    let (browser, driver) = browser_or_skip!();
    let server = Server::start(&[]);
    let b = Browser::start(&browser, &driver, "variations-engine");
    b.go(&format!(
        "{}?variant=oware&south=human&north=greedy",
        server.url()
    ));
    settled(&b);
    no_animation(&b);
    for n in 0..2 {
        let page = settled(&b);
        let before = page["moves"].as_str().unwrap().to_string();
        let letter = page["legal"].as_str().unwrap().chars().next().unwrap();
        click_house(&b, letter);
        wait_until(WAIT, "the engine's reply", || {
            b.eval(READ)["moves"]
                .as_str()
                .is_some_and(|m| m.len() == before.len() + 2)
        });
        assert_eq!(n, before.len() / 2);
    }
    let played = server_state(&server, &b)["moves"]
        .as_str()
        .unwrap()
        .to_string();
    // From the start, another move: the page asks.
    b.click("#ply-first");
    wait_until(WAIT, "the start viewed", || b.eval(VIEW)["at"] == "");
    let other = another_move("", played.chars().next());
    click_house(&b, other);
    wait_until(WAIT, "the question", || {
        b.eval("return !!document.getElementById('branch-takeback') && !!document.getElementById('branch-analysis')") == true
    });
    // Taken back: the game goes on from the move, the old moves kept as a variation.
    b.click("#branch-takeback");
    wait_until(WAIT, "the game played on from the move", || {
        let st = server_state(&server, &b);
        st["moves"]
            .as_str()
            .is_some_and(|m| m.len() == 2 && m.starts_with(other))
    });
    let st = server_state(&server, &b);
    let tree = st["tree"].as_str().unwrap();
    assert!(
        tree.starts_with(&format!("{other}({played})")),
        "{tree}: the old moves kept"
    );
    assert_eq!(st["human"], json!([true, false]), "the engine still plays");
    // From the start again, analysed as a variation: the engine leaves, the game stays.
    let game_moves = st["moves"].as_str().unwrap().to_string();
    settled(&b);
    b.click("#ply-first");
    wait_until(WAIT, "the start viewed again", || b.eval(VIEW)["at"] == "");
    let third = oware("")
        .legal_moves()
        .into_iter()
        .map(|m| m.to_char())
        .find(|&c| c != other && !played.starts_with(c))
        .unwrap();
    click_house(&b, third);
    wait_until(WAIT, "the question again", || {
        b.eval("return !!document.getElementById('branch-analysis')") == true
    });
    b.click("#branch-analysis");
    wait_until(WAIT, "the variation viewed", || {
        b.eval(VIEW)["at"] == third.to_string().as_str()
    });
    let st = server_state(&server, &b);
    assert_eq!(st["human"], json!([true, true]), "{st}");
    assert_eq!(st["moves"], game_moves.as_str());
    assert!(
        st["tree"].as_str().unwrap().contains(&format!("({third})")),
        "{st}"
    );
}

#[test]
fn the_api_refuses_a_tree_that_is_not_one_or_not_legal() {
    let server = Server::start(&[]);
    let id = post(
        &server.addr,
        "/api/session",
        json!({ "variant": "oware", "south": "human", "north": "greedy", "moves": "FfEa" }),
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    // (the request, its status, what the error says)
    let cases: [(Value, u16, &str); 6] = [
        (
            json!({ "tree": "Ff(x)Ea" }),
            400,
            "tree: 'x' at character 4",
        ),
        (json!({ "tree": "Ff(eF)Ea" }), 409, "tree: after Fe: "),
        (json!({ "tree": "Ff(eE" }), 400, "never closed"),
        (json!({}), 400, "tree: "),
        (
            json!({ "tree": "FfEaD" }),
            409,
            "an engine plays in this game",
        ),
        (json!({ "at": "FF" }), 400, "at: after \"F\""),
    ];
    for (body, status, says) in cases {
        let mut body = body;
        body["id"] = json!(id);
        let path = if body.get("at").is_some() {
            "/api/analyse"
        } else {
            "/api/tree"
        };
        let (code, text) = http(&server.addr, "POST", path, Some(&body));
        assert_eq!(code, status, "{body}: {text}");
        let answer: Value = serde_json::from_str(&text).unwrap();
        let error = answer["error"].as_str().unwrap_or_default();
        assert!(error.contains(says), "{body}: {text}");
    }
    let (code, text) = http(
        &server.addr,
        "GET",
        &format!("/api/position?id={id}&at=FfQ"),
        None,
    );
    assert_eq!(code, 400, "{text}");
    // A move "from the game's own position" is still a person's only: between engines (the
    // first held back a minute by the pace), refused.
    let engines = post(
        &server.addr,
        "/api/session",
        json!({ "variant": "oware", "south": "greedy", "north": "greedy", "delay_ms": 60000 }),
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    let body = json!({ "id": engines, "move": "F", "at": "" });
    let (code, text) = http(&server.addr, "POST", "/api/move", Some(&body));
    assert_eq!(code, 409, "{text}");
    assert!(text.contains("not your move"), "{text}");
    let (_, state) = http(
        &server.addr,
        "GET",
        &format!("/api/state?id={engines}"),
        None,
    );
    assert_eq!(serde_json::from_str::<Value>(&state).unwrap()["moves"], "");
    // Nothing refused changed the game.
    let (_, state) = http(&server.addr, "GET", &format!("/api/state?id={id}"), None);
    let state: Value = serde_json::from_str(&state).unwrap();
    assert_eq!(state["tree"], "FfEa");
    assert_eq!(state["human"], json!([true, false]));
}
