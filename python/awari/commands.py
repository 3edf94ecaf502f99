"""One exchange with an engine each: what a call sent, and the lines the engine sends back up
to the one that ends it (`uciok`, `readyok`, `bestmove`, perft's `total`).

The client's reader hands every line to the exchange in progress, and only to it: an answer
belongs to the exchange that asked for it, so a call that was cancelled or timed out can never
hand its answer to the next one (the next call waits until the earlier exchange has ended).
"""

from __future__ import annotations

import asyncio
import collections
import time
from collections.abc import Callable, Sequence
from typing import Optional

from awari.errors import EngineError, ProtocolError
from awari.options import Option
from awari.reply import Info, InfoDict, PlayResult, parse_bestmove, parse_info

__all__ = ["MAX_BUFFERED", "Command", "Handshake", "Perft", "Ready", "Search", "select"]

#: The most bytes of `info` lines an analysis keeps for a caller who has not read them yet:
#: beyond it the engine is ended with `ProtocolError` (its output is not read; the client's
#: memory does not grow without end).
MAX_BUFFERED = 16 << 20


class Command:
    """An exchange: ended by the line whose first word is `ends`, or by an error.

    Its caller can be answered before the engine is done with it: a search the engine refused
    is an error at once, yet the engine still owes its `bestmove`. So an exchange is
    `finished` (the caller's answer is known, `done`) and, apart from that, `open` until the
    engine has sent the line that ends it (`closed`): the reader feeds it every line until
    then, and the next call waits for it before it sends anything."""

    ends = ""

    def __init__(self) -> None:
        loop = asyncio.get_running_loop()
        #: Set when the caller's answer (or the error) is known.
        self.done: asyncio.Future[None] = loop.create_future()
        #: Set when the engine has sent the line that ends the exchange, or can send no more.
        self.closed: asyncio.Future[None] = loop.create_future()
        #: Why it ended without its answer, if it did.
        self.error: Optional[EngineError] = None

    @property
    def finished(self) -> bool:
        """Whether its answer (or an error) has come."""
        return self.done.done()

    @property
    def open(self) -> bool:
        """Whether the engine still owes the line that ends it."""
        return not self.closed.done()

    def feed(self, line: str, words: list[str]) -> None:
        """A line from the engine, while this exchange is open."""
        if words[:1] == [self.ends]:
            self.answer(line, words)
            self.finish()
        else:
            self.take(line, words)

    def take(self, line: str, words: list[str]) -> None:
        """A line before the answer."""

    def answer(self, line: str, words: list[str]) -> None:
        """The line that ends the exchange."""

    def finish(self, error: Optional[EngineError] = None) -> None:
        """Ends it (with `error`, when it ended without its answer), for its caller and for the
        engine alike."""
        self.fail(error)
        if not self.closed.done():
            self.closed.set_result(None)

    def fail(self, error: Optional[EngineError]) -> None:
        """Its caller's answer is `error`, while the exchange stays open until the engine's
        last line for it comes."""
        if not self.done.done():
            self.error = error
            self.done.set_result(None)

    def abandon(self) -> None:
        """Its caller gave up on it (cancelled, or another call comes): whatever the engine
        must be told so that the answer comes soon."""


class Handshake(Command):
    """`uci` ... `uciok`: the engine's name and options."""

    ends = "uciok"

    def __init__(self) -> None:
        super().__init__()
        self.id: dict[str, str] = {}
        self.options: list[Option] = []

    def take(self, line: str, words: list[str]) -> None:
        if words[:1] == ["id"] and len(words) >= 2:
            self.id[words[1]] = " ".join(words[2:])
        elif words[:1] == ["option"]:
            option = Option.parse(line)
            if option is not None:
                self.options.append(option)


class Ready(Command):
    """`isready` ... `readyok`; an `info string error` before it means that the engine refused
    what was sent with it."""

    ends = "readyok"

    def __init__(self) -> None:
        super().__init__()
        self.refusal: Optional[str] = None

    def take(self, line: str, words: list[str]) -> None:
        if self.refusal is None and _refusal(words):
            self.refusal = line


class Perft(Command):
    """`go perft 1` ... `total`: the lines between."""

    ends = "total"

    def __init__(self, send: Callable[[str], None]) -> None:
        super().__init__()
        self._send = send
        self.lines: list[str] = []

    def take(self, line: str, words: list[str]) -> None:
        self.lines.append(line)

    def abandon(self) -> None:
        if not self.finished:
            _tell(self._send, "stop")
            # `stop` ends a perft with no `total`: the exchange is over.
            self.finish()


