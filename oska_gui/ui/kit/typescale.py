"""The type scale: one text size per role, derived from the window, never below 12 px.

Every text the UI draws takes the size of its role: ``title`` (a screen's or panel's
heading), ``body`` (status, help, option values), ``label`` (buttons, option names) or
``small`` (secondary notes, cell names, the move list). A text that does not fit its
place is wrapped or replaced by a shorter wording (``widgets``), never shrunk, so the
sizes stay even and readable. Sizes are in the front end's pixels: window pixels on
the desktop, CSS pixels in the browser.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rect import clamp

MIN_TEXT = 12.0  # the smallest text drawn anywhere
TOUCH_TARGET = 44.0  # the smallest side of anything a finger must hit
LINE = 1.3  # line height, in text sizes
CHAR_WIDTH = 0.62  # a generous average character width of the UI font, in text sizes


@dataclass(frozen=True)
class TypeScale:
    """The four text sizes of one window size, in pixels."""

    title: float
    body: float
    label: float
    small: float


def type_scale(width: float, height: float) -> TypeScale:
    """Return the type scale for a ``width`` x ``height`` window.

    The body size follows the window's short side (13 px on a phone or a small window,
    18 px from about 800 px up); the others follow the body, none below ``MIN_TEXT``.

    Args:
        width: the window width in pixels.
        height: the window height in pixels.

    Returns:
        The TypeScale.
    """
    short = min(width, height)
    body = clamp(short * 0.0225, 13, 18)
    return TypeScale(title=clamp(short * 0.04, 20, 34), body=body,
                     label=clamp(body * 0.94, MIN_TEXT, 17),
                     small=clamp(body * 0.85, MIN_TEXT, 15))


def estimated_width(text: str, size: float) -> float:
    """Return a generous estimate of ``text``'s width at ``size``, for layouts made
    without a canvas to measure with (the drawing then fits the text exactly)."""
    return len(text) * size * CHAR_WIDTH
