"""What both backends of the ratings share: the model's interface and the first guess.

``ratings.py`` maximises a ``RatingModel`` by Newton's method; ``ratings.ListModel`` (pure
Python) and ``ratings_numpy.ArrayModel`` (numpy) implement it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Protocol


class RatingModel(Protocol):
    """The log posterior of one tournament's results, on lists or on numpy arrays.

    A strength is a vector of ratings in natural units: a list of floats or an array.
    """

    def start(self) -> Any:
        """Return the strengths Newton's method starts from (see ``first_guess``)."""
        ...

    def newton_step(self, strength: Any) -> tuple[Any, float]:
        """Return Newton's step from ``strength`` and the step's largest entry (absolute)."""
        ...

    def moved(self, strength: Any, step: Any, scale: float) -> Any:
        """Return ``strength`` + ``scale`` * ``step``."""
        ...

    def log_posterior(self, strength: Any) -> float:
        """Return the log of likelihood times prior (up to a constant) at ``strength``."""
        ...

    def contrast_variances(self, strength: Any) -> Sequence[float]:
        """Return the variance of each rating's difference from the field's mean."""
        ...



def first_guess(points: Sequence[float], games: Sequence[float]) -> list[float]:
    """Return each entrant's log odds of scoring a point, centred on the field's mean.

    Near the answer in a round robin, so Newton's method needs fewer steps (5 instead
    of 8 for 1,000 entrants); the half points keep an unbeaten entrant's finite.
    """
    odds = [math.log((won + 0.5) / (played - won + 0.5))
            for won, played in zip(points, games, strict=True)]
    mean = sum(odds) / len(odds) if odds else 0.0
    return [value - mean for value in odds]
