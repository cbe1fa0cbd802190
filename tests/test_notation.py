"""Move notation on every board of both games (``oska_gui/core/moves.py``).

Cells are named by row letters from the top ('a' to 'z', then 'aa', 'ab', ...) and the
column from 1; a move is read with one pattern, so a row called 'x' is no problem and
every legal move written by the rules reads back as itself, on every supported size.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from random_games import random_game
from ui_fakes import must_pass_position

from oska_gui.core.moves import cell_label, letters_row, row_letters
from oska_gui.core.types import BLACK, PASS, WHITE, Move, Rules
from oska_gui.engine.registry import GameKind, game_info
from oska_gui.games.oska import oska_rules
from oska_gui.games.pawns import pawn_rules

BOARDS = [(kind, n) for kind in GameKind for n in game_info(kind).sizes]
BIG = 12  # boards from this size on get fewer random games: each takes longer
CHECKED_POSITIONS = 16  # positions of a game whose every legal move is checked


def check_every_move(rules: Rules, seed: int) -> set[int]:
    """Check that every legal move at positions spread over a random game reads back as
    itself; return the rows its moves touched."""
    line = random_game(rules, seed)
    step = max(1, len(line) // CHECKED_POSITIONS)
    rows = set()
    for pos in line[:-1:step]:  # the game is over at the last one
        moves = rules.moves(pos)
        first = rules.move_text(moves[0]).upper()
        assert rules.parse_move(f"  {first} ", pos) == moves[0]  # case and spaces aside
        for move in moves:
            text = rules.move_text(move)
            assert rules.parse_move(text, pos) == move, text
            if not move.is_pass:
                assert rules.play(pos, move) in rules.children(pos)
                rows |= {rules.cells[move.frm][0], rules.cells[move.to][0]}
    return rows


@pytest.mark.parametrize(("kind", "n"), BOARDS, ids=[f"{k.value}-{n}" for k, n in BOARDS])
def test_every_legal_move_reads_back_as_itself(kind: GameKind, n: int) -> None:
    """Random games on every supported board, a few more on the small ones."""
    rules = game_info(kind).rules(n)
    examples = 2 if n >= BIG else 4

    @settings(max_examples=examples, deadline=None, derandomize=True)
    @given(seed=st.integers(0, 10**6))
    def check(seed: int) -> None:
        """Check one random game."""
        check_every_move(rules, seed)

    check()


def test_big_boards_reach_rows_past_z() -> None:
    """The random games of the biggest Oska board move on rows named 'aa' and later."""
    rules = oska_rules(24)
    rows = check_every_move(rules, 1)
    assert max(rows) == 44 and any(row >= 26 for row in rows)
    assert row_letters(44) == "as"


@pytest.mark.parametrize(("kind", "n"), BOARDS, ids=[f"{k.value}-{n}" for k, n in BOARDS])
def test_cell_names_are_unique_and_read_back(kind: GameKind, n: int) -> None:
    """Every cell of every board has its own name, and the name reads back as the cell;
    boards up to 26 rows keep the one-letter names."""
    rules = game_info(kind).rules(n)
    names = [rules.cell_name(cell) for cell in range(rules.size)]
    assert len(set(names)) == rules.size
    assert [rules.parse_cell(name) for name in names] == list(range(rules.size))
    rows = rules.cells[-1][0] + 1
    if rows <= 26:
        assert names == [chr(ord("a") + row) + str(column + 1) for row, column in rules.cells]


def test_row_letters_go_on_as_spreadsheet_columns() -> None:
    assert [row_letters(row) for row in (0, 1, 25, 26, 27, 51, 52, 701, 702)] == [
        "a", "b", "z", "aa", "ab", "az", "ba", "zz", "aaa"]
    assert all(letters_row(row_letters(row)) == row for row in range(3000))
    assert [cell_label(0, 0), cell_label(23, 2), cell_label(26, 0)] == ["a1", "x3", "aa1"]


def test_row_x_is_a_row_and_not_a_capture_mark() -> None:
    """'w2xx3' is w2 capturing to x3 on the 24 x 24 board; 'x3-w3' is a step from row x."""
    rules = pawn_rules(24)
    white, black = 22 * 24 + 1, 23 * 24 + 2  # w2 and x3
    pos = rules.from_rows(["-" * 24] * 24, WHITE)._replace(white=1 << white, black=1 << black)
    assert rules.parse_move("w2xx3", pos) == Move(white, black, black)
    assert rules.parse_move("w2-x2", pos) == Move(white, white + 24)
    assert rules.parse_move("x3-w3", pos._replace(turn=BLACK)) == Move(black, black - 24)
    with pytest.raises(ValueError, match="'w2-x3' is not a legal move for White"):
        rules.parse_move("w2-x3", pos)


def test_oska_n_14_and_15_read_the_moves_of_the_bug_report() -> None:
    """The last rows of n = 14 are 'x' and 'y'; n = 15 ends in 'z' and 'aa'."""
    for n, first_black_row in ((14, "y"), (15, "aa")):
        rules = oska_rules(n)
        assert rules.cell_name(rules.size - 1) == f"{first_black_row}{n}"
        pos = rules.start()._replace(turn=BLACK)
        texts = {rules.move_text(move) for move in rules.moves(pos)}
        assert f"{first_black_row}1-{row_letters(2 * n - 5)}1" in texts
        assert all(rules.parse_move(text, pos) in rules.moves(pos) for text in texts)


@pytest.mark.parametrize(("text", "words"), [
    ("b2", "cannot read move 'b2'"),
    ("b2-c1-d1", "cannot read move"),
    ("b2xc1x", "cannot read move"),
    ("b2 - c1", "cannot read move"),
    ("", "cannot read move ''"),
    ("a1x", "cannot read move"),
    ("a0-b1", "no cell named 'a0' on the n = 4 board"),
    ("z1-a1", "no cell named 'z1'"),
    ("a1-zz1", "no cell named 'zz1'"),
    ("a9999-b1", "cannot read move"),
    ("a1-b2", "'a1-b2' is not a legal move for White"),
    ("a2xc2", "'a2xc2' is not a legal move for White"),
    ("a2xc3", "no cell named 'c3'"),
    ("pass", "White has a move and may not pass"),
])
def test_unreadable_moves_say_why(text: str, words: str) -> None:
    rules = oska_rules(4)
    with pytest.raises(ValueError, match=words.replace("(", r"\(")) as error:
        rules.parse_move(text, rules.start())
    assert type(error.value) is ValueError


@given(text=st.text(max_size=40))
@settings(max_examples=300, deadline=None)
def test_any_text_is_a_move_or_a_short_value_error(text: str) -> None:
    """Anything at all: a legal move, or a ValueError of one short printable line."""
    for rules in (oska_rules(15), pawn_rules(24)):
        pos = rules.start()
        try:
            move = rules.parse_move(text, pos)
        except ValueError as error:
            message = str(error)
            assert message.isprintable() and len(message) < 120
        else:
            assert move in rules.moves(pos)


def test_hostile_text_is_trimmed_and_escaped_in_the_message() -> None:
    rules = oska_rules(4)
    for text in ("\x1b[2J" * 10_000, "a" * 1_000_000 + "1-b1", "a1-b1\n" * 100):
        with pytest.raises(ValueError) as error:
            rules.parse_move(text, rules.start())
        message = str(error.value)
        assert message.isprintable() and len(message) < 120 and "..." in message


def test_a_pass_is_read_only_where_it_is_the_move() -> None:
    rules = oska_rules(4)
    stuck = must_pass_position()
    assert rules.moves(stuck) == [PASS]
    assert rules.parse_move("PASS", stuck) == PASS
    lost = pawn_rules(3).from_rows(["w--", "b--", "---"], WHITE)  # Hexapawn: no pass
    with pytest.raises(ValueError, match="White has no move here, not even a pass"):
        pawn_rules(3).parse_move("pass", lost)


@pytest.mark.parametrize("kind", list(GameKind))
def test_each_rules_object_names_its_registry_entry(kind: GameKind) -> None:
    """Game-independent code finds a rules object's registry entry through ``game``."""
    info = game_info(kind)
    for n in (info.sizes[0], info.sizes[-1]):
        rules = info.rules(n)
        assert type(rules.game) is str and rules.game == kind.value
        assert game_info(rules.game).rules(rules.n) is rules
