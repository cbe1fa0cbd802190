"""The move-input state machine: select, move by click or drag, deselect, gentle refusals."""

from __future__ import annotations

from oska_gui.games.oska import WHITE
from oska_gui.play.game import make_game
from oska_gui.ui.game.interaction import MoveInput, Play, Reject

GAME = make_game("oska", 4)
START = GAME.start()
MOVES = GAME.legal_moves(START)
A1, A4, B1, B2, E1 = (GAME.rules.parse_cell(name) for name in ("a1", "a4", "b1", "b2", "e1"))


def press(state: MoveInput, cell: int | None, x: float = 0, y: float = 0):
    """Press on ``cell`` in the start position (White to move)."""
    piece = None if cell is None else GAME.piece_at(START, cell)
    return state.press(cell, x, y, MOVES, piece, WHITE)


def test_click_piece_then_destination_plays_that_move() -> None:
    state = MoveInput()
    assert press(state, A1) is None
    assert state.selected == A1
    assert set(state.targets(MOVES, A1)) == {B1}
    assert state.release(A1, 0, 0, MOVES) is None
    result = press(state, B1)
    assert isinstance(result, Play)
    assert (result.legal.move.frm, result.legal.move.to) == (A1, B1)
    assert result.dropped_at is None
    assert result.legal.child in GAME.children(START)
    assert state.selected is None


def test_clicking_the_selected_piece_again_deselects_it() -> None:
    state = MoveInput()
    press(state, A1)
    state.release(A1, 0, 0, MOVES)
    press(state, A1)
    state.release(A1, 0, 0, MOVES)
    assert state.selected is None


def test_clicking_off_the_board_deselects_silently() -> None:
    state = MoveInput()
    press(state, A1)
    assert press(state, None) is None
    assert state.selected is None


def test_opponent_piece_is_refused_with_a_reason() -> None:
    state = MoveInput()
    result = press(state, E1)
    assert isinstance(result, Reject)
    assert result.cell == E1
    assert "black" in result.message.lower()
    assert state.selected is None


def test_empty_non_destination_is_refused_and_deselects() -> None:
    state = MoveInput()
    press(state, A1)
    state.release(A1, 0, 0, MOVES)
    result = press(state, B2)  # empty, but not where a1 can go
    assert isinstance(result, Reject) and result.cell == B2
    assert state.selected is None


def test_switching_selection_to_another_own_piece() -> None:
    state = MoveInput()
    press(state, A1)
    state.release(A1, 0, 0, MOVES)
    assert press(state, A4) is None
    assert state.selected == A4


def test_drag_and_drop_on_destination_plays_with_drop_point() -> None:
    state = MoveInput()
    press(state, A1, 10, 10)
    state.move(12, 12)
    assert not state.dragging  # a tiny wobble is still a click
    state.move(60, 80)
    assert state.dragging and state.dragged_cell == A1
    result = state.release(B1, 61, 81, MOVES)
    assert isinstance(result, Play)
    assert result.legal.move.to == B1 and result.dropped_at == (61, 81)
    assert not state.dragging and state.selected is None


def test_drop_on_a_wrong_cell_is_refused_and_keeps_the_selection() -> None:
    state = MoveInput()
    press(state, A1, 10, 10)
    state.move(90, 90)
    result = state.release(B2, 90, 90, MOVES)
    assert isinstance(result, Reject) and result.cell == B2
    assert state.selected == A1 and not state.dragging


def test_drop_off_the_board_puts_the_piece_back() -> None:
    state = MoveInput()
    press(state, A1, 10, 10)
    state.move(300, 300)
    assert state.release(None, 300, 300, MOVES) is None
    assert state.selected == A1 and not state.dragging


def test_piece_without_moves_is_refused() -> None:
    """White's only piece (a1) is blocked: b1 is taken and the jump over it lands on c1,
    which is taken too."""
    rules = GAME.rules
    pos = rules.from_rows(["w---", "b--", "b-", "---", "-b--"], WHITE)
    moves = GAME.legal_moves(pos)
    state = MoveInput()
    result = state.press(A1, 0, 0, moves, WHITE, WHITE)
    assert moves == []
    assert isinstance(result, Reject) and "no legal move" in result.message


def test_release_without_press_does_nothing() -> None:
    assert MoveInput().release(A1, 0, 0, MOVES) is None
