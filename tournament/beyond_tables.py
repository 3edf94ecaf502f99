"""Moves provably worse than the best, just beyond the engine's endgame tables.

Usage: python3 tournament/beyond_tables.py --data DIR --judge TABLES --tables SMALL
           [--seeds 15-18] [--positions 600] [--movetime 100] [--details FILE]
           [--sample FILE]
           ENGINE [ENGINE ...]

Each ENGINE is `name=path` or `name=path:Option=value,Option=value` (say
`terms=target/release/awari:UseNetwork=false`, `net2=awari:EvalFile=oware2.nnue`).

The sample: held-out positions of an `awari datagen` run in DIR (every game of every 20th
opening line, as `awari train` holds them out; positions played in games, not drawn from the
tables' layers), with --seeds seeds on the board, spread evenly over the run, at most
--positions of them, each one the judge's tables value (every move within their reach). Every engine gets the tables in SMALL (`TablesPath`, smaller than the sample's seeds:
the positions lie just beyond them) and --movetime ms a move, one position at a time from a
new game. The judge is TABLES (which reach the sample), read in process when the Python
package of python/ is installed, else by one `awari tables probe` a position: a move is
provably worse when its upper bound lies below the best lower bound among the moves, that is
when the tables prove it gives up seeds. Prints, per engine, the share of such moves, the
seeds they give up at the least (the gap between the bounds), and how many of them change the
game's result: the best move keeps a result (win, or at least a draw) that the move played
cannot reach. --details writes one JSON line per engine and position: the position, the
move, the engine's last score, and the judge's values. --sample keeps the judged sample in a
file: written when the file is not there, read (and the judge not asked) when it is.
"""
import argparse, json, os, struct, subprocess, sys

RECORD = 24


