"""Hexapawn behind the UI's ``GameAdapter``: the only game-specific class besides Oska's.

Cells are numbered row by row (cell = row * n + column), as the rules module does and as
the layout expects; notation uses the same scheme as Oska (row letter from the top,
column from 1), e.g. 'b2-c2' for a step and 'b2xc3' for a capture.
"""

from __future__ import annotations

from ..hexapawn import pawn_evaluator, pawn_rules
from ..oska import BLACK, SIDE_WORDS, WHITE, Outcome
from .games import Evaluator, GameAdapter, Position
from .layout import HEXAPAWN, check_board

EVALUATOR = "strong"  # the one pawn evaluator, under the name the settings know


class HexapawnGame(GameAdapter):
    """Hexapawn on an ``n`` x ``n`` board (see RULES.md)."""

    kind = HEXAPAWN
    perfect_sizes = (3, 4)  # the whole 4 x 4 game is about 20,000 positions

    def __init__(self, n: int) -> None:
        """Bind the Hexapawn rules for board size ``n``; raises ValueError if n < 3."""
        check_board(HEXAPAWN, n)
        self.n = n
        self.rules = pawn_rules(n)

    def outcome(self, pos: Position) -> Outcome | None:
        """Return the game's end: a pawn home, all pawns taken, or a side unable to move."""
        turn = pos[2]
        for side in (1 - turn, turn):  # the side that just moved is credited first
            reason = self._win_reason(pos, side)
            if reason is not None:
                return Outcome(side, reason)
        if not self.rules.has_move(pos):
            return Outcome(1 - turn, f"{SIDE_WORDS[turn]} cannot move")
        return None

    def _win_reason(self, pos: Position, side: int) -> str | None:
        """Return why ``side`` has won in ``pos`` (a pawn home, or no enemy left), or None."""
        if pos[side] & self.rules.goal[side]:
            return f"a {SIDE_WORDS[side]} pawn reached the far row"
        if not pos[1 - side]:
            return f"all {SIDE_WORDS[1 - side]} pawns captured"
        return None

    def cell_name(self, cell: int) -> str:
        """Return the cell's name: row letter from the top, column from 1 ('b2')."""
        row, col = divmod(cell, self.n)
        return f"{chr(ord('a') + row)}{col + 1}"

    def race_length(self, pos: Position) -> int:
        """Return the rows all pawns still have to travel to their far rows."""
        last = self.n - 1
        rows = [cell // self.n for cell in range(self.rules.size)]
        white = sum(last - rows[c] for c in range(self.rules.size) if pos[WHITE] >> c & 1)
        black = sum(rows[c] for c in range(self.rules.size) if pos[BLACK] >> c & 1)
        return white + black

    def evaluator_names(self) -> tuple[str, ...]:
        """Return the one Hexapawn evaluator's name."""
        return (EVALUATOR,)

    def evaluator(self, name: str) -> Evaluator:
        """Return the Hexapawn evaluator; raises ValueError for any other name."""
        if name != EVALUATOR:
            raise ValueError(f"unknown evaluator {name!r} for Hexapawn; use {EVALUATOR!r}")
        return pawn_evaluator(self.rules)
