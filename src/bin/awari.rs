//! The `awari` command: with no arguments it speaks the engine protocol on stdin/stdout;
//! `awari bench` measures the search, `awari perft` counts the game tree, `awari play` plays a
//! person in the terminal, `awari tune` and `awari book build` fit the weights and build the
//! opening book, `awari tables` builds and probes the endgame tables. Everything is in the
//! library's [`awari::cli`].

fn main() -> std::process::ExitCode {
    awari::cli::main()
}
