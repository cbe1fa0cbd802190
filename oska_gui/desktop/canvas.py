"""The UI's ``Canvas`` painted on a pygame Surface.

Speed matters: a frame must be drawn in a few milliseconds while the computer thinks.
So circles (most of what the board is made of) are drawn once per radius, colour and
width as small sprites, antialiased by drawing them four times larger and scaling them
down, and then just blitted; text images are cached the same way; and ``layer`` keeps
the picture of the background and the empty board until the window or board changes.

pygame's draw functions ignore a colour's alpha, so other translucent shapes are drawn
on a small transparent scratch surface that is then blended onto the target. Polygon
edges are antialiased with ``aalines``. Text uses a system sans-serif font when one is
installed (DejaVu Sans or Liberation Sans), else pygame's bundled FreeSans, at ``size``
pixels per em like the browser's canvas.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

import pygame

from ..core.text import drawable
from ..ui.kit.canvas import Canvas, Color, Point

PREFERRED_FONTS = ("dejavusans", "liberationsans", "arial", "helvetica", "freesans")
CACHE_LIMIT = 800  # cached text images and circle sprites, each
SUPERSAMPLE = 4
ANCHORS = ("center", "left", "right", "topleft")


def _font_files() -> tuple[str, str]:
    """Return the (regular, bold) font files to use: a system sans or pygame's own."""
    bundled = os.path.join(os.path.dirname(pygame.__file__), pygame.font.get_default_font())
    regular = pygame.font.match_font(PREFERRED_FONTS) or bundled
    bold = pygame.font.match_font(PREFERRED_FONTS, bold=True) or bundled
    return regular, bold


@dataclass
class _Caches:
    """Fonts, text images, circle sprites and the kept layer, shared with layer canvases."""

    files: tuple[str, str]
    fonts: dict = field(default_factory=dict)
    texts: dict = field(default_factory=dict)
    circles: dict = field(default_factory=dict)
    layer: tuple | None = None


