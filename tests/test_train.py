"""Training the learned evaluator: the fit recovers a known model, seeds reproduce."""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

from oska_gui import train
from oska_gui.exact_dataset import is_playable
from oska_gui.features import BUCKETS, NAMES
from oska_gui.learned import Model
from oska_gui.oska import oska_rules
from oska_gui.solver import _solution, run, solver_for


def test_fit_recovers_the_model_that_made_the_labels() -> None:
    """Labels drawn from a known logistic model are fitted back to about that model."""
    rng = np.random.default_rng(3)
    count = 40_000
    rows = np.column_stack([rng.integers(0, BUCKETS, count)]
                           + [rng.integers(0, 4, count) for _ in NAMES])
    truth = Model(tuple(rng.normal(0, 0.5, BUCKETS)), tuple(rng.normal(0, 0.3, len(NAMES))))
    chances = train.predict(truth, rows)
    labels = (rng.random(count) < chances).astype(float)
    fitted = train.fit([(train.Samples(rows, labels), 1.0)])
    assert np.allclose(fitted.weights, truth.weights, atol=0.08)
    assert np.mean(np.abs(train.predict(fitted, rows) - chances)) < 0.02


def test_labels_are_the_result_for_the_side_to_move() -> None:
    """A win is 1, a draw 0.5, a loss 0."""
    assert [train.label(r) for r in (1, 0, -1)] == [1.0, 0.5, 0.0]


def small_solved_game() -> tuple[list, list[int]]:
    """Return the playable positions of a small solved n = 4 endgame and their results."""
    rules = oska_rules(4)
    root = rules.from_rows(["-ww-", "w--", "--", "-bb", "b--b"], 0)
    table = run(solver_for(rules).table_steps(root, 200_000))
    positions = [pos for pos in table.scores if is_playable(rules, pos)]
    return positions, [_solution(table.scores[pos]).result for pos in positions]


def tiny_run(seed: int) -> dict[str, Model]:
    """Return the models of a tiny training run (small exact set, a few games)."""
    args = argparse.Namespace(seed=seed, rounds=1, games=3, sizes=(5, 6), exact=[],
                              solve=[], samples=0, workers=2, out=None)
    return train.train(args)


def test_a_seeded_run_is_reproducible(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same seed gives the same weights; another seed other games and weights."""
    monkeypatch.setattr(train, "solved_n4", small_solved_game)
    first, again, other = tiny_run(7), tiny_run(7), tiny_run(8)
    assert first == again
    assert first["any"] != other["any"]
    assert set(first) == {"any", "4"}  # the general model and the solved board's own


def test_self_play_samples_come_back_in_job_order() -> None:
    """Samples from a pool of workers are the same as from one worker."""
    model = Model(tuple([0.0] * BUCKETS), tuple([0.1] * len(NAMES)))
    with ProcessPoolExecutor(2) as pool:
        parallel = train.self_play_samples(model, (5,), 4, 11, pool)
    with ProcessPoolExecutor(1) as pool:
        serial = train.self_play_samples(model, (5,), 4, 11, pool)
    assert np.array_equal(parallel.rows, serial.rows)
    assert np.array_equal(parallel.labels, serial.labels)
    assert len(parallel.labels) > 0
