"""The ratings' model on numpy arrays (the ``ratings`` extra): see ``ratings.py``.

The same log posterior, gradient, information matrix and interval formula as the
pure-Python ``ListModel``, computed on k x k arrays of games and points, with numpy's
linear algebra (LAPACK) for the Newton steps and the covariance. For 1,000 entrants a
step costs tens of milliseconds instead of minutes.
"""

from __future__ import annotations

from itertools import chain

import numpy as np
from numpy.typing import NDArray

from oska_gui.tournament.rating_model import first_guess

Vector = NDArray[np.float64]


class ArrayModel:
    """The model on numpy arrays (see ``ratings.Model``).

    ``played[i, j]`` and ``scored[i, j]`` hold the games and points of entrant i
    against entrant j; ``precision`` is the prior's (1 / variance, natural units).
    """

    def __init__(self, count: int, games: list[tuple[int, int, float]],
                 precision: float) -> None:
        """Tally ``games`` ((i, j, score of i) each) of ``count`` entrants."""
        self.count, self.precision = count, precision
        table = np.fromiter(chain.from_iterable(games), dtype=np.float64,
                            count=3 * len(games)).reshape(-1, 3)
        first, second = table[:, 0].astype(np.intp), table[:, 1].astype(np.intp)
        self.played = np.zeros((count, count))
        self.scored = np.zeros((count, count))
        np.add.at(self.played, (first, second), 1.0)
        np.add.at(self.played, (second, first), 1.0)
        np.add.at(self.scored, (first, second), table[:, 2])
        np.add.at(self.scored, (second, first), 1.0 - table[:, 2])

    def start(self) -> Vector:
        """Return the strengths Newton's method starts from (``ratings.first_guess``)."""
        return np.array(first_guess(self.scored.sum(axis=1).tolist(),
                                    self.played.sum(axis=1).tolist()))

    def win_chances(self, strength: Vector) -> Vector:
        """Return the k x k chances that i beats j (logistic, written to avoid overflow)."""
        return 0.5 * (1.0 + np.tanh((strength[:, None] - strength[None, :]) / 2))

    def derivatives(self, strength: Vector) -> tuple[Vector, Vector]:
        """Return the log posterior's gradient and information matrix (minus its Hessian)."""
        chance = self.win_chances(strength)
        gradient = (self.scored - self.played * chance).sum(axis=1) - self.precision * strength
        weight = self.played * chance * (1.0 - chance)
        information = -weight
        information[np.diag_indices(self.count)] = self.precision + weight.sum(axis=1)
        return gradient, information

    def newton_step(self, strength: Vector) -> tuple[Vector, float]:
        """Return Newton's step from ``strength`` and its largest entry (absolute)."""
        gradient, information = self.derivatives(strength)
        step = np.linalg.solve(information, gradient).astype(np.float64, copy=False)
        return step, float(np.abs(step).max(initial=0.0))

    def moved(self, strength: Vector, step: Vector, scale: float) -> Vector:
        """Return ``strength`` + ``scale`` * ``step``."""
        return strength + scale * step

    def log_posterior(self, strength: Vector) -> float:
        """Return the log of likelihood times prior (up to a constant) at ``strength``.

        Each ordered pair counts i's points against j times log P(i beats j), which
        covers both sides of every pairing once.
        """
        difference = strength[:, None] - strength[None, :]
        log_chance = -np.logaddexp(0.0, -difference)
        return float((self.scored * log_chance).sum()
                     - self.precision / 2 * float(strength @ strength))

    def contrast_variances(self, strength: Vector) -> list[float]:
        """Return the variance of each rating's difference from the mean of all ratings.

        With C the covariance (the inverse of the information):
        C_ii - 2 (C 1)_i / k + (1' C 1) / k^2 for k entrants.
        """
        covariance = np.linalg.inv(self.derivatives(strength)[1])
        row_sums = covariance.sum(axis=1)
        size = self.count
        variances = np.diag(covariance) - 2 * row_sums / size + row_sums.sum() / size**2
        return [float(v) for v in np.maximum(variances, 0.0)]
