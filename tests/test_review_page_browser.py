"""The review page (``oska review --html``) in Chromium, opened as a file: a click on a
move, the arrow keys, Home and End, a click on the graph and Down in the list each show
the right position on the board, at a desktop's size and a phone's; without JavaScript
the static page is there. Nothing is requested outside the file, and the hostile
names run nothing. Screenshots go to tests/artifacts/review-page-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import browser_helpers
import pytest
from browser_helpers import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS
from review_page_helpers import random_record, reviewed

from oska_gui.console.review_graph import LEFT, WIDTH, plot_step
from oska_gui.engine.registry import GameKind
from oska_gui.play.review.result import Review

pytestmark = pytest.mark.browser
playwright_driver = browser_helpers.playwright_driver  # the module's Playwright, Debian's Chromium

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
BOARD_JS = """(count) => Array.from({length: count}, (_, cell) => {
  const names = (document.getElementById('c' + cell).getAttribute('class') || '').split(' ');
  return names.includes('w') ? 'w' : names.includes('b') ? 'b' : '-';
}).join('')"""
VISIBLE_PIECES_JS = """() => Array.from(document.querySelectorAll('#live-board .p'))
  .filter((piece) => getComputedStyle(piece).display !== 'none').length"""


class Page:
    """The review page in a fresh Chromium profile, with what it tried and what went
    wrong: requests outside the file, script errors and dialogs (a name run as code)."""

    def __init__(self, page: Any, review: Review) -> None:
        """Watch ``page``, which will show the page of ``review``."""
        self.page = page
        rules = review.record.rules
        self.positions = ["".join(rules.to_rows(pos)) for pos in review.positions]
        self.outside: list[str] = []
        self.errors: list[str] = []
        page.route("**/*", self._guard)
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", lambda message: message.type == "error"
                and self.errors.append(message.text))
        page.on("dialog", lambda dialog: (self.errors.append(f"dialog: {dialog.message}"),
                                          dialog.dismiss()))

    def _guard(self, route: Any) -> None:
        """Let the file itself load; abort and record any other request."""
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            self.outside.append(route.request.url)
            route.abort()

    def shown(self) -> int:
        """Return the position the page says it shows."""
        return int(self.page.evaluate("document.body.dataset.shown"))

    def expect(self, index: int) -> None:
        """Check that position ``index`` is shown: the board's pieces (as the rules
        replay the record, drawn: each piece's circle visible), its words, the graph's
        line and the list's current move."""
        position = self.positions[index]
        assert self.shown() == index
        assert self.page.evaluate(BOARD_JS, len(position)) == position
        pieces = len(position) - position.count("-")
        assert self.page.evaluate(VISIBLE_PIECES_JS) == pieces
        caption = self.page.text_content("#caption") or ""
        assert caption.startswith(f"Move {index} of " if index else "Start of the game")
        line = float(self.page.get_attribute("#graph-cursor", "x1") or "nan")
        assert line == pytest.approx(LEFT + index * plot_step(len(self.positions) - 1))
        current = self.page.eval_on_selector_all(
            "#moves button[aria-current]", "(buttons) => buttons.map((b) => b.dataset.i)")
        assert current == ([] if index == 0 else [str(index)])

    def arrows(self) -> list[str]:
        """Return the colours of the arrowheads on the board now."""
        return self.page.eval_on_selector_all(
            "#arrows polygon", "(heads) => heads.map((head) => head.getAttribute('fill'))")


@pytest.fixture(scope="module")
def review_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Review, Path]:
    """A random n = 5 game with hostile names, reviewed, and its page's file."""
    review, text = reviewed(random_record(GameKind.OSKA, 5, 4))
    path = tmp_path_factory.mktemp("review") / "review.html"
    path.write_text(text, encoding="utf-8")
    return review, path


