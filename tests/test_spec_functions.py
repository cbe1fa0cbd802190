"""The assignment's spec functions ``movegen`` and ``oskaplayer`` against docs/rules.md.

Checked against the slow reference in ``reference_oska`` (no shared code): both board
forms, fresh results, unmutated inputs, determinism, legal and sensible oskaplayer
choices, and precise errors for bad input.
"""

from __future__ import annotations

import copy
import random
import re
from collections import Counter

import pytest
from board_strategies import boards
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_oska import (
    opponent,
    ref_movegen,
    ref_prove,
    ref_result,
    ref_start,
    ref_successors,
)

from oska_gui import movegen, oskaplayer

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

Board = list[str]
START4 = ["wwww", "---", "--", "---", "bbbb"]


# -- helpers ------------------------------------------------------------------------------


def to_lists(board: Board, empty: str) -> list[list[str]]:
    """Return ``board`` in the list-of-lists form with ``empty`` for empty cells."""
    return [[empty if ch == "-" else ch for ch in row] for row in board]


def multiset(boards: list) -> Counter:
    """Return the boards (either form) as a Counter of hashable row tuples."""
    return Counter(tuple(row if isinstance(row, str) else tuple(row) for row in b) for b in boards)


def game_over(board: Board) -> bool:
    """Return True when the game on ``board`` is finished (reference, deadlock included)."""
    return ref_result(board) is not None


def playout_positions(seed: int, count: int, sizes: tuple[int, ...]) -> list[tuple[Board, str]]:
    """Return (board, player to move) from seeded random reference playouts, game not over.

    Positions where the side to move must pass are skipped (oskaplayer returns them
    unchanged, which other tests cover).
    """
    rng = random.Random(seed)
    out: list[tuple[Board, str]] = []
    while len(out) < count:
        board, player = ref_start(rng.choice(sizes)), "w"
        while not game_over(board):
            if ref_movegen(board, player):
                out.append((board, player))
            board, player = rng.choice(ref_successors(board, player))
    return out[:count]


def wins_at_once(board: Board, player: str) -> bool:
    """Return True when some move of ``player`` ends the game with ``player`` winning."""
    results = (ref_result(b) for b in ref_movegen(board, player))
    return any(r is not None and r[0] == player for r in results)


def winning_positions(seed: int, count: int) -> list[tuple[Board, str]]:
    """Return positions from random playouts in which the side to move can win at once."""
    rng = random.Random(seed)
    out: list[tuple[Board, str]] = []
    while len(out) < count:
        board, player = ref_start(rng.choice((4, 5, 6))), "w"
        while not game_over(board):
            if wins_at_once(board, player):
                out.append((board, player))
                break
            board, player = rng.choice(ref_successors(board, player))
    return out


WINNING = winning_positions(seed=11, count=30)
MIDGAME = playout_positions(seed=5, count=40, sizes=(4, 5))


# -- movegen ---------------------------------------------------------------------------------


def test_the_assignment_example() -> None:
    """The assignment's example: six boards for White at the n = 4 start, 'www-', '--w'
    among them."""
    result = movegen(["wwww", "---", "--", "---", "bbbb"], "w")
    assert len(result) == 6
    assert ["www-", "--w", "--", "---", "bbbb"] in result
    assert multiset(result) == multiset(ref_movegen(START4, "w"))


@SETTINGS
@given(board=boards(), player=st.sampled_from("wb"))
def test_movegen_matches_reference(board: Board, player: str) -> None:
    """String form: exactly the reference's boards, no duplicates, lists of str."""
    result = movegen(board, player)
    assert isinstance(result, list)
    assert multiset(result) == multiset(ref_movegen(board, player))
    assert len(set(multiset(result))) == len(result)
    for b in result:
        assert isinstance(b, list) and all(isinstance(row, str) for row in b)


