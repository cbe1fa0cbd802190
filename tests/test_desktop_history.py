"""The desktop keeps every game, as a user finds it: ``main.py`` plays a game to its end
in a real process, ``oska review --last`` reviews it, ``oska games`` lists it, and a
game closed with the window after a move is kept too. The user's folders are private
to each test (XDG_CONFIG_HOME for the settings, XDG_DATA_HOME for the history)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import cli_command
from desktop_helpers import assert_cells_show, close, post_key, save
from history_helpers import history_of, played

from oska_gui.desktop.loop import DesktopRunner
from oska_gui.play.game import make_game
from oska_gui.play.kept_games import read_file
from oska_gui.session.settings import MemoryStorage
from oska_gui.ui.app import App
from oska_gui.ui.board.board_geometry import fit_board
from oska_gui.ui.games.games_layout import BACK
from oska_gui.ui.games.games_scene import GamesScene
from oska_gui.ui.kit import theme

REPO_ROOT = Path(__file__).resolve().parent.parent
MAIN = REPO_ROOT / "main.py"
TIMEOUT = 300  # far above any run here (the first run may set up the .venv)
FAST = {"mode": "cvc", "levels": {"white": "beginner", "black": "beginner"},
        "animation": "off", "pace": "instant", "version": 2}


def folders(tmp_path: Path) -> dict[str, str]:
    """Return an environment with private user folders under ``tmp_path``, the settings
    (computer vs computer, fast) written there."""
    config = tmp_path / "config" / "oska-gui"
    config.mkdir(parents=True)
    (config / "settings.json").write_text(json.dumps(FAST), encoding="utf-8")
    return {"XDG_CONFIG_HOME": str(tmp_path / "config"),
            "XDG_DATA_HOME": str(tmp_path / "data")}


def run_window(tmp_path: Path, frames: int) -> subprocess.CompletedProcess:
    """Run ``main.py --n 4`` headless for ``frames`` frames, then close its window."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               **folders(tmp_path))
    return subprocess.run([sys.executable, str(MAIN), "--n", "4", "--frames", str(frames)],
                          cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT, check=False)


def run_oska(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """Run ``python -m oska_gui ARGS`` with the test's data folder."""
    argv, env = cli_command(*args)
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    return subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT, check=False)


def test_a_game_finished_in_the_window_is_reviewed_by_oska_review_last(
        tmp_path: Path) -> None:
    window = run_window(tmp_path, 300)
    assert window.returncode == 0, window.stderr
    assert "wins" in window.stdout  # the game ended
    history = tmp_path / "data" / "oska-gui" / "history.json"
    (game,) = read_file(history).games
    assert game.record.finished and game.record.white == "Computer (beginner)"

    listed = run_oska(tmp_path, "games")
    assert listed.returncode == 0, listed.stderr
    assert "1 kept game in" in listed.stdout and "Oska n = 4" in listed.stdout
    assert game.result_text() in listed.stdout

    before = history.stat()
    review = run_oska(tmp_path, "review", "--last", "--depth", "2")
    assert review.returncode == 0, review.stderr
    lines = review.stdout.splitlines()
    assert lines[0].startswith("Oska · n = 4: Computer (beginner) (White) vs Computer "
                               "(beginner) (Black), ")
    rows = [line for line in lines if line.split()[:1] and line.split()[0].isdigit()]
    assert [row.split()[2] for row in rows] == list(game.record.moves)
    after = history.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_a_game_closed_with_the_window_after_a_move_is_kept_unfinished(
        tmp_path: Path) -> None:
    window = run_window(tmp_path, 4)
    assert window.returncode == 0, window.stderr
    (game,) = read_file(tmp_path / "data" / "oska-gui" / "history.json").games
    assert not game.record.finished and game.plies >= 1
    saved = json.loads((tmp_path / "config" / "oska-gui" / "game.json").read_text("utf-8"))
    assert saved["kept_as"] == game.id  # resumed later, it replaces this entry
    listed = run_oska(tmp_path, "games")
    assert "Unfinished" in listed.stdout


def test_oska_review_last_without_a_kept_game_says_so(tmp_path: Path) -> None:
    review = run_oska(tmp_path, "review", "--last")
    assert review.returncode == 2
    assert "no game kept by the window yet" in review.stderr
    both = run_oska(tmp_path, "review", "game.json", "--last")
    assert both.returncode == 2 and "not both" in both.stderr
    listed = run_oska(tmp_path, "games")
    assert listed.returncode == 0 and "No games kept yet" in listed.stdout


def test_the_window_s_keys_reach_the_games_screen() -> None:
    """Delete, Page Up and Page Down (the Games screen's) come through from pygame."""
    import pygame

    from oska_gui.desktop.events import key_name

    for key, text, name in ((pygame.K_DELETE, "\x7f", "delete"),
                            (pygame.K_PAGEUP, "", "pageup"),
                            (pygame.K_PAGEDOWN, "", "pagedown")):
        event = pygame.event.Event(pygame.KEYDOWN, key=key, unicode=text, mod=0)
        assert key_name(event) == name


@pytest.mark.usefixtures("display")
@pytest.mark.parametrize("size", [(1280, 800), (360, 300)])
def test_the_games_screen_screenshot(size: tuple[int, int]) -> None:
    """The Games screen in a window: the chosen game ringed, its board (where there is
    room) showing the position at its end, the buttons at the bottom."""
    import pygame

    games = [played(None, seed=1), played(None, seed=2, n=5), played(7, seed=3, n=5)]
    pygame.event.clear()
    app = App(MemoryStorage({"animation": "off"}), history=history_of(*games))
    runner = DesktopRunner(app, size)
    post_key(pygame.K_g, "g")
    post_key(pygame.K_DOWN)
    runner.step(0.02)
    scene = app.scene
    assert isinstance(scene, GamesScene) and scene.choice == 1
    surface = save(runner, f"games-{size[0]}x{size[1]}")
    layout = scene.layout()
    ring = layout.rows[1]
    assert close(surface.get_at((round(ring.center[0]), round(ring.y))), theme.SELECT)
    assert close(surface.get_at((3, 3)), theme.BACKGROUND)
    back = layout.buttons[BACK]
    assert close(surface.get_at((round(back.x + 4), round(back.center[1]))), theme.BUTTON)
    if size == (360, 300):
        assert layout.board.w == 0
        return
    game = make_game("oska", 5)
    assert_cells_show(fit_board("oska", 5, layout.board), game, games[1].position)
