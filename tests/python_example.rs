//! The Python example of doc/pipes.md (examples/drive.py), run as written against the built
//! engine. Where `python3` does not run, the test says that it skipped and why
//! (`common::skipped`), so that a passing run does not pass for one that checked the example.

use crate::common;
use awari::rules::{Board, Game, Move, Variant};

#[test]
fn the_python_example_gets_a_legal_best_move() {
    if !common::runs("python3", &["--version"]) {
        common::skipped(
            common::Need::Python,
            "python3 is not on PATH, or `python3 --version` fails",
        );
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/drive.py");
    let output = common::hermetic("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_awari"))
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.starts_with("id name awari"), "{stdout}");
    let best = stdout
        .lines()
        .find_map(|l| l.strip_prefix("best move: "))
        .expect("a best move line");
    let mut game = Game::new(Board::start(Variant::Oware));
    game.play_text("FfEa").unwrap();
    let m: Move = best.parse().unwrap();
    assert!(game.legal_moves().contains(m), "{best}");
}
