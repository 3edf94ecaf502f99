"""Nodes per second of builds of this engine on fixed work: `go nodes N` on each oware position of
`awari bench`, the builds taking turns round by round.

Usage: python3 bench/fixed_nodes.py [--hash MB] [--nodes N] [--rounds R] [--wrap CMD] BINARY...

Every round starts each BINARY afresh (XDG_DATA_HOME pointed at an empty directory, so no endgame
tables are found), sets `Hash` (default 16) and `OwnBook false`, and searches the five oware bench
positions (read from src/search/bench.rs) after `ucinewgame`, `go nodes N` each (default
2,000,000). A build's figure for the round is its nodes over its time, both from the last `info`
line with `nodes` before `bestmove`, summed over the positions (as bench/versus.py reads them).
That line has the whole search's counts; builds up to 39b3f20 printed there the last complete
iteration's line with the counts of that iteration's end, so for them the figure is the rate
of the iterations completed. Printed per build: the best round, the median and every round. On
a shared machine the best round is the one least disturbed.

`--wrap CMD` starts each BINARY under CMD (split as a shell would), e.g. `--wrap "valgrind
--tool=callgrind --branch-sim=yes --callgrind-out-file=cg.%p"` to count the instructions and
branches of the same searches (doc/figures.md, "Where a node's work goes")."""
import argparse, os, pathlib, re, shlex, subprocess, sys, tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from versus import bench_positions  # noqa: E402


def fail(message, script="fixed_nodes.py"):
    sys.exit(f"{script}: {message}")


class Session:
    """One engine process over UCI, set up with `Hash` and `OwnBook false`, that searches
    positions one at a time (also used by bench/depth_nodes.py). `script` names the caller in
    its errors."""

    def __init__(self, binary, hash_mb, env, wrap=(), script="fixed_nodes.py"):
        self.binary, self.script = binary, script
        try:
            self.p = subprocess.Popen([*wrap, binary], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True, env=env)
        except OSError as e:
            fail(f"cannot start {binary}: {e}", script)
        try:
            self.send("uci")
            self.send(f"setoption name Hash value {hash_mb}")
            self.send("setoption name OwnBook value false")
            self.send("isready")
            self.until("readyok")
        except BaseException:
            self.close()
            raise

    def send(self, line):
        try:
            self.p.stdin.write(line + "\n")
            self.p.stdin.flush()
        except OSError as e:
            fail(f"{self.binary} exited before {line!r} ({e})", self.script)

    def until(self, prefix):
        """Reads up to a line starting with `prefix`; returns the last `info` line with
        `nodes` before it."""
        last = None
        for line in self.p.stdout:
            if line.startswith("info") and " nodes " in line:
                last = line
            if line.startswith(prefix):
                return last
        fail(f"{self.binary} exited before {prefix!r}", self.script)

    def search(self, moves, go):
        """`go` (the whole command) from the start after `moves`, after `ucinewgame`: the nodes
        and the milliseconds of the search's last `info` line with `nodes`."""
        self.send("ucinewgame")
        self.send(f"position startpos moves {moves}" if moves else "position startpos")
        self.send("isready")
        self.until("readyok")
        self.send(go)
        last = self.until("bestmove")
        if last is None:
            fail(f"{self.binary} printed no nodes for {go!r} after {moves!r}", self.script)
        return (int(re.search(r" nodes (\d+)", last).group(1)),
                int(re.search(r" time (\d+)", last).group(1)))

    def close(self):
        if self.p.poll() is None:
            try:
                self.p.stdin.write("quit\n")
                self.p.stdin.flush()
                self.p.wait(timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                pass
        try:
            self.p.stdin.close()
        except OSError:
            pass
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()


def one_round(binary, positions, hash_mb, nodes, env, wrap=()):
    total_nodes, total_ms = 0, 0
    with Session(binary, hash_mb, env, wrap) as engine:
        for moves in positions:
            n, ms = engine.search(moves, f"go nodes {nodes}")
            total_nodes += n
            total_ms += ms
    if total_ms <= 0:
        fail(f"{binary} took 0 ms in all")
    return total_nodes / (total_ms / 1000)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--nodes", type=int, default=2_000_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--wrap", default="", help="a command to start each binary under")
    ap.add_argument("binaries", nargs="+")
    a = ap.parse_args()
    positions = bench_positions()
    empty = tempfile.mkdtemp(prefix="fixed-nodes-")
    env = dict(os.environ, XDG_DATA_HOME=empty)
    rates = {b: [] for b in a.binaries}
    for _ in range(a.rounds):
        for b in a.binaries:
            rate = one_round(b, positions, a.hash, a.nodes, env, shlex.split(a.wrap))
            rates[b].append(rate / 1e6)
    os.rmdir(empty)
    print(f"Hash {a.hash}, go nodes {a.nodes}, {len(positions)} positions, {a.rounds} rounds, "
          f"load at the end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for b, v in rates.items():
        median = sorted(v)[len(v) // 2]
        print(f"  {b}: best {max(v):.2f} M nodes/s, median {median:.2f} "
              f"({' '.join(f'{x:.2f}' for x in v)})")


if __name__ == "__main__":
    main()
