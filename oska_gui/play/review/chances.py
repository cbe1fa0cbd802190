"""Win chances: what a position is worth to the side to move, from 0 to 1.

Three sources, one scale:

- **Exact values** (the solver): a win is 1, a draw 0.5, a loss 0.
- **Proven search results** (a game-end score, ``search.is_game_end``): a found win is 1,
  a found loss 0.
- **Evaluations** (``Reading``): ``1 / (1 + exp(-score / scale))``, the logistic curve.
  The review scores Oska by the learned evaluator with each board's calibrated model
  (``learned.calibrated_model``: on n = 4 the labels-only twin of the model that plays),
  whose scores are the model's log odds of winning times ``learned.SCALE`` (1,000 units
  a logit) for a position at the search's horizon; for the position searched that is
  too timid, so Oska's scale is fitted against exact values (``OSKA_REVIEW_SCALE``).
  Hexapawn's evaluator is hand-written (100 a pawn, see ``games.pawns.pawn_evaluator``)
  and has no such scale; it gets ``PAWN_SCALE`` = 250: a pawn up (and nothing else) is a
  60 % chance, two pawns 69 %, a pawn about to queen (100 + 30 + 20 a row) more.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from oska_gui.engine.registry import GameKind
from oska_gui.engine.search import is_game_end

PAWN_SCALE = 250
CERTAIN = 1.0
# Oska's review reads a search's score at 540 units a logit, not the evaluator's 1,000:
# read at 1,000 the chances were too timid (held-out n = 5 positions read as 35 % were won
# 21 % of the time). ``python -m tools.calibration`` fits the scale on each half of the
# held-out n = 5 positions, searched at the default budget: 1,000 / 1.85 on both.
OSKA_REVIEW_SCALE = 540


@dataclass(frozen=True)
class Reading:
    """How a game's search scores read as win chances for the side they score.

    Attributes:
        scale: the evaluator units of one logit of the logistic curve.
    """

    scale: float

    def chance(self, score: int) -> float:
        """Return the win chance of a search score: 1 or 0 for a proven win or loss, else
        the logistic curve's value at ``scale``."""
        if is_game_end(score):
            return CERTAIN if score > 0 else 0.0
        return 1.0 / (1.0 + math.exp(-score / self.scale))


READINGS: dict[GameKind, Reading] = {GameKind.OSKA: Reading(OSKA_REVIEW_SCALE),
                                     GameKind.HEXAPAWN: Reading(PAWN_SCALE)}


def result_chance(result: int) -> float:
    """Return the win chance of a result for the side to move: +1 (a win) is 1, 0 (a
    draw) 0.5 and -1 (a loss) 0; for an exact value's or a finished game's result."""
    return (result + 1) / 2
