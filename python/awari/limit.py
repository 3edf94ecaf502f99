"""Where a search stops (`Limit`), and the `go` line that asks for it."""

from __future__ import annotations

import dataclasses

__all__ = ["Limit"]


@dataclasses.dataclass(frozen=True)
class Limit:
    """Where a search stops, in the protocol's own units: times in milliseconds (`wtime`,
    `winc` are South's clock, `btime`, `binc` North's), depth in plies, nodes."""

    movetime: int | None = None
    depth: int | None = None
    nodes: int | None = None
    wtime: int | None = None
    btime: int | None = None
    winc: int | None = None
    binc: int | None = None
    movestogo: int | None = None

    def arguments(self) -> str:
        """The `go` command's arguments (`infinite` when nothing limits the search)."""
        words = []
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if value is not None:
                words.append(f"{field.name} {int(value)}")
        return " ".join(words) if words else "infinite"

    def longest(self) -> float:
        """The most time, in seconds, the limit itself allows (0 when it sets none)."""
        clocks = [t + (i or 0) for t, i in ((self.wtime, self.winc), (self.btime, self.binc))
                  if t is not None]
        most = max([self.movetime or 0, *clocks])
        return most / 1000
