//! The review on `awari serve`'s page and the records it downloads: engine moves keep what the
//! engine said (score, depth, time) in the referee's comment format; a referee record loaded
//! with an opening keeps it, and its review judges none of the opening's moves; the page marks
//! moves in the move list, draws the better move's arrow, shows each side's accuracy and a
//! graph in seeds that steps to the ply clicked. The records come from the real referee, the
//! review from the real engine; the page runs in headless Chromium (a screenshot goes to
//! `target/serve-artifacts/review-marks.png`). Within the endgame tables' reach the review
//! judges a move by the proven results before and after it, not by their margins.

use crate::common;
use serde_json::{json, Value};
use std::time::Duration;

use crate::common::serve::*;

/// The suite's opening for the referee's games: 13 plies from the start, among them moves a
/// review marks (they give seeds away), which are the suite's and so not judged.
const OPENING: &str = "FfAeAbAcCdAcB";

/// A referee game of greedy (South) against this program at depth 3, from [`OPENING`]: its
/// JSON line and its PGN.
fn referee_record(tag: &str) -> (String, String) {
    let dir = common::scratch("serve-review", tag);
    let suite = dir.join("suite.txt");
    std::fs::write(&suite, format!("{OPENING}\n")).unwrap();
    let (jsonl, pgn) = (dir.join("games.jsonl"), dir.join("games.pgn"));
    let out = common::referee()
        .args(["--engine", &format!("cmd={}", common::AWARI), "name=greedy"])
        .args(["option.Opponent=greedy"])
        .args(["--engine", &format!("cmd={}", common::AWARI), "name=awari"])
        .args(["depth=3", "--depth", "1", "--games", "2", "--openings"])
        .arg(&suite)
        .arg("--jsonout")
        .arg(&jsonl)
        .arg("--pgnout")
        .arg(&pgn)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::printed(&out));
    let line = std::fs::read_to_string(&jsonl).unwrap();
    let line = line.lines().next().unwrap().to_string();
    let pgn = std::fs::read_to_string(&pgn).unwrap();
    let first = pgn.split("\n[Event").next().unwrap().to_string();
    (line, first)
}

fn state(addr: &str, id: &str) -> Value {
    let (code, text) = http(addr, "GET", &format!("/api/state?id={id}"), None);
    assert_eq!(code, 200, "{text}");
    serde_json::from_str(&text).unwrap()
}

fn download(addr: &str, id: &str, format: &str) -> String {
    let (code, text) = http(
        addr,
        "GET",
        &format!("/api/record?id={id}&format={format}"),
        None,
    );
    assert_eq!(code, 200, "{text}");
    text
}

/// The comments of a PGN's moves, in order (the `{opening}` one left out).
fn comments(pgn: &str) -> Vec<String> {
    let body = pgn.split("\n\n").nth(1).unwrap_or("");
    body.split('{')
        .skip(1)
        .filter_map(|c| c.split_once('}').map(|(c, _)| c.to_string()))
        .filter(|c| c != "opening")
        .collect()
}

/// `cp:N/D Tms` or `mate:N/D Tms`: what the referee writes of an engine's move.
fn engine_said(comment: &str) -> bool {
    let Some((score, rest)) = comment.split_once('/') else {
        return false;
    };
    let Some((depth, time)) = rest.split_once(' ') else {
        return false;
    };
    let score_ok = ["cp:", "mate:"].iter().any(|p| {
        score
            .strip_prefix(p)
            .is_some_and(|n| n.parse::<i32>().is_ok())
    });
    score_ok
        && depth.parse::<u32>().is_ok()
        && time
            .strip_suffix("ms")
            .is_some_and(|t| t.parse::<u64>().is_ok())
}

