"""The vocabulary every game of the project shares, defined once, and the rules contract.

Oska and the pawn games (``oska.py``, ``pawns.py``) use the same position and move
types: a ``Position`` is two bitboards (bit i for cell i) and the side to move, a
``Move`` names cells by index. ``Outcome`` says who won and why, with a ``Termination``
for programs and a sentence for people. ``Rules`` is what the UI, the search, the
solver and the spec functions ask of a game's rules object; both rules classes have it.
This module imports nothing of the project, so any module may use it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from enum import StrEnum
from typing import NamedTuple, Protocol

WHITE, BLACK = 0, 1
SIDE_NAMES = ("White", "Black")
SIDE_LETTERS = ("w", "b")
SIDE_WORDS = ("white", "black")


class Position(NamedTuple):
    """A position: white and black bitboards and the side to move (WHITE or BLACK)."""

    white: int
    black: int
    turn: int


class Move(NamedTuple):
    """A move as cell indices: ``over`` is the captured cell or -1; a pass is all -1."""

    frm: int
    to: int
    over: int = -1

    @property
    def is_pass(self) -> bool:
        """Return True for the pass move (the side to move had no legal move)."""
        return self.frm < 0

    @property
    def is_capture(self) -> bool:
        """Return True when the move jumps over and removes an opponent piece."""
        return self.over >= 0


PASS = Move(-1, -1, -1)


class Termination(StrEnum):
    """Why a game ended, for programs (``Outcome.reason`` says it for people).

    A StrEnum: its values are what game records store (``play.records``).
    """

    CAPTURED = "captured"  # a side has no piece left
    HOME = "home"  # a side's pieces (Oska: all remaining; Hexapawn: one) reached the far row
    BOTH_HOME = "both home"  # Oska: both sides home, the one with more pieces wins
    DEADLOCK = "deadlock"  # Oska: neither side can move, a draw
    NO_MOVE = "no move"  # Hexapawn: the side to move cannot move and loses
    FORFEIT = "forfeit"  # a player broke the rules or failed to answer


class Outcome(NamedTuple):
    """The end of a game: ``winner`` is WHITE, BLACK or None for a draw."""

    winner: int | None
    reason: str
    termination: Termination

    def describe(self) -> str:
        """Return a sentence for people, e.g. 'White wins: all black pieces captured'."""
        if self.winner is None:
            return f"Draw: {self.reason}"
        return f"{SIDE_NAMES[self.winner]} wins: {self.reason}"


# A static evaluator: a position's score for the side to move (see ``search``).
Evaluator = Callable[[Position], int]


def pieces(mask: int) -> list[int]:
    """Return the cells (indices of the set bits) of bitboard ``mask``, lowest first.

    Args:
        mask: a bitboard.

    Returns:
        The cell indices, ascending.
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Rules(Hashable, Protocol):
    """The rules of one game on one board size, as the UI, search, solver and spec use them.

    ``oska.OskaRules`` and ``pawns.PawnRules`` implement it. Cells are numbered in
    reading order; ``cells[i]`` is cell i's (row, column). A rules object is hashable, so
    tables built for it (evaluators, solvers) can be cached per rules object.
    """

    @property
    def game(self) -> str:
        """Return the game's key in the registry ('oska', 'hexapawn': a ``GameKind`` value)."""

    @property
    def n(self) -> int:
        """Return the board size."""

    @property
    def size(self) -> int:
        """Return the number of cells."""

    @property
    def cells(self) -> tuple[tuple[int, int], ...]:
        """Return each cell's (row, column)."""

    @property
    def rows_to_go(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Return, per side and cell, how many rows a piece there still has to travel."""

    @property
    def stuck_result(self) -> int:
        """Return the result for a side to move without a legal move (0 draw, -1 loss)."""

    def start(self) -> Position:
        """Return the starting position."""

    def children(self, pos: Position) -> list[Position]:
        """Return the positions after each legal move (a forced pass included)."""

    def has_move(self, pos: Position) -> bool:
        """Return True when the side to move has a legal move."""

    def terminal(self, pos: Position) -> int | None:
        """Return +1/-1/0 (won/lost/draw for the side to move) if over, else None."""

    def outcome(self, pos: Position) -> Outcome | None:
        """Return how the game ended in ``pos``, or None while it goes on."""

    def move_between(self, before: Position, after: Position) -> Move:
        """Return the move that turns ``before`` into its child ``after``."""

    def cell_name(self, cell: int) -> str:
        """Return the notation name of ``cell``."""

    def move_text(self, move: Move) -> str:
        """Return the notation of ``move``."""

    def moves(self, pos: Position) -> list[Move]:
        """Return the legal moves of the side to move (``[PASS]`` if it must pass)."""

    def parse_move(self, text: str, pos: Position) -> Move:
        """Return the legal move written ``text`` in ``pos``; ValueError saying why if none."""

    def play(self, pos: Position, move: Move) -> Position:
        """Return the position after ``move`` in ``pos``; ValueError if it is not legal."""

    def picture(self, pos: Position) -> str:
        """Return a small text picture of the board of ``pos``, one line per row."""

    def to_rows(self, pos: Position) -> list[str]:
        """Return ``pos`` as the spec's row strings over 'w', 'b', '-'."""

    def from_rows(self, rows: list[str], turn: int) -> Position:
        """Return the position of row strings ``rows`` with ``turn`` to move."""
