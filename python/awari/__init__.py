"""Awari in Python: the engine's own rules and endgame tables in process, and a client for the
engine (or any engine of its protocol) over pipes.

- `awari.Board`: a game under any of the six rule sets (`awari.RULES`): legal moves and why a
  move is not, push and pop, the notation both ways, the end and its result, perft, the
  Zobrist key. It is the crate's own code (compiled with PyO3), not a copy in Python. What it
  refuses raises a `ValueError` of a class of its own: `NotationError`, `IllegalMoveError`,
  `SetupError`, `UnknownRulesError`, each with the fields a program reads.
- `awari.tables`: probe a directory of endgame tables that `awari tables build` wrote.
- `awari.engine`: the engine as a child process, with an asyncio API (`awari.engine.popen`)
  and a blocking one (`awari.engine.SimpleEngine`), shaped like python-chess's `chess.engine`.
"""

from importlib.metadata import PackageNotFoundError, version

from awari import engine, tables
from awari._native import (
    RULES,
    Board,
    IllegalMoveError,
    NotationError,
    Outcome,
    SetupError,
    UnknownRulesError,
)

try:
    #: The installed package's version (the crate's).
    __version__ = version("awari")
except PackageNotFoundError:  # run from the source tree, not installed
    __version__ = "0.0.0"

__all__ = [
    "__version__",
    "RULES",
    "Board",
    "IllegalMoveError",
    "NotationError",
    "Outcome",
    "SetupError",
    "UnknownRulesError",
    "engine",
    "tables",
]
