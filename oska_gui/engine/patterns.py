"""Pattern tables: a learned value for every way a few consecutive rows can be filled.

As in Logistello's evaluation, a model looks at the board through windows, each a
band of consecutive rows given as ``(first, rows)``: rows counted from the mover's home
row (0 is the mover's back row). Each cell of a window is empty, the mover's or the
other side's, so a window's contents is a base-3 number, its *index*: digit ``j``
belongs to the window's ``j``-th cell in reading order from the mover's side. A model
holds one table of values per window, and a position's pattern score is the sum of
its windows' table entries.

The mover's view turns the board half a circle when Black moves: rows counted from
Black's home, each read from Black's left (White's right). That is what swapping the
colours of a position does, so a position and its colour swap give the same indices,
and tables that give a window's mirror image the same value (``mirror``; training ties
them) keep the other symmetry: a mirrored position scores the same. (Seen from Black,
the board only flipped top to bottom would give the mirror images of these indices:
the same values in tied tables.) Read this way, a window's cells from Black's side are
its bits in reverse order, so windows of every size share one code table per side
(``reading_codes``), which is most of what the first move of a fresh process builds.

The tables' size grows as 3 to the cells of a window, so they are used only on small
boards (see ``learned``). A window lying inside another adds nothing the bigger table
could not hold: ``fold_contained`` adds its values into the bigger one's, so the
evaluator looks up fewer tables for the same score (n = 5: 5 lookups instead of 9).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import repeat
from operator import add

from oska_gui.core.types import BLACK, WHITE, Position
from oska_gui.games.oska import OskaRules

Window = tuple[int, int]  # (first row, rows), counted from the mover's home row
# how to read one window: (shift, mask, White's digits, Black's digits), see _slots
Slot = tuple[int, int, tuple[int, ...], tuple[int, ...]]


def bands(rules: OskaRules, rows: int, max_cells: int | None = None) -> tuple[Window, ...]:
    """Return every window of ``rows`` consecutive rows of ``rules``' board, top to bottom,
    or only those of at most ``max_cells`` cells."""
    lengths = rules.lengths
    return tuple((first, rows) for first in range(len(lengths) - rows + 1)
                 if max_cells is None or sum(lengths[first:first + rows]) <= max_cells)


def window_cells(rules: OskaRules, windows: tuple[Window, ...]) -> tuple[int, ...]:
    """Return how many cells each window has; raises ValueError if one of them does not
    fit on ``rules``' board."""
    count = len(rules.lengths)
    for first, rows in windows:
        if rows < 1 or first < 0 or first + rows > count:
            raise ValueError(f"window ({first}, {rows}) is not a band of rows 0..{count - 1}")
    return tuple(sum(rules.lengths[first:first + rows]) for first, rows in windows)


def window_sizes(rules: OskaRules, windows: tuple[Window, ...]) -> tuple[int, ...]:
    """Return how many indices each window has, 3 to the power of its cells (no tables
    built); raises ValueError if one of them does not fit on ``rules``' board."""
    return tuple(3 ** cells for cells in window_cells(rules, windows))


