//! The `referee` command: engine-vs-engine matches. Until the referee lands it only says so.

use std::process::ExitCode;

const USAGE: &str = "\
referee: plays Awari engines against each other (not built yet).

Usage (planned, see the README):
  referee --engine cmd=./a name=A --engine cmd=./b --variant oware --games 100 --tc 10+0.1

Today the rules core and `awari perft` are ready; run `awari --help`.";

fn main() -> ExitCode {
    let wants_help = std::env::args().skip(1).any(|a| a == "--help" || a == "-h");
    if wants_help {
        println!("{USAGE}");
        ExitCode::SUCCESS
    } else {
        eprintln!("{USAGE}");
        ExitCode::from(2)
    }
}
