"""Exact knowledge of the race once the armies have passed each other.

When every White piece stands on or below the row of every Black piece, no capture and
no block between the two sides is possible any more: each side only has to bring its own
pieces home, and the game is decided by arithmetic. Every step moves a piece one row, so
a side needs exactly as many moves as its pieces have rows to go, provided each piece
still has a free home cell it can reach. A piece can be walled in for good by its own
home pieces (they never move again): then the side can never finish, and once its other
pieces are home it must pass. Pieces that are not home never block each other for good:
the frontmost one always has a clear way, so a side that can finish has a move at every
turn until it does.

Hence, with ``t`` the moves a side needs (None if it can never finish), the side to move
wins iff ``t_mover <= t_other`` (it moves first), in ``2 * t_mover - 1`` plies; it loses
in ``2 * t_other`` plies otherwise; and when neither side can finish, both end up
passing and the game is a deadlock draw.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from oska_gui.core.types import BLACK, WHITE, pieces
from oska_gui.games.oska import OskaRules

MEMO_LIMIT = 1 << 16  # answers kept per board size; the memo starts again when full


class Verdict(NamedTuple):
    """The exact end of a race: +1/0/-1 for the side to move and the plies it lasts.

    A draw's plies are 0: how long a deadlock takes to arrive is not worked out.
    """

    result: int
    plies: int


class Race:
    """Per-n tables for deciding races exactly: which home cells each cell can reach."""

    def __init__(self, rules: OskaRules) -> None:
        """Build, for both sides, the home cells reachable from every cell by steps."""
        self.rules = rules
        self.reach = (self._reach_table(WHITE), self._reach_table(BLACK))
        # can_finish answers by (side, pieces): searches meet the same armies again and again
        self._finishes: dict[tuple[int, int], bool] = {}

    def _reach_table(self, side: int) -> tuple[int, ...]:
        """Return, per cell, the bitboard of ``side``'s home cells that steps can reach."""
        rules = self.rules
        reach = [0] * rules.size
        by_distance = sorted(range(rules.size), key=lambda cell: rules.rows_to_go[side][cell])
        for cell in by_distance:  # nearest first, so every step target is already known
            if rules.goal[side] >> cell & 1:
                reach[cell] = 1 << cell
            else:
                for target in rules.steps[side][cell]:
                    reach[cell] |= reach[target.bit_length() - 1]
        return tuple(reach)

    def can_finish(self, side: int, own: int) -> bool:
        """Return True when every piece of ``own`` can still reach a home cell of its own.

        Only ``side``'s own home pieces stand in the way (no contact with the other
        side): the pieces not yet home need distinct free home cells within reach, a
        bipartite matching, which exists unless some group of them shares too few cells.
        """
        known = self._finishes.get((side, own))
        if known is None:
            if len(self._finishes) >= MEMO_LIMIT:
                self._finishes.clear()
            known = self._finishes[side, own] = self._matchable(side, own)
        return known

    def _matchable(self, side: int, own: int) -> bool:
        """Return True when ``own``'s pieces not home can each have a free home cell."""
        goal = self.rules.goal[side]
        free = goal & ~own
        reach = self.reach[side]
        cones = [reach[cell] & free for cell in pieces(own & ~goal)]
        if min(map(int.bit_count, cones), default=len(cones)) >= len(cones):
            return True  # every piece sees at least as many cells as there are pieces
        return _perfect_matching(cones)

    def verdict(self, pos: tuple[int, int, int], to_go: tuple[int, int]) -> Verdict:
        """Return the exact end of the race in a position without contact.

        Args:
            pos: (white, black, turn) with every White piece on or below every Black
                piece's row and the game not over.
            to_go: the rows White's and Black's pieces still have to go, in all.

        Returns:
            The result for the side to move and the plies to the end with best play.
        """
        white, black, turn = pos
        need = [to_go[WHITE] if self.can_finish(WHITE, white) else None,
                to_go[BLACK] if self.can_finish(BLACK, black) else None]
        mine, theirs = need[turn], need[1 - turn]
        if mine is not None and (theirs is None or mine <= theirs):
            return Verdict(1, 2 * mine - 1)
        if theirs is not None:
            return Verdict(-1, 2 * theirs)
        return Verdict(0, 0)


def _perfect_matching(cones: list[int]) -> bool:
    """Return True when each cone (a bitboard of cells) can be given a cell of its own.

    Kuhn's augmenting paths; the sets are tiny (at most n pieces and n cells).
    """
    owner: dict[int, int] = {}  # cell bit -> index of the cone holding it

    def place(i: int, tried: set[int]) -> bool:
        """Try to give cone ``i`` a cell, moving earlier owners along if needed."""
        for cell in pieces(cones[i]):
            if cell in tried:
                continue
            tried.add(cell)
            if cell not in owner or place(owner[cell], tried):
                owner[cell] = i
                return True
        return False

    return all(place(i, set()) for i in range(len(cones)))


@cache
def race_tables(rules: OskaRules) -> Race:
    """Return the shared ``Race`` tables of ``rules``' board size (built once per n)."""
    return Race(rules)
