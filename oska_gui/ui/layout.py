"""Where everything goes on screen: pure functions of the window size (no pygame).

The window is split into a board area and a side panel (on the right when the window is
wide, at the bottom when it is tall). ``board_layout(kind, n, width, height)`` places
the cells of an Oska hourglass or a Hexapawn square board in the board area, scaled to
fit and centred: ``.center(cell)`` gives a cell's pixel centre and ``.cell_at(x, y)``
hit-tests a pixel back to a cell. ``panel_layout`` and ``menu_layout`` give the
rectangles of the side panel's parts and buttons and of the start screen's options.

Oska cells sit on a hexagonal grid: neighbouring cells of a row are one pitch apart and
rows are ``sqrt(3) / 2`` pitches apart, so a piece's six neighbours are all one pitch
away. Cell numbers are the rules modules' (reading order, row by row from the top).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from oska_gui.engine.registry import game_info

from .canvas import Point
from .looks import look_of

HEX_ROW_STEP = math.sqrt(3) / 2  # staggered rows: a cell's six neighbours one pitch away
HOLE_RADIUS = 0.44
MIN_SIZE = 1
ROUND_CORNERS = 6  # arc segments at each outward corner of the board frame
STACK_BELOW = 560  # start-screen cards narrower than this put labels above choices


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in pixels: top-left corner (x, y), width w, height h."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        """Return the x coordinate of the right edge."""
        return self.x + self.w

    @property
    def bottom(self) -> float:
        """Return the y coordinate of the bottom edge."""
        return self.y + self.h

    @property
    def center(self) -> Point:
        """Return the centre point (x, y)."""
        return (self.x + self.w / 2, self.y + self.h / 2)

    def contains(self, x: float, y: float) -> bool:
        """Return True when the pixel (x, y) lies inside (edges included)."""
        return self.x <= x <= self.right and self.y <= y <= self.bottom

    def inset(self, dx: float, dy: float | None = None) -> Rect:
        """Return this rectangle shrunk by ``dx`` left and right and ``dy`` (default dx)
        top and bottom; it never gets a negative size."""
        dy = dx if dy is None else dy
        w, h = max(0.0, self.w - 2 * dx), max(0.0, self.h - 2 * dy)
        return Rect(self.x + (self.w - w) / 2, self.y + (self.h - h) / 2, w, h)

    def take_top(self, h: float, gap: float = 0) -> tuple[Rect, Rect]:
        """Return (a strip ``h`` high at the top, the rest below it after ``gap``)."""
        h = min(h, self.h)
        rest_h = max(0.0, self.h - h - gap)
        return Rect(self.x, self.y, self.w, h), Rect(self.x, self.bottom - rest_h, self.w, rest_h)

    def take_bottom(self, h: float, gap: float = 0) -> tuple[Rect, Rect]:
        """Return (a strip ``h`` high at the bottom, the rest above it after ``gap``)."""
        h = min(h, self.h)
        rest_h = max(0.0, self.h - h - gap)
        return Rect(self.x, self.bottom - h, self.w, h), Rect(self.x, self.y, self.w, rest_h)

    def columns(self, count: int, gap: float) -> list[Rect]:
        """Return ``count`` equal side-by-side rectangles separated by ``gap`` pixels."""
        count = max(1, count)
        w = max(0.0, (self.w - gap * (count - 1)) / count)
        return [Rect(self.x + i * (w + gap), self.y, w, self.h) for i in range(count)]


def clamp(value: float, low: float, high: float) -> float:
    """Return ``value`` limited to [low, high] (``low`` wins if they cross)."""
    return max(low, min(value, high))


# -- board geometry ------------------------------------------------------------------


@lru_cache(maxsize=64)
def grid_points(kind: str, n: int) -> tuple[Point, ...]:
    """Return each cell's centre in pitch units (u right, v down), in cell order.

    Cell c of a row of length L is at u = (n - L) / 2 + c (rows are centred), and v is
    the row times the row step: one pitch on a square grid, ``HEX_ROW_STEP`` on a
    staggered one. The top-left cell centre is at u = 0 or more.

    Raises:
        ValueError: for an unknown game or a size its rules do not support.
    """
    info = game_info(kind)
    info.check(n)
    step = HEX_ROW_STEP if info.staggered else 1.0
    return tuple(((n - length) / 2 + c, r * step)
                 for r, length in enumerate(info.row_lengths(n)) for c in range(length))


def frame_box(kind: str, n: int) -> tuple[float, float, float, float]:
    """Return the board frame's bounding box (left, top, width, height) in pitch units,
    relative to the top-left cell centre's grid origin, rim included."""
    look = look_of(kind)
    frame = offset_polygon(frame_points(kind, n), look.frame_pad, ROUND_CORNERS)
    rim = look.border
    left, top = min(u for u, _ in frame) - rim, min(v for _, v in frame) - rim
    right, bottom = max(u for u, _ in frame) + rim, max(v for _, v in frame) + rim
    return left, top, right - left, bottom - top


