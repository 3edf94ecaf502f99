"""Endgame tables in process: the value of a position, and of each of its moves, read from a
directory that `awari tables build` wrote (oware and kalah), through the crate's own reader.

    tables = awari.tables.Tables(directory, rules="oware")
    value = tables.probe(awari.Board("0-0-0-0-0-3-0-0-0-0-1-0-22-22-S"))
"""

from awari._native import Tables, Value

__all__ = ["Tables", "Value"]
