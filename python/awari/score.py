"""Scores as python-chess has them: `Cp` (an estimate, 100 per seed of store difference) and
`Mate` (a proven end of the game, in plies: sowings, so kalah's extra moves count), each from
one side's point of view, and `PovScore`, a score with the side it is for.

Ordered from worst to best for the side they belong to: a loss sooner, a loss later, every
estimate by its value, a win later, a win sooner. `-score` is the other side's view.
"""

from __future__ import annotations

import functools
from typing import Optional, Union

__all__ = ["Cp", "Mate", "PovScore", "Score", "Side"]

#: A side: `"south"` (the first to move, python-chess's white: `True`) or `"north"` (`False`).
Side = Union[str, bool]


@functools.total_ordering
class Score:
    """A score from one side's point of view: a `Cp` or a `Mate`."""

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        """The estimate in centi-seeds; for a `Mate`, None, or with `mate_score` that number
        less the plies to a win (more than any estimate), or its negation plus the plies to a
        loss."""
        raise NotImplementedError

    def mate(self) -> Optional[int]:
        """Plies to a proven end (positive: this side wins), or None for an estimate."""
        return None

    def is_mate(self) -> bool:
        """Whether the end of the game is proven."""
        return self.mate() is not None

    def _key(self) -> tuple[int, int]:
        raise NotImplementedError

    def __neg__(self) -> Score:
        raise NotImplementedError

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._key() < other._key()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


class Cp(Score):
    """An estimate: centi-seeds of store difference (`score cp N`)."""

    def __init__(self, cp: int) -> None:
        #: The estimate, in centi-seeds.
        self.cp = cp

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        return self.cp

    def _key(self) -> tuple[int, int]:
        return (1, self.cp)

    def __neg__(self) -> Score:
        return Cp(-self.cp)

    def __repr__(self) -> str:
        return f"Cp({self.cp:+d})"

    def __str__(self) -> str:
        return f"{self.cp:+d}"


class Mate(Score):
    """A proven end (`score mate N`): a win in `moves` plies when positive, a loss in
    `-moves` when negative."""

    def __init__(self, moves: int) -> None:
        #: Plies to the end; the sign says who wins.
        self.moves = moves

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        if mate_score is None:
            return None
        return mate_score - self.moves if self.moves > 0 else -mate_score - self.moves

    def mate(self) -> Optional[int]:
        return self.moves

    def _key(self) -> tuple[int, int]:
        # A win sooner is better, a loss sooner worse.
        return (2, -self.moves) if self.moves > 0 else (0, -self.moves)

    def __neg__(self) -> Score:
        return Mate(-self.moves)

    def __repr__(self) -> str:
        return f"Mate({self.moves:+d})"

    def __str__(self) -> str:
        return f"#{self.moves:+d}"


def _south(side: Side) -> bool:
    if isinstance(side, bool):
        return side
    if side in ("south", "north"):
        return side == "south"
    raise ValueError(f"not a side: {side!r} (\"south\", \"north\", or True for south)")


class PovScore:
    """A score with the side whose point of view it is (`turn`, the side to move where the
    engine searched): `relative` is that side's, `pov(side)` either side's."""

    def __init__(self, relative: Score, turn: Side) -> None:
        #: The score for the side to move.
        self.relative = relative
        #: The side to move: "south" or "north".
        self.turn = "south" if _south(turn) else "north"

    def pov(self, side: Side) -> Score:
        """The score from `side`'s point of view ("south"/"north", or True for south)."""
        return self.relative if _south(side) == (self.turn == "south") else -self.relative

    def south(self) -> Score:
        """South's point of view."""
        return self.pov("south")

    def north(self) -> Score:
        """North's point of view."""
        return self.pov("north")

    #: python-chess's names: white is the side that moves first, south.
    white = south
    black = north

    def is_mate(self) -> bool:
        """Whether the end of the game is proven."""
        return self.relative.is_mate()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PovScore):
            return NotImplemented
        return self.south() == other.south()

    def __hash__(self) -> int:
        return hash(self.south())

    def __repr__(self) -> str:
        return f"PovScore({self.relative!r}, {self.turn!r})"

    def __str__(self) -> str:
        return f"{self.relative} ({self.turn} to move)"
