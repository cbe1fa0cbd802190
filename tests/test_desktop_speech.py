"""The desktop for a screen-reader user: a whole game played with keys only through the
real pygame event queue (SDL dummy driver), checking what the runner's voice says, and
the ``--speak`` voice itself (lines printed, a speech command run and cut short).

Screenshots of the typed-move line go to tests/artifacts/desktop-typed-move-*.png.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pygame
import pytest
from desktop_helpers import QUICK, SIZE, post_key, save
from keyboard_paths import arrow_path

from oska_gui.desktop.loop import DesktopRunner
from oska_gui.desktop.voice import Voice, speech_command
from oska_gui.session.settings import MemoryStorage
from oska_gui.ui.app import App
from oska_gui.ui.game.game_scene import GameScene

pytestmark = pytest.mark.usefixtures("display")

ARROWS = {"up": pygame.K_UP, "down": pygame.K_DOWN, "left": pygame.K_LEFT,
          "right": pygame.K_RIGHT}


class Listener:
    """A runner whose voice's every announcement is kept, frame by frame."""

    def __init__(self, settings: dict) -> None:
        """Open a window on a fresh App with ``settings``, its voice recorded."""
        pygame.event.clear()
        self.said: list[str] = []
        self.runner = DesktopRunner(App(MemoryStorage(settings)), SIZE, voice=self.said.append)
        self.runner.step(0.02)

    def press(self, key: int, text: str = "") -> str | None:
        """Post one key press, run a frame and return what was said in it (or None)."""
        before = len(self.said)
        post_key(key, text)
        self.runner.step(0.02)
        assert len(self.said) <= before + 1  # one announcement a frame at most
        return self.said[-1] if len(self.said) > before else None

    def type(self, text: str) -> list[str | None]:
        """Type ``text`` one character at a time; return what each key made said."""
        return [self.press(ord(char), char) for char in text]

    @property
    def scene(self) -> GameScene:
        """Return the game on show."""
        scene = self.runner.app.game
        assert scene is not None
        return scene

    def wait_for_a_human(self, frames: int = 3000) -> list[str]:
        """Run frames until a human may move or the game is over; return what was said."""
        before = len(self.said)
        for _ in range(frames):
            match = self.scene.match
            if match.over or match.human_to_move:
                return self.said[before:]
            self.runner.step(0.02)
        raise AssertionError(f"no human turn after {frames} frames")


def arrows_to(scene: GameScene, start: int, goal: int) -> list[str]:
    """Return the fewest arrow keys that take the cursor from ``start`` to ``goal`` on
    ``scene``'s board as drawn."""
    board = scene.board()
    return arrow_path([board.center(cell) for cell in range(board.cell_count)], start, goal)


def cell_words(scene: GameScene, cell: int) -> str:
    """Return how a cell starts to be announced: its name and what stands on it."""
    side = scene.game.piece_at(scene.match.position, cell)
    what = "empty" if side is None else f"{('White', 'Black')[side]} piece"
    return f"{scene.game.cell_name(cell)}, {what}"


def play_by_arrows(listener: Listener, frm: int, to: int) -> list[str]:
    """Walk the cursor to ``frm``, pick it up, walk to ``to`` and put it down, checking
    each announcement; return the last one (the move)."""
    scene = listener.scene
    game = scene.game
    if scene.cursor is None:
        assert listener.press(pygame.K_DOWN) == f"{cell_words(scene, scene.cursor)}."
    for key in arrows_to(scene, scene.cursor, frm):
        said = listener.press(ARROWS[key])
        assert said == f"{cell_words(scene, scene.cursor)}."
    said = listener.press(pygame.K_RETURN)
    targets = sorted(game.cell_name(legal.move.to) for legal in scene.match.legal_moves()
                     if legal.move.frm == frm)
    assert said is not None and said.startswith(f"Picked up {game.cell_name(frm)}: it can go to ")
    assert all(name in said for name in targets)
    for key in arrows_to(scene, frm, to):
        said = listener.press(ARROWS[key])
        assert said is not None and said.startswith(cell_words(scene, scene.cursor))
    assert said is not None and f"{game.cell_name(frm)} can go here" in said
    moved = listener.press(pygame.K_RETURN)
    assert moved is not None
    return [moved]


