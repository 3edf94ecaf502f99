#!/usr/bin/env python3
"""Compare two engines' evaluations of the same positions (or one engine with two settings).

Usage: python3 examples/compare.py [path/to/awari] [path/to/other]
(default: the same awari twice, the second without its network). Needs `pip install ./python`.
"""
import sys

from awari.engine import Limit, Position, SimpleEngine

first = sys.argv[1] if len(sys.argv) > 1 else "target/release/awari"
second = sys.argv[2] if len(sys.argv) > 2 else first
positions = [Position(), Position(moves=tuple("FfEa")), Position(moves=tuple("CbDaFc"))]
with SimpleEngine.popen(first) as a, SimpleEngine.popen(second) as b:
    if second == first:
        b.configure({"UseNetwork": False})
    for position in positions:
        scores = []
        for engine in (a, b):
            info = engine.analyse(position, Limit(depth=6))
            score = info.get("score")
            scores.append("?" if score is None else str(score.relative.score(mate_score=10_000)))
        print(f"{''.join(position.moves) or 'start':8} {scores[0]:>6} {scores[1]:>6}")