def offset_polygon(points: Sequence[Point], distance: float,
                   round_corners: int = 0) -> list[Point]:
    """Return the polygon ``points`` (clockwise on screen) grown outwards by ``distance``.

    Each edge moves ``distance`` along its outward normal. At an inward (concave)
    corner the moved edges are intersected; at an outward corner they are intersected
    too, or, with ``round_corners`` > 0, joined by an arc of that many segments
    (a negative ``distance`` shrinks the polygon, corners always intersected).
    """
    count = len(points)
    edges = []
    for i in range(count):
        (x1, y1), (x2, y2) = points[i], points[(i + 1) % count]
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        # outward normal of a clockwise-on-screen polygon (y grows downwards)
        edges.append(((x2 - x1) / length, (y2 - y1) / length, (y2 - y1) / length,
                      -(x2 - x1) / length))
    grown: list[Point] = []
    for i in range(count):
        dx1, dy1, nx1, ny1 = edges[i - 1]
        dx2, dy2, nx2, ny2 = edges[i]
        px, py = points[i]
        convex = dx1 * dy2 - dy1 * dx2 > 0
        if convex and round_corners > 0 and distance > 0:
            start, end = math.atan2(ny1, nx1), math.atan2(ny2, nx2)
            sweep = (end - start) % (2 * math.pi)
            for k in range(round_corners + 1):
                angle = start + sweep * k / round_corners
                grown.append((px + distance * math.cos(angle), py + distance * math.sin(angle)))
            continue
        grown.append(_miter((px, py), (dx1, dy1, nx1, ny1), (dx2, dy2, nx2, ny2), distance))
    return grown


def _miter(corner: Point, before: tuple, after: tuple, distance: float) -> Point:
    """Return where the two edges meeting at ``corner``, both moved ``distance`` along
    their normals, cross (``before``/``after`` are (dx, dy, nx, ny) unit vectors)."""
    dx1, dy1, nx1, ny1 = before
    dx2, dy2, nx2, ny2 = after
    px, py = corner
    cross = dx1 * dy2 - dy1 * dx2
    if abs(cross) < 1e-9:
        return (px + nx2 * distance, py + ny2 * distance)
    ax, ay = px + nx1 * distance, py + ny1 * distance
    bx, by = px + nx2 * distance, py + ny2 * distance
    t = ((bx - ax) * dy2 - (by - ay) * dx2) / cross
    return (ax + t * dx1, ay + t * dy1)


