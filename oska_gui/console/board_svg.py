"""Board pictures for pages: one position drawn as a small self-contained SVG.

The cells sit where the window draws them (rows centred, an Oska board's rows half a
cell apart on a hexagonal grid): the cell grid of ``engine.registry.grid_points``,
which the window scales too, so a page needs no drawing library. Each cell is a group
holding its hole, its piece and its name at the hole's lower right, light on a dark
edge (as the window's cell names); the group's class says what stands there ('w', 'b' or none)
and whether the last move left or reached it ('from', 'to'), and ``BOARD_STYLE`` (the
page's CSS for them) draws it so. A page's script can thus show another position by
changing the classes alone (``live``: every cell gets an id and a piece to show). Moves
can be drawn on the board as arrows from their cell to their target. The picture
carries a text for screen readers as its title.
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
NAME_SPOT = 0.34  # a name tag's centre, this many pitches right of and below the hole's
NAME_SIZE = 7.0  # a cell name's size in pixels of the picture
PIECE_LOOKS = {"w": ("#f6f2e8", "#333"), "b": ("#262626", "#000")}  # fill, outline
HOLE_FILL = "#8a5a2e"
WOOD_FILL = "#c7965d"
LAST_MOVE_RING = "#ff963c"
BOARD_STYLE = (
    ".board .wood { fill: " + WOOD_FILL + "; stroke: " + WOOD_FILL
    + "; stroke-width: 6; stroke-linejoin: round; }\n"
    ".board .h { fill: " + HOLE_FILL + "; }\n"
    ".board .p { display: none; stroke-width: 1.5; }\n"
    + "".join(f".board .{side} .p {{ display: inline; fill: {fill}; stroke: {outline}; }}\n"
              for side, (fill, outline) in PIECE_LOOKS.items())
    + ".board .from .h, .board .to .h { stroke: " + LAST_MOVE_RING
    + "; stroke-width: 2.5; }\n"
    f".board text {{ fill: #f4ead8; font: bold {NAME_SIZE:g}px system-ui, sans-serif; "
    "text-anchor: middle; dominant-baseline: central; stroke: #2b1d10; stroke-width: 2.4px; "
    "stroke-linejoin: round; paint-order: stroke; }\n"
)


def cell_centres(kind: str, n: int) -> list[tuple[float, float]]:
    """Return each cell's centre in pixels, in the rules' cell order (reading order).

    Args:
        kind: the game's key ('oska', 'hexapawn').
        n: the board size.
    """
    return [(MARGIN + PITCH * (u + 0.5), MARGIN + PITCH * (v + 0.5))
            for u, v in grid_points(kind, n)]


def board_svg(kind: str, n: int, rows: Sequence[str], title: str,
              names: Sequence[str] = (), arrows: Sequence[tuple[Move, str]] = (),
              last: Move | None = None, live: bool = False) -> str:
    """Return an inline SVG picture of a board.

    Args:
        kind: the game's key.
        n: the board size.
        rows: the position as the spec's row strings over 'w', 'b', '-'.
        title: what a screen reader says for the picture (e.g. the text board).
        names: each cell's name, written beside it (none: no names).
        arrows: moves to draw as arrows, each with its colour, the last on top (a pass
            gets none).
        last: the move that led to the position, its cells ringed (None: none).
        live: give the picture the id 'live-board', every cell an id ('c0', 'c1',
            ...) and a piece to show, and the arrows a group with the id 'arrows', for
            a script to show other positions (one such picture a page).

    Returns:
        The ``<svg>`` element's text (drawn by ``BOARD_STYLE``).
    """
    centres = cell_centres(kind, n)
    width = max(x for x, _ in centres) + PITCH / 2 + MARGIN
    height = max(y for _, y in centres) + PITCH / 2 + MARGIN
    shapes = [_wood(centres)]
    for cell, ((x, y), content) in enumerate(zip(centres, "".join(rows), strict=True)):
        name = names[cell] if names else ""
        shapes.append(_cell(x, y, cell_class(content, cell, last), name,
                            f' id="c{cell}"' if live else "", live))
    drawn = arrows_svg(kind, n, arrows)
    shapes.append(f'<g id="arrows">{drawn}</g>' if live else drawn)
    ident = ' id="live-board"' if live else ""
    return (f'<svg{ident} class="board" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.1f} {height:.1f}" role="img">'
            f"<title>{escape(title)}</title>" + "".join(shapes) + "</svg>")


def cell_class(content: str, cell: int, last: Move | None) -> str:
    """Return the class of a cell's group: its piece ('w', 'b', or none for an empty
    cell), then 'from' or 'to' where the last move left or reached it."""
    classes = [content] if content in PIECE_LOOKS else []
    if last is not None and last.frm >= 0:
        classes += ["from"] if cell == last.frm else ["to"] if cell == last.to else []
    return " ".join(classes)


def arrows_svg(kind: str, n: int, arrows: Sequence[tuple[Move, str]]) -> str:
    """Return the SVG of ``arrows`` (moves with their colours; a pass gets none) on
    the board of ``kind`` and ``n``, as ``board_svg`` draws them."""
    centres = cell_centres(kind, n)
    return "".join(_arrow(centres[move.frm], centres[move.to], colour)
                   for move, colour in arrows if move.frm >= 0)


def _wood(centres: Sequence[tuple[float, float]]) -> str:
    """Return the board's wood under the cells: a polygon half a pitch around each row's
    ends (an hourglass for Oska, a rectangle for square boards), its corners rounded by
    a stroke of its own colour."""
    rows: dict[float, list[float]] = {}
    for x, y in centres:
        rows.setdefault(round(y, 1), []).append(x)
    edge = PITCH / 2 + MARGIN / 2
    tops, bottoms = min(rows), max(rows)
    left = [(min(xs) - edge, y) for y, xs in sorted(rows.items())]
    right = [(max(xs) + edge, y) for y, xs in sorted(rows.items(), reverse=True)]
    outline = [(left[0][0], tops - edge), *left, (left[-1][0], bottoms + edge),
               (right[0][0], bottoms + edge), *right, (right[-1][0], tops - edge)]
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in outline)
    return f'<polygon class="wood" points="{points}"/>'


def _cell(x: float, y: float, classes: str, name: str, ident: str, live: bool) -> str:
    """Return the SVG group of one cell at (x, y).

    Args:
        x: the centre's x, in pixels.
        y: the centre's y.
        classes: the group's class (``cell_class``).
        name: the cell's name to write beside it ('' for none).
        ident: the group's id attribute, with its leading space ('' for none).
        live: whether the cell gets a piece even when empty (shown by class).
    """
    parts = [f'<circle class="h" cx="{x:.1f}" cy="{y:.1f}" r="{HOLE * PITCH:.1f}"/>']
    if live or classes.split(" ")[0] in PIECE_LOOKS:
        parts.append(f'<circle class="p" cx="{x:.1f}" cy="{y:.1f}" r="{PIECE * PITCH:.1f}"/>')
    if name:
        parts.append(f'<text x="{x + NAME_SPOT * PITCH:.1f}" y="{y + NAME_SPOT * PITCH:.1f}">'
                     f"{escape(name)}</text>")
    kind = f' class="{classes}"' if classes else ""
    return f"<g{ident}{kind}>" + "".join(parts) + "</g>"


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
