"""A running search's infos, read as they come: what `Engine.analysis` returns.

It reads what the engine's reader queued for it (`awari.commands.Search`), without holding
the engine: any other call on the engine stops the search, and so do leaving its loop
(`break`, an exception), leaving its `with`, and dropping it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from types import TracebackType
from typing import Optional, Protocol

from awari.commands import Command, Search
from awari.errors import AnalysisComplete, EngineError, EngineTimeoutError
from awari.reply import InfoDict, PlayResult

__all__ = ["AnalysisResult", "Driver"]


class Driver(Protocol):
    """What an analysis needs of its engine (`awari.client.Engine`), named here so that the
    two modules do not import each other."""

    timeout: float
    _error: Optional[EngineError]

    async def _fail(self, error: EngineError) -> EngineError: ...

    async def _answer(self, command: Command, deadline: Optional[float],
                      waiting_for: str) -> None: ...


class AnalysisResult:
    """A running search's infos, read as they come (`async for`, `get()`); ended by `stop()`,
    its limit, leaving its loop or `with`, being dropped, or the engine's next call."""

    def __init__(self, engine: Driver, search: Search, deadline: Optional[float]) -> None:
        self._engine = engine
        self._search = search
        self._deadline = deadline
        self._loop = asyncio.get_running_loop()

    @property
    def info(self) -> InfoDict:
        """The latest info of line 1."""
        return self._search.lines.get(1, {})

    @property
    def multipv(self) -> list[InfoDict]:
        """The latest info of each line, best first."""
        return [self._search.lines[k] for k in sorted(self._search.lines)]

    @property
    def result(self) -> Optional[PlayResult]:
        """The search's answer, once it has ended."""
        return self._search.result

    def _until(self) -> Optional[float]:
        # A search without a limit runs until stopped, then has the engine's timeout.
        stopped = self._search.stopped_at
        if stopped is not None:
            late = stopped + self._engine.timeout
            return late if self._deadline is None else min(late, self._deadline)
        return self._deadline

    async def get(self) -> InfoDict:
        """The next info; `AnalysisComplete` once the search has ended and all were read."""
        search = self._search
        while not search.pending:
            if search.finished:
                if search.error is not None:
                    raise search.error
                raise AnalysisComplete()
            until = self._until()
            left = None if until is None else max(0.0, until - time.monotonic())
            try:
                await asyncio.wait_for(search.arrival(), left)
            except asyncio.TimeoutError:
                raise await self._engine._fail(EngineTimeoutError(
                    "the engine sent no bestmove within the time allowed")
                ) from None
        return search.popleft()

    async def next(self) -> Optional[InfoDict]:
        """The next info, or None once the search has ended."""
        try:
            return await self.get()
        except AnalysisComplete:
            return None

    def empty(self) -> bool:
        """Whether every info that has come has been read."""
        return not self._search.pending

    def would_block(self) -> bool:
        """Whether `get()` would wait for the engine."""
        return not self._search.pending and not self._search.finished

    def stop(self) -> None:
        """Asks the search to end (`stop`); its remaining infos and answer can still be read,
        and `wait` reads them."""
        if self._engine._error is None:
            self._search.stop()

    async def wait(self) -> PlayResult:
        """Until the search's end; its answer (the infos not read stay readable)."""
        search = self._search
        if not search.finished:
            await self._engine._answer(search, self._until(), "bestmove")
        if search.error is not None:
            raise search.error
        assert search.result is not None
        return search.result

    def __aiter__(self) -> AsyncIterator[InfoDict]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[InfoDict]:
        try:
            while (info := await self.next()) is not None:
                yield info
        finally:
            # Left by `break` or an exception too: the search has no reader left.
            self.stop()

    def __del__(self) -> None:
        try:
            if not self._search.finished and not self._loop.is_closed():
                self._loop.call_soon_threadsafe(self.stop)
        except (AttributeError, RuntimeError):
            pass

    async def __aenter__(self) -> AnalysisResult:
        return self

    async def __aexit__(self, kind: Optional[type[BaseException]],
                        error: Optional[BaseException],
                        trace: Optional[TracebackType]) -> None:
        self.stop()
        try:
            await self.wait()
        except EngineError:
            if error is None:
                raise
