"""How a keyboard player walks the cursor: the fewest arrow keys between two cells.

Both front ends' key-only game tests (``test_desktop_speech``, ``test_browser``) find
their way over the board with it, as a player reading the screen would.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from oska_gui.ui.board.keyboard_cursor import DIRECTIONS, neighbour
from oska_gui.ui.kit.canvas import Point


def arrow_path(centers: Sequence[Point], start: int, goal: int) -> list[str]:
    """Return the fewest arrow keys ('up', 'down', 'left', 'right') that take the
    keyboard cursor from cell ``start`` to cell ``goal``.

    Args:
        centers: each cell's centre on screen, by cell index.
        start: the cursor's cell.
        goal: the cell to reach.

    Returns:
        The keys, in order (none when ``start`` is ``goal``).
    """
    paths: dict[int, list[str]] = {start: []}
    todo = deque([start])
    while todo:
        cell = todo.popleft()
        for key in DIRECTIONS:
            step = neighbour(centers, cell, key)
            if step not in paths:
                paths[step] = [*paths[cell], key]
                todo.append(step)
    return paths[goal]
