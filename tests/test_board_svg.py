"""The board pictures of pages (``console.board_svg``): cells where the window puts them,
pieces where the position has them, moves as arrows."""

from __future__ import annotations

import math
import random
import re

import pytest

from oska_gui.console.board_svg import BOARD_STYLE, PITCH, board_svg, cell_centres
from oska_gui.core.types import Move
from oska_gui.engine.registry import game_info
from oska_gui.play.game import make_game

CASES = [("oska", n) for n in (4, 5, 8, 13)] + [("hexapawn", n) for n in (3, 4, 6)]


@pytest.mark.parametrize(("kind", "n"), CASES)
def test_every_move_joins_cells_one_or_two_pitches_apart(kind: str, n: int) -> None:
    """Over random games, an Oska step joins neighbouring cells (one pitch apart) and a
    capture jump cells two pitches apart in a straight line over the captured one; a
    Hexapawn move goes one row ahead, straight or diagonally, as the board looks."""
    rules = game_info(kind).rules(n)
    centres = cell_centres(kind, n)
    rng = random.Random(n)
    for _ in range(5):
        pos = rules.start()
        while rules.terminal(pos) is None and (kids := rules.children(pos)):
            for kid in kids:
                move = rules.move_between(pos, kid)
                if move.frm < 0:
                    continue
                (x0, y0), (x1, y1) = centres[move.frm], centres[move.to]
                jump = kind == "oska" and move.over >= 0
                if kind == "oska":
                    expected = 2.0 if jump else 1.0
                else:  # a square's diagonal for a capture, one square straight ahead else
                    expected = 1.0 if math.isclose(x0, x1) else math.sqrt(2)
                    assert math.isclose(y1 - y0, PITCH if pos.turn == 0 else -PITCH)
                assert math.isclose(math.hypot(x1 - x0, y1 - y0), PITCH * expected), move
                if jump:
                    mx, my = centres[move.over]
                    assert math.isclose(mx, (x0 + x1) / 2) and math.isclose(my, (y0 + y1) / 2)
            pos = rng.choice(kids)


@pytest.mark.parametrize(("kind", "n"), CASES)
def test_the_picture_has_a_hole_per_cell_and_a_piece_per_piece(kind: str, n: int) -> None:
    """Holes, white and black pieces are counted from the row strings, each cell's group
    says what stands on it, and every shape lies inside the picture."""
    rules = game_info(kind).rules(n)
    rows = rules.to_rows(rules.start())
    svg = board_svg(kind, n, rows, "the start")
    text = "".join(rows)
    assert svg.count('<circle class="h"') == len(text) == len(cell_centres(kind, n))
    assert svg.count('<circle class="p"') == len(text) - text.count("-")
    assert re.findall(r'<g(?: class="([wb])")?>', svg) == [c if c in "wb" else "" for c in text]
    width, height = map(float, re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg).groups())
    for x, y in cell_centres(kind, n):
        assert PITCH / 2 <= x <= width - PITCH / 2 and PITCH / 2 <= y <= height - PITCH / 2
    assert "<line" not in svg and "<text" not in svg and "id=" not in svg


def test_moves_are_arrows_and_the_title_is_escaped() -> None:
    """Each move gets one arrow in its colour ending on the target cell, the last one
    drawn on top; a pass none; the title is text, escaped."""
    rules = make_game("oska", 4).rules
    pos = rules.start()
    first, second = (rules.move_between(pos, kid) for kid in rules.children(pos)[:2])
    svg = board_svg("oska", 4, rules.to_rows(pos), "<b>x</b>",
                    arrows=[(first, "#abcdef"), (second, "#123456")])
    assert svg.count('stroke="#abcdef"') == svg.count('fill="#abcdef"') == 1
    assert svg.index("#abcdef") < svg.index("#123456")
    tip = re.search(r'<polygon points="([\d.]+),([\d.]+)[^"]*" fill="#abcdef"', svg).groups()
    x, y = cell_centres("oska", 4)[first.to]
    assert (float(tip[0]), float(tip[1])) == (round(x, 1), round(y, 1))
    assert "<title>&lt;b&gt;x&lt;/b&gt;</title>" in svg
    passed = board_svg("oska", 4, rules.to_rows(pos), "", arrows=[(Move(-1, -1), "#abcdef")])
    assert "#abcdef" not in passed


def test_names_the_last_move_and_a_live_board() -> None:
    """Cell names are written beside their cells; the last move's cells are classed
    'from' and 'to' (ringed by the style); a live board has an id for the picture, each
    cell and the arrows' group, and a piece in every cell for a script to show."""
    rules = make_game("oska", 5).rules
    start = rules.start()
    kid = rules.children(start)[0]
    move = rules.move_between(start, kid)
    names = [rules.cell_name(cell) for cell in range(len(rules.cells))]
    svg = board_svg("oska", 5, rules.to_rows(kid), "after", names, last=move)
    assert re.findall(r"<text[^>]*>([^<]*)</text>", svg) == names
    classes = re.findall(r'<g(?: class="([^"]*)")?>', svg)
    assert classes[move.frm] == "from" and classes[move.to] == "w to"
    assert ".from .h" in BOARD_STYLE and ".to .h" in BOARD_STYLE
    live = board_svg("oska", 5, rules.to_rows(kid), "live", names, live=True)
    assert live.startswith('<svg id="live-board"') and '<g id="arrows"></g>' in live
    assert re.findall(r'<g id="c(\d+)"', live) == [str(cell) for cell in range(len(names))]
    assert live.count('<circle class="p"') == len(names)
