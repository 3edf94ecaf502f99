//! `awari serve`: its flags, read into a [`crate::serve::Config`].

use crate::client::limit::Limit;
use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

/// `awari serve`'s flags.
#[derive(clap::Args)]
pub struct ServeArgs {
    /// The port to listen on; 0 picks a free one. The page's address is printed on stdout.
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// The address to listen on. Anything but a loopback address lets other machines start
    /// engines on this one (a warning says so).
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// A name other machines reach this one by (a DNS name, or an address this machine does
    /// not know as its own, behind a NAT); repeat for more. The page answers only to the
    /// address connected to and to these names.
    #[arg(long = "host", value_name = "NAME")]
    host: Vec<String>,
    /// Another engine to offer, as the referee's KEY=VALUE words (cmd=PATH name=NAME
    /// option.X=V movetime=MS depth=N ...); repeat for more. It moves in 1 s unless it says.
    #[arg(long = "engine", num_args = 1.., value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
    engine: Vec<String>,
    /// The endgame tables' directory for this program's engines.
    #[arg(long)]
    tables: Option<PathBuf>,
    /// Open the page in the desktop's browser.
    #[arg(long)]
    open: bool,
}

/// Serves the page; `matches` keep each `--engine`'s words apart.
pub fn run(args: &ServeArgs, matches: Option<&clap::ArgMatches>) -> Result<(), String> {
    let groups: Vec<Vec<String>> = matches
        .and_then(|m| m.get_occurrences::<String>("engine"))
        .map(|groups| groups.map(|g| g.cloned().collect()).collect())
        .unwrap_or_default();
    debug_assert_eq!(
        groups.iter().map(Vec::len).sum::<usize>(),
        args.engine.len()
    );
    let mut engines = Vec::new();
    for words in &groups {
        engines.push(crate::client::words::engine(
            words,
            Limit::MoveTime(Duration::from_secs(1)),
        )?);
    }
    for name in &args.host {
        let ok = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.' || b == b'_');
        if !ok {
            return Err(format!(
                "--host {name:?}: a host name or IPv4 address, without a port \
                 (letters, digits, '-', '_' and '.')"
            ));
        }
    }
    if let Some(dir) = args.tables.as_deref().filter(|d| !d.is_dir()) {
        return Err(format!("--tables {}: no such directory", dir.display()));
    }
    // An engine that cannot start is refused now, as the referee refuses it, rather than
    // failing when a page first chooses it.
    for (spec, _) in &engines {
        crate::client::words::check_start(spec)?;
    }
    crate::serve::run(&crate::serve::Config {
        bind: args.bind,
        port: args.port,
        hosts: args.host.clone(),
        engines,
        tables: args.tables.clone(),
        open: args.open,
    })
}
