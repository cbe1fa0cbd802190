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
    """Per-n tables for deciding races exactly: which home cells each cell can reach.

    The home cells a piece can ever reach by steps form a run of consecutive cells of
    its home row (``home_interval``; ``tests/test_race.py`` checks it on every board up
    to n = 12), so whether a side's pieces can all get home cells of their own is an
    interval matching, decided greedily (``unmatched``): cheap enough for every leaf.
    """

    def __init__(self, rules: OskaRules) -> None:
        """Build, for both sides, the home cells reachable from every cell by steps."""
        self.rules = rules
        self.reach = (self._reach_table(WHITE), self._reach_table(BLACK))
        # per side and k, the cells whose reach holds fewer than k home cells: with none
        # of those among its runners a side of k pieces gets every runner home (each
        # sees at least as many cells free as there are runners: Hall's condition)
        self.narrow = tuple(_narrow_cells(table, goal, rules.n)
                            for table, goal in zip(self.reach, rules.goal, strict=True))
        # ``unmatched`` answers by side and pieces: searches meet the same armies again
        # and again (the evaluator reads them here first, saving a call)
        self.memo: tuple[dict[int, int], dict[int, int]] = ({}, {})

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
        side): the pieces not yet home need distinct free home cells within reach.
        """
        return not self.unmatched(side, own)

    def unmatched(self, side: int, own: int) -> int:
        """Return how many of ``side``'s pieces ``own`` can never get a home cell of their own.

        Home pieces never move again (no capture reaches them either), so the others
        need distinct free home cells within reach; the answer is how many are left
        without one by a maximum matching. While the armies are in contact it is a
        bound: captures can only lower it (the other side's pieces are not counted).
        """
        if not own & self.narrow[side][own.bit_count()]:
            return 0
        memo = self.memo[side]
        known = memo.get(own)
        if known is None:
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            known = memo[own] = self._count_unmatched(side, own)
        return known

    def _count_unmatched(self, side: int, own: int) -> int:
        """Return ``unmatched`` computed: the greedy interval matching.

        Taking the pieces by the last home cell in reach, each gets the first free cell
        it can reach: for runs of consecutive cells this leaves as few pieces without a
        cell as any matching can.
        """
        goal = self.rules.goal[side]
        free = goal & ~own
        reach = self.reach[side]
        missing = 0
        # a run of cells as a bitboard: the larger, the further right it ends (the cells
        # of a row are numbered left to right), which is the greedy's order
        for cell in sorted(pieces(own & ~goal), key=reach.__getitem__):
            cone = reach[cell] & free
            if cone:
                free ^= cone & -cone
            else:
                missing += 1
        return missing

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


def _narrow_cells(reach: tuple[int, ...], goal: int, most: int) -> tuple[int, ...]:
    """Return, for k = 0 .. ``most``, the bitboard of the cells off the ``goal`` row whose
    ``reach`` (home cells, by cell) holds fewer than k cells."""
    by_width = [0] * (most + 1)
    for cell, cells in enumerate(reach):
        if not goal >> cell & 1:
            by_width[min(cells.bit_count(), most)] |= 1 << cell
    narrow = [0]
    for cells in by_width[:-1]:
        narrow.append(narrow[-1] | cells)
    return tuple(narrow)


@cache
def race_tables(rules: OskaRules) -> Race:
    """Return the shared ``Race`` tables of ``rules``' board size (built once per n)."""
    return Race(rules)
