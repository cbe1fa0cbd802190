"""What the learned evaluator looks at: a few counts of a position, for the side to move.

``FeatureSpace(rules).features(pos)`` returns, for an unfinished position where the
armies are still in contact (else None), a ``Features`` pair: the race margin's bucket (an index
into a table of learned values, so the model can treat a race one move short very
differently from one move ahead) and a tuple of small integers, one per name in
``NAMES``, each counted for the side to move ("own") and for the other side ("their"):

- ``margin``: the other side's rows to go minus one's own, clipped to +/- ``MARGIN_CLIP``
  (``margin_clip``: not clipped from n = ``WIDE_MARGIN_FROM`` on); with the move, a pure
  race is won iff it is >= 0;
- ``pieces``, ``home``: pieces left, and pieces already on the opponent's back row;
- ``blocked``: pieces not home that have no step and no capture;
- ``moves``, ``captures``: steps plus captures available, and captures alone (for the
  other side: what it could do if it were to move);
- ``free``: pieces beyond every opponent piece, which nothing can stop or capture;
- ``dead``: pieces walled in for good by their own home pieces (they never get home);
- ``stuck``: True (1) when the side has no move at all (it must pass); ``last``: True
  when it has a single piece left (one capture loses the game);
- ``edge``: pieces not home on the first or last cell of their row;
- ``trail``: the rows to go of the side's rearmost piece; ``lone``: True when a single
  piece is still on its way (it alone moves: nothing else can wait or block for it);
- ``row_1`` .. ``row_12``: pieces exactly k rows from home (``row_12``: 12 or more), a
  value per distance instead of the margin's one per row: a straggler far behind costs
  more than its rows in the race. With these four, the shipped model's mean score
  against the race, material and classic bots on n = 6 and 8 went from 90 to 92 %, its
  weakest cell from 70 to 80 % (``tools.strength``);
- ``unmatched``: pieces that can never get a home cell of their own (``race.Race.unmatched``:
  home pieces never move, so the others need distinct free home cells within reach);
  a side with one can only win by taking every opposing piece. ``dead`` counts the
  plainest case of it, a piece walled in by two home pieces.

One count is the mover's alone, ``own_exposed``: True (1) when the side to move has
steps but no capture, and every step lets the other side capture at once (``exposed``):
it must walk into a capture, which a static score cannot see coming otherwise.

Swapping the colours of a position (and the side to move) or mirroring it left to right
gives the same features: they are counted from the mover's point of view. All counts
come from shifts on a ``grid.GridLayout``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, cached_property
from operator import lshift, rshift
from typing import NamedTuple

from oska_gui.core.types import WHITE, Position
from oska_gui.engine.grid import board_layout
from oska_gui.engine.race import race_tables
from oska_gui.games.oska import OskaRules

MARGIN_CLIP = 12  # the linear margin term saturates: a race this far ahead is won anyway
WIDE_MARGIN_FROM = 10  # from this board size on the margin is not clipped (``margin_clip``)
BUCKET_CLIP = 6  # the margin table covers -6..+6, everything further shares the end buckets
BUCKETS = 2 * BUCKET_CLIP + 1
_new_tuple = tuple.__new__  # builds a NamedTuple without the keyword-handling constructor
ROW_CLIP = 12  # pieces this far from home or further share one count
SIDED = ("pieces", "home", "blocked", "moves", "captures", "free", "dead", "stuck", "last",
         "edge", "trail", "lone", *(f"row_{k}" for k in range(1, ROW_CLIP + 1)), "unmatched")
NAMES = ("margin",) + tuple(f"{who}_{name}" for name in SIDED for who in ("own", "their")) \
    + ("own_exposed",)


class Features(NamedTuple):
    """The features of one position: the margin table's bucket and the counts."""

    bucket: int
    counts: tuple[int, ...]


