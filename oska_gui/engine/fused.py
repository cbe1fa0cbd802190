"""The learned evaluator's contact score in one pass: features weighted as they are counted.

``features.FeatureSpace.features`` counts a position's features and the model weighs
them (``learned``): clear, and what training reads, but the search calls the evaluator
at every leaf, and building the count tuples, clipping the margin and multiplying
forty-nine weights costs more than the counting. ``fused_evaluator`` computes the same
score with no intermediate tuple, the weights folded into per-n lookup tables:

- the chunk tables that redraw a side's pieces on the grid (``grid.GridLayout``) also
  add up each piece's ``row_k`` and ``edge`` value, once for each side to move
  (``piece_chunks``): those twenty-six counts cost one field read;
- the margin table holds, for every possible race margin, the bucket value plus the
  clipped linear term; Python's negative indices reach the negative margins directly;
- a side's pieces table folds ``pieces``, ``last`` (one piece left) and ``home``, its
  runners table (pieces not home) ``lone`` and takes ``home`` back, its moves table
  folds ``moves`` and ``stuck`` (no move at all), its trail table is indexed by the
  row of its rearmost piece;
- the remaining counts (blocked, captures, free, dead, unmatched, exposed) keep one
  weight each; ``exposed`` is worked out only when the mover has steps and no capture.

Each side to move has its own set, own and their weights on the right colours, so
the score needs no colour swap. The values equal the reference (table, weighted counts
and pattern entries, capped or squashed) exactly: all in integers, only the order of the
sum differs.
The counting repeats ``features``' grid shifts line for line on purpose, inlined in
the hot path; ``test_learned`` checks both give the same scores on thousands of
positions of every size.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import lshift, rshift

from oska_gui.core.types import BLACK, WHITE, Evaluator, Position
from oska_gui.engine.features import (
    BUCKET_CLIP,
    NAMES,
    ROW_CLIP,
    exposed,
    feature_space,
    margin_clip,
    widest_margin,
)
from oska_gui.engine.grid import Chunks, chunk_tables
from oska_gui.engine.race import race_tables
from oska_gui.games.oska import OskaRules

# how to read one pattern window: (shift, mask, White's digits, Black's digits, values)
Reader = tuple[int, int, tuple[int, ...], tuple[int, ...], Sequence[int]]
# per side to move: margin table, then White's and Black's pieces tables, runners tables,
# blocked weights, moves tables, captures, free and dead weights, trail tables, unmatched
# weights, White's first, then the mover's exposed weight
Terms = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...],
              tuple[int, ...], int, int, tuple[int, ...], tuple[int, ...], int, int, int, int,
              int, int, tuple[int, ...], tuple[int, ...], int, int, int]
PIECE_OFFSET = 1 << 20  # added to every piece's value, so the summed fields never go negative
SPILL_SHIFT = 4  # beyond the cap a score that has a ceiling grows 16 times slower


def margin_table(rules: OskaRules, table: tuple[int, ...], weight: int) -> tuple[int, ...]:
    """Return the margin's value (bucket value plus clipped linear term) by margin.

    Index m >= 0 holds margin m, index -m (from the end) margin -m, for every margin
    a position of ``rules``' board can have.
    """
    most = widest_margin(rules)
    # margins -most..most: the clipped bucket and linear term, built from runs of equal values
    clip = margin_clip(rules)
    far = most - clip
    linear_terms = [-clip] * far + list(range(-clip, clip + 1)) + [clip] * far
    wide = most - BUCKET_CLIP
    buckets = [0] * wide + list(range(2 * BUCKET_CLIP + 1)) + [2 * BUCKET_CLIP] * wide
    values = [table[bucket] + weight * term for bucket, term in zip(buckets, linear_terms,
                                                                     strict=True)]
    return tuple(values[most:] + values[:most])


def linear(step: int, count: int) -> list[int]:
    """Return ``[0, step, 2 * step, ...]``, ``count`` values."""
    return [step * k for k in range(count)]


def mover_terms(rules: OskaRules, table: tuple[int, ...], weights: tuple[int, ...],
                turn: int) -> Terms:
    """Return the folded tables and weights for positions with ``turn`` to move.

    ``table`` and ``weights`` are the model's, in evaluator units, in ``NAMES`` order.
    The pieces tables also take back ``PIECE_OFFSET`` for each piece (see ``piece_chunks``).
    """
    named = dict(zip(NAMES, weights, strict=True))
    colours = ("own", "their") if turn == WHITE else ("their", "own")  # White's, Black's
    margins = margin_table(rules, table, named["margin"])
    if turn == BLACK:  # the mover's margin is the negated White one
        margins = (margins[0],) + margins[:0:-1]
    last_row = len(rules.lengths) - 1

    def pair(name: str) -> tuple[int, int]:
        """Return White's and Black's weight of the count ``name``."""
        return named[f"{colours[0]}_{name}"], named[f"{colours[1]}_{name}"]

    def pieces_table(who: str) -> tuple[int, ...]:
        """Return ``who``'s value of having k pieces: ``pieces``, ``last``, and ``home``
        as if all were home (``runners_table`` takes it back for those that are not)."""
        values = linear(named[f"{who}_pieces"] + named[f"{who}_home"] - PIECE_OFFSET,
                        rules.size + 1)
        values[1] += named[f"{who}_last"]
        return tuple(values)

    def runners_table(who: str) -> tuple[int, ...]:
        """Return ``who``'s value of having k pieces not home: ``lone``, less ``home``."""
        values = linear(-named[f"{who}_home"], rules.size + 1)
        values[1] += named[f"{who}_lone"]
        return tuple(values)

    def moves_table(who: str) -> tuple[int, ...]:
        """Return ``who``'s value of having k moves, ``stuck`` included (two a piece)."""
        values = linear(named[f"{who}_moves"], 2 * rules.size + 1)
        values[0] += named[f"{who}_stuck"]
        return tuple(values)

    white_trail, black_trail = pair("trail")  # by the row of the side's rearmost piece
    return (margins, pieces_table(colours[0]), pieces_table(colours[1]),
            runners_table(colours[0]), runners_table(colours[1]), *pair("blocked"),
            moves_table(colours[0]), moves_table(colours[1]),
            *pair("captures"), *pair("free"), *pair("dead"),
            tuple(linear(white_trail, last_row + 1)[::-1]),
            tuple(linear(black_trail, last_row + 1)), *pair("unmatched"), named["own_exposed"])