class PatternSpace:
    """Some windows of one board size, and how to find their indices in a position."""

    def __init__(self, rules: OskaRules, windows: tuple[Window, ...]) -> None:
        """Prepare ``windows`` on ``rules``' board; raises ValueError if one of them does
        not fit on the board."""
        self.rules = rules
        self.windows = windows
        self.cells = window_cells(rules, windows)
        self._side_slots: dict[int, tuple[Slot, ...]] = {}

    @property
    def slots(self) -> tuple[tuple[Slot, ...], tuple[Slot, ...]]:
        """How to read each window, for White to move and for Black (see ``side_slots``)."""
        return self.side_slots(WHITE), self.side_slots(BLACK)

    def side_slots(self, side: int) -> tuple[Slot, ...]:
        """Return how to read each window with ``side`` to move, built on first use: the
        first move of a fresh process needs one side's alone."""
        slots = self._side_slots.get(side)
        if slots is None:
            slots = self._side_slots[side] = self._slots(side)
        return slots

    def sizes(self) -> tuple[int, ...]:
        """Return how many indices each window has: 3 to the power of its cells."""
        return window_sizes(self.rules, self.windows)

    def indices(self, pos: Position) -> tuple[int, ...]:
        """Return the index of every window of ``pos`` in the view of its side to move."""
        white, black, turn = pos
        return tuple(white_code[white >> shift & mask] + black_code[black >> shift & mask]
                     for shift, mask, white_code, black_code in self.side_slots(turn))

    def mirror(self, window: int, index: int) -> int:
        """Return the index of window ``window`` filled as ``index``, mirrored left-right."""
        digits = [index // 3 ** j % 3 for j in range(self.cells[window])]
        mirrored, start = 0, 0
        first, rows = self.windows[window]
        for row in range(first, first + rows):  # the same lengths from either side
            length = self.rules.lengths[row]
            for x in range(length):
                mirrored += digits[start + length - 1 - x] * 3 ** (start + x)
            start += length
        return mirrored

    def _slots(self, side: int) -> tuple[Slot, ...]:
        """Return, for the mover ``side``, how to read each window from a bitboard.

        A window's cells are consecutive bits of a bitboard, read with ``shift`` and
        ``mask``: White reads them in bit order, Black in reverse (the board turned
        round). ``code[bits]`` is the base-3 number with a 1 at each set bit's digit in
        the mover's reading order; the mover's pieces count once and the other side's
        twice, so each colour gets its own table and the index is their sum.
        """
        rules = self.rules
        starts = [sum(rules.lengths[:r]) for r in range(len(rules.lengths) + 1)]
        widest = max(self.cells)
        once, twice = reading_codes(widest, side == BLACK)
        slots = []
        for (first, count), width in zip(self.windows, self.cells, strict=True):
            low = starts[first if side == WHITE else len(rules.lengths) - first - count]
            if side == WHITE:  # the codes of the first ``width`` bits
                white, black = once[:1 << width], twice[:1 << width]
            else:  # the codes of the top ``width`` bits, as if shifted up there
                step = 1 << (widest - width)
                white, black = twice[::step], once[::step]
            slots.append((low, (1 << width) - 1, white, black))
        return tuple(slots)


@cache
def reading_codes(width: int, reverse: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Return, for every set of ``width`` bits, the base-3 number with a 1 (and with a 2)
    at each set bit's digit: digit j for bit j, or with ``reverse`` digit width - 1 - j.

    These are the code tables of a ``width``-cell window (``PatternSpace._slots``);
    a narrower window's are a slice of them: its first entries in bit order, every
    2 ** (width - its width)-th in reverse.
    """
    code = [0]
    for bit in range(width):  # the codes with bit j set follow those without it
        code += list(map(add, code, repeat(3 ** (width - 1 - bit if reverse else bit))))
    return tuple(code), tuple(map(add, code, code))


@cache
def pattern_space(rules: OskaRules, windows: tuple[Window, ...]) -> PatternSpace:
    """Return the shared ``PatternSpace`` of ``windows`` on ``rules``' board."""
    return PatternSpace(rules, windows)



def fold_contained(rules: OskaRules, windows: tuple[Window, ...],
                   tables: tuple[Sequence[int], ...],
                   ) -> tuple[tuple[Window, ...], tuple[Sequence[int], ...]]:
    """Return the windows no other window contains, each table with the tables of the
    windows inside it added in: the same pattern score from fewer lookups.

    A window inside another (its rows among the other's) is read from a block of the
    other's digits: the rows come in the mover's order, so its index is the bigger
    index's digits from the first of its cells on. Of two equal windows the first stays.
    When no window lies inside another, ``windows`` and ``tables`` come back as they are.
    """
    lengths = rules.lengths

    def holds(big: Window, small: Window) -> bool:
        """Return True when window ``big`` covers every row of window ``small``."""
        return big[0] <= small[0] and small[0] + small[1] <= big[0] + big[1]

    kept = [i for i, window in enumerate(windows)
            if not any(holds(other, window) and (other != window or j < i)
                       for j, other in enumerate(windows) if j != i)]
    if len(kept) == len(windows):
        return windows, tables  # nothing to fold (as in the shipped models' files)
    folded = {i: list(tables[i]) for i in kept}
    for i, window in enumerate(windows):
        if i in folded:
            continue
        host = next(k for k in kept if holds(windows[k], window))
        below = 3 ** sum(lengths[windows[host][0]:window[0]])  # the digits before its cells
        # the value for every host index, values[index // below % len(values)], in C loops:
        # each value ``below`` times in a row, the whole run repeated to the host's size
        run = [value for value in tables[i] for _ in range(below)]
        repeats = len(folded[host]) // len(run)
        folded[host] = list(map(add, folded[host], run * repeats))
    return tuple(windows[i] for i in kept), tuple(tuple(folded[i]) for i in kept)
