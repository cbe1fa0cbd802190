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
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pygame
import pytest
from desktop_helpers import SIZE, post_key, step_until
from hostile_helpers import REPO_ROOT
from hypothesis import given
from hypothesis import strategies as st
from ui_fakes import FakeContext, WebStore

from oska_gui.core.text import LINE_LIMIT, drawable
from oska_gui.core.types import Outcome, Termination
from oska_gui.desktop.canvas import SurfaceCanvas
from oska_gui.desktop.loop import DesktopRunner
from oska_gui.desktop.storage import JsonFileStorage
from oska_gui.desktop.voice import Voice
from oska_gui.engine.registry import GameKind, game_info
from oska_gui.games.oska import oska_rules
from oska_gui.play.game import make_game
from oska_gui.play.levels import LevelKey
from oska_gui.play.records import Record, from_json, from_positions
from oska_gui.session.saved_game import GameKeeper, SavedGame, SavedGameError, from_dict
from oska_gui.session.settings import MemoryStorage, Mode, Settings
from oska_gui.ui.app import App
from oska_gui.web.canvas2d import HtmlCanvas
from oska_gui.web.storage import LocalStorageSettings

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


# -- item 2: a saved game that cannot be resumed --------------------------------------


def bot_game(kind: GameKind, levels: tuple[LevelKey, LevelKey]) -> dict:
    """Return a saved game at the start of ``kind`` (smallest board), computer against
    computer at ``levels``: as a hand-edited file would hold it."""
    game = make_game(kind, game_info(kind).sizes[0])
    settings = Settings(kind=kind, n=game.n, mode=Mode.CVC, levels=levels)
    return SavedGame(settings, (game.start(),), 0).to_dict()


BOT_GAMES = [bot_game(GameKind.OSKA, (LevelKey.HARD, LevelKey.EXTERNAL)),
             bot_game(GameKind.HEXAPAWN, (LevelKey.EXTERNAL, LevelKey.EASY))]


@pytest.mark.parametrize("saved", BOT_GAMES)
def test_a_saved_game_naming_the_external_level_is_refused(saved: dict) -> None:
    """The window never keeps a game with an external bot: one that names it is no
    saved game (it made the App's bot lookup fail at every start)."""
    with pytest.raises(SavedGameError, match="external bot"):
        from_dict(saved)


@pytest.mark.parametrize("saved", BOT_GAMES)
def test_the_window_starts_and_sets_the_bot_game_aside(tmp_path: Path, saved: dict,
                                                       capsys: pytest.CaptureFixture) -> None:
    """On the desktop the file is renamed out of the way with a note; the next start
    finds no saved game."""
    path, aside = tmp_path / "game.json", tmp_path / "game.json.set-aside"
    path.write_text(json.dumps(saved), encoding="utf-8")
    for start in range(2):
        notes: list[str] = []
        app = App(MemoryStorage(), keeper=GameKeeper(JsonFileStorage(path, "saved game"),
                                                     notes.append))
        assert app.game is None and "resume" not in app.start.button_names
        assert notes == ([] if start else [
            "the saved game cannot be resumed: it names an external bot, which only the "
            f"command line gives; set aside as {aside}"])
    assert not path.exists() and json.loads(aside.read_text(encoding="utf-8")) == saved
    assert capsys.readouterr().err == ""


def test_the_page_starts_and_sets_the_bot_game_aside() -> None:
    """In the browser the text moves to the key ``oska.game.set-aside``, with a note."""
    text = json.dumps(BOT_GAMES[0])
    store, notes = WebStore({"oska.game": text}), []
    keeper = GameKeeper(LocalStorageSettings(store, pytest.fail, key="oska.game"),
                        notes.append)
    app = App(MemoryStorage(), keeper=keeper, open_saved=True)
    assert app.game is None and app.scene is app.start
    assert store.items == {"oska.game": "{}", "oska.game.set-aside": text}
    assert notes == ["the saved game cannot be resumed: it names an external bot, which "
                     "only the command line gives; set aside as oska.game.set-aside"]


# -- item 9: files that are not regular files; SIGTERM -------------------------------


