"""A test run must leave the checkout as it found it: a pytest plugin that checks.

Tests write only under their temporary folders. A test that writes where it runs (a
command given a relative output path, with the checkout as its working folder) leaves
files or folders behind; empty folders do not even show in ``git status``. The plugin
lists the checkout's untracked entries that git does not ignore, empty folders
included (``git ls-files --others --exclude-standard --directory``), when the run
starts and again when it ends; anything new fails the run, named.

``conftest.py`` registers it for the project's checkout in the main pytest process
(not in the workers of ``pytest -n``, whose runs end before the main one does).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

GIT_TIMEOUT = 60.0  # seconds for git to list a checkout


def strays(root: Path) -> frozenset[str] | None:
    """Return the entries of the checkout ``root`` that git neither tracks nor ignores
    (a folder with nothing tracked in it as one entry, ending in '/'), or None when
    ``root`` is no git checkout (or git is missing)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--others", "--exclude-standard", "--directory", "-z"],
            cwd=root, capture_output=True, timeout=GIT_TIMEOUT, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    names = listed.stdout.decode("utf-8", "surrogateescape").split("\0")
    return frozenset(name for name in names if name)


class CheckoutGuard:
    """Fails the run when it leaves a new untracked, unignored entry in a checkout."""

    def __init__(self, root: Path) -> None:
        """Guard the checkout ``root``."""
        self.root = root
        self.before: frozenset[str] | None = None

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """Note what is in the checkout before any test runs."""
        self.before = strays(self.root)

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        """Fail the run, naming them, if entries appeared in the checkout since."""
        after = strays(self.root) if self.before is not None else None
        if after is None or self.before is None:
            return
        new = sorted(after - self.before)
        if not new:
            return
        shown = ", ".join(repr(name) for name in new[:20])
        more = f" and {len(new) - 20} more" if len(new) > 20 else ""
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        message = (f"the tests left {len(new)} new entries in the checkout {self.root} "
                   f"(tests write only under their temporary folders): {shown}{more}")
        if reporter is not None:
            reporter.write_line("")  # after the progress line, not on it
            reporter.write_line(message, red=True, bold=True)
        else:
            print(message)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
