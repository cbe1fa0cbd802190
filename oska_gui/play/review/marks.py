"""Marks for the moves played, and each side's accuracy.

**Where the exact value is known** (the solver covers the position), the move played
is compared with the best move's perfect-play value (``solver.Solution``):

- ``blunder``: it turns a win into a draw or a loss, or a draw into a loss;
- ``inaccuracy``: it keeps the win, but the win takes more than ``SLOW_WIN_PLIES``
  plies longer than after the best move;
- ``best``: it keeps the best move's exact value (the same result in as many plies);
- ``good``: anything else (a win up to ``SLOW_WIN_PLIES`` plies slower, a shorter draw,
  a faster loss in a lost position).

**Elsewhere**, by the drop in win chance (``chances``) for the side that moved, in
percentage points: the position's chance before the move minus the chance after it
(one minus the opponent's); the move the search found best is ``best`` with no drop.
Otherwise a drop of ``INACCURACY`` (10) points or more is an inaccuracy,
``MISTAKE`` (20) a mistake, ``BLUNDER`` (30) a blunder, less is ``good``.

**Accuracy** of a move, in per cent, from its drop d in points (lichess's curve):
``103.1668 * exp(-0.04354 * d) - 3.1669``, kept within 0..100, so no drop is 100 %
and a 30-point drop about 25 %; a side's accuracy is the mean over its moves. An exact
move's drop is the drop in exact chance (a win 100, a draw 50, a loss 0), so a blunder
there is 50 or 100 points.
"""

from __future__ import annotations

import math
from enum import StrEnum

from oska_gui.engine.solver import Solution

SLOW_WIN_PLIES = 4
INACCURACY, MISTAKE, BLUNDER = 10.0, 20.0, 30.0


class Mark(StrEnum):
    """How good the move played was, best first; the value is the word."""

    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def symbol(self) -> str:
        """Return the annotation symbol: '?!', '?' or '??' for the bad marks, else ''."""
        return SYMBOLS.get(self, "")

    @property
    def bad(self) -> bool:
        """Return True for an inaccuracy, a mistake or a blunder."""
        return self in SYMBOLS


SYMBOLS = {Mark.INACCURACY: "?!", Mark.MISTAKE: "?", Mark.BLUNDER: "??"}


def mark_by_drop(drop: float, best: bool) -> Mark:
    """Return the mark of a searched move.

    Args:
        drop: the win chance lost by the move, in percentage points.
        best: whether the move played is the search's best move.

    Returns:
        The mark (see the module text for the thresholds).
    """
    if best:
        return Mark.BEST
    if drop >= BLUNDER:
        return Mark.BLUNDER
    if drop >= MISTAKE:
        return Mark.MISTAKE
    if drop >= INACCURACY:
        return Mark.INACCURACY
    return Mark.GOOD


def mark_exact(best: Solution, played: Solution) -> Mark:
    """Return the mark of a move whose exact value is known.

    Args:
        best: the best move's perfect-play value, for the side that moved.
        played: the move played's value, for the same side.

    Returns:
        The mark (see the module text for the rule).
    """
    if played.result < best.result:
        return Mark.BLUNDER
    if played == best:
        return Mark.BEST
    if played.result == 1 and played.plies - best.plies > SLOW_WIN_PLIES:
        return Mark.INACCURACY
    return Mark.GOOD


def move_accuracy(drop: float) -> float:
    """Return a move's accuracy in per cent from its drop in win chance (points)."""
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * max(0.0, drop)) - 3.1669))
