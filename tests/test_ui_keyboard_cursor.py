"""Playing without a pointer: arrow keys move a cursor over the cells, Enter presses."""

from __future__ import annotations

import random

import pytest

from oska_gui.engine.registry import game_info
from oska_gui.play.game import make_game
from oska_gui.session.settings import MemoryStorage
from oska_gui.ui.app import App
from oska_gui.ui.board.keyboard_cursor import DIRECTIONS, neighbour
from oska_gui.ui.game.layout import board_layout
from oska_gui.ui.kit.events import KeyPress, PointerDown


def centres(kind: str, n: int) -> list[tuple[float, float]]:
    """Return every cell's centre of a board laid out in a 1000 x 800 window."""
    board = board_layout(kind, n, 1000, 800)
    return [board.center(cell) for cell in range(board.cell_count)]


@pytest.mark.parametrize(("kind", "n"), [("oska", 4), ("oska", 5), ("oska", 8),
                                         ("oska", 12), ("oska", 24),
                                         ("hexapawn", 3), ("hexapawn", 6)])
def test_every_cell_is_reached_and_opposite_arrows_come_back(kind: str, n: int) -> None:
    points = centres(kind, n)
    reached, todo = {0}, [0]
    while todo:
        cell = todo.pop()
        for key in DIRECTIONS:
            other = neighbour(points, cell, key)
            if other not in reached:
                reached.add(other)
                todo.append(other)
    assert reached == set(range(len(points)))
    for cell in range(len(points)):
        right = neighbour(points, cell, "right")
        if right != cell and abs(points[right][1] - points[cell][1]) < 1:
            assert neighbour(points, right, "left") == cell


@pytest.mark.parametrize(("kind", "n"), [("oska", 6), ("hexapawn", 4)])
def test_an_arrow_moves_the_cursor_the_way_it_points(kind: str, n: int) -> None:
    points = centres(kind, n)
    for cell, (x, y) in enumerate(points):
        for key, (dx, dy) in DIRECTIONS.items():
            other = neighbour(points, cell, key)
            if other == cell:  # the edge: no cell within 45 degrees of that way
                ahead = [((px - x) * dx + (py - y) * dy, abs((px - x) * dy - (py - y) * dx))
                         for px, py in points]
                assert not any(along > 1 and aside < along for along, aside in ahead)
                continue
            ox, oy = points[other]
            assert (ox - x) * dx + (oy - y) * dy > 0


def test_on_a_square_grid_an_arrow_steps_to_the_adjacent_square() -> None:
    points = centres("hexapawn", 3)
    middle = 4
    assert [neighbour(points, middle, key) for key in ("up", "down", "left", "right")] == \
        [1, 7, 3, 5]


def row_of_cells(kind: str, n: int) -> list[int]:
    """Return each cell's row (0 at the top), from the game's row lengths."""
    return [row for row, length in enumerate(game_info(kind).row_lengths(n))
            for _ in range(length)]


@pytest.mark.parametrize(("kind", "n"), [("oska", 4), ("oska", 5), ("oska", 16),
                                         ("hexapawn", 4)])
def test_up_and_down_reach_the_adjacent_row_and_left_right_stay_in_the_row(
        kind: str, n: int) -> None:
    points, rows = centres(kind, n), row_of_cells(kind, n)
    last = rows[-1]
    for cell, row in enumerate(rows):
        below, above = neighbour(points, cell, "down"), neighbour(points, cell, "up")
        assert rows[below] == min(row + 1, last) and rows[above] == max(row - 1, 0)
        in_row = sorted((x, other) for other, (x, _) in enumerate(points) if rows[other] == row)
        order = [other for _, other in in_row]
        place = order.index(cell)
        assert neighbour(points, cell, "right") == order[min(place + 1, len(order) - 1)]
        assert neighbour(points, cell, "left") == order[max(place - 1, 0)]
        if row < last:  # the nearest cell below, by screen x
            nearest = min(abs(points[other][0] - points[cell][0])
                          for other in range(len(rows)) if rows[other] == row + 1)
            assert abs(points[below][0] - points[cell][0]) == pytest.approx(nearest)


def obvious_keys(points: list[tuple[float, float]], rows: list[int],
                 steps: dict[tuple[int, str], int], start: int, goal: int) -> list[str]:
    """Return the keys a player would try: Down (or Up) to the goal's row, then Left or
    Right until the cursor is on the goal (``steps`` as in ``shortest_keys``)."""
    vertical = "down" if rows[goal] > rows[start] else "up"
    keys, cell = [vertical] * abs(rows[goal] - rows[start]), start
    for key in keys:
        cell = steps[cell, key]
    while cell != goal and len(keys) < len(points):  # a bound, should the cursor get stuck
        key = "right" if points[goal][0] > points[cell][0] else "left"
        keys.append(key)
        cell = steps[cell, key]
    return keys


@pytest.mark.parametrize(("kind", "n"), [("oska", 4), ("oska", 5), ("oska", 12),
                                         ("hexapawn", 5)])
def test_every_target_of_a_picked_piece_is_a_few_obvious_keys_away(kind: str, n: int) -> None:
    points, rows = centres(kind, n), row_of_cells(kind, n)
    steps = {(cell, key): neighbour(points, cell, key)
             for cell in range(len(points)) for key in DIRECTIONS}
    game, choose = make_game(kind, n), random.Random(n)
    position, seen = game.start(), set()
    while game.outcome(position) is None:
        moves = game.legal_moves(position)
        for legal in moves:
            frm, to = legal.move.frm, legal.move.to
            if (frm, to) in seen:
                continue
            seen.add((frm, to))
            keys = obvious_keys(points, rows, steps, frm, to)
            sideways = [key for key in keys if key in ("left", "right")]
            assert len(sideways) <= 1, (game.move_text(legal.move), keys)
            assert len(keys) == len(shortest_keys(steps, frm, to))
        position = choose.choice(game.children(position))
    assert len(seen) > 10


