"""A call given up on leaves the engine as the next call expects it: a cancelled or interrupted
search is stopped and its answer read away (never handed to the next call), an analysis left
by `break`, an exception, its `with` or the garbage collector stops its search, a call's time
counts from the call, and a cancelled `quit` still ends the engine. Asyncio and threads, the
real engine and misbehave's faults. Every engine started is ended by its test."""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
import sys
import threading
import time
from collections.abc import Iterator
from types import FrameType
from typing import Optional

import pytest

from awari.engine import (
    EngineTerminatedError,
    EngineTimeoutError,
    Limit,
    Position,
    ProtocolError,
    SimpleEngine,
    popen,
)

from test_engine import gone

#: A position whose one legal move is `A`: an answer that is another search's shows at once.
ONLY_A = Position(fen="2-0-0-0-0-0-0-0-0-3-3-3-18-19-S")


def sent(records: list[logging.LogRecord], word: str) -> int:
    """How many lines starting with `word` the client logged as sent (`PID: << LINE`)."""
    lines = [r.getMessage().partition(": << ")[2] for r in records if r.name == "awari.engine"]
    return sum(1 for line in lines if line.startswith(word))


@pytest.fixture
def debug_log(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    with caplog.at_level(logging.DEBUG, logger="awari.engine"):
        yield caplog


def test_a_cancelled_play_is_never_answered_by_the_next(awari_bin: str,
                                                        debug_log: pytest.LogCaptureFixture
                                                        ) -> None:
    async def main() -> int:
        async with await popen(awari_bin) as engine:
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(engine.play(Position(), Limit(movetime=3000)), 0.5)
            # `stop` went out as the call was cancelled, not at the next call.
            assert sent(debug_log.records, "stop") == 1
            started = time.monotonic()
            result = await engine.play(ONLY_A, Limit(depth=4))
            assert result.move == "A"
            # The old search was stopped, not waited out (3 s of movetime).
            assert time.monotonic() - started < 2.5
            return engine.pid
    assert gone(asyncio.run(main()))


def test_a_cancelled_analysis_stops_its_search(awari_bin: str,
                                               debug_log: pytest.LogCaptureFixture) -> None:
    async def main() -> int:
        async with await popen(awari_bin) as engine:
            analysis = await engine.analysis(Position())

            async def read() -> None:
                async for _ in analysis:
                    pass

            task = asyncio.ensure_future(read())
            await analysis.get()  # the search runs
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert sent(debug_log.records, "stop") == 1
            assert (await engine.play(ONLY_A, Limit(depth=3))).move == "A"
            return engine.pid
    assert gone(asyncio.run(main()))


@pytest.mark.parametrize("leave", ["exception", "break", "with", "garbage"])
def test_an_abandoned_analysis_blocks_nothing(awari_bin: str, leave: str,
                                              debug_log: pytest.LogCaptureFixture) -> None:
    async def main() -> int:
        engine = await popen(awari_bin)
        try:
            analysis: Optional[object] = await engine.analysis(Position())
            assert analysis is not None
            if leave == "exception":
                with pytest.raises(KeyError):
                    async for info in analysis:  # type: ignore[attr-defined]
                        raise KeyError("the caller's own error")
            elif leave == "break":
                async for info in analysis:  # type: ignore[attr-defined]
                    break
            elif leave == "with":
                with pytest.raises(KeyError):
                    async with analysis:  # type: ignore[attr-defined]
                        raise KeyError("the caller's own error")
            else:
                analysis = None
                gc.collect()
            # Let the loop run what leaving scheduled (an async generator's close).
            for _ in range(5):
                await asyncio.sleep(0)
            assert sent(debug_log.records, "stop") == 1, "the search was not stopped"
            await engine.ping(timeout=2)
            assert (await engine.play(ONLY_A, Limit(depth=2))).move == "A"
        finally:
            await engine.quit()
        return engine.pid
    assert gone(asyncio.run(main()))


def test_quit_and_with_end_an_engine_with_an_analysis_running(awari_bin: str) -> None:
    async def main() -> int:
        async with await popen(awari_bin) as engine:
            analysis = await engine.analysis(Position())
            await analysis.get()
            pid = engine.pid
        with pytest.raises(EngineTerminatedError):
            await analysis.wait()
        return pid
    assert gone(asyncio.run(main()))


def test_a_calls_time_counts_from_the_call(awari_bin: str) -> None:
    async def main() -> int:
        async with await popen(awari_bin) as engine:
            long = asyncio.ensure_future(engine.play(Position(), Limit(movetime=1500)))
            await asyncio.sleep(0)
            started = time.monotonic()
            with pytest.raises(EngineTimeoutError, match="another call held the engine"):
                await engine.ping(timeout=0.2)
            assert time.monotonic() - started < 1.2
            # The engine is as it was: the search it was busy with answers.
            assert (await long).move is not None
            await engine.ping()
            return engine.pid
    assert gone(asyncio.run(main()))


def test_a_search_that_does_not_answer_stop_ends_the_engine(misbehave_bin: str) -> None:
    # hang-at 0: misbehave never answers its first go, nor the stop after it.
    async def main() -> int:
        async with await popen(misbehave_bin, "hang-at", "0", timeout=1) as engine:
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(engine.play(Position(), Limit(depth=3)), 0.2)
            with pytest.raises(EngineTimeoutError, match="answer to `stop`"):
                await engine.ping()
            assert gone(engine.pid)
            return engine.pid
    assert gone(asyncio.run(main()))


def test_a_cancelled_quit_still_ends_the_engine(misbehave_bin: str) -> None:
    # ignore-quit: misbehave ignores `quit` (and SIGTERM); the quit is cancelled while it waits
    # its grace, and the event loop closes right after: SIGKILL all the same.
    async def main() -> int:
        engine = await popen(misbehave_bin, "ignore-quit")
        quitting = asyncio.ensure_future(engine.quit(grace=30))
        await asyncio.sleep(0)
        quitting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await quitting
        return engine.pid
    started = time.monotonic()
    pid = asyncio.run(main())
    assert time.monotonic() - started < 20, "the quit's grace was waited out"
    deadline = time.monotonic() + 10
    while not gone(pid):
        assert time.monotonic() < deadline, "the engine outlived its event loop"
        time.sleep(0.01)


def test_an_engine_never_quit_ends_with_its_event_loop(awari_bin: str) -> None:
    async def main() -> int:
        engine = await popen(awari_bin)
        await engine.analysis(Position())
        return engine.pid
    # Its pipes are closed on the loop too: collected after the loop has closed, they would
    # raise "Event loop is closed" into `sys.unraisablehook`.
    unraisable: list[object] = []
    hook, sys.unraisablehook = sys.unraisablehook, unraisable.append
    try:
        pid = asyncio.run(main())
        deadline = time.monotonic() + 10
        while not gone(pid):
            assert time.monotonic() < deadline, "the engine outlived its event loop"
            time.sleep(0.01)
        # The child watcher drops the engine's transport once it has reaped it.
        while threading.active_count() > 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        gc.collect()
    finally:
        sys.unraisablehook = hook
    assert [getattr(u, "exc_value", u) for u in unraisable] == []


def test_an_unread_analysis_is_bounded(tmp_path: object) -> None:
    # An engine that writes 32 KB infos as fast as it can, to a caller that reads none.
    script = (
        "import sys\n"
        "for line in sys.stdin:\n"
        "    w = line.split()\n"
        "    if w[:1] == ['uci']: print('uciok', flush=True)\n"
        "    elif w[:1] == ['isready']: print('readyok', flush=True)\n"
        "    elif w[:1] == ['go']:\n"
        "        while True: print('info string ' + 'x' * 32000, flush=True)\n"
    )

    async def main() -> int:
        engine = await popen(sys.executable, "-c", script, timeout=10)
        try:
            analysis = await engine.analysis(Position())
            # The reader keeps at most 16 MiB of unread infos, then ends the engine.
            await asyncio.wait_for(engine._process.wait(), 60)
            with pytest.raises(ProtocolError, match="were not read"):
                while True:
                    await analysis.get()
        finally:
            await engine.quit()
        return engine.pid
    assert gone(asyncio.run(main()))


def test_an_analysis_refused_by_the_engine_fails_at_once(awari_bin: str) -> None:
    async def main() -> int:
        async with await popen(awari_bin) as engine:
            started = time.monotonic()
            with pytest.raises(ProtocolError, match="refused the search.*not legal"):
                await engine.play(Position(), Limit(depth=3), root_moves=["a"])
            assert time.monotonic() - started < 5
            assert (await engine.play(ONLY_A, Limit(depth=2))).move == "A"
            return engine.pid
    assert gone(asyncio.run(main()))


def test_a_refused_search_answered_late_never_answers_the_next_call(misbehave_bin: str) -> None:
    # misbehave refuses `searchmoves` and sends the `bestmove 0000` it owes late: 2 s after
    # `stop`, or on the next `go` just before that one's answer. The refusal is told at once
    # (the exchange still open); the next call reads the late answer away before it sends
    # anything, so each call gets its own answer.
    async def main() -> int:
        async with await popen(misbehave_bin, "refuse-searchmoves", "2000") as engine:
            with pytest.raises(ProtocolError, match="refused the search"):
                await engine.play(Position(), Limit(depth=1), root_moves=["B"])
            assert engine._command is not None and engine._command.open
            assert (await engine.play(Position(), Limit(depth=1))).move == "A"
            analysis = await engine.analysis(Position(), Limit(depth=1), root_moves=["B"])
            with pytest.raises(ProtocolError, match="refused the search"):
                await analysis.get()
            assert engine._command is not None and engine._command.open
            assert (await engine.play(Position(), Limit(depth=1))).move == "A"
            return engine.pid
    assert gone(asyncio.run(main()))


# The blocking API: the same rules from threads.

def test_blocking_analysis_left_by_an_exception(awari_bin: str) -> None:
    with SimpleEngine.popen(awari_bin) as engine:
        with pytest.raises(KeyError):
            for info in engine.analysis(Position()):
                raise KeyError("the caller's own error")
        engine.ping(timeout=2)
        assert engine.play(ONLY_A, Limit(depth=2)).move == "A"
        pid = engine.pid
    assert gone(pid)


def test_blocking_calls_from_two_threads(awari_bin: str) -> None:
    with SimpleEngine.popen(awari_bin) as engine:
        errors: list[BaseException] = []

        def analyse_and_fail() -> None:
            try:
                with engine.analysis(Position()) as analysis:
                    analysis.get()
                    raise KeyError("the caller's own error")
            except KeyError:
                pass
            except BaseException as e:  # noqa: BLE001 - reported by the test
                errors.append(e)

        thread = threading.Thread(target=analyse_and_fail)
        thread.start()
        thread.join(30)
        assert not thread.is_alive() and errors == []
        engine.ping(timeout=2)
        assert engine.play(ONLY_A, Limit(depth=2)).move == "A"
        pid = engine.pid
    assert gone(pid)


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs setitimer")
def test_a_blocking_call_interrupted_is_cancelled(awari_bin: str) -> None:
    # Ctrl-C during a blocking play: a signal handler raises in the waiting thread.
    class Interrupted(Exception):
        pass

    def interrupt(signum: int, frame: Optional[FrameType]) -> None:
        raise Interrupted()

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        with SimpleEngine.popen(awari_bin) as engine:
            signal.setitimer(signal.ITIMER_REAL, 0.3)
            with pytest.raises(Interrupted):
                engine.play(Position(), Limit(movetime=5000))
            started = time.monotonic()
            assert engine.play(ONLY_A, Limit(depth=3)).move == "A"
            assert time.monotonic() - started < 4
            pid = engine.pid
        assert gone(pid)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_a_blocking_quit_interrupted_still_ends_the_engine(misbehave_bin: str) -> None:
    class Interrupted(Exception):
        pass

    def interrupt(signum: int, frame: Optional[FrameType]) -> None:
        raise Interrupted()

    previous = signal.signal(signal.SIGALRM, interrupt)
    engine = SimpleEngine.popen(misbehave_bin, "ignore-quit")
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        with pytest.raises(Interrupted):
            engine.quit(grace=30)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    deadline = time.monotonic() + 10
    while not gone(engine.pid):
        assert time.monotonic() < deadline, "the engine outlived its quit"
        time.sleep(0.01)