@SETTINGS
@given(board=boards(), player=st.sampled_from("wb"), empty=st.sampled_from("e-"))
def test_movegen_list_form_matches_reference(board: Board, player: str, empty: str) -> None:
    """List-of-lists form: the same boards, as lists of one-char strings, same empty char."""
    result = movegen(to_lists(board, empty), player)
    assert multiset(result) == multiset([to_lists(b, empty) for b in ref_movegen(board, player)])
    other = "-" if empty == "e" else "e"
    for b in result:
        assert isinstance(b, list)
        for row in b:
            assert isinstance(row, list)
            assert all(isinstance(cell, str) and len(cell) == 1 for cell in row)
            assert other not in row


@SETTINGS
@given(board=boards(), player=st.sampled_from("wb"), form=st.sampled_from(["str", "e", "-"]))
def test_movegen_results_are_fresh_and_input_untouched(
    board: Board, player: str, form: str
) -> None:
    """The input is not mutated; results share no mutable object with it or each other."""
    given_board = board if form == "str" else to_lists(board, form)
    before = copy.deepcopy(given_board)
    result = movegen(given_board, player)
    assert given_board == before
    again = copy.deepcopy(result)
    assert all(b is not given_board for b in result)
    assert len({id(b) for b in result}) == len(result)
    if form != "str":
        input_rows = {id(row) for row in given_board}
        result_rows = [id(row) for b in result for row in b]
        assert not input_rows & set(result_rows)
        assert len(set(result_rows)) == len(result_rows)
        for b in result:  # scribbling on the results must not reach the input
            for row in b:
                row[:] = ["?"] * len(row)
        assert given_board == before
    for b in result:
        b.clear()
    assert given_board == before
    assert movegen(given_board, player) == again


def test_movegen_is_pure_move_generation() -> None:
    """No game-over check, no pass: moves on finished boards, [] for a side without moves."""
    white_home = ["----", "-b-", "--", "---", "w--w"]  # White has won (rule 3)
    assert movegen(white_home, "w") == []
    assert multiset(movegen(white_home, "b")) == multiset(ref_movegen(white_home, "b"))
    assert movegen(white_home, "b")
    no_black = ["----", "w--", "--", "---", "----"]  # White has won (rule 1)
    assert multiset(movegen(no_black, "w")) == multiset(ref_movegen(no_black, "w"))
    assert len(movegen(no_black, "w")) == 1  # row 1 X=1 -> row 2 X=2 only
    assert movegen(no_black, "b") == []
    must_pass = ["----", "-b-", "--", "w--", "ww--"]  # White blocked by its own pieces
    assert movegen(must_pass, "w") == []
    deadlock = ["bb--", "b--", "--", "w--", "ww--"]
    assert movegen(deadlock, "w") == [] and movegen(deadlock, "b") == []
    assert movegen(to_lists(deadlock, "e"), "b") == []


def test_movegen_is_deterministic() -> None:
    """The same call gives the same list in the same order."""
    for board, player in MIDGAME[:20]:
        assert movegen(board, player) == movegen(list(board), player)
        lists = to_lists(board, "e")
        assert movegen(lists, player) == movegen(copy.deepcopy(lists), player)


# -- oskaplayer ----------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    board=boards(max_n=7),
    player=st.sampled_from("wb"),
    depth=st.integers(1, 3),
    form=st.sampled_from(["str", "e", "-"]),
)
def test_oskaplayer_returns_a_legal_move_or_the_same_board(
    board: Board, player: str, depth: int, form: str
) -> None:
    """A member of movegen, or the unchanged board if there is no move or the game is over.

    The result is a fresh object in the input's form, the input is not mutated, and a
    second call gives the same answer.
    """
    given_board = board if form == "str" else to_lists(board, form)
    before = copy.deepcopy(given_board)
    result = oskaplayer(given_board, player, depth)
    assert given_board == before
    assert result is not given_board
    if form != "str":
        assert all(isinstance(row, list) for row in result)
        assert not {id(row) for row in given_board} & {id(row) for row in result}
    if game_over(board) or not ref_movegen(board, player):
        assert result == before
    else:
        assert result in movegen(copy.deepcopy(before), player)
    assert oskaplayer(given_board, player, depth) == result


