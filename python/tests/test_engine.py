"""awari.engine against the real engine and against misbehave's faults, through both APIs.
Every engine a test starts is ended in the test (a `with`), and its process group is checked
gone by id."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import awari

from awari.engine import (
    EngineTerminatedError,
    EngineTimeoutError,
    IllegalBestMoveError,
    Limit,
    OptionError,
    Position,
    ProtocolError,
    SimpleEngine,
    popen,
)


def gone(pid: int) -> bool:
    """Whether the process and its whole group are gone (killed and reaped)."""
    for call in (os.kill, os.killpg):
        try:
            call(pid, 0)
            return False
        except ProcessLookupError:
            pass
    return True


def running(program: Path, *args: str) -> list[int]:
    """The processes running `program` with `args` (their command line) that will run its code
    again: not a zombie, not exiting, no SIGKILL pending (Linux; as tests/common/mod.rs)."""
    wanted = [os.fsencode(program), *(a.encode() for a in args)]
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")[:-1]
            stat = (entry / "stat").read_text()
            status = (entry / "status").read_text()
        except OSError:
            continue
        if command != wanted:
            continue
        fields = stat[stat.rfind(")") + 1:].split()
        pf_exiting = 0x4
        if fields[0] in ("Z", "X", "x") or int(fields[6]) & pf_exiting:
            continue
        sigkill = 1 << (signal.SIGKILL - 1)
        pending = [int(line.split()[1], 16) for line in status.splitlines()
                   if line.startswith(("SigPnd:", "ShdPnd:"))]
        if not any(mask & sigkill for mask in pending):
            found.append(int(entry.name))
    return found


@pytest.fixture
def sleeper(tmp_path: Path) -> Iterator[Path]:
    """A directory with a copy of /bin/sleep, for misbehave's `leave-children`: what runs that
    copy is found by its path, and killed by id at the end, also when the test fails."""
    shutil.copy("/bin/sleep", tmp_path / "sleep")
    yield tmp_path
    for pid in running(tmp_path / "sleep", "300"):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_simple_engine_every_call(awari_bin: str) -> None:
    with SimpleEngine.popen(awari_bin) as engine:
        pid = engine.pid
        assert engine.id["name"].startswith("awari")
        assert engine.options["MultiPV"].max == 6
        assert "kalah" in engine.options["UCI_Variant"].var
        engine.ping()
        engine.ucinewgame()
        engine.configure({"Hash": 8, "Clear Hash": None, "UseNetwork": False})
        position = Position(moves=("F", "f"))
        result = engine.play(position, Limit(depth=3))
        assert result.move is not None and result.move in engine.legal_moves(position)
        assert result.info["depth"] == 3 and "score" in result.info
        played = engine.play(position, Limit(nodes=500))
        assert played.move is not None
        clocked = engine.play(Position(), Limit(wtime=200, btime=200, winc=10, binc=10))
        assert clocked.move is not None and clocked.move.isupper()
        timed = engine.play(Position(), Limit(movetime=20))
        assert timed.move is not None
        one = engine.analyse(position, Limit(depth=3))
        assert isinstance(one, dict) and one["depth"] == 3
        lines = engine.analyse(position, Limit(depth=3), multipv=3)
        assert isinstance(lines, list) and [i["multipv"] for i in lines] == [1, 2, 3]
        assert len({i["pv"][0] for i in lines}) == 3
        # MultiPV is set back: a plain analyse has no multipv word again.
        assert "multipv" not in engine.analyse(position, Limit(depth=2))
        kalah = Position(variant="kalah", fen=None, moves=("C",))
        assert engine.legal_moves(kalah) == ["A", "B", "D", "E", "F"]
        over = engine.play(Position(fen="0-0-0-0-0-0-0-0-0-0-0-0-25-23-S"), Limit(depth=2))
        assert over.move is None
    assert gone(pid)


def test_asyncio_engine_every_call(awari_bin: str) -> None:
    async def main() -> int:
        async with await popen(awari_bin) as engine:
            await engine.ping()
            await engine.ucinewgame()
            await engine.configure({"MultiPV": 2})
            assert len(await engine.analyse(Position(), Limit(depth=3), multipv=2)) == 2
            result = await engine.play(Position(), Limit(depth=3))
            assert result.move in await engine.legal_moves(Position())
            analysis = await engine.analysis(Position(), Limit(depth=3))
            infos = [info async for info in analysis]
            assert infos and analysis.result is not None
            return engine.pid
    assert gone(asyncio.run(main()))


def test_analysis_stopped_midway_leaves_the_engine_ready(awari_bin: str) -> None:
    with SimpleEngine.popen(awari_bin) as engine:
        with engine.analysis(Position()) as analysis:
            for info in analysis:
                if info.get("depth", 0) >= 4:
                    analysis.stop()
        assert analysis.info["depth"] >= 4
        engine.ping(timeout=5)
        assert engine.play(Position(), Limit(depth=2)).move is not None
        pid = engine.pid
    assert gone(pid)


@pytest.mark.parametrize("options, said", [
    ({"MultiPV": 7}, "'MultiPV' takes 1 to 6, not 7"),
    ({"Hash": 0}, "'Hash' takes 1 to 32768, not 0"),
    ({"UCI_Variant": "chess"}, "one of oware, awari, ahl, kalah, ayoayo, kalah-empty, not 'chess'"),
    ({"Ponder": "maybe"}, "'Ponder' is a check"),
    ({"Clear Hash": 3}, "is a button"),
    ({"NoSuchOption": 1}, "no option 'NoSuchOption'"),
])
def test_options_refused(awari_bin: str, options: dict[str, object], said: str) -> None:
    with SimpleEngine.popen(awari_bin) as engine:
        with pytest.raises(OptionError, match=said.replace("(", r"\(")):
            engine.configure(options)  # type: ignore[arg-type]
        engine.ping()


def test_refused_position_is_an_error(awari_bin: str) -> None:
    with SimpleEngine.popen(awari_bin) as engine:
        with pytest.raises(ProtocolError, match="refused"):
            engine.play(Position(fen="4-4-4"), Limit(depth=1))


@pytest.mark.parametrize("mode, error, said", [
    (["crash-at", "0"], EngineTerminatedError, "status 3"),
    (["hang-at", "0"], EngineTimeoutError, "no bestmove within"),
    (["flood"], ProtocolError, "flooded"),
    (["garbage"], IllegalBestMoveError, "'bestmove ???'"),
])
def test_misbehaving_engines(misbehave_bin: str, mode: list[str],
                             error: type[Exception], said: str) -> None:
    with SimpleEngine.popen(misbehave_bin, *mode, timeout=2) as engine:
        pid = engine.pid
        with pytest.raises(error, match=said.replace("?", r"\?")):
            engine.play(Position(), Limit(movetime=10))
        # The engine is ended: every later call says why.
        if error is not IllegalBestMoveError:
            with pytest.raises(error):
                engine.ping()
            assert gone(pid)
    assert gone(pid)


def test_crash_gives_the_exit_status(misbehave_bin: str) -> None:
    with SimpleEngine.popen(misbehave_bin, "crash-at", "0") as engine:
        with pytest.raises(EngineTerminatedError) as caught:
            engine.play(Position(), Limit(depth=1))
        assert caught.value.returncode == 3


def test_illegal_move_against_the_legal_list(awari_bin: str, misbehave_bin: str) -> None:
    with SimpleEngine.popen(awari_bin) as rules:
        legal = rules.legal_moves(Position())
    with SimpleEngine.popen(misbehave_bin, "illegal") as engine:
        with pytest.raises(IllegalBestMoveError, match="not legal here"):
            engine.play(Position(), Limit(depth=1), legal=legal)


def test_handshake_timeout_and_no_uciok(misbehave_bin: str) -> None:
    with pytest.raises(EngineTimeoutError, match="at the handshake: .*uciok"):
        SimpleEngine.popen(misbehave_bin, "no-uciok", timeout=0.5)


def test_missing_binary() -> None:
    with pytest.raises(Exception, match="could not start"):
        SimpleEngine.popen("/nonexistent/awari")


def test_engine_ignoring_quit_is_killed(misbehave_bin: str) -> None:
    engine = SimpleEngine.popen(misbehave_bin, "ignore-quit")
    pid = engine.pid
    engine.quit(grace=0.1)
    assert gone(pid)


def test_position_notation() -> None:
    assert Position().command() == "position startpos"
    assert Position(moves=("F", "f", "E", "a")).command() == "position startpos moves FfEa"
    fen = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"
    assert Position("kalah", fen).command() == f"position fen {fen}"
    assert Position().push("C").moves == ("C",)
    with pytest.raises(ValueError, match="not a move"):
        Position(moves=("G",))
    assert Limit().arguments() == "infinite"
    assert Limit(depth=3, wtime=100).arguments() == "depth 3 wtime 100"


def test_late_garbage_is_read_away_before_the_next_search(misbehave_bin: str) -> None:
    # misbehave follows each bestmove with a second, `bestmove ???`: the isready before the
    # next search reads it away, so the next answer is the next search's.
    with SimpleEngine.popen(misbehave_bin, "late-garbage") as engine:
        first = engine.play(Position(), Limit(depth=1))
        second = engine.play(Position(moves=(str(first.move),)), Limit(depth=1))
        assert first.move is not None and first.move.isupper()
        assert second.move is not None and second.move.islower()


def test_bad_info_field_is_left_out(misbehave_bin: str) -> None:
    # `score cp 5} [Evil "tag"]`: the score does not parse and is left out, as the referee does.
    with SimpleEngine.popen(misbehave_bin, "bad-info") as engine:
        result = engine.play(Position(), Limit(depth=1))
        assert result.move is not None
        assert result.info == {"depth": 1}


def test_slow_engine_within_its_timeout(misbehave_bin: str) -> None:
    with SimpleEngine.popen(misbehave_bin, "slow-move", "300", timeout=5) as engine:
        assert engine.play(Position(), Limit(depth=1)).move is not None


def test_analysis_of_a_hung_engine_times_out_after_stop(misbehave_bin: str) -> None:
    with SimpleEngine.popen(misbehave_bin, "hang-at", "0", timeout=1) as engine:
        pid = engine.pid
        analysis = engine.analysis(Position())
        analysis.stop()
        with pytest.raises(EngineTimeoutError, match="no bestmove within"):
            analysis.wait()
        assert gone(pid)


def test_analysis_of_a_flooding_engine(misbehave_bin: str) -> None:
    with SimpleEngine.popen(misbehave_bin, "flood", timeout=5) as engine:
        with pytest.raises(ProtocolError, match="flooded"):
            for _ in engine.analysis(Position(), Limit(depth=1)):
                pass
        assert gone(engine.pid)


def test_line_over_the_cap() -> None:
    # No misbehave mode sends a long line: a shell does, then waits (killed with its group).
    script = "head -c 70000 /dev/zero | tr '\\0' x; echo; sleep 30"
    # Told when the line passes the cap, or when it ends if it came in one piece.
    with pytest.raises(ProtocolError, match=r"line of (70000|more than 65536) bytes"):
        SimpleEngine.popen("/bin/sh", "-c", script, timeout=20)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="descendants are found in /proc")
@pytest.mark.parametrize("grace", [1.0, 0.0], ids=["grace", "no-grace"])
def test_a_descendant_that_left_the_group_is_ended(misbehave_bin: str, sleeper: Path,
                                                   grace: float) -> None:
    # leave-children: at its first go after ucinewgame, misbehave starts `sleep 300` in a
    # session of its own (setsid), out of reach of a kill of its process group. misbehave
    # exits on quit, with a grace or not: its child, orphaned, is found only because the
    # client looked for it before it sent quit.
    sleep = sleeper / "sleep"
    engine = SimpleEngine.popen(misbehave_bin, "leave-children", str(sleeper))
    try:
        engine.ucinewgame()
        assert engine.play(Position(), Limit(depth=1)).move is not None
        deadline = time.monotonic() + 60
        while not running(sleep, "300"):
            assert time.monotonic() < deadline, "misbehave started no sleep 300"
            time.sleep(0.01)
        [child] = running(sleep, "300")
        assert os.getpgid(child) != engine.pid
    finally:
        engine.quit(grace)
    assert running(sleep, "300") == [], "the engine's descendant outlived it"
    assert gone(engine.pid)


def test_a_board_is_sent_with_its_history_and_checks_the_answer(awari_bin: str,
                                                                 misbehave_bin: str) -> None:
    board = awari.Board()
    board.push_moves("FfEa")
    with SimpleEngine.popen(awari_bin) as engine:
        result = engine.play(board, Limit(depth=4))
        assert result.move in board.legal_moves
        lines = engine.analyse(board, Limit(depth=4), multipv=3)
        assert len(lines) == 3
        assert all(info["pv"][0] in board.legal_moves for info in lines)
        assert engine.legal_moves(board) == board.legal_moves
        kalah = awari.Board(rules="kalah")
        kalah.push("C")  # the last seed in South's store: South moves again
        assert engine.legal_moves(kalah) == kalah.legal_moves
        # A repetition ends an oware game only with its history: the engine gets the moves.
        cycle = awari.Board("0-0-0-0-0-1-0-0-0-0-0-1-23-23-S")
        while not cycle.is_game_over():
            cycle.push(cycle.legal_moves[0])
        assert cycle.is_repetition()
        assert engine.legal_moves(cycle) == [] == cycle.legal_moves
        assert engine.legal_moves(awari.Board(cycle.fen())) != []
    # Without `legal`, a Board's own legal moves judge the answer.
    with SimpleEngine.popen(misbehave_bin, "illegal") as engine:
        with pytest.raises(IllegalBestMoveError, match="not legal here"):
            engine.play(awari.Board(), Limit(depth=1))