@dataclass(frozen=True)
class BoardLayout:
    """The board of one game drawn in one window size.

    ``kind`` is the game (a ``GameKind`` value); ``centers[cell]`` is a cell's pixel
    centre; ``pitch`` the distance between neighbouring cells; ``radius`` a piece's
    radius; ``frame`` the board's outline polygon (an hourglass for Oska, a square for
    Hexapawn), ``rect`` its bounding box.
    """

    kind: str
    n: int
    centers: tuple[Point, ...]
    pitch: float
    radius: float
    frame: tuple[Point, ...]
    rect: Rect

    @property
    def cell_count(self) -> int:
        """Return the number of cells of the board."""
        return len(self.centers)

    @property
    def hole_radius(self) -> float:
        """Return the radius of an empty Oska hole (the cup a piece sits in)."""
        return HOLE_RADIUS * self.pitch

    def center(self, cell: int) -> Point:
        """Return the pixel centre (x, y) of ``cell``; raises IndexError if there is none."""
        if not 0 <= cell < len(self.centers):
            raise IndexError(f"no cell {cell} on this board ({len(self.centers)} cells)")
        return self.centers[cell]

    def cell_at(self, x: float, y: float) -> int | None:
        """Return the cell under the pixel (x, y), or None off the cells.

        Holes: the nearest cell centre within half a pitch (its neighbours' discs touch,
        so every point of a cell's disc belongs to that cell). Squares: the square.
        """
        half = self.pitch / 2
        best, best_d2 = None, half * half
        squares = look_of(self.kind).squares
        for cell, (cx, cy) in enumerate(self.centers):
            dx, dy = x - cx, y - cy
            if squares:
                if abs(dx) <= half and abs(dy) <= half:
                    return cell
                continue
            d2 = dx * dx + dy * dy
            if d2 <= best_d2:
                best, best_d2 = cell, d2
        return best


def frame_points(kind: str, n: int) -> list[Point]:
    """Return the board outline through the outermost cell centres, in pitch units.

    Clockwise on screen, through the ends of the first row, of the narrowest (waist)
    row and of the last row: Oska's hourglass; on a square board, where the first row
    is the narrowest, the square's four corners.
    """
    points = grid_points(kind, n)
    lengths = game_info(kind).row_lengths(n)
    waist, last = lengths.index(min(lengths)), len(lengths) - 1
    first = {r: sum(lengths[:r]) for r in range(len(lengths))}
    top_l, top_r = points[0], points[lengths[0] - 1]
    mid_l, mid_r = points[first[waist]], points[first[waist] + lengths[waist] - 1]
    bot_l, bot_r = points[first[last]], points[first[last] + lengths[last] - 1]
    corners = [top_l, top_r, mid_r, bot_r, bot_l, mid_l]
    outline = [p for i, p in enumerate(corners) if i == 0 or p != corners[i - 1]]
    return outline[:-1] if outline[-1] == outline[0] else outline


def board_area(width: float, height: float) -> Rect:
    """Return the part of a ``width`` x ``height`` window given to the board."""
    return split_screen(width, height)[0]


def board_layout(kind: str, n: int, width: float, height: float) -> BoardLayout:
    """Return the layout of the ``kind`` board of size ``n`` in a window of that size.

    Args:
        kind: the game, a ``GameKind`` (or its value).
        n: the board size (one its rules support).
        width: the window width in pixels.
        height: the window height in pixels.

    Returns:
        A BoardLayout centred in the board area and as big as fits.

    Raises:
        ValueError: for an unknown game or an unsupported size.
    """
    return fit_board(kind, n, board_area(width, height))


def fit_board(kind: str, n: int, area: Rect) -> BoardLayout:
    """Return the layout of the ``kind`` board of size ``n`` scaled into ``area``."""
    box_left, box_top, box_w, box_h = frame_box(kind, n)
    pitch = max(0.01, min(area.w / box_w, area.h / box_h))
    left = area.x + (area.w - box_w * pitch) / 2 - box_left * pitch
    top = area.y + (area.h - box_h * pitch) / 2 - box_top * pitch
    centers = tuple((left + u * pitch, top + v * pitch) for u, v in grid_points(kind, n))
    outline = [(left + u * pitch, top + v * pitch) for u, v in frame_points(kind, n)]
    look = look_of(kind)
    frame = offset_polygon(outline, look.frame_pad * pitch, ROUND_CORNERS)
    xs, ys = [x for x, _ in frame], [y for _, y in frame]
    rect = Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
    return BoardLayout(kind, n, centers, pitch, look.piece_radius * pitch, tuple(frame), rect)


