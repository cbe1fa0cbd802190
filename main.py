"""Oska desktop game: ``python3 main.py [options]`` (``--help`` lists them).

Reads the options first (a bad one: a message and exit code 2), sets up the project's
``.venv`` on first use, then opens the game window (pygame-ce): start screen, human or
computer players, Oska on any board n = 4..24 and Hexapawn; ``--n N`` starts a game of
size N; ``--white``/``--black`` offer an external oskaplayer file as a side's computer,
``--replay FILE`` opens a saved game to step through, ``--speak`` prints (and says,
with a speech command) what a screen reader would. Without a display it says where else
to play (browser version, ``oska`` command) and exits with 2. pygame is imported only
inside functions, so importing this module needs no pygame.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from oska_gui.bootstrap import ensure_venv
from oska_gui.console.signals import EXIT_TERMINATED, Terminated, sigterm_unwinds
from oska_gui.desktop.options import parse_args

EXIT_NO_DISPLAY = 2
HEADLESS_DRIVERS = ("offscreen", "dummy")
NO_DISPLAY_HELP = (
    "Oska: no display available for the desktop window ({reason}).\n"
    "Play in the browser version instead (see README.md), or use the command line tool: "
    "`oska --help`."
)


def display_problem() -> str | None:
    """Say why no desktop window can open, judging by the environment alone.

    On Linux a window needs ``DISPLAY`` or ``WAYLAND_DISPLAY``, unless ``SDL_VIDEODRIVER``
    picks a driver explicitly. Other platforms are assumed to have a screen.

    Returns:
        A short reason, or None if a display looks available.
    """
    if os.environ.get("SDL_VIDEODRIVER") or not sys.platform.startswith("linux"):
        return None
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return None
    return "DISPLAY and WAYLAND_DISPLAY are not set"


def exit_no_display(reason: str) -> None:
    """Print the no-display help to stderr and exit with code 2.

    Args:
        reason: why no window could be opened.
    """
    print(NO_DISPLAY_HELP.format(reason=reason), file=sys.stderr)
    raise SystemExit(EXIT_NO_DISPLAY)


async def main(options: argparse.Namespace) -> None:
    """Open the game window and run the App until the player quits (Q, or closing it).

    Args:
        options: the command line's options (see ``oska_gui.desktop.options``).
    """
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from oska_gui.console.table import plain
    from oska_gui.desktop.loop import DesktopRunner
    from oska_gui.desktop.options import bots_of
    from oska_gui.desktop.speaker import MixerSpeaker
    from oska_gui.desktop.storage import HistoryFileStorage, JsonFileStorage, game_path
    from oska_gui.desktop.voice import Voice, speech_command
    from oska_gui.session.game_history import GameHistory
    from oska_gui.session.saved_game import GameKeeper
    from oska_gui.ui.app import App
    from oska_gui.ui.games.games_layout import SAVE

    pygame.display.init()  # not pygame.init(): the mixer opens with the first sound, if ever
    pygame.font.init()
    keeper = GameKeeper(JsonFileStorage(game_path(), "saved game"),
                        lambda message: print(f"Oska: {message}", file=sys.stderr))
    history = GameHistory(HistoryFileStorage(),
                          lambda message: print(f"Oska: {message}", file=sys.stderr))
    speaker = MixerSpeaker()
    app = App(JsonFileStorage(), bots=bots_of(options), speaker=speaker, keeper=keeper,
              history=history, exports=(SAVE,))
    voice = Voice(sys.stdout, speech_command()) if options.speak else None
    try:
        runner = DesktopRunner(app, on_rest=speaker.rest,
                               voice=None if voice is None else voice.say)
    except pygame.error as err:
        pygame.quit()
        exit_no_display(f"pygame: {err}")
    driver = pygame.display.get_driver()
    if driver in HEADLESS_DRIVERS and os.environ.get("SDL_VIDEODRIVER") != driver:
        # SDL falls back to an invisible driver when DISPLAY points to no server.
        pygame.quit()
        exit_no_display(f"pygame: no usable display, SDL fell back to its {driver!r} driver")
    if options.replay is not None:
        app.replay(options.replay)
    elif options.n is not None:
        app.start_size(options.n)
    try:
        await runner.run(frames=options.frames)
    finally:
        app.close()
        if voice is not None:
            voice.stop()
        pygame.quit()
    if options.frames is not None:
        print(plain(app.status_text))  # a replayed record's reason is the file's text


def run(options: argparse.Namespace) -> None:
    """Run ``main`` until the player quits; SIGTERM ends it at any point with exit code
    143, its ``finally`` blocks run on the way out (the bots' processes stopped).

    The handler is set before pygame starts SDL, which would otherwise take SIGTERM for
    a close of the window: seen only by the frame loop, so never while the program
    waits elsewhere (a bot loading, a file being read).

    Args:
        options: the command line's options.
    """
    with sigterm_unwinds():
        try:
            asyncio.run(main(options))
        except Terminated:
            raise SystemExit(EXIT_TERMINATED) from None


if __name__ == "__main__":
    arguments = parse_args(sys.argv[1:])  # before all else: --help and bad options need no set-up
    problem = display_problem()
    if problem is not None:
        exit_no_display(problem)
    ensure_venv()
    run(arguments)
