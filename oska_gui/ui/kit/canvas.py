"""The drawing interface every front end implements (pygame Surface, HTML canvas).

Coordinates are floats in pixels from the top-left corner; colours are (r, g, b) or
(r, g, b, a) tuples of ints 0-255. The UI draws only through these calls, so the same
scene code paints a pygame window and a browser canvas.

``layer`` (added by the desktop GUI) lets a front end keep a picture of what does not
change from frame to frame (the background and the empty board) and reuse it. A front
end whose drawing is fast anyway implements it as a plain ``paint(self)``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Protocol

Color = tuple[int, ...]
Point = tuple[float, float]


class Canvas(Protocol):
    """A surface the UI can paint on; implemented once per front end."""

    @property
    def width(self) -> int:
        """Return the surface's width in pixels."""

    @property
    def height(self) -> int:
        """Return the surface's height in pixels."""

    def clear(self, color: Color) -> None:
        """Fill the whole surface with ``color``."""

    def rect(self, x: float, y: float, w: float, h: float, color: Color,
             radius: float = 0, width: float = 0) -> None:
        """Draw a rectangle (rounded by ``radius``); ``width`` 0 fills, else outlines."""

    def circle(self, x: float, y: float, r: float, color: Color, width: float = 0) -> None:
        """Draw a circle centred on (x, y); ``width`` 0 fills, else outlines."""

    def line(self, x1: float, y1: float, x2: float, y2: float, color: Color,
             width: float = 1) -> None:
        """Draw a straight line segment ``width`` pixels thick."""

    def polygon(self, points: list[Point], color: Color, width: float = 0) -> None:
        """Draw a closed polygon; ``width`` 0 fills, else outlines."""

    def text(self, s: str, x: float, y: float, size: float, color: Color,
             anchor: str = "center", bold: bool = False) -> None:
        """Draw one line of text ``size`` pixels high anchored at (x, y).

        ``anchor`` is one of 'center', 'left' (x is the left edge, y the middle),
        'right' (x is the right edge, y the middle), 'topleft'. Any string may come
        (a bot's error, a record's names): what is drawn is ``core.text.drawable(s)``,
        its control characters and lone surrogates escaped, and cut when very long.
        """

    def text_width(self, s: str, size: float, bold: bool = False) -> float:
        """Return the width in pixels ``s`` would take when drawn at ``size``
        (measured as ``drawable(s)``, which is what ``text`` draws)."""

    def layer(self, key: Hashable, paint: Callable[[Canvas], None]) -> None:
        """Paint the whole surface as ``paint(canvas)`` would.

        ``paint`` must draw the same picture whenever ``key`` is the same (it starts
        with ``clear``), so a front end may keep the result as an image and just show it
        again while ``key`` is unchanged. The simplest valid implementation is
        ``paint(self)``.
        """
