//! What a Unix command is expected to offer, shared by `awari` and `referee`: a `--version`
//! that names the commit it was built from ([`VERSION`]), manual pages ([`write_man_pages`],
//! with `clap_mangen`) and shell completions ([`print_completions`], with `clap_complete`),
//! both generated from the same `clap` definitions as `--help`, so they cannot drift from it.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The version both binaries print: the package's, then the commit it was built from (`0.1.0
/// (c3b0725)`; `unknown` where the build found no git checkout; `build.rs` sets it).
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("AWARI_COMMIT"), ")");

/// The shells `completions` writes a script for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Shell {
    /// `source <(awari completions bash)`, or the file in `~/.local/share/bash-completion/completions/`.
    Bash,
    /// A file `_awari` in a directory of `$fpath`.
    Zsh,
    /// A file in `~/.config/fish/completions/`.
    Fish,
}

/// Writes the completion script of `command` for `shell` to standard output. A closed output
/// (`| head`) ends it quietly.
pub fn print_completions(mut command: clap::Command, shell: Shell) {
    let name = command.get_name().to_string();
    let mut script = Vec::new();
    match shell {
        Shell::Bash => {
            clap_complete::generate(clap_complete::Shell::Bash, &mut command, name, &mut script)
        }
        Shell::Zsh => {
            clap_complete::generate(clap_complete::Shell::Zsh, &mut command, name, &mut script)
        }
        Shell::Fish => {
            clap_complete::generate(clap_complete::Shell::Fish, &mut command, name, &mut script)
        }
    }
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(&script).and_then(|()| out.flush());
}

/// Writes a manual page (section 1) for `command` and one for each of its subcommands, at any
/// depth (`awari.1`, `awari-tables.1`, `awari-tables-build.1`, ...), into `dir`, which must be
/// a directory; each file is written whole. Returns the files written.
pub fn write_man_pages(command: clap::Command, dir: &Path) -> Result<Vec<PathBuf>, String> {
    if !dir.is_dir() {
        return Err(format!("{}: not a directory", dir.display()));
    }
    let mut command = command.disable_help_subcommand(true);
    command.build();
    let mut written = Vec::new();
    write_pages(&command, dir, &mut written)?;
    Ok(written)
}

/// The page of `command`, then those of its subcommands.
fn write_pages(
    command: &clap::Command,
    dir: &Path,
    written: &mut Vec<PathBuf>,
) -> Result<(), String> {
    let man = clap_mangen::Man::new(command.clone());
    let mut page = Vec::new();
    man.render(&mut page).map_err(|e| e.to_string())?;
    let path = dir.join(man.get_filename());
    super::write::replace(&path, &page).map_err(|e| e.to_string())?;
    written.push(path);
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        write_pages(sub, dir, written)?;
    }
    Ok(())
}
