"""The asyncio client: an engine as a child process in a process group of its own (`popen`),
spoken to over pipes (`Engine`), its searches read as they come (`AnalysisResult`).

One reader takes every line the engine writes and hands it to the exchange in progress
(`awari.commands`): a call that is cancelled or runs out of time leaves its exchange in place,
told to end (`stop` for a search), and the next call waits for that exchange's answer before it
sends anything, or ends the engine if the answer does not come within the engine's `timeout`.
An analysis holds the engine until it ends; any other call stops it first, and so do leaving
its loop (`break`, an exception), leaving its `with`, and dropping it.

The contract is the Rust client's (doc/pipes.md): a line longer than `MAX_LINE` bytes, or more
than `MAX_LINES_PER_SECOND` lines within a second of one request, ends the engine with
`ProtocolError`; an engine whose output ends raises `EngineTerminatedError` with its exit
status; a late answer raises `EngineTimeoutError` and ends the engine (an engine that missed
its deadline cannot be trusted to answer in order). Every line sent and read is logged at
DEBUG on the `awari.engine` logger.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any, Optional, Union, overload

from awari._native import Board
from awari.binary import engine_path
from awari.analysis import AnalysisResult
from awari.commands import Command, Handshake, Perft, Ready, Search, select
from awari.errors import (
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    OptionError,
    ProtocolError,
)
from awari.limit import Limit
from awari.options import CaseInsensitiveDict, Option
from awari.position import MOVE, Position, PositionLike, as_position, turn_of
from awari.reply import Info, InfoDict, PlayResult
from awari.processes import Descendants

__all__ = [
    "MAX_LINE",
    "MAX_LINES_PER_SECOND",
    "SETTLE",
    "AnalysisResult",
    "Engine",
    "popen",
    "popen_uci",
]

LOGGER = logging.getLogger("awari.engine")

#: Longest line an engine may send, in bytes (the Rust client's `OutputLimits::max_line`).
MAX_LINE = 64 << 10
#: Most lines an engine may send within a second of one request (`max_lines_per_second`).
MAX_LINES_PER_SECOND = 20_000
#: How long an engine whose output ended has to exit before it is reported without a status
#: (seconds).
SETTLE = 0.2

OptionValue = Union[str, int, bool, None]
CommandLine = Union[str, Sequence[str]]


class Engine:
    """A running engine, driven with asyncio. Made by `popen`; one call at a time (calls made
    together wait their turn, each within its own time)."""

    def __init__(self, process: asyncio.subprocess.Process, timeout: float) -> None:
        self._process = process
        #: The time each call may take beyond what its `Limit` allows (seconds); also how long
        #: an earlier search has to answer `stop` before the engine is ended.
        self.timeout = timeout
        #: What the engine said of itself (`id name`, `id author`).
        self.id: dict[str, str] = {}
        #: The options it announced, by name (found whatever the case).
        self.options: CaseInsensitiveDict[Option] = CaseInsensitiveDict()
        self._lock = asyncio.Lock()
        self._command: Optional[Command] = None
        self._requests = 0
        self._error: Optional[EngineError] = None
        self._values: dict[str, Optional[str]] = {}
        #: The options that hold a value (not buttons), by lower-case name.
        self._settable: list[tuple[str, Option]] = []
        self._config: dict[str, Optional[str]] = {}
        self._variant = "oware"
        self._game: object = None
        self._ending: Optional[asyncio.Task[None]] = None
        self._processes = Descendants(process.pid)
        self._reader = asyncio.get_running_loop().create_task(self._read())

    def __repr__(self) -> str:
        return f"<Engine (pid={self.pid})>"

    @property
    def pid(self) -> int:
        """The engine's process id (its process group's too)."""
        return self._process.pid

    @property
    def returncode(self) -> Optional[int]:
        """Its exit status, once it has exited and been reaped."""
        return self._process.returncode

    # The reader: every line to the exchange in progress.

    async def _read(self) -> None:
        try:
            try:
                await self._read_lines()
            except Exception as e:  # noqa: BLE001 - a reader that dies would hang every call
                self._broke(EngineError(f"the client could not read the engine's output: {e!r}"))
            # Read on to the end, discarding: a pipe left full would keep the process's end
            # from being seen (asyncio waits for its pipes to close).
            stdout = self._process.stdout
            assert stdout is not None
            try:
                while await stdout.read(1 << 16):
                    pass
            except (ValueError, OSError):
                pass
        except asyncio.CancelledError:
            # The event loop is closing with the engine still running: end it now, and close
            # its pipes while the loop still runs.
            self._processes.kill()
            self._close_pipes()
            raise

    async def _read_lines(self) -> None:
        # Read in chunks and cut them into lines here: a line at a time through the event loop
        # is too slow to tell a flood (20,000 lines in a second) from a busy machine.
        stdout = self._process.stdout
        assert stdout is not None
        request = self._requests
        window = time.monotonic()
        count = 0
        pending = b""
        while self._error is None:
            try:
                chunk = await stdout.read(1 << 16)
            except (ValueError, OSError) as e:
                self._broke(ProtocolError(f"the engine's output: {e}"))
                return
            if not chunk:
                if pending:
                    self._dispatch(pending.decode("utf-8", "replace").rstrip("\r"))
                await self._ended()
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
                self._dispatch(raw.decode("utf-8", "replace").rstrip("\r"))
                if self._error is not None:
                    return
            if len(pending) > MAX_LINE:
                self._broke(ProtocolError(
                    f"the engine sent a line of more than {MAX_LINE} bytes"))
                return
            # A chunk already buffered is read without suspending: let the loop run between.
            await asyncio.sleep(0)

    def _dispatch(self, line: str) -> None:
        LOGGER.debug("%r: >> %s", self, line)
        command = self._command
        if command is not None and command.open:
            command.feed(line, line.split())

    async def _ended(self) -> None:
        """The engine's output ended: its exit status, if it comes soon, for the error."""
        waiting = asyncio.ensure_future(self._process.wait())
        await asyncio.wait({waiting}, timeout=SETTLE)
        if not waiting.done():
            waiting.cancel()
        code = self._process.returncode
        how = "its output ended" if code is None else _exit_text(code)
        error = EngineTerminatedError(f"the engine exited ({how})", code)
        if self._error is None:
            self._error = error
        if self._command is not None:
            self._command.finish(error)

    def _broke(self, error: EngineError) -> None:
        """The engine can no longer be read: ended now, and every call raises `error`."""
        if self._error is None:
            self._error = error
        if self._command is not None:
            self._command.finish(error)
        self._processes.look()
        self._processes.kill()

    # Writing, and waiting for answers.

    def _send(self, line: str) -> None:
        if "\n" in line or "\r" in line:
            raise ValueError(f"a line break in {line!r}: nothing was sent")
        if self._error is not None:
            raise self._error
        stdin = self._process.stdin
        assert stdin is not None
        if stdin.is_closing():
            raise EngineTerminatedError("the engine's input is closed", self.returncode)
        LOGGER.debug("%r: << %s", self, line)
        self._requests += 1
        stdin.write(line.encode() + b"\n")

    def _start(self, command: Command, *lines: str) -> None:
        """Sends `lines` as the exchange `command`, which the reader then feeds."""
        self._command = command
        for line in lines:
            self._send(line)

    async def _fail(self, error: EngineError) -> EngineError:
        """Ends the engine and remembers why: every later call raises the same error."""
        if self._error is None:
            self._error = error
        if self._command is not None:
            self._command.finish(self._error)
        await self._end_once(0.0)
        return self._error

    async def _answer(self, command: Command, deadline: Optional[float],
                      waiting_for: str) -> None:
        """Until `command`'s answer; a late one ends the engine. A cancelled caller leaves the
        exchange told to end (`stop`), for the next call to wait out."""
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            await asyncio.wait({command.done}, timeout=left)
        except asyncio.CancelledError:
            command.abandon()
            raise
        if not command.finished:
            raise await self._fail(EngineTimeoutError(
                f"the engine sent no {waiting_for} within the time allowed"))
        if command.error is not None:
            if self._error is not None:
                # The engine is gone or can no longer be trusted: ended and reaped.
                await self._end_once(0.0)
            raise command.error

    async def _turn(self, deadline: Optional[float]) -> None:
        """This call's turn: the lock (waited for within `deadline`), then the end of the
        exchange before it (a search still running is stopped first)."""
        if self._error is not None:
            raise self._error
        if self._lock.locked():
            await self._wait_for_lock(deadline)
        else:
            # Free: taken at once, with no task to wait on (the common case).
            await self._lock.acquire()
        try:
            await self._settle(deadline)
        except BaseException:
            self._lock.release()
            raise

    async def _wait_for_lock(self, deadline: Optional[float]) -> None:
        """The lock, held by another call, waited for within `deadline`."""
        acquiring = asyncio.ensure_future(self._lock.acquire())
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            await asyncio.wait({acquiring}, timeout=left)
        except BaseException:
            _abandon(acquiring, self._lock)
            raise
        if not acquiring.done():
            _abandon(acquiring, self._lock)
            raise EngineTimeoutError(
                "another call held the engine for all the time allowed (the engine is left "
                "as it was)")

    async def _settle(self, deadline: Optional[float]) -> None:
        """Until the exchange before this call is closed: a search still running, or one whose
        caller has its answer already (cancelled, refused), is sent `stop` and its `bestmove`
        read away, so that it is never taken for this call's answer."""
        previous = self._command
        if previous is None or not previous.open:
            return
        previous.abandon()
        grace = time.monotonic() + self.timeout
        until = grace if deadline is None else min(deadline, grace)
        await asyncio.wait({previous.closed}, timeout=max(0.0, until - time.monotonic()))
        if previous.open:
            raise await self._fail(EngineTimeoutError(
                "the engine sent no answer to `stop` (an earlier "
                f"{type(previous).__name__.lower()}) within the time allowed"))
        if self._error is not None:
            # The engine is gone or can no longer be trusted: ended and reaped.
            await self._end_once(0.0)
            raise self._error

    def _deadline(self, timeout: Optional[float]) -> float:
        return time.monotonic() + (self.timeout if timeout is None else timeout)

    async def _ready(self, deadline: Optional[float], *lines: str) -> None:
        """`lines`, then `isready` and every line up to `readyok`; an `info string error`
        before it means the engine refused what was sent."""
        command = Ready()
        self._start(command, *lines, "isready")
        await self._answer(command, deadline, "readyok")
        if command.refusal is not None:
            what = "; ".join(lines) or "isready"
            raise ProtocolError(f"the engine refused {what!r}: {command.refusal!r}")

    async def _handshake(self) -> None:
        command = Handshake()
        self._start(command, "uci")
        await self._answer(command, self._deadline(None), "uciok")
        self.id = command.id
        for option in command.options:
            self.options[option.name] = option
            if option.type != "button":
                self._values[option.name.lower()] = option.default
                self._settable.append((option.name.lower(), option))
        variant = self.options.get("UCI_Variant")
        if variant is not None and variant.default:
            self._variant = variant.default

    # The calls.

    async def ping(self, *, timeout: Optional[float] = None) -> None:
        """`isready`, answered `readyok`: the engine has done everything sent before."""
        deadline = self._deadline(timeout)
        await self._turn(deadline)
        try:
            await self._ready(deadline)
        finally:
            self._lock.release()

    def _checked(self, options: Mapping[str, OptionValue]) -> list[tuple[Option, Optional[str]]]:
        """Each option found (whatever its case) and its value checked, before any is sent."""
        checked = []
        for name, value in options.items():
            option = self.options.get(name)
            if option is None:
                known = ", ".join(sorted(self.options)) or "none"
                raise OptionError(f"the engine has no option {name!r} (it has: {known})")
            checked.append((option, option.check(value)))
        return checked

    async def configure(self, options: Mapping[str, OptionValue], *,
                        timeout: Optional[float] = None) -> None:
        """Sets options, each checked against the engine's `option` line first (all of them
        before any is sent; names in any case), then waits for `readyok`. They stay set for
        every later call."""
        deadline = self._deadline(timeout)
        checked = self._checked(options)
        await self._turn(deadline)
        try:
            lines = []
            for option, text in checked:
                lines.append(_setoption(option, text))
                if option.type != "button":
                    self._config[option.name.lower()] = text
                    self._values[option.name.lower()] = text
                if option.name.lower() == "uci_variant":
                    self._variant = str(text)
            await self._ready(deadline, *lines)
        finally:
            self._lock.release()

    async def ucinewgame(self, *, timeout: Optional[float] = None) -> None:
        """`ucinewgame` (a new game: the engine's table emptied), then `readyok`."""
        deadline = self._deadline(timeout)
        await self._turn(deadline)
        try:
            await self._ready(deadline, "ucinewgame")
        finally:
            self._lock.release()

    def _option_lines(self, position: Position, temporary: Mapping[str, Optional[str]],
                      ) -> list[str]:
        """The `setoption` lines that give the engine the values this search wants: the
        configured ones, the call's own (`temporary`, by lower-case name) and the position's
        rule set; a value a call set for itself alone is set back."""
        lines = []
        for key, option in self._settable:
            current = self._values[key]
            want = temporary.get(key, self._config.get(key, option.default))
            if key == "uci_variant":
                want = option.check(position.variant)
            if want != current:
                lines.append(_setoption(option, want))
                self._values[key] = want
        if "UCI_Variant" not in self.options and position.variant != self._variant:
            lines.append(f"setoption name UCI_Variant value {position.variant}")
        self._variant = position.variant
        return lines

    async def _go(self, position: PositionLike, limit: Limit, *, timeout: Optional[float],
                  multipv: Optional[int], root_moves: Optional[Sequence[str]],
                  options: Optional[Mapping[str, OptionValue]], game: object, info: Info,
                  legal: Optional[Sequence[str]], queued: bool,
                  ) -> tuple[Search, Optional[float]]:
        """Starts a search within this call's turn (the caller releases the lock): the
        options it needs, the position and `isready`, then `go`. Returns the search and its
        deadline (None: a search limited by depth, nodes or nothing, and no `timeout`)."""
        start = time.monotonic()
        setup = start + (self.timeout if timeout is None else timeout)
        deadline = None
        if timeout is not None or limit.timed():
            deadline = setup + limit.longest()
        if legal is None and isinstance(position, Board):
            legal = position.legal_moves
        if root_moves is not None:
            for move in root_moves:
                if not MOVE.fullmatch(move):
                    raise ValueError(f"root_moves: not a move: {move!r}")
            legal = [m for m in root_moves if legal is None or m in legal]
        temporary = {option.name.lower(): text
                     for option, text in self._checked(dict(options or {}))}
        if multipv is not None:
            if "MultiPV" not in self.options:
                raise OptionError("the engine has no option 'MultiPV'")
            temporary["multipv"] = self.options["MultiPV"].check(multipv)
        sent = as_position(position)
        if "UCI_Variant" in self.options:
            self.options["UCI_Variant"].check(sent.variant)
        words = limit.arguments()
        if root_moves is not None:
            words = f"{words} searchmoves {' '.join(root_moves)}"
        search = Search(self._send, self._broke, turn=turn_of(sent), selected=info,
                        legal=legal, queued=queued)
        await self._turn(setup)
        try:
            if game is not None and game is not self._game:
                self._game = game
                await self._ready(setup, "ucinewgame")
            await self._ready(setup, *self._option_lines(sent, temporary), sent.command())
            self._start(search, f"go {words}")
        except BaseException:
            self._lock.release()
            raise
        return search, deadline

    async def _search(self, position: PositionLike, limit: Limit, *, timeout: Optional[float],
                      multipv: Optional[int], root_moves: Optional[Sequence[str]],
                      options: Optional[Mapping[str, OptionValue]], game: object, info: Info,
                      legal: Optional[Sequence[str]]) -> Search:
        search, deadline = await self._go(
            position, limit, timeout=timeout, multipv=multipv, root_moves=root_moves,
            options=options, game=game, info=info, legal=legal, queued=False)
        try:
            await self._answer(search, deadline, "bestmove")
        finally:
            self._lock.release()
        return search

    async def play(self, position: PositionLike, limit: Limit, *, game: object = None,
                   info: Info = Info.ALL, ponder: bool = False,
                   root_moves: Optional[Sequence[str]] = None,
                   options: Optional[Mapping[str, OptionValue]] = None,
                   timeout: Optional[float] = None,
                   legal: Optional[Sequence[str]] = None) -> PlayResult:
        """The engine's move in `position`, checked against `legal` (by default, for a
        `Board`, its legal moves) and `root_moves` (sent as `searchmoves`). `options` are set
        for this search alone; `game`, when it differs from the last call's, sends
        `ucinewgame` first; `info` says which fields `result.info` keeps. With `ponder` the
        engine goes on searching the expected reply (`go ponder`) until the next call.
        `timeout` is added to the time the limit allows; a search limited only by depth,
        nodes or nothing has no deadline unless `timeout` is given."""
        search = await self._search(position, limit, timeout=timeout, multipv=None,
                                    root_moves=root_moves, options=options, game=game,
                                    info=info, legal=legal)
        assert search.result is not None
        result = search.result
        if ponder and result.move is not None and result.ponder is not None:
            await self._ponder(as_position(position).push(result.move).push(result.ponder),
                               limit)
        return result

    async def _ponder(self, position: Position, limit: Limit) -> None:
        """`go ponder` on the position after the expected reply: a search that the next call
        stops."""
        await self._turn(self._deadline(None))
        try:
            self._variant = position.variant
            search = Search(self._send, self._broke, turn=turn_of(position), selected=Info.NONE,
                            legal=None, queued=False)
            self._start(search, position.command(), f"go ponder {limit.arguments()}")
        finally:
            self._lock.release()

    # Typed apart, so that a caller's checker knows which one it gets: without `multipv` one
    # InfoDict, with a number a list.
    @overload
    async def analyse(self, position: PositionLike, limit: Limit, *, multipv: None = None,
                      game: object = None, info: Info = Info.ALL,
                      root_moves: Optional[Sequence[str]] = None,
                      options: Optional[Mapping[str, OptionValue]] = None,
                      timeout: Optional[float] = None) -> InfoDict: ...

    @overload
    async def analyse(self, position: PositionLike, limit: Limit, *, multipv: int,
                      game: object = None, info: Info = Info.ALL,
                      root_moves: Optional[Sequence[str]] = None,
                      options: Optional[Mapping[str, OptionValue]] = None,
                      timeout: Optional[float] = None) -> list[InfoDict]: ...

    @overload
    async def analyse(self, position: PositionLike, limit: Limit, *,
                      multipv: Optional[int] = None, game: object = None,
                      info: Info = Info.ALL, root_moves: Optional[Sequence[str]] = None,
                      options: Optional[Mapping[str, OptionValue]] = None,
                      timeout: Optional[float] = None) -> Union[InfoDict, list[InfoDict]]: ...

    async def analyse(self, position: PositionLike, limit: Limit, *,
                      multipv: Optional[int] = None, game: object = None,
                      info: Info = Info.ALL, root_moves: Optional[Sequence[str]] = None,
                      options: Optional[Mapping[str, OptionValue]] = None,
                      timeout: Optional[float] = None) -> Union[InfoDict, list[InfoDict]]:
        """The last info of a search: one `InfoDict`, or with `multipv` a list of the last
        info of each of the best `multipv` lines, best first (`MultiPV` is set for this
        search alone). The other arguments are `play`'s."""
        search = await self._search(position, limit, timeout=timeout, multipv=multipv,
                                    root_moves=root_moves, options=options, game=game,
                                    info=info, legal=None)
        lines = {k: select(v, info) for k, v in search.lines.items()}
        if multipv is None:
            return lines.get(1, {})
        return [lines[k] for k in sorted(lines)]

    async def analysis(self, position: PositionLike, limit: Optional[Limit] = None, *,
                       multipv: Optional[int] = None, game: object = None,
                       info: Info = Info.ALL, root_moves: Optional[Sequence[str]] = None,
                       options: Optional[Mapping[str, OptionValue]] = None,
                       timeout: Optional[float] = None) -> AnalysisResult:
        """Starts a search (without a limit: until stopped) whose infos are read as they come
        (`async for info in result`, `get()`); `stop()` ends it, and so do leaving its loop,
        leaving its `with`, dropping it, and any other call on the engine."""
        search, deadline = await self._go(
            position, limit or Limit(), timeout=timeout, multipv=multipv,
            root_moves=root_moves, options=options, game=game, info=info, legal=None,
            queued=True)
        self._lock.release()
        return AnalysisResult(self, search, deadline)

    async def legal_moves(self, position: PositionLike, *, timeout: Optional[float] = None,
                          ) -> list[str]:
        """The legal moves of `position` as the engine counts them (`go perft 1`'s lines):
        the awari engine answers it; an engine without perft answers nothing, and this times
        out."""
        deadline = self._deadline(timeout)
        sent = as_position(position)
        await self._turn(deadline)
        try:
            await self._ready(deadline, *self._option_lines(sent, {}), sent.command())
            command = Perft(self._send)
            self._start(command, "go perft 1")
            await self._answer(command, deadline, "total")
        finally:
            self._lock.release()
        return [w[0] for w in (line.split() for line in command.lines)
                if len(w) == 2 and MOVE.fullmatch(w[0]) and w[1].isdigit()]

    async def quit(self, grace: float = 1.0) -> Optional[int]:
        """`quit`, up to `grace` seconds to exit, then SIGKILL to the engine's process group
        and every descendant that left it (see `awari.processes`); returns its exit status.
        It does not wait for other calls (they end with `EngineTerminatedError`), and a
        cancelled `quit` still ends the engine."""
        await self._end_once(grace)
        if self._error is None:
            self._error = EngineTerminatedError("the engine has been ended", self.returncode)
        return self.returncode

    async def _end_once(self, grace: float) -> None:
        """The engine ended, once, however many calls ask: shielded, so that a cancelled
        caller does not stop the ending half-way."""
        if self._ending is None:
            self._ending = asyncio.ensure_future(self._end(grace))
        await asyncio.shield(self._ending)

    async def _end(self, grace: float) -> None:
        # Its descendants recorded while it runs: once it exits, those it orphaned can no
        # longer be found from it.
        self._processes.look()
        ended = EngineTerminatedError("the engine was asked to quit", None)
        if self._command is not None:
            self._command.finish(self._error or ended)
        stdin = self._process.stdin
        if stdin is not None and not stdin.is_closing():
            try:
                LOGGER.debug("%r: << quit", self)
                stdin.write(b"quit\n")
                stdin.close()
            except (OSError, RuntimeError):
                pass
        exited = asyncio.ensure_future(self._process.wait())
        try:
            await asyncio.wait({exited}, timeout=grace)
        finally:
            # Also when cancelled (the event loop closing): neither the engine nor what it
            # left behind outlives it.
            self._processes.kill()
        await exited
        await asyncio.wait({self._reader}, timeout=SETTLE)
        self._close_pipes()

    def _close_pipes(self) -> None:
        """The process's pipes closed on the loop, rather than by the garbage collector after
        the loop has closed."""
        transport: asyncio.SubprocessTransport = getattr(self._process, "_transport")
        transport.close()

    async def __aenter__(self) -> Engine:
        return self

    async def __aexit__(self, kind: Optional[type[BaseException]],
                        error: Optional[BaseException],
                        trace: Optional[TracebackType]) -> None:
        await self.quit()


