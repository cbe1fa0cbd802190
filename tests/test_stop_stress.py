"""The stop stress tool (``tools.stop_stress``) stops real commands and finds
nothing left behind; bad options are one line."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from cli_helpers import REPO_ROOT

from oska_gui.bots import proctree

pytestmark = pytest.mark.skipif(not proctree.available(), reason="needs Linux /proc")


def stress(*args: str) -> subprocess.CompletedProcess:
    """Run the stress tool with ``args``; return its completed process."""
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    return subprocess.run([sys.executable, "-m", "tools.stop_stress", *args],
                          env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_every_kind_of_stop_leaves_nothing() -> None:
    """One run of each kind (match and tournament; SIGTERM, Ctrl+C, a worker killed),
    under one busy loop: each is clean, and the summary says so."""
    result = stress("--runs", "5", "--load", "1", "--grace", "3", "--seed", "1")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert len(re.findall(r"^run \d/5 \(.+\): clean$", result.stdout, re.MULTILINE)) == 5
    assert lines[-1].startswith("0 of 5 runs left something behind")
    for kind in ("match, SIGTERM to the command", "match, SIGINT to the group",
                 "tournament, SIGTERM to the worker"):
        assert kind in result.stdout


def test_bad_options_are_one_line() -> None:
    """No run count, a negative load: a usage error, no traceback."""
    for args in (["--runs", "0"], ["--load", "-1"]):
        result = stress(*args)
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert "--runs must be at least 1" in result.stderr