def run_window(tmp_path: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run ``main.py`` with ``args`` and the settings folder ``tmp_path/config``."""
    return subprocess.run([sys.executable, str(REPO_ROOT / "main.py"), *args],
                          capture_output=True, text=True, timeout=timeout, check=False,
                          env=window_environment(tmp_path))


@pytest.mark.slow
def test_fifos_as_settings_and_saved_game_are_set_aside_at_start(tmp_path: Path) -> None:
    """A FIFO as the settings file, and a link to one as the saved game, used to hang
    the start (reading waits for a writer): both are set aside with a note, at once."""
    folder = tmp_path / "config" / "oska-gui"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "settings.json")
    os.mkfifo(tmp_path / "elsewhere")
    (folder / "game.json").symlink_to(tmp_path / "elsewhere")
    done = run_window(tmp_path, "--frames", "5", timeout=30)
    assert done.returncode == 0, done.stderr
    for name, what in (("settings.json", "settings"), ("game.json", "saved game")):
        aside = folder / f"{name}.set-aside"
        assert f"{folder / name} ({what}) is a FIFO, not a regular file: set aside as " \
               f"{aside}" in done.stderr
        assert not os.path.lexists(folder / name) and os.path.lexists(aside)
    assert (tmp_path / "elsewhere").is_fifo()


def notes_of(call: Callable[[], object], capsys: pytest.CaptureFixture) -> tuple[object, str]:
    """Return what ``call()`` gives and the notes it wrote on stderr."""
    capsys.readouterr()
    return call(), capsys.readouterr().err


def test_a_folder_as_the_settings_file_is_set_aside(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture) -> None:
    """A folder where the settings file goes (saving there failed every time) is set
    aside with a note, and the settings are saved in its place."""
    path = tmp_path / "settings.json"
    path.mkdir()
    (path / "inside").write_text("kept", encoding="utf-8")
    storage = JsonFileStorage(path)
    data, note = notes_of(storage.load, capsys)
    assert data == {}
    assert note == (f"Oska: {path} (settings) is a folder, not a regular file: set aside "
                    f"as {path}.set-aside\n")
    assert notes_of(lambda: storage.save({"n": 5}), capsys)[1] == ""
    assert storage.load() == {"n": 5}
    assert (tmp_path / "settings.json.set-aside" / "inside").read_text() == "kept"


def test_nothing_is_written_through_a_link_to_what_is_not_a_file(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """A settings file that is a link to a FIFO (or a device: /dev/null) is never
    written through: the link is set aside, a file is written in its place, and what
    it led to stays as it was."""
    fifo, path = tmp_path / "fifo", tmp_path / "settings.json"
    os.mkfifo(fifo)
    path.symlink_to(fifo)
    storage = JsonFileStorage(path)
    note = notes_of(lambda: storage.save({"n": 6}), capsys)[1]
    assert "is a FIFO, not a regular file: set aside as" in note
    assert fifo.is_fifo() and (tmp_path / "settings.json.set-aside").is_symlink()
    assert not path.is_symlink() and storage.load() == {"n": 6}


def test_set_aside_names_do_not_overwrite_each_other(tmp_path: Path) -> None:
    """A second file set aside gets the next free name."""
    path = tmp_path / "game.json"
    names = []
    for count in range(3):
        path.write_text(str(count), encoding="utf-8")
        names.append(Path(JsonFileStorage(path).set_aside()).name)
    assert names == ["game.json.set-aside", "game.json.set-aside-2", "game.json.set-aside-3"]
    assert (tmp_path / "game.json.set-aside-2").read_text() == "1"


STUCK = """
import runpy, sys, time
import oska_gui.bootstrap
from oska_gui.desktop import storage

def stuck(self):
    print("waiting", flush=True)
    time.sleep(120)

oska_gui.bootstrap.ensure_venv = lambda *args, **kwargs: None  # this interpreter, as it is
storage.JsonFileStorage.load = stuck
sys.argv = ["main.py"]
runpy.run_path({main!r}, run_name="__main__")
"""


@pytest.mark.slow
def test_sigterm_ends_the_window_while_it_waits_outside_its_frames(tmp_path: Path) -> None:
    """SDL took SIGTERM for a close of the window, which only the frame loop sees: a
    window waiting elsewhere (it was a FIFO's reading) did not end. Now SIGTERM ends it
    at any point, with exit code 143."""
    code = STUCK.format(main=str(REPO_ROOT / "main.py"))
    window = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True,
                              env=window_environment(tmp_path))
    try:
        assert window.stdout is not None and window.stdout.readline() == "waiting\n"
        window.send_signal(signal.SIGTERM)
        _, err = window.communicate(timeout=10)
    finally:
        window.kill()
        window.wait()
    assert window.returncode == 143 and "Traceback" not in err, err
