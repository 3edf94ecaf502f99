//! One search thread's accounts: what it has spent (nodes, endgame table hits, time) against
//! what it may spend (the node limit, the clock), and whether it must stop (`stop`, the main
//! thread's end, a limit reached). The node search only counts its nodes here and reads
//! [`Ledger::aborted`]; everything it would otherwise have to know of limits, pondering and the
//! other threads stays in this one place.
//!
//! The flags and the clock are read every 1,024 nodes rather than at every node: a thousand
//! nodes take a fraction of a millisecond, soon enough for `stop` and the clock.

use super::threads::{Flushed, Pool};
use super::time::{Clock, Limits};
use super::{Control, Shared};
use crate::rules::Side;

/// What one search thread has counted and may still spend, and whether it must stop.
pub(super) struct Ledger<'a> {
    pool: &'a Pool,
    control: &'a Control,
    limits: &'a Limits,
    /// A helper thread: no clock, no node limit, ends with the main thread.
    helper: bool,
    /// The helpers' nodes as last read (main thread).
    others: u64,
    /// This helper's counts already added to the pool.
    flushed: Flushed,
    /// The most nodes the search may take, all threads together (main thread).
    node_limit: u64,
    /// `go ponder` and no `ponderhit` seen yet: no time limit for now.
    pondering: bool,
    pub(super) clock: Clock,
    /// Nodes this thread has searched.
    pub(super) nodes: u64,
    /// Endgame table probes of this thread that scored or bounded a node.
    pub(super) tbhits: u64,
    /// Set once the search must end: what it finds from then on means nothing.
    pub(super) aborted: bool,
}

impl<'a> Ledger<'a> {
    /// The accounts of a thread of the search `shared` describes, `side` to move at its root;
    /// `helper` for a helper thread.
    pub(super) fn new(shared: &Shared<'a>, side: Side, helper: bool) -> Ledger<'a> {
        let limits = shared.limits;
        Ledger {
            pool: shared.pool,
            control: shared.control,
            limits,
            helper,
            others: 0,
            flushed: Flushed::default(),
            node_limit: match helper {
                true => u64::MAX,
                false => limits.nodes.unwrap_or(u64::MAX).max(1),
            },
            pondering: limits.ponder,
            clock: Clock::starting_at(limits.budget(side, shared.overhead), shared.control.asked),
            nodes: 0,
            tbhits: 0,
            aborted: false,
        }
    }

    /// Counts a node and, every 1,024 nodes, polls; sets `aborted` when the search must end.
    #[inline]
    pub(super) fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.poll();
        }
        if self.nodes + self.others >= self.node_limit {
            self.aborted = true;
        }
    }

    /// Whether time or a proven result may end the search now.
    pub(super) fn thinking(&self) -> bool {
        self.limits.may_stop_early(self.pondering)
    }

    /// A helper adds its nodes and table hits since the last flush to the pool.
    pub(super) fn flush(&mut self) {
        self.pool.flush(&mut self.flushed, self.nodes, self.tbhits);
    }

    /// Checks the stop flag, the clock and `ponderhit`; sets `aborted`. A helper checks only
    /// `stop` and the main thread's end, and adds its counts to the pool.
    pub(super) fn poll(&mut self) {
        if self.control.stopped() {
            self.aborted = true;
        }
        if self.helper {
            self.flush();
            if self.pool.done() {
                self.aborted = true;
            }
            return;
        }
        self.others = self.pool.nodes();
        if self.pondering && !self.control.pondering() {
            // `ponderhit`: the move's own time starts now.
            self.pondering = false;
            self.clock.restart();
        }
        if self.thinking() && self.clock.hard_expired() {
            self.aborted = true;
        }
    }

    /// The nodes of every thread so far: this one's and what the helpers have added.
    pub(super) fn all_nodes(&self) -> u64 {
        self.nodes + self.pool.nodes()
    }

    /// The table hits of every thread so far.
    pub(super) fn all_tbhits(&self) -> u64 {
        self.tbhits + self.pool.tbhits()
    }
}
