#!/usr/bin/env python3
"""Makes a balanced opening suite for one rule set: every line of PLIES plies from the start,
searched by the engine to DEPTH, kept when its score is within MAX_CP of even (and not a
proven result). Standard library only.

Usage: python3 tournament/make_openings.py ENGINE VARIANT PLIES DEPTH MAX_CP > suite.txt
"""
import subprocess
import sys

engine_path, variant, plies, depth, max_cp = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
engine = subprocess.Popen([engine_path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(line):
    engine.stdin.write(line + "\n")
    engine.stdin.flush()


def until(prefix):
    while True:
        line = engine.stdout.readline()
        if not line:
            raise RuntimeError("the engine closed its output")
        if line.startswith(prefix):
            return line.strip()


def legal(moves):
    """The legal moves after `moves` (empty when the game is over), from `d`."""
    send(f"position startpos moves {moves}")
    send("d")
    while True:
        line = until("")
        if line.startswith("Game over:"):
            return ""
        if "; legal moves: " in line:
            return line.split("; legal moves: ")[1]


def score(moves):
    """The engine's score of the position after `moves`, from South's point of view."""
    send(f"position startpos moves {moves}")
    send(f"go depth {depth}")
    last = None
    while True:
        line = until("")
        if line.startswith("info depth") and "bound" not in line:
            last = line.split()
        if line.startswith("bestmove"):
            break
    i = last.index("score")
    kind, value = last[i + 1], int(last[i + 2])
    # Who is to move after these moves: ask `d`.
    send("d")
    north = "North to move" in until_any(["to move; legal moves", "Game over"])
    return kind, (-value if north else value)


def until_any(needles):
    while True:
        line = until("")
        if any(n in line for n in needles):
            return line


send(f"setoption name UCI_Variant value {variant}")
lines = [""]
for _ in range(plies):
    lines = [m + c for m in lines for c in legal(m)]
print(f"# {variant}: every {plies}-ply line searched to depth {depth}, kept within {max_cp} cp of even")
print(f"# made by: python3 tournament/make_openings.py target/release/awari {variant} {plies} {depth} {max_cp}")
kept = 0
for line in lines:
    kind, value = score(line)
    if kind == "cp" and abs(value) <= max_cp:
        print(f"{line}  # {value:+d} cp for South")
        kept += 1
print(f"# {kept} of {len(lines)} lines kept")
send("quit")
