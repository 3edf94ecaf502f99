#!/usr/bin/env python3
"""Play a game against the engine: you are South (uppercase houses), it is North.

Usage: python3 examples/play.py [path/to/awari] [--auto]
(--auto: a second engine plays your side, at depth 1). Needs `pip install ./python`.
"""
import sys

from awari.engine import Limit, Position, SimpleEngine

path = next((a for a in sys.argv[1:] if not a.startswith("--")), "target/release/awari")
auto = "--auto" in sys.argv
position = Position()
with SimpleEngine.popen(path) as engine:
    engine.ucinewgame()
    while True:
        legal = engine.legal_moves(position)
        if not legal:
            break
        if legal[0].isupper():  # South to move: you
            if auto:
                move = engine.play(position, Limit(depth=1)).move
            else:
                move = input(f"your move ({''.join(legal)}): ").strip()
                if move not in legal:
                    print("not legal here")
                    continue
        else:
            move = engine.play(position, Limit(movetime=200), legal=legal).move
            print("engine plays", move)
        if move is None:
            break
        position = position.push(move)
    print("game over after", "".join(position.moves))
