"""A whole game through the installed wheel, as a second machine would play one: `.ci/run` runs
this in a fresh virtual environment where the wheel was installed with no Rust toolchain on the
PATH. `SimpleEngine.popen()` with no path must start the engine the wheel carries
(`awari.binary.engine_path()`), which plays both sides to the game's end."""

import os
import shutil
import sys
from pathlib import Path

import awari
from awari.binary import engine_path
from awari.engine import Limit, SimpleEngine

package = Path(awari.__file__).resolve().parent
for tool in ("cargo", "rustc"):
    if shutil.which(tool) is not None:
        sys.exit(f"{tool} is on the PATH ({shutil.which(tool)}): this must run without Rust")
engine = Path(engine_path())
if engine.parent != package / "bin":
    sys.exit(f"engine_path() is {engine}, not the engine inside the package at {package}")

board = awari.Board()
with SimpleEngine.popen() as player:
    started = Path(os.readlink(f"/proc/{player.pid}/exe"))
    if started != engine.resolve():
        sys.exit(f"SimpleEngine.popen() started {started}, not the package's engine {engine}")
    while not board.is_game_over():
        move = player.play(board, Limit(depth=4)).move
        if move is None:
            sys.exit(f"no move for {board.fen()}, a game not over")
        board.push(move)
print(f"{engine}: {board.moves_text()} {board.result()} ({board.outcome()})")
