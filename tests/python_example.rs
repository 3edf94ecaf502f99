//! The README's Python example, run as written against the built engine when `python3` is
//! on the machine (skipped, with a note, when it is not).

use awari::rules::{Board, Game, Move, Variant};
use std::process::Command;

#[test]
fn the_python_example_gets_a_legal_best_move() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/drive.py");
    let output = match Command::new("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_awari"))
        .output()
    {
        Ok(output) => output,
        Err(e) => {
            eprintln!("python3 not available ({e}): the example is not run");
            return;
        }
    };
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
