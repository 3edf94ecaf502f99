"""An engine of the awari protocol as a child process, spoken to over pipes.

Shaped like python-chess's `chess.engine`: `popen` (asyncio) or `SimpleEngine.popen`
(blocking, an event loop on a background thread) start an engine and do the handshake;
`configure` sets options checked against the `option` lines the engine announced; `play`,
`analyse` and `analysis` search a `Position` within a `Limit`. Every call has a timeout, and
whatever goes wrong raises a subclass of `EngineError` that says what came back.

The contract is the Rust client's (the referee's, doc/pipes.md): a line longer than
`MAX_LINE` bytes, or more than `MAX_LINES_PER_SECOND` lines within a second of one request,
ends the engine with `ProtocolError`; an engine whose output ends raises
`EngineTerminatedError` with its exit status; a late answer raises `EngineTimeoutError` and
ends the engine (an engine that missed its deadline cannot be trusted to answer in order).
An ended engine's whole process group is killed by id, so nothing it started is left.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import re
import signal
import threading
import time
from collections.abc import AsyncIterator, Coroutine, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any, TypedDict, TypeVar

__all__ = [
    "MAX_LINE",
    "MAX_LINES_PER_SECOND",
    "SETTLE",
    "VARIANTS",
    "AnalysisResult",
    "Engine",
    "EngineError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "IllegalMoveError",
    "InfoDict",
    "Limit",
    "Option",
    "OptionError",
    "PlayResult",
    "Position",
    "ProtocolError",
    "Score",
    "SimpleAnalysisResult",
    "SimpleEngine",
    "popen",
]

#: Longest line an engine may send, in bytes (the Rust client's `OutputLimits::max_line`).
MAX_LINE = 64 << 10
#: Most lines an engine may send within a second of one request (`max_lines_per_second`).
MAX_LINES_PER_SECOND = 20_000
#: How long an engine whose output ended has to exit before it is reported without a status,
#: and how long `quit` waits by default before the process group is killed (seconds).
SETTLE = 0.2
#: The rule sets the awari engine knows (`UCI_Variant`).
VARIANTS = ("oware", "awari", "ahl", "kalah", "ayoayo")

_MOVE = re.compile(r"[A-Fa-f]")
_FEN_WORD = re.compile(r"\S+")


class EngineError(RuntimeError):
    """Something went wrong with an engine (the base of every error here)."""


class EngineTerminatedError(EngineError):
    """The engine's output ended: it exited (with `returncode`, when its exit was seen), or
    it was ended earlier by this client."""

    def __init__(self, message: str, returncode: int | None = None) -> None:
        super().__init__(message)
        #: Its exit status (negative: the signal that killed it), or None if not seen.
        self.returncode = returncode


class EngineTimeoutError(EngineError, TimeoutError):
    """No expected answer within the time allowed; the engine has been ended."""


class ProtocolError(EngineError):
    """A line the client cannot take: too long, too many too fast, or refused by the engine
    (`info string error: ...` in answer to what was sent)."""


class IllegalMoveError(ProtocolError):
    """A `bestmove` that is not a move: not a house letter (A-F, a-f), or not one of the legal
    moves the caller gave."""


class OptionError(EngineError, ValueError):
    """An option the engine did not announce, or a value its `option` line does not allow."""


@dataclasses.dataclass(frozen=True)
class Option:
    """An option as the engine announced it: `option name N type T [default D] [min m] [max M]
    [var V]...`."""

    name: str
    type: str
    default: str | None
    min: int | None
    max: int | None
    var: tuple[str, ...]

    def check(self, value: str | int | bool | None) -> str | None:
        """The value as it goes on the `setoption` line (None: no `value` word), or
        `OptionError` naming the option and what it allows."""
        if self.type == "button":
            if value not in (None, True):
                raise OptionError(f"option {self.name!r} is a button: it takes no value")
            return None
        if value is None:
            raise OptionError(f"option {self.name!r} needs a value")
        if self.type == "check":
            if isinstance(value, bool):
                return "true" if value else "false"
            if str(value) in ("true", "false"):
                return str(value)
            raise OptionError(f"option {self.name!r} is a check: true or false, not {value!r}")
        if self.type == "spin":
            if isinstance(value, bool):
                raise OptionError(f"option {self.name!r} is a spin: an integer, not {value!r}")
            try:
                number = int(value)
            except ValueError:
                raise OptionError(
                    f"option {self.name!r} is a spin: an integer, not {value!r}"
                ) from None
            low = self.min if self.min is not None else number
            high = self.max if self.max is not None else number
            if not low <= number <= high:
                raise OptionError(
                    f"option {self.name!r} takes {self.min} to {self.max}, not {number}"
                )
            return str(number)
        if self.type == "combo":
            if str(value) not in self.var:
                raise OptionError(
                    f"option {self.name!r} takes one of {', '.join(self.var)}, not {value!r}"
                )
            return str(value)
        text = str(value)
        if "\n" in text or "\r" in text:
            raise OptionError(f"option {self.name!r}: a value cannot hold a line break")
        return text

    @staticmethod
    def parse(line: str) -> Option | None:
        """An `option ...` line read, or None when it names no option or type."""
        words = line.split()
        if words[:2] != ["option", "name"]:
            return None
        keys = {"name", "type", "default", "min", "max", "var"}
        fields: dict[str, list[str]] = {}
        values: list[tuple[str, list[str]]] = []
        key = ""
        for word in words[1:]:
            if word in keys and not (key == "name" and word not in ("type",)):
                key = word
                values.append((key, []))
            elif values:
                values[-1][1].append(word)
        var: list[str] = []
        for key, value in values:
            if key == "var":
                var.append(" ".join(value))
            else:
                fields[key] = value
        name = " ".join(fields.get("name", []))
        kind = " ".join(fields.get("type", []))
        if not name or not kind:
            return None

        def number(key: str) -> int | None:
            try:
                return int(" ".join(fields[key]))
            except (KeyError, ValueError):
                return None

        default = " ".join(fields["default"]) if "default" in fields else None
        return Option(name, kind, default, number("min"), number("max"), tuple(var))


@dataclasses.dataclass(frozen=True)
class Position:
    """A position in the engine's notation: a rule set, a start (`None`: the variant's start
    position; or a position in the notation of doc/rules.md) and the moves played from it."""

    variant: str = "oware"
    fen: str | None = None
    moves: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for move in self.moves:
            if not _MOVE.fullmatch(move):
                raise ValueError(f"not a move: {move!r} (a house letter, A-F or a-f)")
        if self.fen is not None and not _FEN_WORD.fullmatch(self.fen):
            raise ValueError(f"not a position: {self.fen!r} (one word, as doc/rules.md writes it)")

    def push(self, move: str) -> Position:
        """This position with `move` played after it."""
        return dataclasses.replace(self, moves=(*self.moves, move))

    def command(self) -> str:
        """The `position` command for the engine."""
        start = "startpos" if self.fen is None else f"fen {self.fen}"
        moves = f" moves {''.join(self.moves)}" if self.moves else ""
        return f"position {start}{moves}"


@dataclasses.dataclass(frozen=True)
class Limit:
    """Where a search stops, in the protocol's own units: times in milliseconds (`wtime`,
    `winc` are South's clock, `btime`, `binc` North's), depth in plies, nodes."""

    movetime: int | None = None
    depth: int | None = None
    nodes: int | None = None
    wtime: int | None = None
    btime: int | None = None
    winc: int | None = None
    binc: int | None = None
    movestogo: int | None = None

    def arguments(self) -> str:
        """The `go` command's arguments (`infinite` when nothing limits the search)."""
        words = []
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if value is not None:
                words.append(f"{field.name} {int(value)}")
        return " ".join(words) if words else "infinite"

    def longest(self) -> float:
        """The most time, in seconds, the limit itself allows (0 when it sets none)."""
        clocks = [t + (i or 0) for t, i in ((self.wtime, self.winc), (self.btime, self.binc))
                  if t is not None]
        most = max([self.movetime or 0, *clocks])
        return most / 1000


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
            if _MOVE.fullmatch(words[i + 1]):
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