@pytest.mark.parametrize(("board", "player"), WINNING)
def test_depth_one_takes_an_immediate_win(board: Board, player: str) -> None:
    """When a move wins on the spot, depth 1 plays a winning move (both forms)."""
    result = oskaplayer(board, player, 1)
    assert result in ref_movegen(board, player)
    assert ref_result(result) is not None and ref_result(result)[0] == player
    as_lists = oskaplayer(to_lists(board, "e"), player, 1)
    assert ref_result(["".join(r).replace("e", "-") for r in as_lists])[0] == player


# Found by seeded random reference playouts: positions where the proven values of the moves
# differ, so that a wrong choice shows. Example, the depth-3 case ['--b-', 'w--', '--',
# 'bw-', '---w'] for White (n = 4): stepping the row-3 piece home lets Black's only move
# (row 3 -> row 2) set up White's only move, a capture of Black's last piece outside row 0,
# which hands Black the game (rule 3): -1 twice. Stepping row 1 -> row 2 instead forces
# Black's capture, after which White steps its last piece home and wins: +1.
PROVEN_CASES = [
    (["----", "wbw", "-b", "---", "w---"], "w", 2),
    (["---b", "wb-", "b-", "--b", "-w--"], "b", 2),
    (["w--b--", "-----", "----", "--w", "wb", "---", "----", "--w--", "---ww-"], "w", 2),
    (["b--b-", "----", "---", "-w", "--b", "--w-", "w----"], "w", 2),
    (["--b-b", "----", "w--", "b-", "---", "--w-", "---w-"], "b", 2),
    (["--b--", "----", "-w-", "-b", "-w-", "----", "--ww-"], "w", 2),
    (["-bb--", "----", "---", "-w", "--b", "-w--", "-ww--"], "w", 2),
    (["--bb--", "w----", "----", "w--", "b-", "---", "----", "-----", "--www-"], "b", 2),
    (["-b--", "-b-", "w-", "b--", "-w--"], "w", 2),
    (["--bb-", "---w", "---", "-b", "---", "----", "-www-"], "b", 2),
    (["-b--", "-bw", "-b", "---", "ww--"], "b", 2),
    (["-b---", "---w", "--b", "--", "---", "--w-", "w---w"], "b", 2),
    (["wb----", "-----", "----", "--w", "-w", "--b", "-w--", "-----", "--ww--"], "w", 3),
    (["--b-b-", "-----", "----", "w--", "b-", "---", "---w", "-----", "---w--"], "w", 3),
    (["--b-b-", "-----", "----", "w--", "b-", "---", "----", "---w-", "---w--"], "b", 3),
    (["wb--", "-b-", "w-", "b--", "-ww-"], "w", 3),
    (["-bb-", "w--", "b-", "---", "-w-b"], "b", 3),
    (["--b-", "w--", "--", "bw-", "---w"], "w", 3),
    (["---bb-", "-----", "----", "b--", "--", "--w", "b--b", "-----", "---ww-"], "b", 3),
    (["---bb-", "-----", "-b--", "---", "--", "--w", "b--b", "-----", "---ww-"], "w", 3),
    (["-----", "---w", "w-b", "--", "b--", "--w-", "---w-"], "w", 3),
    (["-----", "----", "w--", "bw", "---", "--w-", "---w-"], "w", 3),
    (["-----", "----", "w--", "b-", "--w", "--w-", "---w-"], "b", 3),
    (["-bb-", "--w", "b-", "---", "-www"], "b", 3),
]


def proven_values(board: Board, player: str, depth: int) -> dict[tuple[str, ...], int]:
    """Return, per move of ``player``, its proven value within ``depth`` plies (ref_prove)."""
    return {
        tuple(b): ref_prove(b, opponent(player), depth - 1, player)
        for b in ref_movegen(board, player)
    }


