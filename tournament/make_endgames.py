#!/usr/bin/env python3
"""Makes an oware endgame suite from real games: the positions right after a capture (so with
an empty history, as the tables define their values) that the endgame tables hold only bounds
for, whose bounds leave the result open (one side may end ahead or behind depending on how the
play goes), one or two per game.

    python3 tournament/make_endgames.py AWARI TABLES_DIR MIN MAX PER_GAME RECORDS.jsonl... > suite.txt

AWARI is the engine binary (it reads each position's value with `d`), TABLES_DIR its tables,
MIN..MAX the seeds on the board, PER_GAME the most positions taken from one game, RECORDS the
referee's JSON lines (`--jsonout`). Standard library only. Each line of the output is a
position in the notation, which `referee --openings` plays from.
"""

import json
import os
import re
import subprocess
import sys


class Engine:
    def __init__(self, path, tables):
        self.p = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send(f"setoption name TablesPath value {tables}")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def show(self, start, moves):
        """The position after `moves` from `start`, and its tables line (or None)."""
        self.send(f"position fen {start} moves {moves}" if moves else f"position fen {start}")
        self.send("d")
        self.send("isready")
        position, tables = None, None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("the engine closed its output")
            line = line.strip()
            if line == "readyok":
                return position, tables
            if line.startswith("Position: "):
                position = line[len("Position: "):]
            elif line.startswith("tables: value "):
                tables = line
            elif line.startswith("info string error"):
                raise SystemExit(f"{start} {moves}: {line}")

    def close(self):
        self.send("quit")
        self.p.wait()


def seeds_on_board(position):
    return sum(int(x) for x in position.split("-")[:12])


def open_result(tables):
    """Whether the bounds leave the result open: the worst and the best differ in kind."""
    m = re.search(r"and (\w+)[^,]* at worst, (\w+)[^,]* at best", tables)
    return m is not None and m.group(1) != m.group(2)


def main():
    if len(sys.argv) < 7:
        sys.exit(__doc__)
    awari, tables_dir = sys.argv[1], sys.argv[2]
    low, high, per_game = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    engine = Engine(awari, tables_dir)
    seen = set()
    kept = 0
    for path in sys.argv[6:]:
        with open(path) as f:
            for raw in f:
                record = json.loads(raw)
                if record.get("variant") != "oware":
                    continue
                moves = record["opening"] + record["moves"]
                taken = 0
                before = None
                for i in range(0, len(moves) + 1, 1):
                    position, tables = engine.show(record["start"], moves[:i])
                    n = seeds_on_board(position)
                    captured = before is not None and n < before
                    before = n
                    if not (captured and low <= n <= high and tables and ".." in tables):
                        continue
                    if not open_result(tables) or position in seen:
                        continue
                    seen.add(position)
                    value = tables.split(":")[1].strip()
                    print(f"{position}  # {n} seeds, {value}, round {record['round']} of {os.path.basename(path)}")
                    kept += 1
                    taken += 1
                    if taken == per_game:
                        break
    engine.close()
    print(f"{kept} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
