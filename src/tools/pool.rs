//! Thread pools for the tools' parallel work (`awari tune`'s games, `awari book build`'s
//! searches and games): a pool the system refuses (a thread or process limit) is an error the
//! command reports, never a panic.

use rayon::{ThreadPool, ThreadPoolBuilder};

/// A pool of `threads` threads (at least one), or why it could not be started.
pub fn threads(threads: usize) -> Result<ThreadPool, String> {
    let threads = threads.max(1);
    ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("could not start {threads} worker threads: {e}"))
}
