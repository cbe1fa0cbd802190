"""The web app's icons: the game's own pieces drawn into PNG files at build time.

The site's icons are not stored images: the build paints them with the same drawing
code the game uses (``ui.board.board_view.piece``, the theme's colours) on ``RasterCanvas``,
a small anti-aliased software implementation of the ``ui.kit.canvas.Canvas`` protocol, and
encodes the result as PNG with the standard library (``zlib``). So the host needs
nothing beyond Python to build the site, and the icons follow the game's look.

Two kinds are written, each 192 and 512 pixels square: ``any`` (a wooden tile with
transparent corners, for browsers that show the icon as it is) and ``maskable`` (the
table's colour to every edge, the drawing inside the central safe circle of 40 % of
the size, which any mask a system applies leaves whole).
"""

from __future__ import annotations

import math
import struct
import zlib
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path

from ..ui.board.board_view import piece
from ..ui.kit import theme
from ..ui.kit.canvas import Canvas, Color, Point

SUBROWS = 4  # vertical samples per pixel row; across a row, coverage is exact
ICON_SIZES = (192, 512)
Span = tuple[float, float]
Spans = Callable[[float], list[Span]]  # a shape: its covered x intervals at a height


@dataclass(frozen=True)
class Icon:
    """One icon file of the site.

    Attributes:
        name: the file name in the site (``icon-512.png``).
        size: its width and height in pixels.
        purpose: the web app manifest's purpose: ``any`` or ``maskable``.
    """

    name: str
    size: int
    purpose: str


def site_icons() -> list[Icon]:
    """Return every icon the site ships, in the order the web app manifest lists them."""
    return [Icon(f"icon-{kind}{size}.png", size, purpose)
            for purpose, kind in (("any", ""), ("maskable", "maskable-"))
            for size in ICON_SIZES]


