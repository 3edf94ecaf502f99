"""Nodes and time to a fixed depth of builds of this engine, on positions taken from real games.

Usage: python3 bench/depth_nodes.py --games FILE.jsonl [--depth D] [--positions N] [--seed S]
                                    [--hash MB] [--plies FROM-TO] BINARY...

The positions are drawn (with `--seed`, default 7, so the same file gives the same positions) from
the oware games of a referee record (`referee --jsonout FILE.jsonl`): a game at random, then a
position at random from the one its opening ends in to the one seven plies before its end. With
`--plies FROM-TO`, only positions after FROM to TO plies from the start (the opening's included)
are drawn, from the games that reach them: late positions, where a change may cost or save what
it does not in the whole game. Every
BINARY is started once (XDG_DATA_HOME pointed at an empty directory, so no endgame tables are
found, `Hash` MB, default 16, `OwnBook false`) and searches each position after `ucinewgame`, `go
depth D` (default 20). For each build it prints the nodes summed over the positions (with one
thread, the same in every run), the time summed, and their ratio, read from the last `info` line
with `nodes` before `bestmove`.

`bench/fixed_nodes.py` says how fast a build visits nodes; this says how many it needs to reach a
depth, so that a change that makes nodes cheaper by searching more of them shows it."""
import argparse, json, os, pathlib, random, shutil, sys, tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from fixed_nodes import SEARCH_SECONDS  # noqa: E402
from versus import Engine  # noqa: E402


START = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"


def fail(message):
    sys.exit(f"depth_nodes.py: {message}")


def positions_from(path, count, seed, plies=None):
    """`count` move lists (opening and moves, as `position startpos moves` takes them), after
    FROM to TO plies where `plies` is (FROM, TO)."""
    games = []
    try:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                try:
                    g = json.loads(line)
                except json.JSONDecodeError as e:
                    fail(f"{path}:{n}: not a JSON line: {e}")
                if not isinstance(g, dict):
                    fail(f"{path}:{n}: not a game record (a JSON object)")
                if g.get("variant") == "oware" and g.get("start") == START:
                    # One letter a ply: the opening's, then the game's.
                    games.append((g.get("opening", ""), g.get("opening", "") + g.get("moves", "")))
    except OSError as e:
        fail(f"cannot read {path}: {e}")
    games = [(len(o), len(m) - 6, m) for o, m in games if len(m) - len(o) >= 12]
    if not games:
        fail(f"{path} holds no oware game from the start of 12 plies or more after its opening")
    if plies is not None:
        # From the first ply of the range (or the opening's end) to its last (or seven plies
        # before the game's end), where the game reaches the range at all.
        games = [(max(first, plies[0]), min(last, plies[1] + 1), m) for first, last, m in games]
        games = [g for g in games if g[0] < g[1]]
        if not games:
            fail(f"{path} holds no oware game with a position after {plies[0]} to {plies[1]} "
                 "plies, seven plies or more before its end")
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        first, last, moves = rng.choice(games)
        out.append(moves[: rng.randrange(first, last)])
    return out


def ply_range(text):
    """`FROM-TO` (plies from the start, FROM at most TO) as a pair."""
    try:
        first, last = (int(x) for x in text.split("-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not FROM-TO (two ply counts)") from None
    if not 0 <= first <= last:
        raise argparse.ArgumentTypeError(f"{text!r}: FROM must be at least 0 and at most TO")
    return first, last


def search_all(binary, positions, depth, hash_mb, env):
    setup = [f"setoption name Hash value {hash_mb}", "setoption name OwnBook value false"]
    nodes, ms = 0, 0
    with Engine(binary, [binary], setup, env) as engine:
        for moves in positions:
            n, t = engine.search(moves, f"go depth {depth}", SEARCH_SECONDS)
            nodes += n
            ms += t
    return nodes, ms


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", required=True, help="a referee record (--jsonout)")
    ap.add_argument("--depth", type=int, default=20)
    ap.add_argument("--positions", type=int, default=150)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--plies", type=ply_range, metavar="FROM-TO",
                    help="only positions after FROM to TO plies from the start")
    ap.add_argument("binaries", nargs="+")
    a = ap.parse_args()
    if a.depth < 1 or a.positions < 1:
        fail("--depth and --positions must be at least 1")
    positions = positions_from(a.games, a.positions, a.seed, a.plies)
    empty = tempfile.mkdtemp(prefix="depth-nodes-")
    env = dict(os.environ, XDG_DATA_HOME=empty)
    try:
        within = f", plies {a.plies[0]}-{a.plies[1]}" if a.plies else ""
        print(f"go depth {a.depth} on {len(positions)} positions of {a.games} (seed {a.seed}"
              f"{within}), Hash {a.hash}", flush=True)
        for b in a.binaries:
            nodes, ms = search_all(b, positions, a.depth, a.hash, env)
            rate = f"{nodes / ms / 1000:.2f} M nodes/s" if ms > 0 else "no time"
            print(f"  {b}: {nodes} nodes in {ms} ms, {rate}", flush=True)
    finally:
        shutil.rmtree(empty, ignore_errors=True)
    print(f"load at the end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
