"""The shared move helpers (oska_gui/core/moves.py) and the Hexapawn rules' moves for people.

``PawnRules`` answers the same questions as ``OskaRules`` (move_between, move_text,
cell_name, outcome, rows_to_go), so the UI's game adapter needs no copy of either.
"""

from __future__ import annotations

import random

import pytest

from oska_gui.core.moves import cell_label, move_cells, notation
from oska_gui.games.oska import BLACK, PASS, WHITE, Move, oska_rules
from oska_gui.games.pawns import pawn_rules


def random_line(rules, seed: int, plies: int = 60) -> list:
    """Return the positions of a random game (stops at its end) from the start."""
    rng = random.Random(seed)
    line = [rules.start()]
    while len(line) <= plies and rules.terminal(line[-1]) is None:
        kids = rules.children(line[-1])
        if not kids:
            break
        line.append(rng.choice(kids))
    return line


def replayed(pos, move: Move, n_cells: int):
    """Return ``pos`` with ``move`` made by hand: the mover's piece goes, a victim vanishes."""
    mover = pos[2]
    own, opp = pos[mover], pos[1 - mover]
    if not move.is_pass:
        own = own & ~(1 << move.frm) | 1 << move.to
        if move.is_capture:
            opp &= ~(1 << move.over)
    assert 0 <= own < 1 << n_cells
    return (own, opp, 1 - mover) if mover == WHITE else (opp, own, 1 - mover)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_pawn_move_between_rebuilds_every_child(n: int) -> None:
    rules = pawn_rules(n)
    for seed in range(15):
        for before in random_line(rules, seed):
            for child in rules.children(before):
                move = rules.move_between(before, child)
                assert isinstance(move, Move)
                assert replayed(before, move, rules.size) == tuple(child)
                # a pawn captures by moving onto the victim's square
                assert move.over in (-1, move.to)
                text = rules.move_text(move)
                assert text == (f"{rules.cell_name(move.frm)}{'x' if move.is_capture else '-'}"
                                f"{rules.cell_name(move.to)}")


def test_pawn_cell_names_are_row_letter_and_column() -> None:
    rules = pawn_rules(4)
    names = [rules.cell_name(cell) for cell in range(rules.size)]
    assert names[:5] == ["a1", "a2", "a3", "a4", "b1"]
    assert names[-1] == "d4"
    assert len(set(names)) == rules.size


def test_pawn_step_and_capture_notation() -> None:
    rules = pawn_rules(3)
    start = rules.start()
    step = rules.from_rows(["-ww", "w--", "bbb"], BLACK)
    assert rules.move_text(rules.move_between(start, step)) == "a1-b1"
    capture = rules.from_rows(["-ww", "b--", "b-b"], WHITE)
    assert rules.move_text(rules.move_between(step, capture)) == "c2xb1"
    assert rules.move_text(PASS) == "pass"


@pytest.mark.parametrize("n", [3, 4, 5])
def test_pawn_outcome_agrees_with_terminal(n: int) -> None:
    rules = pawn_rules(n)
    for seed in range(30):
        for pos in random_line(rules, seed):
            result, outcome = rules.terminal(pos), rules.outcome(pos)
            assert (result is None) == (outcome is None)
            if outcome is not None:
                mover_won = outcome.winner == pos[2]
                assert result == (1 if mover_won else -1)
                assert outcome.reason


@pytest.mark.parametrize(("rows", "turn", "winner", "reason"), [
    (["-w-", "-b-", "w--"], BLACK, WHITE, "a white pawn reached the far row"),
    (["-w-", "---", "---"], BLACK, WHITE, "all black pawns captured"),
    (["w--", "b--", "---"], WHITE, BLACK, "white cannot move"),
])
def test_pawn_outcome_reasons(rows, turn, winner, reason) -> None:
    rules = pawn_rules(3)
    outcome = rules.outcome(rules.from_rows(rows, turn))
    assert outcome.winner == winner and outcome.reason == reason


def test_pawn_rows_to_go_count_rows_to_the_far_row() -> None:
    rules = pawn_rules(5)
    for cell in range(rules.size):
        row = cell // 5
        assert rules.rows_to_go[WHITE][cell] == 4 - row
        assert rules.rows_to_go[BLACK][cell] == row


@pytest.mark.parametrize("n", [4, 5, 7])
def test_move_cells_agree_with_the_oska_rules_passes_included(n: int) -> None:
    rules = oska_rules(n)
    seen_pass = False
    for seed in range(40):
        line = random_line(rules, seed, plies=200)
        for before, after in zip(line, line[1:], strict=False):
            move = rules.move_between(before, after)
            assert move_cells(before, after) == tuple(move)
            assert notation(move, rules.cell_name) == rules.move_text(move)
            seen_pass |= move.is_pass
    if n == 4:
        assert seen_pass  # the pass case is really exercised


def test_cell_label() -> None:
    assert [cell_label(0, 0), cell_label(1, 2), cell_label(25, 9)] == ["a1", "b3", "z10"]
