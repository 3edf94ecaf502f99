"""The package's build backend (python/pyproject.toml's `build-backend`): maturin's, with two
things added to a wheel's build.

- The engine: `cargo build --bin awari` in the profile of the extension's build (the
  `--profile` of MATURIN_PEP517_ARGS, as `.ci/run` gives it, else release), copied into the
  package (`engine.py`), so that an installed wheel carries the engine it speaks to.
- The platform tag: under pip, maturin tags a wheel `linux_*` (its backend passes
  `--compatibility off`, which outranks `[tool.maturin] compatibility`), a tag that says
  nothing of the glibc the wheel needs and that PyPI refuses. Here it is `manylinux_2_N`, where N is the newest glibc the engine
  binary needs (`elf.py`); maturin checks the extension module against that tag and fails the
  build if the module needs more. A `--compatibility` of the caller's is left as it is.

Everything else (metadata, sdist, requirements) is maturin's as it stands.
"""

from __future__ import annotations

import importlib
import platform
import subprocess
import sys
from collections.abc import Mapping
from typing import Any

from awari_build.elf import glibc_needed
from awari_build.engine import build_engine, cargo_args

# maturin's backend, which pip installs for the build (build-system.requires). It has no type
# information; imported by name, it is `Any` to mypy, which checks this package where maturin
# is not installed.
maturin: Any = importlib.import_module("maturin")
build_sdist = maturin.build_sdist
get_requires_for_build_editable = maturin.get_requires_for_build_editable
get_requires_for_build_sdist = maturin.get_requires_for_build_sdist
get_requires_for_build_wheel = maturin.get_requires_for_build_wheel
prepare_metadata_for_build_editable = maturin.prepare_metadata_for_build_editable
prepare_metadata_for_build_wheel = maturin.prepare_metadata_for_build_wheel

__all__ = [
    "build_editable",
    "build_sdist",
    "build_wheel",
    "get_requires_for_build_editable",
    "get_requires_for_build_sdist",
    "get_requires_for_build_wheel",
    "prepare_metadata_for_build_editable",
    "prepare_metadata_for_build_wheel",
]

#: The oldest manylinux tag Rust's own targets support (glibc 2.17).
MIN_GLIBC = (2, 17)


def _settings(config_settings: Mapping[str, Any] | None, editable: bool) -> dict[str, Any]:
    """`config_settings` with maturin's arguments completed: the engine built, and the
    platform tag its glibc allows added unless the caller chose one."""
    args = list(maturin.get_maturin_pep517_args(config_settings))
    options = cargo_args(args)
    try:
        engine = build_engine(options, maturin.get_config(), editable)
    except (OSError, subprocess.CalledProcessError, RuntimeError) as error:
        # cargo has said why on stderr, where it could; pip shows this line last.
        sys.stderr.write(f"Error: the engine binary (awari/bin/awari) was not built: {error}\n")
        sys.exit(1)
    if options.compatibility is None and platform.system() == "Linux":
        needed = glibc_needed(engine)
        if needed is not None:
            major, minor = max(needed, MIN_GLIBC)
            args += ["--compatibility", f"manylinux_{major}_{minor}"]
    return {**(config_settings or {}), "maturin.build-args": args}


def build_wheel(wheel_directory: str, config_settings: Mapping[str, Any] | None = None,
                metadata_directory: str | None = None) -> str:
    """PEP 517's hook: maturin's wheel, with the engine inside and a manylinux tag."""
    settings = _settings(config_settings, editable=False)
    return str(maturin.build_wheel(wheel_directory, settings, metadata_directory))


def build_editable(wheel_directory: str, config_settings: Mapping[str, Any] | None = None,
                   metadata_directory: str | None = None) -> str:
    """PEP 660's hook: maturin's editable wheel; the engine lies in the source tree, which the
    editable install imports from."""
    settings = _settings(config_settings, editable=True)
    return str(maturin.build_editable(wheel_directory, settings, metadata_directory))
