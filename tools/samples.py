"""What training and distilling share: samples of seeded self-play and the logistic fit.

``train`` (the command that makes the weights from scratch) and ``distill`` (its
deep-search rounds) both play seeded games with ``play_line`` through the one game
runner, turn positions into feature rows with ``feature_rows`` and fit the general
model with ``fit``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from oska_gui.core.types import Outcome, Position
from oska_gui.engine.evaluators import oska_evaluator
from oska_gui.engine.features import BUCKETS, feature_space
from oska_gui.engine.learned import Model, learned_evaluator
from oska_gui.engine.models import write_models
from oska_gui.engine.patterns import Window, bands
from oska_gui.games.oska import OskaRules, oska_rules
from oska_gui.play.players import DepthPlayer, RandomMoves
from oska_gui.play.runner import Runner
from oska_gui.play.selfplay import random_opening

L2 = 1e-3  # ridge on every weight: keeps rare features (a lone piece, a dead end) sane
NEWTON_STEPS = 25
DEPTHS = (1, 2, 3, 3, 4)  # self-play depths, drawn per game
RANDOM_MOVE = 0.03  # a random move now and then, so games leave the beaten track
SPARRING = ("classic", "simple", "race")


@dataclass
class Samples:
    """Feature rows and labels: ``rows[i]`` is (bucket, counts...), ``labels[i]`` in [0, 1].

    Samples of a board with pattern tables also have ``windows[i]``, the position's
    index in each window (``patterns.PatternSpace.indices``), and may have ``pairs``:
    rows ``(low, high)`` of sample numbers, two positions with the same side to move
    of which the first should score lower (``leaf_pairs``).
    """

    rows: np.ndarray
    labels: np.ndarray
    windows: np.ndarray | None = None
    pairs: np.ndarray | None = None

    def take(self, mask: np.ndarray) -> Samples:
        """Return the samples where the boolean ``mask`` is True, with the pairs of
        two such samples renumbered."""
        windows = None if self.windows is None else self.windows[mask]
        pairs = None
        if self.pairs is not None:
            number = np.cumsum(mask) - 1  # a kept sample's number among the kept ones
            both = mask[self.pairs].all(axis=1)
            pairs = number[self.pairs[both]].reshape(-1, 2)
        return Samples(self.rows[mask], self.labels[mask], windows, pairs)


def pattern_windows(rules: OskaRules) -> tuple[Window, ...]:
    """Return the windows of the pattern tables of ``rules``' board, () for none.

    On n = 4 every band of 3 and of 4 rows: the two 4-row bands (12 cells, 531,441
    entries each) hold the others, and see all but one end row; with them the n = 4
    model threw the exact value away at depth 2 in 205 of the 191,057 positions where
    the choice matters, where the 3-row bands alone lost it in 2,179. On n = 5 the bands
    of 2 and of 3 rows and the 4-row bands of 12 cells (rows 1-4 and 2-5): the two
    12-cell bands of 3 rows at the ends kept the exact value at every search depth where
    the narrower bands alone lost it in up to 10 % of the positions, and the 4-row ones
    took the value-losing choices at depths 2-10 on 707 held-out positions from 381 to
    314. None on unsolved boards.
    """
    if rules.n == 4:
        return bands(rules, 3) + bands(rules, 4)
    if rules.n == 5:
        return bands(rules, 2) + bands(rules, 3) + bands(rules, 4, max_cells=12)
    return ()


def label(result: int) -> float:
    """Return the training label of a result for the side to move: 1, 0.5 or 0."""
    return (result + 1) / 2


def feature_rows(rules: OskaRules, positions: Iterable[Position]) -> tuple[list, list[int]]:
    """Return the feature rows of the contact positions among ``positions`` and their
    indices in it (positions whose armies have passed have no features)."""
    space = feature_space(rules)
    rows, kept = [], []
    for i, pos in enumerate(positions):
        found = space.features(pos)
        if found is not None:
            rows.append((found[0], *found[1]))
            kept.append(i)
    return rows, kept


@dataclass(frozen=True)
class GameJob:
    """One self-play game: board size, seed, and the model playing it."""

    n: int
    seed: int
    model: Model


def play_line(job: GameJob) -> tuple[list[Position], Outcome]:
    """Play ``job``'s game: a seeded random opening, then two players drawn from the
    pool searching the same depth, with a random move now and then.

    Returns:
        Every position of the game in order, and how it ended.
    """
    rng = random.Random(job.seed)
    rules = oska_rules(job.n)
    learned = learned_evaluator(rules, job.model)
    players = [learned, learned, *(oska_evaluator(rules, name) for name in SPARRING)]
    evaluators = (rng.choice(players), rng.choice(players))
    depth = rng.choice(DEPTHS)
    line = random_opening(rules, rng.randint(job.n - 2, 2 * job.n), rng)
    sides = [RandomMoves(DepthPlayer(f"depth {depth}", evaluate, depth, rules), rules, rng,
                         RANDOM_MOVE) for evaluate in evaluators]
    runner = Runner(rules, sides, line)
    outcome = runner.run()
    return runner.positions, outcome


def game_samples(play: Callable[[GameJob], list[tuple[tuple[int, ...], float]]], model: Model,
                 sizes: Sequence[int], games: int, seed: int, pool: ProcessPoolExecutor,
                 chunksize: int = 4) -> Samples:
    """Return the samples that ``play`` makes of ``games`` seeded games per board size.

    Args:
        play: plays one game and returns its (feature row, label) pairs.
        model: the learned model in the games.
        sizes: the board sizes.
        games: games per board size.
        seed: the games' seed.
        pool: where the games are played (results gathered in job order).
        chunksize: games handed to a worker at once.

    Returns:
        All the games' samples, game after game.
    """
    jobs = [GameJob(n, seed * 1_000_003 + 7919 * n + i, model)
            for n in sizes for i in range(games)]
    rows: list[tuple[int, ...]] = []
    labels: list[float] = []
    for found in pool.map(play, jobs, chunksize=chunksize):
        for row, value in found:
            rows.append(row)
            labels.append(value)
    return Samples(np.array(rows, dtype=np.int64), np.array(labels, dtype=float))


def design(rows: np.ndarray) -> np.ndarray:
    """Return the design matrix: the bucket one-hot, then the counts."""
    onehot = np.zeros((len(rows), BUCKETS))
    onehot[np.arange(len(rows)), rows[:, 0]] = 1.0
    return np.hstack([onehot, rows[:, 1:].astype(float)])


def fit(groups: Sequence[tuple[Samples, float]]) -> Model:
    """Fit the model to groups of samples, each with its share of the total weight.

    Weighted L2-regularised logistic regression by Newton's method: the loss is
    convex and has about 30 weights, so a few exact steps converge.
    """
    matrix = np.vstack([design(samples.rows) for samples, _ in groups])
    labels = np.concatenate([samples.labels for samples, _ in groups])
    weights = np.concatenate([np.full(len(samples.labels), share / max(1, len(samples.labels)))
                              for samples, share in groups])
    weights /= weights.sum()
    theta = np.zeros(matrix.shape[1])
    ridge = L2 * np.eye(len(theta))
    for _ in range(NEWTON_STEPS):
        p = 1.0 / (1.0 + np.exp(-(matrix @ theta)))
        gradient = matrix.T @ (weights * (p - labels)) + L2 * theta
        hessian = (matrix * (weights * p * (1 - p))[:, None]).T @ matrix + ridge
        theta -= np.linalg.solve(hessian, gradient)
    return Model(tuple(theta[:BUCKETS].tolist()), tuple(theta[BUCKETS:].tolist()))


def write_weights(models: dict[str, Model], folder: Path) -> None:
    """Write ``models`` to the weights folder ``folder`` (one file a model, see
    ``engine.models``) and say so."""
    write_models(models, folder)
    print(f"wrote {', '.join(sorted(models))} to {folder}")


def timed_printer() -> Callable[[str], None]:
    """Return a function printing a line with the seconds since this call."""
    start = time.perf_counter()
    return lambda line: print(f"{line} ({time.perf_counter() - start:.0f} s)", flush=True)

