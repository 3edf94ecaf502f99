"""`awari.binary.engine_path()`: the package's own engine first, then `awari` on the PATH, else
an `EngineError` that says how to get one. Each row lays out a package binary and a directory
on the PATH (each there, executable or not) in a temporary directory of its own."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from awari import binary
from awari.errors import EngineError


def lay(path: Path, executable: bool) -> None:
    """A stand-in for the engine at `path`; engine_path() only looks, it starts nothing."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(stat.S_IRUSR | stat.S_IWUSR | (stat.S_IXUSR if executable else 0))


# bundled / on_path: None (not there), "exec" or "plain" (there, not executable);
# expected: "bundled", "path" or None (EngineError).
@pytest.mark.parametrize("bundled, on_path, expected", [
    pytest.param("exec", "exec", "bundled", id="the package's own before the PATH's"),
    pytest.param("exec", None, "bundled", id="the package's own, none on the PATH"),
    pytest.param(None, "exec", "path", id="none in the package: the PATH's"),
    pytest.param("plain", "exec", "path", id="the package's not executable: the PATH's"),
    pytest.param(None, "plain", None, id="the PATH's not executable, none in the package"),
    pytest.param(None, None, None, id="neither"),
])
def test_engine_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bundled: str | None,
                     on_path: str | None, expected: str | None) -> None:
    package_engine = tmp_path / "site-packages" / "awari" / "bin" / "awari"
    path_dir = tmp_path / "on-path"
    path_dir.mkdir()
    if bundled is not None:
        lay(package_engine, bundled == "exec")
    if on_path is not None:
        lay(path_dir / "awari", on_path == "exec")
    monkeypatch.setattr(binary, "BUNDLED", package_engine)
    monkeypatch.setenv("PATH", str(path_dir))
    if expected is None:
        with pytest.raises(EngineError) as raised:
            binary.engine_path()
        assert "no awari engine" in str(raised.value)
        assert "pip wheel ./python" in str(raised.value)
    else:
        found = binary.engine_path()
        assert Path(found) == (package_engine if expected == "bundled" else path_dir / "awari")
        assert os.access(found, os.X_OK)
