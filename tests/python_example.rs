//! The README's Python example, run as written against the built engine. Where `python3` was
//! not found when the crate was built (`build.rs`), the test is marked ignored, so the count
//! of tests run stays honest.

mod common;

use awari::rules::{Board, Game, Move, Variant};

#[test]
#[cfg_attr(
    not(has_python3),
    ignore = "python3 was not found when this crate was built"
)]
fn the_python_example_gets_a_legal_best_move() {
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
