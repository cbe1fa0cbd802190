"""What the browser tests share: Debian's Chromium, its flags, the Playwright driver.

A test module that drives Chromium takes the driver as its own module-scoped fixture
(``playwright_driver = browser_helpers.playwright_driver``) and launches Chromium with
``executable_path=str(CHROMIUM), args=CHROMIUM_ARGS`` in a fresh profile; Playwright's
own browsers are never installed. Screenshots go to ``ARTIFACTS``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


@pytest.fixture(scope="module")
def playwright_driver() -> Iterator[Any]:
    """The Playwright driver for a module's tests (Chromium itself is Debian's).

    Module-scoped on purpose: while the sync API runs, its asyncio loop counts as
    running in the main thread, so ``asyncio.run`` in any later test module would fail.
    Leaving ``with`` at the end of the module stops it.
    """
    assert CHROMIUM.exists(), (
        f"{CHROMIUM} is missing: install it with `apt-get install chromium` "
        "(python3 tests/run.py does it when run as root)"
    )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        yield driver
