"""Tests of Hexapawn / miniChess: rules against a plain reference, spec functions, solving.

The reference below is written straight from docs/rules.md ("Hexapawn") on the
spec's own board form, a list of lists of ints (0 empty, 1 white, 2 black), sharing no
code with ``oska_gui``.
"""

from __future__ import annotations

import copy
import itertools
import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oska_gui import hexapawn, move_chooser, move_maker
from oska_gui.engine.search import analyse, is_game_end, plies_to_end
from oska_gui.engine.solver import solve
from oska_gui.games.oska import BLACK, WHITE, Position
from oska_gui.games.pawns import pawn_evaluator, pawn_rules

Grid = list[list[int]]


# -- the reference ------------------------------------------------------------------

def ref_moves(grid: Grid, color: int) -> list[Grid]:
    """Return the boards after each move of ``color``: a step forward or a diagonal capture."""
    n, ahead, other = len(grid), 1 if color == 1 else -1, 3 - color
    out = []
    for r, c in itertools.product(range(n), range(n)):
        if grid[r][c] != color or not 0 <= r + ahead < n:
            continue
        targets = [(c, 0)] + [(c + dc, other) for dc in (-1, 1) if 0 <= c + dc < n]
        for col, needed in targets:
            if grid[r + ahead][col] == needed:
                after = copy.deepcopy(grid)
                after[r][c], after[r + ahead][col] = 0, color
                out.append(after)
    return out


def ref_winner(grid: Grid, to_move: int) -> int | None:
    """Return the winner (1 or 2) of a finished game with ``to_move`` to move, else None."""
    n = len(grid)
    cells = [cell for row in grid for cell in row]
    if 1 in grid[n - 1] or 2 not in cells:
        return 1
    if 2 in grid[0] or 1 not in cells:
        return 2
    if not ref_moves(grid, to_move):
        return 3 - to_move
    return None


@cache
def ref_value(frozen: tuple, to_move: int) -> int:
    """Return the perfect-play winner (1 or 2) of the frozen board, plain minimax."""
    grid = [list(row) for row in frozen]
    winner = ref_winner(grid, to_move)
    if winner is not None:
        return winner
    outcomes = {ref_value(freeze(after), 3 - to_move) for after in ref_moves(grid, to_move)}
    return to_move if to_move in outcomes else 3 - to_move


def freeze(grid: Grid) -> tuple:
    """Return a hashable copy of ``grid``."""
    return tuple(tuple(row) for row in grid)


def ref_start(n: int) -> Grid:
    """Return the starting board: white (1) on row 0, black (2) on row n-1."""
    return [[1] * n] + [[0] * n for _ in range(n - 2)] + [[2] * n]


# -- helpers ------------------------------------------------------------------------

def to_strings(grid: Grid) -> list[str]:
    """Return the ``hexapawn`` form (row strings) of an int board."""
    return ["".join("-wb"[cell] for cell in row) for row in grid]


def to_grid(rows: list[str]) -> Grid:
    """Return the int board of ``hexapawn`` row strings."""
    return [["-wb".index(ch) for ch in row] for row in rows]


def random_game(n: int, rng: random.Random) -> list[tuple[Grid, int]]:
    """Return the (board, color to move) pairs of one random reference game, end included."""
    grid, color, out = ref_start(n), 1, []
    while True:
        out.append((grid, color))
        if ref_winner(grid, color) is not None:
            return out
        grid, color = rng.choice(ref_moves(grid, color)), 3 - color


def live_positions(n: int, games: int, seed: int) -> list[tuple[Grid, int]]:
    """Return the unfinished positions of ``games`` random games on an n x n board."""
    rng = random.Random(seed)
    return [(grid, color) for _ in range(games) for grid, color in random_game(n, rng)
            if ref_winner(grid, color) is None]