#[test]
fn engine_moves_are_recorded_with_score_depth_and_time() {
    let server = Server::start(&[]);
    // A middle game (out of the opening book): the engine searches each move.
    let id = post(
        &server.addr,
        "/api/session",
        json!({ "variant": "oware", "south": "100ms", "north": "human",
                "moves": "FfAeAbAcCd" }),
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    // The engine (South) moves, a person answers: three engine moves, two of a person's.
    for answer in 0..3 {
        let mut st = Value::Null;
        wait_until(Duration::from_secs(60), "the engine's move", || {
            st = state(&server.addr, &id);
            st["moves"].as_str().unwrap().len() == 11 + 2 * answer
        });
        if answer < 2 {
            let m = st["legal"].as_str().unwrap().chars().next().unwrap();
            post(
                &server.addr,
                "/api/move",
                json!({ "id": id, "move": m.to_string() }),
            );
        }
    }
    let line = download(&server.addr, &id, "json");
    let record = awari::record::GameRecord::from_json(line.trim().as_bytes()).unwrap();
    assert_eq!(record.info.len(), 15, "{line}");
    let engine: Vec<_> = [10, 12, 14].iter().map(|&i| record.info[i]).collect();
    for info in &engine {
        assert!(info.score.is_some() && info.depth.is_some(), "{line}");
    }
    // Each searched for its 100 ms; the time is what the page measured.
    assert!(engine.iter().any(|i| i.ms > 0), "{line}");
    for i in [11, 13] {
        assert_eq!(record.info[i].score, None, "a person's move: {line}");
    }
    let pgn = download(&server.addr, &id, "pgn");
    let said = comments(&pgn);
    assert_eq!(said.len(), 15, "{pgn}");
    for (ply, comment) in said.iter().enumerate() {
        let engine = ply >= 10 && ply % 2 == 0;
        assert_eq!(engine_said(comment), engine, "ply {}: {pgn}", ply + 1);
    }
}

#[test]
fn a_loaded_records_opening_stays_its_opening() {
    let (line, pgn) = referee_record("opening");
    let original = awari::record::GameRecord::from_json(line.as_bytes()).unwrap();
    assert_eq!(original.opening, OPENING);
    let server = Server::start(&[]);
    for (what, text) in [("JSON line", &line), ("PGN", &pgn)] {
        let id = post(
            &server.addr,
            "/api/session",
            json!({ "variant": "oware", "south": "human", "north": "human", "record": text }),
        )["id"]
            .as_str()
            .unwrap()
            .to_string();
        let again = download(&server.addr, &id, "json");
        let again = awari::record::GameRecord::from_json(again.trim().as_bytes()).unwrap();
        assert_eq!(again.opening, OPENING, "{what}");
        assert_eq!(again.moves, original.moves, "{what}");
        assert!(
            download(&server.addr, &id, "pgn").contains(&format!("{OPENING} {{opening}}")),
            "{what}"
        );
    }
}

#[test]
fn a_review_of_a_referee_record_marks_moves_and_shows_the_better_one() {
    let (browser, driver) = match tools() {
        Ok(t) => t,
        Err(reason) => return common::skipped(common::Need::Browser, reason),
    };
    let (line, _) = referee_record("review");
    let record = awari::record::GameRecord::from_json(line.as_bytes()).unwrap();
    let plies = record.plies;
    let server = Server::start(&[]);
    let b = Browser::start(&browser, &driver, "review");
    b.go(&format!(
        "{}?variant=oware&south=human&north=human",
        server.url()
    ));
    settled(&b);
    b.type_into("#record-in", &line);
    b.click("#load");
    let all = format!("{}{}", record.opening, record.moves);
    wait_until(Duration::from_secs(30), "the record loaded", || {
        b.eval(READ)["moves"] == all.as_str()
    });
    b.eval(r##"document.getElementById("review-ms").value = "100"; return 0;"##);
    b.click("#review");
    wait_until(Duration::from_secs(120), "the review", || {
        b.eval(r##"return document.body.getAttribute("data-review")"##) == "done"
    });

    // The server's judging: no move of the opening is judged; a move that won the game is no
    // mistake.
    let id = b.eval(r##"return document.body.getAttribute("data-session")"##);
    let st = state(&server.addr, id.as_str().unwrap());
    let judged = st["review"]["moves"].as_array().unwrap().clone();
    assert_eq!(judged.len(), plies, "{st}");
    for j in &judged {
        let opening = j["ply"].as_u64().unwrap() as usize <= OPENING.len();
        assert_eq!(j["opening"], opening, "{j}");
        if opening {
            assert!(j["mark"].is_null() && j["loss"] == 0.0, "{j}");
        }
    }
    let last = judged.last().unwrap();
    if st["over"]["winner"] == last["side"] {
        assert!(last["mark"].is_null(), "the winning move: {last}");
    }

    // The move list: marks after the marked moves, none in the opening.
    let marks = b.eval(
        r##"return [...document.querySelectorAll("#moves span.m")].map((s) =>
              [+s.getAttribute("data-ply"), s.getAttribute("data-mark"), s.textContent,
               s.classList.contains("opening")])"##,
    );
    let marks = marks.as_array().unwrap();
    assert_eq!(marks.len(), plies);
    let mut marked = 0;
    for m in marks {
        let ply = m[0].as_u64().unwrap() as usize;
        assert_eq!(m[3], ply <= OPENING.len(), "{m}");
        let want = judged[ply - 1]["mark"].as_str();
        assert_eq!(m[1].as_str(), want, "ply {ply}: {m}");
        let text = m[2].as_str().unwrap();
        match want {
            Some("inaccuracy") => assert!(text.ends_with("?!"), "{m}"),
            Some("mistake") => assert!(text.ends_with('?') && !text.ends_with("??"), "{m}"),
            Some("blunder") => assert!(text.ends_with("??"), "{m}"),
            _ => assert_eq!(text.len(), 1, "{m}"),
        }
        marked += usize::from(want.is_some());
    }
    assert!(marked > 0, "greedy's game marks some move: {st}");

    // Both accuracies, as the server gave them.
    let accuracy = b.eval(
        r##"const a = document.getElementById("accuracy");
            return [a.getAttribute("data-south"), a.getAttribute("data-north"), a.textContent]"##,
    );
    for (i, side) in ["south", "north"].iter().enumerate() {
        let shown: f64 = accuracy[i].as_str().unwrap().parse().unwrap();
        assert!((0.0..=100.0).contains(&shown), "{side}: {accuracy}");
        assert_eq!(
            json!(shown),
            st["review"]["accuracy"][i],
            "{side}: {accuracy}"
        );
    }
    assert!(
        accuracy[2]
            .as_str()
            .unwrap()
            .starts_with("Accuracy: South "),
        "{accuracy}"
    );

    // A marked move, clicked in the list: the position before it, with the better move's arrow.
    let first = judged.iter().find(|j| j["mark"].is_string()).unwrap();
    let ply = first["ply"].as_u64().unwrap();
    b.click(&format!("#judged li[value=\"{ply}\"]"));
    let before = (ply - 1).to_string();
    wait_until(Duration::from_secs(10), "the position before it", || {
        b.eval(r##"return document.body.getAttribute("data-view")"##) == before.as_str()
    });
    let arrow = b.eval(
        r##"const a = document.querySelector("#board [data-best-arrow]");
            return a ? [a.getAttribute("data-best-arrow"), a.getAttribute("data-to"), a.tagName] : null"##,
    );
    assert_eq!(arrow[0], first["best"], "{arrow} {first}");
    assert_eq!(arrow[1], first["best_to"].to_string(), "{arrow} {first}");
    assert_eq!(arrow[2], "path", "{arrow}");
    let banner = b.eval(READ)["banner"].as_str().unwrap().to_string();
    assert!(banner.contains("better: "), "{banner}");
    b.screenshot("review-marks");

    // The graph: its axis in seeds; a click steps to the ply under it (here its middle).
    let unit = b.eval(r##"return document.querySelector("#graph .unit").textContent"##);
    assert_eq!(unit, "seeds");
    let ticks = b.eval(
        r##"return [...document.querySelectorAll("#graph .tick")].map((t) => t.textContent)"##,
    );
    assert_eq!(ticks, json!(["+20", "+10", "0", "-10", "-20"]));
    b.click("#graph");
    let want = ((300.0 - 44.0) * plies as f64 / (600.0 - 44.0 - 10.0)).round() as i64;
    wait_until(
        Duration::from_secs(10),
        "the step to the ply clicked",
        || {
            let at = b.eval(r##"return document.body.getAttribute("data-view")"##);
            at.as_str()
                .and_then(|a| a.parse::<i64>().ok())
                .is_some_and(|a| (a - want).abs() <= 1)
        },
    );
}

/// Rows of (what, position, South's move, the mark, the seeds lost), each a record of one
/// move within the reach of 8-seed tables, where the tables prove the result before and
/// after it: the review keeps a proven result whatever its margin, and calls throwing one away
/// a blunder however few seeds it costs. (Read as estimates, the first two were blunders and
/// the last two mistakes.)
#[test]
fn a_review_judges_proven_results_by_the_result_not_the_margin() {
    let dir = common::scratch("serve-review", "tables");
    common::build_tables(&dir, awari::rules::Variant::Oware, 8);
    let server = Server::start(&["--tables", dir.to_str().unwrap()]);
    #[rustfmt::skip]
    let rows: [(&str, &str, &str, Option<&str>, f64); 4] = [
        ("a win by 8 kept by 2", "2-1-1-1-0-1-0-0-0-1-0-1-20-20-S", "D", None, 0.0),
        ("a loss by 2 kept by 8", "1-1-0-1-0-0-3-1-0-0-1-0-20-20-S", "A", None, 0.0),
        ("a win by 2 thrown to a draw", "0-1-1-2-1-2-1-0-0-0-0-0-20-20-S", "B", Some("blunder"), 2.0),
        ("a draw thrown to a loss by 2", "0-4-0-1-2-0-0-0-0-1-0-0-20-20-S", "E", Some("blunder"), 2.0),
    ];
    for (what, fen, mv, mark, loss) in rows {
        // The game as a record: played on the page, downloaded, and loaded again.
        let played = post(
            &server.addr,
            "/api/session",
            json!({ "variant": "oware", "south": "human", "north": "human",
                    "fen": fen, "moves": mv }),
        )["id"]
            .as_str()
            .unwrap()
            .to_string();
        let record = download(&server.addr, &played, "pgn");
        let id = post(
            &server.addr,
            "/api/session",
            json!({ "variant": "oware", "south": "human", "north": "human", "record": record }),
        )["id"]
            .as_str()
            .unwrap()
            .to_string();
        post(&server.addr, "/api/review", json!({ "id": id, "ms": 100 }));
        let mut st = Value::Null;
        wait_until(Duration::from_secs(60), "the review", || {
            st = state(&server.addr, &id);
            st["review"]["done"] == true
        });
        let judged = &st["review"]["moves"][0];
        assert_eq!(judged["mv"], mv, "{what}: {st}");
        assert_eq!(judged["mark"].as_str(), mark, "{what}: {judged}");
        assert_eq!(judged["loss"], loss, "{what}: {judged}");
        let accuracy = judged["accuracy"].as_f64().unwrap();
        match mark {
            None => assert_eq!(accuracy, 100.0, "{what}: {judged}"),
            Some(_) => assert!(accuracy < 50.0, "{what}: {judged}"),
        }
        assert_eq!(st["review"]["accuracy"][0], accuracy, "{what}: {st}");
    }
}
