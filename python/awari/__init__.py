"""Drive the awari engine, and any engine of its protocol, from Python.

`awari.engine` is the client: an engine as a child process, spoken to over pipes, with an
asyncio API (`awari.engine.popen`) and a blocking one (`awari.engine.SimpleEngine`), shaped like
python-chess's `chess.engine`. The rules in process (a board, the tables) are a separate part
that binds the crate's own rules; it is not in this package yet.
"""

from awari import engine
from awari.engine import (
    Engine,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    IllegalMoveError,
    InfoDict,
    Limit,
    OptionError,
    PlayResult,
    Position,
    ProtocolError,
    Score,
    SimpleEngine,
)

__all__ = [
    "engine",
    "Engine",
    "EngineError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "IllegalMoveError",
    "InfoDict",
    "Limit",
    "OptionError",
    "PlayResult",
    "Position",
    "ProtocolError",
    "Score",
    "SimpleEngine",
]
