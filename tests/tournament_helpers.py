"""Shared helpers of the tournament tests: running ``oska tournament`` with a process tag."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

from cli_helpers import CLI_TIMEOUT, REPO_ROOT, table_rows

TAG = "OSKA_TEST_TAG"


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
