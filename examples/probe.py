#!/usr/bin/env python3
"""Probe the endgame tables: a position's value, what each move leads to, and a perfect line
played out from the tables alone.

Usage: python3 examples/probe.py TABLES_DIR [POSITION]
(build tables first: `awari tables build --seeds 10 --dir TABLES_DIR`). Needs `pip install ./python`.
"""
import sys

import awari
from awari.tables import Tables

directory = sys.argv[1] if len(sys.argv) > 1 else "tables"
board = awari.Board(sys.argv[2] if len(sys.argv) > 2 else "0-0-0-2-1-3-0-1-0-2-1-0-19-19-S")
tables = Tables(directory)
for problem in tables.problems:
    print("warning:", problem, file=sys.stderr)
value = tables.probe(board)
if value is None:
    sys.exit(f"{board.fen()}: not in the tables of {directory} (layers up to {tables.reach})")
print(f"{board.fen()}: {board.turn} to move ends with {value} of the seeds on the board")
for move, after in tables.probe_moves(board).items():
    print(f"  {move}: {after}")

# Play it out: each side takes a move whose value is the position's (ties: the first).
while not board.is_game_over() and len(board.move_stack) < 200:
    moves = tables.probe_moves(board)
    best = max(moves, key=lambda m: -1 if (v := moves[m]) is None else v.lo)
    board.push(best)
print("perfect line:", board.moves_text())
outcome = board.outcome()
print("result:", outcome if outcome is not None else "still going after 200 moves")
