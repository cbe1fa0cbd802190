"""How much processor the desktop game uses when nothing moves:
``python -m oska_gui.tools.idle [--seconds S] [--size WxH]``.

It runs the real desktop frame loop (at most 60 frames a second) on SDL's dummy video
driver for ``S`` seconds in each of three quiet moments: the start screen, a game
waiting for the human's move, and a finished game. For each it prints the process's
CPU time as a share of one core and how many of the frames were drawn. An idle game
draws nothing and stays at a few percent.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pygame is imported only once the dummy driver is chosen
    from oska_gui.desktop.loop import DesktopRunner

QUICK = {"levels": ["beginner", "beginner"], "animation": "off", "pace": "instant"}
SETTLE_SECONDS = 0.5  # frames run, not measured, before each moment


def run_for(runner: DesktopRunner, seconds: float) -> tuple[float, int, int]:
    """Run the desktop loop for about ``seconds``.

    Args:
        runner: the window's runner.
        seconds: how long to run it, at its 60 frames a second.

    Returns:
        CPU time over wall-clock time, the frames run and the frames drawn.
    """
    from oska_gui.desktop.loop import FPS

    frames, draws = runner.frames, runner.draws
    wall, cpu = time.perf_counter(), time.process_time()
    asyncio.run(runner.run(frames=frames + round(seconds * FPS)))
    share = (time.process_time() - cpu) / (time.perf_counter() - wall)
    return share, runner.frames - frames, runner.draws - draws


def quiet_runners(size: tuple[int, int]) -> list[tuple[str, DesktopRunner]]:
    """Return the three quiet moments, each as a name and a runner showing it.

    Args:
        size: the window size.

    Returns:
        The start screen, a game at the human's move, a finished game.
    """
    from oska_gui.desktop.loop import DesktopRunner
    from oska_gui.session.settings import MemoryStorage
    from oska_gui.ui.app import App
    from oska_gui.ui.events import KeyPress

    start = DesktopRunner(App(MemoryStorage(QUICK)), size)
    your_move = DesktopRunner(App(MemoryStorage(QUICK)), size)
    your_move.app.handle(KeyPress("enter"))
    over = DesktopRunner(App(MemoryStorage({**QUICK, "mode": "cvc"})), size)
    over.app.handle(KeyPress("enter"))
    while over.app.game is not None and not over.app.game.match.over:
        over.step(0.02)
    return [("start screen", start), ("your move", your_move), ("game over", over)]


def main(argv: list[str] | None = None) -> None:
    """Run the idle benchmark (see the module docstring) with ``argv``."""
    parser = argparse.ArgumentParser(prog="python -m oska_gui.tools.idle", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per moment")
    parser.add_argument("--size", default="1120x760", help="window size, e.g. 1280x800")
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.lower().split("x"))
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    pygame.display.init()
    pygame.font.init()
    print(f"idle desktop at {width}x{height}, {args.seconds:g} s each:")
    for name, runner in quiet_runners((width, height)):
        run_for(runner, SETTLE_SECONDS)
        share, frames, draws = run_for(runner, args.seconds)
        print(f"  {name:<12} CPU {100 * share:4.1f}% of a core, "
              f"{draws} of {frames} frames drawn")
    pygame.quit()


if __name__ == "__main__":
    main()
