"""External oskaplayer files as the desktop game's opponent: real processes, real window.

Small bot files are written into tmp_path: a correct one, and ones that raise, hang,
return an illegal board, crash, exit or cannot load. Each failing bot is shown as a
forfeit with its reason, and the game goes on working (undo, new game, menu).
Screenshot: tests/artifacts/desktop-bot-forfeit.png.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pygame
import pytest
from desktop_helpers import (
    QUICK,
    SIZE,
    click_move,
    close,
    post_key,
    save,
)

from oska_gui.bots.bot_process import REASONS
from oska_gui.desktop.bots import ExternalBot
from oska_gui.desktop.loop import DesktopRunner
from oska_gui.games.oska import BLACK, WHITE
from oska_gui.play.bot_loader import parse_bot
from oska_gui.play.levels import LevelKey
from oska_gui.session.settings import MemoryStorage
from oska_gui.ui.app import App
from oska_gui.ui.kit import theme
from oska_gui.ui.start.start_scene import StartScene

pytestmark = pytest.mark.usefixtures("display")

FIRST_MOVE = '''
from oska_gui.spec.oska import movegen

def oskaplayer(board, player, depth):
    boards = movegen(board, player)
    return boards[0] if boards else board
'''
BOTS = {
    "good": FIRST_MOVE,
    "raises": "def oskaplayer(board, player, depth):\n    raise ValueError('boom')\n",
    "hangs": "import time\ndef oskaplayer(board, player, depth):\n    time.sleep(60)\n",
    "illegal": "def oskaplayer(board, player, depth):\n    return board\n",
    "crashes": "import os\ndef oskaplayer(board, player, depth):\n    os._exit(3)\n",
    "exits": "import sys\ndef oskaplayer(board, player, depth):\n    sys.exit(0)\n",
    "broken": "def oskaplayer(board, player, depth)\n    return board\n",
    "nameless": "def other(board, player, depth):\n    return board\n",
}
FORFEITS = [("raises", "exception", "ValueError: boom"), ("hangs", "timeout", "0.6 s"),
            ("illegal", "illegal", "unchanged"), ("crashes", "crash", "exit code 3"),
            ("exits", "crash", "sys.exit(0)"), ("broken", "load", "SyntaxError"),
            ("nameless", "load", "oskaplayer")]
TIME_LIMIT = 0.6


def bot_file(tmp_path: Path, name: str) -> ExternalBot:
    """Write the bot ``name`` into ``tmp_path`` and return it as the desktop offers it."""
    path = tmp_path / f"{name}.py"
    path.write_text(BOTS[name], encoding="utf-8")
    return ExternalBot(parse_bot(str(path)), TIME_LIMIT, depth=2)


def runner_with(bots: dict, settings: dict) -> DesktopRunner:
    """Return a window running an App offering ``bots``, past the start screen."""
    pygame.event.clear()
    runner = DesktopRunner(App(MemoryStorage(settings), bots=bots), SIZE)
    post_key(pygame.K_RETURN)
    runner.step(0.02)
    assert runner.app.game is not None, runner.app.status_text
    return runner


def run_until(runner: DesktopRunner, done, seconds: float = 20.0) -> None:
    """Run frames (real time: the bot runs in its own process) until ``done()``."""
    end = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < end, runner.app.status_text
        runner.step(0.02)
        time.sleep(0.002)


@pytest.mark.slow
def test_a_good_bot_plays_a_whole_game_as_black(tmp_path: Path) -> None:
    bot = bot_file(tmp_path, "good")
    runner = runner_with({BLACK: bot}, {**QUICK, "mode": "hvc", "human_side": WHITE})
    try:
        scene = runner.app.game
        match = scene.match
        assert runner.app.settings.levels[BLACK] == LevelKey.EXTERNAL
        rng = random.Random(5)
        run_until(runner, lambda: match.over or match.human_to_move)
        while not match.over:
            if match.human_to_move:
                click_move(scene, rng.choice(match.legal_moves()))
                runner.step(0.02)
            run_until(runner, lambda: match.over or match.human_to_move)
        rules = match.game.rules
        for before, after in match.history.pairs():
            assert after in rules.children(before)
        assert match.forfeit is None
        assert runner.app.status_text == rules.outcome(match.position).describe()
        blacks = [after for before, after in match.history.pairs() if before.turn == BLACK
                  and after.black != before.black]
        assert blacks  # the bot did move
    finally:
        runner.app.close()


def test_two_bots_play_each_other(tmp_path: Path) -> None:
    good = bot_file(tmp_path, "good")
    other = ExternalBot(good.spec, TIME_LIMIT, depth=1)
    runner = runner_with({WHITE: good, BLACK: other}, {**QUICK, "n": 5})
    try:
        match = runner.app.game.match
        assert match.settings.mode == "cvc" and match.game.n == 5
        run_until(runner, lambda: match.over)
        assert match.forfeit is None
        assert runner.app.status_text == match.game.outcome(match.position).describe()
    finally:
        runner.app.close()


@pytest.mark.slow
@pytest.mark.parametrize(("name", "reason", "detail"), FORFEITS)
def test_a_failing_bot_forfeits_with_its_reason_and_the_game_goes_on(
        tmp_path: Path, name: str, reason: str, detail: str) -> None:
    bot = bot_file(tmp_path, name)
    runner = runner_with({BLACK: bot}, {**QUICK, "mode": "hvc", "human_side": WHITE})
    try:
        scene = runner.app.game
        match = scene.match
        click_move(scene, match.legal_moves()[0])
        run_until(runner, lambda: match.over)
        status = runner.app.status_text
        assert status.startswith(f"White wins: bot {name}.py forfeits: {REASONS[reason]}")
        assert detail in status
        runner.step(0.02)
        if name == "hangs":
            save(runner, "bot-forfeit")
        # undo takes the forfeit back; the bot is asked again and fails again
        post_key(pygame.K_u, "u")
        runner.step(0.02)
        assert not match.over and match.history.cursor == 0
        click_move(scene, match.legal_moves()[-1])
        run_until(runner, lambda: match.over)
        assert runner.app.status_text.startswith(f"White wins: bot {name}.py forfeits")
        # a new game, and the menu, still work
        post_key(pygame.K_n, "n")
        runner.step(0.02)
        assert runner.app.game is not scene and runner.app.status_text == "Your move (White)"
        post_key(pygame.K_m, "m")
        runner.step(0.02)
        assert isinstance(runner.app.scene, StartScene)
    finally:
        runner.app.close()


def test_start_screen_shows_the_bot_file_name(tmp_path: Path) -> None:
    bot = bot_file(tmp_path, "good")
    pygame.event.clear()
    runner = DesktopRunner(App(MemoryStorage(QUICK), bots={WHITE: bot}), SIZE)
    runner.step(0.02)
    save(runner, "start-screen-bot")
    assert "(White: bot good.py)" in runner.app.status_text
    assert runner.app.settings.human_side == BLACK
    runner.app.close()


def test_a_bot_chosen_for_hexapawn_is_refused_on_screen(tmp_path: Path) -> None:
    bot = bot_file(tmp_path, "good")
    pygame.event.clear()
    runner = DesktopRunner(App(MemoryStorage(QUICK), bots={BLACK: bot}), SIZE)
    post_key(pygame.K_RIGHT)  # Game: Hexapawn; the bot stays chosen for Black
    post_key(pygame.K_RETURN)
    runner.step(0.02)
    surface = save(runner, "start-screen-bot-hexapawn")
    app = runner.app
    assert app.start.settings.kind == "hexapawn" and app.game is None
    assert "Oska only" in app.status_text
    start = app.start.layout().buttons["start"]  # drawn disabled
    assert close(surface.get_at((round(start.x + 6), round(start.center[1]))),
                 theme.BUTTON_DISABLED)
    runner.app.close()
