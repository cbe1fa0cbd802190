"""The game record: every position from the start, a cursor, undo and redo.

``positions[0]`` is the start and ``positions[cursor]`` the position on the board.
Undo and redo move the cursor; playing a move after an undo drops the undone future,
unless it is the very move the record continues with (then it is kept, as by a redo).
A record may start with a future already (a recorded game to step through).
Undo and redo take a ``stop`` test so a mode can say where to stop: a human-vs-computer
game undoes back to the human's previous turn (taking the computer's reply back too)
and skips forced passes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from oska_gui.core.types import Position

StopTest = Callable[[Position], bool]


class History:
    """Positions of one game with a cursor for undo and redo."""

    def __init__(self, start: Position, future: Sequence[Position] = ()) -> None:
        """Start a record at ``start``, followed by the positions ``future`` to redo."""
        self.positions: list[Position] = [start, *future]
        self.cursor = 0

    @classmethod
    def at(cls, positions: Sequence[Position], cursor: int) -> History:
        """Return a record of ``positions`` with the board at ``positions[cursor]`` (the
        rest ready to redo), as a resumed game left it."""
        history = cls(positions[0], positions[1:])
        history.cursor = cursor
        return history

    @property
    def current(self) -> Position:
        """Return the position at the cursor (the one on the board)."""
        return self.positions[self.cursor]

    @property
    def previous(self) -> Position | None:
        """Return the position before the current one, or None at the start."""
        return self.positions[self.cursor - 1] if self.cursor else None

    @property
    def plies(self) -> int:
        """Return the number of plies played up to the cursor."""
        return self.cursor

    def push(self, child: Position) -> bool:
        """Play the move leading to ``child`` and advance.

        If the record goes on with ``child`` the rest of it is kept; otherwise the
        redo future is dropped.

        Returns:
            True when the rest was kept (the move was the one the record goes on with).
        """
        kept = self.positions[self.cursor + 1:self.cursor + 2] == [child]
        if not kept:
            del self.positions[self.cursor + 1:]
            self.positions.append(child)
        self.cursor += 1
        return kept

    def undo_target(self, stop: StopTest) -> int | None:
        """Return the latest earlier index whose position passes ``stop``, or None."""
        for index in range(self.cursor - 1, -1, -1):
            if stop(self.positions[index]):
                return index
        return None

    def redo_target(self, stop: StopTest) -> int | None:
        """Return the next later index passing ``stop`` (or the last index), or None."""
        last = len(self.positions) - 1
        for index in range(self.cursor + 1, last + 1):
            if stop(self.positions[index]) or index == last:
                return index
        return None

    def can_undo(self, stop: StopTest) -> bool:
        """Return True when ``undo(stop)`` would move the cursor."""
        return self.undo_target(stop) is not None

    def can_redo(self, stop: StopTest) -> bool:
        """Return True when ``redo(stop)`` would move the cursor."""
        return self.redo_target(stop) is not None

    def undo(self, stop: StopTest) -> bool:
        """Move the cursor back to the latest earlier position passing ``stop``.

        Returns True if it moved, False when there is no such position.
        """
        return self._go(self.undo_target(stop))

    def redo(self, stop: StopTest) -> bool:
        """Move the cursor forward to the next position passing ``stop`` (or the end).

        Returns True if it moved, False when there is nothing to redo.
        """
        return self._go(self.redo_target(stop))

    def _go(self, target: int | None) -> bool:
        """Put the cursor on ``target`` if there is one; return whether it moved."""
        if target is None:
            return False
        self.cursor = target
        return True

    def pairs(self) -> list[tuple[Position, Position]]:
        """Return (before, after) for every ply recorded, redo future included."""
        return list(zip(self.positions, self.positions[1:], strict=False))