# -- screen, panel and menu ------------------------------------------------------------


def margin(width: float, height: float) -> float:
    """Return the outer margin for a window of this size (bigger windows, more air)."""
    return clamp(min(width, height) * 0.03, 6, 24)


def is_portrait(width: float, height: float) -> bool:
    """Return True when the panel goes below the board (the window is taller than wide)."""
    return width < height


def split_screen(width: float, height: float) -> tuple[Rect, Rect]:
    """Return (board area, side panel) for a window of ``width`` x ``height`` pixels."""
    width, height = max(MIN_SIZE, width), max(MIN_SIZE, height)
    m = margin(width, height)
    inner = Rect(0, 0, width, height).inset(m)
    if is_portrait(width, height):
        panel, board = inner.take_bottom(clamp(height * 0.36, 120, 320), m)
    else:
        panel_w = clamp(width * 0.30, 200, 400)
        panel_w = min(panel_w, inner.w * 0.45)
        board = Rect(inner.x, inner.y, max(0.0, inner.w - panel_w - m), inner.h)
        panel = Rect(inner.right - panel_w, inner.y, panel_w, inner.h)
    return board, panel


@dataclass(frozen=True)
class PanelLayout:
    """The side panel's parts: title, the two player cards, status, moves and buttons."""

    panel: Rect
    title: Rect
    players: tuple[Rect, Rect]
    status: Rect
    moves: Rect
    buttons: dict[str, Rect]
    line_height: float


def panel_layout(width: float, height: float, buttons: Sequence[str]) -> PanelLayout:
    """Return the side panel's layout for the window size and the given buttons.

    Args:
        width: the window width in pixels.
        height: the window height in pixels.
        buttons: button names, in reading order (filled row by row, two per row).

    Returns:
        A PanelLayout; ``buttons`` maps each name to its rectangle.
    """
    _, panel = split_screen(width, height)
    pad = clamp(panel.w * 0.05, 6, 16)
    inner = panel.inset(pad)
    line = clamp(min(width, height) * 0.026, 11, 20)
    gap = line * 0.5
    portrait = is_portrait(width, height)
    cols = 2
    rows = math.ceil(len(buttons) / cols)
    button_h = clamp(line * 2.1, 22, 42)
    grid_h = rows * button_h + (rows - 1) * gap
    if portrait:  # info on the left half; moves above the buttons on the right half
        half = (inner.w - gap) / 2
        top = Rect(inner.x, inner.y, half, inner.h)
        grid, moves = Rect(inner.x + half + gap, inner.y, half, inner.h).take_bottom(grid_h, gap)
    else:
        grid, top = inner.take_bottom(grid_h, gap * 2)
    title, rest = top.take_top(line * 2.0, gap)
    white, rest = rest.take_top(line * 2.9, gap * 0.6)
    black, rest = rest.take_top(line * 2.9, gap)
    status, rest = rest.take_top(line * 2.6, gap)
    if not portrait:
        moves = rest
    return PanelLayout(panel, title, (white, black), status, moves,
                       _grid(grid, buttons, cols, button_h, gap), line)


def _grid(area: Rect, names: Sequence[str], cols: int, row_h: float,
          gap: float) -> dict[str, Rect]:
    """Return name -> rectangle for ``names`` laid out in rows of ``cols`` in ``area``."""
    out = {}
    for i, name in enumerate(names):
        row, col = divmod(i, cols)
        strip = Rect(area.x, area.y + row * (row_h + gap), area.w, row_h)
        out[name] = strip.columns(cols, gap)[col]
    return out


