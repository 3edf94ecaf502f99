"""Paths of the real binaries the tests drive (AWARI_BIN, MISBEHAVE_BIN; by default
target/ci/awari and target/ci/misbehave, built by `cargo build --profile ci --bins`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def binary(variable: str, name: str) -> str:
    path = os.environ.get(variable) or str(ROOT / "target" / "ci" / name)
    if not os.access(path, os.X_OK):
        pytest.fail(f"{path} is not there: build it with `cargo build --profile ci --bins`")
    return path


@pytest.fixture
def awari_bin() -> str:
    return binary("AWARI_BIN", "awari")


@pytest.fixture
def misbehave_bin() -> str:
    return binary("MISBEHAVE_BIN", "misbehave")