@st.composite
def grids(draw: st.DrawFn) -> Grid:
    """Draw a random n x n board with at most n pawns of each colour (n = 3..6)."""
    n = draw(st.integers(3, 6))
    cells = draw(st.permutations(range(n * n)))
    whites, blacks = draw(st.integers(0, n)), draw(st.integers(0, n))
    grid = [[0] * n for _ in range(n)]
    for i, cell in enumerate(cells[:whites + blacks]):
        grid[cell // n][cell % n] = 1 if i < whites else 2
    return grid


def position_of(grid: Grid, color: int) -> Position:
    """Return the engine position of an int board with ``color`` to move."""
    rules = pawn_rules(len(grid))
    return rules.from_rows(to_strings(grid), WHITE if color == 1 else BLACK)


# -- rules --------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(grid=grids(), color=st.sampled_from([1, 2]))
def test_move_maker_matches_the_reference(grid: Grid, color: int) -> None:
    """Same successors (as a multiset) as the plain reading of the rules."""
    made = move_maker(grid, color)
    assert sorted(made) == sorted(ref_moves(grid, color))


@settings(max_examples=200, deadline=None)
@given(grid=grids(), color=st.sampled_from([1, 2]))
def test_terminal_matches_the_reference(grid: Grid, color: int) -> None:
    """The engine's game end (incl. stuck = loss) agrees with the reference winner."""
    rules, pos = pawn_rules(len(grid)), position_of(grid, color)
    assert rules.has_move(pos) == bool(ref_moves(grid, color))
    winner = ref_winner(grid, color)
    both = (1 in grid[-1] or 2 not in sum(grid, [])) and (2 in grid[0] or 1 not in sum(grid, []))
    if both:  # no game gets here: both sides have won; the engine credits the last mover
        assert rules.terminal(pos) == -1
        return
    result = rules.terminal(pos)
    if result is None:
        result = rules.stuck_result if not rules.children(pos) else None
    expected = None if winner is None else 1 if winner == color else -1
    assert result == expected


def test_start_moves() -> None:
    """From the start White has exactly n steps forward and no capture."""
    for n in range(3, 8):
        assert len(move_maker(ref_start(n), 1)) == n
        assert len(move_maker(ref_start(n), 2)) == n


def test_win_conditions() -> None:
    """Far row, no pawns left, and no legal move for the side to move all end the game."""
    far_row = [[0, 1, 0], [0, 0, 0], [2, 1, 2]]
    no_black = [[0, 1, 0], [0, 1, 0], [0, 0, 0]]
    white_stuck = [[0, 0, 0], [1, 0, 0], [2, 0, 2]]
    for grid, to_move, winner in ((far_row, 2, 1), (no_black, 2, 1), (white_stuck, 1, 2)):
        rules, pos = pawn_rules(3), position_of(grid, to_move)
        assert solve(rules, pos).result == (1 if winner == to_move else -1)
        assert solve(rules, pos).plies == 0
        player = "wb"[to_move - 1]
        assert hexapawn(to_strings(grid), 3, player, 2) == to_strings(grid)


# -- spec functions -----------------------------------------------------------------

def test_minichess_example() -> None:
    """The assignment's example: black has three moves and the chooser takes the capture,
    in any order."""
    board = [[0, 1, 1], [1, 0, 0], [2, 2, 2]]
    moves = move_maker(board, 2)
    assert len(moves) == 3
    best = [[0, 1, 1], [2, 0, 0], [2, 0, 2]]
    for order in itertools.permutations(moves):
        assert move_chooser(list(order), 2) == best


@pytest.mark.parametrize("n", [3, 4, 5])
def test_hexapawn_result_is_a_legal_move(n: int) -> None:
    """Every hexapawn answer is one of move_maker's boards for the same position."""
    for grid, color in live_positions(n, games=6, seed=n)[::2]:
        for depth in (1, 2, 3):
            result = hexapawn(to_strings(grid), n, "wb"[color - 1], depth)
            assert to_grid(result) in move_maker(grid, color)


def test_depth_one_takes_an_immediate_win() -> None:
    """Whenever a move wins at once, a 1-ply search plays a winning move."""
    checked = 0
    for n in (3, 4, 5):
        for grid, color in live_positions(n, games=30, seed=10 + n):
            if not any(ref_winner(after, 3 - color) == color for after in ref_moves(grid, color)):
                continue
            result = to_grid(hexapawn(to_strings(grid), n, "wb"[color - 1], 1))
            assert ref_winner(result, 3 - color) == color
            checked += 1
    assert checked > 20


@pytest.mark.slow
def test_chooser_picks_a_winning_candidate_when_there_is_one() -> None:
    """On small boards the chooser's pick wins whenever some candidate does."""
    checked = 0
    for n in (3, 4):
        for grid, color in live_positions(n, games=12, seed=20 + n):
            frozen_grid = freeze(grid)
            candidates = move_maker(grid, color)
            winners = [c for c in candidates if ref_value(freeze(c), 3 - color) == color]
            choice = move_chooser(candidates, color)
            assert choice in candidates
            assert freeze(grid) == frozen_grid
            if winners:
                assert choice in winners
                checked += 1
    assert checked > 10


def test_chooser_on_big_boards_searches_and_is_deterministic() -> None:
    """Too big to solve (7 x 7 start): a fixed-depth search picks, the same every time."""
    candidates = move_maker(ref_start(7), 1)
    first = move_chooser(candidates, 1)
    assert first in candidates
    assert move_chooser(copy.deepcopy(candidates), 1) == first


def test_inputs_are_never_mutated_and_results_are_new() -> None:
    """Spec functions copy: the caller's lists stay as they were and are not returned."""
    grid = [[0, 1, 1], [1, 0, 0], [2, 2, 2]]
    rows = to_strings(grid)
    saved_grid, saved_rows = copy.deepcopy(grid), list(rows)
    moves = move_maker(grid, 2)
    saved_moves = copy.deepcopy(moves)
    choice = move_chooser(moves, 2)
    assert moves == saved_moves
    assert choice is not moves[0] and all(row is not moves[0][0] for row in choice)
    result = hexapawn(rows, 3, "b", 4)
    assert result is not rows
    assert grid == saved_grid and rows == saved_rows
    assert hexapawn(rows, 3, "b", 4) == result  # deterministic


def test_list_of_characters_form_round_trips() -> None:
    """The Prolog-style form (lists of characters, 'e' for empty) comes back in that form."""
    board = [["w", "w", "w"], ["e", "e", "e"], ["b", "b", "b"]]
    result = hexapawn(board, 3, "w", 2)
    assert all(isinstance(row, list) for row in result)
    as_rows = ["".join("-" if ch == "e" else ch for ch in row) for row in result]
    assert to_grid(as_rows) in move_maker(ref_start(3), 1)


# -- solving ------------------------------------------------------------------------

def test_3x3_hexapawn_is_a_second_player_win() -> None:
    """The classic result: with perfect play Black (moving second) wins 3 x 3 Hexapawn."""
    rules = pawn_rules(3)
    exact = solve(rules, rules.start())
    assert exact.result == -1
    assert ref_value(freeze(ref_start(3)), 1) == 2
    score = analyse(rules, pawn_evaluator(rules), rules.start(), 2 * 3 * 2 + 1).score
    assert is_game_end(score) and score < 0 and plies_to_end(score) == exact.plies


def test_4x4_solution_matches_the_reference() -> None:
    """The solver's winner of 4 x 4 Hexapawn is the reference minimax's winner."""
    rules = pawn_rules(4)
    exact = solve(rules, rules.start())
    assert (1 if exact.result == 1 else 2) == ref_value(freeze(ref_start(4)), 1)


def test_solver_agrees_with_alpha_beta_proofs() -> None:
    """On 4 x 4 positions, proven search results have the solver's result and plies."""
    rules, proofs = pawn_rules(4), 0
    for grid, color in live_positions(4, games=10, seed=30):
        pos = position_of(grid, color)
        exact = solve(rules, pos)
        score = analyse(rules, pawn_evaluator(rules), pos, 5).score
        if is_game_end(score):
            proofs += 1
            assert (1 if score > 0 else -1, plies_to_end(score)) == exact
        assert exact.result == (1 if ref_value(freeze(grid), color) == color else -1)
    assert proofs > 10


@settings(max_examples=100, deadline=None)
@given(grid=grids(), color=st.sampled_from([1, 2]))
def test_evaluator_is_side_to_move_relative_and_colour_symmetric(grid: Grid, color: int) -> None:
    """Flipping the turn negates the score; the colour-mirrored board scores the same."""
    evaluate = pawn_evaluator(pawn_rules(len(grid)))
    pos = position_of(grid, color)
    assert evaluate(pos._replace(turn=1 - pos.turn)) == -evaluate(pos)
    mirrored = [[(3 - cell) % 3 for cell in row] for row in reversed(grid)]
    assert evaluate(position_of(mirrored, 3 - color)) == evaluate(pos)


# -- bad input ----------------------------------------------------------------------

GOOD_ROWS = ["www", "---", "bbb"]


@pytest.mark.parametrize(("args", "error", "message"), [
    ((GOOD_ROWS, 3.0, "w", 1), TypeError, "n must be an int"),
    ((GOOD_ROWS, True, "w", 1), TypeError, "n must be an int"),
    ((GOOD_ROWS, 2, "w", 1), ValueError, "n must be an int from 3 to 24, got 2"),
    ((GOOD_ROWS, 4, "w", 1), ValueError, "board has 3 rows but n = 4"),
    (("www---bbb", 3, "w", 1), TypeError, "board must be a list"),
    ((["www", "--", "bbb"], 3, "w", 1), ValueError, "row 1 has 2 cells"),
    ((["www", "-x-", "bbb"], 3, "w", 1), ValueError, "row 1, column 1"),
    ((["www", "w--", "bbb"], 3, "w", 1), ValueError, "4 white pawns"),
    ((["www", 3, "bbb"], 3, "w", 1), TypeError, "row 1 must be a string"),
    ((GOOD_ROWS, 3, "x", 1), ValueError, "player must be 'w' or 'b'"),
    ((GOOD_ROWS, 3, 1, 1), TypeError, "player must be the string"),
    ((GOOD_ROWS, 3, "w", 0), ValueError, "depth must be a positive int"),
    ((GOOD_ROWS, 3, "w", 1.5), TypeError, "depth must be a positive int"),
])
def test_hexapawn_bad_input(args: tuple, error: type, message: str) -> None:
    """Bad hexapawn arguments raise the right error type with a precise message."""
    with pytest.raises(error, match=message):
        hexapawn(*args)


GOOD_GRID = [[1, 1, 1], [0, 0, 0], [2, 2, 2]]


@pytest.mark.parametrize(("args", "error", "message"), [
    ((GOOD_GRID, 3), ValueError, "color must be 1"),
    ((GOOD_GRID, True), TypeError, "color must be the int"),
    ((GOOD_GRID, "w"), TypeError, "color must be the int"),
    (([[1, 1], [2, 2]], 1), ValueError, "2 rows; a board is n x n with n >= 3"),
    (([[1, 1, 1], [0, 0], [2, 2, 2]], 1), ValueError, "row 1 has 2 cells"),
    (([[1, 1, 1], [0, True, 0], [2, 2, 2]], 1), TypeError, "row 1, column 1"),
    (([[1, 1, 1], [0, 3, 0], [2, 2, 2]], 1), ValueError, "row 1, column 1: unknown cell 3"),
    (([[1, 1, 1], [0, 2, 0], [2, 2, 2]], 1), ValueError, "4 black pawns"),
    (([[1, 1, 1], "---", [2, 2, 2]], 1), TypeError, "row 1 must be a list"),
    ((((1, 1, 1), (0, 0, 0), (2, 2, 2)), 1), TypeError, "must be a list of lists"),
])
def test_move_maker_bad_input(args: tuple, error: type, message: str) -> None:
    """Bad move_maker arguments raise the right error type with a precise message."""
    with pytest.raises(error, match=message):
        move_maker(*args)


@pytest.mark.parametrize(("args", "error", "message"), [
    (([], 1), ValueError, "boards is empty"),
    ((GOOD_GRID, 1), TypeError, r"boards\[0\], row 0 must be a list of ints, not int"),
    (([GOOD_GRID, [[0] * 4] * 4], 1), ValueError, r"boards\[1\] is 4 x 4 but boards\[0\] is 3"),
    (([GOOD_GRID, [[1, 9, 1], [0] * 3, [2] * 3]], 1), ValueError, r"boards\[1\], row 0"),
    (("boards", 1), TypeError, "boards must be a list"),
    (([GOOD_GRID], 0), ValueError, "color must be 1"),
])
def test_move_chooser_bad_input(args: tuple, error: type, message: str) -> None:
    """Bad move_chooser arguments raise the right error type with a precise message."""
    with pytest.raises(error, match=message):
        move_chooser(*args)
