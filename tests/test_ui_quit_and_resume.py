"""Quitting asks first during a game; a game in progress comes back after a restart."""

from __future__ import annotations

import random

import pytest
from ui_fakes import RecordingCanvas

from oska_gui.play import records
from oska_gui.play.game import make_game
from oska_gui.session.saved_game import GameKeeper, SavedGame
from oska_gui.session.settings import MemoryStorage, Settings
from oska_gui.ui.app import App
from oska_gui.ui.game.commands import Command, enabled
from oska_gui.ui.kit.events import KeyPress, PointerDown, Quit
from oska_gui.ui.overlays.confirm import NEW_GAME, QUESTION, confirm_layout
from oska_gui.ui.start.start_scene import Option

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


def test_a_game_without_a_move_is_not_offered_to_resume() -> None:
    """A game left before its first move has nothing to resume: the next start (or
    page load) offers none, not even for one kept by an earlier version; a game with
    a move is offered."""
    storage = MemoryStorage()
    in_a_game(storage).update(0.02)  # a frame: the keeper sees the new game
    assert "resume" not in restarted(storage).start.button_names
    page = restarted(storage, open_saved=True)
    assert page.game is None and page.scene is page.start
    empty = SavedGame(Settings(n=5), (make_game("oska", 5).start(),), 0)
    storage.save(empty.to_dict())  # as versions that kept an empty game left it
    assert "resume" not in restarted(storage).start.button_names
    in_a_game(storage, moves=1)
    assert "resume" in restarted(storage).start.button_names


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


def restarted(storage: MemoryStorage, open_saved: bool = False, **settings: object) -> App:
    """Return an App started anew on the game kept in ``storage`` (n = 5, quick levels
    unless ``settings`` say otherwise)."""
    return App(MemoryStorage({**QUICK, "n": 5, **settings}), 900, 700,
               keeper=GameKeeper(storage), open_saved=open_saved)


def test_with_a_saved_game_enter_resumes_it_and_the_start_screen_says_so() -> None:
    storage = MemoryStorage()
    before = in_a_game(storage, moves=2)
    kept = list(before.game.match.history.positions) if before.game else pytest.fail("no game")
    app = restarted(storage)
    assert app.scene is app.start and app.start.default == "resume"
    assert "Press Enter to resume" in app.status_text
    assert app.start.button_names[0] == "resume"
    canvas = RecordingCanvas(900, 700)
    app.draw(canvas)
    assert "Resume  (Enter)" in canvas.texts() and "New game  (N)" in canvas.texts()
    app.handle(KeyPress("enter"))
    assert app.game is not None and app.scene is app.game
    assert app.game.match.history.positions == kept


@pytest.mark.parametrize("where", ["start screen", "game", "menu"])
def test_a_new_game_over_a_game_in_progress_asks_first(where: str) -> None:
    storage = MemoryStorage()
    app = in_a_game(storage, moves=2)
    if where == "start screen":
        app = restarted(storage)
    elif where == "menu":
        app.handle(KeyPress("m"))
        app.handle(KeyPress("enter"))  # Enter in the menu resumes: nothing is lost
        assert app.scene is app.game and app.question is None
        app.handle(KeyPress("m"))
    game = app.game if app.game is not None else pytest.fail("no game")
    kept = list(game.match.history.positions)
    app.handle(KeyPress("n"))
    assert app.question is NEW_GAME and "Start a new game?" in app.status_text
    canvas = RecordingCanvas(900, 700)
    app.draw(canvas)
    assert NEW_GAME.title in canvas.texts()
    app.handle(KeyPress("escape"))  # keep playing: the game and its undo are still there
    assert app.question is None and app.game is game
    assert game.match.history.positions == kept and storage.data != {}
    if where != "game":
        app.handle(KeyPress("escape"))
    assert app.scene is game and enabled(game.match, Command.UNDO)
    app.handle(KeyPress("n"))
    app.handle(KeyPress("enter"))  # yes: a new game replaces it
    assert app.question is None and app.game is not game and app.scene is app.game
    assert len(app.game.match.history.positions) == 1


def test_a_reload_of_the_page_returns_straight_to_the_game() -> None:
    storage = MemoryStorage()
    before = in_a_game(storage, moves=2)
    kept = list(before.game.match.history.positions) if before.game else pytest.fail("no game")
    page = restarted(storage, open_saved=True)
    assert page.game is not None and page.scene is page.game
    assert page.game.match.history.positions == kept
    page.handle(KeyPress("m"))
    assert page.start.can_resume and page.start.default == "resume"
    fresh = restarted(MemoryStorage(), open_saved=True)  # nothing saved: the start screen
    assert fresh.scene is fresh.start and fresh.game is None


def test_a_strength_chosen_in_the_menu_plays_on_resume() -> None:
    storage = MemoryStorage()
    app = in_a_game(storage, moves=2)
    game = app.game if app.game is not None else pytest.fail("no game")
    kept = list(game.match.history.positions)
    computer = 1 - game.match.settings.human_side
    app.handle(KeyPress("m"))
    level_row = [row.key for row in app.start.rows].index(Option.LEVEL)
    for key in ["down"] * level_row + ["right", "right"]:  # Beginner -> Easy -> Medium
        app.handle(KeyPress(key))
    assert app.settings.levels[computer] == "medium"
    app.handle(KeyPress("enter"))
    resumed = app.game if app.game is not None else pytest.fail("no game")
    assert app.scene is resumed and resumed.match.history.positions == kept
    assert resumed.match.settings.levels[computer] == "medium"
    assert resumed.match.players[computer].level.key == "medium"
    again = restarted(storage, levels=["hard", "hard"])  # chosen after a restart
    again.handle(KeyPress("enter"))
    match = again.game.match if again.game is not None else pytest.fail("no game")
    assert match.players[computer].level.key == "hard"
    assert match.history.positions == kept


def test_a_replay_keeps_the_saved_game_for_next_time() -> None:
    storage = MemoryStorage()
    in_a_game(storage, moves=2)
    kept = dict(storage.data)
    app = restarted(storage)
    match = app.game.match if app.game is not None else pytest.fail("no game")
    record = records.from_positions(list(match.history.positions), match.game.rules,
                                    "Human", "Computer", None)
    app.replay(record)
    for _ in range(3):
        app.update(0.02)
    assert app.game is not None and app.game.match.replay is not None
    assert storage.data == kept