def test_a_whole_game_by_keys_only_says_cursor_pick_up_targets_moves_and_the_end() -> None:
    listener = Listener({**QUICK, "levels": ["easy", "beginner"]})
    assert listener.said[0].startswith("Start screen: Oska n = 4")
    assert listener.press(pygame.K_DOWN) == "Board size: 4, row 2 of 9."
    assert listener.press(pygame.K_RETURN) == "Your move (White)."
    typed = False
    for _ in range(200):
        scene = listener.scene
        if scene.match.over:
            break
        legal = scene.match.legal_moves()
        capture = [one for one in legal if one.move.is_capture]
        move = (capture or legal)[0].move
        game = scene.game
        if typed:  # every other move of White's is typed
            opened = listener.press(pygame.K_SLASH, "/")
            assert opened is not None and opened.startswith("Type a move, like ")
            text = game.move_text(move)
            echoes = listener.type(text)
            assert echoes[-1] == f"Typed {' '.join(text)}."
            said = [listener.press(pygame.K_RETURN)]
            assert listener.press(pygame.K_ESCAPE) == "Move line closed."
        else:
            said = play_by_arrows(listener, move.frm, move.to)
        verb = "jumps" if move.is_capture else "moves"
        assert said[0] is not None and said[0].startswith(
            f"White {verb} {game.cell_name(move.frm)} to {game.cell_name(move.to)}")
        typed = not typed
        replies = listener.wait_for_a_human()
        assert scene.match.over or any(line.startswith("Black ") for line in replies)
    match = listener.scene.match
    assert match.over and match.outcome is not None
    assert match.outcome.describe() in " ".join(listener.said[-3:])


def test_the_typed_move_line_screenshots() -> None:
    listener = Listener(QUICK)
    listener.press(pygame.K_RETURN)
    listener.press(pygame.K_SLASH, "/")
    listener.type("a1-b")
    save(listener.runner, "typed-move-entry")
    said = listener.type("9")
    assert said == ["Typed a 1 - b 9."]
    assert listener.press(pygame.K_RETURN) == "No cell named 'b9' on the n = 4 board."
    surface = save(listener.runner, "typed-move-problem")
    assert surface.get_size() == SIZE


def test_the_voice_prints_each_line_and_runs_the_speech_command(tmp_path: Path) -> None:
    heard = tmp_path / "heard.txt"
    record = [sys.executable, "-c",
              f"import sys; open({str(heard)!r}, 'a').write(sys.argv[1] + '|')"]
    out = io.StringIO()
    voice = Voice(out, record)
    voice.say("White moves a1 to b1.")
    assert voice._speaking is not None
    voice._speaking.wait(10)
    assert heard.read_text() == "White moves a1 to b1.|"
    assert out.getvalue() == "White moves a1 to b1.\n"


def test_a_new_announcement_cuts_the_last_short() -> None:
    voice = Voice(io.StringIO(), [sys.executable, "-c", "import time; time.sleep(60)"])
    voice.say("one")
    first = voice._speaking
    voice.say("two")
    assert first is not None and first.returncode is not None  # ended, not left running
    voice.stop()


def test_a_missing_speech_command_leaves_the_printed_lines(tmp_path: Path) -> None:
    out = io.StringIO()
    voice = Voice(out, [str(tmp_path / "no-such-speaker")])
    voice.say("one")
    voice.say("two")
    lines = out.getvalue().splitlines()
    assert lines[0] == "one" and lines[-1] == "two"
    assert lines[1].startswith("Oska: cannot speak with ") and len(lines) == 3


def test_the_first_speech_command_on_the_path_is_used(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert speech_command() is None
    espeak = tmp_path / "espeak"
    espeak.write_text("#!/bin/sh\n")
    espeak.chmod(0o755)
    assert speech_command() == (str(espeak),)
    spd = tmp_path / "spd-say"
    spd.write_text("#!/bin/sh\n")
    spd.chmod(0o755)
    assert speech_command() == (str(espeak),)
    espeak.unlink()
    assert speech_command() == (str(spd), "--wait")


def test_a_ctrl_shortcut_leaves_the_move_line_and_does_its_command() -> None:
    listener = Listener(QUICK)
    listener.press(pygame.K_RETURN)
    listener.press(pygame.K_SLASH, "/")
    listener.type("a")
    assert listener.runner.app.typing
    post_key(pygame.K_q, "\x11", pygame.KMOD_LCTRL)
    listener.runner.step(0.02)
    app = listener.runner.app
    assert not app.typing and listener.scene.line.text == ""
    assert app.asking_quit  # Ctrl+Q: "Quit Oska?", as without the line
