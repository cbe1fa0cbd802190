"""The ``ui.kit.canvas.Canvas`` protocol painted on an HTML ``CanvasRenderingContext2D``.

The context is used only through its standard methods and properties, so this module
imports nothing from the browser: in the game's Web Worker it receives a context that
records the calls for the page to replay on its canvas (``recorder``), in tests any
object with the same methods.

Coordinates are CSS pixels. The page scales the backing store by ``devicePixelRatio``
and sets the context's transform to match (see ``HtmlCanvas.resize``), so shapes and
text stay crisp on high-density screens while the UI keeps thinking in CSS pixels.
Outlines are drawn inside the shape, as pygame does, so both front ends look alike.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from types import SimpleNamespace
from typing import Any

from ..core.text import drawable
from ..ui.kit.canvas import Canvas, Color, Point

TAU = 2 * math.pi
MIN_LINE = 0.5  # a line of width 0 would not mean "filled" here: draw it hairline-thin
FONT_FAMILY = "system-ui, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif"
# anchor name -> (textAlign, textBaseline)
ANCHORS = {
    "center": ("center", "middle"),
    "left": ("left", "middle"),
    "right": ("right", "middle"),
    "topleft": ("left", "top"),
}


def css_color(color: Color) -> str:
    """Return the CSS colour string of an (r, g, b) or (r, g, b, a) tuple of 0-255 ints.

    Args:
        color: three or four channel values.

    Returns:
        ``'rgb(r,g,b)'`` or ``'rgba(r,g,b,alpha)'`` with alpha as a fraction of 1.

    Raises:
        ValueError: when the tuple does not have three or four items.
    """
    if len(color) == 3:
        return "rgb({},{},{})".format(*color)
    if len(color) == 4:
        r, g, b, a = color
        return f"rgba({r},{g},{b},{a / 255:.3f})"
    raise ValueError(f"a colour needs 3 or 4 channels, got {color!r}")


def css_font(size: float, bold: bool) -> str:
    """Return the CSS ``font`` shorthand for text ``size`` pixels high.

    Args:
        size: the font size in CSS pixels.
        bold: whether to use the bold weight.

    Returns:
        A string such as ``'bold 18px sans-serif'`` using the local system fonts only.
    """
    weight = "bold " if bold else ""
    return f"{weight}{size:g}px {FONT_FAMILY}"


NewSurface = Callable[[], Any]
# The context methods used, looked up once: through Pyodide, fetching a method of a JS
# object costs more than calling it, and a frame makes hundreds of calls.
CONTEXT_METHODS = ("beginPath", "moveTo", "lineTo", "arc", "arcTo", "closePath", "fill",
                   "stroke", "fillRect", "fillText", "measureText", "setTransform",
                   "drawImage")


class HtmlCanvas:
    """A ``Canvas`` drawing on a 2D context; ``width``/``height`` are in CSS pixels.

    ``layer`` keeps its picture in an off-screen canvas made by ``new_surface`` (e.g.
    ``document.createElement('canvas')``) and copies it back while its key holds.
    """

    def __init__(self, ctx: Any, width: int, height: int, scale: float = 1.0,
                 new_surface: NewSurface | None = None) -> None:
        """Wrap ``ctx`` for a surface of ``width`` x ``height`` CSS pixels.

        Args:
            ctx: a CanvasRenderingContext2D (or a stand-in with its methods).
            width: the surface width in CSS pixels.
            height: the surface height in CSS pixels.
            scale: device pixels per CSS pixel of the backing store.
            new_surface: makes an off-screen canvas element for ``layer``; without it,
                layers are painted afresh every time.
        """
        self.ctx = ctx
        self.call = SimpleNamespace(**{name: getattr(ctx, name) for name in CONTEXT_METHODS})
        self.new_surface = new_surface
        self._colors: dict[Color, str] = {}
        self._layer: tuple[Hashable, Any] | None = None  # (key with size, off-screen canvas)
        self.resize(width, height, scale)

    def resize(self, width: int, height: int, scale: float) -> None:
        """Adopt a new size and pixel ratio after the backing store was resized.

        Resizing a canvas element resets its context state, so the transform is set
        again and the remembered styles are forgotten.

        Args:
            width: the new width in CSS pixels.
            height: the new height in CSS pixels.
            scale: device pixels per CSS pixel.
        """
        self.width, self.height, self.scale = width, height, scale
        self.call.setTransform(scale, 0, 0, scale, 0, 0)
        self._state: dict[str, object] = {}  # context property -> value last set

    def _set(self, name: str, value: object) -> None:
        """Set the context property ``name`` to ``value`` unless it already has it."""
        if self._state.get(name) != value:
            setattr(self.ctx, name, value)
            self._state[name] = value

    def _color(self, color: Color) -> str:
        """Return the CSS string for ``color``, converting each colour only once."""
        css = self._colors.get(color)
        if css is None:
            css = self._colors[color] = css_color(color)
        return css

    def _paint(self, color: Color, width: float) -> None:
        """Fill the current path when ``width`` is 0, else stroke it ``width`` thick."""
        if width:
            self._set("strokeStyle", self._color(color))
            self._set("lineWidth", width)
            self.call.stroke()
        else:
            self._set("fillStyle", self._color(color))
            self.call.fill()

    def clear(self, color: Color) -> None:
        """Fill the whole surface with ``color``."""
        self._set("fillStyle", self._color(color))
        self.call.fillRect(0, 0, self.width, self.height)

    def rect(self, x: float, y: float, w: float, h: float, color: Color,
             radius: float = 0, width: float = 0) -> None:
        """Draw a rectangle (rounded by ``radius``); ``width`` 0 fills, else outlines."""
        if w <= 0 or h <= 0:
            return
        if 2 * width >= min(w, h):  # the outline covers the whole rectangle
            width = 0
        inset = width / 2
        x, y, w, h = x + inset, y + inset, w - width, h - width
        r = max(0.0, min(radius - inset, w / 2, h / 2))
        call = self.call
        call.beginPath()
        call.moveTo(x + r, y)
        call.arcTo(x + w, y, x + w, y + h, r)
        call.arcTo(x + w, y + h, x, y + h, r)
        call.arcTo(x, y + h, x, y, r)
        call.arcTo(x, y, x + w, y, r)
        call.closePath()
        self._paint(color, width)

    def circle(self, x: float, y: float, r: float, color: Color, width: float = 0) -> None:
        """Draw a circle centred on (x, y); ``width`` 0 fills, else outlines."""
        if r <= 0:
            return
        if width >= r:  # the outline covers the whole disc
            width = 0
        call = self.call
        call.beginPath()
        call.arc(x, y, r - width / 2, 0, TAU)
        self._paint(color, width)

    def line(self, x1: float, y1: float, x2: float, y2: float, color: Color,
             width: float = 1) -> None:
        """Draw a straight line segment ``width`` pixels thick."""
        call = self.call
        call.beginPath()
        call.moveTo(x1, y1)
        call.lineTo(x2, y2)
        self._paint(color, max(width, MIN_LINE))

    def polygon(self, points: list[Point], color: Color, width: float = 0) -> None:
        """Draw a closed polygon; ``width`` 0 fills, else outlines."""
        if len(points) < 2:
            return
        call = self.call
        call.beginPath()
        (x0, y0), *rest = points
        call.moveTo(x0, y0)
        for x, y in rest:
            call.lineTo(x, y)
        call.closePath()
        self._paint(color, width)

    def text(self, s: str, x: float, y: float, size: float, color: Color,
             anchor: str = "center", bold: bool = False) -> None:
        """Draw one line of text ``size`` pixels high anchored at (x, y).

        ``anchor`` is one of 'center', 'left', 'right', 'topleft' (see ``ui.kit.canvas``);
        raises ValueError for any other. What is drawn is ``drawable(s)``, as on the
        desktop, so a control character shows the same in both (the browser would draw
        it as nothing).
        """
        if anchor not in ANCHORS:
            raise ValueError(f"unknown text anchor {anchor!r}; use one of {sorted(ANCHORS)}")
        align, baseline = ANCHORS[anchor]
        self._set("font", css_font(size, bold))
        self._set("textAlign", align)
        self._set("textBaseline", baseline)
        self._set("fillStyle", self._color(color))
        self.call.fillText(drawable(s), x, y)

    def text_width(self, s: str, size: float, bold: bool = False) -> float:
        """Return the width in pixels ``s`` would take when drawn at ``size`` (as
        ``drawable(s)``, which is what ``text`` draws)."""
        self._set("font", css_font(size, bold))
        return float(self.call.measureText(drawable(s)).width)

    def layer(self, key: Hashable, paint: Callable[[Canvas], None]) -> None:
        """Paint the whole surface as ``paint`` would, reusing the picture kept for ``key``.

        The picture is kept at device resolution, so copying it back is exact.
        """
        if self.new_surface is None:
            paint(self)
            return
        wanted = (key, self.width, self.height, self.scale)
        if self._layer is None or self._layer[0] != wanted:
            surface = self._layer[1] if self._layer is not None else self.new_surface()
            surface.width = round(self.width * self.scale)
            surface.height = round(self.height * self.scale)
            paint(HtmlCanvas(surface.getContext("2d"), self.width, self.height, self.scale))
            self._layer = (wanted, surface)
        call = self.call
        call.setTransform(1, 0, 0, 1, 0, 0)
        call.drawImage(self._layer[1], 0, 0)
        call.setTransform(self.scale, 0, 0, self.scale, 0, 0)
