"""Hostile input to the window and the page (issue 37, items 1, 2 and 9).

Item 1: any text may reach the screen (a bot's error, a record's player names and
forfeit reason): NUL, lone surrogates, escape sequences, megabytes. Every text is drawn,
measured, said and mirrored as ``core.text.drawable`` makes it, so nothing crashes the
window at its first frame. Item 2: a saved game that cannot be resumed (it names the
external level, which only the command line gives) is set aside with a note, never
a crash at every start. Item 9: a settings or saved-game file that is not a regular
file (a FIFO, a folder, a device behind a link) is set aside with a note, never read
(a FIFO would hang the start) nor written through; and SIGTERM ends the window at any
point.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pygame
import pytest
from desktop_helpers import SIZE, post_key, step_until
from hostile_helpers import REPO_ROOT
from hypothesis import given
from hypothesis import strategies as st
from test_web_backend import FakeContext

from oska_gui.core.text import LINE_LIMIT, drawable
from oska_gui.core.types import Outcome, Termination
from oska_gui.desktop.canvas import SurfaceCanvas
from oska_gui.desktop.loop import DesktopRunner
from oska_gui.desktop.voice import Voice
from oska_gui.games.oska import oska_rules
from oska_gui.play.records import Record, from_json, from_positions
from oska_gui.session.settings import MemoryStorage
from oska_gui.ui.app import App
from oska_gui.web.canvas2d import HtmlCanvas

pytestmark = pytest.mark.usefixtures("display")

NUL, SURROGATE, ESCAPE = "bad\x00move", "bad\ud800move", "\x1b[31mred\u202e"
HOSTILE = (NUL, SURROGATE, ESCAPE, "x" * 1_000_000, "word " * 200_000)
RAISES = 'def oskaplayer(b, p, d):\n    raise ValueError("{text}")\n'


def forfeit_record(reason: str, white: str, black: str) -> Record:
    """Return a record of one Oska move after which Black forfeited for ``reason``,
    with the players ``white`` and ``black`` (read back as a file would be)."""
    rules = oska_rules(4)
    line = [rules.start()]
    line.append(rules.children(line[0])[0])
    record = from_positions(line, rules, white, black,
                            Outcome(0, f"Black forfeits: {reason}", Termination.FORFEIT),
                            forfeit=reason, seconds=(0.1, 0.2))
    return from_json(json.loads(json.dumps(record.to_json())))


def window_environment(tmp_path: Path) -> dict[str, str]:
    """Return the environment of a window run for a test: its own settings folder in
    ``tmp_path``, headless SDL."""
    return {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config"),
            "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
            "PYTHONPATH": str(REPO_ROOT)}


def printable(text: str) -> bool:
    """Return whether ``text`` is free of what breaks a screen, a terminal or UTF-8."""
    text.encode("utf-8")  # raises for a lone surrogate
    return text.isprintable()


# -- item 1: any text is drawable -----------------------------------------------------


@given(st.text() | st.sampled_from(HOSTILE))
def test_drawable_text_is_printable_short_and_stable(text: str) -> None:
    """``drawable`` gives printable UTF-8 text of at most ``LINE_LIMIT`` characters,
    its own answer unchanged, a short printable text as it is."""
    shown = drawable(text)
    assert printable(shown) and len(shown) <= LINE_LIMIT
    assert drawable(shown) == shown
    if text.isprintable() and len(text) <= LINE_LIMIT:
        assert shown == text


def test_control_characters_and_surrogates_are_replaced_visibly() -> None:
    """What cannot be drawn shows as its escape; a cut text ends in '…'."""
    assert drawable(NUL) == "bad\\x00move"
    assert drawable(SURROGATE) == "bad\\ud800move"
    assert drawable("y" * 10_000).endswith("…")


@pytest.mark.parametrize("text", HOSTILE)
def test_the_window_canvas_draws_and_measures_any_text(text: str) -> None:
    """pygame refuses NUL and surrogates: the window's canvas draws them escaped."""
    canvas = SurfaceCanvas(pygame.Surface((200, 50)))
    canvas.text(text, 10, 10, 14, (255, 255, 255))
    assert canvas.text_width(text, 14) == canvas.text_width(drawable(text), 14) > 0


