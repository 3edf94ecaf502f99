//! `awari play` driven through a pipe, as a person at a terminal would drive it.

use crate::common;
use std::io::Write;
use std::process::Stdio;

fn play(args: &[&str], input: &str) -> (bool, String) {
    let mut child = common::hermetic(common::AWARI)
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// A person who tries the houses 1 to 6 in turn: illegal tries are refused and the next is
/// taken, so whole games get played.
fn stubborn(moves: usize) -> String {
    (0..moves).map(|i| format!("{}\n", i % 6 + 1)).collect()
}

#[test]
fn whole_games_against_basic_with_a_bonus_and_illegal_entries() {
    // D first: 3 seeds to E, F and the store, a bonus: AGAIN?
    let input = format!("4\nseven\n0\n{}", stubborn(3000));
    let (ok, out) = play(&[], &input);
    assert!(ok);
    assert!(
        out.starts_with("\n     3   3   3   3   3   3\n  0                          0\n"),
        "{out}"
    );
    assert!(out.contains("YOUR MOVE? \n"));
    assert!(out.contains("AGAIN? "), "a bonus move is asked for");
    assert!(out.contains("ILLEGAL MOVE"));
    assert!(out.contains("MY MOVE IS "));
    let ends = out.matches(" POINTS\n").count() + out.matches("DRAWN GAME\n").count();
    assert!(ends >= 2, "whole games end with a result: {ends}");
}

#[test]
fn a_game_ends_on_a_bonus_move_when_a_row_is_empty() {
    // F's one seed goes into the store: a bonus, but South's row is then empty: the game ends
    // at once (ahl counts only the stores: 11 to 5).
    let (ok, out) = play(&["--fen", "0-0-0-0-0-1-3-3-3-3-3-3-10-5-S"], "6\n");
    assert!(ok);
    let after = out.split("YOUR MOVE? ").nth(1).unwrap();
    assert!(!after.contains("AGAIN?"), "{out}");
    assert!(after.contains("YOU WIN BY 6 POINTS"), "{out}");
}

#[test]
fn end_of_input_mid_game_and_quit_end_quietly() {
    let (ok, out) = play(&[], "1\n");
    assert!(ok);
    assert!(out.contains("MY MOVE IS "));
    let (ok, out) = play(&["--opponent", "greedy", "--variant", "kalah"], "quit\n1\n");
    assert!(ok);
    assert!(
        !out.contains("MY MOVE IS"),
        "quit ends before anything is played: {out}"
    );
}

#[test]
fn every_opponent_and_the_computer_moving_first() {
    for opponent in ["engine", "greedy", "basic", "evolved"] {
        let (ok, out) = play(
            &[
                "--variant",
                "oware",
                "--opponent",
                opponent,
                "--depth",
                "2",
                "--first",
                "computer",
            ],
            &stubborn(2000),
        );
        assert!(ok, "{opponent}");
        // The computer opens: its move comes before any prompt.
        let first_prompt = out.find("YOUR MOVE?").unwrap();
        assert!(
            out[..first_prompt].contains("MY MOVE IS "),
            "{opponent}: {out}"
        );
        assert!(
            out.contains(" POINTS\n") || out.contains("DRAWN GAME\n"),
            "{opponent}"
        );
    }
}

#[test]
fn basic_learns_across_games_into_its_file() {
    let dir = common::scratch("play", "learn");
    let file = dir.join("memory.txt");
    // From this position the person wins at once with 6 (F into the store empties South's
    // row: 11 to 5), three games running: basic remembers each lost game's move, column 5.
    let fen = "0-0-0-0-0-1-3-3-3-3-3-3-10-5-S";
    let (ok, out) = play(
        &["--fen", fen, "--learn-file", file.to_str().unwrap()],
        "6\n6\n6\n",
    );
    assert!(ok);
    assert_eq!(out.matches("YOU WIN BY 6 POINTS").count(), 3, "{out}");
    let text = std::fs::read_to_string(&file).unwrap();
    let games: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(games, ["5", "5", "5"]);
    // Games basic wins are not remembered: against the stubborn player it wins them all.
    std::fs::remove_file(&file).unwrap();
    let (ok, out) = play(&["--learn-file", file.to_str().unwrap()], &stubborn(600));
    assert!(ok && out.contains("I WIN BY"));
    assert!(
        !file.exists()
            || std::fs::read_to_string(&file)
                .unwrap()
                .lines()
                .all(|l| l.starts_with('#'))
    );
    // A corrupt memory is no memory, with a warning.
    std::fs::write(&file, "garbage\n").unwrap();
    let (ok, out) = play(&["--learn-file", file.to_str().unwrap()], "quit\n");
    assert!(ok);
    assert!(out.contains("warning"), "{out}");
}
