"""Endgame tables in process: the value of a position, and of each of its moves, read from a
directory that `awari tables build` wrote (oware and kalah), through the crate's own reader.

    tables = awari.tables.Tables(directory, rules="oware")
    value = tables.probe(awari.Board("0-0-0-0-0-3-0-0-0-0-1-0-22-22-S"))

What `Tables` raises, once past the directory (`FileNotFoundError`, `NotADirectoryError`) and
the rule set's name (`awari.UnknownRulesError`), is a `TablesError`, and also the built-in
exception it raised before it had a class of its own: `TablesClosedError`,
`RulesMismatchError` and `UnsupportedRulesError` are `ValueError`s, `LayerFileError` (a file
cut short or rewritten under open tables: its `path`, `layer` and `reason`) an `OSError`.
"""

from awari._native import (
    LayerFileError,
    RulesMismatchError,
    Tables,
    TablesClosedError,
    TablesError,
    UnsupportedRulesError,
    Value,
)

__all__ = [
    "LayerFileError",
    "RulesMismatchError",
    "Tables",
    "TablesClosedError",
    "TablesError",
    "UnsupportedRulesError",
    "Value",
]
