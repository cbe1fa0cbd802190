"""Board pictures for pages: one position drawn as a small self-contained SVG.

The cells sit where the window draws them (rows centred, an Oska board's rows half a
cell apart on a hexagonal grid): the cell grid of ``engine.registry.grid_points``,
which the window scales too, so a page needs no drawing library. A move can be drawn on
the board as an arrow from its cell to its target. The picture carries the text board
as its title for screen readers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from oska_gui.core.types import Move
from oska_gui.engine.registry import grid_points

PITCH = 30.0  # pixels between neighbouring cell centres
MARGIN = 6.0  # pixels around the outermost cells
HOLE = 0.42  # an empty cell's radius, in pitches
PIECE = 0.38  # a piece's radius, in pitches
HEAD = 0.32  # an arrowhead's length, in pitches
PIECE_LOOKS = {"w": ("#f6f2e8", "#333"), "b": ("#262626", "#000")}  # fill, outline


def cell_centres(kind: str, n: int) -> list[tuple[float, float]]:
    """Return each cell's centre in pixels, in the rules' cell order (reading order).

    Args:
        kind: the game's key ('oska', 'hexapawn').
        n: the board size.
    """
    return [(MARGIN + PITCH * (u + 0.5), MARGIN + PITCH * (v + 0.5))
            for u, v in grid_points(kind, n)]


def board_svg(kind: str, n: int, rows: Sequence[str], arrow: Move | None,
              arrow_colour: str, title: str) -> str:
    """Return an inline SVG picture of a board.

    Args:
        kind: the game's key.
        n: the board size.
        rows: the position as the spec's row strings over 'w', 'b', '-'.
        arrow: a move to draw as an arrow (None or a pass: none).
        arrow_colour: the arrow's colour.
        title: what a screen reader says for the picture (e.g. the text board).

    Returns:
        The ``<svg>`` element's text.
    """
    centres = cell_centres(kind, n)
    width = max(x for x, _ in centres) + PITCH / 2 + MARGIN
    height = max(y for _, y in centres) + PITCH / 2 + MARGIN
    shapes = [_cell(x, y, cell) for (x, y), cell in zip(centres, "".join(rows), strict=True)]
    if arrow is not None and arrow.frm >= 0:
        shapes.append(_arrow(centres[arrow.frm], centres[arrow.to], arrow_colour))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
            f'height="{height:.0f}" viewBox="0 0 {width:.1f} {height:.1f}" role="img">'
            f"<title>{escape(title)}</title>" + "".join(shapes) + "</svg>")


def _cell(x: float, y: float, content: str) -> str:
    """Return the SVG of one cell at (x, y): a hole, with a piece if ``content`` is one."""
    hole = f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{HOLE * PITCH:.1f}" fill="#d9c7a0"/>'
    if content not in PIECE_LOOKS:
        return hole
    fill, outline = PIECE_LOOKS[content]
    return hole + (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{PIECE * PITCH:.1f}" '
                   f'fill="{fill}" stroke="{outline}" stroke-width="1.5"/>')


def _arrow(start: tuple[float, float], end: tuple[float, float], colour: str) -> str:
    """Return the SVG of an arrow from ``start`` to ``end`` (pixel points) in ``colour``."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head = HEAD * PITCH
    bx, by = x1 - ux * head, y1 - uy * head  # where the head's base meets the shaft
    left = (bx - uy * head / 2, by + ux * head / 2)
    right = (bx + uy * head / 2, by - ux * head / 2)
    points = " ".join(f"{px:.1f},{py:.1f}" for px, py in ((x1, y1), left, right))
    return (f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{bx:.1f}" y2="{by:.1f}" '
            f'stroke="{colour}" stroke-width="4" stroke-linecap="round" opacity="0.85"/>'
            f'<polygon points="{points}" fill="{colour}" opacity="0.85"/>')
