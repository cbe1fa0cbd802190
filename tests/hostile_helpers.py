"""Shared helpers of the process tests: fresh interpreters, live and marked processes.

Calls that used to hang run in a fresh interpreter with a timeout, so that a regression
fails the test instead of hanging the suite. Bots under test start ``sleep`` with a
duration no other program uses (a *marker*), so the processes they leave can be found
in /proc, and killed by id after the test whatever happened.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def run_python(code: str, timeout: float = 120) -> str:
    """Run ``code`` (dedented) in a fresh interpreter on this tree; return its stdout.

    Raises subprocess.TimeoutExpired (the child is killed) when it runs past ``timeout``
    and CalledProcessError when it fails.
    """
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, env=env, timeout=timeout, check=True)
    return done.stdout


def state_of(pid: int) -> str:
    """Return the state letter of process ``pid`` ('R', 'S', 'T' stopped, 'Z' zombie...),
    '' when it is gone (Linux /proc)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:  # gone
        return ""


def alive(pid: int) -> bool:
    """Return True while process ``pid`` exists and is not a zombie (Linux /proc)."""
    return state_of(pid) not in ("", "Z")


def marked(marker: str) -> list[int]:
    """Return the ids of the live processes whose command is ``sleep MARKER``."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            command = Path(f"/proc/{name}/cmdline").read_bytes().split(b"\0")
        except OSError:  # it ended while we looked
            continue
        if command[:2] == [b"sleep", marker.encode()] and alive(int(name)):
            found.append(int(name))
    return found


def kill_marked(marker: str) -> None:
    """Kill, by id, every process that ``marked(marker)`` finds (a test's leftovers)."""
    for pid in marked(marker):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            continue


def wait_until(condition: Callable[[], bool], seconds: float) -> bool:
    """Return True as soon as ``condition()`` holds, False after ``seconds``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def tagged(token: str) -> list[int]:
    """Return the ids of the live processes whose environment holds ``token``.

    A test starts a command with a variable set to a fresh token; every process below
    it inherits the variable, so this finds whatever the command left running, however
    it was started (Linux /proc; the tests run as the processes' owner).
    """
    found = []
    needle = token.encode()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            environ = Path(f"/proc/{name}/environ").read_bytes()
        except OSError:  # it ended while we looked, or it is not ours
            continue
        if needle in environ and alive(int(name)):
            found.append(int(name))
    return found


# -- bots that start processes of their own -------------------------------------------

# how a bot starts its ``sleep MARKER``: in a new session, or as a double-forked daemon
SPAWNS = {
    "session": """
        def spawn():
            child = subprocess.Popen(["sleep", MARKER], start_new_session=True)
            note(child.pid)
    """,
    "daemon": """
        def spawn():
            if os.fork() == 0:  # the classic daemon: fork, new session, fork again
                os.setsid()
                if os.fork() == 0:
                    note(os.getpid())
                    os.execvp("sleep", ["sleep", MARKER])
                os._exit(0)
            os.wait()
            while not os.path.getsize(PIDS):  # the daemon noted itself: it surely ran
                time.sleep(0.01)
    """,
}
# what the bot does once it has started it
THEN = {
    "returns": "return ours(board, player, 1)",
    "raises": "raise ValueError('boom')",
    "exits": "os._exit(7)",
    "sys-exit": "sys.exit(3)",
    "hangs": "while True: time.sleep(0.01)",
}


def write_spawner(folder: Path, mark: str, spawn: str, then: str) -> tuple[Path, Path]:
    """Write a bot that spawns ``sleep MARK`` (``spawn``) then does ``then``.

    Returns the bot file and the file where the spawned processes' ids are noted.
    """
    pids = folder / "pids.txt"
    source = textwrap.dedent(f"""
        import os, subprocess, sys, time
        from oska_gui import oskaplayer as ours
        MARKER = {mark!r}
        PIDS = {str(pids)!r}
        open(PIDS, "w").close()

        def note(pid):
            with open(PIDS, "a") as out:
                out.write(f"{{pid}}\\n")
    """) + textwrap.dedent(SPAWNS[spawn]) + textwrap.dedent(f"""
        def oskaplayer(board, player, depth):
            spawn()
            {THEN[then]}
    """)
    bot = folder / f"{spawn}_{then.replace('-', '_')}.py"
    bot.write_text(source, encoding="utf-8")
    return bot, pids
