#!/usr/bin/env python3
"""Play a game against the engine: you are South (uppercase houses), it is North.

Usage: python3 examples/play.py [path/to/awari] [--auto]
(--auto: a second engine plays your side, at depth 1). Needs `pip install ./python`.
The board is drawn before each of your moves and at the end, with the result; the end of
input (Ctrl-D) leaves the game unfinished and says so.
"""
import sys

import awari
from awari.engine import Limit, SimpleEngine

path = next((a for a in sys.argv[1:] if not a.startswith("--")), "target/release/awari")
auto = "--auto" in sys.argv
board = awari.Board()
with SimpleEngine.popen(path) as engine:
    engine.ucinewgame()
    while not board.is_game_over():
        if board.turn == "south":  # you
            if auto:
                move = engine.play(board, Limit(depth=1)).move
            else:
                print(board)
                try:
                    move = input(f"your move ({''.join(board.legal_moves)}): ").strip()
                except EOFError:
                    print("\ninput ended: the game is left unfinished")
                    break
                try:
                    reason = board.illegal_reason(move)
                except awari.NotationError as e:  # not a move at all
                    reason = str(e)
                if reason is not None:
                    print(reason)
                    continue
        else:
            move = engine.play(board, Limit(movetime=200)).move
            print("engine plays", move)
        if move is None:
            break
        board.push(move)
if board.is_game_over():
    print(board)
    print("game over after", board.moves_text())
    print(board.outcome(), board.result())
else:
    print("stopped after", board.moves_text())