class RasterCanvas:
    """An RGBA image in memory that the UI's drawing calls paint on, anti-aliased.

    Every shape is reduced to its covered spans on each of ``SUBROWS`` sample lines
    per pixel row; a pixel's coverage of a shape becomes the opacity its colour is
    blended with (straight alpha, "source over"). Text is not supported: an icon has none.

    Attributes:
        pixels: the image, row by row, 4 bytes (r, g, b, a) a pixel.
    """

    def __init__(self, width: int, height: int) -> None:
        """Make a fully transparent image of ``width`` x ``height`` pixels."""
        self._width, self._height = width, height
        self.pixels = bytearray(width * height * 4)

    @property
    def width(self) -> int:
        """Return the image's width in pixels."""
        return self._width

    @property
    def height(self) -> int:
        """Return the image's height in pixels."""
        return self._height

    def clear(self, color: Color) -> None:
        """Fill the whole image with ``color`` (replacing what was there)."""
        self.pixels[:] = bytes(opaque(color)) * (self._width * self._height)

    def rect(self, x: float, y: float, w: float, h: float, color: Color,
             radius: float = 0, width: float = 0) -> None:
        """Draw a rectangle rounded by ``radius``; ``width`` 0 fills, else outlines inside."""
        outer = rounded_rect_spans(x, y, w, h, radius)
        shape = outer if not width else ring_spans(
            outer, rounded_rect_spans(x + width, y + width, w - 2 * width, h - 2 * width,
                                      max(0.0, radius - width)))
        self._fill(shape, y, y + h, color)

    def circle(self, x: float, y: float, r: float, color: Color, width: float = 0) -> None:
        """Draw a disc centred on (x, y); ``width`` 0 fills, else a ring inside its edge."""
        outer = circle_spans(x, y, r)
        shape = outer if not width else ring_spans(outer, circle_spans(x, y, r - width))
        self._fill(shape, y - r, y + r, color)

    def line(self, x1: float, y1: float, x2: float, y2: float, color: Color,
             width: float = 1) -> None:
        """Draw a segment ``width`` pixels thick, with square ends."""
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        nx, ny = -(y2 - y1) / length * width / 2, (x2 - x1) / length * width / 2
        self.polygon([(x1 + nx, y1 + ny), (x2 + nx, y2 + ny), (x2 - nx, y2 - ny),
                      (x1 - nx, y1 - ny)], color)

    def polygon(self, points: list[Point], color: Color, width: float = 0) -> None:
        """Draw a closed polygon (even-odd); ``width`` 0 fills, else strokes each edge."""
        if width:
            for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1], strict=True):
                self.line(x1, y1, x2, y2, color, width)
            return
        ys = [py for _, py in points]
        self._fill(polygon_spans(points), min(ys), max(ys), color)

    def text(self, s: str, x: float, y: float, size: float, color: Color,
             anchor: str = "center", bold: bool = False) -> None:
        """Refuse to draw text: the icons have none, and the canvas has no fonts.

        Raises:
            NotImplementedError: always.
        """
        raise NotImplementedError(f"RasterCanvas has no fonts to draw {s!r} with")

    def text_width(self, s: str, size: float, bold: bool = False) -> float:
        """Refuse to measure text (see ``text``).

        Raises:
            NotImplementedError: always.
        """
        raise NotImplementedError(f"RasterCanvas has no fonts to measure {s!r} with")

    def layer(self, key: Hashable, paint: Callable[[Canvas], None]) -> None:
        """Paint ``paint``'s picture directly: nothing is kept between calls."""
        paint(self)

    def _fill(self, shape: Spans, top: float, bottom: float, color: Color) -> None:
        """Blend ``color`` into every pixel ``shape`` covers between rows ``top`` and
        ``bottom``, weighted by how much of the pixel it covers."""
        alpha = (color[3] if len(color) > 3 else 255) / 255
        solid = bytes(opaque(color))
        first, last = max(0, math.floor(top)), min(self._height, math.ceil(bottom))
        for row in range(first, last):
            left, coverage = self._row_coverage(shape, row)
            column, end = 0, len(coverage)
            while column < end:
                run = column
                while alpha >= 1 and run < end and coverage[run] >= 1:
                    run += 1  # a run of fully covered pixels: no blending to do
                at = (row * self._width + left + column) * 4
                if run > column:
                    self.pixels[at:at + 4 * (run - column)] = solid * (run - column)
                    column = run
                    continue
                if coverage[column] > 0:
                    self._blend(at, color, coverage[column] * alpha)
                column += 1

    def _row_coverage(self, shape: Spans, row: int) -> tuple[int, list[float]]:
        """Return how much of each pixel of ``row`` the shape covers, 0 to 1, from the
        first pixel it touches (returned first) to the last."""
        samples = [[(max(0.0, a), min(float(self._width), b))
                    for a, b in shape(row + (sample + 0.5) / SUBROWS)]
                   for sample in range(SUBROWS)]
        runs = [(a, b) for spans in samples for a, b in spans if b > a]
        if not runs:
            return 0, []
        first = int(min(a for a, _ in runs))
        count = min(self._width, math.ceil(max(b for _, b in runs))) - first
        coverage = [0.0] * (count + 1)
        steps = [0.0] * (count + 1)  # full pixels: +weight where a run starts, - after
        weight = 1 / SUBROWS
        for a, b in runs:
            left, right = int(a) - first, int(b) - first
            a, b = a - first, b - first
            if left == right:
                coverage[left] += (b - a) * weight
                continue
            coverage[left] += (left + 1 - a) * weight
            steps[left + 1] += weight
            steps[right] -= weight
            coverage[right] += (b - right) * weight
        return first, [min(1.0, part + full) for part, full
                       in zip(coverage[:count], accumulate(steps[:count]), strict=True)]

    def _blend(self, at: int, color: Color, alpha: float) -> None:
        """Blend ``color`` at opacity ``alpha`` over the pixel whose bytes start at ``at``."""
        under = self.pixels[at + 3] / 255
        total = alpha + under * (1 - alpha)
        for channel in range(3):
            mixed = color[channel] * alpha + self.pixels[at + channel] * under * (1 - alpha)
            self.pixels[at + channel] = round(mixed / total)
        self.pixels[at + 3] = round(total * 255)

    def png(self) -> bytes:
        """Return the image encoded as a PNG file (8-bit RGBA, no filtering)."""
        stride = self._width * 4
        raw = b"".join(b"\0" + bytes(self.pixels[row * stride:(row + 1) * stride])
                       for row in range(self._height))
        header = struct.pack(">IIBBBBB", self._width, self._height, 8, 6, 0, 0, 0)
        return b"\x89PNG\r\n\x1a\n" + b"".join(
            png_chunk(kind, data)
            for kind, data in ((b"IHDR", header), (b"IDAT", zlib.compress(raw, 9)), (b"IEND", b"")))