@pytest.fixture
def opened(playwright_driver: Any, review_file: tuple[Review, Path], tmp_path: Path,
           request: pytest.FixtureRequest) -> Iterator[Page]:
    """The review page opened from its file in a new Chromium (indirect parameters:
    ``viewport``, ``touch``, ``javascript``); checks at the end that it requested
    nothing outside the file and had no error."""
    options = getattr(request, "param", {})
    context = playwright_driver.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=str(CHROMIUM), args=CHROMIUM_ARGS,
        headless=True, viewport=options.get("viewport", DESKTOP),
        has_touch=options.get("touch", False),
        java_script_enabled=options.get("javascript", True))
    review, path = review_file
    page = Page(context.pages[0] if context.pages else context.new_page(), review)
    page.page.goto(path.as_uri())
    yield page
    context.close()
    assert page.outside == [] and page.errors == []


@pytest.mark.parametrize("opened", [{"viewport": DESKTOP},
                                    {"viewport": PHONE, "touch": True}],
                         ids=["desktop", "phone"], indirect=True)
def test_clicks_and_keys_show_each_position(opened: Page,
                                            review_file: tuple[Review, Path]) -> None:
    """A click on a bad move shows the position after it; Left the one before, with the
    move played (red) and the better move (blue) as arrows; Right, Home and End step;
    a click on the graph shows the nearest position; Down in the list goes to the
    position before the next bad move, the focus with it."""
    review, _ = review_file
    page = opened.page
    name = "desktop" if page.viewport_size == DESKTOP else "phone"
    opened.expect(0)
    bad = [ply.ply for ply in review.plies if ply.better]
    assert len(bad) >= 2
    first = bad[0]
    page.click(f"#moves button[data-i='{first}']")
    opened.expect(first)
    page.keyboard.press("ArrowLeft")
    opened.expect(first - 1)
    assert opened.arrows() == ["#d62f24", "#1f5fbf"]  # the move played, the better one
    page.evaluate("document.getElementById('viewer').scrollIntoView()")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"review-page-{name}.png"))
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    opened.expect(first + 1)
    page.keyboard.press("End")
    opened.expect(len(review.plies))
    page.keyboard.press("Home")
    opened.expect(0)
    box = page.locator("svg.graph").bounding_box()
    target = len(review.plies) // 2
    x = LEFT + target * plot_step(len(review.plies))
    page.mouse.click(box["x"] + x / WIDTH * box["width"], box["y"] + box["height"] / 2)
    opened.expect(target)
    page.focus("#moves button[aria-current]")
    page.keyboard.press("ArrowDown")
    after = next((ply - 1 for ply in bad if ply - 1 > target), target)
    opened.expect(after)
    if after:
        assert page.evaluate("document.activeElement.dataset.i") == str(after)
    if name == "phone":  # one column: the board as wide as the page, the list below it
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        board = page.locator("#live-board").bounding_box()
        moves = page.locator("#moves").bounding_box()
        assert board["width"] >= 0.8 * PHONE["width"] and board["x"] >= 0
        assert board["x"] + board["width"] <= PHONE["width"]
        assert moves["y"] >= board["y"] + board["height"]


@pytest.mark.parametrize("opened", [{"javascript": False}], indirect=True)
def test_without_javascript_the_static_page_is_there(opened: Page,
                                                     review_file: tuple[Review, Path]) -> None:
    """With scripts off: the heading, the graph, the summary, the table of every move
    and the bad moves' boards show; the board to step, its buttons and the list (which
    need the script) do not."""
    review, _ = review_file
    page = opened.page
    for selector in ("svg.graph", "table", "figure svg.board"):
        assert page.is_visible(selector), selector
    assert page.locator("figure svg.board").count() == sum(bool(p.better) for p in review.plies)
    for selector in ("#live-board", "#moves", "#caption", ".nav", "#graph-cursor"):
        assert not page.is_visible(selector), selector
    assert page.locator("table tr").count() == 1 + 2 + 1 + len(review.plies)
