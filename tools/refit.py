"""Fit a few weights of a learned model, the others held: ``python -m tools.refit``.

A new feature joins the model with weight 0 (``engine.models``: every feature needs a
weight). Rather than remaking everything (``tools.train``), this fits only the named
weights, on exact labels: the model's own score of each position is kept as it is
(an offset in the logistic regression) and the named counts are fitted on top of it,
so the other weights, the margin table and any pattern tables do not move. The
labels are the exact results of the whole n = 4 game (solved here) and of each
``--exact`` dataset (``oska solve --n 5 --dataset FILE``), each set an equal share,
up to ``--samples`` seeded positions a set; held-out positions
(``exact_dataset.is_held_out``) are never fitted. It prints each set's log loss
before and after and the weights found, and rewrites the model's file.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from oska_gui.core.types import Position
from oska_gui.engine.exact_dataset import is_held_out, load_dataset
from oska_gui.engine.features import NAMES, feature_space
from oska_gui.engine.learned import SCALE, learned_evaluator
from oska_gui.engine.models import GENERAL, WEIGHTS_DIR, Model, model_path, read_model, write_model
from oska_gui.games.oska import oska_rules
from tools.samples import label

NEWTON_STEPS = 30
L2 = 1e-4
# what one set gives the fit: the named counts, the model's logits and the labels
Rows = tuple[np.ndarray, np.ndarray, np.ndarray]


def offset_fit(sets: Sequence[Rows]) -> np.ndarray:
    """Return the weights of the counts that best predict the labels on top of the logits.

    L2-regularised logistic regression by Newton's method, each set an equal share of
    the total sample weight.
    """
    counts = np.vstack([rows for rows, _, _ in sets])
    logits = np.concatenate([values for _, values, _ in sets])
    labels = np.concatenate([values for _, _, values in sets])
    share = np.concatenate([np.full(len(values), 1 / len(values)) for _, _, values in sets])
    share /= share.sum()
    theta = np.zeros(counts.shape[1])
    ridge = L2 * np.eye(len(theta))
    for _ in range(NEWTON_STEPS):
        p = 1 / (1 + np.exp(-(logits + counts @ theta)))
        gradient = counts.T @ (share * (p - labels)) + L2 * theta
        hessian = (counts * (share * p * (1 - p))[:, None]).T @ counts + ridge
        theta -= np.linalg.solve(hessian, gradient)
    return theta


def exact_rows(model: Model, n: int, positions: Sequence[Position], results: Sequence[int],
               names: Sequence[str], count: int, seed: int) -> Rows:
    """Return up to ``count`` seeded fitting rows of one exact set of board ``n``.

    Only positions in contact (the model scores a race exactly) and not held out.
    """
    rules = oska_rules(n)
    space, evaluate = feature_space(rules), learned_evaluator(rules, model)
    columns = [NAMES.index(name) for name in names]
    order = list(range(len(positions)))
    random.Random(seed).shuffle(order)
    counts: list[list[int]] = []
    logits: list[float] = []
    labels: list[float] = []
    for i in order:
        if len(labels) == count:
            break
        features = space.features(positions[i])
        if features is None or is_held_out(rules, positions[i]):
            continue
        counts.append([features.counts[column] for column in columns])
        logits.append(evaluate(positions[i]) / SCALE)
        labels.append(label(results[i]))
    return np.array(counts, float).reshape(-1, len(columns)), np.array(logits), np.array(labels)


def log_loss(rows: Rows, theta: np.ndarray) -> float:
    """Return the mean log loss of the logits plus ``theta`` times the counts."""
    counts, logits, labels = rows
    p = np.clip(1 / (1 + np.exp(-(logits + counts @ theta))), 1e-12, 1 - 1e-12)
    return float(-np.mean(labels * np.log(p) + (1 - labels) * np.log(1 - p)))


def with_weights(model: Model, names: Sequence[str], values: Sequence[float]) -> Model:
    """Return ``model`` with the weights of ``names`` set to ``values``."""
    weights = list(model.weights)
    for name, value in zip(names, values, strict=True):
        weights[NAMES.index(name)] = float(value)
    return Model(model.table, tuple(weights), model.windows, model.patterns)


def main(argv: list[str] | None = None) -> int:
    """Refit the named weights of one model with the command-line ``argv``; return 0."""
    parser = argparse.ArgumentParser(prog="python -m tools.refit",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--names", required=True,
                        help="the weights to fit, e.g. own_unmatched,their_unmatched")
    parser.add_argument("--model", default=GENERAL, help="the model: a board size or 'any'")
    parser.add_argument("--exact", type=Path, action="append", default=[], metavar="FILE",
                        help="an exact dataset to fit too (oska solve --n 5 --dataset FILE)")
    parser.add_argument("--samples", type=int, default=200_000, help="positions a set at most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--weights", type=Path, default=WEIGHTS_DIR,
                        help="the weights folder to read and rewrite (default: the package's)")
    args = parser.parse_args(argv)
    names = args.names.split(",")
    unknown = sorted(set(names) - set(NAMES))
    if unknown:
        parser.error(f"unknown weights {unknown}")
    from tools.train import solved_n4  # it solves n = 4 with the pure-Python solver

    model = read_model(model_path(args.weights, args.model))
    sources = [(4, "n = 4 (solved here)", *solved_n4())]
    for path in args.exact:
        data = load_dataset(path)
        sources.append((data.n, path.name, [data.position(i) for i in range(len(data))],
                        [data.solution(i).result for i in range(len(data))]))
    sets = [exact_rows(model, n, positions, results, names, args.samples, args.seed)
            for n, _, positions, results in sources]
    theta = offset_fit(sets)
    for (_, name, _, _), rows in zip(sources, sets, strict=True):
        print(f"{name}: {len(rows[2]):,} positions, log loss {log_loss(rows, 0 * theta):.4f}"
              f" -> {log_loss(rows, theta):.4f}")
    print(", ".join(f"{name} {value:+.3f}" for name, value in zip(names, theta, strict=True)))
    write_model(with_weights(model, names, theta.tolist()), model_path(args.weights, args.model))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