@pytest.mark.parametrize(("board", "player", "depth"), PROVEN_CASES)
def test_oskaplayer_respects_proven_results(board: Board, player: str, depth: int) -> None:
    """The choice is as good as the best move *proven* within ``depth`` plies.

    ``ref_prove`` knows only finished games: +1 forced win, -1 forced loss within the
    horizon, 0 otherwise. A minimax of ``depth`` plies whose win and loss scores lie
    beyond every heuristic score must pick a move whose proven value is the best one:
    a forced win if one exists, and never a forced loss when something else is left.
    """
    values = proven_values(board, player, depth)
    assert len(set(values.values())) > 1  # the case can tell a good choice from a bad one
    chosen = oskaplayer(board, player, depth)
    assert values[tuple(chosen)] == max(values.values())
    for deeper in (depth + 1, depth + 2):  # the same must hold with a deeper search
        values = proven_values(board, player, deeper)
        assert values[tuple(oskaplayer(board, player, deeper))] == max(values.values())


def test_oskaplayer_on_a_finished_game_or_a_pass_returns_the_board() -> None:
    """Game over (any rule) or no legal move: the same board comes back, in its form."""
    cases = [
        (["----", "-b-", "--", "---", "w--w"], "b"),  # White home: over although Black moves
        (["----", "w--", "--", "---", "----"], "w"),  # Black captured
        (["bb--", "---", "--", "---", "-w--"], "w"),  # both home
        (["bb--", "b--", "--", "w--", "ww--"], "w"),  # deadlock
        (["----", "-b-", "--", "w--", "ww--"], "w"),  # White must pass
    ]
    for board, player in cases:
        for depth in (1, 3):
            assert oskaplayer(board, player, depth) == board
            assert oskaplayer(to_lists(board, "e"), player, depth) == to_lists(board, "e")
            assert oskaplayer(to_lists(board, "-"), player, depth) == to_lists(board, "-")


def test_oskaplayer_start_positions() -> None:
    """From every start n = 4..8 both sides get a legal move, the same one twice."""
    for n in range(4, 9):
        for player in "wb":
            board = ref_start(n)
            result = oskaplayer(board, player, 2)
            assert result in ref_movegen(board, player)
            assert oskaplayer(board, player, 2) == result


# -- bad input ------------------------------------------------------------------------------

BAD_BOARDS = [
    # (board, exception, regexes the message must match, what is wrong)
    (("wwww", "---", "--", "---", "bbbb"), TypeError, [], "board is a tuple"),
    ("wwww---", TypeError, [], "board is a string"),
    (None, TypeError, [], "board is None"),
    (["wwww", ("-", "-", "-"), "--", "---", "bbbb"], TypeError, [r"\b[12]\b"], "row 1 a tuple"),
    (["wwww", "---", 7, "---", "bbbb"], TypeError, [r"\b[23]\b"], "row 2 an int"),
    (["wwww", "---", "--", "---"], ValueError, [r"(?i)row", r"\b4\b"], "4 rows"),
    (["wwww", "---", "--", "--", "---", "bbbb"], ValueError, [r"(?i)row", r"\b6\b"], "6 rows"),
    ([], ValueError, [r"(?i)row", r"\b0\b"], "no rows"),
    (["www", "--", "bbb"], ValueError, [r"(?i)(row|n)"], "3 rows: n = 3 < 4"),
    (["w", "", "b"], ValueError, [], "3 short rows: n < 4"),
    (
        ["wwwwww", "-----", "-------", "---", "--", "---", "----", "-----", "bbbbbb"],
        ValueError,
        [r"(?i)row", r"\b[23]\b"],
        "row 2 has 7 cells, not 4",
    ),
    (["wwww", "---", "--", "---", "bbb"], ValueError, [r"(?i)row", r"\b[45]\b"], "last row short"),
    (["wwww", "---", "-x", "---", "bbbb"], ValueError, [r"x", r"\b[23]\b"], "unknown 'x'"),
    (["wwww", "---", "--", "-W-", "bbbb"], ValueError, [r"W", r"\b[34]\b"], "capital W"),
    (["wwww", "w--", "--", "---", "bbbb"], ValueError, [r"(?i)(w|white)", r"\b[45]\b"], "5 w"),
    (["bwww", "---", "--", "---", "bbbb"], ValueError, [r"(?i)(b|black)", r"\b[45]\b"], "5 b"),
]