def piece_chunks(rules: OskaRules,
                 weights: tuple[int, ...]) -> tuple[Chunks, tuple[int, int], int, int]:
    """Return chunk tables that also sum each side's per-piece values, the shifts of
    the two sums (by side to move), the mask of one sum and the shift of the rows to go.

    A piece's value is the ``row_k`` weight of its distance from home plus the ``edge``
    weight on a row's end (home pieces: 0), plus ``PIECE_OFFSET``. An entry holds
    the grid bits, then the sum for White to move, then the sum for Black to move
    (each in a field wide enough for every piece of both sides: the evaluator adds
    White's and Black's entries before reading one), then the rows to go.
    """
    space = feature_space(rules)
    lay = space.lay
    named = dict(zip(NAMES, weights, strict=True))
    field = (rules.size * 4 * PIECE_OFFSET).bit_length()
    sums = (lay.dist_shift, lay.dist_shift + field)  # by side to move
    dist_shift = lay.dist_shift + 2 * field
    # by own/their: a piece's value by rows to go (0: home), and the edge weight
    by_rows = {who: [PIECE_OFFSET] + [PIECE_OFFSET + named[f"{who}_row_{min(ROW_CLIP, k)}"]
                                      for k in range(1, len(rules.lengths))]
               for who in ("own", "their")}
    edge = {who: named[f"{who}_edge"] for who in ("own", "their")}

    def fields(side: int, on_edge: bool) -> list[int]:
        """Return the fields of a piece of ``side`` by its rows to go (its sums and
        rows to go, without its grid bit), off a row's end or on one."""
        by_away = []
        for away in range(len(rules.lengths)):
            entry = away << dist_shift
            for turn in (WHITE, BLACK):
                who = "own" if side == turn else "their"
                value = by_rows[who][away] + edge[who] * (on_edge and away > 0)
                if not 0 <= value < 2 * PIECE_OFFSET:
                    raise ValueError(f"a piece's value {value - PIECE_OFFSET} is out of range")
                entry += value << sums[turn]
            by_away.append(entry)
        return by_away

    values: list[list[int]] = []
    for side in (WHITE, BLACK):  # the fields by rows to go, made once per side (not per cell)
        inside, on_edge = fields(side, False), fields(side, True)
        values.append([(1 << at) + (on_edge if 1 << at & space.edge else inside)[away]
                       for at, away in zip(lay.grid, rules.rows_to_go[side], strict=True)])
    return chunk_tables(values), sums, (1 << field) - 1, dist_shift