def positions(data, seeds, most):
    """The sample's positions (their notation), from the run in `data`."""
    with open(os.path.join(data, "datagen.json")) as f:
        lines = json.load(f)["openings"][1]
    found = []
    for name in sorted(os.listdir(data)):
        if not name.endswith(".bin") or name == "datagen-tables.bin":
            continue
        with open(os.path.join(data, name), "rb") as f:
            body = f.read()[32:]
        for i in range(0, len(body), RECORD):
            r = body[i : i + RECORD]
            houses, stores = r[:12], r[12:14]
            game = struct.unpack_from("<I", r, 20)[0]
            key = game % lines if lines > 1 else game
            if key % 20 != 0 or not seeds[0] <= sum(houses) <= seeds[1]:
                continue
            side = "N" if r[14] & 1 else "S"
            found.append("-".join(str(x) for x in list(houses) + list(stores)) + "-" + side)
    step = max(1, len(found) // (most * 2))
    return found[::step]


def result(fen, seeds):
    """The result for the side to move of `fen` when it ends with `seeds` of the board's: 1 a
    win, 0 a draw, -1 a loss (more than half of all the seeds wins)."""
    fields = fen.split("-")
    houses, stores = [int(x) for x in fields[:12]], [int(x) for x in fields[12:14]]
    mine = stores[1] if fields[14] == "N" else stores[0]
    total = sum(houses) + sum(stores)
    final = 2 * (mine + seeds)
    return (final > total) - (final < total)


class Judge:
    """The judge's tables: in process through the Python package when it is installed (the
    tables opened once), else one `awari tables probe` per position."""

    def __init__(self, awari, tables):
        self.awari, self.tables = awari, tables
        try:
            import awari as package
        except ImportError:
            self.package, self.opened = None, None
        else:
            self.package = package
            try:
                self.opened = package.tables.Tables(tables, rules="oware", verify=False)
            except (OSError, ValueError) as e:
                sys.exit(f"beyond_tables.py: --judge {tables}: {e}")

    def __call__(self, fen):
        """{move: (lo, hi)}, or None when the position or a move is beyond the tables."""
        if self.opened is None:
            return judge(self.awari, self.tables, fen)
        if self.opened.probe(self.package.Board(fen)) is None:
            return None
        values = {}
        for move, value in self.opened.probe_moves(self.package.Board(fen)).items():
            if value is None:
                return None
            values[move] = (value.lo, value.hi)
        return values or None


def judge(awari, tables, fen):
    """{move: (lo, hi)} by the judge's tables, or None when a move is beyond them."""
    out = subprocess.run(
        [awari, "tables", "probe", "--dir", tables, "--fen", fen],
        capture_output=True, text=True,
    )
    if out.returncode != 0:
        return None
    values = {}
    for line in out.stdout.splitlines()[1:]:
        move, value = line.split()[:2]
        if not value[0].isdigit():
            return None
        lo, _, hi = value.partition("..")
        values[move] = (int(lo), int(hi or lo))
    return values or None


class Engine:
    """One engine over pipes."""

    def __init__(self, spec, small):
        self.name, _, rest = spec.partition("=")
        path, _, options = rest.partition(":")
        self.process = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name TablesPath value {small}")
        for option in filter(None, options.split(",")):
            name, _, value = option.partition("=")
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.process.stdin.write(line + "\n")

    def wait(self, word):
        while True:
            line = self.process.stdout.readline()
            if not line:
                sys.exit(f"beyond_tables.py: {self.name} ended")
            if line.startswith(word):
                return line.split()

    def play(self, fen, movetime):
        """The move played and the last score the engine printed (`cp 12`, `tables 3`, ...)."""
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send(f"go movetime {movetime}")
        score = None
        while True:
            line = self.process.stdout.readline()
            if not line:
                sys.exit(f"beyond_tables.py: {self.name} ended")
            words = line.split()
            if words and words[0] == "bestmove":
                return words[1], score
            if "score" in words:
                at = words.index("score")
                score = " ".join(words[at + 1 : at + 3])

    def close(self):
        self.send("quit")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", required=True)
    p.add_argument("--judge", required=True, help="tables that reach the sample")
    p.add_argument("--tables", required=True, help="the engines' tables")
    p.add_argument("--seeds", default="15-18")
    p.add_argument("--positions", type=int, default=600)
    p.add_argument("--movetime", type=int, default=100)
    p.add_argument("--awari", default="target/release/awari", help="for the judge's probes")
    p.add_argument("--details", help="write each engine's move at each position here (JSON lines)")
    p.add_argument("--sample", help="the judged sample's file: read if there, else written")
    p.add_argument("engines", nargs="+")
    a = p.parse_args()
    lo, _, hi = a.seeds.partition("-")
    identity = {"data": os.path.abspath(a.data), "judge": os.path.abspath(a.judge),
                "seeds": a.seeds, "positions": a.positions}
    if a.sample and os.path.exists(a.sample):
        with open(a.sample) as f:
            kept = json.load(f)
        made = {k: kept.get(k) for k in ("data", "judge", "seeds", "positions")}
        if made != identity:
            sys.exit(f"beyond_tables.py: {a.sample} holds another sample ({made}), not {identity}")
        sample = [(fen, {m: tuple(v) for m, v in values.items()}, best)
                  for fen, values, best in kept["sample"]]
    else:
        sample, judged = [], Judge(a.awari, a.judge)
        for fen in positions(a.data, (int(lo), int(hi or lo)), a.positions):
            values = judged(fen)
            if values is None:
                continue
            sample.append((fen, values, max(v[0] for v in values.values())))
            if len(sample) == a.positions:
                break
        if a.sample:
            with open(a.sample, "w") as f:
                json.dump(dict(identity, sample=sample), f)
    some = sum(any(v[1] < best for v in values.values()) for _, values, best in sample)
    print(
        f"{len(sample)} positions of {a.seeds} seeds, {some} of them with a move the judge "
        f"proves worse than the best"
    )
    details = open(a.details, "w") if a.details else None
    for spec in a.engines:
        engine = Engine(spec, a.tables)
        worse, lost, results = 0, 0, 0
        for fen, values, best in sample:
            move, score = engine.play(fen, a.movetime)
            lo_hi = values.get(move)
            if lo_hi is None:
                sys.exit(f"beyond_tables.py: {engine.name} played {move} at {fen}")
            if lo_hi[1] < best:
                worse += 1
                lost += best - lo_hi[1]
                if result(fen, lo_hi[1]) < result(fen, best):
                    results += 1
            if details:
                row = {"engine": engine.name, "fen": fen, "move": move, "score": score}
                row["values"] = {m: list(v) for m, v in values.items()}
                details.write(json.dumps(row) + "\n")
        engine.close()
        print(
            f"{engine.name}: {worse} of {len(sample)} moves provably worse than the best "
            f"({100 * worse / max(1, len(sample)):.1f}%), giving up at least {lost} seeds in all; "
            f"{results} of them change the result"
        )
    if details:
        details.close()


if __name__ == "__main__":
    main()
