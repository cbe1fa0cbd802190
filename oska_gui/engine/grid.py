"""Bitboards redrawn on a grid where every Oska move is one shift, for fast evaluation.

The rules number cells in reading order, so a step is a different distance from every
row. ``GridLayout`` maps each cell to a grid bit such that every step, and every jump,
is the same shift everywhere on the board; the evaluators then compute their terms for
all pieces at once with a few big-integer shifts and masks.
"""

from __future__ import annotations

from functools import cache

from oska_gui.core.types import BLACK, WHITE
from oska_gui.games.oska import OskaRules

CHUNK_BITS = 11  # table lookups per side: ceil(cells / CHUNK_BITS); 2048 entries a table
CHUNK_MASK = (1 << CHUNK_BITS) - 1
# per chunk of cells: its shift, White's table and Black's table
Chunks = tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]


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
        self.dist_shift = rows * self.width + 1
        self.grid_mask = (1 << self.dist_shift) - 1
        self.board = self.spread(rules.full)
        self.home = (self.spread(rules.goal[WHITE]), self.spread(rules.goal[BLACK]))
        self.next_to_home = (self.spread(rules.row_masks[rows - 2]),
                             self.spread(rules.row_masks[1]))
        self.chunks = chunk_tables([
            [(1 << self.grid[cell]) + (rules.rows_to_go[side][cell] << self.dist_shift)
             for cell in range(rules.size)] for side in (WHITE, BLACK)])
        self.row_grid = tuple(self.spread(mask) for mask in rules.row_masks)
        self.row_of = tuple(r for r, _ in rules.cells)
        starts = [sum(rules.lengths[:r]) for r in range(rows + 1)]
        self.from_row = tuple(starts[:-1])
        self.through_row = tuple((1 << end) - 1 for end in starts[1:])

    def rows_to_go(self, white: int, black: int) -> tuple[int, int]:
        """Return the rows White's and Black's pieces still have to go, in all."""
        acc_w = acc_b = 0
        for shift, table_w, table_b in self.chunks:
            acc_w += table_w[white >> shift & CHUNK_MASK]
            acc_b += table_b[black >> shift & CHUNK_MASK]
        return acc_w >> self.dist_shift, acc_b >> self.dist_shift

    def spread(self, bits: int) -> int:
        """Return the grid form of the bitboard ``bits``."""
        return sum(1 << self.grid[cell] for cell in range(len(self.grid)) if bits >> cell & 1)


def chunk_tables(values: list[list[int]]) -> Chunks:
    """Return lookup tables that add up per-cell values ``CHUNK_BITS`` cells at a time.

    Args:
        values: White's and Black's value of a piece on each cell (grid bit plus
            whatever fields above it the caller sums).

    Returns:
        Per chunk: its shift, then White's and Black's table, indexed by the chunk's
        bits of a bitboard, holding the sum of those cells' values.
    """
    white, black = values
    return tuple((shift, _sum_table(white[shift:shift + CHUNK_BITS]),
                  _sum_table(black[shift:shift + CHUNK_BITS]))
                 for shift in range(0, len(white), CHUNK_BITS))


def _sum_table(single: list[int]) -> tuple[int, ...]:
    """Return, for every subset of ``single``'s entries as a bit mask, their sum."""
    table = [0] * (1 << len(single))
    for value in range(1, len(table)):
        low = value & -value
        table[value] = table[value ^ low] + single[low.bit_length() - 1]
    return tuple(table)


@cache
def board_layout(rules: OskaRules) -> GridLayout:
    """Return the shared ``GridLayout`` of ``rules``' board size (built once per n)."""
    return GridLayout(rules)