def fused_evaluator(rules: OskaRules, table: tuple[int, ...], weights: tuple[int, ...],
                    readers: Callable[[int], tuple[Reader, ...]], cap: int,
                    passed: Callable[[Position, tuple[int, int]], int],
                    ceiling: int | None = None) -> Evaluator:
    """Return the learned evaluator of ``rules``' board in one pass over the position.

    Each side to move gets an evaluator of its own, built on its first position: the
    first move of a fresh process (the spec's graders call ``oskaplayer`` that way)
    scores one side's positions only and builds that side's tables alone, and the
    evaluator reads its tables as plain names instead of unpacking them per call.

    Args:
        rules: the board size's rules.
        table: the margin buckets' values, in evaluator units.
        weights: the feature weights in ``NAMES`` order, in evaluator units.
        readers: given a side to move, its pattern windows to add (() for none).
        cap: the contact score's bound (+/-).
        passed: the score of a position whose armies have passed each other, given
            it and White's and Black's rows to go.
        ceiling: None for a hard cap; else a score beyond the cap goes on growing,
            ``2 ** SPILL_SHIFT`` times slower, up to this bound (+/-): lopsided
            positions still rank by everything the score sees (``learned``).

    Returns:
        ``evaluate(pos) -> int``, the score for the side to move.
    """
    parts = _Shared(rules, weights)
    by_turn: list[Evaluator] = []

    def first(turn: int) -> Evaluator:
        """Return an evaluator that builds ``turn``'s own on its first call and hands over."""

        def build_then_evaluate(pos: Position) -> int:
            """Build the evaluator of ``turn`` to move, keep it for the next calls, and
            score ``pos`` with it."""
            by_turn[turn] = evaluate_turn = mover_evaluator(
                parts, mover_terms(rules, table, weights, turn), readers(turn), cap, passed, turn,
                ceiling)
            return evaluate_turn(pos)

        return build_then_evaluate

    by_turn.extend(first(turn) for turn in (WHITE, BLACK))

    def evaluate(pos: Position) -> int:
        """Score ``pos`` for the side to move (any position; meant for unfinished games)."""
        return by_turn[pos[2]](pos)

    return evaluate


class _Shared:
    """What the evaluators of both sides to move read: the grid, chunk and race tables."""

    def __init__(self, rules: OskaRules, weights: tuple[int, ...]) -> None:
        """Gather ``rules``' board tables and build the chunk tables of ``weights``."""
        space = feature_space(rules)
        lay = space.lay
        self.space = space
        self.chunks, self.sum_shifts, self.field_mask, self.dist_shift = piece_chunks(rules,
                                                                                       weights)
        self.race = race_tables(rules)
        self.w1, self.w2 = space.w1, space.w2
        self.row_of, self.grid_mask, self.board = lay.row_of, lay.grid_mask, lay.board
        self.from_row, self.through_row = lay.from_row, lay.through_row


