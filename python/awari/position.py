"""A position as the engine's notation gives it: a rule set, a start and the moves played
from it. The client's calls also take an `awari.Board`, which is sent the same way (its start
and its moves, so that the engine sees the history oware's repetition rule needs)."""

from __future__ import annotations

import dataclasses
import re

from awari._native import Board

__all__ = ["MOVE", "VARIANTS", "Position", "PositionLike", "as_position"]

#: The rule sets the awari engine knows (`UCI_Variant`).
VARIANTS = ("oware", "awari", "ahl", "kalah", "ayoayo", "kalah-empty")

#: A move: one house letter, South's uppercase, North's lowercase.
MOVE = re.compile(r"[A-Fa-f]")
_FEN_WORD = re.compile(r"\S+")


@dataclasses.dataclass(frozen=True)
class Position:
    """A position in the engine's notation: a rule set, a start (`None`: the variant's start
    position; or a position in the notation of doc/rules.md) and the moves played from it."""

    variant: str = "oware"
    fen: str | None = None
    moves: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for move in self.moves:
            if not MOVE.fullmatch(move):
                raise ValueError(f"not a move: {move!r} (a house letter, A-F or a-f)")
        if self.fen is not None and not _FEN_WORD.fullmatch(self.fen):
            raise ValueError(f"not a position: {self.fen!r} (one word, as doc/rules.md writes it)")

    def push(self, move: str) -> Position:
        """This position with `move` played after it."""
        return dataclasses.replace(self, moves=(*self.moves, move))

    def command(self) -> str:
        """The `position` command for the engine."""
        start = "startpos" if self.fen is None else f"fen {self.fen}"
        moves = f" moves {''.join(self.moves)}" if self.moves else ""
        return f"position {start}{moves}"


#: What the client's calls take for a position.
PositionLike = Position | Board


def as_position(position: PositionLike) -> Position:
    """`position` as the client sends it: a `Board` becomes its rule set, start and moves."""
    if isinstance(position, Board):
        return Position(position.rules, position.start_fen, tuple(position.move_stack))
    return position
