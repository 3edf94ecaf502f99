"""awari.tables against `awari tables probe`: the same directory, the same positions, the same
values, for the position and for each of its moves; and the ways opening and probing fail,
each with its class and the fields a program reads."""

from __future__ import annotations

import errno
import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import awari
from awari.tables import (
    RulesMismatchError,
    Tables,
    TablesClosedError,
    TablesError,
    UnsupportedRulesError,
)
from conftest import ROOT

SEEDS = {"oware": 10, "kalah": 8}


@pytest.fixture(scope="module")
def table_dirs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Small tables, built by the engine for these tests."""
    from conftest import binary
    awari_bin = binary("AWARI_BIN", "awari")
    dirs = {}
    for rules, seeds in SEEDS.items():
        directory = tmp_path_factory.mktemp(f"tables-{rules}")
        subprocess.run([awari_bin, "tables", "build", "--variant", rules, "--seeds", str(seeds),
                        "--dir", str(directory)], check=True, capture_output=True, timeout=600)
        dirs[rules] = directory
    return dirs


def random_positions(rules: str, count: int, seed: int) -> list[str]:
    """Positions of up to the tables' seeds on the board, the rest in the stores."""
    rng = random.Random(seed)
    positions: list[str] = []
    while len(positions) < count:
        on_board = rng.randint(1, SEEDS[rules])
        houses = [0] * 12
        for _ in range(on_board):
            houses[rng.randrange(12)] += 1
        south = rng.randint(0, 48 - on_board)
        side = rng.choice("SN")
        positions.append("-".join(map(str, houses + [south, 48 - on_board - south])) + "-" + side)
    return positions