class FeatureSpace:
    """Computes ``Features`` for positions of one board size (tables built once per n)."""

    def __init__(self, rules: OskaRules) -> None:
        """Prepare the grid tables of ``rules``' board size."""
        lay = board_layout(rules)
        self.rules = rules
        self.lay = lay
        self.w1, self.w2 = lay.width, lay.width + 1
        self.away = (lay.board ^ lay.home[WHITE], lay.board ^ lay.home[1])
        # the rows a walled-in piece can stand on, nearest the home row first
        rows = lay.row_grid
        middle = len(rows) // 2
        self.toward_home = (rows[-2:middle - 1:-1], rows[1:middle + 1])
        self.edge = lay.spread(edge_cells(rules))
        # per side, the grid cells k rows from home for k = 1 .. ROW_CLIP
        self.rows_away = tuple(rows_from_home(rows[::-1] if side == WHITE else rows)
                               for side in (WHITE, 1))
        self.last_row = len(rows) - 1
        self.unmatched = race_tables(rules).unmatched
        self.margin_clip = margin_clip(rules)

    @cached_property
    def _hot(self) -> tuple:
        """Everything ``features`` reads, in one tuple: one attribute load per call
        (built on first use: the layout's chunk tables are not needed before)."""
        lay = self.lay
        return (lay.row_of, lay.chunks, lay.grid_mask, lay.board, lay.dist_shift,
                *self.away, lay.from_row, lay.through_row, self.w1, self.w2)

    def features(self, pos: Position) -> Features | None:
        """Return the features of ``pos`` (unfinished) for the mover.

        Returns None when the armies have passed each other (no White piece above a
        Black one): the race alone decides such a position (see ``race``).
        """
        white, black, turn = pos
        (row_of, chunks, grid_mask, board, dist_shift, away_white, away_black, from_row,
         through_row, w1, w2) = self._hot
        top_w, bottom_b = row_of[(white & -white).bit_length() - 1], row_of[black.bit_length() - 1]
        if top_w >= bottom_b:
            return None
        acc_w = acc_b = 0
        for shift, mask, table_w, table_b in chunks:  # grid bits, and rows to go above them
            acc_w += table_w[white >> shift & mask]
            acc_b += table_b[black >> shift & mask]
        gw, gb = acc_w & grid_mask, acc_b & grid_mask
        empty = board ^ gw ^ gb
        # White moves to higher grid bits, Black to lower: one shift per direction
        open_w1, open_w2, open_b1, open_b2 = empty >> w1, empty >> w2, empty << w1, empty << w2
        short_w, long_w = gb & (gw << w1) & open_w1, gb & (gw << w2) & open_w2
        short_b, long_b = gw & (gb >> w1) & open_b1, gw & (gb >> w2) & open_b2
        caps_w = short_w.bit_count() + long_w.bit_count()
        caps_b = short_b.bit_count() + long_b.bit_count()
        moves_w = (gw & open_w1).bit_count() + (gw & open_w2).bit_count() + caps_w
        moves_b = (gb & open_b1).bit_count() + (gb & open_b2).bit_count() + caps_b
        away_w, away_b = gw & away_white, gb & away_black
        n_w, n_b = white.bit_count(), black.bit_count()
        home_w, home_b = n_w - away_w.bit_count(), n_b - away_b.bit_count()
        blocked_w = (away_w & ~(open_w1 | open_w2 | (short_w >> w1) | (long_w >> w2))).bit_count()
        blocked_b = (away_b & ~(open_b1 | open_b2 | (short_b << w1) | (long_b << w2))).bit_count()
        free_w = (white >> from_row[bottom_b]).bit_count()
        free_b = (black & through_row[top_w]).bit_count()
        dead_w = self.dead(gw ^ away_w, away_w, WHITE) if home_w > 1 else 0
        dead_b = self.dead(gb ^ away_b, away_b, 1) if home_b > 1 else 0
        margin = (acc_b >> dist_shift) - (acc_w >> dist_shift)
        runners_w = self.runner_counts(away_w, self.last_row - top_w, n_w - home_w, WHITE)
        runners_b = self.runner_counts(away_b, bottom_b, n_b - home_b, 1)
        unmatched_w, unmatched_b = self.unmatched(WHITE, white), self.unmatched(1, black)
        if turn == WHITE:
            walks_in = moves_w > 0 == caps_w and exposed(gw, gb, empty, caps_b, lshift, w1, w2)
            counts = (n_w, n_b, home_w, home_b, blocked_w, blocked_b, moves_w, moves_b,
                      caps_w, caps_b, free_w, free_b, dead_w, dead_b, moves_w == 0,
                      moves_b == 0, n_w == 1, n_b == 1,
                      *(value for pair in zip(runners_w, runners_b, strict=True) for value in pair),
                      unmatched_w, unmatched_b, walks_in)
        else:
            walks_in = moves_b > 0 == caps_b and exposed(gb, gw, empty, caps_w, rshift, w1, w2)
            margin = -margin
            counts = (n_b, n_w, home_b, home_w, blocked_b, blocked_w, moves_b, moves_w,
                      caps_b, caps_w, free_b, free_w, dead_b, dead_w, moves_b == 0,
                      moves_w == 0, n_b == 1, n_w == 1,
                      *(value for pair in zip(runners_b, runners_w, strict=True) for value in pair),
                      unmatched_b, unmatched_w, walks_in)
        clip = self.margin_clip
        clipped = clip if margin > clip else -clip if margin < -clip else margin
        bucket = BUCKETS - 1 if margin > BUCKET_CLIP else 0 if margin < -BUCKET_CLIP \
            else margin + BUCKET_CLIP
        return _new_tuple(Features, (bucket, (clipped, *counts)))

    def runner_counts(self, runners: int, trail: int, count: int, side: int) -> tuple[int, ...]:
        """Return one side's ``edge``, ``trail``, ``lone`` and ``row_k`` counts.

        Args:
            runners: the side's pieces not home (grid bits).
            trail: the rows to go of its rearmost piece.
            count: how many runners it has.
            side: WHITE or BLACK.

        Returns:
            The counts in ``SIDED`` order, from ``edge`` on.
        """
        return ((runners & self.edge).bit_count(), trail, count == 1,
                *((runners & cells).bit_count() for cells in self.rows_away[side]))

    def dead(self, home: int, runners: int, side: int) -> int:
        """Return how many ``runners`` (grid bits) are walled in for good by ``home``.

        A cell is a dead end when both of its forward cells are own home pieces or dead
        ends themselves; near the home row every cell has two forward cells. Dead ends
        need two adjacent home pieces, so this usually stops after one row.
        """
        w1, w2 = self.w1, self.w2
        dead = 0
        blocked = home
        for row in self.toward_home[side]:
            if side == WHITE:
                ends = row & (blocked >> w1) & (blocked >> w2)
            else:
                ends = row & (blocked << w1) & (blocked << w2)
            if not ends:
                break
            dead |= ends
            blocked = ends
        return (runners & dead).bit_count()


