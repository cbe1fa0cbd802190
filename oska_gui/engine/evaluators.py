"""Static evaluators for Oska, selectable by name.

Every evaluator scores a position for the side to move (positive = good for it) and
never searches. ``oska_evaluator(rules, name)`` returns one bound to a board size:

- ``simple``: material and advancement, the classic assignment heuristic.
- ``strong``: the learned evaluator (``learned.learned_evaluator``), the default: a
  logistic model of winning fitted to solved and played games, exact once the armies
  have passed each other.
- ``race``: the rows each side still has to go, nothing else (a sparring partner).
- ``classic``: the hand-written race evaluator that was the default before the learned
  one (``classic_evaluator``), kept as a sparring partner and for comparison.

The classic ``Weights`` were tuned by self-play with ``python -m tools.tune
--candidates 16`` (seeded, 193 s on the shared 2-core machine): a coordinate search from
``tune.FIRST_GUESS`` where each candidate played both simple and the incumbent (n = 4,
5, 6 and 8, depths 2-4, 336 games a candidate). Classic against simple at equal depth,
both colours, seeded openings (16 games a cell, 12 for n = 8):

    depth      2      4      6
    n = 4     94 %  100 %   81 %
    n = 5     94 %  100 %   75 %
    n = 6    100 %   88 %   75 %
    n = 8     75 %  100 %

Classic's speed on leaves of real searches: 330,000 (n = 8) to 520,000 (n = 4)
evaluations a second, 0.6-0.8 times ``simple``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from oska_gui.core.types import BLACK, WHITE, Evaluator, Position
from oska_gui.engine.grid import board_layout
from oska_gui.engine.learned import learned_evaluator
from oska_gui.games.oska import OskaRules

PASSED_WIN = 20_000  # a decided race: far above any contact-phase score, far below WIN_BOUND
MARGIN_CAP = 200  # caps the race margin rewarded once passed, so every n stays bounded


@dataclass(frozen=True)
class Weights:
    """Weights of the classic evaluator's terms; the defaults are the tuned ones.

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


def race_evaluator(rules: OskaRules) -> Evaluator:
    """Return the pure race count for ``rules``' board size: a sparring partner.

    The score is the rows the opponent's pieces still have to go minus one's own, and
    nothing else; the search adds wins and losses. Simple as it is, it beat the first
    race-aware evaluator at equal depth, which makes it a good test of any other.
    """
    rows_to_go = board_layout(rules).rows_to_go

    def evaluate(pos: Position) -> int:
        """Score ``pos`` for the side to move: the opponent's rows to go minus one's own."""
        white, black, turn = pos
        to_go_w, to_go_b = rows_to_go(white, black)
        return to_go_b - to_go_w if turn == WHITE else to_go_w - to_go_b

    return evaluate


def classic_evaluator(rules: OskaRules, weights: Weights = Weights()) -> Evaluator:
    """Return the race-aware evaluator for ``rules``' board size with ``weights``.

    Oska is a race: a side whose remaining pieces are all home wins, so every piece
    costs the moves it still needs, and a captured piece is one fewer to bring home.
    Once the armies have passed each other (every White piece on or below every Black
    piece's row) no capture or block between them is possible and the race decides:
    the side to move wins iff it needs no more moves than the opponent, unless a piece
    is walled in for good behind its own home pieces. Before that the score weighs
    material, the race and who leads it, capture chances on both sides and blocked
    pieces. All terms come from a few big-integer shifts on a ``GridLayout`` grid.
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
        for shift, mask, table_w, table_b in chunks:  # grid bits, and rows to go above them
            acc_w += table_w[white >> shift & mask]
            acc_b += table_b[black >> shift & mask]
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


DEFAULT_EVALUATOR = "strong"  # oskaplayer's, the levels' and the commands' evaluator

EVALUATORS: dict[str, Callable[[OskaRules], Evaluator]] = {
    DEFAULT_EVALUATOR: learned_evaluator,  # first: the UI offers them in this order
    "classic": classic_evaluator,
    "simple": simple_evaluator,
    "race": race_evaluator,
}


@cache
def oska_evaluator(rules: OskaRules, name: str) -> Evaluator:
    """Return the evaluator called ``name`` for ``rules``; raises ValueError if unknown."""
    if name not in EVALUATORS:
        raise ValueError(f"unknown evaluator {name!r}; choose one of {sorted(EVALUATORS)}")
    return EVALUATORS[name](rules)