def cli_probe(awari_bin: str, rules: str, directory: Path, fen: str) -> list[str]:
    run = subprocess.run([awari_bin, "tables", "probe", "--variant", rules, "--dir",
                          str(directory), "--fen", fen],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout.splitlines()


@pytest.mark.parametrize("rules", list(SEEDS))
def test_probes_are_what_awari_tables_probe_prints(awari_bin: str, table_dirs: dict[str, Path],
                                                   rules: str) -> None:
    tables = Tables(table_dirs[rules], rules=rules)
    assert tables.problems == [] and tables.reach == SEEDS[rules] and tables.rules == rules
    bounded = 0
    for fen in random_positions(rules, 40, seed=len(rules)):
        board = awari.Board(fen, rules=rules)
        said = cli_probe(awari_bin, rules, table_dirs[rules], fen)
        value = tables.probe(board)
        assert value is not None
        assert said[0] == f"value {value}", fen
        bounded += value.exact is None
        lines = [line for line in said[1:] if re.fullmatch(r"[A-Fa-f] \S+", line)]
        moves = tables.probe_moves(board)
        assert [f"{m} {'?' if v is None else v}" for m, v in moves.items()] == lines, fen
        assert list(moves) == board.legal_moves
    # The positions include values only bounded (oware's repetitions), printed as LO..HI.
    if rules == "oware":
        assert bounded > 0


def test_a_position_outside_the_tables_has_no_value(table_dirs: dict[str, Path]) -> None:
    tables = Tables(table_dirs["oware"], verify=False)
    assert tables.probe(awari.Board()) is None  # 48 seeds on the board
    # One seed each, round and round: neither side can force the other's seed.
    cycle = tables.probe(awari.Board("0-0-0-0-0-1-0-0-0-0-0-1-23-23-S"))
    assert cycle is not None and (cycle.lo, cycle.hi, cycle.exact, str(cycle)) == \
        (0, 1, None, "0..1")
    # South sows its last seed into North's row: North will take both.
    taken = tables.probe(awari.Board("0-0-0-0-0-1-1-0-0-0-0-0-23-23-S"))
    assert taken is not None and taken.exact is not None and str(taken) == str(taken.exact)


# (what is opened, with what rule set, the exception, the built-in exception it also is, its
# fields): opening fails with a class that says why, and is still what it was before it had
# one. A directory that is not there or not one raises the built-in error `open()` would, its
# `filename` the path; `{dir}` is the directory of the row.
OPENING_FAILS = [
    ("absent", "oware", FileNotFoundError, FileNotFoundError,
     {"filename": "{dir}", "errno": errno.ENOENT}),
    ("a file", "oware", NotADirectoryError, NotADirectoryError,
     {"filename": "{dir}", "errno": errno.ENOTDIR}),
    ("tables", "awari", UnsupportedRulesError, ValueError, {"rules": "awari"}),
    ("tables", "AHL", UnsupportedRulesError, ValueError, {"rules": "ahl"}),
    ("tables", "chess", awari.UnknownRulesError, ValueError, {"rules": "chess"}),
]


@pytest.mark.parametrize("what, rules, error, builtin, fields", OPENING_FAILS)
def test_opening_fails_with_a_class_of_its_own(tmp_path: Path, table_dirs: dict[str, Path],
                                               what: str, rules: str, error: type[Exception],
                                               builtin: type[Exception],
                                               fields: dict[str, object]) -> None:
    directory = {"absent": tmp_path / "absent", "a file": tmp_path / "file",
                 "tables": table_dirs["oware"]}[what]
    if what == "a file":
        directory.write_text("x")
    with pytest.raises(error) as refused:
        Tables(directory, rules=rules)
    assert type(refused.value) is error and isinstance(refused.value, builtin)
    # The rule set's name is the package's to check, before any tables.
    assert isinstance(refused.value, TablesError) == (error is UnsupportedRulesError)
    for name, value in fields.items():
        if value == "{dir}":
            value = directory
        assert getattr(refused.value, name) == value, name


def test_a_damaged_layer_is_left_out_and_named(tmp_path: Path,
                                               table_dirs: dict[str, Path]) -> None:
    # A damaged layer is left out and named; the layers below it still answer.
    damaged = tmp_path / "damaged"
    shutil.copytree(table_dirs["oware"], damaged)
    layer = damaged / "oware-07.awtb"
    data = bytearray(layer.read_bytes())
    data[len(data) // 2] ^= 0xFF
    layer.write_bytes(bytes(data))
    tables = Tables(damaged)
    assert any("oware-07" in p for p in tables.problems), tables.problems
    assert tables.probe(awari.Board("0-0-0-0-0-1-0-0-0-0-0-1-23-23-S")) is not None
    assert tables.probe(awari.Board("0-0-0-0-0-4-0-0-0-0-0-3-20-21-S")) is None


def test_the_probe_example_plays_a_perfect_line(table_dirs: dict[str, Path]) -> None:
    run = subprocess.run([sys.executable, str(ROOT / "examples" / "probe.py"),
                          str(table_dirs["oware"])], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "south to move ends with" in run.stdout
    assert "perfect line:" in run.stdout and "result:" in run.stdout


@pytest.mark.parametrize("tables_rules, board_rules",
                         [("oware", "kalah"), ("oware", "awari"), ("kalah", "oware"),
                          ("kalah", "kalah-empty")])
def test_a_board_of_another_rule_set_is_refused(table_dirs: dict[str, Path], tables_rules: str,
                                                board_rules: str) -> None:
    tables = Tables(table_dirs[tables_rules], rules=tables_rules, verify=False)
    board = awari.Board("0-0-0-0-0-1-0-0-0-0-0-1-23-23-S", rules=board_rules)
    for probe in (tables.probe, tables.probe_moves):
        with pytest.raises(RulesMismatchError) as refused:
            probe(board)
        assert isinstance(refused.value, ValueError) and isinstance(refused.value, TablesError)
        assert (refused.value.board_rules, refused.value.tables_rules) == \
            (board_rules, tables_rules)
        assert str(refused.value).startswith(
            f"the board is of rule set {board_rules} and the tables are of {tables_rules}")


def test_closed_tables_refuse_every_use_but_their_names(table_dirs: dict[str, Path]) -> None:
    board = awari.Board("0-0-0-0-0-1-0-0-0-0-0-1-23-23-S")
    with Tables(table_dirs["oware"], verify=False) as tables:
        assert not tables.closed and tables.probe(board) is not None
    assert tables.closed and repr(tables).endswith("closed>"), repr(tables)
    assert tables.rules == "oware" and str(tables.dir) == str(table_dirs["oware"])
    uses = {"probe": lambda: tables.probe(board), "probe_moves": lambda: tables.probe_moves(board),
            "reach": lambda: tables.reach, "problems": lambda: tables.problems}
    for name, use in uses.items():
        with pytest.raises(TablesClosedError) as refused:
            use()
            pytest.fail(f"{name} answered on closed tables")
        assert isinstance(refused.value, ValueError) and isinstance(refused.value, TablesError)
        assert refused.value.dir == table_dirs["oware"], name
    tables.close()  # a second close does nothing
    assert tables.closed
    # An exception from the block goes on, and the tables are closed all the same.
    with pytest.raises(KeyError):
        with Tables(table_dirs["oware"], verify=False) as raised_in:
            raise KeyError("from the block")
    assert raised_in.closed


# Run in a child, so that a SIGBUS the guard missed ends the child and fails the test, not the
# test run: opens tables, probes a position of 7 seeds, cuts its layer's file to nothing (and,
# with `also`, writes layer 6's in place), and probes it again, then once more.
CUT_SHORT = """
import json, os, sys
import awari
from awari.tables import LayerFileError, Tables, TablesError

directory, method, verify, also = sys.argv[1], sys.argv[2], sys.argv[3] == "verify", sys.argv[4]
tables = Tables(directory, verify=verify)
board = awari.Board("0-0-0-0-0-4-0-0-0-0-0-3-20-21-S")
probe = getattr(tables, method)
result = {"before": repr(probe(board))}
if also == "written":
    six = os.path.join(directory, "oware-06.awtb")
    with open(six, "r+b") as f:  # the same byte again: only the file's time says so
        f.seek(40)
        byte = f.read(1)
        f.seek(40)
        f.write(byte)
    stat = os.stat(six)
    os.utime(six, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
os.truncate(os.path.join(directory, "oware-07.awtb"), 0)
try:
    result["cut"] = repr(probe(board))
except LayerFileError as e:
    result["raised"] = {"class": type(e).__name__, "oserror": isinstance(e, OSError),
                        "tables": isinstance(e, TablesError), "path": str(e.path),
                        "layer": e.layer, "reason": e.reason, "message": str(e)}
result["after"] = repr(probe(board))
result["problems"] = tables.problems
result["reach"] = tables.reach
print(json.dumps(result))
"""


@pytest.mark.parametrize("method, verify, also, after", [
    ("probe", "verify", "-", "None"),
    ("probe", "unverified", "-", "None"),
    ("probe_moves", "unverified", "-", "{'F': None}"),
    # Layer 6 changed too: the error is layer 7's, whose read failed; its message names both.
    ("probe", "unverified", "written", "None"),
])
def test_a_layer_cut_short_under_open_tables_raises_and_is_dropped(
        tmp_path: Path, table_dirs: dict[str, Path], method: str, verify: str, also: str,
        after: str) -> None:
    directory = tmp_path / "tables"
    shutil.copytree(table_dirs["oware"], directory)
    run = subprocess.run([sys.executable, "-c", CUT_SHORT, str(directory), method, verify, also],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, f"the interpreter ended with {run.returncode}: {run.stderr}"
    result = json.loads(run.stdout)
    assert result["before"] != after, result
    raised = result.get("raised")
    assert raised is not None, result
    assert {k: raised[k] for k in ("class", "oserror", "tables", "path", "layer", "reason")} == \
        {"class": "LayerFileError", "oserror": True, "tables": True,
         "path": str(directory / "oware-07.awtb"), "layer": 7, "reason": "resized"}, result
    assert ("oware-06.awtb: written in place" in raised["message"]) == (also == "written")
    assert result["after"] == after, result
    assert any("oware-07" in problem for problem in result["problems"]), result
    assert result["reach"] == 6 - (also == "written"), result
