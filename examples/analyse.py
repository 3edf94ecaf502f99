#!/usr/bin/env python3
"""Analyse a game record: the engine's three best lines after each move.

Usage: python3 examples/analyse.py [path/to/awari] [MOVES]
(MOVES concatenated, as the engine writes them; default FfEaCb). Needs `pip install ./python`.
"""
import sys

from awari.engine import Limit, Position, SimpleEngine

path = sys.argv[1] if len(sys.argv) > 1 else "target/release/awari"
record = sys.argv[2] if len(sys.argv) > 2 else "FfEaCb"
with SimpleEngine.popen(path) as engine:
    position = Position()
    for move in record:
        position = position.push(move)
        lines = engine.analyse(position, Limit(depth=6), multipv=3)
        print("after", "".join(position.moves))
        for info in lines:
            score = info.get("score")
            # The side to move's view: a `Mate` (plies to a proven end) or a `Cp` estimate.
            shown = "?" if score is None else repr(score.relative)
            print(f"  {info.get('multipv', 1)}. {''.join(info.get('pv', []))}  {shown}")