@dataclass(frozen=True)
class MenuLayout:
    """The start screen: title, one (label, option rectangles) pair per row, buttons."""

    card: Rect
    title: Rect
    subtitle: Rect
    rows: tuple[tuple[Rect, tuple[Rect, ...]], ...]
    buttons: dict[str, Rect]
    font: float


def menu_layout(width: float, height: float, rows: Sequence[int],
                buttons: Sequence[str]) -> MenuLayout:
    """Return the start screen's layout.

    Args:
        width: the window width in pixels.
        height: the window height in pixels.
        rows: per option row, the number of choices shown side by side (a row with one
            choice is a stepper: it gets three rectangles, previous / value / next).
        buttons: names of the buttons along the bottom, left to right.

    Returns:
        A MenuLayout with a (label, choices) pair per row and the buttons by name.
    """
    width, height = max(MIN_SIZE, width), max(MIN_SIZE, height)
    m = margin(width, height)
    card_w = min(width - 2 * m, clamp(width * 0.8, 300, 720))
    stacked = card_w < STACK_BELOW  # narrow: each label goes above its choices
    per_row = 1.75 if stacked else 1.0
    slots = len(rows) * per_row + 4.2  # title (2), subtitle, rows, gap, buttons row
    row_h = clamp((height - 2 * m) / slots, 14, 46)
    card_h = min(height - 2 * m, row_h * slots + m)
    card = Rect((width - card_w) / 2, (height - card_h) / 2, max(0.0, card_w), max(0.0, card_h))
    inner = card.inset(clamp(card_w * 0.04, 6, 28), m / 2)
    font = clamp(row_h * 0.42, 9, 19)
    title, rest = inner.take_top(row_h * 1.7)
    subtitle, rest = rest.take_top(row_h * 0.9)
    bar, rest = rest.take_bottom(row_h * 1.05, row_h * 0.35)
    laid = []
    for count in rows:
        strip, rest = rest.take_top(row_h * per_row)
        if stacked:
            label, body = strip.take_top(row_h * 0.75)
            body = body.inset(0, row_h * 0.05)
        else:
            body = strip.inset(0, row_h * 0.1)
            label = Rect(body.x, body.y, body.w * 0.27, body.h)
            body = Rect(body.x + body.w * 0.29, body.y, body.w * 0.71, body.h)
        laid.append((label, _choices(body, count, row_h)))
    bar_buttons = dict(zip(buttons, bar.columns(len(buttons), row_h * 0.3), strict=True))
    return MenuLayout(card, title, subtitle, tuple(laid), bar_buttons, font)


def _choices(area: Rect, count: int, row_h: float) -> tuple[Rect, ...]:
    """Return the rectangles of ``count`` side-by-side choices in ``area``, or for a
    stepper (``count`` 1 or less) its back arrow, value and forward arrow."""
    if count > 1:
        return tuple(area.columns(count, clamp(row_h * 0.12, 2, 6)))
    arrow = min(area.h * 1.3, area.w * 0.2)
    back = Rect(area.x, area.y, arrow, area.h)
    forward = Rect(area.right - arrow, area.y, arrow, area.h)
    value = Rect(back.right + 4, area.y, max(0.0, area.w - 2 * arrow - 8), area.h)
    return (back, value, forward)


def overlay_card(width: float, height: float, lines: int) -> Rect:
    """Return a centred card big enough for ``lines`` lines of text (help, banners)."""
    width, height = max(MIN_SIZE, width), max(MIN_SIZE, height)
    m = margin(width, height)
    w = min(width - 2 * m, clamp(width * 0.7, 260, 620))
    h = min(height - 2 * m, clamp(height * 0.06, 16, 30) * (lines + 3))
    return Rect((width - w) / 2, (height - h) / 2, max(0.0, w), max(0.0, h))
