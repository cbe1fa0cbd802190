"""Static evaluators for Oska, selectable by name.

Every evaluator scores a position for the side to move (positive = good for it) and
never searches. ``oska_evaluator(rules, name)`` returns one bound to a board size:

- ``simple``: material and advancement, the classic assignment heuristic.
- ``strong``: knows the race (see ``strong_evaluator``); the default.

The default ``Weights`` were tuned by self-play with ``python -m oska_gui.tune
--candidates 16`` (seeded, 193 s on the shared 2-core machine): a coordinate search from
``tune.FIRST_GUESS`` where each candidate played both simple and the incumbent (n = 4,
5, 6 and 8, depths 2-4, 336 games a candidate). It kept blocked 10 -> 20 and free
-150 -> -300; on fresh openings the result scored 92.6 % against simple (the first guess
91.7 %) and 55.7 % head to head against the first guess. Strong against simple at equal
depth, both colours, seeded openings (16 games a cell, 12 for n = 8):

    depth      2      4      6
    n = 4     94 %  100 %   81 %
    n = 5     94 %  100 %   75 %
    n = 6    100 %   88 %   75 %
    n = 8     75 %  100 %

Speed on leaves of real searches: 330,000 (n = 8) to 520,000 (n = 4) evaluations a
second, about 3 times the first draft and 0.6-0.8 times ``simple``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from .oska import BLACK, WHITE, OskaRules, Position

Evaluator = Callable[[Position], int]

CHUNK_BITS = 11  # table lookups per side: ceil(cells / CHUNK_BITS); 2048 entries a table
CHUNK_MASK = (1 << CHUNK_BITS) - 1
PASSED_WIN = 20_000  # a decided race: far above any contact-phase score, far below WIN_BOUND
MARGIN_CAP = 200  # caps the race margin rewarded once passed, so every n stays bounded


@dataclass(frozen=True)
class Weights:
    """Weights of the strong evaluator's terms; the defaults are the tuned ones.

    Every term but ``passed_margin`` is scored while the armies are still in contact.

    Attributes:
        material: a piece more than the opponent.
        race: a move less than the opponent needs to bring every piece home.
        lead: being ahead in that race, counting who moves next.
        attack: each opponent piece the side to move can capture now.
        danger: each own piece the opponent could capture if it were to move.
        blocked: each own piece (not yet home) that has no move.
        free: each own piece on or past the row of the opponent's rearmost piece, which
            no opponent piece can reach any more. Tuned negative: such a piece no longer
            fights, it is a runner, and the race already counts what it costs.
        passed_margin: a move of race margin once no capture is possible any more.
    """

    material: int = 150
    race: int = 20
    lead: int = 100
    attack: int = 25
    danger: int = 25
    blocked: int = 20
    free: int = -300
    passed_margin: int = 50


class BoardLayout:
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
        self.chunks = tuple(
            (shift, self._chunk_table(rules, WHITE, shift), self._chunk_table(rules, BLACK, shift))
            for shift in range(0, rules.size, CHUNK_BITS)
        )
        self.row_of = tuple(r for r, _ in rules.cells)
        starts = [sum(rules.lengths[:r]) for r in range(rows + 1)]
        self.from_row = tuple(starts[:-1])
        self.through_row = tuple((1 << end) - 1 for end in starts[1:])

    def spread(self, bits: int) -> int:
        """Return the grid form of the bitboard ``bits``."""
        return sum(1 << self.grid[cell] for cell in range(len(self.grid)) if bits >> cell & 1)

    def _chunk_table(self, rules: OskaRules, side: int, shift: int) -> tuple[int, ...]:
        """Return, for every value of the chunk at ``shift``, its grid bits plus distance."""
        cells = range(shift, min(shift + CHUNK_BITS, rules.size))
        single = [(1 << self.grid[c]) + (rules.rows_to_go[side][c] << self.dist_shift)
                  for c in cells]
        table = [0] * (1 << len(single))
        for value in range(1, len(table)):
            low = value & -value
            table[value] = table[value ^ low] + single[low.bit_length() - 1]
        return tuple(table)


@cache
def board_layout(rules: OskaRules) -> BoardLayout:
    """Return the shared ``BoardLayout`` of ``rules``' board size (built once per n)."""
    return BoardLayout(rules)


def simple_evaluator(rules: OskaRules) -> Evaluator:
    """Return the material-and-advancement evaluator for ``rules``' board size."""
    to_go_w, to_go_b = rules.rows_to_go
    far = len(rules.lengths) - 1

    def evaluate(pos: Position) -> int:
        """Score ``pos`` for the side to move: 100 a piece plus 10 a row advanced."""
        white, black, turn = pos
        score = 0
        for table, mask, sign in ((to_go_w, white, 1), (to_go_b, black, -1)):
            while mask:
                low = mask & -mask
                mask ^= low
                score += sign * (100 + 10 * (far - table[low.bit_length() - 1]))
        return score if turn == WHITE else -score

    return evaluate


