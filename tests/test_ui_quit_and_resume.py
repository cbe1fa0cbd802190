"""Quitting asks first during a game; a game in progress comes back after a restart."""

from __future__ import annotations

import random

import pytest
from ui_fakes import RecordingCanvas

from oska_gui.session.saved_game import GameKeeper
from oska_gui.session.settings import MemoryStorage
from oska_gui.ui.app import App
from oska_gui.ui.confirm import QUESTION, confirm_layout
from oska_gui.ui.events import KeyPress, PointerDown, Quit

QUICK = {"levels": ["beginner", "beginner"], "animation": "off", "pace": "instant"}


def in_a_game(storage: MemoryStorage | None = None, moves: int = 0) -> App:
    """Return an App in a new n = 5 game against the computer after ``moves`` of yours."""
    app = App(MemoryStorage({**QUICK, "n": 5}), 900, 700, keeper=GameKeeper(storage))
    app.handle(KeyPress("enter"))
    choose = random.Random(5)
    for _ in range(moves):
        match = app.game.match if app.game is not None else pytest.fail("no game")
        match.play(choose.choice(match.game.children(match.position)))
        for _ in range(500):
            app.update(0.02)
            if match.human_to_move or match.over:
                break
    return app


@pytest.mark.parametrize(("answer", "quits"), [(KeyPress("q"), True), (KeyPress("enter"), True),
                                               (KeyPress("escape"), False),
                                               (KeyPress("n"), False)])
def test_q_during_a_game_asks_first(answer: KeyPress, quits: bool) -> None:
    app = in_a_game()
    app.handle(KeyPress("q"))
    assert app.asking_quit and not app.quitting
    canvas = RecordingCanvas(900, 700)
    app.draw(canvas)
    assert QUESTION in canvas.texts()
    app.handle(KeyPress("u"))  # any other key: still asking, the game untouched
    assert app.asking_quit
    app.handle(answer)
    assert app.quitting is quits and not app.asking_quit


def test_the_card_s_buttons_answer_and_a_press_beside_it_keeps_playing() -> None:
    app = in_a_game()
    layout = confirm_layout(900, 700)
    for name, quits in (("stay", False), ("quit", True)):
        app.handle(KeyPress("q"))
        app.handle(PointerDown(*layout.buttons[name].center))
        assert app.quitting is quits
    app = in_a_game()
    app.handle(KeyPress("q"))
    app.handle(PointerDown(3, 3))  # outside the card
    assert not app.asking_quit and not app.quitting


def test_without_a_game_in_progress_q_quits_at_once_and_closing_never_asks() -> None:
    app = App(MemoryStorage(QUICK), 900, 700)
    app.handle(KeyPress("q"))
    assert app.quitting
    app = in_a_game()
    app.handle(Quit())  # the window closed: the game is saved anyway
    assert app.quitting and not app.asking_quit


def test_a_game_in_progress_is_offered_again_after_a_restart() -> None:
    storage = MemoryStorage()
    before = in_a_game(storage, moves=3)
    match = before.game.match if before.game is not None else pytest.fail("no game")
    positions, cursor = list(match.history.positions), match.history.cursor
    after = App(MemoryStorage({**QUICK, "n": 5}), 900, 700, keeper=GameKeeper(storage))
    assert after.scene is after.start and "resume" in after.start.button_names
    after.handle(KeyPress("escape"))  # Resume
    assert after.game is not None and after.scene is after.game
    resumed = after.game.match
    assert resumed.history.positions == positions and resumed.history.cursor == cursor
    assert resumed.human_to_move and resumed.settings == match.settings


def test_a_finished_game_is_not_offered_again() -> None:
    storage = MemoryStorage()
    app = App(MemoryStorage({**QUICK, "mode": "cvc"}), 900, 700, keeper=GameKeeper(storage))
    app.handle(KeyPress("enter"))
    for _ in range(5000):
        app.update(0.02)
        if app.game is not None and app.game.match.over:
            break
    app.update(0.02)
    assert storage.data == {}
    again = App(MemoryStorage(QUICK), 900, 700, keeper=GameKeeper(storage))
    assert again.game is None and "resume" not in again.start.button_names



@pytest.mark.parametrize(("touch", "labels"), [(False, {"Quit  (Q)", "Keep playing  (Esc)"}),
                                               (True, {"Quit", "Keep playing"})])
def test_the_card_names_its_keys_only_to_a_mouse_and_keyboard_player(touch: bool,
                                                                      labels: set[str]) -> None:
    app = App(MemoryStorage({**QUICK, "mode": "cvc", "pace": "slow"}), 900, 700,
              keeper=GameKeeper(MemoryStorage()))
    app.handle(KeyPress("enter"))  # computer against computer: a Quit button on the panel
    game = app.game if app.game is not None else pytest.fail("no game")
    app.handle(PointerDown(*game.panel().buttons["quit"].center, touch=touch))
    assert app.asking_quit
    canvas = RecordingCanvas(900, 700)
    app.draw(canvas)
    texts = canvas.texts()
    assert labels <= set(texts)
    assert touch is not any("(Q)" in text or "(Esc)" in text for text in texts)
