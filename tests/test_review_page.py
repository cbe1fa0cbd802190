"""The review page (``console.review_page``, ``oska review --html``) as a file: one page
that reaches nothing outside it, every move in its list with its mark, the players'
names escaped, and every position embedded as the rules replay the record, with the
better move's arrows on the position before the bad move."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from review_page_helpers import HOSTILE_BLACK, HOSTILE_WHITE, random_record, reviewed

from oska_gui.console.board_svg import cell_centres
from oska_gui.console.review_page import BETTER_COLOUR, PLAYED_COLOUR, SCALE_NOTE, script_json
from oska_gui.core.types import SIDE_NAMES
from oska_gui.engine.registry import GameKind
from oska_gui.play.review.result import Review

VOID = {"meta", "br", "input", "img", "link", "hr", "wbr"}


class Parsed(HTMLParser):
    """A page parsed: its elements checked to close in order, with every element's tag
    and attributes, the text inside each id'd element and the JSON data."""

    def __init__(self, text: str) -> None:
        """Parse ``text``; raises AssertionError when an element closes out of order."""
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.texts: dict[str, str] = {}
        self.inside: list[str | None] = []
        self.feed(text)
        self.close()
        assert self.open == [], f"never closed: {self.open}"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Note an element's start (and its end at once, for a void one)."""
        attributes = {name: value or "" for name, value in attrs}
        self.elements.append((tag, attributes))
        if tag not in VOID:
            self.open.append(tag)
            self.inside.append(attributes.get("id"))
            if "id" in attributes:
                self.texts[attributes["id"]] = ""

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Note an element written as ``<tag/>`` (SVG): it starts and ends here."""
        self.elements.append((tag, {name: value or "" for name, value in attrs}))

    def handle_endtag(self, tag: str) -> None:
        """Check that ``tag`` closes the element opened last."""
        if tag in VOID:
            return
        assert self.open and self.open[-1] == tag, f"</{tag}> closes {self.open[-1:]}"
        self.open.pop()
        self.inside.pop()

    def handle_data(self, data: str) -> None:
        """Add text to every id'd element it lies in."""
        for ident in filter(None, self.inside):
            self.texts[ident] += data

    def all(self, tag: str) -> list[dict[str, str]]:
        """Return the attributes of every ``tag`` element, in order."""
        return [attributes for name, attributes in self.elements if name == tag]


@pytest.fixture(scope="module")
def oska() -> tuple[Review, str]:
    """A random n = 5 Oska game and its page."""
    return reviewed(random_record(GameKind.OSKA, 5, 4))


def test_the_page_is_one_file_that_reaches_nothing_outside(oska: tuple[Review, str]) -> None:
    """It parses with every element closed in order and every id once; no attribute
    loads or links anything (src, href, srcset, action, a CSS url or import), and no
    address appears at all; the script and style are inline."""
    _, text = oska
    parsed = Parsed(text)
    ids = [attributes["id"] for _, attributes in parsed.elements if "id" in attributes]
    assert len(ids) == len(set(ids))
    for tag, attributes in parsed.elements:
        assert not {"src", "href", "srcset", "action", "xlink:href"} & set(attributes), tag
    assert not re.search(r"https?:|//[a-z]|url\(|@import", text, re.IGNORECASE)
    scripts = parsed.all("script")
    assert len(scripts) == 2 and scripts[0] == {"type": "application/json",
                                                "id": "review-data"}
    assert "<link" not in text and text.count("<style>") == 2  # the page's; without script


def test_the_heading_says_the_budget_the_exact_source_and_whose_chances(
        oska: tuple[Review, str]) -> None:
    """The review's heading lines as the text review prints them, and the note that
    every chance is White's."""
    review, text = oska
    parsed = Parsed(text)
    assert "Search: 2,000 nodes a position" in text
    assert "Exact values: none: the search alone" in text
    assert SCALE_NOTE in text and "White's win chance" in text
    assert parsed.texts["caption"].startswith(f"Start of the game, {len(review.plies)} moves")


