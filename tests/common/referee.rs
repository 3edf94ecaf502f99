//! What the tests of the referee share: engines as `--engine` words, waiting for the referee,
//! reading its records.

use awari::record::GameRecord;
use std::path::Path;
use std::process::{Child, Output};
use std::time::{Duration, Instant};

/// The engine under test as a referee `--engine` named `name`.
pub fn awari_engine(name: &str) -> [String; 3] {
    [
        "--engine".to_string(),
        format!("cmd={}", env!("CARGO_BIN_EXE_awari")),
        format!("name={name}"),
    ]
}

/// `misbehave` as an engine named `misbehave`, in `mode`.
pub fn misbehave(mode: &[&str]) -> Vec<String> {
    let mut words = vec![
        "--engine".to_string(),
        format!("cmd={}", env!("CARGO_BIN_EXE_misbehave")),
        "name=misbehave".to_string(),
    ];
    words.extend(mode.iter().map(|a| format!("arg={a}")));
    words
}

/// Waits for `child` at most `limit` (a bound against hanging for ever, far above what the
/// run needs); kills it and fails if it is still running then.
pub fn finish(child: Child, limit: Duration, what: &str) -> Output {
    super::output_within(child, limit).unwrap_or_else(|| panic!("{what}: the referee hangs"))
}

/// The games of a `--jsonout` file (none if there is no file; a line that is no game is
/// left out).
pub fn records(json: &Path) -> Vec<GameRecord> {
    std::fs::read_to_string(json)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| GameRecord::from_json(l.as_bytes()).ok())
        .collect()
}

/// A `--timeout` in ms for a match in which the real engine must pass its handshake while the
/// other engine stalls: `floor`, or ten times the slowest of three starts of the engine up to
/// its `readyok` on this machine now, if that is more. A loaded machine slows every start, and
/// a bound fixed in advance then fails the good engine instead of the stalling one.
pub fn stall_timeout(floor: u64) -> u64 {
    let slowest = (0..3)
        .map(|_| {
            let start = Instant::now();
            let mut e = super::Engine::start();
            e.send("uci");
            e.send("isready");
            e.expect("readyok", Duration::from_secs(60));
            start.elapsed()
        })
        .max()
        .unwrap_or_default();
    floor.max(10 * slowest.as_millis() as u64)
}
