"""Paths of the real binaries the tests drive (AWARI_BIN, MISBEHAVE_BIN; by default
target/ci/awari and target/ci/misbehave, built by `cargo build --profile ci --bins`), and a
data directory of their own: every engine the tests start finds no user's tables there."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True, scope="session")
def own_data_directory(tmp_path_factory: pytest.TempPathFactory) -> None:
    """XDG_DATA_HOME, which the engines inherit, set to an empty directory for the session:
    the tests neither read nor write the user's tables."""
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data"))


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