class Search(Command):
    """`go` ... `bestmove`: the latest info of each line, and for an analysis every info
    queued for its reader (at most `MAX_BUFFERED` bytes of them)."""

    ends = "bestmove"

    def __init__(self, send: Callable[[str], None], broke: Callable[[EngineError], None], *,
                 turn: str, selected: Info, legal: Optional[Sequence[str]],
                 queued: bool) -> None:
        super().__init__()
        self._send = send
        self._broke = broke
        self._turn = turn
        self._selected = selected
        self._legal = legal
        self._queued = queued
        self._waiter: Optional[asyncio.Future[None]] = None
        #: When `stop` was sent (`time.monotonic()`), if it was.
        self.stopped_at: Optional[float] = None
        #: The latest info of each line that said where the search is (a depth, a score or
        #: a variation), by its number (1 is the best).
        self.lines: dict[int, InfoDict] = {}
        #: Infos not yet read by the analysis's reader, each with its line's size in bytes.
        self.pending: collections.deque[tuple[InfoDict, int]] = collections.deque()
        self._pending_bytes = 0
        #: The answer, once it has come.
        self.result: Optional[PlayResult] = None

    def take(self, line: str, words: list[str]) -> None:
        if words[:1] != ["info"] or self.finished:
            # After a refusal, nothing more for the caller: the exchange waits for its end.
            return
        if _refusal(words):
            # The engine refused the `go`: the caller is told at once, and `stop` asks for
            # the `bestmove` the engine still owes (awari's `bestmove 0000`), which the next
            # call reads away before it sends anything.
            self.stop()
            self.fail(ProtocolError(f"the engine refused the search: {line!r}"))
            return
        info = parse_info(line, self._turn)
        if "depth" in info or "score" in info or "pv" in info:
            self.lines[info.get("multipv", 1)] = info
        if self._queued:
            self.pending.append((select(info, self._selected), len(line)))
            self._pending_bytes += len(line)
            if self._pending_bytes > MAX_BUFFERED:
                self._broke(ProtocolError(
                    f"the engine's infos were not read: more than {MAX_BUFFERED} bytes of them"
                    " waited for the caller"))
                return
            self._wake()

    def answer(self, line: str, words: list[str]) -> None:
        if self.finished:
            # The `bestmove` of a refused search: it closes the exchange and is no answer.
            return
        try:
            move, ponder = parse_bestmove(line, None if self.stopped else self._legal)
        except EngineError as e:
            self.finish(e)
            return
        self.result = PlayResult(move, ponder, select(self.lines.get(1, {}), self._selected))

    def fail(self, error: Optional[EngineError]) -> None:
        # `finish` calls it too: a reader waiting for infos learns at once that none will come.
        super().fail(error)
        self._wake()

    @property
    def stopped(self) -> bool:
        """Whether `stop` was sent."""
        return self.stopped_at is not None

    def stop(self) -> None:
        """`stop`, once, while the search runs."""
        if not self.finished and self.stopped_at is None:
            self.stopped_at = time.monotonic()
            _tell(self._send, "stop")

    def abandon(self) -> None:
        self.stop()

    def popleft(self) -> InfoDict:
        """The oldest info not yet read."""
        info, size = self.pending.popleft()
        self._pending_bytes -= size
        return info

    async def arrival(self) -> None:
        """Until an info is queued or the search ends."""
        if self.pending or self.finished:
            return
        if self._waiter is None or self._waiter.done():
            self._waiter = asyncio.get_running_loop().create_future()
        await asyncio.shield(self._waiter)

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)


#: The fields each `Info` flag keeps (`string` is always kept).
_FLAGS = {"score": Info.SCORE, "lowerbound": Info.SCORE, "upperbound": Info.SCORE,
          "tables": Info.SCORE, "pv": Info.PV}


def select(info: InfoDict, selected: Info) -> InfoDict:
    """The fields of `info` that `selected` asks for (`string` always)."""
    if selected == Info.ALL:
        return info
    kept: InfoDict = {}
    for key, value in info.items():
        flag = _FLAGS.get(key, Info.BASIC)
        if key == "string" or selected & flag:
            kept[key] = value  # type: ignore[literal-required]
    return kept


def _refusal(words: list[str]) -> bool:
    """Whether a line is `info string error ...`: the engine refused what it was sent."""
    return words[:2] == ["info", "string"] and len(words) > 2 and words[2] in ("error", "error:")


def _tell(send: Callable[[str], None], line: str) -> None:
    """`line` sent if the engine can still be written to (an ended engine needs no `stop`)."""
    try:
        send(line)
    except EngineError:
        pass
