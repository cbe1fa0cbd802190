"""Oska rules for any board size n >= 4 (the rules are in docs/rules.md).

The board is an hourglass of 2n-3 rows of lengths n, n-1, ..., 2, ..., n-1, n.
Cells are numbered 0, 1, 2, ... in reading order (row by row from the top, left to
right within a row) and a set of cells is an integer bitboard with bit i for cell i.

A position is an immutable ``Position(white, black, turn)``: two bitboards and the side
to move (``WHITE`` = 0 moves down, ``BLACK`` = 1 moves up). Everything that depends on
n (neighbour tables, goal rows) lives in an ``OskaRules`` object, built once per n by
``oska_rules(n)``. Its ``children`` method is the hot path of the search: it returns the
positions reachable in one move, captures first, without building any move objects.
Moves for people (the UI, notation, logs) are recovered from a pair of positions.
"""

from __future__ import annotations

from functools import cache

from oska_gui.core.moves import PeopleMoves, bitboards, cells_text, check_size, split_rows

# The shared vocabulary keeps its old home here too: ``from oska_gui.games.oska import WHITE``.
from oska_gui.core.types import BLACK as BLACK
from oska_gui.core.types import PASS as PASS
from oska_gui.core.types import SIDE_LETTERS as SIDE_LETTERS
from oska_gui.core.types import SIDE_NAMES as SIDE_NAMES
from oska_gui.core.types import SIDE_WORDS as SIDE_WORDS
from oska_gui.core.types import WHITE as WHITE
from oska_gui.core.types import Move as Move
from oska_gui.core.types import Outcome as Outcome
from oska_gui.core.types import Position as Position
from oska_gui.core.types import Termination
from oska_gui.core.types import pieces as pieces

# The supported board sizes, everywhere (spec functions, records, command line). The
# rules work for any n >= 4, but the evaluators' grid tables take memory growing with
# n**4: about 70 MB at n = 24 and 210 MB at n = 32 (n = 100 ran out of 7.8 GB).
SIZES = range(4, 25)

_new_tuple = tuple.__new__


def check_n(n: int) -> int:
    """Return ``n`` if it is a supported Oska board size (in ``SIZES``); else ValueError."""
    return check_size("Oska", n, SIZES)


def row_lengths(n: int) -> tuple[int, ...]:
    """Return the lengths of the 2n-3 rows of the Oska board of size n (n >= 4)."""
    return tuple(n - r if r <= n - 2 else r - n + 4 for r in range(2 * n - 3))


