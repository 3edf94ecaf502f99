"""The awari crate's rules and endgame tables (python/native, built by maturin)."""

from os import PathLike
from pathlib import Path
from types import TracebackType
from typing import Final, Literal, TypedDict

Side = Literal["south", "north"]

RULES: Final[list[str]]

class NotationError(ValueError):
    """Text that is not a position, a move or a move list."""

    column: int | None

class IllegalMoveError(ValueError):
    """A move that is not legal in the position, and why."""

    move: str
    reason: Literal["game-over", "not-your-house", "empty-house", "must-feed", "endless"]
    index: int | None

class SetupError(ValueError):
    """A start position that cannot be set up (`Board(seeds=)` out of 1 to 21)."""

    reason: Literal["seeds-per-house", "too-many-seeds", "bonus-not-in-rules"]

class UnknownRulesError(ValueError):
    """A rule set's name that is none of `RULES`: the name as given."""

    rules: str

class ReplyError(ValueError):
    """A line given to the reply reader that is not of the kind asked for."""

    line: str
    expected: Literal["info", "bestmove"]

class TablesError(Exception):
    """What `Tables` raises past its directory and its rule set's name; each subclass is also
    a `ValueError` or an `OSError`."""

class TablesClosedError(TablesError, ValueError):
    """Tables used after `close`."""

    dir: Path

class RulesMismatchError(TablesError, ValueError):
    """A board of another rule set than the tables'."""

    board_rules: str
    tables_rules: str

class UnsupportedRulesError(TablesError, ValueError):
    """A rule set that has no tables (there are oware's and kalah's)."""

    rules: str

class LayerFileError(TablesError, OSError):
    """A layer file cut short or rewritten under open tables, the one a probe's read failed
    on: its layer is left out from then on."""

    path: Path
    layer: int
    reason: Literal["resized", "written", "unreadable", "faulted"]

class Outcome:
    """How a finished game ended."""

    @property
    def reason(self) -> str: ...
    @property
    def winner(self) -> Side | None: ...
    @property
    def stores(self) -> tuple[int, int]: ...
    def result(self) -> Literal["1-0", "0-1", "1/2-1/2"]: ...
    def __hash__(self) -> int: ...

class Board:
    """A game in progress under one rule set."""

    def __init__(self, fen: str | None = None, *, rules: str = "oware",
                 seeds: int | None = None) -> None: ...
    @property
    def rules(self) -> str: ...
    def fen(self) -> str: ...
    @property
    def start_fen(self) -> str: ...
    @property
    def turn(self) -> Side: ...
    @property
    def houses(self) -> list[int]: ...
    @property
    def stores(self) -> tuple[int, int]: ...
    @property
    def bonus_pending(self) -> bool: ...
    @property
    def legal_moves(self) -> list[str]: ...
    @property
    def move_stack(self) -> list[str]: ...
    def moves_text(self) -> str: ...
    def is_legal(self, move: str) -> bool: ...
    def illegal_reason(self, move: str) -> str | None: ...
    def push(self, move: str) -> None: ...
    def push_moves(self, moves: str) -> None: ...
    def peek(self) -> str: ...
    def pop(self) -> str: ...
    def is_game_over(self) -> bool: ...
    def outcome(self) -> Outcome | None: ...
    def result(self) -> Literal["1-0", "0-1", "1/2-1/2", "*"]: ...
    def is_repetition(self) -> bool: ...
    @property
    def zobrist(self) -> int: ...
    def perft(self, depth: int) -> int: ...
    def divide(self, depth: int) -> dict[str, int]: ...
    def copy(self) -> Board: ...
    def __copy__(self) -> Board: ...
    def __deepcopy__(self, memo: object) -> Board: ...
    def __hash__(self) -> int: ...

class Value:
    """Bounds on the seeds the side to move ends with under perfect play."""

    @property
    def lo(self) -> int: ...
    @property
    def hi(self) -> int: ...
    @property
    def exact(self) -> int | None: ...
    def __hash__(self) -> int: ...

class Tables:
    """The endgame tables of one rule set in one directory."""

    def __init__(self, dir: str | PathLike[str], *, rules: str = "oware",
                 verify: bool = True) -> None: ...
    @property
    def rules(self) -> str: ...
    @property
    def dir(self) -> Path: ...
    @property
    def reach(self) -> int | None: ...
    @property
    def closed(self) -> bool: ...
    @property
    def problems(self) -> list[str]: ...
    def probe(self, board: Board) -> Value | None: ...
    def probe_moves(self, board: Board) -> dict[str, Value | None]: ...
    def close(self) -> None: ...
    def __enter__(self) -> Tables: ...
    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> Literal[False]: ...

class InfoFields(TypedDict, total=False):
    """The fields an `info` line has (only those). For type checking only: the compiled
    module has no such name."""

    depth: int
    seldepth: int
    multipv: int
    nodes: int
    nps: int
    time: int
    hashfull: int
    tbhits: int
    score: tuple[Literal["cp", "mate"], int]
    lowerbound: Literal[True]
    upperbound: Literal[True]
    pv: list[str]
    currmove: str
    string: str

class OptionFields(TypedDict):
    """An `option` line's fields. For type checking only: the compiled module has no such
    name."""

    name: str
    type: str | None
    default: str | None
    min: int | None
    max: int | None
    var: list[str]

def read_info(line: str) -> InfoFields:
    """An `info` line's fields, read by the crate's reader; ReplyError for another line."""

def read_bestmove(line: str) -> tuple[str, str | None]:
    """A `bestmove` line's move and ponder move as written; ReplyError for another line."""

def read_option(line: str) -> OptionFields | None:
    """An `option` line's fields, or None when the line names no option."""
