"""Set-up shared by every test module; pytest loads it before any of them.

- This folder has no ``__init__.py``, so pytest puts it on ``sys.path`` while loading this
  file: the helper modules beside it (``cli_helpers``, ``board_strategies``, ...) import by
  their plain names, with no path juggling in the test files.
- SDL's headless drivers are chosen here, before any test imports pygame, so running
  pytest directly behaves like ``tests/run.py``.
- The user's data folder is an empty temporary one (``XDG_DATA_HOME``, inherited by the
  commands the tests start): a solved game that ``oska solve --save`` kept on this
  computer must not change what the tests see; tests that want one write their own.
- The run must leave the checkout as it found it (``checkout_guard``): a file or folder
  that appears in it outside the paths git ignores fails the run, named.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from checkout_guard import CheckoutGuard

REPO_ROOT = Path(__file__).resolve().parent.parent

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="oska-test-data-")
atexit.register(shutil.rmtree, os.environ["XDG_DATA_HOME"], True)


def pytest_configure(config: pytest.Config) -> None:
    """Guard the checkout, in the main pytest process (a worker's run ends first)."""
    if not hasattr(config, "workerinput"):
        config.pluginmanager.register(CheckoutGuard(REPO_ROOT), "checkout-guard")


@pytest.fixture(scope="module")
def display() -> Iterator[None]:
    """Start pygame's display (dummy driver) once for a module that uses it.

    Yields:
        Nothing; pygame is shut down after the module's last test.
    """
    import pygame  # only the desktop tests need pygame

    pygame.display.init()
    pygame.font.init()
    yield
    pygame.quit()
