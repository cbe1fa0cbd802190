"""Win chances: what a position is worth to the side to move, from 0 to 1.

Three sources, one scale:

- **Exact values** (the solver): a win is 1, a draw 0.5, a loss 0.
- **Proven search results** (a game-end score, ``search.is_game_end``): a found win is 1,
  a found loss 0.
- **Evaluations**: ``1 / (1 + exp(-score / scale))``, the logistic curve. The review
  scores Oska by the learned evaluator with each board's calibrated model
  (``learned.calibrated_model``: on n = 4 the labels-only twin of the model that plays),
  whose scores are the model's log odds of winning times ``learned.SCALE`` (1,000 units
  a logit), so its scale is ``learned.SCALE`` and the win chance is the model's own
  probability. Hexapawn's evaluator is hand-written (100 a pawn, see
  ``games.pawns.pawn_evaluator``) and has no such scale; it gets ``PAWN_SCALE`` = 250:
  a pawn up (and nothing else) is a 60 % chance, two pawns 69 %, a pawn about to queen
  (100 + 30 + 20 a row) more.
"""

from __future__ import annotations

import math

from oska_gui.engine.learned import SCALE as LEARNED_SCALE
from oska_gui.engine.registry import GameKind
from oska_gui.engine.search import is_game_end

PAWN_SCALE = 250
# the evaluator units a logit of winning is worth, per game (its best evaluator)
SCALES: dict[GameKind, float] = {GameKind.OSKA: LEARNED_SCALE, GameKind.HEXAPAWN: PAWN_SCALE}
CERTAIN = 1.0


def search_chance(score: int, scale: float) -> float:
    """Return the win chance of a search score for the side it scores.

    Args:
        score: the search's score (an evaluation, or a game-end score).
        scale: the evaluator units of one logit (``SCALES``).

    Returns:
        1 or 0 for a proven win or loss, else the logistic curve's value.
    """
    if is_game_end(score):
        return CERTAIN if score > 0 else 0.0
    return 1.0 / (1.0 + math.exp(-score / scale))


def result_chance(result: int) -> float:
    """Return the win chance of a result for the side to move: +1 (a win) is 1, 0 (a
    draw) 0.5 and -1 (a loss) 0; for an exact value's or a finished game's result."""
    return (result + 1) / 2
