"""Shared helpers of the tournament tests: running ``oska tournament`` with a process tag,
made-up game results, and real ones (with their records) for the store."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import uuid
from dataclasses import replace
from functools import cache
from pathlib import Path

from cli_helpers import CLI_TIMEOUT, REPO_ROOT, table_rows
from hostile_helpers import tagged

from oska_gui.tournament.games import Conditions, Entrant, GameTask, opening_moves, play
from oska_gui.tournament.result import GameResult, MoveTimes

TAG = "OSKA_TEST_TAG"
# plays correctly but slowly: its games last long enough to be stopped or killed mid-game
SLOW_BOT = """
import time
from oska_gui import oskaplayer as ours

def oskaplayer(board, player, depth):
    time.sleep(0.3)
    return ours(board, player, 1)
"""


def tagged_env(**extra: str) -> tuple[dict[str, str], str]:
    """Return an environment for a command under test, tagged with a fresh token, and
    the token (``hostile_helpers.tagged`` finds every process that inherits it)."""
    token = f"tournament-{uuid.uuid4().hex}"
    env = dict(os.environ, **extra)
    env[TAG] = token
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    return env, token


def tournament_command(*args: object) -> list[str]:
    """Return the command line of ``oska tournament ARGS`` in this interpreter."""
    return [sys.executable, "-m", "oska_gui", "tournament", *map(str, args)]


def run_tournament(*args: object, env: dict[str, str] | None = None,
                   cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run ``oska tournament ARGS`` as a real process; return it (text output captured)."""
    if env is None:
        env, _ = tagged_env()
    return subprocess.run(tournament_command(*args), env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=CLI_TIMEOUT * 3, check=False)


def standings(stdout: str) -> dict[str, dict[str, str]]:
    """Return the printed standings as {entrant: {column: value}}."""
    return {row["entrant"]: row for row in table_rows(stdout, "rank  entrant  ")}


def games_line(stdout: str) -> str:
    """Return the line 'games: N played now, M reused from FILE'."""
    return next(line for line in stdout.splitlines() if line.startswith("games: "))


def crosstable(stdout: str) -> list[dict[str, str]]:
    """Return the printed crosstable's rows, best entrant first."""
    return table_rows(stdout[stdout.index("\nCrosstable"):], "rank")


def running_in(token: str, word: bytes) -> list[int]:
    """Return the ids of the processes tagged ``token`` whose command line holds ``word``."""
    found = []
    for pid in tagged(token):
        with contextlib.suppress(OSError):  # it ended while we looked
            if word in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
    return found


def commands(pids: list[int]) -> list[str]:
    """Return the command lines of ``pids`` (for messages about processes left running)."""
    lines = []
    for pid in pids:
        with contextlib.suppress(OSError):  # it ended while we looked
            lines.append(Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
                         .decode(errors="replace")[:200])
    return lines


def result(game_id: str, winner: int | None = 0) -> GameResult:
    """Return a made-up finished game with id ``game_id``."""
    return GameResult(game_id, "w.py:oskaplayer", "AI depth 1 (strong)", winner,
                      "all black pieces captured", None, 17, MoveTimes(8, 0.25, 0.125),
                      MoveTimes(9, 1.5, 0.5))


def played(game_id: str, seed: int = 0, forfeit: bool = False) -> tuple[GameResult, str]:
    """Return the result and the record (JSON text) of a real game with id ``game_id``:
    AI depth 1 against itself at n = 4 from the opening of ``seed`` (about 6 ms), or
    with ``forfeit`` against an entrant that cannot be loaded (it forfeits at once)."""
    result, record = _played(seed, forfeit)
    return replace(result, game_id=game_id), record


@cache
def _played(seed: int, forfeit: bool) -> tuple[GameResult, str]:
    """Return the game of ``played`` under the id 'g' (a record does not hold its id)."""
    black = Entrant("broken", unusable="it cannot be loaded") if forfeit else Entrant(
        "AI black", ai="1")
    return play(GameTask("g", Entrant("AI white", ai="1"), black,
                         opening_moves(4, 4, str(seed)), Conditions(4, 1, 5.0)))
