"""Small drawing helpers shared by the scenes: buttons, cards, wrapped text, spinner.

Text keeps the size of its role (``typescale``): a text too wide for its place is
wrapped at spaces, or a shorter wording of it is used (``Wording``). A text is laid out
as the canvas draws it (``drawable``: escaped, and cut when very long), so a bot's error
of megabytes costs no more to wrap than a short one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from oska_gui.core.text import drawable

from . import theme
from .canvas import Canvas, Color
from .rect import Rect
from .typescale import LINE

Wording = str | Sequence[str]  # one text, or its wordings from the longest to the shortest

BUTTON_PAD = 10  # pixels of a button's width kept free around its label


def break_line(canvas: Canvas, text: str, max_width: float, size: float,
               bold: bool = False) -> tuple[str, str]:
    """Split ``text`` at a space into the longest first line that fits ``max_width`` at
    ``size`` (at least one word) and the rest ('' when all of it fits)."""
    words = text.split(" ")
    count = 1
    while count < len(words) and canvas.text_width(" ".join(words[:count + 1]), size,
                                                   bold) <= max_width:
        count += 1
    return " ".join(words[:count]), " ".join(words[count:])


def wrap(canvas: Canvas, text: str, max_width: float, size: float,
         bold: bool = False) -> list[str]:
    """Return ``text`` broken at spaces into lines at most ``max_width`` wide at ``size``
    (a single word wider than that keeps a line of its own); ``text`` is taken as
    ``drawable(text)``, which the lines then are pieces of."""
    lines, rest = [], drawable(text)
    while rest:
        first, rest = break_line(canvas, rest, max_width, size, bold)
        lines.append(first)
    return lines or [""]


def texts_of(wording: Wording) -> tuple[str, ...]:
    """Return the texts of ``wording``, the longest first (one for a plain text)."""
    return (wording,) if isinstance(wording, str) else tuple(wording)


def fitting(canvas: Canvas, wording: Wording, max_width: float, size: float,
            bold: bool = False) -> str | None:
    """Return the first (the longest) of ``wording``'s texts that fits on one line
    ``max_width`` wide at ``size``, or None when none does."""
    return next((text for text in texts_of(wording)
                 if canvas.text_width(text, size, bold) <= max_width), None)


def fit_lines(canvas: Canvas, wording: Wording, max_width: float, size: float,
              max_lines: int = 1, bold: bool = False) -> list[str]:
    """Return the lines to show ``wording`` in a box ``max_width`` wide at ``size``.

    The wordings are tried from the longest: the first that fits on one line wins,
    else the first that wraps into ``max_lines`` lines, else the shortest, wrapped.

    Args:
        canvas: measures the text.
        wording: the text, or its wordings from the longest to the shortest.
        max_width: the box's width in pixels.
        size: the text size.
        max_lines: how many lines the box holds.
        bold: whether the text is bold.

    Returns:
        The lines, top to bottom.
    """
    one_line = fitting(canvas, wording, max_width, size, bold)
    if one_line is not None:
        return [one_line]
    wrapped = [wrap(canvas, text, max_width, size, bold) for text in texts_of(wording)]
    return next((lines for lines in wrapped if len(lines) <= max_lines), wrapped[-1])


def keyed(wording: Wording, key: str, touch: bool) -> tuple[str, ...]:
    """Return ``wording``'s texts led by the longest with ``key`` as a hint for keyboard
    users, e.g. 'Undo  (U)'; just the texts after a touch or without a key."""
    texts = texts_of(wording)
    if not key or touch:
        return texts
    return (f"{texts[0]}  ({key})", *texts)


def text_lines(canvas: Canvas, lines: Sequence[str], x: float, y: float, size: float,
               color: Color, anchor: str = "center", bold: bool = False) -> None:
    """Draw ``lines`` one below the other, the block vertically centred on ``y``
    (``anchor`` 'center', 'left' or 'right' places each line horizontally at ``x``)."""
    top = y - (len(lines) - 1) * size * LINE / 2
    for i, line in enumerate(lines):
        canvas.text(line, x, top + i * size * LINE, size, color, anchor, bold)


def card(canvas: Canvas, rect: Rect, color: Color = theme.CARD, radius: float = 10) -> None:
    """Draw a rounded card with a faint edge."""
    if rect.w <= 0 or rect.h <= 0:
        return
    canvas.rect(rect.x, rect.y, rect.w, rect.h, color, radius)
    canvas.rect(rect.x, rect.y, rect.w, rect.h, theme.PANEL_EDGE, radius, 1)


def button(canvas: Canvas, rect: Rect, label: Wording, size: float, hover: bool = False,
           enabled: bool = True, active: bool = False) -> None:
    """Draw a push button.

    Args:
        canvas: where to draw.
        rect: the button's rectangle.
        label: its text, or its wordings from the longest to the shortest (the longest
            that fits is shown, wrapped onto a second line if the button is tall enough).
        size: the text size.
        hover: the pointer is over it.
        enabled: it can be used (else it is drawn dimmed).
        active: it is the chosen or main option (drawn in the accent colour).
    """
    if rect.w <= 0 or rect.h <= 0:
        return
    if not enabled:
        fill, ink = theme.BUTTON_DISABLED, theme.TEXT_FAINT
    elif active:
        fill = theme.BUTTON_ACTIVE_HOVER if hover else theme.BUTTON_ACTIVE
        ink = theme.TEXT_DARK
    else:
        fill, ink = (theme.BUTTON_HOVER if hover else theme.BUTTON), theme.TEXT
    radius = min(rect.h / 2, 8)
    canvas.rect(rect.x, rect.y + 2, rect.w, rect.h, (0, 0, 0, 60), radius)
    canvas.rect(rect.x, rect.y, rect.w, rect.h, fill, radius)
    if enabled:
        canvas.line(rect.x + radius, rect.y + 1, rect.right - radius, rect.y + 1,
                    (255, 255, 255, 40), 1)
    max_lines = max(1, int((rect.h - 4) / (size * LINE)))
    lines = fit_lines(canvas, label, rect.w - BUTTON_PAD, size, max_lines, active)
    text_lines(canvas, lines, *rect.center, size, ink, bold=active)


def spinner(canvas: Canvas, x: float, y: float, r: float, clock: float,
            color: Color = theme.SELECT) -> None:
    """Draw a ring of eight dots whose bright spot turns with ``clock`` (seconds)."""
    head = clock * 10
    for i in range(8):
        angle = i * math.pi / 4
        age = (head - i) % 8
        alpha = int(255 * max(0.15, 1 - age / 8))
        canvas.circle(x + r * math.cos(angle), y + r * math.sin(angle), max(1.0, r * 0.28),
                      (*color[:3], alpha))


def arrow(canvas: Canvas, start: tuple[float, float], end: tuple[float, float],
          width: float, color: Color) -> None:
    """Draw an arrow from ``start`` to ``end`` with a triangular head ``width``-scaled."""
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1)
    if length < 1:
        return
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    head = min(width * 3.2, length * 0.6)
    bx, by = x2 - ux * head, y2 - uy * head
    canvas.line(x1, y1, bx, by, color, width)
    px, py = -uy * head * 0.55, ux * head * 0.55
    canvas.polygon([(x2, y2), (bx + px, by + py), (bx - px, by - py)], color)