def test_every_move_is_in_the_list_with_its_mark(oska: tuple[Review, str]) -> None:
    """One button a move, in order, showing the position after it: its notation and,
    for a bad move, the mark's symbol, its class the mark's word, its label the mark."""
    review, text = oska
    buttons = re.findall(r'<button type="button" class="([a-z]+)" data-i="(\d+)" '
                         r'aria-label="([^"]*)">([^<]*)(?: <b>([^<]*)</b>)?</button>', text)
    assert len(buttons) == len(review.plies)
    assert any(ply.better for ply in review.plies)  # a random game holds bad moves
    for ply, (mark, index, label, played, symbol) in zip(review.plies, buttons, strict=True):
        assert (mark, int(index), played) == (ply.mark_word, ply.ply, ply.played)
        assert symbol == (ply.mark.symbol if ply.better else "")
        assert label == f"Move {ply.ply}, {SIDE_NAMES[ply.side]} {ply.played}, {ply.mark_word}"
    rows = re.findall(r"<tr><td>(\d+)</td><td>\w+</td><td><span class=\"(\w+)\">", text)
    assert rows == [(str(ply.ply), ply.mark_word) for ply in review.plies]


def test_the_players_names_are_escaped(oska: tuple[Review, str]) -> None:
    """Names that would close the script or add an element stay text: nowhere raw, in
    the heading and the summary escaped, and the page's elements are its own."""
    _, text = oska
    for name in (HOSTILE_WHITE, HOSTILE_BLACK):
        assert name not in text
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "&lt;img src=x onerror=alert(2)&gt; &amp; &quot;&#x27;" in text
    parsed = Parsed(text)
    assert not parsed.all("img") and len(parsed.all("script")) == 2
    assert all("onerror" not in attributes for _, attributes in parsed.elements)


@pytest.mark.parametrize(("kind", "n", "seed"), [(GameKind.OSKA, 5, 2), (GameKind.OSKA, 4, 7),
                                                 (GameKind.HEXAPAWN, 4, 3)])
def test_every_position_is_embedded_as_the_rules_replay_the_record(
        kind: GameKind, n: int, seed: int) -> None:
    """The JSON holds each position of the record replayed move by move by the rules
    (the rows joined), the move that led to it, its words and arrows: before each bad
    move the move played (red) and the better one (blue, its head on the better move's
    target), no arrow elsewhere."""
    record = random_record(kind, n, seed)
    review, text = reviewed(record)
    data = json.loads(Parsed(text).texts["review-data"])
    rules = record.rules
    replayed = [record.first_position()]
    for move in record.moves:
        replayed.append(rules.play(replayed[-1], rules.parse_move(move, replayed[-1])))
    assert data["positions"] == ["".join(rules.to_rows(pos)) for pos in replayed]
    assert data["names"] == [rules.cell_name(cell) for cell in range(len(rules.cells))]
    last = len(replayed) - 1
    bad = [ply.ply - 1 for ply in review.plies if ply.better]
    assert bad and data["bad"] == bad
    centres = cell_centres(kind.value, n)
    for index, pos in enumerate(replayed):
        text_of = data["texts"][index]
        if index:
            move = rules.move_between(replayed[index - 1], pos)
            assert data["moves"][index] == ([move.frm, move.to] if move.frm >= 0 else None)
            assert text_of.startswith(f"Move {index} of {last}: "
                                      f"{SIDE_NAMES[replayed[index - 1].turn]} "
                                      f"{rules.move_text(move)}, ")
        arrows = data["arrows"][index]
        if index not in bad:
            assert arrows == "" and "Next," not in text_of
            continue
        ply = review.plies[index]
        assert f"Next, {SIDE_NAMES[ply.side]} {ply.played}: {ply.mark.value}" in text_of
        heads = re.findall(r'<polygon points="([\d.]+),([\d.]+)[^"]*" fill="([^"]+)"', arrows)
        better = rules.parse_move(ply.better, pos)
        played = rules.move_between(pos, replayed[index + 1])
        assert [colour for *_, colour in heads] == [PLAYED_COLOUR, BETTER_COLOUR]
        for (x, y, _), move in zip(heads, (played, better), strict=True):
            cx, cy = centres[move.to]
            assert (float(x), float(y)) == (round(cx, 1), round(cy, 1))


def test_the_data_cannot_close_its_script_element() -> None:
    """Text holding '</script>', '<!--' or '&' is written with JSON escapes and reads
    back the same."""
    value = {"a": "</script><!-- & -->", "b": ["<", ">"]}
    text = script_json(value)
    assert not set("<>&") & set(text) and json.loads(text) == value
