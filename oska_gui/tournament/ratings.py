"""Elo ratings by Bradley-Terry maximum likelihood, with 95 % intervals.

The model: entrant i beats entrant j with probability 1 / (1 + exp(r_j - r_i)); a draw
counts as half a win and half a loss, as in Elo. The ratings maximise the likelihood of
all results times a weak Gaussian prior (each rating about 0, standard deviation
``PRIOR_SD`` Elo), found by Newton's method. The prior changes little for an entrant
that won some games and lost some, but keeps the rating of one that won (or lost) every
game finite, where pure maximum likelihood would send it to infinity. It also fixes the
scale's zero: the ratings average exactly 0, the field's mean.

The intervals come from the Fisher information (the curvature of the log posterior at
its maximum): rating +- 1.96 standard errors of its difference from the field's mean.
Ratings are shown in Elo points: 400 / ln 10 times the natural units above, so 400
points more means ten-to-one odds.

Each Newton step solves one linear system, cubic in the number of entrants; about 5
steps are needed. With numpy (the ``ratings`` extra) the work is done on arrays
(``ratings_numpy.py``): 1,000 entrants in about a second. Without it a pure-Python
Cholesky factorisation does the same (the tournament itself must not need numpy), fine
for a class but minutes for a thousand entrants.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from operator import mul
from typing import Any

from oska_gui.tournament.rating_model import RatingModel, first_guess

ELO = 400 / math.log(10)  # Elo points per natural unit of the logistic model
PRIOR_SD = 1000.0  # Elo
Z95 = 1.959964  # the 97.5th percentile of the standard normal distribution
MAX_STEPS = 100
TOLERANCE = 1e-6  # natural units (0.0002 Elo): stop once no rating would move more
ROUNDING = 1e-9  # relative: a log posterior this much lower is rounding, not worse


@dataclass(frozen=True)
class Rating:
    """An Elo rating relative to the field's mean, with its 95 % interval."""

    elo: float
    low: float
    high: float


def rate(count: int, games: Iterable[tuple[int, int, float]],
         prior_sd: float = PRIOR_SD, backend: str = "auto") -> list[Rating]:
    """Return the ratings of ``count`` entrants from their games' results.

    Args:
        count: the number of entrants, numbered 0 to count - 1.
        games: (i, j, score of i) per game: 1 if i won, 0.5 a draw, 0 if j won.
        prior_sd: the prior's standard deviation in Elo points.
        backend: 'numpy', 'python', or 'auto' (numpy where it is installed).

    Returns:
        One Rating per entrant, in entrant order; they average 0.
    """
    if count == 0:
        return []
    model = make_model(count, list(games), (ELO / prior_sd) ** 2, backend)
    strength = maximise(model)
    spread = [Z95 * ELO * math.sqrt(variance)
              for variance in model.contrast_variances(strength)]
    return [Rating(ELO * float(r), ELO * float(r) - half, ELO * float(r) + half)
            for r, half in zip(strength, spread, strict=True)]


def make_model(count: int, games: list[tuple[int, int, float]], precision: float,
               backend: str) -> RatingModel:
    """Return the model of ``games`` on the ``backend`` asked for ('auto': numpy if present).

    Raises:
        ValueError: an unknown backend.
        ImportError: 'numpy' asked for but not installed.
    """
    if backend not in ("auto", "numpy", "python"):
        raise ValueError(f"unknown ratings backend {backend!r}: 'auto', 'numpy' or 'python'")
    if backend != "python":
        try:
            from oska_gui.tournament.ratings_numpy import ArrayModel
        except ImportError:
            if backend == "numpy":
                raise
        else:
            return ArrayModel(count, games, precision)
    return ListModel(count, games, precision)


def maximise(model: RatingModel) -> Any:
    """Return the strengths that maximise ``model``'s log posterior, by Newton's method.

    Each step is halved until the posterior rises. The log posterior is concave, so
    the full step is almost always taken; halving only guards against overshooting
    from far away. Near the maximum the change is below the sum's rounding error, so a
    posterior lower by no more than that counts as no worse.
    """
    strength = model.start()
    now = model.log_posterior(strength)
    for _ in range(MAX_STEPS):
        step, largest = model.newton_step(strength)
        if largest < TOLERANCE:
            break
        floor = now - ROUNDING * (1 + abs(now))
        scale = 1.0
        while True:
            moved = model.moved(strength, step, scale)
            value = model.log_posterior(moved)
            if scale < 1e-6 or value >= floor:
                break
            scale /= 2
        strength, now = moved, value
    return strength


def win_chance(difference: float) -> float:
    """Return the logistic function of ``difference``, without overflow."""
    if difference >= 0:
        return 1 / (1 + math.exp(-difference))
    odds = math.exp(difference)
    return odds / (1 + odds)


