"""Compares the speed of two engine builds on `awari bench`, as the README's figures are taken.

Usage: python3 bench/compare.py [--pairs N] OLD NEW

Runs the two binaries' `bench` back to back N times (default 12), which one goes first
alternating from pair to pair, and prints each pair's nodes/s and ratio NEW/OLD, then the
median ratio and its range, and for each build the sum over the bench positions of each
position's fastest time in all its runs (ms): a figure less moved by a noisy machine than any
one run. Fails if the two builds search different numbers of nodes (then they do not search
the same tree, and their speeds do not compare)."""
import re, statistics, subprocess, sys

def bench(binary):
    """One `bench` run: {position: ms}, total nodes, nodes/s."""
    try:
        out = subprocess.run([binary, "bench"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"compare.py: cannot run `{binary} bench`: {e}")
    times = {int(m[1]): int(m[2]) for m in re.finditer(r"^bench (\d+)/\d+ .* time (\d+) ms$", out, re.M)}
    total = re.search(r"^bench nodes (\d+) time \d+ ms nps (\d+)", out, re.M)
    if not total or not times:
        sys.exit(f"compare.py: `{binary} bench` printed no result:\n{out}")
    return times, int(total[1]), int(total[2])

args = sys.argv[1:]
pairs = 12
if args[:1] == ["--pairs"]:
    try:
        pairs = int(args[1])
    except (IndexError, ValueError):
        sys.exit("compare.py: --pairs takes a number of pairs")
    args = args[2:]
if len(args) != 2 or pairs < 1:
    sys.exit(__doc__.split("\n\n")[1])
old, new = args
fastest = {old: {}, new: {}}
ratios = []
nodes = set()
for i in range(pairs):
    order = (old, new) if i % 2 == 0 else (new, old)
    result = {}
    for b in order:
        times, total, nps = bench(b)
        nodes.add(total)
        result[b] = nps
        for p, ms in times.items():
            fastest[b][p] = min(ms, fastest[b].get(p, ms))
    if len(nodes) > 1:
        sys.exit(f"compare.py: the builds search different numbers of nodes: {sorted(nodes)}")
    ratios.append(result[new] / result[old])
    print(f"pair {i + 1}: {old} {result[old]} nodes/s, {new} {result[new]} nodes/s, ratio {ratios[-1]:.4f}")
print(f"nodes {nodes.pop()} in every run")
print(f"median ratio {statistics.median(ratios):.4f} (range {min(ratios):.4f} to {max(ratios):.4f}, {pairs} pairs)")
for b in (old, new):
    per = fastest[b]
    print(f"{b}: fastest times by position {[per[p] for p in sorted(per)]} ms, sum {sum(per.values())} ms")
