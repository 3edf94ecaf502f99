"""Nodes per second of this engine side by side with another oware engine over UCI.

Usage: python3 bench/versus.py [--movetime MS] [--rounds N] [--warmup N] [--baseline PATH]...
                               [--terms] [--other CMD] [--hash MB] [AWARI]

Every engine searches the oware positions of `awari bench` (read from src/search/bench.rs), one
at a time, single-threaded, `go movetime MS` each (default 1000), after `ucinewgame` so that each
search starts from an empty table, as `bench` does. Each engine is a process of its own, started
once: first `--warmup` passes over the positions (default 1) that are not counted (the Java
engine's JIT compiles its search during them: its first second runs at a fraction of its speed),
then `--rounds` counted passes (default 3), the engines taking turns pass by pass so that a change
of load on a shared machine falls on all of them. From each search it reads the last `info` line
that has `nodes` before `bestmove`, and that line's `time` (or `nps`); an engine's figure is its
total nodes over its total time.

AWARI is this engine (default target/release/awari), searching with its defaults (the network for
oware, one thread, `Hash` 16), without endgame tables (it runs with XDG_DATA_HOME pointed at an
empty directory, so no tables built in the user's data directory are found). `--baseline PATH`
adds another build of it (repeatable), `--terms` adds AWARI with `setoption name UseNetwork value
false` (the hand evaluation). `--other CMD` is the other engine's command line (split as a shell
would), e.g. the Aalina engine that bench/aalina-build.sh builds. Every engine is sent `setoption
name OwnBook value false` (a book move is no search) and otherwise keeps its defaults (Aalina's
`Hash` is 256 MB, its endgame book on), unless `--hash MB` sets every engine's `Hash`.

The engines count nodes differently, so the ratio is of nodes as each counts them:
- awari counts every node its search enters (src/search/negamax/mod.rs, `visit`): the root of each
  iteration, each child searched, each quiescence node, before it looks at the table or the
  evaluation.
- Aalina (samurai's Negamax, a plain alpha-beta with a transposition table, no quiescence) counts,
  with the patch of bench/aalina-build.sh, every call of `Negamax.search`: one per move made below
  the root, as its own `oware test bench` counts them (`BenchGame.makeMove`).

Fails with a message naming the engine when one cannot be started, exits, or prints no nodes."""
import argparse, atexit, os, pathlib, queue, re, shlex, shutil, subprocess, sys, tempfile, threading, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
SETUP = ["setoption name OwnBook value false"]


def fail(message):
    """Ends the script with `message`, named by the script that runs (bench/fixed_nodes.py and
    bench/depth_nodes.py drive engines with this file's `Engine` too)."""
    sys.exit(f"{os.path.basename(sys.argv[0])}: {message}")


def bench_positions():
    """The oware positions of `awari bench` (move lists from the start), in its order."""
    source = ROOT / "src" / "search" / "bench.rs"
    try:
        text = source.read_text()
    except OSError as e:
        fail(f"cannot read the bench positions: {e}")
    moves = re.findall(r'\(\s*Variant::Oware,\s*"([A-Fa-f]*)",\s*\d+,?\s*\)', text)
    if not moves:
        fail(f"no oware positions found in {source}")
    return moves


class Engine:
    """One engine process spoken to over UCI; its lines are read by a thread into a queue so that
    every wait has a time limit."""

    def __init__(self, name, argv, setup, env=None):
        self.name, self.argv, self.setup = name, argv, setup
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         text=True, bufsize=1, env=env)
        except OSError as e:
            fail(f"{name}: cannot start `{shlex.join(argv)}`: {e}")
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("uci")
        self.wait_for("uciok", 30)
        for line in setup:
            self.send(line)

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except OSError:
            fail(f"{self.name}: exited (`{shlex.join(self.argv)}`)")

    def wait_for(self, word, seconds):
        """The lines up to the first one starting with `word`, which ends the list."""
        deadline = time.monotonic() + seconds
        seen = []
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                fail(f"{self.name}: no `{word}` within {seconds} s (`{shlex.join(self.argv)}`)")
            if line is None:
                fail(f"{self.name}: exited before `{word}` (`{shlex.join(self.argv)}`)")
            seen.append(line)
            if line.split()[:1] == [word]:
                return seen

    def search(self, moves, go, seconds):
        """Nodes and milliseconds of one search, `go` (the whole command), from the position after
        `moves`, which must end within `seconds`."""
        self.send("ucinewgame")
        self.send("isready")
        self.wait_for("readyok", 60)
        position = f"position startpos moves {moves}" if moves else "position startpos"
        self.send(position)
        self.send(go)
        lines = self.wait_for("bestmove", seconds)
        for line in reversed(lines):
            words = line.split()
            if words[:1] == ["info"] and "nodes" in words:
                nodes = int(words[words.index("nodes") + 1])
                if "time" in words:
                    ms = int(words[words.index("time") + 1])
                elif "nps" in words:
                    ms = nodes * 1000 / max(1, int(words[words.index("nps") + 1]))
                else:
                    fail(f"{self.name}: an info line with nodes but neither time nor nps: {line}")
                return nodes, ms
        fail(f"{self.name}: no info line with nodes before bestmove ({position}); its last lines:\n"
             + "\n".join(lines[-5:]))

    def quit(self):
        """The process ends, whatever state it is in: asked to, or killed."""
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.quit()


