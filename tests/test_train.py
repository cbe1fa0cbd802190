"""Training the learned evaluator: the fit recovers a known model, seeds reproduce."""

from __future__ import annotations

import argparse
import random
import warnings
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest
from evaluator_helpers import colour_mirror, side_mirror

from oska_gui.core.types import Position
from oska_gui.engine.exact_dataset import is_held_out, is_playable
from oska_gui.engine.features import BUCKETS, NAMES
from oska_gui.engine.learned import Model, learned_evaluator
from oska_gui.engine.models import chances_key
from oska_gui.engine.patterns import pattern_space
from oska_gui.engine.solver import run, solution_of, solver_for
from oska_gui.games.oska import oska_rules
from oska_gui.play.selfplay import random_opening
from tools import leaf_pairs, train
from tools import samples as shared

pytestmark = pytest.mark.numba


def test_fit_recovers_the_model_that_made_the_labels() -> None:
    """Labels drawn from a known logistic model are fitted back to about that model."""
    rng = np.random.default_rng(3)
    count = 40_000
    rows = np.column_stack([rng.integers(0, BUCKETS, count)]
                           + [rng.integers(0, 4, count) for _ in NAMES])
    truth = Model(tuple(rng.normal(0, 0.5, BUCKETS)), tuple(rng.normal(0, 0.3, len(NAMES))))
    chances = train.predict(truth, shared.Samples(rows, np.zeros(count)))
    samples = shared.Samples(rows, (rng.random(count) < chances).astype(float))
    fitted = shared.fit([(samples, 1.0)])
    assert np.allclose(fitted.weights, truth.weights, atol=0.08)
    assert np.mean(np.abs(train.predict(fitted, samples) - chances)) < 0.02


