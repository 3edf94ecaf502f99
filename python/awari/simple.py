"""The blocking client: the asyncio `Engine` on an event loop of its own, in a background
thread, each call waiting for its answer. A call interrupted in the caller's thread (Ctrl-C,
an exception) is cancelled on the loop as an asyncio call would be: its search is stopped and
its answer never handed to the next call."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import threading
from collections.abc import Coroutine, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any, Optional, TypeVar, Union, overload

from awari.client import AnalysisResult, Engine, OptionValue, popen
from awari.errors import AnalysisComplete, EngineTerminatedError
from awari.limit import Limit
from awari.options import CaseInsensitiveDict, Option
from awari.position import PositionLike
from awari.reply import Info, InfoDict, PlayResult

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
    def popen(cls, path: Union[str, os.PathLike[str], None] = None, *args: str,
              timeout: float = 10.0, env: Optional[Mapping[str, str]] = None,
              stderr: Optional[int] = None) -> SimpleEngine:
        """Starts an engine as `awari.engine.popen` does (with no `path`, the one installed
        with the package)."""
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="awari-engine", daemon=True)
        thread.start()
        future = asyncio.run_coroutine_threadsafe(
            popen(path, *args, timeout=timeout, env=env, stderr=stderr), loop)
        try:
            engine = _wait(future)
        except BaseException:
            loop.call_soon_threadsafe(loop.stop)
            thread.join()
            loop.close()
            raise
        return cls(engine, loop, thread)

    @classmethod
    def popen_uci(cls, command: Union[str, Sequence[str]], *, timeout: float = 10.0,
                  env: Optional[Mapping[str, str]] = None,
                  stderr: Optional[int] = None) -> SimpleEngine:
        """python-chess's name: `command` is a path, or a path and its arguments."""
        words = [command] if isinstance(command, str) else list(command)
        if not words:
            raise ValueError("popen_uci: no command")
        return cls.popen(words[0], *words[1:], timeout=timeout, env=env, stderr=stderr)

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        if self._loop.is_closed():
            coroutine.close()
            raise EngineTerminatedError("the engine has been closed")
        return _wait(asyncio.run_coroutine_threadsafe(coroutine, self._loop))

    @property
    def id(self) -> dict[str, str]:
        """What the engine said of itself."""
        return self.engine.id

    @property
    def options(self) -> CaseInsensitiveDict[Option]:
        """The options it announced."""
        return self.engine.options

    @property
    def pid(self) -> int:
        """Its process id."""
        return self.engine.pid

    def ping(self, *, timeout: Optional[float] = None) -> None:
        """See `Engine.ping`."""
        self._run(self.engine.ping(timeout=timeout))

    def configure(self, options: Mapping[str, OptionValue], *,
                  timeout: Optional[float] = None) -> None:
        """See `Engine.configure`."""
        self._run(self.engine.configure(options, timeout=timeout))

    def ucinewgame(self, *, timeout: Optional[float] = None) -> None:
        """See `Engine.ucinewgame`."""
        self._run(self.engine.ucinewgame(timeout=timeout))

    def play(self, position: PositionLike, limit: Limit, *, game: object = None,
             info: Info = Info.ALL, ponder: bool = False,
             root_moves: Optional[Sequence[str]] = None,
             options: Optional[Mapping[str, OptionValue]] = None,
             timeout: Optional[float] = None,
             legal: Optional[Sequence[str]] = None) -> PlayResult:
        """See `Engine.play`."""
        return self._run(self.engine.play(
            position, limit, game=game, info=info, ponder=ponder, root_moves=root_moves,
            options=options, timeout=timeout, legal=legal))

    @overload
    def analyse(self, position: PositionLike, limit: Limit, *, multipv: None = None,
                game: object = None, info: Info = Info.ALL,
                root_moves: Optional[Sequence[str]] = None,
                options: Optional[Mapping[str, OptionValue]] = None,
                timeout: Optional[float] = None) -> InfoDict: ...

    @overload
    def analyse(self, position: PositionLike, limit: Limit, *, multipv: int,
                game: object = None, info: Info = Info.ALL,
                root_moves: Optional[Sequence[str]] = None,
                options: Optional[Mapping[str, OptionValue]] = None,
                timeout: Optional[float] = None) -> list[InfoDict]: ...

    @overload
    def analyse(self, position: PositionLike, limit: Limit, *,
                multipv: Optional[int] = None, game: object = None, info: Info = Info.ALL,
                root_moves: Optional[Sequence[str]] = None,
                options: Optional[Mapping[str, OptionValue]] = None,
                timeout: Optional[float] = None) -> Union[InfoDict, list[InfoDict]]: ...

    def analyse(self, position: PositionLike, limit: Limit, *,
                multipv: Optional[int] = None, game: object = None, info: Info = Info.ALL,
                root_moves: Optional[Sequence[str]] = None,
                options: Optional[Mapping[str, OptionValue]] = None,
                timeout: Optional[float] = None) -> Union[InfoDict, list[InfoDict]]:
        """See `Engine.analyse`."""
        return self._run(self.engine.analyse(
            position, limit, multipv=multipv, game=game, info=info, root_moves=root_moves,
            options=options, timeout=timeout))

    def analysis(self, position: PositionLike, limit: Optional[Limit] = None, *,
                 multipv: Optional[int] = None, game: object = None, info: Info = Info.ALL,
                 root_moves: Optional[Sequence[str]] = None,
                 options: Optional[Mapping[str, OptionValue]] = None,
                 timeout: Optional[float] = None) -> SimpleAnalysisResult:
        """See `Engine.analysis`; iterate over the result, `stop()` it or leave its `with`."""
        inner = self._run(self.engine.analysis(
            position, limit, multipv=multipv, game=game, info=info, root_moves=root_moves,
            options=options, timeout=timeout))
        return SimpleAnalysisResult(self, inner)

    def legal_moves(self, position: PositionLike, *,
                    timeout: Optional[float] = None) -> list[str]:
        """See `Engine.legal_moves`."""
        return self._run(self.engine.legal_moves(position, timeout=timeout))

    def quit(self, grace: float = 1.0) -> Optional[int]:
        """Ends the engine (see `Engine.quit`) and the background loop; returns its exit
        status. Interrupted, it still ends the engine (SIGKILL) before the loop stops."""
        if self._loop.is_closed():
            return self.engine.returncode
        try:
            return self._run(self.engine.quit(grace))
        finally:
            if self.engine.returncode is None:
                # Interrupted before the engine exited: nothing may outlive the loop. Killed,
                # it exits at once, and its ending is let finish on the loop (its pipes
                # closed there).
                self.engine._processes.kill()
                ending = asyncio.run_coroutine_threadsafe(self.engine._end_once(0.0),
                                                          self._loop)
                try:
                    ending.result(self.engine.timeout)
                except BaseException:  # noqa: BLE001 - the loop stops whatever happened
                    ending.cancel()
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
            self._loop.close()

    close = quit

    def __enter__(self) -> SimpleEngine:
        return self

    def __exit__(self, kind: Optional[type[BaseException]], error: Optional[BaseException],
                 trace: Optional[TracebackType]) -> None:
        self.quit()


