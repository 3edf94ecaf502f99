"""awari.tables against `awari tables probe`: the same directory, the same positions, the same
values, for the position and for each of its moves; and the ways opening a directory fails."""

import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import awari
from awari.tables import Tables
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
    assert tables.probe(awari.Board("0-0-0-0-0-1-0-0-0-0-0-1-23-23-S", rules="kalah")) is None
    # One seed each, round and round: neither side can force the other's seed.
    cycle = tables.probe(awari.Board("0-0-0-0-0-1-0-0-0-0-0-1-23-23-S"))
    assert cycle is not None and (cycle.lo, cycle.hi, cycle.exact, str(cycle)) == \
        (0, 1, None, "0..1")
    # South sows its last seed into North's row: North will take both.
    taken = tables.probe(awari.Board("0-0-0-0-0-1-1-0-0-0-0-0-23-23-S"))
    assert taken is not None and taken.exact is not None and str(taken) == str(taken.exact)


def test_opening_fails_clearly(tmp_path: Path, table_dirs: dict[str, Path]) -> None:
    with pytest.raises(FileNotFoundError, match="no such directory"):
        Tables(tmp_path / "absent")
    (tmp_path / "file").write_text("x")
    with pytest.raises(NotADirectoryError):
        Tables(tmp_path / "file")
    with pytest.raises(ValueError, match="tables exist for oware and kalah"):
        Tables(table_dirs["oware"], rules="awari")
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
