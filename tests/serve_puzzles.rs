//! The page's puzzle mode in a real browser (headless Chromium through chromedriver): a puzzle
//! played right and the next one played wrong, then tried again and its answer shown, the
//! verdicts and the running score (first tries) as the page shows them, the board it draws
//! compared with the puzzle's position, and each person's own order of the puzzles. The answers come from
//! the shipped file, read here; the page is never told one before a move. Screenshots go to
//! `target/serve-artifacts/`. Without `chromium` or `chromedriver` the test says
//! `skipped: <test>: <reason>`.
//!
//! Whatever the test starts (the server, chromedriver, the browser through it) it stops by pid.

use crate::common;
use crate::common::serve::*;
use awari::puzzles::{parse_file, Puzzle};
use serde_json::Value;
use std::time::Duration;

/// What the page shows of the puzzle mode.
const READ: &str = "const b = document.body; const s = document.getElementById('puzzles'); \
    const board = document.getElementById('puzzle-board'); \
    return { id: b.getAttribute('data-puzzle') || '', verdict: b.getAttribute('data-puzzle-verdict') || '', \
    score: b.getAttribute('data-puzzle-score') || '', shown: !!s && !s.hidden, \
    play: !document.getElementById('play').hidden, \
    text: document.getElementById('puzzle-verdict') ? document.getElementById('puzzle-verdict').textContent : '', \
    line: document.getElementById('puzzle-line') ? document.getElementById('puzzle-line').textContent : '', \
    score_text: document.getElementById('puzzle-score') ? document.getElementById('puzzle-score').textContent : '', \
    houses: board ? Array.from(board.querySelectorAll('[data-house]')).map(t => Number(t.textContent)) : [], \
    legal: board ? Array.from(board.querySelectorAll('[data-legal]')).map(c => c.getAttribute('data-legal')).join('') : '' };";

fn shipped() -> Vec<Puzzle> {
    parse_file(include_str!("../puzzles/oware.txt")).unwrap()
}

/// Waits for the page to pose a puzzle other than `not`, and checks its board and legal
/// moves against the file's.
fn posed(b: &Browser, puzzles: &[Puzzle], not: &str) -> Puzzle {
    let mut page = Value::Null;
    wait_until(Duration::from_secs(30), "a puzzle posed", || {
        page = b.eval(READ);
        let id = page["id"].as_str().unwrap_or("");
        !id.is_empty() && id != not && page["verdict"] == ""
    });
    let id = page["id"].as_str().unwrap();
    let puzzle = puzzles
        .iter()
        .find(|p| p.id == id)
        .expect("a shipped puzzle")
        .clone();
    let houses: Vec<u64> = puzzle
        .board
        .houses()
        .iter()
        .map(|&h| u64::from(h))
        .collect();
    let drawn: Vec<u64> = page["houses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(drawn, houses, "{id}: the board drawn");
    let legal: String = puzzle.moves.iter().map(|(m, _)| m.to_string()).collect();
    assert_eq!(page["legal"], legal.as_str(), "{id}: the houses offered");
    assert_eq!(page["shown"], true);
    assert_eq!(
        page["play"], false,
        "the game is hidden while puzzles are shown"
    );
    puzzle
}

/// Whether the page offers to try again (or to show the answer).
const AGAIN: &str = "return !document.getElementById('puzzle-again').hidden";

/// The ids of the first `n` puzzles the page poses, from where its order begins.
fn first_posed(b: &Browser, puzzles: &[Puzzle], n: usize) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    for _ in 0..n {
        let last = ids.last().cloned().unwrap_or_default();
        ids.push(posed(b, puzzles, &last).id);
        b.click("#puzzle-next");
    }
    ids
}

/// Clicks `house` and waits for the verdict.
fn play(b: &Browser, house: char) -> Value {
    b.click(&format!("#puzzle-board [data-legal=\"{house}\"]"));
    let mut page = Value::Null;
    wait_until(Duration::from_secs(30), "the verdict", || {
        page = b.eval(READ);
        page["verdict"] != ""
    });
    page
}

