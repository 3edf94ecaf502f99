//! The interrupt handler: Ctrl-C, SIGTERM and SIGHUP end every engine this program started
//! (they run in process groups of their own, so a terminal's Ctrl-C does not reach them) and
//! then the program, with status 130.

use super::registry::registry;
use super::subreaper::{kill_tree, sweep};
use std::thread;

/// On Ctrl-C (SIGINT), SIGTERM or SIGHUP: a thread closes the registry (no engine starts
/// after that), kills every live engine with everything it started, and exits with status
/// 130. Engines run in groups of their own, so a terminal's Ctrl-C does not reach them by
/// itself. Returns an error only if the signals cannot be watched.
pub fn install_interrupt_handler() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        crate::sys::stderr::line(format_args!(
            "warning: cannot watch for Ctrl-C; engines may outlive an interrupt"
        ));
        return;
    };
    let _ = thread::Builder::new()
        .name("interrupt".to_string())
        .spawn(move || {
            if signals.forever().next().is_some() {
                let mut registry = registry();
                registry.closing = true;
                let engines: Vec<u32> = registry.engines.iter().copied().collect();
                drop(registry);
                for pid in engines {
                    kill_tree(pid);
                }
                sweep();
                std::process::exit(130);
            }
        });
}
