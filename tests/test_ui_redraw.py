"""The App asks to be drawn only when the picture may have changed."""

from __future__ import annotations

from ui_fakes import RecordingCanvas

from oska_gui.session.settings import MemoryStorage
from oska_gui.ui.app import App
from oska_gui.ui.kit.events import KeyPress, PointerMove

QUICK = {"levels": ["beginner", "beginner"], "animation": "normal", "pace": "instant"}


def settle(app: App, canvas: RecordingCanvas, frames: int = 400) -> int:
    """Run frames, drawing only when asked, until a frame needs no drawing; return how
    many frames were drawn."""
    for drawn in range(frames):
        app.update(0.02)
        if not app.needs_draw:
            return drawn
        app.draw(canvas)
    raise AssertionError("the App never stops asking to be drawn")


def test_an_idle_start_screen_is_drawn_once_then_only_after_input() -> None:
    app = App(MemoryStorage(QUICK), 900, 700)
    canvas = RecordingCanvas(900, 700)
    assert app.needs_draw
    app.draw(canvas)
    for _ in range(100):
        app.update(0.02)
        assert not app.needs_draw
    app.handle(PointerMove(10, 10))
    assert app.needs_draw


def test_a_human_move_is_drawn_through_its_animation_and_the_reply_then_rests() -> None:
    app = App(MemoryStorage(QUICK), 900, 700)
    canvas = RecordingCanvas(900, 700)
    app.handle(KeyPress("enter"))
    app.draw(canvas)
    assert settle(app, canvas) == 0  # your move: nothing moves until you do
    scene = app.game
    assert scene is not None
    scene.match.play(scene.match.legal_moves()[0].child)
    drawn = settle(app, canvas)
    assert drawn >= 10  # the move glides, the computer answers, its move glides
    assert scene.match.human_to_move and scene.animation is None


def test_computer_against_computer_is_drawn_every_frame_until_paused_or_over() -> None:
    app = App(MemoryStorage({**QUICK, "mode": "cvc"}), 900, 700)
    canvas = RecordingCanvas(900, 700)
    app.handle(KeyPress("enter"))
    app.draw(canvas)
    for _ in range(20):
        app.update(0.02)
        assert app.needs_draw
        app.draw(canvas)
    app.handle(KeyPress("space"))  # pause
    app.draw(canvas)
    settle(app, canvas)
    assert app.game is not None and app.game.match.paused
    app.handle(KeyPress("space"))
    settle(app, canvas, frames=5000)
    assert app.game.match.over