#[test]
fn a_puzzle_right_and_one_wrong_are_judged_and_counted() {
    let (browser, driver) = match tools() {
        Ok(t) => t,
        Err(reason) => return common::skipped(common::Need::Browser, reason),
    };
    let puzzles = shipped();
    let server = Server::start(&[]);
    let b = Browser::start(&browser, &driver, "puzzles");
    b.go(&server.url());
    settled(&b);
    b.click("#puzzles-open");

    let first = posed(&b, &puzzles, "");
    b.screenshot("puzzles-posed");
    let page = play(&b, first.answer.to_char());
    assert_eq!(page["verdict"], "right", "{page}");
    assert_eq!(page["score"], "1/1", "{page}");
    assert_eq!(page["score_text"], "score: 1 of 1");
    let text = page["text"].as_str().unwrap();
    assert!(
        text.starts_with(&format!("Right: {}", first.answer)),
        "{text}"
    );
    let line = page["line"].as_str().unwrap();
    assert!(
        line.contains(&format!("ends with {} of", first.score)),
        "{line}"
    );
    b.screenshot("puzzles-right");

    b.click("#puzzle-next");
    let second = posed(&b, &puzzles, &first.id);
    let wrong = second
        .moves
        .iter()
        .map(|(m, _)| *m)
        .find(|m| *m != second.answer)
        .unwrap();
    let page = play(&b, wrong.to_char());
    assert_eq!(page["verdict"], "wrong", "{page}");
    assert_eq!(page["score"], "1/2", "{page}");
    assert_eq!(page["score_text"], "score: 1 of 2");
    let text = page["text"].as_str().unwrap();
    assert!(text.starts_with(&format!("Wrong: {wrong}")), "{text}");
    // Not told the answer yet: a retry is offered, or the answer.
    assert!(!text.contains("The move was"), "{text}");
    assert_eq!(page["line"], "", "{page}");
    assert_eq!(b.eval(AGAIN), true);
    b.screenshot("puzzles-wrong");
    // Tried again: the same puzzle, posed afresh; wrong again, then right, and the score
    // counts the first try alone.
    b.click("#puzzle-retry");
    assert_eq!(posed(&b, &puzzles, "").id, second.id);
    assert_eq!(play(&b, wrong.to_char())["verdict"], "wrong");
    b.click("#puzzle-retry");
    assert_eq!(posed(&b, &puzzles, "").id, second.id);
    let page = play(&b, second.answer.to_char());
    assert_eq!(page["verdict"], "right", "{page}");
    assert_eq!(page["score"], "1/2", "{page}");
    assert!(
        page["line"]
            .as_str()
            .is_some_and(|l| l.contains(&format!("ends with {} of", second.score))),
        "{page}"
    );
    // The next one wrong, and its answer asked for instead of a retry.
    b.click("#puzzle-next");
    let third = posed(&b, &puzzles, &second.id);
    let wrong = third
        .moves
        .iter()
        .map(|(m, _)| *m)
        .find(|m| *m != third.answer)
        .unwrap();
    assert_eq!(play(&b, wrong.to_char())["score"], "1/3");
    b.click("#puzzle-show");
    wait_until(Duration::from_secs(10), "the answer shown", || {
        let page = b.eval(READ);
        page["text"]
            .as_str()
            .is_some_and(|t| t.ends_with(&format!("The move was {}.", third.answer)))
            && page["line"]
                .as_str()
                .is_some_and(|l| l.contains(&format!("ends with {} of", third.score)))
    });
    assert_eq!(b.eval(AGAIN), false);

    // Back to the game: the puzzles hidden, the game shown again.
    b.click("#puzzle-leave");
    wait_until(Duration::from_secs(10), "the game shown again", || {
        let page = b.eval(READ);
        page["shown"] == false && page["play"] == true
    });
}

#[test]
fn each_person_meets_the_puzzles_in_an_order_of_their_own_and_goes_on_where_they_left() {
    let (browser, driver) = match tools() {
        Ok(t) => t,
        Err(reason) => return common::skipped(common::Need::Browser, reason),
    };
    let puzzles = shipped();
    let server = Server::start(&[]);
    let b = Browser::start(&browser, &driver, "puzzles-order");
    let open = || {
        b.go(&server.url());
        settled(&b);
        b.click("#puzzles-open");
    };
    open();
    let first = first_posed(&b, &puzzles, 5);
    // Back after a reload: the puzzle after the five seen, not the first again.
    let sixth = posed(&b, &puzzles, &first[4]).id;
    open();
    assert_eq!(
        posed(&b, &puzzles, "").id,
        sixth,
        "went on where it left off"
    );
    // Another person (the browser's storage cleared: a new seed) meets another order. Two
    // shuffles of the shipped puzzles agree in their first five by chance about once in
    // count^5 (count is in the hundreds).
    b.eval("localStorage.clear(); return 0;");
    open();
    let other = first_posed(&b, &puzzles, 5);
    assert!(puzzles.len() >= 100, "{} puzzles", puzzles.len());
    assert_ne!(first, other, "two people's orders");
    // Neither is the file's own order.
    let file: Vec<String> = puzzles.iter().take(5).map(|p| p.id.clone()).collect();
    assert_ne!(first, file);
    assert_ne!(other, file);
}
