"""A position as the engine's notation gives it: a rule set, a start and the moves played
from it. The client's calls also take an `awari.Board`, which is sent the same way (its start
and its moves, so that the engine sees the history oware's repetition rule needs)."""

from __future__ import annotations

import dataclasses
import re
from typing import Optional, Union

from awari._native import Board

__all__ = ["MOVE", "VARIANTS", "Position", "PositionLike", "as_position", "turn_of"]

#: The rule sets the awari engine knows (`UCI_Variant`).
VARIANTS = ("oware", "awari", "ahl", "kalah", "ayoayo", "kalah-empty")

#: A move: one house letter, South's uppercase, North's lowercase.
MOVE = re.compile(r"[A-Fa-f]")
_FEN_WORD = re.compile(r"[!-~]+")
#: A rule set's name as the protocol sends it: one word, no line break.
_VARIANT = re.compile(r"[A-Za-z0-9_.+-]+")


@dataclasses.dataclass(frozen=True)
class Position:
    """A position in the engine's notation: a rule set, a start (`None`: the variant's start
    position; or a position in the notation of doc/rules.md) and the moves played from it."""

    variant: str = "oware"
    fen: Optional[str] = None
    moves: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.variant, str) or not _VARIANT.fullmatch(self.variant):
            raise ValueError(f"not a rule set: {self.variant!r} (one word, such as 'kalah')")
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
PositionLike = Union[Position, Board]


def as_position(position: PositionLike) -> Position:
    """`position` as the client sends it: a `Board` becomes its rule set, start and moves."""
    if isinstance(position, Board):
        return Position(position.rules, position.start_fen, tuple(position.move_stack))
    return position


def turn_of(position: Position) -> str:
    """The side to move in `position` ("south" or "north"), by the package's own rules; for a
    position they cannot read (another engine's rule set), the side its notation names."""
    try:
        board = Board(position.fen, rules=position.variant)
        if position.moves:
            board.push_moves("".join(position.moves))
        return board.turn
    except ValueError:
        side = position.fen[-1:] if position.fen else "S"
        return "north" if side in ("N", "n") else "south"
