"""Rectangles in pixels, and the small arithmetic that layouts do with them."""

from __future__ import annotations

from dataclasses import dataclass

from .canvas import Point


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