def _abandon(acquiring: asyncio.Future[Any], lock: asyncio.Lock) -> None:
    """A lock acquisition given up on: released at once should it succeed after all."""
    acquiring.cancel()

    def release(done: asyncio.Future[Any]) -> None:
        if not done.cancelled() and done.exception() is None:
            lock.release()

    acquiring.add_done_callback(release)


def _setoption(option: Option, text: Optional[str]) -> str:
    return f"setoption name {option.name}" + ("" if text is None else f" value {text}")




def _exit_text(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"status {code}"


async def popen(path: Union[str, os.PathLike[str], None] = None, *args: str,
                timeout: float = 10.0, env: Optional[Mapping[str, str]] = None,
                stderr: Optional[int] = None) -> Engine:
    """Starts the engine at `path` (by default the one installed with this package,
    `engine_path()`) with `args`, in a process group of its own, and does the handshake
    (`uci` ... `uciok` within `timeout` seconds, also each later call's default). Its stderr
    is the caller's unless `stderr` says otherwise (`asyncio.subprocess.DEVNULL`)."""
    program = engine_path() if path is None else os.fspath(path)
    try:
        process = await asyncio.create_subprocess_exec(
            program, *args,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=stderr,
            env=None if env is None else dict(env), start_new_session=True,
            limit=MAX_LINE + 1,
        )
    except OSError as e:
        raise EngineError(f"could not start {program!r}: {e.strerror or e}") from None
    engine = Engine(process, timeout)
    try:
        await engine._handshake()
    except BaseException as e:
        await engine._fail(EngineTerminatedError("the handshake failed"))
        if isinstance(e, EngineError):
            raise type(e)(f"at the handshake: {e}", *(
                [e.returncode] if isinstance(e, EngineTerminatedError) else [])) from None
        raise
    return engine


async def popen_uci(command: CommandLine, *, timeout: float = 10.0,
                    env: Optional[Mapping[str, str]] = None, stderr: Optional[int] = None,
                    ) -> tuple[asyncio.SubprocessTransport, Engine]:
    """python-chess's name: `command` (a path, or a path and its arguments) started as
    `popen` starts it; returns the process's transport and the engine, as
    `chess.engine.popen_uci` does."""
    words = [command] if isinstance(command, str) else list(command)
    if not words:
        raise ValueError("popen_uci: no command")
    engine = await popen(words[0], *words[1:], timeout=timeout, env=env, stderr=stderr)
    transport: asyncio.SubprocessTransport = getattr(engine._process, "_transport")
    return transport, engine
