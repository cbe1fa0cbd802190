"""The game record (undo/redo with stop tests) and the animation timelines."""

from __future__ import annotations

import pytest

from oska_gui.play.history import History
from oska_gui.ui.board.animation import (
    JUMP_HEIGHT,
    JUMP_SECONDS,
    STEP_SECONDS,
    Flash,
    MoveAnimation,
    arc,
    ease_in_out,
)


def everywhere(_: object) -> bool:
    """A stop test that stops at every position."""
    return True


def test_push_undo_redo_and_truncation() -> None:
    history = History("s")
    for pos in "abc":
        history.push(pos)
    assert history.current == "c" and history.plies == 3
    assert history.undo(everywhere) and history.current == "b"
    assert history.undo(everywhere) and history.current == "a"
    assert history.redo(everywhere) and history.current == "b"
    history.push("x")  # a new move drops the undone future
    assert history.positions == ["s", "a", "b", "x"]
    assert not history.can_redo(everywhere)


def test_undo_stops_where_the_test_says() -> None:
    history = History("s0")
    for pos in ("b1", "w2", "b3", "w4"):
        history.push(pos)
    whites = lambda pos: pos.startswith("w")  # noqa: E731 - a tiny stop test
    assert history.undo(whites) and history.current == "w2"
    assert not history.undo(whites)  # no earlier white position
    assert history.current == "w2"
    assert history.redo(whites) and history.current == "w4"


def test_redo_goes_to_the_end_when_no_stop_follows() -> None:
    history = History("s")
    history.push("a")
    history.push("b")
    history.undo(everywhere)
    history.undo(everywhere)
    assert history.redo(lambda pos: False) and history.current == "b"
    assert not history.redo(everywhere)


def test_pairs_list_every_ply_including_the_future() -> None:
    history = History(0)
    history.push(1)
    history.push(2)
    history.undo(everywhere)
    assert history.pairs() == [(0, 1), (1, 2)]
    assert history.previous == 0


def test_easing_and_arc_shapes() -> None:
    assert ease_in_out(0) == 0 and ease_in_out(1) == 1 and ease_in_out(0.5) == 0.5
    assert ease_in_out(-3) == 0 and ease_in_out(7) == 1
    assert ease_in_out(0.1) < 0.1  # slow start
    assert arc(0) == 0 and arc(1) == 0 and arc(0.5) == 1


def test_step_glides_from_cell_to_cell() -> None:
    anim = MoveAnimation.of_move(0, 5, -1, 0, 1.0)
    assert anim is not None and anim.victim is None
    assert anim.duration == pytest.approx(STEP_SECONDS)
    start, end = (0.0, 0.0), (100.0, 50.0)
    x, y, _ = anim.mover_point(start, end, 40)
    assert (x, y) == (0.0, 0.0)
    anim.advance(STEP_SECONDS / 2)
    x, y, lift = anim.mover_point(start, end, 40)
    assert x == pytest.approx(50) and 0 < lift < 0.5
    assert not anim.done
    assert anim.advance(STEP_SECONDS)
    assert anim.mover_point(start, end, 40)[:2] == pytest.approx((100, 50))


def test_jump_arcs_and_the_captured_piece_vanishes_after_the_jumper_passes() -> None:
    anim = MoveAnimation.of_move(0, 9, 4, 1, 1.0)
    assert anim.victim == 0 and anim.travel == pytest.approx(JUMP_SECONDS)
    assert anim.victim_scale() == 1
    anim.advance(JUMP_SECONDS / 2)
    x, y, lift = anim.mover_point((0.0, 0.0), (0.0, 100.0), 40)
    assert y == pytest.approx(50 - JUMP_HEIGHT * 40)  # high above the middle
    assert lift == pytest.approx(1)
    assert anim.victim_scale() == pytest.approx(1)  # just starting to vanish
    anim.advance(anim.vanish / 2)
    assert 0 < anim.victim_scale() < 1
    anim.finish()
    assert anim.done and anim.victim_scale() == 0


def test_speed_factor_scales_and_zero_switches_off() -> None:
    slow = MoveAnimation.of_move(0, 5, -1, 0, 2.0)
    assert slow.duration == pytest.approx(2 * STEP_SECONDS)
    assert MoveAnimation.of_move(0, 5, -1, 0, 0.0) is None


def test_dropped_piece_only_settles_and_the_capture_vanishes_at_once() -> None:
    anim = MoveAnimation.of_move(0, 9, 4, 0, 1.0, origin=(30.0, 40.0))
    assert anim.travel < STEP_SECONDS and anim.vanish_start == 0
    assert anim.mover_point((0.0, 0.0), (100.0, 100.0), 40) == (30.0, 40.0, 0.0)
    anim.advance(0.01)
    assert anim.victim_scale() < 1


def test_flash_fades_out() -> None:
    flash = Flash(3)
    assert flash.strength() == 1
    assert not flash.advance(flash.duration / 2)
    assert flash.strength() == pytest.approx(0.5)
    assert flash.advance(flash.duration)
    assert flash.strength() == 0
