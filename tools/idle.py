"""How much processor the desktop game uses when nothing moves:
``python -m tools.idle [--seconds S] [--settle S]``.

It starts the real game window, ``main.py``, on SDL's dummy video and audio drivers with
a fresh configuration folder, in each of three quiet moments: the start screen, a game
waiting for the human's move, and a finished game (computer against computer, played to
its end). Once the process has settled (``--settle`` seconds, then until one second of
it used under ``SETTLED`` of a core: the finished game has to be played first), it
reads the process's CPU time (user + system, from ``/proc/PID/stat``) over ``S``
seconds and prints it as a share of one core. Linux only (``/proc``).

A game needs a key press, which nothing can send to a window on the dummy driver; so
for those two moments the process is ``python -m tools.idle --press return``:
it posts the key press to pygame's queue, then runs ``main.py``'s own ``main()``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import runpy
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from oska_gui.bootstrap import REPO_ROOT
from oska_gui.desktop.storage import APP_DIR, FILE_NAME, JsonFileStorage
from oska_gui.session.settings import Settings, save_settings

MAIN = REPO_ROOT / "main.py"
QUICK = {"levels": ["beginner", "beginner"], "animation": "off", "pace": "instant"}
MOMENTS = {  # name: (settings, keys pressed once the window is open)
    "start screen": (None, ()),
    "your move": (QUICK, ("return",)),
    "game over": ({**QUICK, "mode": "cvc"}, ("return",)),
}
SETTLED = 0.10  # a second under this share of a core: the moment has begun
SETTLE_LIMIT = 120.0  # seconds: measure anyway after this long


def cpu_seconds(pid: int) -> float:
    """Return the CPU time (user + system) the process ``pid`` has used, in seconds.

    Raises:
        OSError: if there is no such process (or no ``/proc``).
    """
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2:].split()  # after the command's name, from field 3
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def share_over(process: subprocess.Popen, seconds: float) -> float:
    """Return the share of one core ``process`` used over the next ``seconds``.

    Raises:
        RuntimeError: if the process has ended.
    """
    if process.poll() is not None:
        raise RuntimeError(f"main.py ended (exit code {process.returncode})")
    before, wall = cpu_seconds(process.pid), time.perf_counter()
    time.sleep(seconds)
    return (cpu_seconds(process.pid) - before) / (time.perf_counter() - wall)


def start_moment(name: str, folder: Path) -> subprocess.Popen:
    """Start the game window in the moment ``name`` (see ``MOMENTS``), its settings in
    ``folder`` (its ``XDG_CONFIG_HOME``); return the process."""
    settings, keys = MOMENTS[name]
    env = {**os.environ, "XDG_CONFIG_HOME": str(folder), "SDL_VIDEODRIVER": "dummy",
           "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    if settings is not None:  # where the window looks, as its default_path() says
        save_settings(JsonFileStorage(folder / APP_DIR / FILE_NAME), Settings.from_dict(settings))
    command = [sys.executable, str(MAIN)]
    if keys:
        command = [sys.executable, "-m", "tools.idle", "--press", *keys]
    return subprocess.Popen(command, env=env, cwd=REPO_ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)


def measure(name: str, seconds: float, settle: float) -> float:
    """Return the share of a core ``main.py`` uses in the moment ``name`` once settled.

    Raises:
        RuntimeError: if the window's process ended early (with what it said).
    """
    with tempfile.TemporaryDirectory(prefix="oska-idle-") as folder:
        process = start_moment(name, Path(folder))
        try:
            time.sleep(settle)
            deadline = time.monotonic() + SETTLE_LIMIT
            while share_over(process, 1.0) > SETTLED and time.monotonic() < deadline:
                pass
            return share_over(process, seconds)
        except RuntimeError as err:
            raise RuntimeError(f"{err}: {process.communicate()[1].strip()}") from None
        finally:
            process.terminate()
            process.wait()


def press_and_play(keys: list[str]) -> None:
    """Post key presses to pygame's queue, then run ``main.py``'s window (its ``main``).

    Args:
        keys: pygame key names ('return', 'n', ...), pressed in this order.
    """
    import pygame

    pygame.display.init()
    for key in keys:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code(key),
                                             unicode="", mod=0))
    window = runpy.run_path(str(MAIN), run_name="oska_idle_window")
    asyncio.run(window["main"](window["parse_args"]([])))


def main(argv: list[str] | None = None) -> None:
    """Run the idle benchmark (see the module docstring) with ``argv``."""
    parser = argparse.ArgumentParser(prog="python -m tools.idle", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="seconds measured in each moment (default 10)")
    parser.add_argument("--settle", type=float, default=4.0,
                        help="seconds before measuring (default 4: messages fade first)")
    parser.add_argument("--press", nargs="+", metavar="KEY",
                        help="(the window of a moment) press KEYs, then run main.py's window")
    args = parser.parse_args(argv)
    if args.press:
        press_and_play(args.press)
        return
    if not Path("/proc/self/stat").exists():
        parser.exit(2, "the idle benchmark reads /proc: Linux only\n")
    print(f"idle desktop (main.py, SDL dummy driver), {args.seconds:g} s each once settled:")
    for name in MOMENTS:
        try:
            share = measure(name, args.seconds, args.settle)
        except RuntimeError as err:
            parser.exit(1, f"{name}: {err}\n")
        print(f"  {name:<12} CPU {100 * share:4.2f}% of a core", flush=True)


if __name__ == "__main__":
    main()
