"""Each example in examples/ runs to its end against the real engine."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT


@pytest.mark.parametrize("example, args, said", [
    ("play.py", ["--auto"], "game over after"),
    ("analyse.py", ["FfE"], "after FfE"),
    ("compare.py", [], "FfEa"),
])
def test_example_runs(awari_bin: str, example: str, args: list[str], said: str) -> None:
    run = subprocess.run([sys.executable, str(ROOT / "examples" / example), awari_bin, *args],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert said in run.stdout
