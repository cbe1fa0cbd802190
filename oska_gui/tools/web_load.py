"""How long the web page blocks its main thread while it loads:
``python -m oska_gui.tools.web_load [--visits N] [--chromium PATH]``.

It builds the site if it is stale, serves it on 127.0.0.1 and opens it in headless
Chromium (driven by Playwright, a test dependency) with a fresh profile: a cold first
visit, then ``N - 1`` repeat visits (reloads). For each visit it prints the time to the
first interactive frame (``body[data-ready-at]``) and the main thread's long tasks (a
``PerformanceObserver`` of type ``longtask``: every task over 50 ms), the longest with
the loading text shown when it began, so the stretch is named ("Starting the Python
runtime..."). Each request that would leave 127.0.0.1 is aborted.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oska_gui.web.build import DEFAULT_OUT, MissingRuntime, build, is_up_to_date
from oska_gui.web.serve import serving_in_background

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
READY_TIMEOUT_MS = 120_000
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


def run(site: Path, visits: int, chromium: Path) -> list[Visit]:
    """Serve ``site`` and return the measures of a first visit and ``visits - 1`` reloads."""
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
        context.close()
    return results


def report(visits: list[Visit]) -> str:
    """Return the printed report of ``visits`` (the first cold, the others repeats)."""
    lines = []
    for index, visit in enumerate(visits):
        start, longest = visit.longest
        over = sum(1 for _, duration in visit.tasks if duration > 200)
        lines.append(
            f"{'cold first visit' if index == 0 else f'repeat visit {index}':18}"
            f" first frame {visit.ready_ms:7.0f} ms   longest task {longest:6.0f} ms"
            f" at {start:6.0f} ms ({visit.text_at(start) or 'before the loader'})"
            f"   tasks over 200 ms: {over}")
    return "\n".join(lines)


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Return the parsed command line (exits with a usage message when it is wrong)."""
    parser = argparse.ArgumentParser(prog="python -m oska_gui.tools.web_load",
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
    print(report(run(args.out, args.visits, args.chromium)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
