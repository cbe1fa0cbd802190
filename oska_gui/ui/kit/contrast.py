"""WCAG 2 contrast between a text colour and its background.

The ratio runs from 1 (the same colour) to 21 (black on white); WCAG asks 4.5 for
normal text. A colour with an alpha channel is first laid over what it covers.
"""

from __future__ import annotations

from .canvas import Color

READABLE = 4.5  # WCAG 2 AA for normal-size text


def over(color: Color, backdrop: Color) -> Color:
    """Return the opaque colour seen when ``color`` (maybe translucent) covers ``backdrop``.

    Args:
        color: (r, g, b) or (r, g, b, a), 0-255.
        backdrop: an opaque (r, g, b) colour.

    Returns:
        The blended (r, g, b).
    """
    alpha = color[3] / 255 if len(color) > 3 else 1.0
    return tuple(round(c * alpha + b * (1 - alpha)) for c, b in zip(color[:3], backdrop[:3],
                                                                     strict=True))


def luminance(color: Color) -> float:
    """Return the WCAG relative luminance of an opaque colour (0 black to 1 white)."""
    def linear(channel: int) -> float:
        """Return one sRGB channel (0-255) on a linear scale."""
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in color[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(ink: Color, background: Color) -> float:
    """Return the WCAG contrast ratio of two opaque colours (1 to 21, order irrelevant)."""
    light, dark = sorted((luminance(ink), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)
