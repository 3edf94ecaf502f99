"""An engine's processes, ended for sure: its process group, and on Linux every descendant
wherever it moved (another group, another session: `setsid`), found through /proc by parent
links as the Rust client finds them (src/sys/subreaper.rs, `kill_tree`). Elsewhere, without
/proc, the group alone.

The Rust client is a child subreaper: what an engine orphans comes to it, to be ended after
the engine has exited. A library cannot make its caller's process one (every orphan of the
caller's other children would come to it too), so this client looks while the engine still
runs: its descendants are recorded just before `quit` is sent, and looked for again at the
kill, from the engine (if it still runs) and from each one recorded. What the engine orphans
after the first look, or before it exits unasked, has no parent link left to follow and is
beyond this client. A process is known by its id and its start time together, so that an id
reused after its process exited is never killed in its place.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

__all__ = ["Descendants"]

_PROC = Path("/proc")


def _stat(entry: Path) -> tuple[int, int] | None:
    """A process's parent and start time, from its /proc directory (None when it is gone)."""
    try:
        stat = (entry / "stat").read_text()
    except (OSError, UnicodeDecodeError):
        return None
    # "pid (command) state ppid pgrp ... starttime (22) ...": the command may hold spaces and
    # parentheses, so the fields are counted from its closing one.
    fields = stat[stat.rfind(")") + 1:].split()
    try:
        return int(fields[1]), int(fields[19])
    except (IndexError, ValueError):
        return None


def _table() -> dict[int, tuple[int, int]]:
    """Every process /proc shows, by id: its parent and its start time (none elsewhere)."""
    try:
        entries = [entry for entry in _PROC.iterdir() if entry.name.isdigit()]
    except OSError:
        return {}
    table = {}
    for entry in entries:
        stat = _stat(entry)
        if stat is not None:
            table[int(entry.name)] = stat
    return table


class Descendants:
    """The processes of one engine: its group (its id) and the descendants seen so far, each
    by id and start time."""

    def __init__(self, root: int) -> None:
        #: The engine's process id, also its group's.
        self.root = root
        self._known: dict[int, int] = {}
        started = _stat(_PROC / str(root))
        if started is not None:
            self._known[root] = started[1]

    def look(self) -> dict[int, int]:
        """Records every descendant of the processes recorded before that still run (the
        engine first); returns them all, each with its start time."""
        table = _table()
        children: dict[int, list[int]] = {}
        for pid, (parent, _) in table.items():
            children.setdefault(parent, []).append(pid)
        alive = [pid for pid, start in self._known.items()
                 if pid in table and table[pid][1] == start]
        seen: dict[int, int] = {}
        while alive:
            pid = alive.pop()
            if pid not in seen:
                seen[pid] = table[pid][1]
                alive.extend(children.get(pid, ()))
        self._known.update(seen)
        return seen

    def kill(self) -> None:
        """SIGKILL to the engine's process group and to every descendant recorded or found
        now that was still the same process when /proc was read. Nothing is reaped here: the
        engine is the caller's to reap, and what it orphaned belongs to whoever inherited it."""
        found = self.look()
        try:
            os.killpg(self.root, signal.SIGKILL)
        except OSError:
            pass
        for pid in found:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
