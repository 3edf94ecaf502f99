"""awari._native's reply readers against tests/data/replies.json, the table of engine lines that
the Rust reader (src/client/reply.rs) runs too: the binding must give, for every line, the
fields the table says, and nothing more."""

from __future__ import annotations

import json
from typing import Any

import pytest

from awari import _native
from awari.engine import ReplyError, parse_info
from conftest import ROOT

ROWS: list[dict[str, Any]] = json.loads(
    (ROOT / "tests" / "data" / "replies.json").read_text())

INFO_NUMBERS = ("depth", "seldepth", "multipv", "nodes", "nps", "time", "hashfull", "tbhits")


def expected_info(row: dict[str, Any]) -> dict[str, Any]:
    """What `read_info` gives for an `info` row: the table's fields in the binding's form."""
    info: dict[str, Any] = {key: row[key] for key in INFO_NUMBERS if key in row}
    if "score" in row:
        ((kind, n),) = row["score"].items()
        info["score"] = (kind, n)
    if "bound" in row:
        info[f"{row['bound']}bound"] = True
    if row.get("tables"):
        info["tables"] = True
    for key in ("currmove", "string"):
        if key in row:
            info[key] = row[key]
    if "moves" in row:
        info["pv"] = row["moves"]
    return info


def test_the_table_has_every_kind_of_line() -> None:
    kinds = {row["reply"] for row in ROWS}
    assert {"info", "bestmove", "option", "other"} <= kinds, kinds
    # A variation that does not read as moves is there, so the binding's rule for it is tested.
    assert any("pv" in row and "moves" not in row for row in ROWS)


@pytest.mark.parametrize("row", ROWS, ids=[row["case"] for row in ROWS])
def test_each_line_reads_as_the_table_says(row: dict[str, Any]) -> None:
    line = row["line"]
    if row["reply"] == "info":
        assert _native.read_info(line) == expected_info(row)
    else:
        with pytest.raises(ReplyError) as refused:
            _native.read_info(line)
        assert (refused.value.line, refused.value.expected) == (line, "info")
        assert isinstance(refused.value, ValueError)
    if row["reply"] == "bestmove":
        assert _native.read_bestmove(line) == (row["move"], row.get("ponder"))
    else:
        with pytest.raises(ReplyError) as refused:
            _native.read_bestmove(line)
        assert (refused.value.line, refused.value.expected) == (line, "bestmove")
    if row["reply"] == "option":
        assert _native.read_option(line) == {
            "name": row["name"], "type": row.get("type"), "default": row.get("default"),
            "min": row.get("min"), "max": row.get("max"), "var": row["var"]}
    else:
        assert _native.read_option(line) is None


def test_the_client_s_reader_raises_the_same_class() -> None:
    # What the public reader refuses is the binding's ReplyError, a ValueError as before.
    with pytest.raises(ReplyError) as refused:
        parse_info("bestmove F", "north")
    assert (refused.value.line, refused.value.expected) == ("bestmove F", "info")
    assert type(refused.value).__module__ == "awari.engine"
    assert str(refused.value) == "not an info line: \"bestmove F\""
