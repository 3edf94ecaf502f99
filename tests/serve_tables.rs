//! The endgame tables on the board of `awari serve`, in a real browser (headless Chromium
//! through chromedriver): within the tables' reach each legal move's value is written on its
//! house and the best are marked, and each is what `awari tables probe` prints for the same
//! position, move by move; out of reach, or in a rule set without tables, nothing is. Without
//! `chromium` or `chromedriver` the test says `skipped: <test>: <reason>`.
//!
//! Whatever the test starts (the server, chromedriver, the browser) it stops by pid.

use crate::common;
use crate::common::serve::*;
use awari::rules::{Board, Game, Variant};
use serde_json::{json, Value};
use std::path::Path;
use std::time::Duration;

/// What the page wrote on the houses: each label's move, text and best mark, whether it lies
/// on its own house, whether it is displayed; and whether the toggle is offered.
const LABELS: &str = r#"
const b = document.getElementById("board");
const labels = [...b.querySelectorAll("[data-table-value]")];
const on = (g) => {
  const i = "ABCDEFabcdef".indexOf(g.getAttribute("data-table-value"));
  const c = b.querySelector(`[data-house-cell="${i}"]`).getBBox(), r = g.getBBox();
  const x = r.x + r.width / 2, y = r.y + r.height / 2;
  return x > c.x && x < c.x + c.width && y > c.y && y < c.y + c.height;
};
return {
  values: labels.map((g) => [g.getAttribute("data-table-value"), g.textContent, g.getAttribute("data-best") === "1"]),
  on_houses: labels.every(on),
  displayed: labels.filter((g) => getComputedStyle(g).display !== "none").length,
  toggle: !document.getElementById("tables-choice").hidden,
  fen: document.body.getAttribute("data-view-fen") || document.body.getAttribute("data-fen"),
};"#;

/// `awari tables probe`'s lines for `fen` after `moves`, as the page should show them: each
/// legal move with its value, best where its lower bound is the highest.
fn probed(dir: &Path, variant: Variant, fen: &str, moves: &str) -> Value {
    let out = common::awari(&[
        "tables",
        "probe",
        "--variant",
        variant.name(),
        "--dir",
        dir.to_str().unwrap(),
        "--fen",
        fen,
        "--moves",
        moves,
    ]);
    assert!(out.status.success(), "{}", common::printed(&out));
    let text = common::text(&out.stdout);
    let lines: Vec<(String, String)> = text
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("game over") && !l.starts_with("note"))
        .map(|l| {
            let (mv, value) = l.split_once(' ').unwrap();
            (mv.to_string(), value.to_string())
        })
        .collect();
    let lo = |v: &str| v.split("..").next().unwrap().parse::<u8>().ok();
    let top = lines.iter().filter_map(|(_, v)| lo(v)).max();
    assert!(!lines.is_empty(), "{text}");
    json!(lines
        .iter()
        .map(|(mv, v)| json!([mv, v, lo(v).is_some() && lo(v) == top]))
        .collect::<Vec<_>>())
}

/// Waits until the page shows `fen` with the labels `want`, and returns what it shows.
fn shows(b: &Browser, fen: &str, want: &Value, what: &str) -> Value {
    let mut last = Value::Null;
    wait_until(Duration::from_secs(30), what, || {
        let page = settled(b);
        last = b.eval(LABELS);
        page["moves"].is_string() && last["fen"] == fen && last["values"] == *want
    });
    assert_eq!(last["on_houses"], true, "{what}: {last}");
    last
}

