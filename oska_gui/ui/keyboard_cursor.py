"""Playing without a pointer: a cursor that the arrow keys move from cell to cell.

The board's cells are not on a square grid (Oska's rows are offset and change length),
so an arrow moves the cursor to the nearest cell that lies in its direction, preferring
cells straight ahead over cells off to the side. Enter or Space then does what a click
on the cursor's cell does.
"""

from __future__ import annotations

from collections.abc import Sequence

from .canvas import Point

DIRECTIONS = {"up": (0.0, -1.0), "down": (0.0, 1.0), "left": (-1.0, 0.0), "right": (1.0, 0.0)}
SIDEWAYS_COST = 2.0  # how much a step off to the side counts against one straight ahead


def neighbour(centers: Sequence[Point], cell: int, key: str) -> int:
    """Return the cell an arrow key moves the cursor to.

    Args:
        centers: each cell's centre on screen, by cell index.
        cell: the cell under the cursor.
        key: 'up', 'down', 'left' or 'right'.

    Returns:
        The nearest cell in that direction (straight ahead counting less than sideways),
        or ``cell`` itself at the board's edge.
    """
    dx, dy = DIRECTIONS[key]
    x0, y0 = centers[cell]
    best, best_cost = cell, float("inf")
    for other, (x, y) in enumerate(centers):
        ahead = (x - x0) * dx + (y - y0) * dy
        if other == cell or ahead <= 1e-6:
            continue
        aside = abs((x - x0) * dy - (y - y0) * dx)
        if aside > 2 * ahead:  # more than about 63 degrees off: not in that direction
            continue
        cost = ahead + SIDEWAYS_COST * aside
        if cost < best_cost:
            best, best_cost = other, cost
    return best
