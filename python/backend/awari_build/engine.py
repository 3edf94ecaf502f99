"""The engine binary inside the package: `cargo build --bin awari` in the profile maturin builds
the extension in, copied to `awari/bin/` in the source tree, where the wheel's `include`
(python/pyproject.toml) picks it up. The copy is a build output (python/.gitignore)."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["BIN_DIR", "CargoArgs", "build_engine", "cargo_args"]

#: Where the binary goes, relative to python/ (the directory of pyproject.toml, where pip runs
#: the backend): `awari/bin/awari` inside the wheel.
BIN_DIR = Path("awari") / "bin"
#: The package and bin target of the engine, in the crate that python/native depends on.
ENGINE = "awari"


class CargoArgs(argparse.Namespace):
    """What of maturin's arguments the engine's build takes too."""

    profile: str | None
    target: str | None
    jobs: str | None
    locked: bool
    frozen: bool
    offline: bool
    compatibility: list[str] | None


def cargo_args(maturin_args: list[str]) -> CargoArgs:
    """The arguments of maturin's build (MATURIN_PEP517_ARGS, or the `maturin.build-args`
    setting) that the engine's build must share: the profile, the target, the lock file's
    flags. The rest (features, interpreter, ...) are the extension's alone."""
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    parser.add_argument("--profile")
    parser.add_argument("--target")
    parser.add_argument("-j", "--jobs")
    for flag in ("--locked", "--frozen", "--offline"):
        parser.add_argument(flag, action="store_true")
    parser.add_argument("--compatibility", "--manylinux", nargs="*")
    known, _ = parser.parse_known_args(maturin_args, namespace=CargoArgs())
    return known


def _engine_manifest(cargo: str, native_manifest: Path) -> str:
    """The manifest of the crate with the engine's bin target: python/native's dependency,
    found by cargo (in the repository, the workspace's root crate)."""
    metadata = json.loads(subprocess.run(
        [cargo, "metadata", "--format-version", "1", "--manifest-path", str(native_manifest)],
        check=True, stdout=subprocess.PIPE).stdout)
    for package in metadata["packages"]:
        if package["name"] == ENGINE and any(
                target["name"] == ENGINE and "bin" in target["kind"]
                for target in package["targets"]):
            return str(package["manifest_path"])
    raise RuntimeError(f"no crate with a `{ENGINE}` binary among {native_manifest}'s dependencies")


def build_engine(args: CargoArgs, tool_maturin: Mapping[str, Any], editable: bool) -> Path:
    """Builds the engine with `args`' profile (else [tool.maturin]'s, else release, as maturin
    chooses for the extension) and copies it into `BIN_DIR`; returns the copy's path."""
    cargo = os.environ.get("CARGO", "cargo")
    profile = args.profile
    if profile is None and editable:
        profile = tool_maturin.get("editable-profile")
    if profile is None:
        profile = tool_maturin.get("profile", "release")
    native_manifest = Path(tool_maturin.get("manifest-path", "Cargo.toml"))
    command = [cargo, "build", "--manifest-path", _engine_manifest(cargo, native_manifest),
               "--bin", ENGINE, "--profile", str(profile),
               "--message-format", "json-render-diagnostics"]
    if args.target:
        command += ["--target", args.target]
    if args.jobs:
        command += ["--jobs", args.jobs]
    command += [f"--{flag}" for flag in ("locked", "frozen", "offline") if getattr(args, flag)]
    print("Running `{}`".format(" ".join(command)), flush=True)
    # cargo's messages on stdout (one JSON object a line), its diagnostics on stderr.
    built = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True)
    executable = None
    for line in built.stdout.splitlines():
        message = json.loads(line)
        if (message.get("reason") == "compiler-artifact"
                and message["target"]["name"] == ENGINE and "bin" in message["target"]["kind"]):
            executable = message["executable"]
    if executable is None:
        raise RuntimeError(f"`{' '.join(command)}` named no `{ENGINE}` executable")
    # The directory holds the binary of the last build only.
    shutil.rmtree(BIN_DIR, ignore_errors=True)
    BIN_DIR.mkdir(parents=True)
    placed = BIN_DIR / Path(executable).name
    shutil.copy2(executable, placed)
    return placed
