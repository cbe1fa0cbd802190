"""Playing without a pointer: a cursor that the arrow keys move from cell to cell.

The arrows follow the board as it looks on screen. Left and Right step to the next cell
of the same row; Up and Down step to the row above or below, to the cell nearest the
cursor's screen x. On Oska's staggered rows the two cells below a cell are equally near;
the tie goes left between rows 0 and 1, right between rows 1 and 2, and so on (the other
way going up), so Down twice comes back to the cursor's own column and Up undoes Down.
A piece's targets are then reached the obvious way: as many Downs (or Ups) as rows to
go, then at most one Left or Right. Enter or Space does what a click on the cursor's
cell does.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..kit.canvas import Point

DIRECTIONS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
SAME = 1e-6  # screen coordinates this close (relative to the board's size) are equal


def _tolerance(centers: Sequence[Point]) -> float:
    """Return how close two screen coordinates of ``centers`` must be to count as equal."""
    return SAME * (1.0 + max((abs(v) for point in centers for v in point), default=0.0))


def rows_of(centers: Sequence[Point]) -> list[list[int]]:
    """Return the cells grouped into screen rows, top row first, each left to right.

    Args:
        centers: each cell's centre on screen, by cell index.

    Returns:
        The rows: lists of cell indices with the same screen y.
    """
    tolerance = _tolerance(centers)
    rows: list[list[int]] = []
    for cell in sorted(range(len(centers)), key=lambda c: (centers[c][1], centers[c][0])):
        if rows and abs(centers[rows[-1][0]][1] - centers[cell][1]) <= tolerance:
            rows[-1].append(cell)
        else:
            rows.append([cell])
    return rows


def neighbour(centers: Sequence[Point], cell: int, key: str) -> int:
    """Return the cell an arrow key moves the cursor to.

    Args:
        centers: each cell's centre on screen, by cell index.
        cell: the cell under the cursor.
        key: 'up', 'down', 'left' or 'right'.

    Returns:
        Left/Right: the next cell of the cursor's row that way. Up/Down: the cell of the
        adjacent row nearest the cursor's screen x (a tie broken as the module says).
        ``cell`` itself when there is no such cell (the board's edge).
    """
    dx, dy = DIRECTIONS[key]
    rows = rows_of(centers)
    row = next(index for index, cells in enumerate(rows) if cell in cells)
    if dx:
        cells = rows[row]
        position = cells.index(cell) + dx
        return cells[position] if 0 <= position < len(cells) else cell
    if not 0 <= row + dy < len(rows):
        return cell
    upper = min(row, row + dy)  # the two rows' boundary, numbered by the upper row
    lean = (-1 if upper % 2 == 0 else 1) * dy  # the side a tie goes to
    x0 = centers[cell][0]
    gaps = {other: abs(centers[other][0] - x0) for other in rows[row + dy]}
    nearest = min(gaps.values())
    tied = [other for other, gap in gaps.items() if gap - nearest <= _tolerance(centers)]
    return min(tied, key=lambda other: (centers[other][0] - x0) * -lean)
