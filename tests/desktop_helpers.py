"""Helpers for the desktop (pygame, SDL dummy driver) tests: runners, posted events, pixels.

A test module that uses it starts pygame's display once with
``pytestmark = pytest.mark.usefixtures("display")`` (the fixture is in ``conftest.py``,
which also picks SDL's headless drivers before pygame loads).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from oska_gui.desktop.loop import DesktopRunner
from oska_gui.play.game import GameAdapter, Position
from oska_gui.session.settings import MemoryStorage
from oska_gui.ui.app import App
from oska_gui.ui.board.board_geometry import BoardLayout
from oska_gui.ui.kit import theme

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
QUICK = {"levels": ["easy", "easy"], "animation": "off", "pace": "instant"}
SIZE = (1120, 760)
COLOR_TOLERANCE = 16


def artifact(name: str) -> Path:
    """Return the path of tests/artifacts/<name>, making the folder when missing.

    Args:
        name: the file's name.

    Returns:
        Its path.
    """
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / name


def runner_for(settings: dict, size: tuple[int, int] = SIZE,
               think_slice: float = 0.010) -> DesktopRunner:
    """Return a runner of a fresh App with ``settings`` in a window of ``size``."""
    pygame.event.clear()
    return DesktopRunner(App(MemoryStorage(settings), think_slice=think_slice), size)


def started(settings: dict, size: tuple[int, int] = SIZE) -> DesktopRunner:
    """Return a runner whose App has left the start screen with Enter (a game is on)."""
    runner = runner_for(settings, size)
    post_key(pygame.K_RETURN)
    runner.step(0.02)
    assert runner.app.game is not None
    return runner


def click_move(scene, legal) -> None:
    """Post clicks on the centres of ``legal``'s from-cell and to-cell."""
    board = scene.board()
    post_click(*board.center(legal.move.frm))
    post_click(*board.center(legal.move.to))


def post_click(x: float, y: float) -> None:
    """Post a left-button press and release at (x, y) as pygame events."""
    pos = (round(x), round(y))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def post_key(key: int, text: str = "", mod: int = 0) -> None:
    """Post a key press as a pygame event."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, unicode=text, mod=mod))


def step_until(runner: DesktopRunner, done: Callable[[], bool], frames: int = 3000) -> None:
    """Run frames (20 ms of game time each) until ``done()``; fail after ``frames``."""
    for _ in range(frames):
        if done():
            return
        runner.step(0.02)
    raise AssertionError(f"not done after {frames} frames: {runner.app.status_text}")


def save(runner: DesktopRunner, name: str) -> pygame.Surface:
    """Save the window as tests/artifacts/desktop-<name>.png and return the surface."""
    surface = pygame.display.get_surface()
    pygame.image.save(surface, str(artifact(f"desktop-{name}.png")))
    return surface


def close(color: tuple, expected: tuple) -> bool:
    """Return True when two RGB colours differ by at most the tolerance per channel."""
    return all(abs(a - b) <= COLOR_TOLERANCE for a, b in zip(color[:3], expected[:3],
                                                                strict=True))


def assert_cells_show_the_position(runner: DesktopRunner) -> None:
    """Each cell centre's pixel shows the colour of what stands on it."""
    scene = runner.app.game
    assert_cells_show(scene.board(), scene.game, scene.match.position)


def assert_cells_show(board: BoardLayout, game: GameAdapter, pos: Position) -> None:
    """Each centre of ``board``'s cells, in the window, shows the colour of what stands
    on it in ``pos`` of ``game``."""
    surface = pygame.display.get_surface()
    for cell in range(board.cell_count):
        x, y = board.center(cell)
        pixel = surface.get_at((round(x), round(y)))
        side = game.piece_at(pos, cell)
        if side is not None:
            expected = [theme.PIECE_BODY[side]]
        elif game.kind == "oska":
            expected = [theme.HOLE]
        else:
            expected = [theme.SQUARE_LIGHT, theme.SQUARE_DARK]
        assert any(close(pixel, colour) for colour in expected), (cell, tuple(pixel), side)