def mover_evaluator(parts: _Shared, terms: Terms, readers: tuple[Reader, ...], cap: int,
                    passed: Callable[[Position, tuple[int, int]], int], turn: int,
                    ceiling: int | None = None) -> Evaluator:
    """Return the evaluator of the positions with ``turn`` to move.

    Args:
        parts: the tables both sides share.
        terms: ``mover_terms`` of ``turn``.
        readers: ``turn``'s pattern windows (() for none).
        cap: the contact score's bound (+/-).
        passed: the score of a position whose armies have passed (see ``fused_evaluator``).
        turn: the side to move, WHITE or BLACK.
        ceiling: the squashed score's bound, or None for a hard cap (see
            ``fused_evaluator``).

    Returns:
        ``evaluate(pos) -> int`` for positions with ``turn`` to move.
    """
    space = parts.space
    row_of, grid_mask, board = parts.row_of, parts.grid_mask, parts.board
    chunks, field_mask, dist_shift = parts.chunks, parts.field_mask, parts.dist_shift
    sum_shift = parts.sum_shifts[turn]
    away_white, away_black = space.away
    from_row, through_row, w1, w2, dead = (parts.from_row, parts.through_row, parts.w1,
                                           parts.w2, space.dead)
    far1, far12, far2 = 2 * w1, w1 + w2, 2 * w2  # the shifts two rows ahead
    race = parts.race
    unmatched, (narrow_w, narrow_b), (memo_w, memo_b) = race.unmatched, race.narrow, race.memo
    (margins, pieces_w, pieces_b, runners_w, runners_b, blocked_kw, blocked_kb, moves_w,
     moves_b, caps_kw, caps_kb, free_kw, free_kb, dead_kw, dead_kb, trail_w, trail_b,
     unmatched_kw, unmatched_kb, exposed_k) = terms
    white_moves = turn == WHITE
    top = cap if ceiling is None else ceiling

    def evaluate(pos: Position) -> int:
        """Score ``pos`` for the side to move, ``turn`` (see ``fused_evaluator``)."""
        white, black, _ = pos
        if not white or not black:
            return 0  # a finished game: the search scores it with terminal() instead
        acc_w = acc_b = 0
        for shift, mask, table_w, table_b in chunks:  # grid bits, piece values and rows to go
            acc_w += table_w[white >> shift & mask]
            acc_b += table_b[black >> shift & mask]
        top_w, bottom_b = row_of[(white & -white).bit_length() - 1], row_of[black.bit_length() - 1]
        if top_w >= bottom_b:
            return passed(pos, (acc_w >> dist_shift, acc_b >> dist_shift))
        gw, gb = acc_w & grid_mask, acc_b & grid_mask
        empty = board ^ gw ^ gb
        open_w1, open_w2, open_b1, open_b2 = empty >> w1, empty >> w2, empty << w1, empty << w2
        short_w, long_w = gb & (gw << w1) & open_w1, gb & (gw << w2) & open_w2
        short_b, long_b = gw & (gb >> w1) & open_b1, gw & (gb >> w2) & open_b2
        caps_w = short_w.bit_count() + long_w.bit_count()
        caps_b = short_b.bit_count() + long_b.bit_count()
        away_w, away_b = gw & away_white, gb & away_black
        n_w, n_b = white.bit_count(), black.bit_count()
        runs_w, runs_b = away_w.bit_count(), away_b.bit_count()
        steps_w = (gw & open_w1).bit_count() + (gw & open_w2).bit_count()
        steps_b = (gb & open_b1).bit_count() + (gb & open_b2).bit_count()
        score = (margins[(acc_b >> dist_shift) - (acc_w >> dist_shift)]
                 + ((acc_w + acc_b) >> sum_shift & field_mask)
                 + pieces_w[n_w] + pieces_b[n_b] + runners_w[runs_w] + runners_b[runs_b]
                 + trail_w[top_w] + trail_b[bottom_b]
                 + moves_w[steps_w + caps_w] + moves_b[steps_b + caps_b]
                 + caps_kw * caps_w + caps_kb * caps_b
                 + blocked_kw * (away_w & ~(open_w1 | open_w2 | (short_w >> w1)
                                            | (long_w >> w2))).bit_count()
                 + blocked_kb * (away_b & ~(open_b1 | open_b2 | (short_b << w1)
                                            | (long_b << w2))).bit_count()
                 + free_kw * (white >> from_row[bottom_b]).bit_count()
                 + free_kb * (black & through_row[top_w]).bit_count())
        if n_w - runs_w > 1:  # dead ends need two home pieces
            score += dead_kw * dead(gw ^ away_w, away_w, WHITE)
        if n_b - runs_b > 1:
            score += dead_kb * dead(gb ^ away_b, away_b, BLACK)
        # the last terms cost the most: skipped where their weight is 0 (a model without them)
        if unmatched_kw and white & narrow_w[n_w]:  # else every runner gets home (race.Race)
            known = memo_w.get(white)
            score += unmatched_kw * (unmatched(WHITE, white) if known is None else known)
        if unmatched_kb and black & narrow_b[n_b]:
            known = memo_b.get(black)
            score += unmatched_kb * (unmatched(BLACK, black) if known is None else known)
        if exposed_k:
            # ``exposed``'s first test inlined: with no threat, a step with no opposing
            # piece two rows ahead is safe (most positions stop there, with no call)
            if white_moves:
                walks_in = steps_w and not caps_w and (
                    caps_b or not gw & (open_w1 | open_w2) & ~(gb >> far1 | gb >> far12
                                                               | gb >> far2)
                ) and exposed(gw, gb, empty, caps_b, lshift, w1, w2)
            else:
                walks_in = steps_b and not caps_b and (
                    caps_w or not gb & (open_b1 | open_b2) & ~(gw << far1 | gw << far12
                                                               | gw << far2)
                ) and exposed(gb, gw, empty, caps_w, rshift, w1, w2)
            if walks_in:
                score += exposed_k
        for shift, mask, white_digits, black_digits, values in readers:
            score += values[white_digits[white >> shift & mask]
                            + black_digits[black >> shift & mask]]
        if score > cap:
            score = cap + (score - cap >> SPILL_SHIFT)
            return score if score < top else top
        if score < -cap:
            score = -cap - (-cap - score >> SPILL_SHIFT)
            return score if score > -top else -top
        return score

    return evaluate
