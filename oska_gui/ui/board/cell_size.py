"""What a player is told when a board's cells are too small for the way they play.

A large board in a small window (Oska n = 24 has 45 rows) can get cells a pointer no
longer hits surely, or too small for the cell names the player asked for. The game
screen then says so in its detail line, with the sizes and what helps, instead of
leaving the player to miss clicks or wonder where the names went.
"""

from __future__ import annotations

from ..kit.typescale import TOUCH_TARGET
from .board_geometry import BoardLayout
from .board_view import NAME_MIN_PITCH

MOUSE_CELL = 24.0  # the least cell pitch (a cell's width) in pixels a mouse hits surely
TOUCH_CELL = TOUCH_TARGET  # the least cell pitch a finger hits surely


def least_cell(touch: bool) -> float:
    """Return the least cell pitch in pixels that a finger (``touch``) or a mouse hits
    surely."""
    return TOUCH_CELL if touch else MOUSE_CELL


def small_cells_text(board: BoardLayout, cell_word: str, touch: bool,
                     names: bool = False) -> str:
    """Return what to tell a player whose cells on ``board`` are too small to hit
    surely (or, with ``names`` asked for, to show them), and what helps; '' when the
    cells are big enough.

    Args:
        board: the board as laid out in the window.
        cell_word: what a cell is called ('hole', 'square').
        touch: whether the player uses a finger (a mouse otherwise).
        names: whether the player asked for cell names.

    Returns:
        One sentence (size, least size, remedies), or ''.
    """
    least = least_cell(touch)
    pitch = f"{cell_word.title()}s {board.pitch:.0f} px"
    if board.pitch < least:
        size = f"{pitch}, a {'finger' if touch else 'mouse'} needs {least:.0f}"
        if touch:
            return f"{size}: play on a larger screen, or a smaller board"
        return f"{size}: enlarge the window, or use the arrows and Enter"
    if names and board.pitch < NAME_MIN_PITCH:
        return f"{pitch}, cell names need {NAME_MIN_PITCH:.0f}: enlarge the window to see them"
    return ""