def strong_evaluator(rules: OskaRules, weights: Weights = Weights()) -> Evaluator:
    """Return the race-aware evaluator for ``rules``' board size with ``weights``.

    Oska is a race: a side whose remaining pieces are all home wins, so every piece
    costs the moves it still needs, and a captured piece is one fewer to bring home.
    Once the armies have passed each other (every White piece on or below every Black
    piece's row) no capture or block between them is possible and the race decides:
    the side to move wins iff it needs no more moves than the opponent, unless a piece
    is walled in for good behind its own home pieces. Before that the score weighs
    material, the race and who leads it, capture chances on both sides and blocked
    pieces. All terms come from a few big-integer shifts on a ``BoardLayout`` grid.
    """
    lay = board_layout(rules)
    w1, w2 = lay.width, lay.width + 1
    board, chunks, grid_mask, dist_shift = lay.board, lay.chunks, lay.grid_mask, lay.dist_shift
    away_w, away_b = board ^ lay.home[WHITE], board ^ lay.home[BLACK]
    near_w, near_b = lay.next_to_home
    row_of, from_row, through_row = lay.row_of, lay.from_row, lay.through_row
    material, race, lead = weights.material, weights.race, weights.lead
    attack, danger, blocked = weights.attack, weights.danger, weights.blocked
    free, margin_weight = weights.free, weights.passed_margin

    def passed_score(gw: int, gb: int, to_go_w: int, to_go_b: int, turn: int) -> int:
        """Score a position without contact for White: the race, or a walled-in piece."""
        dead_w = gw & near_w & (gw >> w1) & (gw >> w2)
        dead_b = gb & near_b & (gb << w1) & (gb << w2)
        if dead_w or dead_b:
            return 0 if dead_w and dead_b else -PASSED_WIN if dead_w else PASSED_WIN
        margin = to_go_b - to_go_w + (turn == WHITE)  # White wins the race iff >= 1
        if margin >= 1:
            return PASSED_WIN + margin_weight * min(margin, MARGIN_CAP)
        return -PASSED_WIN - margin_weight * min(1 - margin, MARGIN_CAP)

    def evaluate(pos: Position) -> int:
        """Score ``pos`` for the side to move (any position; meant for unfinished games)."""
        white, black, turn = pos
        if not white or not black:
            return 0  # a finished game: the search scores it with terminal() instead
        acc_w = acc_b = 0
        for shift, table_w, table_b in chunks:  # grid bits, and rows to go above them
            acc_w += table_w[white >> shift & CHUNK_MASK]
            acc_b += table_b[black >> shift & CHUNK_MASK]
        gw, gb = acc_w & grid_mask, acc_b & grid_mask
        to_go_w, to_go_b = acc_w >> dist_shift, acc_b >> dist_shift
        top_w, bottom_b = row_of[(white & -white).bit_length() - 1], row_of[black.bit_length() - 1]
        if top_w >= bottom_b:
            score = passed_score(gw, gb, to_go_w, to_go_b, turn)
            return score if turn == WHITE else -score
        empty = board ^ gw ^ gb
        step_w = (empty >> w1) | (empty >> w2)
        step_b = (empty << w1) | (empty << w2)
        # victims of a jump in each direction: short (one column) and long (two)
        short_w, long_w = gb & (gw << w1) & (empty >> w1), gb & (gw << w2) & (empty >> w2)
        short_b, long_b = gw & (gb >> w1) & (empty << w1), gw & (gb >> w2) & (empty << w2)
        hit_w, hit_b = short_w | long_w, short_b | long_b
        jump_w = (short_w >> w1) | (long_w >> w2)
        jump_b = (short_b << w1) | (long_b << w2)
        stuck_w = (gw & away_w & ~(step_w | jump_w)).bit_count()
        stuck_b = (gb & away_b & ~(step_b | jump_b)).bit_count()
        margin = to_go_b - to_go_w + (turn == WHITE)
        score = (material * (white.bit_count() - black.bit_count())
                 + race * (to_go_b - to_go_w)
                 + (lead if margin >= 1 else -lead)
                 - blocked * (stuck_w - stuck_b)
                 + free * ((white >> from_row[bottom_b]).bit_count()
                           - (black & through_row[top_w]).bit_count()))
        if turn == WHITE:
            return score + attack * hit_w.bit_count() - danger * hit_b.bit_count()
        return -score + attack * hit_b.bit_count() - danger * hit_w.bit_count()

    return evaluate


EVALUATORS: dict[str, Callable[[OskaRules], Evaluator]] = {
    "simple": simple_evaluator,
    "strong": strong_evaluator,
}


@cache
def oska_evaluator(rules: OskaRules, name: str) -> Evaluator:
    """Return the evaluator called ``name`` for ``rules``; raises ValueError if unknown."""
    if name not in EVALUATORS:
        raise ValueError(f"unknown evaluator {name!r}; choose one of {sorted(EVALUATORS)}")
    return EVALUATORS[name](rules)
