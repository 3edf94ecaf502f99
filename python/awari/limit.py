"""Where a search stops (`Limit`), and the `go` line that asks for it.

A `Limit` takes python-chess's names, in seconds (`time`, `white_clock`, ...), and the
protocol's own, in milliseconds (`movetime`, `wtime`, ...): one of each pair at most. Every
value is checked when the `Limit` is made, so that nothing the engine would refuse (and so
never answer) is sent: a negative number, NaN, infinity, a `bool`, or a number beyond what
the protocol reads (`depth` and `movestogo` up to 2^32-1, `nodes` and `movetime` up to 2^64-1,
clocks up to 2^63-1 milliseconds) raises `ValueError`.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Optional, Union

__all__ = ["Limit"]

_U32 = (1 << 32) - 1
_U64 = (1 << 64) - 1
_I64 = (1 << 63) - 1

#: The `go` words in the order they are sent, each with the largest value the protocol reads.
_WORDS = (
    ("movetime", _U64),
    ("depth", _U32),
    ("nodes", _U64),
    ("mate", _U32),
    ("wtime", _I64),
    ("btime", _I64),
    ("winc", _I64),
    ("binc", _I64),
    ("movestogo", _U32),
)

#: python-chess's name for each protocol word it has, and whether it is in seconds.
_ALIASES = {
    "time": ("movetime", True),
    "white_clock": ("wtime", True),
    "black_clock": ("btime", True),
    "white_inc": ("winc", True),
    "black_inc": ("binc", True),
    "remaining_moves": ("movestogo", False),
}

Number = Union[int, float]


@dataclasses.dataclass(frozen=True)
class Limit:
    """Where a search stops. python-chess's fields come first, in seconds: `time` (this
    move), `depth` (plies), `nodes`, `mate` (sent as `go mate N`, which the awari engine does
    not search for: give it another limit too), `white_clock`/`black_clock` and
    `white_inc`/`black_inc` (South's and North's, as white and black), `remaining_moves`;
    `clock_id` is accepted and unused. Then the protocol's own, in milliseconds: `movetime`,
    `wtime`, `btime`, `winc`, `binc`, `movestogo`. An empty `Limit()` is `go infinite`."""

    time: Optional[Number] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    mate: Optional[int] = None
    white_clock: Optional[Number] = None
    black_clock: Optional[Number] = None
    white_inc: Optional[Number] = None
    black_inc: Optional[Number] = None
    remaining_moves: Optional[int] = None
    clock_id: object = None
    movetime: Optional[int] = None
    wtime: Optional[int] = None
    btime: Optional[int] = None
    winc: Optional[int] = None
    binc: Optional[int] = None
    movestogo: Optional[int] = None

    def __post_init__(self) -> None:
        # Read once here, so that a Limit that exists can be sent.
        object.__setattr__(self, "_read", tuple(self._read_words()))

    def _words(self) -> tuple[tuple[str, int], ...]:
        read: tuple[tuple[str, int], ...] = getattr(self, "_read")
        return read

    def _read_words(self) -> list[tuple[str, int]]:
        values: dict[str, int] = {}
        for alias, (word, seconds) in _ALIASES.items():
            value = getattr(self, alias)
            if value is None:
                continue
            if getattr(self, word) is not None:
                raise ValueError(f"Limit: {alias} and {word} are the same limit: give one")
            values[word] = _whole(alias, value, 1000 if seconds else 0)
        for word, _ in _WORDS:
            value = getattr(self, word, None)
            if value is not None and word not in values:
                values[word] = _whole(word, value, 0)
        words = []
        for word, largest in _WORDS:
            if word in values:
                if values[word] > largest:
                    raise ValueError(f"Limit: {word} {values[word]} is more than the protocol "
                                     f"reads (at most {largest})")
                words.append((word, values[word]))
        return words

    def arguments(self) -> str:
        """The `go` command's arguments (`infinite` when nothing limits the search)."""
        words = self._words()
        return " ".join(f"{word} {value}" for word, value in words) if words else "infinite"

    def longest(self) -> float:
        """The most time, in seconds, the limit itself allows (0 when it sets none)."""
        values = dict(self._words())
        clocks = [values[t] + values.get(i, 0) for t, i in (("wtime", "winc"), ("btime", "binc"))
                  if t in values]
        return max([values.get("movetime", 0), *clocks]) / 1000

    def timed(self) -> bool:
        """Whether the limit bounds the search's time (a move time or a clock): only such a
        search has a deadline by default."""
        return any(word in ("movetime", "wtime", "btime") for word, _ in self._words())


def _whole(name: str, value: object, scale: int) -> int:
    """`value` as the protocol's whole number: itself (`scale` 0, an `int`), or seconds times
    `scale`, rounded."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        kind = "a number of seconds" if scale else "a whole number"
        raise ValueError(f"Limit: {name} must be {kind}, not {value!r}")
    if scale == 0 and not isinstance(value, int):
        raise ValueError(f"Limit: {name} must be a whole number, not {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"Limit: {name} must be finite, not {value!r}")
    if value < 0:
        raise ValueError(f"Limit: {name} cannot be negative ({value!r})")
    return int(value) if scale == 0 else int(round(value * scale))
