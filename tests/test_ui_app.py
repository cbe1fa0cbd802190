"""The App without pygame: scenes, keys, clicks on computed centres, settings, drawing."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from ui_fakes import RecordingCanvas

from oska_gui.session.settings import MemoryStorage, Mode, Settings
from oska_gui.ui.app import App
from oska_gui.ui.game import game_view
from oska_gui.ui.game.game_scene import GameScene
from oska_gui.ui.game.panel_text import move_rows
from oska_gui.ui.kit.events import KeyPress, PointerDown, PointerMove, PointerUp, Quit, Resize
from oska_gui.ui.kit.intents import Action, Choose
from oska_gui.ui.start.start_scene import StartScene, rows_for

REPO_ROOT = Path(__file__).resolve().parent.parent
QUICK = {"levels": ["beginner", "beginner"], "animation": "off", "pace": "instant"}


def frames(app: App, count: int, canvas: RecordingCanvas | None = None) -> None:
    """Run ``count`` frames of 20 ms, drawing each one."""
    canvas = canvas or RecordingCanvas(app.width, app.height)
    for _ in range(count):
        app.update(0.02)
        app.draw(canvas)


def click(app: App, x: float, y: float) -> None:
    """Press and release the pointer at (x, y)."""
    app.handle(PointerDown(x, y))
    app.handle(PointerUp(x, y))


def test_ui_modules_never_import_pygame() -> None:
    code = ("import sys; import oska_gui.ui.app, oska_gui.ui.game.game_scene, "
            "oska_gui.ui.game.layout; "
            "assert 'pygame' not in sys.modules, 'pygame was imported'")
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr


def test_enter_starts_a_good_default_game_and_saves_the_choice() -> None:
    storage = MemoryStorage()
    app = App(storage, 1000, 700)
    assert isinstance(app.scene, StartScene)
    assert "Enter" in app.status_text
    app.handle(KeyPress("enter"))
    assert isinstance(app.scene, GameScene)
    match = app.game.match
    assert (match.game.kind, match.game.n, match.settings.mode) == ("oska", 4, Mode.HVC)
    assert app.status_text == "Your move (White)"
    assert storage.load() == Settings().to_dict() or storage.saves == 0


def test_keyboard_changes_options_and_they_are_remembered() -> None:
    storage = MemoryStorage()
    app = App(storage, 1000, 700)
    app.handle(KeyPress("down"))  # board size row
    app.handle(KeyPress("right"))
    app.handle(KeyPress("right"))
    app.handle(KeyPress("enter"))
    assert app.game.match.game.n == 6
    again = App(storage, 1000, 700)
    assert again.settings.n == 6 and again.start.settings.n == 6


def test_clicking_choices_on_the_start_screen() -> None:
    app = App(MemoryStorage(), 1000, 700)
    layout = app.start.layout()
    rows = rows_for(app.start.settings)
    mode_row = [row.key for row in rows].index("mode")
    choices = layout.rows[mode_row].choices
    click(app, *choices[1].center)  # computer vs computer
    assert app.start.settings.mode == Mode.CVC
    layout = app.start.layout()
    click(app, *layout.buttons["start"].center)
    assert app.game is not None and app.game.match.settings.mode == Mode.CVC


@pytest.mark.parametrize("cancel", [True, False])
def test_a_cancelled_drag_puts_the_piece_back_and_a_release_plays(cancel: bool) -> None:
    """A finger drags a piece onto a cell it can reach; when the page cancels the pointer
    there (a pinch began) nothing is played, while a release there plays the move."""
    app = App(MemoryStorage(QUICK), 1000, 700)
    app.handle(KeyPress("enter"))
    scene = app.game
    assert scene is not None
    legal = scene.match.legal_moves()[0]
    board = scene.board()
    (x0, y0), (x1, y1) = board.center(legal.move.frm), board.center(legal.move.to)
    app.handle(PointerDown(x0, y0, touch=True))
    app.handle(PointerMove(x1, y1, touch=True))
    assert scene.input.dragged_cell == legal.move.frm
    app.handle(PointerUp(x1, y1, touch=True, cancel=cancel))
    assert scene.input.dragged_cell is None
    assert (scene.match.history.cursor == 0) == cancel


def test_a_whole_game_by_clicking_cell_centres() -> None:
    """Human (White) against the computer on n = 4, clicking from-cell then to-cell centres,
    each position checked against the rules, until the game-over sentence."""
    app = App(MemoryStorage({**QUICK, "levels": ["easy", "easy"]}), 1100, 760)
    app.handle(KeyPress("enter"))
    scene = app.game
    game = scene.match.game
    canvas = RecordingCanvas(1100, 760)
    for _ in range(200):
        frames(app, 3, canvas)
        match = scene.match
        if match.over:
            break
        if not match.human_to_move:
            continue
        before = match.position
        legal = match.legal_moves()[-1]
        board = scene.board()
        click(app, *board.center(legal.move.frm))
        assert scene.input.selected == legal.move.frm
        click(app, *board.center(legal.move.to))
        assert match.history.previous == before and match.position == legal.child
    history = scene.match.history
    assert scene.match.over
    for before, after in history.pairs():
        assert after in game.children(before)
    frames(app, 2, canvas)
    assert app.status_text == game.outcome(history.current).describe()
    assert any("win" in text or "Draw" in text for text in canvas.texts())


def test_help_overlay_opens_and_closes_and_q_quits() -> None:
    app = App(MemoryStorage(), 800, 600)
    app.handle(KeyPress("?"))
    assert app.help
    canvas = RecordingCanvas(800, 600)
    app.draw(canvas)
    assert "How to play" in canvas.texts()
    app.handle(KeyPress("x"))
    assert not app.help and not app.quitting
    app.handle(KeyPress("f1"))
    click(app, 10, 10)
    assert not app.help
    app.handle(KeyPress("q"))
    assert app.quitting
    other = App(MemoryStorage(), 800, 600)
    other.handle(Quit())
    assert other.quitting


def help_texts(app: App) -> list[str]:
    """Return the texts of the help overlay as ``app`` draws it."""
    app.handle(KeyPress("?"))
    canvas = RecordingCanvas(app.width, app.height)
    app.draw(canvas)
    app.handle(KeyPress("x"))  # any key closes it
    return canvas.texts()


def test_without_quit_there_is_no_quit_button_and_q_does_nothing() -> None:
    """The browser's App (``can_quit=False``): no Quit anywhere, Q ignored; the desktop's
    (the default) offers Quit on the start screen, in the CvC panel and in the help."""
    settings = {**QUICK, "mode": "cvc"}
    desktop = App(MemoryStorage(settings), 900, 700)
    page = App(MemoryStorage(settings), 900, 700, can_quit=False)
    assert "quit" in desktop.start.button_names and "quit" not in page.start.button_names
    assert "Q" in help_texts(desktop) and "Q" not in help_texts(page)
    assert "quit" not in help_texts(page)
    page.handle(KeyPress("q"))
    assert not page.quitting and page.scene is page.start
    for app in (desktop, page):
        app.handle(KeyPress("enter"))
    assert "quit" in desktop.game.buttons and "quit" not in page.game.buttons
    assert "quit" not in page.game.panel().buttons
    page.handle(KeyPress("q"))
    page.handle(KeyPress("?"))
    page.handle(KeyPress("q"))  # closes the help, and that is all
    frames(page, 30)
    assert not page.quitting and not page.help and page.game.match.history.cursor > 0
    desktop.handle(KeyPress("q"))  # a game is on: asked first
    assert desktop.asking_quit and not desktop.quitting
    desktop.handle(KeyPress("q"))
    assert desktop.quitting
    page.handle(Quit())  # the front end itself closing still ends the App
    assert page.quitting


def test_menu_and_resume_keep_the_game() -> None:
    app = App(MemoryStorage(QUICK), 900, 700)
    app.handle(KeyPress("enter"))
    game = app.game
    app.handle(KeyPress("m"))
    assert isinstance(app.scene, StartScene) and app.start.can_resume
    app.handle(KeyPress("escape"))
    assert app.scene is game
    app.handle(KeyPress("n"))
    assert app.game is not game


def test_illegal_clicks_give_feedback_not_errors() -> None:
    app = App(MemoryStorage(QUICK), 1000, 700)
    app.handle(KeyPress("enter"))
    scene = app.game
    board = scene.board()
    black_piece = scene.game.rules.parse_cell("e1")
    click(app, *board.center(black_piece))
    assert scene.toast is not None and "black piece" in scene.toast[0]
    assert scene.flashes and scene.flashes[0].cell == black_piece
    click(app, 2, 2)
    frames(app, 60)
    assert scene.match.history.cursor == 0


def test_undo_redo_hint_keys_in_a_game() -> None:
    app = App(MemoryStorage(QUICK), 1000, 700)
    app.handle(KeyPress("enter"))
    scene = app.game
    match = scene.match
    match.play(match.legal_moves()[0].child)
    for _ in range(200):
        frames(app, 1)
        if match.human_to_move:
            break
    assert match.history.cursor == 2
    app.handle(KeyPress("u"))
    assert match.history.cursor == 0
    app.handle(KeyPress("r"))
    assert match.history.cursor == 2
    app.handle(KeyPress("h"))
    for _ in range(200):
        frames(app, 1)
        if match.hint is not None:
            break
    assert match.hint is not None and "Hint" in app.status_text
    assert [text for text, _ in move_rows(match)[0][1]] == [
        match.game.move_text(match.game.move_between(a, b))
        for a, b in match.history.pairs()[:2]]


def test_display_preferences_are_saved_from_the_game() -> None:
    storage = MemoryStorage(QUICK)
    app = App(storage, 1000, 700)
    app.handle(KeyPress("enter"))
    app.handle(KeyPress("c"))
    app.handle(KeyPress("a"))
    saved = Settings.from_dict(storage.load())
    assert saved.coordinates and saved.animation == "fast"


def test_cvc_buttons_pause_step_and_speed() -> None:
    app = App(MemoryStorage({**QUICK, "mode": "cvc"}), 1000, 700)
    app.handle(KeyPress("enter"))
    scene = app.game
    panel = scene.panel()
    click(app, *panel.buttons["pause"].center)
    assert scene.match.paused and "resume" in scene.buttons
    click(app, *scene.panel().buttons["step"].center)
    frames(app, 30)
    assert scene.match.history.cursor == 1
    click(app, *scene.panel().buttons["slower"].center)
    assert app.settings.pace == "fast" and scene.match.display().pace == "fast"


def test_resizes_and_pointer_moves_anywhere_are_harmless() -> None:
    app = App(MemoryStorage(QUICK), 1000, 700)
    app.handle(KeyPress("enter"))
    for width, height in ((320, 240), (1, 1), (2000, 600), (500, 1200)):
        app.handle(Resize(width, height))
        app.handle(PointerMove(width / 2, height / 2))
        frames(app, 2, RecordingCanvas(width, height))
        assert (app.game.width, app.game.height) == (width, height)


def test_resuming_a_game_keeps_the_new_menu_choices() -> None:
    storage = MemoryStorage(QUICK)
    app = App(storage, 1000, 700)
    app.handle(KeyPress("enter"))
    app.handle(KeyPress("m"))
    app.handle(KeyPress("down"))  # board size
    app.handle(KeyPress("right"))  # n = 5, for the next game
    app.handle(KeyPress("escape"))  # back to the n = 4 game
    assert app.game.match.game.n == 4
    app.handle(KeyPress("c"))  # a display preference changed in the game
    saved = Settings.from_dict(storage.load())
    assert saved.n == 5 and saved.coordinates
    app.handle(KeyPress("n"))
    assert app.game.match.game.n == 5


def test_scenes_ask_with_intents_and_the_app_owns_the_settings() -> None:
    storage = MemoryStorage({})
    app = App(storage, 1000, 700)
    intent = app.start.handle(KeyPress("right"))  # the focused row is Game: Oska -> Hexapawn
    assert isinstance(intent, Choose) and intent.settings.kind == "hexapawn"
    assert app.settings == Settings() and storage.saves == 0  # asked, not yet adopted
    app.handle(KeyPress("right"))
    assert app.settings.kind == "hexapawn" and storage.saves == 1
    assert app.start.settings is app.settings
    app.handle(KeyPress("enter"))
    scene = app.game
    assert scene.handle(KeyPress("a")) == Choose(replace(app.settings, animation="slow"))
    assert app.settings.animation == "normal"
    assert scene.handle(KeyPress("m")) is Action.MENU and app.scene is scene
    app.handle(KeyPress("a"))
    assert app.settings.animation == "slow" and scene.settings is app.settings
    assert scene.match.display() is app.settings and storage.saves == 2


def test_the_game_view_is_data_and_drawing_it_decides_nothing() -> None:
    app = App(MemoryStorage(QUICK), 1000, 700)
    app.handle(KeyPress("enter"))
    view = app.game.view()
    assert (view.title, view.mode, view.status) == ("Oska · n = 4", "you play White",
                                                    "Your move (White)")
    assert view.cards[0].to_move and not view.cards[1].to_move
    assert view.cards[0].role == ("You",) and view.cards[1].role[0].startswith("Computer · ")
    assert view.banner is None and view.moves == [] and view.toast is None
    assert view.buttons["hint"].enabled and not view.buttons["undo"].enabled
    first, second = RecordingCanvas(1000, 700), RecordingCanvas(1000, 700)
    game_view.draw(first, view)
    game_view.draw(second, view)
    assert first.calls == second.calls
    assert "Click a piece, then a highlighted hole" in " ".join(first.texts())  # wrapped


def test_a_frame_whose_input_used_up_its_slice_leaves_thinking_to_the_next() -> None:
    """Starting a game builds players and a new screen; the computer's first slice then
    waits a frame, so that one frame does not pay for both."""
    app = App(MemoryStorage({**QUICK, "human_side": "black"}), 900, 700, think_slice=1e-9)
    app.handle(KeyPress("enter"))  # White, the computer, moves first
    game = app.game if app.game is not None else pytest.fail("no game")
    app.update(0.02)
    assert game.match.thinking is None and game.match.history.cursor == 0
    app.update(0.02)  # no input: the whole (tiny) slice is the computer's
    assert game.match.thinking == 0 or game.match.history.cursor > 0
