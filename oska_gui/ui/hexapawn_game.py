"""Hexapawn behind the UI's ``GameAdapter``: the only game-specific class besides Oska's.

The rules object (``pawns.PawnRules``) answers everything the adapter asks, with cells
numbered row by row (cell = row * n + column) as the layout expects and notation in the
same scheme as Oska (row letter from the top, column from 1), e.g. 'b2-c2' for a step
and 'b2xc3' for a capture. What is left here is the evaluator and the solver's reach.
"""

from __future__ import annotations

from oska_gui.games.pawns import pawn_evaluator, pawn_rules

from .games import Evaluator, GameAdapter
from .layout import HEXAPAWN, check_board

EVALUATOR = "strong"  # the one pawn evaluator, under the name the settings know


class HexapawnGame(GameAdapter):
    """Hexapawn on an ``n`` x ``n`` board (rules: README.md)."""

    kind = HEXAPAWN
    perfect_sizes = (3, 4)  # the whole 4 x 4 game is about 20,000 positions

    def __init__(self, n: int) -> None:
        """Bind the Hexapawn rules for board size ``n``; raises ValueError if n < 3."""
        check_board(HEXAPAWN, n)
        self.n = n
        self.rules = pawn_rules(n)

    def evaluator_names(self) -> tuple[str, ...]:
        """Return the one Hexapawn evaluator's name."""
        return (EVALUATOR,)

    def evaluator(self, name: str) -> Evaluator:
        """Return the Hexapawn evaluator; raises ValueError for any other name."""
        if name != EVALUATOR:
            raise ValueError(f"unknown evaluator {name!r} for Hexapawn; use {EVALUATOR!r}")
        return pawn_evaluator(self.rules)