class SurfaceCanvas:
    """A ``ui.kit.canvas.Canvas`` drawing on a pygame Surface (the window, or any surface)."""

    def __init__(self, surface: pygame.Surface, caches: _Caches | None = None) -> None:
        """Draw on ``surface``; ``width`` and ``height`` follow its size.

        Args:
            surface: the target.
            caches: caches to share with another canvas (used for layers).
        """
        if not pygame.font.get_init():
            pygame.font.init()
        self.surface = surface
        self._caches = caches or _Caches(_font_files())

    @property
    def width(self) -> int:
        """Return the surface width in pixels."""
        return self.surface.get_width()

    @property
    def height(self) -> int:
        """Return the surface height in pixels."""
        return self.surface.get_height()

    # -- helpers ---------------------------------------------------------------------------

    def _blend(self, left: float, top: float, right: float, bottom: float, color: Color,
               paint: Callable[[pygame.Surface, Color, float, float], None]) -> None:
        """Paint with ``color`` directly if opaque, else via a transparent scratch surface.

        ``paint(target, rgb_or_rgba, dx, dy)`` draws with coordinates shifted by (dx, dy).
        """
        if len(color) < 4 or color[3] >= 255:
            paint(self.surface, color[:3], 0.0, 0.0)
            return
        if color[3] <= 0:
            return
        x0, y0 = math.floor(left) - 2, math.floor(top) - 2
        w, h = math.ceil(right) - x0 + 3, math.ceil(bottom) - y0 + 3
        if w <= 0 or h <= 0:
            return
        scratch = pygame.Surface((w, h), pygame.SRCALPHA)
        paint(scratch, (*color[:3], 255), -x0, -y0)
        scratch.set_alpha(color[3])
        self.surface.blit(scratch, (x0, y0))

    def _font(self, size: float, bold: bool) -> pygame.font.Font:
        """Return the font for text ``size`` pixels per em (cached)."""
        key = (max(1, round(size)), bold)
        fonts = self._caches.fonts
        font = fonts.get(key)
        if font is None:
            font = fonts[key] = pygame.font.Font(self._caches.files[bold], key[0])
        return font

    # -- the Canvas protocol -----------------------------------------------------------------

    def clear(self, color: Color) -> None:
        """Fill the whole surface with ``color``."""
        self.surface.fill(color[:3])

    def rect(self, x: float, y: float, w: float, h: float, color: Color,
             radius: float = 0, width: float = 0) -> None:
        """Draw a rectangle (rounded by ``radius``); ``width`` 0 fills, else outlines."""
        if w <= 0 or h <= 0:
            return

        def paint(target: pygame.Surface, ink: Color, dx: float, dy: float) -> None:
            """Draw the rectangle on ``target`` shifted by (dx, dy)."""
            box = pygame.Rect(round(x + dx), round(y + dy), max(1, round(w)), max(1, round(h)))
            pygame.draw.rect(target, ink, box, max(0, round(width)),
                             border_radius=max(0, round(min(radius, w / 2, h / 2))))

        self._blend(x, y, x + w, y + h, color, paint)

    def circle(self, x: float, y: float, r: float, color: Color, width: float = 0) -> None:
        """Draw an antialiased circle centred on (x, y); ``width`` 0 fills, else outlines."""
        if r <= 0 or (len(color) > 3 and color[3] <= 0):
            return
        sprite = self._circle_sprite(r, color, width)
        half = sprite.get_width() / 2
        self.surface.blit(sprite, (round(x - half), round(y - half)))

    def _circle_sprite(self, r: float, color: Color, width: float) -> pygame.Surface:
        """Return the (cached) image of a circle: radius and width to a quarter pixel."""
        radius = round(r * 4) / 4
        ring = 0.0 if not width else min(radius, max(1.0, round(width * 4) / 4))
        key = (radius, tuple(color), ring)
        circles = self._caches.circles
        sprite = circles.get(key)
        if sprite is None:
            if len(circles) >= CACHE_LIMIT:
                circles.clear()
            size = math.ceil(2 * radius) + 2
            big = pygame.Surface((size * SUPERSAMPLE, size * SUPERSAMPLE), pygame.SRCALPHA)
            big.fill((*color[:3], 0))  # transparent, but the right colour for the edges
            center = size * SUPERSAMPLE / 2
            pygame.draw.circle(big, (*color[:3], 255), (center, center), radius * SUPERSAMPLE,
                               round(ring * SUPERSAMPLE))
            sprite = pygame.transform.smoothscale(big, (size, size))
            if len(color) > 3 and color[3] < 255:
                sprite.set_alpha(color[3])
            circles[key] = sprite
        return sprite

    def line(self, x1: float, y1: float, x2: float, y2: float, color: Color,
             width: float = 1) -> None:
        """Draw a straight line segment ``width`` pixels thick (antialiased)."""
        def paint(target: pygame.Surface, ink: Color, dx: float, dy: float) -> None:
            """Draw the segment on ``target`` shifted by (dx, dy)."""
            a, b = (x1 + dx, y1 + dy), (x2 + dx, y2 + dy)
            if width <= 1.5:
                pygame.draw.aaline(target, ink, a, b)
                return
            quad = _thick_segment(a, b, width)
            pygame.draw.polygon(target, ink, quad)
            pygame.draw.aalines(target, ink, True, quad)

        pad = width / 2 + 1
        self._blend(min(x1, x2) - pad, min(y1, y2) - pad, max(x1, x2) + pad,
                    max(y1, y2) + pad, color, paint)

    def polygon(self, points: list[Point], color: Color, width: float = 0) -> None:
        """Draw a closed polygon with antialiased edges; ``width`` 0 fills, else outlines."""
        if len(points) < 3:
            return
        xs, ys = [p[0] for p in points], [p[1] for p in points]

        def paint(target: pygame.Surface, ink: Color, dx: float, dy: float) -> None:
            """Draw the polygon on ``target`` shifted by (dx, dy)."""
            shifted = [(px + dx, py + dy) for px, py in points]
            if width and width > 1.5:
                pygame.draw.polygon(target, ink, shifted, round(width))
                return
            if not width:
                pygame.draw.polygon(target, ink, shifted)
            pygame.draw.aalines(target, ink, True, shifted)

        pad = width + 1
        self._blend(min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad, color, paint)

    def text(self, s: str, x: float, y: float, size: float, color: Color,
             anchor: str = "center", bold: bool = False) -> None:
        """Draw one line of text ``size`` pixels high anchored at (x, y).

        ``anchor`` is 'center', 'left', 'right' or 'topleft'; raises ValueError otherwise.
        What is drawn is ``drawable(s)``: pygame refuses NUL and lone surrogates.
        """
        if anchor not in ANCHORS:
            raise ValueError(f"unknown text anchor {anchor!r}; use one of {list(ANCHORS)}")
        s = drawable(s)
        if not s or (len(color) > 3 and color[3] <= 0):
            return
        image = self._render(s, size, bold, color)
        box = image.get_rect()
        point = (round(x), round(y))
        if anchor == "center":
            box.center = point
        elif anchor == "left":
            box.midleft = point
        elif anchor == "right":
            box.midright = point
        else:
            box.topleft = point
        self.surface.blit(image, box)

    def _render(self, s: str, size: float, bold: bool, color: Color) -> pygame.Surface:
        """Return the rendered text image (cached), with the colour's alpha applied."""
        key = (s, max(1, round(size)), bold, tuple(color))
        texts = self._caches.texts
        image = texts.get(key)
        if image is None:
            if len(texts) >= CACHE_LIMIT:
                texts.clear()
            image = self._font(size, bold).render(s, True, color[:3])
            if len(color) > 3 and color[3] < 255:
                image.set_alpha(color[3])
            texts[key] = image
        return image

    def text_width(self, s: str, size: float, bold: bool = False) -> float:
        """Return the width in pixels ``s`` would take when drawn at ``size`` (as
        ``drawable(s)``, which is what ``text`` draws)."""
        return float(self._font(size, bold).size(drawable(s))[0])

    def layer(self, key: Hashable, paint: Callable[[Canvas], None]) -> None:
        """Paint the whole surface as ``paint`` would, reusing the last picture while
        ``key`` and the surface size stay the same."""
        caches = self._caches
        wanted = (key, self.surface.get_size())
        if caches.layer is None or caches.layer[0] != wanted:
            image = pygame.Surface(self.surface.get_size())
            paint(SurfaceCanvas(image, caches))
            caches.layer = (wanted, image)
        self.surface.blit(caches.layer[1], (0, 0))


def _thick_segment(a: Point, b: Point, width: float) -> list[Point]:
    """Return the four corners of the segment a-b drawn ``width`` pixels thick."""
    (x1, y1), (x2, y2) = a, b
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    nx, ny = -(y2 - y1) / length * width / 2, (x2 - x1) / length * width / 2
    return [(x1 + nx, y1 + ny), (x2 + nx, y2 + ny), (x2 - nx, y2 - ny), (x1 - nx, y1 - ny)]