@pytest.mark.parametrize("text", HOSTILE)
def test_the_page_canvas_draws_and_measures_drawable_text(text: str) -> None:
    """The page's canvas hands the browser ``drawable`` text only."""
    ctx = FakeContext()
    canvas = HtmlCanvas(ctx, 200, 50)
    canvas.text(text, 10, 10, 14, (255, 255, 255))
    canvas.text_width(text, 14)
    assert [args[0] for args in ctx.calls("fillText")] == [drawable(text)]
    assert [args[0] for args in ctx.calls("measureText")] == [drawable(text)]


def test_a_replay_with_hostile_names_and_reason_is_drawn_and_reviewed() -> None:
    """``main.py --replay`` of a record whose names and forfeit reason hold NUL, a lone
    surrogate and a megabyte: the replay, its forfeit and its review all draw."""
    record = forfeit_record(NUL + SURROGATE + "z " * 500_000, SURROGATE, NUL * 1000)
    pygame.event.clear()
    runner = DesktopRunner(App(MemoryStorage({"animation": "off"})), SIZE)
    runner.app.replay(record)
    post_key(pygame.K_r, "r")  # redo the recorded move: the forfeit shows
    step_until(runner, lambda: runner.app.game is not None and runner.app.game.match.over,
               frames=50)
    runner.step(0.02)
    post_key(pygame.K_e, "e")  # the review, with the players' names
    step_until(runner, lambda: runner.app.scene is runner.app.review, frames=50)
    for _ in range(3):
        runner.step(0.02)
    runner.app.close()


def test_a_voice_says_any_text() -> None:
    """Speech (``main.py --speak``) prints and says ``drawable`` text: NUL is no
    command-line argument and stdout cannot encode a lone surrogate."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    voice = Voice(out, (sys.executable, "-c", "pass"))
    voice.say(NUL + SURROGATE)
    voice.stop()
    out.flush()
    assert out.buffer.getvalue().decode("utf-8") == drawable(NUL + SURROGATE) + "\n"


@pytest.mark.slow
@pytest.mark.parametrize("text", ["bad\\x00move", "bad\\ud800move"])
def test_bots_whose_errors_hold_nul_or_a_surrogate_forfeit_on_screen(tmp_path: Path,
                                                                     text: str) -> None:
    """The issue's case: such a bot as both sides of ``main.py`` (and ``--speak``) is
    shown forfeiting, the window goes on and ends normally."""
    bot = tmp_path / "bot.py"
    bot.write_text(RAISES.format(text=text), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(REPO_ROOT / "main.py"), "--white", str(bot), "--black",
         str(bot), "--n", "5", "--speak", "--frames", "150"],
        capture_output=True, text=True, timeout=120, check=False,
        env=window_environment(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "forfeits" in done.stdout and "Traceback" not in done.stderr


def test_the_page_mirrors_drawable_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's status, live region and description carry ``drawable`` text."""
    monkeypatch.setitem(sys.modules, "js", SimpleNamespace(
        Float32Array=None, Object=None, OffscreenCanvas=None, console=None,
        postMessage=None))
    monkeypatch.setitem(sys.modules, "pyodide", SimpleNamespace())
    monkeypatch.setitem(sys.modules, "pyodide.ffi", SimpleNamespace(to_js=None))
    from oska_gui.web.page import WorkerFrontEnd
    from oska_gui.web.recorder import DrawingLog
    from oska_gui.web.speaker import PageSpeaker

    app = App(MemoryStorage({"animation": "off"}))
    app.replay(forfeit_record(NUL + SURROGATE, SURROGATE, NUL))
    front = WorkerFrontEnd(app, PageSpeaker(lambda message: None),
                           DrawingLog(SimpleNamespace(font="", measureText=None)),
                           (800, 600, 1.0), lambda *args: None)
    front._changes()  # the replay at its start
    app.game.match.redo()  # its last position: the forfeit is the status
    app.game.say(NUL + SURROGATE)
    changes = front._changes()
    assert {"status", "announce", "position"} <= set(changes)
    for name in ("status", "announce", "position"):
        assert printable(changes[name]), name
    app.close()
