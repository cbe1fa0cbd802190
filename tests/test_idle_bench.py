"""The idle benchmark runs and finds nothing drawn while nothing moves."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

REPO_ROOT = Path(__file__).resolve().parent.parent


def test_the_idle_benchmark_prints_each_quiet_moment_with_nothing_drawn() -> None:
    result = subprocess.run([sys.executable, "-m", "oska_gui.tools.idle", "--seconds", "0.5",
                             "--size", "800x600"], cwd=REPO_ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    rows = re.findall(r"^  (.+?) +CPU +([\d.]+)% of a core, (\d+) of (\d+) frames drawn$",
                      result.stdout, re.MULTILINE)
    assert [name for name, *_ in rows] == ["start screen", "your move", "game over"]
    for _, _, drawn, frames in rows:
        assert int(frames) >= 20 and int(drawn) == 0