def exposed(own: int, other: int, empty: int, threats: int,
            ahead: Callable[[int, int], int], w1: int, w2: int) -> bool:
    """Return True when every step of the side ``own`` lets ``other`` capture at once.

    All on a ``grid.GridLayout`` grid, every step of one direction at once. A step
    from a to b = a + d is safe when afterwards no capture is possible: none of b,
    none landing on the cell a it left, and none of those possible before that it
    does not undo (by moving their victim away or by standing on their landing cell).

    Args:
        own: the moving side's pieces (grid bits); it is assumed to have no capture.
        other: the other side's pieces (grid bits).
        empty: the empty cells (grid bits).
        threats: how many captures ``other`` has now (if it were to move).
        ahead: how ``own`` moves a bitboard forward by a shift: ``operator.lshift``
            for White (to higher bits), ``operator.rshift`` for Black.
        w1, w2: the grid's two step shifts.

    Returns:
        True when ``own`` has no safe step (also when it has no step at all).
    """
    back = rshift if ahead is lshift else lshift
    if not threats:  # then a step is unsafe only with an opposing piece two rows ahead
        near = back(other, 2 * w1) | back(other, w1 + w2) | back(other, 2 * w2)
        if own & (back(empty, w1) | back(empty, w2)) & ~near:
            return False
    # pieces the other side can capture now, by jump direction; bit v: it jumps from
    # v + e over v to v - e (all "ahead" of the mover's pieces seen from v)
    hits = (own & back(other, w1) & ahead(empty, w1), own & back(other, w2) & ahead(empty, w2))
    # the cell b - o, one column beside a: where a jump over b from b + o lands
    beside = (ahead(empty, 1), back(empty, 1))  # empty at a - 1 (d = w1), at a + 1 (d = w2)
    for d, o, landing in ((w1, w2, beside[0]), (w2, w1, beside[1])):
        starts = own & back(empty, d)  # bit a: a step a -> a + d exists
        unsafe = (back(other, 2 * d)  # b jumped from b + d into a
                  | back(other, d + o) & landing  # b jumped from b + o
                  | back(own, o) & back(other, 2 * o))  # a + o jumped from a + 2o into a
        if threats:
            # captures before the step that it undoes: victim a, or landing on b
            undone = (hits[0], hits[1], back(hits[0], d + w1), back(hits[1], d + w2))
            unsafe |= ~at_least(threats, undone)
        if starts & ~unsafe:
            return False
    return True


