"""How a human makes a move with the pointer: select, highlight, click or drag, feedback.

``MoveInput`` is a small state machine fed with pointer presses, moves and releases
already hit-tested to cells. Its answers are ``Play`` (a legal move was chosen, with the
drop point when it was dragged), ``Reject`` (an illegal click: a gentle message and the
cell to flash) or None (nothing to do: a selection changed, a drag goes on).

- Press on one of your pieces that can move: it is selected and its destinations are
  highlighted; keep the button down and move to drag it.
- Press on a highlighted destination: the selected piece moves there.
- Release a dragged piece on a destination: it moves; anywhere else: it goes back.
- Press the selected piece again (without dragging): it is deselected.
- Press off the board: deselects. Press elsewhere on the board: deselects and explains
  why nothing moved.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from oska_gui.core.types import SIDE_NAMES
from oska_gui.play.game import LegalMove

from ..kit.canvas import Point

DRAG_START = 6.0  # pixels the pointer must travel before a press becomes a drag


@dataclass(frozen=True)
class Play:
    """The human chose ``legal``; ``dropped_at`` is the drop pixel of a drag, else None."""

    legal: LegalMove
    dropped_at: Point | None = None


@dataclass(frozen=True)
class Reject:
    """An illegal click on ``cell`` (None: not on a cell) and a sentence saying why."""

    cell: int | None
    message: str


@dataclass
class _Press:
    """The press in progress: where it started and whether the piece was selected before."""

    cell: int
    x: float
    y: float
    was_selected: bool


class MoveInput:
    """Selection and drag state of the human's move input on the board."""

    def __init__(self) -> None:
        """Start with nothing selected and no press in progress."""
        self.selected: int | None = None
        self.dragging = False
        self.pointer: Point = (0.0, 0.0)
        self._press: _Press | None = None

    def reset(self) -> None:
        """Forget the selection and any press or drag (e.g. after a move or an undo)."""
        self.selected = None
        self.dragging = False
        self._press = None

    @staticmethod
    def targets(moves: list[LegalMove], cell: int | None) -> dict[int, LegalMove]:
        """Return destination cell -> legal move for the piece on ``cell``."""
        if cell is None:
            return {}
        return {legal.move.to: legal for legal in moves if legal.move.frm == cell}

    def press(self, cell: int | None, x: float, y: float, moves: list[LegalMove],
              piece: int | None, turn: int) -> Play | Reject | None:
        """Handle a pointer press at (x, y) on ``cell`` (None: off the board).

        Args:
            cell: the cell pressed, or None.
            x: the pointer's x in pixels.
            y: the pointer's y in pixels.
            moves: the legal moves of the side to move.
            piece: the side of the piece on ``cell`` (0, 1) or None if empty.
            turn: the side to move, whose pieces the human may pick.

        Returns:
            Play, Reject or None (see the module docstring).
        """
        self.pointer = (x, y)
        self._press = None
        self.dragging = False
        if cell is None:
            self.selected = None
            return None
        destinations = self.targets(moves, self.selected)
        if cell in destinations:
            self.selected = None
            return Play(destinations[cell])
        if piece == turn:
            if not self.targets(moves, cell):
                self.selected = None
                return Reject(cell, "That piece has no legal move")
            self._press = _Press(cell, x, y, self.selected == cell)
            self.selected = cell
            return None
        had_selection = self.selected is not None
        self.selected = None
        if piece is not None:
            return Reject(cell, f"That is a {SIDE_NAMES[piece].lower()} piece: "
                                f"{SIDE_NAMES[turn]} is to move")
        if had_selection:
            return Reject(cell, "That piece cannot go there")
        return Reject(cell, f"Pick one of the {SIDE_NAMES[turn].lower()} pieces to move")

    def move(self, x: float, y: float) -> None:
        """Handle the pointer moving to (x, y): a press that travels far enough drags."""
        self.pointer = (x, y)
        press = self._press
        if press is not None and not self.dragging:
            self.dragging = math.hypot(x - press.x, y - press.y) >= DRAG_START

    def release(self, cell: int | None, x: float, y: float,
                moves: list[LegalMove]) -> Play | Reject | None:
        """Handle the pointer release at (x, y) on ``cell`` (None: off the board).

        Returns Play when a dragged piece is dropped on a destination, Reject when it
        is dropped on a cell it cannot reach, None otherwise.
        """
        self.pointer = (x, y)
        press, self._press = self._press, None
        if press is None:
            return None
        if self.dragging:
            self.dragging = False
            destinations = self.targets(moves, press.cell)
            if cell in destinations:
                self.selected = None
                return Play(destinations[cell], (x, y))
            if cell is None or cell == press.cell:
                return None
            return Reject(cell, "That piece cannot go there")
        if press.was_selected and cell == press.cell:
            self.selected = None
        return None

    @property
    def dragged_cell(self) -> int | None:
        """Return the cell of the piece being dragged, or None when not dragging."""
        return self._press.cell if self.dragging and self._press is not None else None