class ListModel:
    """The model on lists of floats, in pure Python (see ``RatingModel``).

    ``played[i][j]`` and ``scored[i][j]`` hold the games and points of entrant i
    against entrant j; ``precision`` is the prior's (1 / variance, natural units).
    """

    def __init__(self, count: int, games: list[tuple[int, int, float]],
                 precision: float) -> None:
        """Tally ``games`` ((i, j, score of i) each) of ``count`` entrants."""
        self.count, self.precision = count, precision
        self.played = [[0.0] * count for _ in range(count)]
        self.scored = [[0.0] * count for _ in range(count)]
        for i, j, score in games:
            self.played[i][j] += 1
            self.played[j][i] += 1
            self.scored[i][j] += score
            self.scored[j][i] += 1 - score

    def start(self) -> list[float]:
        """Return the strengths Newton's method starts from (see ``first_guess``)."""
        return first_guess([sum(row) for row in self.scored], [sum(row) for row in self.played])

    def newton_step(self, strength: list[float]) -> tuple[list[float], float]:
        """Return Newton's step from ``strength`` and its largest entry (absolute)."""
        gradient, information = self.derivatives(strength)
        step = _solve(_cholesky(information), gradient)
        return step, max(map(abs, step), default=0.0)

    def moved(self, strength: list[float], step: list[float], scale: float) -> list[float]:
        """Return ``strength`` + ``scale`` * ``step``."""
        return [r + scale * s for r, s in zip(strength, step, strict=True)]

    def derivatives(self, strength: list[float]) -> tuple[list[float], list[list[float]]]:
        """Return the log posterior's gradient and information matrix (minus its Hessian)."""
        count, played, scored = self.count, self.played, self.scored
        gradient = [-self.precision * r for r in strength]
        information = [[0.0] * count for _ in range(count)]
        for i in range(count):
            information[i][i] = self.precision
            for j in range(count):
                if j == i or not played[i][j]:
                    continue
                chance = win_chance(strength[i] - strength[j])
                gradient[i] += scored[i][j] - played[i][j] * chance
                weight = played[i][j] * chance * (1 - chance)
                information[i][i] += weight
                information[i][j] -= weight
        return gradient, information

    def log_posterior(self, strength: list[float]) -> float:
        """Return the log of likelihood times prior (up to a constant) at ``strength``."""
        total = -self.precision / 2 * sum(r * r for r in strength)
        for i, row in enumerate(self.played):
            for j in range(i + 1, len(row)):
                if row[j]:
                    chance = win_chance(strength[i] - strength[j])
                    total += (self.scored[i][j] * math.log(max(chance, 1e-300))
                              + self.scored[j][i] * math.log(max(1 - chance, 1e-300)))
        return total

    def contrast_variances(self, strength: list[float]) -> list[float]:
        """Return the variance of each rating's difference from the mean of all ratings.

        With C the covariance, the inverse of the information L L^T (Cholesky):
        C_ii - 2 (C 1)_i / k + (1' C 1) / k^2 for k entrants.
        """
        lower = _cholesky(self.derivatives(strength)[1])
        size = len(lower)
        row_sums = _solve(lower, [1.0] * size)  # C 1
        total = sum(row_sums)
        return [max(variance - 2 * row_sums[i] / size + total / size**2, 0.0)
                for i, variance in enumerate(_inverse_diagonal(lower))]


def _cholesky(matrix: list[list[float]]) -> list[list[float]]:
    """Return the lower-triangular L with L L^T = ``matrix`` (symmetric positive definite)."""
    size = len(matrix)
    lower = [[0.0] * size for _ in range(size)]
    for i in range(size):
        row = lower[i]
        for j in range(i + 1):
            other = lower[j]
            total = matrix[i][j] - sum(map(mul, row[:j], other[:j]))
            row[j] = math.sqrt(total) if i == j else total / other[j]
    return lower


def _solve(lower: list[list[float]], vector: list[float]) -> list[float]:
    """Return x with L L^T x = ``vector``, for the Cholesky factor ``lower``."""
    size = len(vector)
    middle = [0.0] * size
    for i in range(size):
        middle[i] = (vector[i] - sum(map(mul, lower[i][:i], middle[:i]))) / lower[i][i]
    result = [0.0] * size
    for i in reversed(range(size)):
        total = middle[i] - sum(lower[k][i] * result[k] for k in range(i + 1, size))
        result[i] = total / lower[i][i]
    return result


def _inverse_diagonal(lower: list[list[float]]) -> list[float]:
    """Return the diagonal of (L L^T)^-1: entry i is the squared length of L^-1 e_i.

    L^-1 e_i is zero above row i, so each column costs a triangle, not a square.
    """
    size = len(lower)
    diagonal = []
    for i in range(size):
        column = [0.0] * size
        column[i] = 1 / lower[i][i]
        for r in range(i + 1, size):
            column[r] = -sum(map(mul, lower[r][i:r], column[i:r])) / lower[r][r]
        diagonal.append(sum(y * y for y in column[i:]))
    return diagonal