def at_least(count: int, boards: Sequence[int]) -> int:
    """Return the bits set in at least ``count`` of ``boards`` (0 if ``count`` > their number)."""
    levels = [0] * count  # levels[j]: bits seen in at least j + 1 boards so far
    for board in boards:
        for j in range(count - 1, 0, -1):
            levels[j] |= levels[j - 1] & board
        levels[0] |= board
    return levels[-1] if count <= len(boards) else 0


def margin_clip(rules: OskaRules) -> int:
    """Return how far the ``margin`` count goes either way on ``rules``' board.

    ``MARGIN_CLIP`` rows up to n = ``WIDE_MARGIN_FROM`` - 1, where that is about a
    piece's whole way home (12 rows at n = 8, 14 at n = 9). On bigger boards a capture
    takes up to 2n - 4 rows off the victim's race, and a clipped margin stopped counting
    them after the first: at n = 16 the engine took a dozen pieces of the race-count
    bot for their material, handing it a race it then won by a tempo. There the margin
    is the whole race: its bound is the most any position of the board can have.
    """
    return MARGIN_CLIP if rules.n < WIDE_MARGIN_FROM else widest_margin(rules)


def widest_margin(rules: OskaRules) -> int:
    """Return the largest race margin a position of ``rules``' board can have (all of
    a side's n pieces with every row to go, none of the other side's)."""
    return rules.n * (len(rules.lengths) - 1)


def edge_cells(rules: OskaRules) -> int:
    """Return the bitboard of the first and last cell of every row of ``rules``' board."""
    edges = 0
    for cell, (row, index) in enumerate(rules.cells):
        if index in (0, rules.lengths[row] - 1):
            edges |= 1 << cell
    return edges


def rows_from_home(rows: tuple[int, ...]) -> tuple[int, ...]:
    """Return, for k = 1 .. ``ROW_CLIP``, the union of the grid ``rows`` k rows from home
    (the last also holds every row further away); ``rows`` starts with the home row."""
    away = [0] * ROW_CLIP
    for k, row in enumerate(rows[1:], start=1):
        away[min(k, ROW_CLIP) - 1] |= row
    return tuple(away)


@cache
def feature_space(rules: OskaRules) -> FeatureSpace:
    """Return the shared ``FeatureSpace`` of ``rules``' board size (built once per n)."""
    return FeatureSpace(rules)
