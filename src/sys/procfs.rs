//! The processes `/proc` shows (Linux; elsewhere none): each one's id, parent, group and
//! state, read from `/proc/PID/stat`. Enough to find an engine's descendants wherever they
//! moved, the strays left to a subreaper, and whether a process group still runs.

/// A process as /proc shows it.
#[derive(Clone, Copy, Debug)]
pub struct ProcInfo {
    /// Its process id.
    pub pid: u32,
    /// Its parent's.
    pub ppid: u32,
    /// Its process group's.
    pub pgrp: u32,
    /// Its state letter (`Z`: a zombie).
    pub state: char,
}

/// Every process /proc shows (Linux; elsewhere none).
pub fn processes() -> Vec<ProcInfo> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut list = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // "pid (command) state ppid pgrp ...": the command may hold spaces and parentheses.
        let Some(after) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        let fields: Vec<&str> = after.split_whitespace().collect();
        if let [state, ppid, pgrp, ..] = fields[..] {
            list.push(ProcInfo {
                pid,
                ppid: ppid.parse().unwrap_or(0),
                pgrp: pgrp.parse().unwrap_or(0),
                state: state.chars().next().unwrap_or('?'),
            });
        }
    }
    list
}

/// Whether any process of group `pgid` is still running (zombies count as gone).
pub fn group_alive(pgid: u32) -> bool {
    processes().iter().any(|p| p.pgrp == pgid && p.state != 'Z')
}

/// Linux: whether any process of group `pgid` exists at all, zombies included (after
/// the engine client's `Process::end` none should: the referee reaps what it can).
pub fn group_exists(pgid: u32) -> bool {
    processes().iter().any(|p| p.pgrp == pgid)
}
