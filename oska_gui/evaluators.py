"""Static evaluators for Oska, selectable by name.

Every evaluator scores a position for the side to move (positive = good for it) and
never searches. ``oska_evaluator(rules, name)`` returns one bound to a board size:

- ``simple``: material and advancement, the classic assignment heuristic.
- ``strong``: knows the race. Once the two armies have passed each other no capture
  is possible and the side that needs fewer moves to bring all its remaining pieces
  home (counting who moves next) wins; before that it weighs material, the race
  distance, capture threats and blocked pieces. Fewer pieces means fewer to bring
  home, so the race term works against the material term, as in the game.

Weights were tuned by self-play (``python -m oska_gui.tune``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from .oska import BLACK, WHITE, OskaRules, Position


@dataclass(frozen=True)
class Weights:
    """Weights of the strong evaluator's terms (in centi-pieces)."""

    material: int = 100
    race: int = 12
    tempo: int = 6
    passed_race: int = 600
    threat: int = 25
    blocked: int = 10


def simple_evaluator(rules: OskaRules) -> Callable[[Position], int]:
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


def strong_evaluator(rules: OskaRules, weights: Weights = Weights()) -> Callable[[Position], int]:
    """Return the race-aware evaluator for ``rules``' board size with ``weights``."""
    to_go = rules.rows_to_go
    steps, jumps = rules.steps, rules.jumps
    row_of = tuple(r for r, _ in rules.cells)
    full = rules.full
    w_material, w_race, w_tempo = weights.material, weights.race, weights.tempo
    w_passed, w_threat, w_blocked = weights.passed_race, weights.threat, weights.blocked

    def side_terms(own: int, opp: int, side: int, empty: int) -> tuple[int, int, int]:
        """Return (rows to go, capture threats, blocked pieces) of one side."""
        table, step, jump = to_go[side], steps[side], jumps[side]
        distance = threats = blocked = 0
        mask = own
        while mask:
            low = mask & -mask
            mask ^= low
            cell = low.bit_length() - 1
            left = table[cell]
            if not left:
                continue
            distance += left
            can_move = False
            for over, to in jump[cell]:
                if opp & over and empty & to:
                    threats += 1
                    can_move = True
            if not can_move:
                can_move = any(empty & to for to in step[cell])
            if not can_move:
                blocked += 1
        return distance, threats, blocked

    def evaluate(pos: Position) -> int:
        """Score ``pos`` (a game not yet over) for the side to move, race-aware."""
        white, black, turn = pos
        empty = full ^ (white | black)
        dist_w, threat_w, blocked_w = side_terms(white, black, WHITE, empty)
        dist_b, threat_b, blocked_b = side_terms(black, white, BLACK, empty)
        # White wins a pure race iff it needs no more moves than Black when it moves
        # first, and strictly fewer when Black moves first.
        tempo = dist_b - dist_w + (1 if turn == WHITE else 0)
        if _passed(white, black, row_of):
            race = w_passed + w_race * abs(tempo) if tempo >= 1 else -w_passed - w_race * abs(tempo)
            score = race + w_material * (white.bit_count() - black.bit_count()) // 4
        else:
            score = (w_material * (white.bit_count() - black.bit_count())
                     + w_race * (dist_b - dist_w)
                     + w_tempo * (1 if tempo >= 1 else -1)
                     + w_threat * (threat_w - threat_b)
                     - w_blocked * (blocked_w - blocked_b))
        return score if turn == WHITE else -score

    return evaluate


def _passed(white: int, black: int, row_of: tuple[int, ...]) -> bool:
    """Return True when every white piece is at or below every black piece's row."""
    top_white = row_of[(white & -white).bit_length() - 1]
    bottom_black = row_of[black.bit_length() - 1]
    return top_white >= bottom_black


EVALUATORS = {"simple": simple_evaluator, "strong": strong_evaluator}


@lru_cache(maxsize=None)
def oska_evaluator(rules: OskaRules, name: str) -> Callable[[Position], int]:
    """Return the evaluator called ``name`` for ``rules``; raises ValueError if unknown."""
    if name not in EVALUATORS:
        raise ValueError(f"unknown evaluator {name!r}; choose one of {sorted(EVALUATORS)}")
    return EVALUATORS[name](rules)
