"""The idle benchmark runs the real game window in each quiet moment and measures it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

REPO_ROOT = Path(__file__).resolve().parent.parent
SANE = 50.0  # % of a core: a loop spinning without sleep would use a whole core


def test_the_idle_benchmark_measures_main_py_in_each_quiet_moment() -> None:
    result = subprocess.run([sys.executable, "-m", "tools.idle", "--seconds", "1",
                             "--settle", "1"], cwd=REPO_ROOT, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    rows = re.findall(r"^  (.+?) +CPU +([\d.]+)% of a core$", result.stdout, re.MULTILINE)
    assert [name for name, _ in rows] == ["start screen", "your move", "game over"]
    assert all(float(share) < SANE for _, share in rows)
