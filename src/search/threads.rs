//! The threads of one search (lazy SMP): helper threads beside the main one, and what they
//! share besides the transposition table.
//!
//! Every thread runs the same iterative deepening on the same position, sharing the table
//! (and nothing else but the flags and counts here): what one thread stores, the others find,
//! so together they search deeper in the same time. Only the main thread reports, keeps time
//! and chooses the move; the helpers end when it does. The search itself (what a helper runs)
//! is the search module's; this one only starts, ends and counts.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What the helper threads tell the main thread, and it them.
#[derive(Default)]
pub(super) struct Pool {
    /// Set when the main thread has its answer: the helpers end.
    done: AtomicBool,
    /// The helpers' nodes and table hits so far (each adds its own every 1,024 nodes).
    nodes: AtomicU64,
    tbhits: AtomicU64,
}

/// What one helper has already added to the pool, so that each flush adds only what is new.
#[derive(Default)]
pub(super) struct Flushed {
    nodes: u64,
    tbhits: u64,
}

impl Pool {
    /// Runs `main` on this thread with `threads - 1` helpers beside it, each running
    /// `helper(id)` (ids from 1); when `main` returns, the helpers are told to end and are
    /// waited for. Returns `main`'s result and, if some helpers could not be started, how many
    /// and why.
    ///
    /// Helpers are started one by one while the system allows: a failed start (a thread or
    /// process limit) ends the starting, not the search.
    pub(super) fn run<R>(
        &self,
        threads: usize,
        helper: impl Fn(usize) + Sync,
        main: impl FnOnce() -> R,
    ) -> (R, Option<(usize, String)>) {
        let helper = &helper;
        std::thread::scope(|scope| {
            let mut unstarted = None;
            let wanted = threads.max(1);
            for id in 1..wanted {
                let started = std::thread::Builder::new()
                    .name(format!("search-{id}"))
                    .spawn_scoped(scope, move || helper(id));
                if let Err(e) = started {
                    unstarted = Some((wanted - id, e.to_string()));
                    break;
                }
            }
            let result = main();
            self.done.store(true, Ordering::Release);
            (result, unstarted)
        })
    }

    /// Whether the main thread has its answer (a helper's cue to end).
    pub(super) fn done(&self) -> bool {
        self.done.load(Ordering::Acquire)
    }

    /// The helpers' nodes so far, as last flushed: a figure for reports and the node limit,
    /// not a synchronisation point.
    pub(super) fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// The helpers' table hits so far, as last flushed.
    pub(super) fn tbhits(&self) -> u64 {
        self.tbhits.load(Ordering::Relaxed)
    }

    /// The helpers' nodes and table hits in all, once [`Pool::run`] has returned.
    pub(super) fn totals(&self) -> (u64, u64) {
        (
            self.nodes.load(Ordering::Acquire),
            self.tbhits.load(Ordering::Acquire),
        )
    }

    /// A helper adds its `nodes` and `tbhits` since its last flush (`flushed`) to the pool.
    pub(super) fn flush(&self, flushed: &mut Flushed, nodes: u64, tbhits: u64) {
        self.nodes
            .fetch_add(nodes - flushed.nodes, Ordering::Relaxed);
        self.tbhits
            .fetch_add(tbhits - flushed.tbhits, Ordering::Relaxed);
        *flushed = Flushed { nodes, tbhits };
    }
}
