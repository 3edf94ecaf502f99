"""The blocking client: the asyncio `Engine` on an event loop of its own, in a background
thread, each call waiting for its answer."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Coroutine, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any, TypeVar, overload

from awari.client import AnalysisResult, Engine, popen
from awari.errors import EngineTerminatedError
from awari.limit import Limit
from awari.options import Option
from awari.position import PositionLike
from awari.reply import InfoDict, PlayResult

__all__ = ["SimpleAnalysisResult", "SimpleEngine"]

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

    def play(self, position: PositionLike, limit: Limit, *, timeout: float | None = None,
             legal: Sequence[str] | None = None) -> PlayResult:
        """See `Engine.play`."""
        return self._run(self.engine.play(position, limit, timeout=timeout, legal=legal))

    @overload
    def analyse(self, position: PositionLike, limit: Limit, *, multipv: None = None,
                timeout: float | None = None) -> InfoDict: ...

    @overload
    def analyse(self, position: PositionLike, limit: Limit, *, multipv: int,
                timeout: float | None = None) -> list[InfoDict]: ...

    @overload
    def analyse(self, position: PositionLike, limit: Limit, *, multipv: int | None = None,
                timeout: float | None = None) -> InfoDict | list[InfoDict]: ...

    def analyse(self, position: PositionLike, limit: Limit, *, multipv: int | None = None,
                timeout: float | None = None) -> InfoDict | list[InfoDict]:
        """See `Engine.analyse`."""
        return self._run(self.engine.analyse(position, limit, multipv=multipv, timeout=timeout))

    def analysis(self, position: PositionLike, limit: Limit | None = None, *,
                 multipv: int | None = None, timeout: float | None = None,
                 ) -> SimpleAnalysisResult:
        """See `Engine.analysis`; iterate over the result, `stop()` it or leave its `with`."""
        inner = self._run(self.engine.analysis(position, limit, multipv=multipv,
                                               timeout=timeout))
        return SimpleAnalysisResult(self, inner)

    def legal_moves(self, position: PositionLike, *, timeout: float | None = None) -> list[str]:
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
