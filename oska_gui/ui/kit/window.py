"""What every screen's layout starts from: the window's least size, its outer margin and
which way round it is (no pygame). The game screen's split and panel are in
``game.layout``, the start screen's menu in ``start.menu_layout``."""

from __future__ import annotations

from .rect import clamp

MIN_SIZE = 1


def margin(width: float, height: float) -> float:
    """Return the outer margin for a window of this size (bigger windows, more air)."""
    return clamp(min(width, height) * 0.03, 6, 24)


def is_portrait(width: float, height: float) -> bool:
    """Return True when the panel goes below the board (the window is taller than wide)."""
    return width < height
