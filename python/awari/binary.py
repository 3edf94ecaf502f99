"""Where the engine binary is: the one inside the installed package (a wheel built by
`pip wheel ./python` or `pip install ./python` carries it, built from the same crate as
`awari._native`), else the `awari` on the PATH."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from awari.errors import EngineError

__all__ = ["BUNDLED", "engine_path"]

#: The engine inside the package, where the build backend puts it (python/backend).
BUNDLED = Path(__file__).resolve().parent / "bin" / ("awari.exe" if sys.platform == "win32"
                                                     else "awari")


def engine_path() -> str:
    """The path of the engine to start: the package's own when it has one, else `awari` on
    the PATH. Raises `EngineError` when there is neither."""
    if os.access(BUNDLED, os.X_OK):
        return str(BUNDLED)
    found = shutil.which("awari")
    if found is not None:
        return found
    raise EngineError(
        f"no awari engine: none inside the package ({BUNDLED} is not there: this install was "
        "not built from a wheel with the engine) and none named `awari` on the PATH; install "
        "the wheel that `pip wheel ./python` makes, or build the engine with `cargo build "
        "--release` and put target/release on the PATH, or pass the engine's path")
