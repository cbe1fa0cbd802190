"""Typing a move in notation ('/' opens the line): keys are the line's, moves are read by
the rules' parser, problems are said plainly, and the line is drawn on the canvas."""

from __future__ import annotations

from ui_fakes import RecordingCanvas

from oska_gui.session.settings import MemoryStorage
from oska_gui.ui.app import App
from oska_gui.ui.game.game_scene import GameScene
from oska_gui.ui.game.typed_move import LONGEST, MoveLine
from oska_gui.ui.kit import theme
from oska_gui.ui.kit.events import KeyPress

QUICK = {"levels": {"white": "easy", "black": "easy"}, "animation": "off", "pace": "instant"}


def playing(settings: dict | None = None) -> tuple[App, GameScene]:
    """Return an App with a game started by Enter, and its game scene."""
    app = App(MemoryStorage(settings or QUICK), 1000, 700)
    app.handle(KeyPress("enter"))
    assert app.game is not None
    return app, app.game


def press(app: App, *keys: str) -> None:
    """Press ``keys`` one after the other."""
    for key in keys:
        app.handle(KeyPress(key))


def test_the_line_takes_every_key_so_no_command_runs() -> None:
    app, scene = playing()
    press(app, "/")
    assert app.typing and scene.line.text == ""
    press(app, "n", "u", "q", "?", "m", "f1", "left", "space")
    assert not app.quitting and not app.help and app.question is None
    assert app.scene is scene and app.game is scene  # no new game, no menu
    assert scene.line.text == "nuq?m"  # named keys are not typed
    press(app, "backspace", "backspace")
    assert scene.line.text == "nuq"


def test_where_a_record_can_be_opened_o_opens_it_but_is_a_letter_after_the_slash() -> None:
    """The page's App (``can_open``): O asks for the file picker, but '/' then O, as
    the page sends them in one frame, types an o and asks for nothing."""
    app = App(MemoryStorage(QUICK), 1000, 700, can_open=True)
    press(app, "enter", "/", "o")
    assert app.game is not None and app.game.line.text == "o"
    assert not app.take_open_request()
    press(app, "escape", "o")  # the line closed: O is the command again
    assert not app.typing and app.take_open_request()


def test_malformed_unknown_and_illegal_moves_are_refused_in_the_parsers_words() -> None:
    app, scene = playing()
    position = scene.match.position
    press(app, "/", "a", "1", "-", "enter")
    assert scene.line.problem is not None and scene.line.problem.startswith("Cannot read move")
    press(app, "z", "9", "enter")  # 'a1-z9'
    assert scene.line.problem == "No cell named 'z9' on the n = 4 board"
    press(app, *"zz", *["backspace"] * 7, *"a1-a2", "enter")
    assert scene.line.text == "a1-a2"
    assert scene.line.problem == "'a1-a2' is not a legal move for White"
    assert scene.match.position == position and app.typing
    view = scene.line.view("a1-b1")
    assert view is not None and view.problem and view.note == scene.line.problem


def test_a_legal_move_is_played_and_the_line_stays_open_for_the_next() -> None:
    app, scene = playing()
    legal = scene.match.legal_moves()[-1]
    text = scene.game.move_text(legal.move)
    press(app, "/", *text, "enter")
    assert scene.match.history.positions[1] == legal.child
    assert app.typing and scene.line.text == "" and scene.line.problem is None
    press(app, *"b1-c1", "enter")  # the computer's turn: not yet
    assert scene.line.problem == "Please wait: the computer is thinking"
    press(app, "escape")
    assert not app.typing and app.scene is scene
    press(app, "escape")
    assert app.scene is app.start  # Escape with the line closed: the menu, as before


def test_enter_on_an_empty_line_says_how_to_use_it_with_a_move_of_the_position() -> None:
    app, scene = playing()
    press(app, "/", "enter")
    example = scene.game.move_text(scene.match.legal_moves()[0].move)
    assert scene.line.problem == (
        f"Type a move, like {example}. Enter plays it, Escape closes the line")


def test_the_line_holds_no_more_than_a_move_of_the_largest_board() -> None:
    line = MoveLine()
    line.start()
    for _ in range(LONGEST + 5):
        line.edit("a")
    assert line.text == "a" * LONGEST
    assert not line.edit("a") and not line.edit("tab")
    line.close()
    assert line.view("") is None


def test_two_players_type_both_sides_and_a_finished_game_is_said_to_be_over() -> None:
    app, scene = playing({**QUICK, "mode": "hvh"})
    press(app, "/")
    for _ in range(400):
        if scene.match.over:
            break
        legal = scene.match.legal_moves()
        if not legal:  # a forced pass: the match plays it in its own time
            app.update(0.5)
            continue
        press(app, *scene.game.move_text(legal[0].move), "enter")
        assert scene.line.problem is None
    assert scene.match.over
    press(app, *"a1-b1", "enter")
    assert scene.line.problem == "The game is over: Escape, then N for a new game"


def test_the_open_line_is_drawn_with_its_text_and_problem_over_the_panel() -> None:
    app, scene = playing()
    canvas = RecordingCanvas(1000, 700)
    press(app, "/", *"b7-c1")
    app.draw(canvas)
    texts = [args[0] for name, args in canvas.calls if name == "text"]
    assert "Type a move: b7-c1_" in texts
    press(app, "enter")
    canvas.calls.clear()
    app.draw(canvas)
    errors = [args[0] for name, args in canvas.calls
              if name == "text" and args[4] == theme.TEXT_ERROR]
    assert " ".join(errors).startswith("No cell named 'b7'")