#[test]
fn the_tables_values_are_written_on_the_houses_as_tables_probe_says() {
    let (browser, driver) = match tools() {
        Ok(t) => t,
        Err(reason) => return common::skipped(common::Need::Browser, reason),
    };
    let dir = common::scratch("serve", "board-tables");
    common::build_tables(&dir, Variant::Oware, 8);
    common::build_tables(&dir, Variant::Kalah, 8);
    let server = Server::start(&["--tables", dir.to_str().unwrap()]);
    let b = Browser::start(&browser, &driver, "board-tables");

    // Eight seeds: bounds (B, C, E), exact values (D), one best (E).
    let fen = "0-1-1-1-1-0-1-1-1-0-1-0-20-20-S";
    b.go(&format!(
        "{}?variant=oware&south=human&north=human&fen={fen}",
        server.url()
    ));
    settled(&b);
    no_animation(&b);
    let want = probed(&dir, Variant::Oware, fen, "");
    assert_eq!(
        want,
        json!([
            ["B", "0..2", false],
            ["C", "2..3", false],
            ["D", "0", false],
            ["E", "4..6", true]
        ])
    );
    let shown = shows(&b, fen, &want, "oware's values");
    assert_eq!(shown["toggle"], true, "{shown}");
    assert_eq!(shown["displayed"], 4, "{shown}");
    b.screenshot("tables-on-the-board-oware");

    // A move played: North's values, for the position after it; the board turned, each
    // value still on its house.
    b.click("[data-house-cell=\"4\"]");
    let mut game = Game::new(Board::from_notation(Variant::Oware, fen).unwrap());
    game.play_text("E").unwrap();
    let after = game.board().to_string();
    let want = probed(&dir, Variant::Oware, fen, "E");
    shows(&b, &after, &want, "North's values after E");
    b.click("#flip");
    shows(&b, &after, &want, "North's values, the board flipped");
    b.click("#flip");

    // The position viewed has its values: a past one of the game, and a variation's.
    b.click("#ply-first");
    shows(
        &b,
        fen,
        &probed(&dir, Variant::Oware, fen, ""),
        "ply 0 viewed",
    );
    b.click("[data-house-cell=\"3\"]");
    let mut variation = Game::new(Board::from_notation(Variant::Oware, fen).unwrap());
    variation.play_text("D").unwrap();
    let d = probed(&dir, Variant::Oware, fen, "D");
    shows(
        &b,
        &variation.board().to_string(),
        &d,
        "a variation's values",
    );
    b.click("#ply-first");
    b.click("#ply-last");
    shows(&b, &after, &want, "the game's values again");

    // The toggle hides them and shows them again.
    b.click("#tables-on");
    wait_until(Duration::from_secs(10), "the values hidden", || {
        b.eval(LABELS)["displayed"] == 0
    });
    b.click("#tables-on");
    wait_until(Duration::from_secs(10), "the values shown", || {
        b.eval(LABELS)["displayed"].as_u64() == want.as_array().map(|w| w.len() as u64)
    });

    // Several best moves at once.
    let fen = "0-2-1-0-1-1-1-0-0-1-1-0-20-20-S";
    b.go(&format!(
        "{}?variant=oware&south=human&north=human&fen={fen}",
        server.url()
    ));
    let want = probed(&dir, Variant::Oware, fen, "");
    assert_eq!(
        want.as_array()
            .unwrap()
            .iter()
            .filter(|m| m[2] == true)
            .count(),
        2
    );
    shows(&b, fen, &want, "two best moves");

    // Kalah, set up in the page's set-up box, with North to move.
    for (fen, tag) in [
        ("1-0-1-1-1-0-0-2-0-1-0-1-20-20-S", "kalah"),
        ("0-2-1-0-1-1-1-0-0-1-1-0-20-20-N", "kalah-north"),
    ] {
        b.eval(r#"document.getElementById("variant").value = "kalah"; return 0;"#);
        b.type_into("#fen", fen);
        b.type_into("#moves-in", "");
        b.click("#new");
        let want = probed(&dir, Variant::Kalah, fen, "");
        shows(&b, fen, &want, tag);
        b.screenshot(&format!("tables-on-the-board-{tag}"));
    }

    // Out of the tables' reach (nine seeds), and a rule set without tables: no values, no
    // toggle.
    for (variant, fen) in [
        ("oware", "1-1-1-1-1-1-1-1-1-0-0-0-20-19-S"),
        ("awari", "0-1-1-1-1-0-1-1-1-0-1-0-20-20-S"),
    ] {
        b.go(&format!(
            "{}?variant={variant}&south=human&north=human&fen={fen}",
            server.url()
        ));
        let shown = shows(&b, fen, &json!([]), &format!("{variant}: nothing"));
        assert_eq!(shown["toggle"], false, "{variant}: {shown}");
    }
}
