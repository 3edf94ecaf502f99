//! The program as a child subreaper: what its engines leave behind (a process an engine
//! started and orphaned, even one that moved to a session of its own) becomes its child, and
//! is killed and reaped here rather than left to an init that may not reap it.

use super::procfs::{processes, ProcInfo};
use super::registry::registry;
use nix::sys::signal::{kill, killpg, Signal};
use nix::sys::wait::waitpid;
use nix::unistd::{getpgrp, getpid, Pid};
use std::collections::{HashMap, HashSet};

/// Linux: makes the calling process a "child subreaper", so that the orphaned descendants of
/// an engine become our children, to be ended and reaped by [`sweep`] rather than left for
/// an init that may not reap them. Elsewhere it does nothing.
pub fn become_subreaper() {
    #[cfg(target_os = "linux")]
    let _ = nix::sys::prctl::set_child_subreaper(true);
}

/// A process id as `nix` takes it; `None` for 0 or one out of range (which would name a
/// group or every process).
pub fn pid(p: u32) -> Option<Pid> {
    i32::try_from(p).ok().filter(|&p| p > 0).map(Pid::from_raw)
}

/// SIGKILL to the process group `root` leads and to every descendant of `root`, in whatever
/// group or session it moved to (`setsid`).
pub fn kill_tree(root: u32) {
    let all = processes();
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    for p in &all {
        children.entry(p.ppid).or_default().push(p.pid);
    }
    let mut stack = vec![root];
    let mut seen = HashSet::new();
    while let Some(p) = stack.pop() {
        if seen.insert(p) {
            stack.extend(children.get(&p).into_iter().flatten().copied());
        }
    }
    if let Some(group) = pid(root) {
        let _ = killpg(group, Signal::SIGKILL);
    }
    for p in seen {
        if let Some(p) = pid(p) {
            let _ = kill(p, Signal::SIGKILL);
        }
    }
}

/// Ends and reaps every process that engines left behind: the children of the referee (as
/// subreaper it inherits the orphans of its engines) that are not live engines and not in
/// its own process group (commands it ran itself stay in its group). Repeated until none is
/// left, since killing one may hand its own children to us.
pub fn sweep() {
    let me = std::process::id();
    let own_group = u32::try_from(getpgrp().as_raw()).unwrap_or(0);
    debug_assert_eq!(me, u32::try_from(getpid().as_raw()).unwrap_or(0));
    for _ in 0..64 {
        // Under the lock, so that no engine starts (and looks like a stray) meanwhile.
        let registry = registry();
        let strays: Vec<ProcInfo> = processes()
            .into_iter()
            .filter(|p| p.ppid == me && p.pgrp != own_group && !registry.engines.contains(&p.pid))
            .collect();
        if strays.is_empty() {
            return;
        }
        for p in &strays {
            if p.state != 'Z' {
                kill_tree(p.pid);
            }
        }
        for p in &strays {
            if let Some(p) = pid(p.pid) {
                let _ = waitpid(p, None);
            }
        }
    }
}
