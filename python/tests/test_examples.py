"""Each example in examples/ runs to its end against the real engine."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT


@pytest.mark.parametrize("example, args, said", [
    ("play.py", ["--auto"], "game over after"),
    ("play.py", ["--auto"], "Game over: "),
    ("analyse.py", ["FfE"], "after FfE"),
    ("compare.py", [], "FfEa"),
])
def test_example_runs(awari_bin: str, example: str, args: list[str], said: str) -> None:
    run = subprocess.run([sys.executable, str(ROOT / "examples" / example), awari_bin, *args],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert said in run.stdout


def test_play_draws_the_board_and_ends_cleanly_when_input_ends(awari_bin: str) -> None:
    """A person's game: the board before the move, a move refused with its reason, then the end
    of input, which leaves the game unfinished without a traceback."""
    run = subprocess.run([sys.executable, str(ROOT / "examples" / "play.py"), awari_bin],
                         input="zz\nA\n", capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    assert run.stdout.count("South to move") >= 2, run.stdout
    assert "is not a move" in run.stdout, run.stdout
    assert "engine plays" in run.stdout, run.stdout
    assert "input ended: the game is left unfinished" in run.stdout, run.stdout
    assert "stopped after A" in run.stdout, run.stdout
