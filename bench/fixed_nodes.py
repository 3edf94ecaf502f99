"""Nodes per second of builds of this engine on fixed work: `go nodes N` on each oware position of
`awari bench`, the builds taking turns round by round.

Usage: python3 bench/fixed_nodes.py [--hash MB] [--nodes N] [--rounds R] [--wrap CMD] BINARY...

Every round starts each BINARY afresh (XDG_DATA_HOME pointed at an empty directory, so no endgame
tables are found), sets `Hash` (default 16) and `OwnBook false`, and searches the five oware bench
positions (read from src/search/bench.rs) after `ucinewgame`, `go nodes N` each (default
2,000,000). A build's figure for the round is its nodes over its time, both from the last `info`
line with `nodes` before `bestmove`, summed over the positions (as bench/versus.py reads them).
That line has the whole search's counts; builds up to 39b3f20 printed there the last complete
iteration's line with the counts of that iteration's end, so for them the figure is the rate of the
iterations completed. Printed per build: the best round, the median and every round; then for each
build after the first, its rate over the first's, round by round, averaged, with its standard
error. On a shared machine the best round is the one least disturbed, and the ratios within rounds
show a difference that the spread of the rounds hides.

`--wrap CMD` starts each BINARY under CMD (split as a shell would), e.g. `--wrap "valgrind
--tool=callgrind --branch-sim=yes --callgrind-out-file=cg.%p"` to count the instructions and
branches of the same searches (doc/figures.md, "Where a node's work goes")."""
import argparse, os, pathlib, shlex, statistics, sys, tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from versus import Engine, bench_positions  # noqa: E402


def fail(message):
    sys.exit(f"fixed_nodes.py: {message}")


# A search here is bounded by its nodes or its depth, not by a clock: this only catches an engine
# that hangs (also under `--wrap valgrind`, some thirty times slower).
SEARCH_SECONDS = 3600


def one_round(binary, positions, hash_mb, nodes, env, wrap=()):
    setup = [f"setoption name Hash value {hash_mb}", "setoption name OwnBook value false"]
    total_nodes, total_ms = 0, 0
    with Engine(binary, [*wrap, binary], setup, env) as engine:
        for moves in positions:
            n, ms = engine.search(moves, f"go nodes {nodes}", SEARCH_SECONDS)
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
    first = a.binaries[0]
    for b in a.binaries[1:]:
        print(f"  {b} over {first}: {paired(rates[b], rates[first])}")


def paired(new, old):
    """The mean of the rounds' ratios new/old, with its standard error: the builds ran one after
    the other in each round, so a ratio compares them under nearly the same load, and a
    difference of a few percent shows through rounds that differ by a fifth."""
    ratios = [n / o for n, o in zip(new, old)]
    mean = statistics.mean(ratios)
    if len(ratios) < 2:
        return f"{mean:.3f} (one round)"
    error = statistics.stdev(ratios) / len(ratios) ** 0.5
    return f"{mean:.3f} ± {error:.3f} (the mean ratio of {len(ratios)} rounds ± its standard error)"


if __name__ == "__main__":
    main()