@pytest.mark.parametrize(("flip", "forward", "sideways"), [(False, "down", "right"),
                                                      (True, "up", "left")])
def test_forward_from_a_picked_piece_then_enter_plays_the_step(flip: bool, forward: str,
                                                               sideways: str) -> None:
    app = App(MemoryStorage({"kind": "oska", "n": 5, "levels": ["beginner", "beginner"],
                             "animation": "off"}), 900, 700)
    app.handle(KeyPress("enter"))  # you play White: at the bottom, moving up
    scene = app.game if app.game is not None else pytest.fail("no game")
    assert scene.flipped
    if not flip:
        app.handle(KeyPress("f"))  # White at the top, moving down, as in the rules
    assert scene.flipped is flip
    for key in (forward, sideways, sideways, "enter", forward, "enter"):
        app.handle(KeyPress(key))
    assert len(scene.match.history.positions) > 1
    played = scene.game.move_between(*scene.match.history.positions[:2])
    assert played.frm == 2 and row_of_cells("oska", 5)[played.to] == 1


def keys_to(points: list[tuple[float, float]], start: int, goal: int) -> list[str]:
    """Return the arrow keys that take the cursor from ``start`` to ``goal`` (shortest)."""
    steps = {(cell, key): neighbour(points, cell, key)
             for cell in range(len(points)) for key in DIRECTIONS}
    return shortest_keys(steps, start, goal)


def shortest_keys(steps: dict[tuple[int, str], int], start: int, goal: int) -> list[str]:
    """Return the fewest arrow keys from ``start`` to ``goal``, where ``steps[cell, key]``
    is the cell an arrow ``key`` leads to from ``cell``."""
    paths: dict[int, list[str]] = {start: []}
    todo = [start]
    while todo:
        cell = todo.pop(0)
        for key in DIRECTIONS:
            other = steps[cell, key]
            if other not in paths:
                paths[other] = [*paths[cell], key]
                todo.append(other)
    return paths[goal]


@pytest.mark.parametrize(("kind", "n"), [("oska", 5), ("hexapawn", 3)])
def test_a_whole_game_played_with_the_keyboard_alone(kind: str, n: int) -> None:
    app = App(MemoryStorage({"kind": kind, "n": n, "levels": ["beginner", "beginner"],
                             "animation": "off", "pace": "instant"}), 900, 700)
    app.handle(KeyPress("enter"))
    scene = app.game if app.game is not None else pytest.fail("no game")
    match, board = scene.match, scene.board()
    points = [board.center(cell) for cell in range(board.cell_count)]
    choose = random.Random(n)
    app.handle(KeyPress("down"))  # shows the cursor on one of your pieces
    assert scene.cursor is not None and scene.game.piece_at(match.position, scene.cursor) == 0
    while not match.over:
        if not match.human_to_move:
            app.update(0.02)
            continue
        legal = choose.choice(match.legal_moves())
        before = len(match.history.positions)
        for cell in (legal.move.frm, legal.move.to):
            for key in keys_to(points, scene.cursor, cell):
                app.handle(KeyPress(key))
            assert scene.cursor == cell
            app.handle(KeyPress(choose.choice(["enter", "space"])))
        assert match.history.positions[before] == legal.child
    assert match.over


def test_the_pointer_hides_the_cursor_and_escape_first_drops_a_selection() -> None:
    app = App(MemoryStorage({"animation": "off", "levels": ["beginner", "beginner"]}),
              900, 700)
    app.handle(KeyPress("enter"))
    scene = app.game if app.game is not None else pytest.fail("no game")
    app.handle(KeyPress("up"))
    app.handle(KeyPress("enter"))
    assert scene.input.selected == scene.cursor
    assert scene.view().board.cursor == scene.cursor
    app.handle(KeyPress("escape"))
    assert scene.input.selected is None and app.scene is scene
    app.handle(PointerDown(1, 1))
    assert scene.cursor is None


@pytest.mark.parametrize(("settings", "flipped"), [
    ({"mode": "hvc", "human_side": 0}, True), ({"mode": "hvc", "human_side": 1}, False),
    ({"mode": "hvh"}, False), ({"mode": "cvc"}, False)])
def test_your_side_starts_at_the_bottom_and_f_turns_the_board(settings: dict,
                                                              flipped: bool) -> None:
    app = App(MemoryStorage({**settings, "levels": ["beginner", "beginner"],
                             "animation": "off", "pace": "slow"}), 900, 700)
    app.handle(KeyPress("enter"))
    scene = app.game if app.game is not None else pytest.fail("no game")
    white_row_y = scene.board().center(0)[1]
    black_row_y = scene.board().center(scene.board().cell_count - 1)[1]
    assert (white_row_y > black_row_y) is flipped
    app.handle(KeyPress("f"))
    assert scene.flipped is not flipped and scene.board().center(0)[1] == black_row_y
    assert scene.toast is not None and "at the bottom" in scene.toast[0]


def test_keyboard_players_read_keyboard_wording() -> None:
    app = App(MemoryStorage({"levels": ["beginner", "beginner"], "animation": "off"}),
              900, 700)
    app.handle(KeyPress("enter"))
    scene = app.game if app.game is not None else pytest.fail("no game")
    assert scene.view().detail.startswith("Click a piece")  # no key used in the game yet
    app.handle(KeyPress("down"))
    assert scene.view().detail.startswith("Arrows and Enter: a piece")
    app.handle(PointerDown(1, 1))
    assert scene.view().detail.startswith("Click a piece")
    app.handle(KeyPress("h"))
    assert "Click" not in scene.view().detail
