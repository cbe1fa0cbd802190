"""Cell names on the board (issue 3's optional coordinates): the C key, the start-screen
row, the help line, and that the choice is remembered between runs."""

from __future__ import annotations

import pytest
from ui_fakes import RecordingCanvas

from oska_gui.session.settings import MemoryStorage
from oska_gui.ui.app import App
from oska_gui.ui.kit.events import KeyPress, PointerDown
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