def _wait(future: concurrent.futures.Future[T]) -> T:
    """The coroutine's answer; interrupted here (Ctrl-C), the coroutine is cancelled on its
    loop, as an asyncio caller's would be."""
    try:
        return future.result()
    except BaseException:
        future.cancel()
        raise


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
        return self._inner.multipv

    @property
    def result(self) -> Optional[PlayResult]:
        """The search's answer, once it has ended."""
        return self._inner.result

    def get(self) -> InfoDict:
        """The next info; `AnalysisComplete` once the search has ended and all were read."""
        return self._simple._run(self._inner.get())

    def next(self) -> Optional[InfoDict]:
        """The next info, or None once the search has ended."""
        return self._simple._run(self._inner.next())

    def empty(self) -> bool:
        """Whether every info that has come has been read."""
        return self._inner.empty()

    def would_block(self) -> bool:
        """Whether `get()` would wait for the engine."""
        return self._inner.would_block()

    def stop(self) -> None:
        """Asks the search to end."""
        if not self._simple._loop.is_closed():
            self._simple._loop.call_soon_threadsafe(self._inner.stop)

    def wait(self) -> PlayResult:
        """Reads on to the end; the search's answer."""
        return self._simple._run(self._inner.wait())

    def __iter__(self) -> Iterator[InfoDict]:
        try:
            while True:
                try:
                    yield self.get()
                except AnalysisComplete:
                    return
        finally:
            # Left by `break` or an exception too: the search has no reader left.
            self.stop()

    def __enter__(self) -> SimpleAnalysisResult:
        return self

    def __exit__(self, kind: Optional[type[BaseException]], error: Optional[BaseException],
                 trace: Optional[TracebackType]) -> None:
        self.stop()
        try:
            self.wait()
        except Exception:
            if error is None:
                raise
