"""An engine of the awari protocol as a child process, spoken to over pipes.

Shaped like python-chess's `chess.engine`: `popen` (asyncio) or `SimpleEngine.popen`
(blocking, an event loop on a background thread) start an engine and do the handshake;
`configure` sets options checked against the `option` lines the engine announced; `play`,
`analyse` and `analysis` search a `Position` or a `Board` within a `Limit`; python-chess's
names work too. A call cancelled leaves the engine as the next call expects it, and whatever
goes wrong raises a subclass of `EngineError` that says what came back.

The contract is the Rust client's (the referee's, doc/pipes.md): a line longer than
`MAX_LINE` bytes, or more than `MAX_LINES_PER_SECOND` lines within a second of one request,
ends the engine with `ProtocolError`; an engine whose output ends raises
`EngineTerminatedError` with its exit status; a late answer raises `EngineTimeoutError` and
ends the engine (an engine that missed its deadline cannot be trusted to answer in order).
An ended engine's whole process group is killed by id, and on Linux every descendant that
left the group (`processes`: those it had when it was told to quit).

This module is the one to import: each part lives in a module of its own (`errors`,
`options`, `position`, `limit`, `reply`, `score`, `processes`, `commands`, `client`,
`analysis`, `simple`, `binary`), and every public name is here.
"""

from awari.binary import engine_path
from awari.client import (
    MAX_LINE,
    MAX_LINES_PER_SECOND,
    SETTLE,
    AnalysisResult,
    Engine,
    popen,
    popen_uci,
)
from awari.commands import MAX_BUFFERED
from awari.errors import (
    AnalysisComplete,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    IllegalBestMoveError,
    OptionError,
    ProtocolError,
)
from awari.limit import Limit
from awari.options import CaseInsensitiveDict, Option
from awari.position import VARIANTS, Position, PositionLike
from awari.reply import (
    INFO_ALL,
    INFO_BASIC,
    INFO_CURRLINE,
    INFO_NONE,
    INFO_PV,
    INFO_REFUTATION,
    INFO_SCORE,
    Info,
    InfoDict,
    PlayResult,
    ReplyError,
    parse_info,
)
from awari.score import Cp, Mate, PovScore, Score
from awari.simple import SimpleAnalysisResult, SimpleEngine

__all__ = [
    "INFO_ALL",
    "INFO_BASIC",
    "INFO_CURRLINE",
    "INFO_NONE",
    "INFO_PV",
    "INFO_REFUTATION",
    "INFO_SCORE",
    "MAX_BUFFERED",
    "MAX_LINE",
    "MAX_LINES_PER_SECOND",
    "SETTLE",
    "VARIANTS",
    "AnalysisComplete",
    "AnalysisResult",
    "CaseInsensitiveDict",
    "Cp",
    "Engine",
    "EngineError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "IllegalBestMoveError",
    "Info",
    "InfoDict",
    "Limit",
    "Mate",
    "Option",
    "OptionError",
    "PlayResult",
    "Position",
    "PositionLike",
    "PovScore",
    "ProtocolError",
    "ReplyError",
    "Score",
    "SimpleAnalysisResult",
    "SimpleEngine",
    "engine_path",
    "parse_info",
    "popen",
    "popen_uci",
]
