"""Which glibc an ELF program needs: the newest `GLIBC_2.N` version it asks the dynamic linker
for. That N is the manylinux tag the wheel may claim (`manylinux_2_N`): maturin audits the
extension module against the tag it is given, but not the engine binary beside it, so the
binary's own need sets the tag. Read from the file's version-needs section, the table
`auditwheel` reads too; no tool outside the standard library is needed."""

from __future__ import annotations

import re
import struct
from pathlib import Path
from typing import NamedTuple

__all__ = ["glibc_needed"]

#: The section of version needs (`.gnu.version_r`).
SHT_GNU_VERNEED = 0x6FFFFFFE
_GLIBC = re.compile(rb"GLIBC_(\d+)\.(\d+)(?:\.\d+)?")


class _Section(NamedTuple):
    kind: int
    offset: int
    size: int
    link: int


def _sections(data: bytes) -> tuple[str, list[_Section]]:
    """The byte order (a `struct` prefix) and the section headers of an ELF file."""
    if data[:4] != b"\x7fELF":
        raise ValueError("not an ELF file")
    wide = data[4] == 2
    order = "<" if data[5] == 1 else ">"
    if wide:
        (table,) = struct.unpack_from(order + "Q", data, 0x28)
        size, count = struct.unpack_from(order + "HH", data, 0x3A)
        header = order + "IIQQQQI"
    else:
        (table,) = struct.unpack_from(order + "I", data, 0x20)
        size, count = struct.unpack_from(order + "HH", data, 0x2E)
        header = order + "IIIIIII"
    sections = []
    for index in range(count):
        _, kind, _, _, offset, length, link = struct.unpack_from(header, data, table + index * size)
        sections.append(_Section(kind, offset, length, link))
    return order, sections


def _needed_names(data: bytes) -> list[bytes]:
    """The version names the file needs, of every library (`readelf -V`'s "Version needs")."""
    order, sections = _sections(data)
    names = []
    for section in sections:
        if section.kind != SHT_GNU_VERNEED:
            continue
        strings = sections[section.link]
        at = section.offset
        while True:
            # Elf_Verneed: version, count, file, first aux entry, next entry (the same in
            # 32 and 64 bits); each Elf_Vernaux: hash, flags, other, name, next.
            _, count, _, aux, following = struct.unpack_from(order + "HHIII", data, at)
            entry = at + aux
            for _ in range(count):
                _, _, _, name, step = struct.unpack_from(order + "IHHII", data, entry)
                start = strings.offset + name
                names.append(data[start:data.index(b"\0", start)])
                entry += step
            if following == 0:
                break
            at += following
    return names


def glibc_needed(path: Path) -> tuple[int, int] | None:
    """The newest glibc version the ELF file at `path` needs, as (2, N); None when it needs
    none (a static or musl build). Raises ValueError if the file is not ELF."""
    versions = [
        (int(found.group(1)), int(found.group(2)))
        for found in (_GLIBC.fullmatch(name) for name in _needed_names(path.read_bytes()))
        if found
    ]
    return max(versions, default=None)