class OskaRules(PeopleMoves):
    """Precomputed tables and the rules of Oska for one board size ``n``.

    Use ``oska_rules(n)`` rather than the constructor so that tables are shared.
    It is also the ``Game`` the search runs on (``children``, ``terminal``); cell names,
    notation and reading moves come from ``PeopleMoves``.
    """

    game = "oska"  # the game's key in the registry (``engine.registry.GameKind``)
    stuck_result = 0  # neither side can move: a deadlock draw

    def __init__(self, n: int) -> None:
        """Build the tables for board size ``n``; raises ValueError unless ``SIZES`` holds it."""
        self.n = check_n(n)
        self.lengths = row_lengths(n)
        self.cells: tuple[tuple[int, int], ...] = tuple(
            (r, c) for r, length in enumerate(self.lengths) for c in range(length)
        )
        self.size = len(self.cells)
        self.index = {rc: i for i, rc in enumerate(self.cells)}
        self.full = (1 << self.size) - 1
        last = len(self.lengths) - 1
        starts = [0]
        for length in self.lengths:
            starts.append(starts[-1] + length)
        self.row_starts = tuple(starts)  # each row's first cell, then the cell count
        self.row_masks = tuple(((1 << length) - 1) << start
                               for start, length in zip(starts, self.lengths, strict=False))
        # goal[side]: the opponent's back row, where that side's pieces want to be.
        self.goal = (self.row_masks[last], self.row_masks[0])
        self.not_goal = (self.full ^ self.goal[0], self.full ^ self.goal[1])
        self.start_position = Position(self.row_masks[0], self.row_masks[last], WHITE)
        # rows_to_go[side][cell]: rows still to travel to reach the goal row.
        self.rows_to_go = (
            tuple(last - r for r, _ in self.cells),
            tuple(r for r, _ in self.cells),
        )
        places = self._places()
        self.steps = (_step_table(places, +1), _step_table(places, -1))
        self.jumps = (_jump_table(places, +1), _jump_table(places, -1))
        # jumpable[side][cell]: the cells a jump from cell could capture on, all at once
        self.jumpable = tuple(
            tuple(sum(over for over, _ in pairs) for pairs in table) for table in self.jumps
        )

    # -- geometry -----------------------------------------------------------------

    def x_of(self, cell: int) -> int:
        """Return the doubled x-coordinate X = (n - L) + 2c of ``cell``."""
        r, c = self.cells[cell]
        return self.n - self.lengths[r] + 2 * c

    def cell_at(self, row: int, x: int) -> int | None:
        """Return the cell at row ``row`` and doubled x-coordinate ``x``, or None."""
        if not 0 <= row < len(self.lengths):
            return None
        offset = x - (self.n - self.lengths[row])
        if offset % 2 or not 0 <= offset // 2 < self.lengths[row]:
            return None
        return self.index[(row, offset // 2)]

    def _places(self) -> dict[tuple[int, int], int]:
        """Return the cell at each (row, doubled x-coordinate) of the board, in cell order."""
        n, lengths = self.n, self.lengths
        return {(r, n - lengths[r] + 2 * c): cell for cell, (r, c) in enumerate(self.cells)}

    # -- positions and moves -------------------------------------------------------

    def start(self) -> Position:
        """Return the starting position: full back rows, White to move."""
        return self.start_position

    def children(self, pos: Position) -> list[Position]:
        """Return every position reachable in one move, captures first.

        A side with no legal move passes (the only child is the same board with the
        other side to move), unless the other side cannot move either: then the list
        is empty and the game is a deadlock draw. Game-over positions are not special
        here: ask ``terminal`` or ``outcome`` first.
        """
        kids = self.real_children(pos)
        if kids:
            return kids
        flipped = _new_tuple(Position, (pos[0], pos[1], 1 - pos[2]))
        return [flipped] if self.real_children(flipped) else []

    def real_children(self, pos: Position) -> list[Position]:
        """Return the positions after each real move (no pass) of the side to move."""
        white, black, turn = pos
        own, opp = (white, black) if turn == WHITE else (black, white)
        empty = self.full ^ (white | black)
        steps, jumps, jumpable = self.steps[turn], self.jumps[turn], self.jumpable[turn]
        nxt = 1 - turn
        captures: list[Position] = []
        quiet: list[Position] = []
        pieces = own
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            cell = low.bit_length() - 1
            if opp & jumpable[cell]:  # most pieces have no opponent next to them
                for over, to in jumps[cell]:
                    if opp & over and empty & to:
                        o, p = own ^ low ^ to, opp ^ over
                        captures.append(
                            _new_tuple(Position, (o, p, nxt) if turn == WHITE else (p, o, nxt))
                        )
            for to in steps[cell]:
                if empty & to:
                    o = own ^ low ^ to
                    quiet.append(
                        _new_tuple(Position, (o, opp, nxt) if turn == WHITE else (opp, o, nxt))
                    )
        captures.extend(quiet)
        return captures

    def has_move(self, pos: Position) -> bool:
        """Return True when the side to move has a real (non-pass) move."""
        return bool(self.real_children(pos))

    # -- end of game ---------------------------------------------------------------

    def terminal(self, pos: Position) -> int | None:
        """Return the finished game's result for the side to move, or None if not over.

        +1 means the side to move has won, -1 lost, 0 a draw. This checks rules 1-3
        of the end of game (captured, both home, all home); a deadlock shows up as a
        position with no children.
        """
        white, black, turn = pos
        if not white or not black:
            if white == black:  # an empty board: nobody has a piece left to win with
                return 0
            return 1 if (turn == WHITE) == bool(white) else -1
        white_home = not white & self.not_goal[WHITE]
        black_home = not black & self.not_goal[BLACK]
        if white_home and black_home:
            diff = white.bit_count() - black.bit_count()
            if diff == 0:
                return 0
            return 1 if (diff > 0) == (turn == WHITE) else -1
        if white_home:
            return 1 if turn == WHITE else -1
        if black_home:
            return 1 if turn == BLACK else -1
        return None

    def outcome(self, pos: Position) -> Outcome | None:
        """Return the Outcome (winner and reason) of a finished game, else None."""
        white, black, _ = pos
        if white == black == 0:
            return Outcome(None, "no pieces left on either side", Termination.CAPTURED)
        if not white or not black:
            loser = BLACK if not black else WHITE
            return Outcome(1 - loser, f"all {SIDE_WORDS[loser]} pieces captured",
                           Termination.CAPTURED)
        white_home = not white & self.not_goal[WHITE]
        black_home = not black & self.not_goal[BLACK]
        if white_home and black_home:
            w, b = white.bit_count(), black.bit_count()
            if w == b:
                return Outcome(None, f"both sides home with {w} pieces each",
                               Termination.BOTH_HOME)
            return Outcome(WHITE if w > b else BLACK, f"both sides home, {w} to {b} pieces",
                           Termination.BOTH_HOME)
        if white_home or black_home:
            winner = WHITE if white_home else BLACK
            return Outcome(winner, f"all {SIDE_WORDS[winner]} pieces reached home",
                           Termination.HOME)
        if not self.children(pos):
            return Outcome(None, "deadlock, neither side can move", Termination.DEADLOCK)
        return None

    # -- text form -----------------------------------------------------------------

    def to_rows(self, pos: Position) -> list[str]:
        """Return the board as the spec's list of row strings over 'w', 'b', '-'."""
        return split_rows(cells_text(pos.white, pos.black, self.size), self.lengths)

    def from_rows(self, rows: list[str], turn: int) -> Position:
        """Return the position of well-formed row strings (see ``boards`` to validate)."""
        return Position(*bitboards("".join(rows)), turn)




def _step_table(places: dict[tuple[int, int], int],
                dr: int) -> tuple[tuple[int, ...], ...]:
    """Return, per cell, the bitboards of the cells a step in direction dr reaches.

    ``places`` is the cell at each (row, doubled x-coordinate), in cell order
    (``OskaRules._places``): made once for the four tables of a board size.
    """
    table = []
    for r, x in places:  # in cell order
        targets = (places.get((r + dr, x + dx)) for dx in (-1, 1))
        table.append(tuple(1 << t for t in targets if t is not None))
    return tuple(table)


def _jump_table(places: dict[tuple[int, int], int],
                dr: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Return, per cell, (over, to) bitboard pairs of the jumps in direction dr
    (``places`` as for ``_step_table``)."""
    table = []
    for r, x in places:  # in cell order
        pairs = []
        for dx in (-1, 1):
            over = places.get((r + dr, x + dx))
            to = places.get((r + 2 * dr, x + 2 * dx))
            if over is not None and to is not None:
                pairs.append((1 << over, 1 << to))
        table.append(tuple(pairs))
    return tuple(table)


@cache
def oska_rules(n: int) -> OskaRules:
    """Return the shared ``OskaRules`` for board size ``n`` (built once per n)."""
    return OskaRules(n)