@pytest.mark.parametrize(("board", "error", "patterns", "why"), BAD_BOARDS)
@pytest.mark.parametrize("function", ["movegen", "oskaplayer"])
def test_bad_boards_raise(
    board: object, error: type, patterns: list[str], why: str, function: str
) -> None:
    """Each malformed board raises the right exception with a message that says where."""
    before = copy.deepcopy(board)
    with pytest.raises(error) as info:
        if function == "movegen":
            movegen(board, "w")
        else:
            oskaplayer(board, "w", 1)
    message = str(info.value)
    assert message, why
    for pattern in patterns:
        assert re.search(pattern, message), (why, message)
    assert board == before


ROW_2 = r"\b[23]\b"  # the row index, counted from 0 or from 1
BAD_LIST_BOARDS = [
    ([["w"] * 4, ["e"] * 3, ["e", "x"], ["e"] * 3, ["b"] * 4], ValueError, ROW_2, "'x'"),
    ([["w"] * 4, ["e"] * 3, ["e", "ww"], ["e"] * 3, ["b"] * 4], ValueError, ROW_2, "'ww'"),
    ([["w"] * 4, ["e"] * 3, ["e", 0], ["e"] * 3, ["b"] * 4], TypeError, ROW_2, "int cell"),
    ([["w"] * 4, ["e"] * 3, ["e"], ["e"] * 3, ["b"] * 4], ValueError, ROW_2, "row 2 short"),
    ([["w"] * 4, ["e"] * 3, "--", ["e"] * 3, ["b"] * 4], TypeError, ROW_2, "row 2 a str"),
    (
        [["w"] * 4, ["w", "e", "e"], ["e"] * 2, ["e"] * 3, ["b"] * 4],
        ValueError,
        r"\b[45]\b",
        "5 white",
    ),
]


@pytest.mark.parametrize(("board", "error", "pattern", "why"), BAD_LIST_BOARDS)
def test_bad_list_boards_raise(board: list, error: type, pattern: str, why: str) -> None:
    """The list-of-lists form is checked as strictly, and the message says where."""
    for call in (lambda: movegen(board, "b"), lambda: oskaplayer(board, "b", 2)):
        with pytest.raises(error) as info:
            call()
        assert re.search(pattern, str(info.value)), (why, str(info.value))


@pytest.mark.parametrize("player", ["x", "", "W", "B", "white", "wb", " w"])
def test_bad_player_value(player: str) -> None:
    """A string other than 'w' or 'b' is a ValueError naming the player."""
    for call in (lambda: movegen(START4, player), lambda: oskaplayer(START4, player, 1)):
        with pytest.raises(ValueError, match=r"(?i)player"):
            call()


@pytest.mark.parametrize("player", [0, 1, None, ["w"], b"w"])
def test_bad_player_type(player: object) -> None:
    """A player that is not a string is a TypeError."""
    for call in (lambda: movegen(START4, player), lambda: oskaplayer(START4, player, 1)):
        with pytest.raises(TypeError):
            call()


@pytest.mark.parametrize("depth", [0, -1, -100])
def test_bad_depth_value(depth: int) -> None:
    """A depth below 1 is a ValueError naming the depth, also on a finished board."""
    finished = ["----", "w--", "--", "---", "----"]
    for board in (START4, finished):
        with pytest.raises(ValueError, match=r"(?i)depth"):
            oskaplayer(board, "w", depth)


@pytest.mark.parametrize("depth", [1.0, 2.5, "2", None, True, False])
def test_bad_depth_type(depth: object) -> None:
    """A depth that is not an int (a bool does not count as one) is a TypeError."""
    with pytest.raises(TypeError, match=r"(?i)depth"):
        oskaplayer(START4, "w", depth)


def test_inputs_are_checked_before_anything_else() -> None:
    """Validation is not skipped on boards where the answer would be trivial."""
    no_moves_board = ["----", "-b-", "--", "w--", "ww--"]
    with pytest.raises(ValueError):
        oskaplayer(no_moves_board, "x", 1)
    with pytest.raises(ValueError):
        movegen(no_moves_board + ["-"], "w")
    with pytest.raises(ValueError):
        movegen(["----", "-b-", "--", "---", "w--w"], "q")