def _parse_bestmove(line: str, legal: Sequence[str] | None) -> tuple[str | None, str | None]:
    words = line.split()
    if len(words) < 2:
        raise IllegalMoveError(f"the engine sent {line!r}: a bestmove without a move")
    move = words[1]
    if move == "0000":
        return None, None
    if not _MOVE.fullmatch(move):
        raise IllegalMoveError(f"the engine sent {line!r}: {move!r} is not a move")
    if legal is not None and move not in legal:
        raise IllegalMoveError(
            f"the engine sent {line!r}: {move} is not legal here (legal: {''.join(legal)})"
        )
    ponder = None
    if len(words) >= 4 and words[2] == "ponder" and _MOVE.fullmatch(words[3]):
        ponder = words[3]
    return move, ponder


class _Failed:
    """The reader's last event: why no more lines come."""

    def __init__(self, error: EngineError | None) -> None:
        self.error = error


class Engine:
    """A running engine, driven with asyncio. Made by `popen`; one call at a time (calls made
    together wait their turn)."""

    def __init__(self, process: asyncio.subprocess.Process, timeout: float) -> None:
        self._process = process
        #: The time each call may take beyond what its `Limit` allows (seconds).
        self.timeout = timeout
        #: What the engine said of itself (`id name`, `id author`).
        self.id: dict[str, str] = {}
        #: The options it announced, by name.
        self.options: dict[str, Option] = {}
        self._lines: asyncio.Queue[str | _Failed] = asyncio.Queue()
        self._lock = asyncio.Lock()
        self._requests = 0
        self._error: EngineError | None = None
        self._broken: EngineError | None = None
        self._variant = "oware"
        self._within = timeout
        self._reader = asyncio.get_running_loop().create_task(self._read())

    @property
    def pid(self) -> int:
        """The engine's process id (its process group's too)."""
        return self._process.pid

    @property
    def returncode(self) -> int | None:
        """Its exit status, once it has exited and been reaped."""
        return self._process.returncode

    async def _read(self) -> None:
        await self._read_lines()
        # Read on to the end, discarding: a pipe left full would keep the process's end from
        # being seen (asyncio waits for its pipes to close).
        stdout = self._process.stdout
        assert stdout is not None
        try:
            while await stdout.read(1 << 16):
                pass
        except (ValueError, OSError):
            pass

    async def _read_lines(self) -> None:
        # Read in chunks and cut them into lines here: a line at a time through the event loop
        # is too slow to tell a flood (20,000 lines in a second) from a busy machine.
        stdout = self._process.stdout
        assert stdout is not None
        request = self._requests
        window = time.monotonic()
        count = 0
        pending = b""
        while True:
            try:
                chunk = await stdout.read(1 << 16)
            except (ValueError, OSError) as e:
                self._broke(ProtocolError(f"the engine's output: {e}"))
                return
            if not chunk:
                if pending:
                    self._lines.put_nowait(pending.decode("utf-8", "replace").rstrip("\r"))
                self._lines.put_nowait(_Failed(None))
                return
            *lines, pending = (pending + chunk).split(b"\n")
            now = time.monotonic()
            for raw in lines:
                if len(raw) > MAX_LINE:
                    self._broke(ProtocolError(
                        f"the engine sent a line of {len(raw)} bytes (at most {MAX_LINE})"))
                    return
                if request != self._requests or now - window >= 1.0:
                    request, window, count = self._requests, now, 0
                count += 1
                if count > MAX_LINES_PER_SECOND:
                    self._broke(ProtocolError(
                        f"the engine flooded its output ({count} lines in a second)"))
                    return
                self._lines.put_nowait(raw.decode("utf-8", "replace").rstrip("\r"))
            if len(pending) > MAX_LINE:
                self._broke(ProtocolError(
                    f"the engine sent a line of more than {MAX_LINE} bytes"))
                return
            # A chunk already buffered is read without suspending: let the loop run between.
            await asyncio.sleep(0)

    def _broke(self, error: EngineError) -> None:
        """The reader's account of a broken engine: raised at the next read, before any line
        still queued (a flood's twenty thousand lines need not be read first)."""
        self._broken = error
        self._lines.put_nowait(_Failed(error))

    def _send(self, line: str) -> None:
        if self._error is not None:
            raise self._error
        stdin = self._process.stdin
        assert stdin is not None
        if stdin.is_closing():
            raise EngineTerminatedError("the engine's input is closed", self.returncode)
        self._requests += 1
        stdin.write(line.encode() + b"\n")

    async def _fail(self, error: EngineError) -> EngineError:
        """Ends the engine and remembers why: every later call raises the same error."""
        self._error = error
        await self._end(0.0)
        return error

    async def _next_line(self, deadline: float, waiting_for: str) -> str:
        if self._error is not None:
            raise self._error
        if self._broken is not None:
            raise await self._fail(self._broken)
        left = deadline - time.monotonic()
        try:
            if left <= 0:
                # An engine that writes on and on is late too, however fast its lines come.
                raise TimeoutError
            event = await asyncio.wait_for(self._lines.get(), left)
        except TimeoutError:
            raise await self._fail(EngineTimeoutError(
                f"the engine sent no {waiting_for} within {self._budget(deadline)}")) from None
        if isinstance(event, _Failed):
            if event.error is not None:
                raise await self._fail(event.error)
            try:
                await asyncio.wait_for(self._process.wait(), SETTLE)
            except TimeoutError:
                pass
            code = self._process.returncode
            how = "its output ended" if code is None else _exit_text(code)
            raise await self._fail(EngineTerminatedError(
                f"the engine exited ({how}) while the client waited for {waiting_for}", code))
        return event

    def _budget(self, deadline: float) -> str:
        return f"the {self._within:.3g} s allowed"

    def _deadline(self, within: float) -> float:
        self._within = within
        return time.monotonic() + within

    async def _until(self, word: str, deadline: float,
                     other: list[str] | None = None) -> str:
        """Lines up to the first whose first word is `word`; the others go to `other`."""
        while True:
            line = await self._next_line(deadline, word)
            if line.split()[:1] == [word]:
                return line
            if other is not None:
                other.append(line)

    async def _ready(self, deadline: float, after: str) -> None:
        """`isready` and every line up to `readyok`; an `info string error` before it means
        the engine refused what was sent (`after`)."""
        self._send("isready")
        other: list[str] = []
        await self._until("readyok", deadline, other)
        for line in other:
            if line.startswith("info string error"):
                raise ProtocolError(f"the engine refused {after!r}: {line!r}")

    async def _handshake(self) -> None:
        deadline = self._deadline(self.timeout)
        self._send("uci")
        other: list[str] = []
        await self._until("uciok", deadline, other)
        for line in other:
            words = line.split()
            if words[:1] == ["id"] and len(words) >= 2:
                self.id[words[1]] = " ".join(words[2:])
            option = Option.parse(line) if words[:1] == ["option"] else None
            if option is not None:
                self.options[option.name] = option
        variant = self.options.get("UCI_Variant")
        if variant is not None and variant.default:
            self._variant = variant.default

    async def ping(self, *, timeout: float | None = None) -> None:
        """`isready`, answered `readyok`: the engine has done everything sent before."""
        async with self._lock:
            await self._ready(self._deadline(timeout or self.timeout), "isready")

    async def configure(self, options: Mapping[str, str | int | bool | None], *,
                        timeout: float | None = None) -> None:
        """Sets options, each checked against the engine's `option` line first (all of them
        before any is sent), then waits for `readyok`."""
        lines = []
        for name, value in options.items():
            option = self.options.get(name)
            if option is None:
                known = ", ".join(sorted(self.options)) or "none"
                raise OptionError(f"the engine has no option {name!r} (it has: {known})")
            text = option.check(value)
            lines.append(f"setoption name {name}" + ("" if text is None else f" value {text}"))
        async with self._lock:
            deadline = self._deadline(timeout or self.timeout)
            for line in lines:
                self._send(line)
            await self._ready(deadline, "; ".join(lines))
            for name, value in options.items():
                if name == "UCI_Variant":
                    self._variant = str(value)

    async def ucinewgame(self, *, timeout: float | None = None) -> None:
        """`ucinewgame` (a new game: the engine's table emptied), then `readyok`."""
        async with self._lock:
            deadline = self._deadline(timeout or self.timeout)
            self._send("ucinewgame")
            await self._ready(deadline, "ucinewgame")

    async def _set_position(self, position: Position, deadline: float,
                            multipv: int | None) -> None:
        sent = []
        if position.variant != self._variant:
            if "UCI_Variant" in self.options:
                self.options["UCI_Variant"].check(position.variant)
            sent.append(f"setoption name UCI_Variant value {position.variant}")
        if multipv is not None:
            if "MultiPV" not in self.options:
                raise OptionError("the engine has no option 'MultiPV'")
            sent.append(f"setoption name MultiPV value {self.options['MultiPV'].check(multipv)}")
        sent.append(position.command())
        for line in sent:
            self._send(line)
        await self._ready(deadline, "; ".join(sent))
        self._variant = position.variant

    async def _restore_multipv(self, deadline: float) -> None:
        option = self.options["MultiPV"]
        self._send(f"setoption name MultiPV value {option.default or 1}")
        await self._ready(deadline, "setoption name MultiPV")

    async def _search(self, position: Position, limit: Limit, multipv: int | None,
                      timeout: float | None, legal: Sequence[str] | None,
                      ) -> tuple[PlayResult, dict[int, InfoDict]]:
        async with self._lock:
            deadline = self._deadline((timeout or self.timeout) + limit.longest())
            await self._set_position(position, deadline, multipv)
            self._send(f"go {limit.arguments()}")
            lines: dict[int, InfoDict] = {}
            while True:
                line = await self._next_line(deadline, "bestmove")
                words = line.split()
                if words[:1] == ["info"]:
                    info = parse_info(line)
                    if "string" not in info and ("depth" in info or "score" in info or "pv" in info):
                        lines[info.get("multipv", 1)] = info
                elif words[:1] == ["bestmove"]:
                    move, ponder = _parse_bestmove(line, legal)
                    break
            if multipv is not None:
                await self._restore_multipv(deadline)
            return PlayResult(move, ponder, lines.get(1, {})), lines

    async def play(self, position: Position, limit: Limit, *, timeout: float | None = None,
                   legal: Sequence[str] | None = None) -> PlayResult:
        """The engine's move in `position`. `timeout` (default `self.timeout`) is added to the
        time the limit allows; `legal`, when given (see `legal_moves`), is the moves the
        answer must be one of."""
        result, _ = await self._search(position, limit, None, timeout, legal)
        return result

    async def analyse(self, position: Position, limit: Limit, *, multipv: int | None = None,
                      timeout: float | None = None) -> InfoDict | list[InfoDict]:
        """The last info of a search: one `InfoDict`, or with `multipv` a list of the last
        line for each of the best `multipv` moves, best first (`MultiPV` is set for the
        search and set back to its default after)."""
        _, lines = await self._search(position, limit, multipv, timeout, None)
        if multipv is None:
            return lines.get(1, {})
        return [lines[k] for k in sorted(lines)]

    async def analysis(self, position: Position, limit: Limit | None = None, *,
                       multipv: int | None = None, timeout: float | None = None,
                       ) -> AnalysisResult:
        """Starts a search (without a limit: until `stop`) whose infos can be read as they come
        (`async for info in result`); `stop()` ends it and the engine answers `readyok` before
        the next call."""
        await self._lock.acquire()
        try:
            limit = limit or Limit()
            deadline = self._deadline(timeout or self.timeout)
            await self._set_position(position, deadline, multipv)
            self._send(f"go {limit.arguments()}")
        except BaseException:
            self._lock.release()
            raise
        return AnalysisResult(self, multipv is not None, timeout or self.timeout, limit)

    async def legal_moves(self, position: Position, *, timeout: float | None = None,
                          ) -> list[str]:
        """The legal moves of `position` as the engine counts them (`go perft 1`'s lines):
        the awari engine answers it; an engine without perft answers nothing, and this times
        out."""
        async with self._lock:
            deadline = self._deadline(timeout or self.timeout)
            await self._set_position(position, deadline, None)
            self._send("go perft 1")
            other: list[str] = []
            await self._until("total", deadline, other)
            return [w[0] for w in (line.split() for line in other)
                    if len(w) == 2 and _MOVE.fullmatch(w[0]) and w[1].isdigit()]

    async def quit(self, grace: float = 1.0) -> int | None:
        """`quit`, up to `grace` seconds to exit, then SIGKILL to the engine's process group;
        returns its exit status."""
        async with self._lock:
            await self._end(grace)
            if self._error is None:
                self._error = EngineTerminatedError("the engine has been ended", self.returncode)
            return self.returncode

    async def _end(self, grace: float) -> None:
        stdin = self._process.stdin
        if stdin is not None and not stdin.is_closing():
            try:
                stdin.write(b"quit\n")
                stdin.close()
            except (OSError, RuntimeError):
                pass
        try:
            await asyncio.wait_for(self._process.wait(), grace)
        except TimeoutError:
            pass
        try:
            os.killpg(self._process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        await self._process.wait()
        try:
            await asyncio.wait_for(self._reader, SETTLE)
        except (TimeoutError, asyncio.CancelledError, Exception):
            pass

    async def __aenter__(self) -> Engine:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        await self.quit()


class AnalysisResult:
    """A running search's infos, read as they come (`async for`); ended by `stop()` or its
    limit. After it the engine has answered `readyok` and takes the next call."""

    def __init__(self, engine: Engine, multi: bool, timeout: float, limit: Limit) -> None:
        self._engine = engine
        self._multi = multi
        self._timeout = timeout
        self._limit = limit
        self._done = False
        self._stopped = False
        self._started = time.monotonic()
        self._stopped_at: float | None = None
        #: The latest info of each line, by its number (1 is the best).
        self.multipv: dict[int, InfoDict] = {}
        #: The search's answer, once it has ended.
        self.result: PlayResult | None = None

    @property
    def info(self) -> InfoDict:
        """The latest info of line 1."""
        return self.multipv.get(1, {})

    def _deadline(self) -> float:
        # One deadline for the whole search, not one per line (an engine that writes on and
        # on is late too): its limit's time and the timeout from its start; a search without
        # a limit runs until stopped, then has the timeout to answer.
        if self._stopped_at is not None:
            budget, start = self._timeout, self._stopped_at
        elif self._limit.arguments() != "infinite":
            budget, start = self._timeout + self._limit.longest(), self._started
        else:
            return time.monotonic() + 365 * 24 * 3600.0
        self._engine._within = budget
        return start + budget

    async def next(self) -> InfoDict | None:
        """The next info line, or None once the search has ended."""
        if self._done:
            return None
        deadline = self._deadline()
        try:
            while True:
                line = await self._engine._next_line(deadline, "bestmove")
                words = line.split()
                if words[:1] == ["info"]:
                    info = parse_info(line)
                    if "string" not in info and ("depth" in info or "score" in info or "pv" in info):
                        self.multipv[info.get("multipv", 1)] = info
                    return info
                if words[:1] == ["bestmove"]:
                    move, ponder = _parse_bestmove(line, None)
                    self.result = PlayResult(move, ponder, self.info)
                    ready = self._engine._deadline(self._timeout)
                    if self._multi:
                        await self._engine._restore_multipv(ready)
                    else:
                        await self._engine._ready(ready, "stop")
                    self._finish()
                    return None
        except BaseException:
            self._finish()
            raise

    def _finish(self) -> None:
        if not self._done:
            self._done = True
            self._engine._lock.release()

    def stop(self) -> None:
        """Asks the search to end (`stop`); its remaining infos and answer can still be read,
        and `wait` reads them."""
        if not self._done and not self._stopped:
            self._stopped = True
            self._stopped_at = time.monotonic()
            self._engine._send("stop")

    async def wait(self) -> PlayResult:
        """Reads on to the end of the search; its answer."""
        while await self.next() is not None:
            pass
        if self.result is None:
            raise EngineError("the search ended without an answer")
        return self.result

    def __aiter__(self) -> AsyncIterator[InfoDict]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[InfoDict]:
        while (info := await self.next()) is not None:
            yield info

    async def __aenter__(self) -> AnalysisResult:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        if not self._done:
            self.stop()
            await self.wait()


def _exit_text(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"status {code}"


async def popen(path: str | os.PathLike[str], *args: str, timeout: float = 10.0,
                env: Mapping[str, str] | None = None, stderr: int | None = None) -> Engine:
    """Starts the engine at `path` with `args` in a process group of its own and does the
    handshake (`uci` ... `uciok` within `timeout` seconds, also each later call's default).
    Its stderr is the caller's unless `stderr` says otherwise (`asyncio.subprocess.DEVNULL`)."""
    try:
        process = await asyncio.create_subprocess_exec(
            os.fspath(path), *args,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=stderr,
            env=None if env is None else dict(env), start_new_session=True,
            limit=MAX_LINE + 1,
        )
    except OSError as e:
        raise EngineError(f"could not start {os.fspath(path)!r}: {e.strerror or e}") from None
    engine = Engine(process, timeout)
    try:
        await engine._handshake()
    except BaseException as e:
        await engine._end(0.0)
        if isinstance(e, EngineError):
            raise type(e)(f"at the handshake: {e}", *(
                [e.returncode] if isinstance(e, EngineTerminatedError) else [])) from None
        raise
    return engine


T = TypeVar("T")


class SimpleEngine:
    """An engine driven by blocking calls: the asyncio `Engine` on an event loop of its own,
    in a background thread. `with SimpleEngine.popen(path) as engine:` quits it at the end."""

    def __init__(self, engine: Engine, loop: asyncio.AbstractEventLoop,
                 thread: threading.Thread) -> None:
        self.engine = engine
        self._loop = loop
        self._thread = thread

    @classmethod
    def popen(cls, path: str | os.PathLike[str], *args: str, timeout: float = 10.0,
              env: Mapping[str, str] | None = None, stderr: int | None = None) -> SimpleEngine:
        """Starts an engine as `awari.engine.popen` does."""
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="awari-engine", daemon=True)
        thread.start()
        try:
            engine = asyncio.run_coroutine_threadsafe(
                popen(path, *args, timeout=timeout, env=env, stderr=stderr), loop).result()
        except BaseException:
            loop.call_soon_threadsafe(loop.stop)
            thread.join()
            loop.close()
            raise
        return cls(engine, loop, thread)

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        if self._loop.is_closed():
            coroutine.close()
            raise EngineTerminatedError("the engine has been closed")
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    @property
    def id(self) -> dict[str, str]:
        """What the engine said of itself."""
        return self.engine.id

    @property
    def options(self) -> dict[str, Option]:
        """The options it announced."""
        return self.engine.options

    @property
    def pid(self) -> int:
        """Its process id."""
        return self.engine.pid

    def ping(self, *, timeout: float | None = None) -> None:
        """See `Engine.ping`."""
        self._run(self.engine.ping(timeout=timeout))

    def configure(self, options: Mapping[str, str | int | bool | None], *,
                  timeout: float | None = None) -> None:
        """See `Engine.configure`."""
        self._run(self.engine.configure(options, timeout=timeout))

    def ucinewgame(self, *, timeout: float | None = None) -> None:
        """See `Engine.ucinewgame`."""
        self._run(self.engine.ucinewgame(timeout=timeout))

    def play(self, position: Position, limit: Limit, *, timeout: float | None = None,
             legal: Sequence[str] | None = None) -> PlayResult:
        """See `Engine.play`."""
        return self._run(self.engine.play(position, limit, timeout=timeout, legal=legal))

    def analyse(self, position: Position, limit: Limit, *, multipv: int | None = None,
                timeout: float | None = None) -> InfoDict | list[InfoDict]:
        """See `Engine.analyse`."""
        return self._run(self.engine.analyse(position, limit, multipv=multipv, timeout=timeout))

    def analysis(self, position: Position, limit: Limit | None = None, *,
                 multipv: int | None = None, timeout: float | None = None,
                 ) -> SimpleAnalysisResult:
        """See `Engine.analysis`; iterate over the result, `stop()` it or leave its `with`."""
        inner = self._run(self.engine.analysis(position, limit, multipv=multipv,
                                               timeout=timeout))
        return SimpleAnalysisResult(self, inner)

    def legal_moves(self, position: Position, *, timeout: float | None = None) -> list[str]:
        """See `Engine.legal_moves`."""
        return self._run(self.engine.legal_moves(position, timeout=timeout))

    def quit(self, grace: float = 1.0) -> int | None:
        """Ends the engine (see `Engine.quit`) and the background loop; returns its exit
        status."""
        if self._loop.is_closed():
            return self.engine.returncode
        try:
            return self._run(self.engine.quit(grace))
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
            self._loop.close()

    close = quit

    def __enter__(self) -> SimpleEngine:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.quit()


class SimpleAnalysisResult:
    """`AnalysisResult` for blocking calls: iterate over it for the infos; `stop()`."""

    def __init__(self, simple: SimpleEngine, inner: AnalysisResult) -> None:
        self._simple = simple
        self._inner = inner

    @property
    def info(self) -> InfoDict:
        """The latest info of line 1."""
        return self._inner.info

    @property
    def multipv(self) -> list[InfoDict]:
        """The latest info of each line, best first."""
        return [self._inner.multipv[k] for k in sorted(self._inner.multipv)]

    def next(self) -> InfoDict | None:
        """The next info, or None once the search has ended."""
        return self._simple._run(self._inner.next())

    def stop(self) -> None:
        """Asks the search to end."""
        self._simple._loop.call_soon_threadsafe(self._inner.stop)

    def wait(self) -> PlayResult:
        """Reads on to the end; the search's answer."""
        return self._simple._run(self._inner.wait())

    def __iter__(self) -> Iterator[InfoDict]:
        while (info := self.next()) is not None:
            yield info

    def __enter__(self) -> SimpleAnalysisResult:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        async def end() -> None:
            if not self._inner._done:
                self._inner.stop()
                await self._inner.wait()
        self._simple._run(end())

