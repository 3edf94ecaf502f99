"""python-chess code ports with a rename of the import: its names for limits, scores, calls
and results work here, beside the package's own; and bad input fails fast, before anything is
sent."""

from __future__ import annotations

import asyncio
import logging
import math
import pickle
import time

import pytest

import awari
from awari.engine import (
    INFO_NONE,
    INFO_SCORE,
    AnalysisComplete,
    Cp,
    Limit,
    Mate,
    OptionError,
    Position,
    PovScore,
    SimpleEngine,
    popen_uci,
)

from test_engine import gone

LIMITS = [
    # (python-chess's Limit, the go arguments)
    (Limit(time=0.5), "movetime 500"),
    (Limit(time=1), "movetime 1000"),
    (Limit(depth=3, nodes=1000), "depth 3 nodes 1000"),
    (Limit(white_clock=60, black_clock=30.5, white_inc=1, black_inc=0.25, remaining_moves=20),
     "wtime 60000 btime 30500 winc 1000 binc 250 movestogo 20"),
    (Limit(mate=3), "mate 3"),
    (Limit(movetime=250, wtime=100), "movetime 250 wtime 100"),
    (Limit(), "infinite"),
]


@pytest.mark.parametrize("limit, words", LIMITS)
def test_limits_in_seconds_and_milliseconds(limit: Limit, words: str) -> None:
    assert limit.arguments() == words


BAD_LIMITS = [
    ({"movetime": 10**30}, "more than the protocol reads"),
    ({"wtime": 10**25}, "more than the protocol reads"),
    ({"depth": 1 << 32}, "more than the protocol reads"),
    ({"depth": -1}, "cannot be negative"),
    ({"time": -0.5}, "cannot be negative"),
    ({"time": float("nan")}, "finite"),
    ({"white_clock": math.inf}, "finite"),
    ({"movetime": float("nan")}, "whole number"),
    ({"depth": 2.5}, "whole number"),
    ({"depth": True}, "whole number"),
    ({"nodes": "100"}, "whole number"),
    ({"time": 1, "movetime": 1000}, "the same limit"),
    ({"white_clock": 1, "wtime": 1000}, "the same limit"),
]


@pytest.mark.parametrize("fields, said", BAD_LIMITS)
def test_bad_limits_are_refused_before_anything_is_sent(fields: dict[str, object],
                                                         said: str) -> None:
    with pytest.raises(ValueError, match=said):
        Limit(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", ["kalah\nquit", "oware quit", "", "kalah\r"])
def test_a_rule_set_cannot_carry_a_line(variant: str) -> None:
    with pytest.raises(ValueError, match="not a rule set"):
        Position(variant=variant)


def test_scores_as_python_chess_has_them() -> None:
    ordered = [Mate(-1), Mate(-5), Cp(-300), Cp(0), Cp(250), Mate(7), Mate(2)]
    assert sorted(reversed(ordered)) == ordered
    assert Cp(35).score() == 35 and Cp(35).mate() is None and not Cp(35).is_mate()
    assert Mate(3).score() is None and Mate(3).mate() == 3 and Mate(3).is_mate()
    assert Mate(3).score(mate_score=10_000) == 9_997
    assert Mate(-3).score(mate_score=10_000) == -9_997
    assert -Cp(35) == Cp(-35) and -Mate(3) == Mate(-3)
    pov = PovScore(Cp(40), "north")
    assert pov.relative == Cp(40) and pov.north() == Cp(40) and pov.south() == Cp(-40)
    assert pov.white() == pov.pov(True) == Cp(-40) and pov.black() == pov.pov(False)
    assert pov == PovScore(Cp(-40), "south")
    with pytest.raises(ValueError, match="not a side"):
        pov.pov("east")


def test_python_chess_calls_on_the_real_engine(awari_bin: str,
                                               caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="awari.engine"), \
            SimpleEngine.popen_uci([awari_bin]) as engine:
        # Option names in any case, as python-chess's CaseInsensitiveDict finds them.
        assert engine.options["multipv"].name == "MultiPV"
        engine.configure({"hash": 8})
        board = awari.Board()
        board.push_moves("Ff")
        result = engine.play(board, Limit(time=0.2), info=INFO_SCORE)
        assert result.move in board.legal_moves
        assert set(result.info) <= {"score", "lowerbound", "upperbound", "string"}
        assert isinstance(result.info["score"], PovScore)
        assert result.info["score"].turn == board.turn == "south"
        assert engine.play(board, Limit(depth=2), info=INFO_NONE).info == {}
        # root_moves are searchmoves: the answer is among them.
        assert engine.play(board, Limit(depth=4), root_moves=["B"]).move == "B"
        # options= for one search alone: set, then set back at the next call.
        lines = engine.analyse(board, Limit(depth=3), options={"MultiPV": 2})
        assert lines["multipv"] == 1
        assert "multipv" not in engine.analyse(board, Limit(depth=3))
        # A search limited by depth has no deadline by default.
        assert engine.analyse(board, Limit(depth=3))["depth"] == 3
        # Pondering: the engine searches the expected reply until the next call.
        pondered = engine.play(board, Limit(depth=3), ponder=True)
        assert pondered.ponder is not None
        assert engine.play(Position(fen="2-0-0-0-0-0-0-0-0-3-3-3-18-19-S"),
                           Limit(depth=2)).move == "A"
        with engine.analysis(board, Limit(depth=3)) as analysis:
            first = analysis.get()
            assert "depth" in first or "string" in first
            analysis.wait()
            while not analysis.empty():
                analysis.get()
            assert not analysis.would_block()
            with pytest.raises(AnalysisComplete):
                analysis.get()
        pid = engine.pid
    assert gone(pid)
    logged = [r.getMessage() for r in caplog.records if r.name == "awari.engine"]
    assert any(m.endswith("<< uci") for m in logged)
    assert any(m.endswith(">> uciok") for m in logged)
    assert any("<< go ponder" in m for m in logged)
    assert any("<< setoption name MultiPV value 1" in m for m in logged)


def test_asyncio_popen_uci_returns_a_transport_and_the_engine(awari_bin: str) -> None:
    async def main() -> int:
        transport, engine = await popen_uci(awari_bin)
        assert transport.get_pid() == engine.pid
        try:
            with pytest.raises(OptionError, match="no option 'NoSuch'"):
                await engine.configure({"NoSuch": 1})
            info = await engine.analyse(Position(), Limit(depth=2))
            assert info["score"].relative.score() is not None
        finally:
            await engine.quit()
        return engine.pid
    assert gone(asyncio.run(main()))


def test_no_default_deadline_for_a_depth_limit(misbehave_bin: str) -> None:
    # slow-move 1500: each answer comes 1.5 s late, past the engine's 0.5 s timeout; a search
    # limited by depth alone has no deadline, as in python-chess. A timed one has.
    with SimpleEngine.popen(misbehave_bin, "slow-move", "1500", timeout=0.5) as engine:
        started = time.monotonic()
        assert engine.play(Position(), Limit(depth=1)).move is not None
        assert time.monotonic() - started >= 1.4
        with pytest.raises(TimeoutError):
            engine.play(Position(), Limit(depth=1), timeout=0.3)


def test_version() -> None:
    assert awari.__version__.count(".") == 2


def test_limit_pickles() -> None:
    assert pickle.loads(pickle.dumps(Limit(time=0.5))) == Limit(time=0.5)
