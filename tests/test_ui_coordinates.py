"""Cell names on the board (issue 3's optional coordinates): the C key, the start-screen
row, the help line, and that the choice is remembered between runs."""

from __future__ import annotations

import math

import pytest
from ui_fakes import RecordingCanvas

from oska_gui.session.settings import MemoryStorage
from oska_gui.ui.app import App
from oska_gui.ui.kit import theme
from oska_gui.ui.kit.events import KeyPress, PointerDown
from oska_gui.ui.kit.rect import Rect
from oska_gui.ui.overlays.help import SHORTCUTS

QUICK = {"animation": "off", "pace": "instant", "levels": ["easy", "easy"], "mode": "hvh"}


def board_texts(app: App) -> list[str]:
    """Return the texts drawn for the current frame."""
    canvas = RecordingCanvas(app.width, app.height)
    app.draw(canvas)
    return canvas.texts()


@pytest.mark.parametrize(("kind", "n"), [("oska", 4), ("oska", 8), ("hexapawn", 5)])
def test_c_in_a_game_shows_every_cell_name_and_is_remembered(kind: str, n: int) -> None:
    storage = MemoryStorage({**QUICK, "kind": kind, "n": n})
    app = App(storage, 1000, 700)
    app.handle(KeyPress("enter"))
    game = app.game.game
    names = {game.cell_name(cell) for cell in range(game.cell_count)}
    assert len(names) == game.cell_count
    assert not names & set(board_texts(app))
    app.handle(KeyPress("c"))
    assert names <= set(board_texts(app))
    assert storage.load()["coordinates"] is True
    again = App(storage, 1000, 700)
    assert again.settings.coordinates and again.start.settings.coordinates
    again.handle(KeyPress("enter"))
    assert names <= set(board_texts(again))
    again.handle(KeyPress("c"))
    assert storage.load()["coordinates"] is False


def test_the_start_screen_has_a_cell_names_row_and_the_c_key() -> None:
    storage = MemoryStorage(QUICK)
    app = App(storage, 1000, 700)
    rows = app.start.rows
    index = [row.key for row in rows].index("coordinates")
    assert rows[index].label == "Cell names" and rows[index].values == (False, True)
    assert "Shown  (C)" in board_texts(app)
    choices = app.start.layout().rows[index].choices
    app.handle(PointerDown(*choices[1].center))
    assert app.settings.coordinates and storage.load()["coordinates"] is True
    app.handle(KeyPress("c"))
    assert not app.settings.coordinates and storage.load()["coordinates"] is False


def test_help_names_the_c_key() -> None:
    keys = {shortcut.keys: shortcut.meaning for shortcut in SHORTCUTS}
    assert "cell names" in keys["C"]


def ring_crosses(ring: tuple, rect: Rect) -> bool:
    """Return True when the circle outline ``ring`` (the arguments of a recorded
    circle: x, y, radius, colour, line width) passes over part of ``rect``."""
    x, y, radius, _, width = ring
    near = math.hypot(max(rect.x - x, 0, x - rect.right), max(rect.y - y, 0, y - rect.bottom))
    far = max(math.hypot(cx - x, cy - y) for cx in (rect.x, rect.right)
              for cy in (rect.y, rect.bottom))
    return near <= radius + width / 2 and far >= radius - width / 2


@pytest.mark.parametrize(("kind", "n"), [("oska", 5), ("oska", 8), ("hexapawn", 5)])
def test_the_keyboard_cursor_ring_leaves_the_cell_names_readable(kind: str, n: int) -> None:
    """On every cell the cursor's ring is drawn before the name tags it passes over
    (its own cell's at least) and their names, which stay on top of it."""
    app = App(MemoryStorage({**QUICK, "kind": kind, "n": n, "coordinates": True}), 1000, 700)
    app.handle(KeyPress("enter"))
    scene = app.game if app.game is not None else pytest.fail("no game")
    app.handle(KeyPress("down"))  # the arrows show the cursor
    for cell in range(scene.game.cell_count):
        scene.cursor = cell
        canvas = RecordingCanvas(app.width, app.height)
        app.draw(canvas)
        calls = list(enumerate(canvas.calls))
        rings = [(i, args) for i, (name, args) in calls
                 if name == "circle" and args[3] in (theme.CURSOR, theme.CURSOR_EDGE)]
        tags = [(i, Rect(*args[:4])) for i, (name, args) in calls
                if name == "rect" and args[4] == theme.NAME_TAG]
        assert len(rings) == 2 and len(tags) == scene.game.cell_count
        crossed = [(i, tag) for i, tag in tags if any(ring_crosses(ring, tag) for _, ring in rings)]
        assert crossed, cell
        last_ring = max(i for i, _ in rings)
        for i, tag in crossed:
            name = canvas.calls[i + 1]  # the tag's name, written on it
            assert name[0] == "text" and tag.contains(*name[1][1:3])
            assert i > last_ring, (cell, tag)
