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

Pure Python (the tournament must not need numpy): each Newton step solves one linear
system by Cholesky's method, cubic in the number of entrants; about 5 steps are needed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from operator import mul

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
         prior_sd: float = PRIOR_SD) -> list[Rating]:
    """Return the ratings of ``count`` entrants from their games' results.

    Args:
        count: the number of entrants, numbered 0 to count - 1.
        games: (i, j, score of i) per game: 1 if i won, 0.5 a draw, 0 if j won.
        prior_sd: the prior's standard deviation in Elo points.

    Returns:
        One Rating per entrant, in entrant order; they average 0.
    """
    played, scored = _tally(count, games)
    precision = (ELO / prior_sd) ** 2
    strength = [0.0] * count
    for _ in range(MAX_STEPS):
        gradient, information = _derivatives(strength, played, scored, precision)
        step = _solve(_cholesky(information), gradient)
        if max(map(abs, step), default=0.0) < TOLERANCE:
            break
        strength = _better(strength, step, played, scored, precision)
    _, information = _derivatives(strength, played, scored, precision)
    spread = [Z95 * ELO * math.sqrt(variance)
              for variance in _contrast_variances(_cholesky(information))]
    return [Rating(ELO * r, ELO * r - half, ELO * r + half)
            for r, half in zip(strength, spread, strict=True)]


def _tally(count: int, games: Iterable[tuple[int, int, float]]
           ) -> tuple[list[list[float]], list[list[float]]]:
    """Return games played and points scored by each entrant against each other one."""
    played = [[0.0] * count for _ in range(count)]
    scored = [[0.0] * count for _ in range(count)]
    for i, j, score in games:
        played[i][j] += 1
        played[j][i] += 1
        scored[i][j] += score
        scored[j][i] += 1 - score
    return played, scored


def _win_chance(difference: float) -> float:
    """Return the logistic function of ``difference``, without overflow."""
    if difference >= 0:
        return 1 / (1 + math.exp(-difference))
    odds = math.exp(difference)
    return odds / (1 + odds)


def _derivatives(strength: list[float], played: list[list[float]], scored: list[list[float]],
                 precision: float) -> tuple[list[float], list[list[float]]]:
    """Return the log posterior's gradient and information matrix (minus its Hessian).

    Args:
        strength: the ratings in natural units.
        played, scored: games and points of each entrant against each other one.
        precision: the prior's precision (1 / variance) in natural units.
    """
    count = len(strength)
    gradient = [-precision * r for r in strength]
    information = [[0.0] * count for _ in range(count)]
    for i in range(count):
        information[i][i] = precision
        for j in range(count):
            if j == i or not played[i][j]:
                continue
            chance = _win_chance(strength[i] - strength[j])
            gradient[i] += scored[i][j] - played[i][j] * chance
            weight = played[i][j] * chance * (1 - chance)
            information[i][i] += weight
            information[i][j] -= weight
    return gradient, information


def _log_posterior(strength: list[float], played: list[list[float]],
                   scored: list[list[float]], precision: float) -> float:
    """Return the log of likelihood times prior (up to a constant) at ``strength``."""
    total = -precision / 2 * sum(r * r for r in strength)
    for i, row in enumerate(played):
        for j in range(i + 1, len(row)):
            if row[j]:
                chance = _win_chance(strength[i] - strength[j])
                total += (scored[i][j] * math.log(max(chance, 1e-300))
                          + scored[j][i] * math.log(max(1 - chance, 1e-300)))
    return total


def _better(strength: list[float], step: list[float], played: list[list[float]],
            scored: list[list[float]], precision: float) -> list[float]:
    """Return ``strength`` moved by Newton's ``step``, halved until the posterior rises.

    The log posterior is concave, so the full step is almost always taken; halving
    only guards against overshooting from far away. Near the maximum the change is
    below the sum's rounding error, so a posterior lower by no more than that counts
    as no worse.
    """
    now = _log_posterior(strength, played, scored, precision)
    floor = now - ROUNDING * (1 + abs(now))
    scale = 1.0
    while True:
        moved = [r + scale * s for r, s in zip(strength, step, strict=True)]
        if scale < 1e-6 or _log_posterior(moved, played, scored, precision) >= floor:
            return moved
        scale /= 2


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


def _contrast_variances(lower: list[list[float]]) -> list[float]:
    """Return the variance of each rating's difference from the mean of all ratings.

    With C the covariance, (L L^T)^-1 for the Cholesky factor ``lower`` of the
    information: C_ii - 2 (C 1)_i / k + (1' C 1) / k^2 for k entrants.
    """
    size = len(lower)
    row_sums = _solve(lower, [1.0] * size)  # C 1
    total = sum(row_sums)
    return [max(variance - 2 * row_sums[i] / size + total / size**2, 0.0)
            for i, variance in enumerate(_inverse_diagonal(lower))]
