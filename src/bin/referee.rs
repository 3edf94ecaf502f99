//! The `referee` command: engine-vs-engine matches, tournaments, `referee check` and
//! `referee evolve`. Everything is in the library's [`awari::referee::cli`].

fn main() -> std::process::ExitCode {
    awari::referee::cli::main()
}
