"""The engine's replies typed: `info` lines (`InfoDict`, with a `Score`) and `bestmove`
(`PlayResult`). Read as the Rust client reads them: a field that does not parse is left out
and the rest of its line kept; a `bestmove` that is not a move is an `IllegalBestMoveError`."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Sequence
from typing import TypedDict

from awari.errors import IllegalBestMoveError
from awari.position import MOVE

__all__ = ["InfoDict", "PlayResult", "Score", "parse_bestmove", "parse_info"]


@dataclasses.dataclass(frozen=True)
class Score:
    """A score from the side to move's point of view: `cp` (100 per seed of store
    difference), and `mate` (plies to a proven end, positive when the side to move wins)
    when the end is proven."""

    cp: int | None = None
    mate: int | None = None

    def is_mate(self) -> bool:
        """Whether the game's end is proven."""
        return self.mate is not None


class InfoDict(TypedDict, total=False):
    """What an `info` line said; only the fields it had."""

    depth: int
    seldepth: int
    multipv: int
    score: Score
    lowerbound: bool
    upperbound: bool
    nodes: int
    nps: int
    time: float
    hashfull: int
    tbhits: int
    pv: list[str]
    currmove: str
    string: str


def parse_info(line: str) -> InfoDict:
    """An `info` line read. As in the Rust client, a field whose value does not parse is left
    out and the rest of the line kept."""
    info: InfoDict = {}
    words = line.split()[1:]
    i = 0
    ints = ("depth", "seldepth", "multipv", "nodes", "nps", "hashfull", "tbhits")
    while i < len(words):
        word = words[i]
        if word == "string":
            info["string"] = line.split("string", 1)[1].strip()
            break
        if word in ints or word == "time":
            if i + 1 < len(words) and re.fullmatch(r"-?\d+", words[i + 1]):
                value = int(words[i + 1])
                if word == "time":
                    info["time"] = value / 1000
                else:
                    info[word] = value  # type: ignore[literal-required]
            i += 2
            continue
        if word == "score":
            cp: int | None = None
            mate: int | None = None
            i += 1
            while i + 1 < len(words) and words[i] in ("cp", "mate"):
                if not re.fullmatch(r"-?\d+", words[i + 1]):
                    break
                if words[i] == "cp":
                    cp = int(words[i + 1])
                else:
                    mate = int(words[i + 1])
                i += 2
            if cp is not None or mate is not None:
                info["score"] = Score(cp, mate)
            continue
        if word in ("lowerbound", "upperbound"):
            info[word] = True  # type: ignore[literal-required]
        elif word == "pv":
            taken = list(_takewhile_moves(words[i + 1:]))
            info["pv"] = [move for word in taken for move in word]
            i += 1 + len(taken)
            continue
        elif word == "currmove" and i + 1 < len(words):
            if MOVE.fullmatch(words[i + 1]):
                info["currmove"] = words[i + 1]
            i += 2
            continue
        i += 1
    return info


def _takewhile_moves(words: Sequence[str]) -> Iterator[str]:
    for word in words:
        if not re.fullmatch(r"[A-Fa-f]+", word):
            return
        yield word


@dataclasses.dataclass(frozen=True)
class PlayResult:
    """What `play` returns: the move (None when the engine says the game is over, `bestmove
    0000`), the reply it expects, and the last `info` line of line 1."""

    move: str | None
    ponder: str | None
    info: InfoDict


def parse_bestmove(line: str, legal: Sequence[str] | None) -> tuple[str | None, str | None]:
    """A `bestmove` line read: its move (None for `0000`, the game over) and its ponder move,
    or `IllegalBestMoveError` when the move is not a house letter or not in `legal`."""
    words = line.split()
    if len(words) < 2:
        raise IllegalBestMoveError(f"the engine sent {line!r}: a bestmove without a move")
    move = words[1]
    if move == "0000":
        return None, None
    if not MOVE.fullmatch(move):
        raise IllegalBestMoveError(f"the engine sent {line!r}: {move!r} is not a move")
    if legal is not None and move not in legal:
        raise IllegalBestMoveError(
            f"the engine sent {line!r}: {move} is not legal here (legal: {''.join(legal)})"
        )
    ponder = None
    if len(words) >= 4 and words[2] == "ponder" and MOVE.fullmatch(words[3]):
        ponder = words[3]
    return move, ponder
