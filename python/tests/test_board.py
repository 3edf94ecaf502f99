"""awari.Board, the crate's rules in process, against the reference counts (tests/data/perft.txt,
the figures of doc/rules.md) and against the engine binary itself: perft, the notation, legal
moves and why a move is refused, the end and its result, the Zobrist key."""

from __future__ import annotations

import copy
import multiprocessing
import pickle
import re
import subprocess
from typing import Any

import pytest

import awari
from conftest import ROOT


def reference_rows() -> list[tuple[str, str, str, str, list[int]]]:
    """tests/data/perft.txt: (name, rules, position, moves, counts at depth 1, 2, ...)."""
    rows = []
    for line in (ROOT / "tests" / "data" / "perft.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, rules, position, moves, counts = (f.strip() for f in line.split("|"))
        rows.append((name, rules, position, moves, [int(c) for c in counts.split()]))
    return rows


def board_of(rules: str, position: str, moves: str) -> awari.Board:
    board = awari.Board(None if position == "startpos" else position, rules=rules)
    if moves != "-":
        board.push_moves(moves)
    return board


def engine_perft(awari_bin: str, rules: str, position: str, moves: str, depth: int) -> int:
    args = [awari_bin, "perft", "--variant", rules, "--depth", str(depth)]
    if position != "startpos":
        args += ["--fen", position]
    if moves != "-":
        args += ["--moves", moves]
    run = subprocess.run(args, capture_output=True, text=True, timeout=120, check=True)
    total = re.search(r"^total (\d+)$", run.stdout, re.M)
    assert total, run.stdout
    return int(total.group(1))


def engine_d(awari_bin: str, rules: str, fen: str, moves: str = "") -> dict[str, str]:
    """The engine's `d` for a position: its `Key:`, `Position:` and last line, by name."""
    script = (f"setoption name UCI_Variant value {rules}\n"
              f"position fen {fen}{' moves ' + moves if moves else ''}\nd\nquit\n")
    run = subprocess.run([awari_bin], input=script, capture_output=True, text=True,
                         timeout=60, check=True)
    assert "error" not in run.stdout, run.stdout
    said = {}
    for line in run.stdout.splitlines():
        for field in ("Key", "Position"):
            if line.startswith(field + ": "):
                said[field] = line.split(": ", 1)[1]
        if "legal moves:" in line:
            said["legal"] = line.rsplit(": ", 1)[1]
        if line.startswith("Game over: "):
            said["over"] = line.split(": ", 1)[1]
    return said


# Every row, every depth up to this many leaves: in process these take milliseconds.
BUDGET = 1_000_000


@pytest.mark.parametrize("name, rules, position, moves, counts", reference_rows(),
                         ids=[row[0] for row in reference_rows()])
def test_perft_matches_the_reference_counts(name: str, rules: str, position: str, moves: str,
                                            counts: list[int]) -> None:
    board = board_of(rules, position, moves)
    for depth, expected in enumerate(counts, start=1):
        if expected > BUDGET:
            break
        assert board.perft(depth) == expected, f"{name}: depth {depth}"
    assert board.perft(0) == 1


@pytest.mark.parametrize("rules", awari.RULES)
def test_perft_agrees_with_the_engine_for_every_rule_set(awari_bin: str, rules: str) -> None:
    start = [row for row in reference_rows() if row[1] == rules and row[2] == "startpos"
             and row[3] == "-"]
    assert len(start) == 1, f"no start row for {rules} in tests/data/perft.txt"
    _, _, position, moves, counts = start[0]
    board = awari.Board(rules=rules)
    for depth in (1, 4, 6):
        engine = engine_perft(awari_bin, rules, position, moves, depth)
        assert board.perft(depth) == engine == counts[depth - 1], f"{rules} depth {depth}"
    divided = board.divide(3)
    assert list(divided) == board.legal_moves
    assert sum(divided.values()) == counts[2]


def test_the_rule_sets_are_the_engines_five() -> None:
    assert awari.RULES == ["oware", "awari", "ahl", "kalah", "ayoayo", "kalah-empty"]
    with pytest.raises(ValueError, match="the rule sets are oware, awari, ahl, kalah, ayoayo"):
        awari.Board(rules="chess")


# (what Board is given, the exception, its fields): a board that cannot be made raises a class
# that says why, each a ValueError as before it had one.
REFUSED_BOARDS: list[tuple[dict[str, Any], type[ValueError] | None, dict[str, object]]] = [
    ({"rules": "chess"}, awari.UnknownRulesError, {"rules": "chess"}),
    ({"rules": "Oware "}, None, {}),  # any case, spaces around: a rule set all the same
    ({"seeds": 0}, awari.SetupError, {"reason": "seeds-per-house"}),
    ({"seeds": 22}, awari.SetupError, {"reason": "seeds-per-house"}),
    ({"seeds": 21}, None, {}),
    # A position's text that cannot be set up is the notation's error, with its column.
    ({"fen": "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S+"}, awari.NotationError, {"column": 29}),
    ({"fen": "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S+", "rules": "ahl"}, None, {}),
]


@pytest.mark.parametrize("given, error, fields", REFUSED_BOARDS)
def test_a_board_that_cannot_be_made_raises_its_class(given: dict[str, Any],
                                                      error: type[ValueError] | None,
                                                      fields: dict[str, object]) -> None:
    if error is None:
        awari.Board(**given)
        return
    with pytest.raises(error) as refused:
        awari.Board(**given)
    assert type(refused.value) is error and isinstance(refused.value, ValueError)
    assert {name: getattr(refused.value, name) for name in fields} == fields


# (rules, position, moves played first, a move, the reason it is refused or None if legal)
LEGALITY = [
    ("oware", None, "", "a", "not-your-house"),
    ("oware", None, "", "A", None),
    ("oware", None, "A", "A", "not-your-house"),
    ("oware", None, "Aa", "A", "empty-house"),
    ("oware", "1-0-1-4-1-0-0-0-0-0-0-0-22-19-S", "", "A", "must-feed"),
    ("oware", "1-0-1-4-1-0-0-0-0-0-0-0-22-19-S", "", "D", None),
    ("oware", "0-0-0-0-0-3-0-0-0-0-1-0-25-19-N", "", "e", "game-over"),
    ("kalah", None, "C", "A", None),  # C ends in the store: South moves again
    ("kalah", None, "C", "a", "not-your-house"),
    ("ahl", None, "", "b", "not-your-house"),
    ("ayoayo", None, "EfAeCd", "C", None),
    ("ayoayo", None, "EfAeCdCf", "C", "must-feed"),
]


@pytest.mark.parametrize("rules, fen, moves, move, reason", LEGALITY)
def test_a_move_is_legal_or_refused_with_its_reason(awari_bin: str, rules: str, fen: str | None,
                                                    moves: str, move: str,
                                                    reason: str | None) -> None:
    board = awari.Board(fen, rules=rules)
    board.push_moves(moves)
    before = (board.fen(), board.move_stack)
    assert board.is_legal(move) == (reason is None)
    if reason is None:
        assert board.illegal_reason(move) is None
        board.push(move)
        assert board.pop() == move
    else:
        sentence = board.illegal_reason(move)
        assert sentence is not None and sentence.startswith(f"`{move}`")
        with pytest.raises(awari.IllegalMoveError) as refused:
            board.push(move)
        assert (refused.value.move, refused.value.reason, refused.value.index) == \
            (move, reason, None)
        assert str(refused.value) == sentence
    assert (board.fen(), board.move_stack) == before
    # The legal moves are the engine's own, letter for letter.
    said = engine_d(awari_bin, rules, board.fen())
    assert "".join(board.legal_moves) == said.get("legal", "")


def test_a_move_list_is_played_all_or_nothing() -> None:
    board = awari.Board()
    with pytest.raises(awari.IllegalMoveError) as refused:
        board.push_moves("FfEaE")  # E was sown from and is empty
    assert (refused.value.move, refused.value.reason, refused.value.index) == \
        ("E", "empty-house", 4)
    assert str(refused.value).startswith("move 5 of the list: `E`")
    assert board.move_stack == [] and board.fen() == awari.Board().fen()
    board.push_moves("F f E a")
    assert board.move_stack == ["F", "f", "E", "a"] and board.moves_text() == "FfEa"
    assert board.fen() == "6-5-5-5-0-1-0-7-7-6-5-1-0-0-S"


@pytest.mark.parametrize("text, column", [
    ("4-4-4", None),
    ("4-4-4-4-x-4-4-4-4-4-4-4-0-0-S", 9),
    ("4-4-4-4-4-4-4-4-4-4-4-4-0-0-W", 29),
    ("300-4-4-4-4-4-4-4-4-4-4-4-0-0-S", 1),
])
def test_a_position_that_is_not_notation_is_refused_with_its_column(text: str,
                                                                    column: int | None) -> None:
    with pytest.raises(awari.NotationError) as refused:
        awari.Board(text)
    assert refused.value.column == column
    assert isinstance(refused.value, ValueError)


@pytest.mark.parametrize("move, column", [("q", 1), ("AB", 2), ("", 1)])
def test_a_move_that_is_not_a_letter_is_refused(move: str, column: int) -> None:
    board = awari.Board()
    for call in (board.push, board.illegal_reason):
        with pytest.raises(awari.NotationError) as refused:
            call(move)
        assert refused.value.column == column
    # A question any text can be asked: text that is not a move is not a legal move.
    assert board.is_legal(move) is False


@pytest.mark.parametrize("rules, fen, moves", [
    ("oware", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "FfEaDc"),
    ("awari", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-10", "FfEaDc"),
    ("ahl", "3-3-3-3-3-3-3-3-3-3-3-3-0-0-S", "AbFa"),
    ("kalah", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "CAf"),
    ("ayoayo", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "EfAeCd"),
])
def test_the_notation_and_the_key_are_the_engines(awari_bin: str, rules: str, fen: str,
                                                  moves: str) -> None:
    board = awari.Board(fen, rules=rules)
    assert board.fen() == board.start_fen == fen
    keys = [board.zobrist]
    board.push_moves(moves)
    said = engine_d(awari_bin, rules, fen, moves)
    assert board.fen() == said["Position"]
    assert f"{board.zobrist:016x}" == said["Key"]
    # The notation both ways: the printed position builds the same position and key.
    again = awari.Board(board.fen(), rules=rules)
    assert (again.fen(), again.zobrist, again.turn) == (board.fen(), board.zobrist, board.turn)
    # Undo returns to the same keys.
    for move in reversed(moves):
        keys_before = board.zobrist
        assert board.pop() == move
        assert board.zobrist != keys_before
    assert board.zobrist == keys[0] and board.fen() == fen
    with pytest.raises(IndexError):
        board.pop()


def test_the_end_and_its_result() -> None:
    over = awari.Board("0-0-0-0-0-3-0-0-0-0-1-0-25-19-N")
    outcome = over.outcome()
    assert outcome is not None and over.is_game_over() and over.legal_moves == []
    assert (outcome.reason, outcome.winner, outcome.stores) == ("majority", "south", (28, 20))
    assert str(outcome) == "South wins 28-20 (a store holds a majority of the seeds)"
    assert outcome.result() == over.result() == "1-0"
    ongoing = awari.Board(rules="kalah")
    assert ongoing.outcome() is None and ongoing.result() == "*"
    # A game played to its end from the start: the reference row that ends after its moves.
    row = next(r for r in reference_rows() if r[0].startswith("F captures"))
    board = board_of(row[1], row[2], row[3])
    assert board.legal_moves == ["F"]
    board.push("F")
    assert len(board.legal_moves) == 1  # its counts: 1 1 0
    board.push(board.legal_moves[0])
    assert board.is_game_over() and board.result() in ("1-0", "0-1", "1/2-1/2")
    ended = board.outcome()
    assert ended is not None and ended.reason == "no-feeding-move"


def test_a_repetition_ends_an_oware_game() -> None:
    # One seed each side, nothing to capture: sowing round and round repeats the position.
    board = awari.Board("0-0-0-0-0-1-0-0-0-0-0-1-23-23-S")
    seen = {board.fen()}
    while not board.is_game_over():
        board.push(board.legal_moves[0])
        if board.fen() in seen:
            break
        seen.add(board.fen())
    assert board.is_repetition()
    outcome = board.outcome()
    assert outcome is not None and outcome.reason == "repetition"
    assert board.legal_moves == []
    # The same position without the history goes on.
    fresh = awari.Board(board.fen())
    assert not fresh.is_game_over() and not fresh.is_repetition()
    assert fresh != board


def test_boards_copy_compare_and_describe_themselves() -> None:
    board = awari.Board(rules="kalah", seeds=3)
    assert board.fen() == "3-3-3-3-3-3-3-3-3-3-3-3-0-0-S"
    twin = board.copy()
    twin.push("A")
    assert board.move_stack == [] and twin.move_stack == ["A"]
    assert copy.copy(twin) == twin and copy.deepcopy(twin).move_stack == ["A"]
    assert hash(awari.Board(twin.fen(), rules="kalah")) == hash(twin)
    assert repr(board) == "Board('3-3-3-3-3-3-3-3-3-3-3-3-0-0-S', rules='kalah')"
    assert eval(repr(board), {"Board": awari.Board}) == board
    assert repr(twin) == "<Board rules='kalah' start='3-3-3-3-3-3-3-3-3-3-3-3-0-0-S' moves='A'>"
    drawn = str(twin)
    assert "Position: " + twin.fen() in drawn and "North to move" in drawn
    assert (board.turn, board.houses, board.stores, board.bonus_pending) == \
        ("south", [3] * 12, (0, 0), False)
    with pytest.raises(ValueError, match="1 to 21"):
        awari.Board(seeds=0)
    with pytest.raises(ValueError, match="not both"):
        awari.Board("3-3-3-3-3-3-3-3-3-3-3-3-0-0-S", seeds=3)


# (rules, start position or None for the rule set's start, moves pushed): boards whose start,
# moves and history must survive pickling. The last ends by oware's repetition rule, which
# only the history shows: the position alone would go on.
HISTORIES = [
    ("oware", None, ""),
    ("oware", None, "FfEa"),
    ("awari", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-10", "FfEaDc"),
    ("ahl", None, "AbFa"),
    ("kalah", "3-3-3-3-3-3-3-3-3-3-3-3-0-0-S", "A"),
    ("ayoayo", None, "EfAeCd"),
    ("kalah-empty", None, "CAf"),
    ("oware", "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S", "FfAaBbCcDdEe"),
]


def history(rules: str, fen: str | None, moves: str) -> awari.Board:
    board = awari.Board(fen, rules=rules)
    board.push_moves(moves)
    return board


def same_game(a: awari.Board, b: awari.Board) -> bool:
    """The same rule set, start, moves, position and end: everything a board says."""
    return (a == b and a.rules == b.rules and a.start_fen == b.start_fen
            and a.move_stack == b.move_stack and a.fen() == b.fen()
            and a.result() == b.result() and a.is_repetition() == b.is_repetition())


@pytest.mark.parametrize("rules, fen, moves", HISTORIES)
def test_a_board_pickles_with_its_history(rules: str, fen: str | None, moves: str) -> None:
    board = history(rules, fen, moves)
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(board, protocol=protocol))
        assert same_game(again, board), (protocol, repr(again))
        if moves:
            assert again.pop() == moves[-1] == board.peek()


def test_boards_go_to_other_processes_and_back() -> None:
    boards = [history(*row) for row in HISTORIES]
    # Spawned: the children import awari afresh, so the boards travel only as pickles.
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        returned = pool.map(awari.Board.copy, boards)
    assert all(same_game(a, b) for a, b in zip(returned, boards))


@pytest.mark.parametrize("moves, last", [("F", "F"), ("FfEa", "a"), ("Ff A", "A")])
def test_peek_is_the_last_move_left_on_the_board(moves: str, last: str) -> None:
    board = history("oware", None, moves)
    stack = board.move_stack
    assert board.peek() == last == stack[-1]
    assert board.move_stack == stack


def test_peek_at_the_start_is_an_index_error() -> None:
    with pytest.raises(IndexError):
        awari.Board().peek()
    board = history("oware", None, "F")
    board.pop()
    with pytest.raises(IndexError):
        board.peek()


@pytest.mark.parametrize("text, legal", [
    ("F", True), ("A", True), ("f", False), ("q", False), ("AB", False), ("", False),
    (" F", False), ("0000", False), ("\n", False), ("é", False),
])
def test_is_legal_answers_any_text(text: str, legal: bool) -> None:
    assert awari.Board().is_legal(text) is legal


# Positions whose keys lie on both sides of 2**63, where a hash of the key as a machine word
# and Python's hash of the key as an int part.
HASHED = HISTORIES + [
    ("oware", None, moves) for moves in ("A", "B", "C", "D", "E", "Fa", "Fb", "Fc", "Fd", "Fe")
]


def test_a_boards_hash_is_its_keys_hash() -> None:
    boards = [history(*row) for row in HASHED]
    keys = [board.zobrist for board in boards]
    assert any(key >= 2**63 for key in keys) and any(key < 2**63 for key in keys), keys
    for board in boards:
        assert hash(board) == hash(board.zobrist), board
