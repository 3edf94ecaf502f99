"""The errors of the client: every one an `EngineError`, whose message says what came back.

Each says what became of the engine: ended (a timeout, an ended output, a broken line), or as
it was (an illegal answer, an option refused before anything was sent).
"""

from __future__ import annotations

__all__ = [
    "AnalysisComplete",
    "EngineError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "IllegalBestMoveError",
    "OptionError",
    "ProtocolError",
]


class EngineError(RuntimeError):
    """Something went wrong with an engine (the base of every error here)."""


class EngineTerminatedError(EngineError):
    """The engine's output ended: it exited (with `returncode`, when its exit was seen), or
    it was ended earlier by this client."""

    def __init__(self, message: str, returncode: int | None = None) -> None:
        super().__init__(message)
        #: Its exit status (negative: the signal that killed it), or None if not seen.
        self.returncode = returncode


class EngineTimeoutError(EngineError, TimeoutError):
    """No expected answer within the time allowed: the engine has been ended. Also raised,
    with the engine left as it was, when a call's time ran out while it waited for another
    call to finish (its message says so)."""


class ProtocolError(EngineError):
    """A line the client cannot take: too long, too many too fast, or refused by the engine
    (`info string error: ...` in answer to what was sent)."""


class IllegalBestMoveError(ProtocolError):
    """A `bestmove` that is not a move: not a house letter (A-F, a-f), or not one of the legal
    moves the caller gave."""


class OptionError(EngineError, ValueError):
    """An option the engine did not announce, or a value its `option` line does not allow."""


class AnalysisComplete(Exception):
    """`AnalysisResult.get()` after the search has ended and every info has been read (as in
    python-chess)."""