def main():
    parser = argparse.ArgumentParser(
        description="\n\n".join([__doc__.split("\n\n")[0]] + __doc__.split("\n\n")[2:]),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add = parser.add_argument
    add("awari", nargs="?", metavar="AWARI",
        default=str(ROOT / "target" / "release" / "awari"))
    add("--movetime", type=int, metavar="MS", default=1000, help="ms per position")
    add("--rounds", type=int, metavar="N", default=3, help="counted passes over the positions")
    add("--warmup", type=int, metavar="N", default=1, help="passes first, not counted")
    add("--baseline", action="append", metavar="PATH", default=[], help="another awari build")
    add("--terms", action="store_true", help="also AWARI without its network")
    add("--other", metavar="CMD", help="the other engine's command line")
    add("--hash", type=int, metavar="MB", help="setoption name Hash value MB for every engine")
    args = parser.parse_args()
    if args.movetime < 1 or args.rounds < 1 or args.warmup < 0:
        fail("--movetime and --rounds take positive numbers, --warmup 0 or more")

    positions = bench_positions()
    setup = SETUP + ([f"setoption name Hash value {args.hash}"] if args.hash else [])
    data = tempfile.mkdtemp(prefix="versus-")
    atexit.register(shutil.rmtree, data, ignore_errors=True)
    env = dict(os.environ, XDG_DATA_HOME=data)
    specs = []
    for path in [args.awari] + args.baseline:
        if not os.access(path, os.X_OK):
            fail(f"no executable engine at {path}")
        specs.append((path, [path], setup, env))
    if args.terms:
        specs.append((f"{args.awari} (UseNetwork false)", [args.awari],
                      setup + ["setoption name UseNetwork value false"], env))
    if args.other:
        argv = shlex.split(args.other)
        if not argv:
            fail("--other is empty")
        specs.append((args.other, argv, setup, None))

    load = open("/proc/loadavg").read().split()[:3]
    print(f"{len(positions)} oware positions of awari bench, go movetime {args.movetime}, "
          f"{args.warmup} warm-up and {args.rounds} counted passes, {os.cpu_count()} cores, "
          f"load {' '.join(load)}")
    engines = [Engine(*spec) for spec in specs]
    total = {e.name: [0, 0.0] for e in engines}
    for r in range(args.warmup + args.rounds):
        counted = r >= args.warmup
        # The order of the engines turns from pass to pass.
        for e in engines[r % len(engines):] + engines[:r % len(engines)]:
            nodes_ms = [e.search(moves, f"go movetime {args.movetime}", args.movetime / 1000 + 30)
                        for moves in positions]
            n = sum(x[0] for x in nodes_ms)
            ms = sum(x[1] for x in nodes_ms)
            label = f"pass {r + 1 - args.warmup}" if counted else "warm-up"
            each = ", ".join(f"{x[0] / max(1, x[1]) / 1000:.2f}" for x in nodes_ms)
            print(f"{label}: {e.name}: {n} nodes in {ms:.0f} ms, {n / ms / 1000:.2f} M nodes/s "
                  f"(by position {each})", flush=True)
            if counted:
                total[e.name][0] += n
                total[e.name][1] += ms
    for e in engines:
        e.quit()

    print(f"load at the end {' '.join(open('/proc/loadavg').read().split()[:3])}")
    print("total nodes / total time, each engine counting nodes its own way (see --help):")
    nps_of = {name: n / ms * 1000 for name, (n, ms) in total.items()}
    other = nps_of.get(args.other)
    for name, nps in nps_of.items():
        ratio = f", {nps / other:.3f} of the other's" if other and name != args.other else ""
        print(f"  {nps / 1e6:6.2f} M nodes/s  {name}{ratio}")


if __name__ == "__main__":
    main()
