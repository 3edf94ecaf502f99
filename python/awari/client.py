"""The asyncio client: an engine as a child process in a process group of its own (`popen`),
spoken to over pipes (`Engine`), its searches read as they come (`AnalysisResult`).

The contract is the Rust client's (doc/pipes.md): a line longer than `MAX_LINE` bytes, or more
than `MAX_LINES_PER_SECOND` lines within a second of one request, ends the engine with
`ProtocolError`; an engine whose output ends raises `EngineTerminatedError` with its exit
status; a late answer raises `EngineTimeoutError` and ends the engine (an engine that missed
its deadline cannot be trusted to answer in order).
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from types import TracebackType
from typing import overload

from awari.errors import (
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    OptionError,
    ProtocolError,
)
from awari.limit import Limit
from awari.options import Option
from awari._native import Board
from awari.position import MOVE, PositionLike, as_position
from awari.processes import Descendants
from awari.reply import InfoDict, PlayResult, parse_bestmove, parse_info

__all__ = [
    "MAX_LINE",
    "MAX_LINES_PER_SECOND",
    "SETTLE",
    "AnalysisResult",
    "Engine",
    "popen",
]

#: Longest line an engine may send, in bytes (the Rust client's `OutputLimits::max_line`).
MAX_LINE = 64 << 10
#: Most lines an engine may send within a second of one request (`max_lines_per_second`).
MAX_LINES_PER_SECOND = 20_000
#: How long an engine whose output ended has to exit before it is reported without a status
#: (seconds).
SETTLE = 0.2


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
        self._processes = Descendants(process.pid)
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

    async def _set_position(self, position: PositionLike, deadline: float,
                            multipv: int | None) -> None:
        position = as_position(position)
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

    async def _search(self, position: PositionLike, limit: Limit, multipv: int | None,
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
                    move, ponder = parse_bestmove(line, legal)
                    break
            if multipv is not None:
                await self._restore_multipv(deadline)
            return PlayResult(move, ponder, lines.get(1, {})), lines

    async def play(self, position: PositionLike, limit: Limit, *, timeout: float | None = None,
                   legal: Sequence[str] | None = None) -> PlayResult:
        """The engine's move in `position`. `timeout` (default `self.timeout`) is added to the
        time the limit allows; `legal` is the moves the answer must be one of: by default, for
        a `Board`, its legal moves (see also `legal_moves`)."""
        if legal is None and isinstance(position, Board):
            legal = position.legal_moves
        result, _ = await self._search(position, limit, None, timeout, legal)
        return result

    # Typed apart, so that a caller's checker knows which one it gets: without `multipv` one
    # InfoDict, with a number a list.
    @overload
    async def analyse(self, position: PositionLike, limit: Limit, *, multipv: None = None,
                      timeout: float | None = None) -> InfoDict: ...

    @overload
    async def analyse(self, position: PositionLike, limit: Limit, *, multipv: int,
                      timeout: float | None = None) -> list[InfoDict]: ...

    @overload
    async def analyse(self, position: PositionLike, limit: Limit, *, multipv: int | None = None,
                      timeout: float | None = None) -> InfoDict | list[InfoDict]: ...

    async def analyse(self, position: PositionLike, limit: Limit, *, multipv: int | None = None,
                      timeout: float | None = None) -> InfoDict | list[InfoDict]:
        """The last info of a search: one `InfoDict`, or with `multipv` a list of the last
        line for each of the best `multipv` moves, best first (`MultiPV` is set for the
        search and set back to its default after)."""
        _, lines = await self._search(position, limit, multipv, timeout, None)
        if multipv is None:
            return lines.get(1, {})
        return [lines[k] for k in sorted(lines)]

    async def analysis(self, position: PositionLike, limit: Limit | None = None, *,
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

    async def legal_moves(self, position: PositionLike, *, timeout: float | None = None,
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
                    if len(w) == 2 and MOVE.fullmatch(w[0]) and w[1].isdigit()]

    async def quit(self, grace: float = 1.0) -> int | None:
        """`quit`, up to `grace` seconds to exit, then SIGKILL to the engine's process group
        and every descendant that left it (see `awari.processes`); returns its exit status."""
        async with self._lock:
            await self._end(grace)
            if self._error is None:
                self._error = EngineTerminatedError("the engine has been ended", self.returncode)
            return self.returncode

    async def _end(self, grace: float) -> None:
        # Its descendants recorded while it runs: once it exits, those it orphaned can no
        # longer be found from it.
        self._processes.look()
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
        self._processes.kill()
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
                    move, ponder = parse_bestmove(line, None)
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