def png_chunk(kind: bytes, data: bytes) -> bytes:
    """Return one PNG chunk: length, type, data and the CRC of type and data."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(
        ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def opaque(color: Color) -> tuple[int, int, int, int]:
    """Return ``color`` as four channels (a missing alpha is opaque)."""
    return (color[0], color[1], color[2], color[3] if len(color) > 3 else 255)


def circle_spans(cx: float, cy: float, r: float) -> Spans:
    """Return the shape of the disc of radius ``r`` centred on (cx, cy)."""
    def spans(y: float) -> list[Span]:
        """Return the disc's interval at height ``y`` (none above or below it)."""
        dy = y - cy
        if r <= 0 or abs(dy) >= r:
            return []
        half = math.sqrt(r * r - dy * dy)
        return [(cx - half, cx + half)]
    return spans


def rounded_rect_spans(x: float, y: float, w: float, h: float, radius: float) -> Spans:
    """Return the shape of a ``w`` x ``h`` rectangle at (x, y), corners rounded by ``radius``."""
    r = max(0.0, min(radius, w / 2, h / 2))

    def spans(sy: float) -> list[Span]:
        """Return the rectangle's interval at height ``sy``, narrowed at the corners."""
        if w <= 0 or not y <= sy < y + h:
            return []
        dy = max(y + r - sy, sy - (y + h - r), 0.0)
        inset = r - math.sqrt(max(0.0, r * r - dy * dy))
        return [(x + inset, x + w - inset)]
    return spans


def ring_spans(outer: Spans, inner: Spans) -> Spans:
    """Return the shape of ``outer`` without ``inner``; both convex, ``inner`` inside."""
    def spans(y: float) -> list[Span]:
        """Return ``outer``'s interval at ``y`` with ``inner``'s cut out of it."""
        hole = inner(y)
        if not hole:
            return outer(y)
        (a, b), (c, d) = outer(y)[0], hole[0]
        return [(a, c), (d, b)]
    return spans


def polygon_spans(points: list[Point]) -> Spans:
    """Return the shape of the polygon through ``points`` (even-odd rule)."""
    edges = [(p, q) for p, q in zip(points, points[1:] + points[:1], strict=True)
             if p[1] != q[1]]

    def spans(y: float) -> list[Span]:
        """Return the polygon's intervals at height ``y``: crossings taken in pairs."""
        crossings = sorted(x1 + (y - y1) * (x2 - x1) / (y2 - y1)
                           for (x1, y1), (x2, y2) in edges if min(y1, y2) <= y < max(y1, y2))
        return list(zip(crossings[::2], crossings[1::2], strict=True))
    return spans


def draw_icon(canvas: RasterCanvas, maskable: bool) -> None:
    """Paint the game's icon: a wooden tile with a white piece and a black one.

    Args:
        canvas: a square image to paint on.
        maskable: True for the full-bleed form (the table's colour to the edges, the
            tile inside the safe circle), False for a tile with transparent corners.
    """
    size = canvas.width
    if maskable:
        canvas.clear(theme.BACKGROUND)
    # the safe circle has a radius of 0.4 * size: a tile of side s fits when s / 2 * sqrt(2)
    # (its corner, less the rounding) stays inside it
    side = size * (0.62 if maskable else 0.94)
    corner = side * 0.2
    x = (size - side) / 2
    canvas.rect(x, x, side, side, theme.WOOD_EDGE, corner)
    canvas.rect(x + side * 0.03, x + side * 0.03, side * 0.94, side * 0.94, theme.WOOD,
                corner * 0.9)
    radius = side * 0.2
    for (fx, fy), side_to_play in (((0.33, 0.67), 0), ((0.67, 0.33), 1)):
        canvas.circle(x + fx * side, x + fy * side, radius * 1.12, theme.HOLE_RIM)
        canvas.circle(x + fx * side, x + fy * side, radius * 1.05, theme.HOLE)
        piece(canvas, "oska", radius, x + fx * side, x + fy * side, side_to_play)


def icon_png(icon: Icon) -> bytes:
    """Return the PNG file of ``icon``."""
    canvas = RasterCanvas(icon.size, icon.size)
    draw_icon(canvas, icon.purpose == "maskable")
    return canvas.png()


def write_icons(out: Path) -> Iterator[str]:
    """Write every icon of ``site_icons`` into ``out``; yield their file names."""
    for icon in site_icons():
        (out / icon.name).write_bytes(icon_png(icon))
        yield icon.name
