"""The end of a game: the banner can be put away to see the board; a paused computer
shows no thinking spinner."""

from __future__ import annotations

import pytest
from ui_fakes import RecordingCanvas

from oska_gui.session.settings import MemoryStorage
from oska_gui.ui.app import App
from oska_gui.ui.game.commands import Command
from oska_gui.ui.game.game_scene import GameScene
from oska_gui.ui.game.game_view import banner_rect
from oska_gui.ui.kit.events import KeyPress, PointerDown, PointerMove

QUICK = {"mode": "cvc", "levels": ["beginner", "beginner"], "animation": "off",
         "pace": "instant"}


def finished() -> tuple[App, GameScene]:
    """Return an App whose computer-vs-computer game has just ended, and its scene."""
    app = App(MemoryStorage(QUICK), 900, 700)
    app.handle(KeyPress("enter"))
    scene = app.game if app.game is not None else pytest.fail("no game")
    for _ in range(5000):
        app.update(0.02)
        if scene.match.over:
            return app, scene
    pytest.fail("the game did not end")


def test_escape_puts_the_banner_away_and_a_second_escape_opens_the_menu() -> None:
    app, scene = finished()
    assert scene.view().banner is not None
    app.handle(KeyPress("escape"))
    assert scene.view().banner is None and app.scene is scene
    app.handle(KeyPress("escape"))
    assert app.scene is app.start


def test_a_click_on_the_banner_puts_it_away_and_undo_brings_the_game_back() -> None:
    app, scene = finished()
    band = banner_rect(scene.board(), scene.width)
    app.handle(PointerDown(*band.center))
    assert scene.view().banner is None
    assert scene.view().status == scene.match.status_text  # the result is still said
    app.handle(KeyPress("u"))
    assert not scene.match.over


def banner_hint(app: App) -> str:
    """Return the banner's line saying how to put it away, as drawn now."""
    canvas = RecordingCanvas(app.width, app.height)
    app.draw(canvas)
    return next(text for text in canvas.texts() if "see the board" in text)


def test_the_banner_names_the_key_to_a_keyboard_player_and_the_click_to_a_mouse_user() -> None:
    app, scene = finished()
    app.handle(KeyPress("c"))  # a key in the game (cell names shown): the player uses keys
    assert banner_hint(app).startswith("Esc: see the board")
    app.handle(PointerDown(5, 5))  # a press outside the board and banner: the pointer
    app.handle(PointerMove(5, 5))
    assert banner_hint(app).startswith("Click to see the board")


def test_a_paused_computer_shows_its_pieces_left_not_a_spinner() -> None:
    app = App(MemoryStorage({**QUICK, "levels": ["master", "master"], "n": 6}), 900, 700)
    app.handle(KeyPress("enter"))
    scene = app.game if app.game is not None else pytest.fail("no game")
    app.update(0.02)
    app.update(0.02)
    assert scene.view().cards[0].thinking
    app.handle(KeyPress("space"))  # pause mid-search
    app.update(0.02)
    assert scene.match.paused and not scene.view().cards[0].thinking


def test_pause_and_step_are_greyed_out_once_the_game_is_over() -> None:
    app = App(MemoryStorage(QUICK), 900, 700)
    app.handle(KeyPress("enter"))
    scene = app.game if app.game is not None else pytest.fail("no game")
    assert scene.view().buttons["pause"].enabled
    app, scene = finished()
    buttons = scene.view().buttons
    assert not buttons["pause"].enabled and not buttons["step"].enabled
    assert buttons["undo"].enabled


def ended_by_hand() -> GameScene:
    """Return the scene of a two-player game played to its end by the first legal move
    each turn (the panel then offers Review where Hint was)."""
    app = App(MemoryStorage({**QUICK, "mode": "hvh", "n": 4}), 900, 700)
    app.handle(KeyPress("enter"))
    scene = app.game if app.game is not None else pytest.fail("no game")
    match = scene.match
    while not match.over:
        match.play(match.legal_moves()[0].child)
    return scene


def test_h_after_the_game_says_the_game_is_over_not_whose_turn() -> None:
    """H once the game is over says so (and, where Review has taken Hint's place on
    the panel, names the key that reviews), never that a hint is for a human's turn."""
    for scene in (finished()[1], ended_by_hand()):
        assert Command.REVIEW in scene.buttons and Command.HINT not in scene.buttons
        scene.handle(KeyPress("h"))
        assert scene.toast is not None
        assert scene.toast[0] == "The game is over: no hint; E reviews it"
        assert scene.match.hint is None and not scene.match.hint_pending