def test_a_report_on_no_held_out_positions_says_so() -> None:
    """A saved solved game's samples hold none out: one plain line, no mean of nothing."""
    empty = shared.Samples(np.zeros((0, 1 + len(NAMES)), dtype=np.int64), np.zeros(0))
    model = Model(tuple([0.0] * BUCKETS), tuple([0.0] * len(NAMES)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert train.report(model, "n = 5", empty) == "n = 5: no held-out positions"


def test_labels_are_the_result_for_the_side_to_move() -> None:
    """A win is 1, a draw 0.5, a loss 0."""
    assert [shared.label(r) for r in (1, 0, -1)] == [1.0, 0.5, 0.0]


def small_solved_game() -> tuple[list, list[int]]:
    """Return the playable positions of a small solved n = 4 endgame and their results."""
    rules = oska_rules(4)
    root = rules.from_rows(["-ww-", "w--", "--", "-bb", "b--b"], 0)
    table = run(solver_for(rules).table_steps(root, 200_000))
    positions = [pos for pos in table.scores if is_playable(rules, pos)]
    return positions, [solution_of(table.scores[pos]).result for pos in positions]


def log_loss(model: Model, samples: shared.Samples) -> float:
    """Return the mean log loss of ``model``'s predictions of ``samples``' labels."""
    p = np.clip(train.predict(model, samples), 1e-9, 1 - 1e-9)
    return float(-np.mean(samples.labels * np.log(p) + (1 - samples.labels) * np.log(1 - p)))


def test_pattern_tables_fit_better_than_the_counts_alone() -> None:
    """On a solved endgame, tables on top of the counts fit the exact labels better,
    and the fitted tables give mirror images one value."""
    rules = oska_rules(4)
    kept, held = train.exact_samples(rules, *small_solved_game())
    both = shared.Samples(np.vstack([kept.rows, held.rows]),
                         np.concatenate([kept.labels, held.labels]),
                         np.vstack([kept.windows, held.windows]))
    with_tables = train.fit_patterns(both, rules)
    counts_only = shared.fit([(both, 1.0)])
    assert with_tables.windows == shared.pattern_windows(rules)
    assert log_loss(with_tables, both) < log_loss(counts_only, both) - 0.05
    space = pattern_space(rules, with_tables.windows)
    for window, values in enumerate(with_tables.patterns):
        assert all(values[space.mirror(window, i)] == v for i, v in enumerate(values))


def test_taking_and_joining_samples_renumber_their_pairs() -> None:
    """Pairs follow their samples through ``take`` (pairs with a dropped end go) and
    ``joined`` (the later parts' numbers shifted)."""
    rows = np.arange(8, dtype=np.int64).reshape(4, 2)
    samples = shared.Samples(rows, np.zeros(4), None, np.array([[0, 1], [2, 3], [3, 1]]))
    taken = samples.take(np.array([True, False, True, True]))
    assert taken.pairs is not None and taken.pairs.tolist() == [[1, 2]]
    assert taken.rows.tolist() == [[0, 1], [4, 5], [6, 7]]
    both = train.joined([samples, taken])
    assert both.pairs is not None
    assert both.pairs.tolist() == [[0, 1], [2, 3], [3, 1], [5, 6]]
    assert np.array_equal(both.rows, np.vstack([rows, taken.rows]))


def small_set() -> train.ExactSet:
    """Return the small solved endgame as an exact set that knows every result."""
    rules = oska_rules(4)
    positions, results = small_solved_game()
    kept, held = train.exact_samples(rules, positions, results)
    result_of = dict(zip(positions, results, strict=True))
    return train.ExactSet(4, "endgame", kept, held, None,
                          lambda pos: result_of.get(pos, rules.terminal(pos)), positions)


def choice_roots(exact: train.ExactSet) -> list[tuple[Position, list[Position], list[int]]]:
    """Return (root, its moves, their exact results) for the roots of ``exact`` where the
    choice matters and that are not held out: those ``leaf_pairs`` pairs leaves of."""
    rules, found = oska_rules(exact.n), []
    assert exact.exact is not None
    for root in exact.roots:
        kids = rules.real_children(root)
        values = [exact.exact(kid) for kid in kids]
        if None not in values and len(set(values)) > 1 and not is_held_out(rules, root):
            found.append((root, kids, values))
    return found


@pytest.mark.parametrize("plies", [1, 2, 3])
def test_leaf_pairs_rank_the_leaves_behind_each_move(plies: int) -> None:
    """Leaves ``plies`` below a root are its moves themselves (1), the model's expected
    replies (2), or the ends of two-ply searches below its moves (3). With the root's
    mover to move at the leaves (even plies) a pair puts the leaf behind a losing move
    first and one behind a value-keeping move second; with the opponent to move (odd)
    the other way round. The leaves' results are exact, and none is held out or out of
    contact."""
    rules = oska_rules(4)
    exact = small_set()
    assert exact.exact is not None
    evaluate = learned_evaluator(rules)
    leaves, results, pairs = leaf_pairs.leaf_pairs(rules, evaluate, exact.roots, exact.exact,
                                                   10 ** 6, 1, plies=plies)
    assert results == [exact.exact(leaf) for leaf in leaves]
    assert not any(is_held_out(rules, leaf) or rules.terminal(leaf) is not None
                   for leaf in leaves)
    expected = set()
    for root, kids, values in choice_roots(exact):
        ends = [leaf_pairs.expected_leaf(rules, evaluate, kid, plies - 1)
                if rules.terminal(kid) is None else None for kid in kids]
        for end in ends:  # a line of the model's choices, plies below the root
            assert end is None or (end.turn == root.turn) == (plies % 2 == 0)
        kept = {end for end, value in zip(ends, values, strict=True)
                if value == min(values) and end in leaves}
        lost = {end for end, value in zip(ends, values, strict=True)
                if value != min(values) and end in leaves}
        first, second = (lost, kept) if plies % 2 == 0 else (kept, lost)
        expected |= {(low, high) for low in first for high in second if low != high}
    found = {(leaves[low], leaves[high]) for low, high in pairs.tolist()}
    assert found == expected
    assert len(found) > 50


def test_leaf_pairs_need_leaves_one_ply_deep_or_more() -> None:
    """Leaves 0 plies below their root would be the root itself: a clear error, in
    ``leaf_pairs`` and in ``train --leaf-plies``; leaves 1 and 2 plies deep get pairs
    for every root asked, deeper ones (a search a move) for a third of them."""
    rules = oska_rules(4)
    with pytest.raises(ValueError, match="at least 1 ply"):
        leaf_pairs.leaf_pairs(rules, learned_evaluator(rules), [rules.start()],
                              lambda pos: None, 1, 1, plies=0)
    assert train.leaf_depths("1,2,3") == (1, 2, 3)
    for wrong in ("0,2", "2,x", ""):
        with pytest.raises(argparse.ArgumentTypeError):
            train.leaf_depths(wrong)
    assert train.leaf_roots(300_000, 1) == train.leaf_roots(300_000, 2) == 300_000
    assert train.leaf_roots(300_000, 3) == 100_000


def ranking_loss(model: Model, samples: shared.Samples) -> float:
    """Return the mean over ``samples``' pairs of log(1 + exp(low's logit - high's))."""
    assert samples.pairs is not None
    chances = np.clip(train.predict(model, samples), 1e-12, 1 - 1e-12)
    logits = np.log(chances / (1 - chances))
    return float(np.mean(np.logaddexp(0, logits[samples.pairs[:, 0]]
                                      - logits[samples.pairs[:, 1]])))


def test_the_ranking_term_orders_the_leaf_pairs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fitted with its leaf pairs, a board model orders them better than fitted to the
    labels alone."""
    monkeypatch.setattr(train, "ADAM_STEPS", 100)
    rules = oska_rules(4)
    exact = small_set()
    leaves = train.leaf_samples(exact, 1)
    assert leaves.pairs is not None and len(leaves.pairs) > 50
    models = train.board_models([exact], 1)
    ranked = models["4"]
    labels_only = train.fit_patterns(train.joined([exact.kept, exact.held]), rules)
    assert ranking_loss(ranked, leaves) < 0.8 * ranking_loss(labels_only, leaves)
    # the calibrated twin (for win chances) is the same samples without the pairs
    assert set(models) == {"4", chances_key(4)}
    no_share = train.board_models([exact], 1, pair_share=0.0)
    assert set(no_share) == {"4"} and no_share["4"] == models[chances_key(4)]
    assert ranking_loss(ranked, leaves) < 0.8 * ranking_loss(no_share["4"], leaves)
    # no roots (--leaf-roots 0): no leaves either, the set's samples alone and no twin
    assert train.board_models([exact], 1, roots=0) == {"4": train.fit_patterns(exact.kept,
                                                                                rules)}


def test_boards_names_the_board_models_refitted() -> None:
    """``--boards 5`` refits n = 5's model alone; without it every exact board's."""
    parser_args = argparse.Namespace(boards=(5,))
    assert [n for n in (4, 5) if train.refits(parser_args, n)] == [5]
    assert train.refits(argparse.Namespace(boards=()), 4)


def test_held_out_positions_are_a_tenth_closed_under_symmetry() -> None:
    """About one position in ten is held out, always with its mirror and colour swap."""
    rules = oska_rules(5)
    rng = random.Random(5)
    positions = list({random_opening(rules, rng.randint(6, 16), rng)[-1] for _ in range(3000)})
    held = [pos for pos in positions if is_held_out(rules, pos)]
    assert 0.07 < len(held) / len(positions) < 0.13
    for pos in held:
        assert is_held_out(rules, side_mirror(rules, pos))
        assert is_held_out(rules, colour_mirror(rules, pos))


def tiny_run(seed: int) -> dict[str, Model]:
    """Return the models of a tiny training run (small exact set, a few games)."""
    args = argparse.Namespace(seed=seed, rounds=1, games=3, sizes=(5, 6), exact=[],
                              solve=[], samples=0, workers=2, out=None, distill_rounds=1,
                              distill_games={6: 2}, solved=[], solved_games=0,
                              keep_general=False, boards=(), adam_steps=None,
                              leaf_roots=None, pair_share=train.PAIR_SHARE, leaf_plies=(2,))
    return train.train(args)


def test_a_seeded_run_is_reproducible(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same seed gives the same weights; another seed other games and weights."""
    monkeypatch.setattr(train, "solved_n4", small_solved_game)
    monkeypatch.setattr(train, "ADAM_STEPS", 100)  # reproducibility, not convergence
    first, again, other = tiny_run(7), tiny_run(7), tiny_run(8)
    assert first == again
    assert first["any"] != other["any"]
    # the general model, the solved board's own and its calibrated twin
    assert set(first) == {"any", "4", chances_key(4)}


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
