"""The engine's replies typed: `info` lines (`InfoDict`, with a `PovScore`) and `bestmove`
(`PlayResult`).

The lines are read by the crate's own reader (`src/client/reply.rs`, the referee's and the
page's), bound into `awari._native`: there is one reader, so the client cannot read a line
otherwise than they do. A field whose value does not parse is left out and the rest of its
line kept; a `bestmove` that is not a move is an `IllegalBestMoveError`; a line of another kind
than the one asked for is a `ReplyError` (a `ValueError`: `line`, `expected`).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from typing import Optional, TypedDict, cast

from awari import _native
from awari._native import ReplyError
from awari.errors import IllegalBestMoveError
from awari.position import MOVE
from awari.score import Cp, Mate, PovScore, Side

__all__ = ["Info", "InfoDict", "PlayResult", "ReplyError", "parse_bestmove", "parse_info"]


class Info(enum.IntFlag):
    """Which fields of an `info` line a call keeps (python-chess's `INFO_*`)."""

    NONE = 0
    BASIC = 1
    SCORE = 2
    PV = 4
    REFUTATION = 8
    CURRLINE = 16
    ALL = BASIC | SCORE | PV | REFUTATION | CURRLINE


INFO_NONE = Info.NONE
INFO_BASIC = Info.BASIC
INFO_SCORE = Info.SCORE
INFO_PV = Info.PV
INFO_REFUTATION = Info.REFUTATION
INFO_CURRLINE = Info.CURRLINE
INFO_ALL = Info.ALL


class InfoDict(TypedDict, total=False):
    """What an `info` line said; only the fields it had."""

    depth: int
    seldepth: int
    multipv: int
    score: PovScore
    lowerbound: bool
    upperbound: bool
    tables: bool
    nodes: int
    nps: int
    time: float
    hashfull: int
    tbhits: int
    pv: list[str]
    currmove: str
    string: str


def parse_info(line: str, turn: Side = "south") -> InfoDict:
    """An `info` line read by the crate's reader, its score from `turn`'s point of view (the
    side to move in the position searched); `ReplyError` for a line that is not `info`."""
    read = _native.read_info(line)
    info = cast(InfoDict, {k: v for k, v in read.items() if k not in ("score", "time")})
    if "score" in read:
        kind, number = read["score"]
        info["score"] = PovScore(Cp(number) if kind == "cp" else Mate(number), turn)
    if "time" in read:
        info["time"] = read["time"] / 1000
    return info


@dataclasses.dataclass(frozen=True)
class PlayResult:
    """What `play` returns: the move (None when the engine says the game is over, `bestmove
    0000`), the reply it expects, and the last `info` of line 1 (the fields `info=` asked
    for). `draw_offered` and `resigned` are python-chess's, always False: the protocol has
    neither."""

    move: Optional[str]
    ponder: Optional[str]
    info: InfoDict = dataclasses.field(default_factory=lambda: InfoDict())
    draw_offered: bool = False
    resigned: bool = False


def parse_bestmove(line: str, legal: Optional[Sequence[str]]
                   ) -> tuple[Optional[str], Optional[str]]:
    """A `bestmove` line read: its move (None for `0000`, the game over) and its ponder move,
    or `IllegalBestMoveError` when the move is not a house letter or not in `legal`;
    `ReplyError` for a line that is not `bestmove`."""
    move, ponder = _native.read_bestmove(line)
    if not move:
        raise IllegalBestMoveError(f"the engine sent {line!r}: a bestmove without a move")
    if move == "0000":
        return None, None
    if not MOVE.fullmatch(move):
        raise IllegalBestMoveError(f"the engine sent {line!r}: {move!r} is not a move")
    if legal is not None and move not in legal:
        raise IllegalBestMoveError(
            f"the engine sent {line!r}: {move} is not legal here (legal: {''.join(legal)})"
        )
    if ponder is not None and not MOVE.fullmatch(ponder):
        ponder = None
    return move, ponder
