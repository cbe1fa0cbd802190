"""Board geometry: where each cell of a game's board lies, scaled into a rectangle.

``fit_board(kind, n, area)`` places the cells of an Oska hourglass or a Hexapawn square
board in ``area``, scaled to fit and centred: ``.center(cell)`` gives a cell's pixel
centre and ``.cell_at(x, y)`` hit-tests a pixel back to a cell. The rows come from the
game's descriptor (``engine.registry``), the frame's size and the pieces' from its look
(``looks``). Pure functions, no pygame.

Staggered (Oska) cells sit on a hexagonal grid: neighbouring cells of a row are one
pitch apart and rows are ``sqrt(3) / 2`` pitches apart, so a piece's six neighbours are
all one pitch away. Cell numbers are the rules modules' (reading order, row by row from
the top).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from oska_gui.engine.registry import game_info, grid_points

from ..kit.canvas import Point
from ..kit.rect import Rect
from .looks import look_of

HOLE_RADIUS = 0.44
ROUND_CORNERS = 6  # arc segments at each outward corner of the board frame


def frame_box(kind: str, n: int) -> tuple[float, float, float, float]:
    """Return the board frame's bounding box (left, top, width, height) in pitch units,
    relative to the top-left cell centre's grid origin, with all the drawing reaches
    beyond the frame (rim, shadow)."""
    look = look_of(kind)
    frame = offset_polygon(frame_points(kind, n), look.frame_pad, ROUND_CORNERS)
    rim = look.reach
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
