"""Bitboards redrawn on a grid where every Oska move is one shift, for fast evaluation.

The rules number cells in reading order, so a step is a different distance from every
row. ``GridLayout`` maps each cell to a grid bit such that every step, and every jump,
is the same shift everywhere on the board; the evaluators then compute their terms for
all pieces at once with a few big-integer shifts and masks.
"""

from __future__ import annotations

from functools import cache, cached_property
from itertools import repeat
from operator import add

from oska_gui.core.types import BLACK, WHITE
from oska_gui.games.oska import OskaRules

# table lookups per side: ceil(cells / CHUNK_BITS), each in a table of at most 256 entries;
# as fast to evaluate as 2048-entry tables (n = 5..8), and several times faster to build
CHUNK_BITS = 8
# per chunk of cells: its shift, its mask, White's table and Black's table
Chunks = tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...]


class GridLayout:
    """Per-n tables to redraw a bitboard on a grid where every move is one shift.

    Cell (row r, doubled x X) goes to bit ``r * width + (X + r) // 2``. On that grid a
    White step goes ``+width`` or ``+width + 1`` and a jump twice as far in a straight
    line; Black moves the same amounts the other way. The grid is one column wider
    than any row needs, so a shift off a row's edge lands on a bit that is never a
    cell. One table lookup per ``CHUNK_BITS`` cells converts a bitboard and, in bits
    above the grid, adds up the rows its pieces still have to go.
    """

    def __init__(self, rules: OskaRules) -> None:
        """Build the conversion tables and masks for ``rules``' board size."""
        rows = len(rules.lengths)
        self.width = 2 * rules.n - 1
        self.grid = [
            r * self.width + (rules.x_of(cell) + r) // 2 for cell, (r, _) in enumerate(rules.cells)
        ]
        # per row: its first cell, the mask of its length and its first grid bit (a row's
        # cells are consecutive grid bits, so ``spread`` moves a whole row at once)
        self._row_moves = tuple((start, (1 << length) - 1, self.grid[start])
                                for start, length in zip(rules.row_starts, rules.lengths,
                                                         strict=False))
        self.dist_shift = rows * self.width + 1
        self.grid_mask = (1 << self.dist_shift) - 1
        self.board = self.spread(rules.full)
        self.home = (self.spread(rules.goal[WHITE]), self.spread(rules.goal[BLACK]))
        self.next_to_home = (self.spread(rules.row_masks[rows - 2]),
                             self.spread(rules.row_masks[1]))
        self.row_grid = tuple(self.spread(mask) for mask in rules.row_masks)
        self.row_of = tuple(r for r, _ in rules.cells)
        starts = rules.row_starts
        self.from_row = starts[:-1]
        self.through_row = tuple((1 << end) - 1 for end in starts[1:])
        self._rules = rules

    @cached_property
    def chunks(self) -> Chunks:
        """The chunk tables converting a side's bitboard and summing its rows to go
        (built on first use: the learned evaluator has tables of its own)."""
        rules = self._rules
        return chunk_tables([
            [(1 << self.grid[cell]) + (rules.rows_to_go[side][cell] << self.dist_shift)
             for cell in range(rules.size)] for side in (WHITE, BLACK)])

    def rows_to_go(self, white: int, black: int) -> tuple[int, int]:
        """Return the rows White's and Black's pieces still have to go, in all."""
        acc_w = acc_b = 0
        for shift, mask, table_w, table_b in self.chunks:
            acc_w += table_w[white >> shift & mask]
            acc_b += table_b[black >> shift & mask]
        return acc_w >> self.dist_shift, acc_b >> self.dist_shift

    def spread(self, bits: int) -> int:
        """Return the grid form of the bitboard ``bits``."""
        return sum((bits >> start & mask) << first for start, mask, first in self._row_moves)


def chunk_tables(values: list[list[int]]) -> Chunks:
    """Return lookup tables that add up per-cell values, at most ``CHUNK_BITS`` cells at a time.

    The cells are split into as few chunks as ``CHUNK_BITS`` allows, of equal sizes
    give or take one, so no table is much bigger than it needs to be: building them is
    most of what a fresh process spends on its first move.

    Args:
        values: White's and Black's value of a piece on each cell (grid bit plus
            whatever fields above it the caller sums).

    Returns:
        Per chunk: its shift and bit mask, then White's and Black's table, indexed by
        the chunk's bits of a bitboard, holding the sum of those cells' values.
    """
    white, black = values
    count = -(-len(white) // CHUNK_BITS)
    bounds = [len(white) * k // count for k in range(count + 1)]
    return tuple((start, (1 << end - start) - 1, _sum_table(white[start:end]),
                  _sum_table(black[start:end]))
                 for start, end in zip(bounds[:-1], bounds[1:], strict=True))


def _sum_table(single: list[int]) -> tuple[int, ...]:
    """Return, for every subset of ``single``'s entries as a bit mask, their sum."""
    table = [0]
    for value in single:  # the masks with this entry's bit follow those without it
        table += list(map(add, table, repeat(value)))  # in C: twice a comprehension's speed
    return tuple(table)


@cache
def board_layout(rules: OskaRules) -> GridLayout:
    """Return the shared ``GridLayout`` of ``rules``' board size (built once per n)."""
    return GridLayout(rules)
