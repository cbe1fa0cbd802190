"""The package's type hints are checked: mypy, configured in pyproject.toml, finds nothing.

mypy is in the ``test`` extras, so ``tests/run.py`` always has it; a missing mypy fails
here rather than skipping the check.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def test_mypy_finds_no_errors_in_the_package() -> None:
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=REPO_ROOT,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, f"mypy failed:\n{result.stdout}{result.stderr}"
