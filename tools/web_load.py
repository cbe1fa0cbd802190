"""How long the web page blocks its main thread while it loads and plays:
``python -m tools.web_load [--visits N] [--chromium PATH]``.

It builds the site if it is stale, serves it on 127.0.0.1 and opens it in headless
Chromium (driven by Playwright, a test dependency) with a fresh profile: a cold first
visit, then ``N - 1`` repeat visits (reloads). For each visit it prints the time to the
first interactive frame (``body[data-ready-at]``) and the main thread's long tasks (a
``PerformanceObserver`` of type ``longtask``: every task over 50 ms), the longest with
the loading text shown when it began, so the stretch is named ("Starting the Python
runtime..."). Then the computer makes the first move of an n = 5 game at Expert, and
the same is printed for the time it took. Each request that would leave 127.0.0.1 is
aborted.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oska_gui.games.oska import BLACK
from oska_gui.play.levels import LevelKey
from oska_gui.session.settings import Settings
from oska_gui.web.build import DEFAULT_OUT, MissingRuntime, build, is_up_to_date
from oska_gui.web.serve import serving_in_background
from oska_gui.web.storage import SETTINGS_KEY

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
READY_TIMEOUT_MS = 120_000
MOVE_TIMEOUT_MS = 120_000
# The computer plays White at Expert and moves first.
AI_GAME = Settings(n=5, human_side=BLACK, levels=(LevelKey.EXPERT, LevelKey.EXPERT))
# Installed before the page's own scripts: records every long task and every loading text.
WATCH = """
window.longTasks = [];
window.loadingTexts = [];
new PerformanceObserver((list) => {
    for (const task of list.getEntries()) window.longTasks.push([task.startTime, task.duration]);
}).observe({ type: "longtask", buffered: true });
addEventListener("DOMContentLoaded", () => {
    const text = document.getElementById("loading-text");
    window.loadingTexts.push([performance.now(), text.textContent]);
    new MutationObserver(() => window.loadingTexts.push([performance.now(), text.textContent]))
        .observe(text, { childList: true, characterData: true, subtree: true });
});
"""


@dataclass(frozen=True)
class Visit:
    """What one visit of the page measured.

    Attributes:
        ready_ms: ms from navigation to the first interactive frame.
        tasks: the long tasks, (start ms, duration ms) each.
        texts: the loading texts shown, (time ms, text) each.
    """

    ready_ms: float
    tasks: list[tuple[float, float]]
    texts: list[tuple[float, str]]

    @property
    def longest(self) -> tuple[float, float]:
        """Return the longest task as (start ms, duration ms); (0, 0) when there is none."""
        return max(self.tasks, key=lambda task: task[1], default=(0.0, 0.0))

    def text_at(self, when: float) -> str:
        """Return the loading text shown at ``when`` (ms), or '' before the first."""
        shown = [text for at, text in self.texts if at <= when]
        return shown[-1] if shown else ""


def measure(page: Any, url: str | None) -> Visit:
    """Load the page at ``url`` (None: reload it) and return what the visit measured."""
    if url is None:
        page.reload()
    else:
        page.goto(url)
    page.wait_for_selector("body[data-state=ready]", timeout=READY_TIMEOUT_MS)
    page.wait_for_timeout(500)  # the tasks right after the first frame count too
    return Visit(float(page.evaluate("document.body.dataset.readyAt")),
                 [tuple(task) for task in page.evaluate("window.longTasks")],
                 [tuple(text) for text in page.evaluate("window.loadingTexts")])


def measure_ai_move(page: Any) -> Visit:
    """Reload the page with ``AI_GAME``'s settings, start the game and return what the
    computer's first move measured: its time (from the key press to the human's turn)
    and the long tasks that began meanwhile."""
    stored = json.dumps(json.dumps(AI_GAME.to_dict()))
    page.evaluate(f"localStorage.setItem({SETTINGS_KEY!r}, {stored})")
    page.reload()
    page.wait_for_selector("body[data-state=ready]", timeout=READY_TIMEOUT_MS)
    start = float(page.evaluate("performance.now()"))
    page.keyboard.press("Enter")
    page.wait_for_function(
        "document.getElementById('status').textContent.startsWith('Your move')",
        timeout=MOVE_TIMEOUT_MS, polling=50)
    took = float(page.evaluate("performance.now()")) - start
    page.wait_for_timeout(500)  # the tasks right after the move count too
    tasks = [tuple(task) for task in page.evaluate("window.longTasks") if task[0] >= start]
    return Visit(took, tasks, [(start, "the computer's move at Expert")])


def run(site: Path, visits: int, chromium: Path) -> tuple[list[Visit], Visit]:
    """Serve ``site`` and return the measures of a first visit and ``visits - 1`` reloads,
    and of the computer's first move at Expert after them."""
    from playwright.sync_api import sync_playwright

    with (serving_in_background(site) as url, sync_playwright() as driver,
          tempfile.TemporaryDirectory() as profile):
        context = driver.chromium.launch_persistent_context(
            profile, executable_path=str(chromium), args=CHROMIUM_ARGS, headless=True)
        page = context.pages[0] if context.pages else context.new_page()
        page.route("**/*", lambda route: route.continue_() if route.request.url.startswith(url)
                   else route.abort())
        page.add_init_script(WATCH)
        results = [measure(page, None if index else url) for index in range(visits)]
        move = measure_ai_move(page)
        context.close()
    return results, move


def report(visits: list[Visit], move: Visit | None = None) -> str:
    """Return the printed report of ``visits`` (the first cold, the others repeats) and
    of the computer's ``move`` if given."""
    named = [(f"{'cold first visit' if index == 0 else f'repeat visit {index}':18}"
              " first frame", visit) for index, visit in enumerate(visits)]
    if move is not None:
        named.append((f"{'AI move at Expert':18} took       ", move))
    lines = []
    for name, visit in named:
        start, longest = visit.longest
        over = sum(1 for _, duration in visit.tasks if duration > 200)
        lines.append(
            f"{name} {visit.ready_ms:7.0f} ms   longest task {longest:6.0f} ms"
            f" at {start:6.0f} ms ({visit.text_at(start) or 'before the loader'})"
            f"   tasks over 200 ms: {over}")
    return "\n".join(lines)


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Return the parsed command line (exits with a usage message when it is wrong)."""
    parser = argparse.ArgumentParser(prog="python -m tools.web_load",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--visits", type=int, default=2,
                        help="the first visit and its reloads (default 2)")
    parser.add_argument("--chromium", type=Path, default=CHROMIUM,
                        help=f"the Chromium to run (default {CHROMIUM})")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help=f"the site folder, built if stale (default {DEFAULT_OUT})")
    args = parser.parse_args(argv)
    if args.visits < 1:
        parser.error(f"--visits must be at least 1, got {args.visits}")
    if not args.chromium.is_file():
        parser.error(f"no Chromium at {args.chromium} (apt-get install chromium)")
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; return the exit code (1 when the site cannot be built)."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        if not is_up_to_date(args.out):
            build(args.out)
    except MissingRuntime as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(report(*run(args.out, args.visits, args.chromium)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
