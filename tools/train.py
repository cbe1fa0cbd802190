"""Fit the learned evaluator's weights: ``python -m tools.train`` (needs numpy).

One seeded command makes the shipped weights (``oska_gui/engine/weights/``, one file a
model: see ``engine.models``) from scratch:

1. **Exact labels.** The whole n = 4 game is solved with ``solver`` (pure Python, about
   20 s) and every position of it where the armies are in contact is a sample, labelled
   1 (a win for the side to move), 0.5 (a draw) or 0 (a loss). ``--solve 5`` also solves
   the whole n = 5 game with the compiled tablebase (a few minutes, about 5 GB) and
   samples ``--samples`` positions of it along seeded games into ``data/n5_train.npz``;
   an existing dataset (``oska solve --n 5 --dataset FILE``) joins with ``--exact FILE``.
   The positions ``exact_dataset.is_held_out`` names (a hashed tenth, with their mirror
   images and colour swaps) are never fitted: they measure the fit, here and in the
   benchmark (``python -m tools.strength``).
2. **A first fit**: L2-regularised logistic regression (Newton's method) of those labels
   on the features of ``features.FeatureSpace``.
3. **Self-play rounds** on larger boards (n = 5..8 by default): seeded games in which
   each side is drawn from a pool (the current model twice, the classic, simple and
   race evaluators) and both search the same depth, 1 to 4, after a few random plies;
   every contact position of a game is labelled by the game's result for its side to
   move, and the model is fitted again on everything so far. Games against weak and
   odd opponents matter: fitted only to games against strong play, the model learns
   to beat those and loses to a plain material count.
4. **Deep-search labels** (``distill``): the general model is refitted, a few rounds,
   to its own searches 4-5 plies deep on n = 6 and 8 instead of game results.
5. **One model per solved board**: the exact sets of each board size are fitted again,
   with pattern tables (``patterns``, the windows of ``pattern_windows``) on top of the
   counts, and that model plays its board size (it knows that board better than the
   general one). Where every position's exact result is known (n = 4 solved here, or a
   board whose solved game ``oska solve --n N --save`` kept, with ``--solved N``: see
   ``solved_samples``), the fit also ranks ``leaf_pairs``: the replies a two-ply search
   expects behind a losing and a value-keeping move of one position, which the labels
   alone left in the wrong order too often (the n = 4 model lost the value at depth 2
   in 2.2 % of the positions where the choice matters, 1.0 % with the pairs of every
   such position, ``--leaf-roots 1000000``; ``--leaf-plies 2,3`` also ranks the ends
   of two-ply searches below each move, which took depth 3 from 1.13 % to 0.77 %). A
   board fitted with pairs also gets a twin fitted to the labels alone
   (``--pair-share 0``), whose scores stay win chances for the game review
   (``learned.calibrated_model``). On n = 4 the whole game is what the model is for,
   so its own model fits the held-out tenth too (the general model still never sees
   it). ``--keep-general`` refits these models alone and keeps the
   shipped general one; ``--boards 5`` refits n = 5's alone and keeps the others.
6. **Report**: on the held-out exact positions, for the general model and the board's
   own, the log loss, the share of decisive positions whose winner the model names,
   and how often the model's favourite move (one ply, no search) keeps the exact value
   where the choice matters.

Games are played on every core (``--workers``); results are gathered in a fixed order,
so the same seed gives the same weights.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from oska_gui.core.types import Evaluator, Position
from oska_gui.engine.exact_dataset import ExactDataset, is_held_out, is_playable, load_dataset
from oska_gui.engine.features import BUCKETS
from oska_gui.engine.learned import (
    GENERAL,
    SCALE,
    Model,
    learned_evaluator,
    shipped_model,
    shipped_models,
)
from oska_gui.engine.models import WEIGHTS_DIR, board_size, chances_key
from oska_gui.engine.patterns import PatternSpace, pattern_space
from oska_gui.engine.solver import run, solution_of, solver_for
from oska_gui.games.oska import OskaRules, oska_rules
from tools.leaf_pairs import leaf_pairs
from tools.samples import (
    GameJob,
    Samples,
    design,
    feature_rows,
    fit,
    game_samples,
    label,
    pattern_windows,
    play_line,
    timed_printer,
    write_weights,
)
from tools.solved_samples import NoSolvedGame, solved_file, solved_positions

ADAM_STEPS = 1500
ADAM_RATE = 0.05
ADAM_BETAS = (0.9, 0.999)
EXACT_SHARE = 0.4  # the exact sets' share of the total sample weight, split evenly
PAIR_SHARE = 1.0  # the leaf pairs' share of a board model's loss, the exact labels' being 1
LEAF_ROOTS = 60_000  # positions of each exact set whose moves' reply leaves are paired, by default
DEEP_ROOTS_SHARE = 3  # leaves deeper than the replies are paired for a third as many roots










# -- exact labels ----------------------------------------------------------------------


def solved_n4() -> tuple[list[Position], list[int]]:
    """Return every playable position of the whole n = 4 game and its exact result."""
    rules = oska_rules(4)
    table = run(solver_for(rules).table_steps(rules.start(), 2_000_000))
    positions = [pos for pos in table.scores if is_playable(rules, pos)]
    return positions, [solution_of(table.scores[pos]).result for pos in positions]


def exact_samples(rules: OskaRules, positions: Sequence[Position],
                  results: Sequence[int]) -> tuple[Samples, Samples]:
    """Return the (kept, held-out) samples of the contact positions among ``positions``.

    The held-out ones are those ``is_held_out`` names, which no fit may see; they have
    pattern windows when ``pattern_windows`` gives the board tables.
    """
    rows, kept = feature_rows(rules, positions)
    samples = Samples(np.array(rows, dtype=np.int64),
                      np.array([label(results[i]) for i in kept], dtype=float))
    windows = pattern_windows(rules)
    if windows:
        indices = pattern_space(rules, windows).indices
        samples.windows = np.array([indices(positions[i]) for i in kept], dtype=np.int64)
    held = np.array([is_held_out(rules, positions[i]) for i in kept], dtype=bool)
    return samples.take(~held), samples.take(held)


def dataset_samples(path: Path) -> tuple[Samples, Samples, ExactDataset]:
    """Return the (kept, held-out) samples of an exact dataset file, and the dataset."""
    data = load_dataset(path)
    positions = [data.position(i) for i in range(len(data))]
    results = [data.solution(i).result for i in range(len(data))]
    return *exact_samples(data.rules, positions, results), data


def solved_dataset(n: int, count: int, seed: int) -> Path:
    """Solve board ``n`` with the tablebase and write ``count`` seeded samples of it.

    Returns the dataset's path, ``data/n{n}_train.npz`` under the working folder (the
    benchmark's ``n{n}_exact.npz`` stays as it is).
    """
    from oska_gui.engine.exact_dataset import write_dataset
    from oska_gui.engine.tablebase import solve_table

    start = time.perf_counter()
    table = solve_table(n)
    path = Path("data") / f"n{n}_train.npz"
    written = write_dataset(table, path, count, seed)
    print(f"n = {n} solved: {table.positions:,} positions, {written:,} samples in {path} "
          f"({time.perf_counter() - start:.0f} s)", flush=True)
    return path


# -- self-play -------------------------------------------------------------------------






def self_play(job: GameJob) -> list[tuple[tuple[int, ...], float]]:
    """Play ``job``'s game; return the (feature row, label) of each contact position,
    labelled by the game's result for its side to move."""
    line, outcome = play_line(job)
    rows, kept = feature_rows(oska_rules(job.n), line)
    winner = outcome.winner
    return [(tuple(row), 0.5 if winner is None else float(winner == line[i].turn))
            for row, i in zip(rows, kept, strict=True)]


def self_play_samples(model: Model, sizes: Sequence[int], games: int, seed: int,
                      pool: ProcessPoolExecutor) -> Samples:
    """Return the samples of ``games`` self-play games per board size, in a fixed order."""
    return game_samples(self_play, model, sizes, games, seed, pool)




# -- fitting ---------------------------------------------------------------------------






def fit_patterns(samples: Samples, rules: OskaRules, steps: int | None = None,
                 pair_share: float = PAIR_SHARE) -> Model:
    """Fit a model with pattern tables (``pattern_windows``) to ``samples`` (their
    labels, and their pairs if they have them: see ``fit_tables``).

    A window's contents and its mirror image share one value (``mirror_classes``);
    ``steps`` is the fit's number of steps (None: ``ADAM_STEPS``), ``pair_share`` the
    pairs' share of the loss.
    """
    if samples.windows is None:
        raise ValueError("pattern tables need samples with their windows")
    space = pattern_space(rules, pattern_windows(rules))
    classes = mirror_classes(space)
    index = np.stack([klass[samples.windows[:, w]] for w, klass in enumerate(classes)], 1)
    theta, values = fit_tables(design(samples.rows), index, int(classes[-1].max()) + 1,
                               samples.labels, samples.pairs, steps or ADAM_STEPS, pair_share)
    tables = tuple(tuple(np.rint(SCALE * values[klass]).astype(int).tolist()) for klass in classes)
    return Model(tuple(theta[:BUCKETS].tolist()), tuple(theta[BUCKETS:].tolist()),
                 space.windows, tables)


def fit_tables(matrix: np.ndarray, index: np.ndarray, entries: int, labels: np.ndarray,
               pairs: np.ndarray | None = None, steps: int = ADAM_STEPS,
               pair_share: float = PAIR_SHARE) -> tuple[np.ndarray, np.ndarray]:
    """Fit ``logit = matrix @ theta + sum(values[index])`` (per row) to ``labels``, and
    rank the ``pairs``.

    Unregularised logistic regression by Adam: tens of thousands of table values,
    where Newton's method would need a matrix of that size squared. Each pair
    ``(low, high)`` adds ``pair_share`` / pairs times ``log(1 + exp(logit[low] -
    logit[high]))`` to the mean log loss: a search chooses by comparing leaves
    (``leaf_pairs``), so the loss counts a pair ordered wrongly, not only each
    position's distance from its label.

    Args:
        matrix: the design matrix of the counts, one row per sample.
        index: the table entries of each sample, one column per window.
        entries: how many table values there are (some may be in no sample).
        labels: the labels in [0, 1].
        pairs: rows of two sample numbers (``Samples.pairs``), or None.
        steps: how many steps Adam takes.
        pair_share: the pairs' share of the loss, the labels' being 1.

    Returns:
        (theta, values): the counts' weights and the table values.
    """
    params = [np.zeros(matrix.shape[1]), np.zeros(entries)]
    moments = [[np.zeros_like(p) for p in params] for _ in range(2)]
    share = 1.0 / len(labels)
    for step in range(1, steps + 1):
        logits = matrix @ params[0] + params[1][index].sum(axis=1)
        error = share * (1.0 / (1.0 + np.exp(-logits)) - labels)
        if pair_share and pairs is not None and len(pairs):
            error += ranking_error(logits, pairs, pair_share)
        gradients = (matrix.T @ error,
                     np.bincount(index.ravel(), np.repeat(error, index.shape[1]),
                                 minlength=len(params[1])))
        for param, gradient, first, second in zip(params, gradients, *moments, strict=True):
            first += (1 - ADAM_BETAS[0]) * (gradient - first)
            second += (1 - ADAM_BETAS[1]) * (gradient ** 2 - second)
            param -= ADAM_RATE * (first / (1 - ADAM_BETAS[0] ** step)) / (
                np.sqrt(second / (1 - ADAM_BETAS[1] ** step)) + 1e-8)
    return params[0], params[1]


def ranking_error(logits: np.ndarray, pairs: np.ndarray, share: float) -> np.ndarray:
    """Return the pairs' term of the loss's derivative by each sample's logit (see
    ``fit_tables``): ``share`` shared evenly by the ``pairs``."""
    push = (share / len(pairs)) / (1.0 + np.exp(logits[pairs[:, 1]] - logits[pairs[:, 0]]))
    return (np.bincount(pairs[:, 0], push, minlength=len(logits))
            - np.bincount(pairs[:, 1], push, minlength=len(logits)))


def mirror_classes(space: PatternSpace) -> list[np.ndarray]:
    """Return, per window, the weight number of each index: the same for a window's
    contents and its mirror image, distinct across windows (numbered from 0 up)."""
    classes, start = [], 0
    for window, size in enumerate(space.sizes()):
        index = np.arange(size)
        mirrored = np.array([space.mirror(window, i) for i in range(size)])
        _, klass = np.unique(np.minimum(index, mirrored), return_inverse=True)
        classes.append(klass + start)
        start += int(klass.max()) + 1
    return classes


def predict(model: Model, samples: Samples) -> np.ndarray:
    """Return the model's winning chances for the side to move of each sample."""
    theta = np.array(model.table + model.weights)
    logits = design(samples.rows) @ theta
    if model.patterns:
        if samples.windows is None:
            raise ValueError("a model with pattern tables needs samples with their windows")
        for window, values in enumerate(model.patterns):
            logits += np.array(values)[samples.windows[:, window]] / SCALE
    return 1.0 / (1.0 + np.exp(-logits))


def report(model: Model, name: str, held: Samples) -> str:
    """Return a line on how well ``model`` predicts the held-out exact samples ``held``
    (that there are none, if so: a saved solved game's samples hold none out)."""
    y = held.labels
    if not len(y):
        return f"{name}: no held-out positions"
    p = np.clip(predict(model, held), 1e-9, 1 - 1e-9)
    loss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    decisive = y != 0.5
    right = np.mean((p[decisive] > 0.5) == (y[decisive] > 0.5))
    return (f"{name}: {len(y):,} held-out positions, log loss {loss:.3f}, "
            f"winner named in {100 * right:.1f} % of decisive ones")


def one_ply_value_kept(model: Model, data: ExactDataset, count: int) -> str:
    """Return a line on how often the model's favourite move keeps the exact value.

    One ply, no search, on the first ``count`` held-out samples of an exact dataset
    where the moves do not all have the same value.
    """
    rules = data.rules
    evaluate = learned_evaluator(rules, model)
    tried = kept = 0
    for i in range(len(data)):
        if tried == count:
            break
        if not data.choice_matters(i) or not is_held_out(rules, data.position(i)):
            continue
        kids = [kid for kid, _ in data.children(i)]
        scores = [_child_score(rules, evaluate, kid) for kid in kids]
        tried += 1
        kept += data.keeps_value(i, kids[scores.index(max(scores))])
    return f"  favourite move keeps the value in {100 * kept / max(1, tried):.1f} % of {tried}"


def _child_score(rules: OskaRules, evaluate: Evaluator, child: Position) -> int:
    """Return the mover's score of moving to ``child``: the game's end if over there."""
    result = rules.terminal(child)
    if result is not None:
        return -result * 10**6
    return -evaluate(child)


# -- the command -----------------------------------------------------------------------


@dataclass
class ExactSet:
    """One exact set: the board size, fitting and held-out samples, and its dataset."""

    n: int
    name: str
    kept: Samples
    held: Samples
    data: ExactDataset | None  # every move's value, when loaded from a dataset
    # the exact result of any position of the board, when known beyond the samples
    # (a solved game): the board's own model is then fitted with leaf pairs of ``roots``
    exact: Callable[[Position], int | None] | None = None
    roots: Sequence[Position] = ()
    whole: bool = False  # the whole game: its own model fits the held-out positions too


def train(args: argparse.Namespace) -> dict[str, Model]:
    """Run the whole recipe of the module text; return the models by board size."""
    # the workers start before the n = 4 game is solved, so they do not inherit its table
    with ProcessPoolExecutor(args.workers) as pool:
        pool.submit(int).result()
        return _train(args, pool)


def exact_sets(args: argparse.Namespace, pool: ProcessPoolExecutor) -> list[ExactSet]:
    """Return the solved n = 4 game, the samples of every ``--solved`` board's saved
    solved game (played on ``pool``) and every ``--exact`` dataset, split for holding out."""
    rules = oska_rules(4)
    positions, results = solved_n4()
    kept, held = exact_samples(rules, positions, results)
    result_of = dict(zip(positions, results, strict=True))
    sets = [ExactSet(4, "n = 4 (solved here)", kept, held, None,
                     lambda pos: result_of.get(pos, rules.terminal(pos)), positions, True)]
    for n in args.solved:
        positions, results = solved_positions(n, args.solved_games, args.seed, pool)
        kept, held = exact_samples(oska_rules(n), positions, results)
        sets.append(ExactSet(n, f"n = {n} (saved solved game)", kept, held, None,
                             solved_result(n), positions))
    for n in args.solve:
        args.exact.append(solved_dataset(n, args.samples, args.seed))
    for path in args.exact:
        kept, held, data = dataset_samples(path)
        sets.append(ExactSet(data.n, path.name, kept, held, data))
    return sets


def joined(parts: Sequence[Samples]) -> Samples:
    """Return the samples of ``parts`` one after another, pairs renumbered (the windows
    and pairs of parts without them left out)."""
    if len(parts) == 1:
        return parts[0]
    offsets = np.cumsum([0] + [len(part.labels) for part in parts])
    tables = [part.windows for part in parts if part.windows is not None]
    windows = np.vstack(tables) if len(tables) == len(parts) else None
    pairs = np.vstack([np.zeros((0, 2), dtype=np.int64)]
                      + [part.pairs + offset for part, offset in zip(parts, offsets, strict=False)
                         if part.pairs is not None])
    return Samples(np.vstack([part.rows for part in parts]),
                   np.concatenate([part.labels for part in parts]), windows, pairs)


def solved_result(n: int) -> Callable[[Position], int | None]:
    """Return the exact result of a position of board ``n`` by its saved solved game
    (None where unknown); raises NoSolvedGame without one."""
    solved = solved_file(n)

    def result(pos: Position) -> int | None:
        """Return the exact result of ``pos`` for its side to move, None if unknown."""
        found = solved.solution(pos)
        return None if found is None else found.result

    return result


def leaf_samples(exact: ExactSet, seed: int, roots: int | None = None,
                 plies: int = 2) -> Samples:
    """Return the leaf pairs (``leaf_pairs``, leaves ``plies`` below their root) of up
    to ``roots`` (None: ``LEAF_ROOTS``) of ``exact``'s roots as samples: the leaves
    labelled by their exact results, and the pairs."""
    if exact.exact is None:
        raise ValueError(f"{exact.name} has no exact results beyond its samples")
    rules = oska_rules(exact.n)
    leaves, results, pairs = leaf_pairs(rules, learned_evaluator(rules), exact.roots,
                                        exact.exact, leaf_roots(roots, 2), seed, plies)
    samples, _ = exact_samples(rules, leaves, results)  # leaves: in contact, none held out
    samples.pairs = pairs
    return samples


def leaf_roots(roots: int | None, plies: int) -> int:
    """Return how many roots get leaf pairs ``plies`` deep, given ``roots`` for the
    replies (None: ``LEAF_ROOTS``)."""
    return (LEAF_ROOTS if roots is None else roots) // (1 if plies <= 2 else DEEP_ROOTS_SHARE)


def board_models(sets: Sequence[ExactSet], seed: int, steps: int | None = None,
                 roots: int | None = None, pair_share: float = PAIR_SHARE,
                 leaf_plies: Sequence[int] = (2,)) -> dict[str, Model]:
    """Return each exact board size's own model, fitted to every set of that size: its
    samples (the held-out ones too for a whole game) and, for a board with pattern
    tables, the leaf pairs of the sets with exact results beyond their samples (none
    with ``roots`` 0), for each depth of ``leaf_plies`` (``seed`` + depth - 2: their
    roots' order; ``roots`` as ``leaf_samples``'s for depth 2, a ``DEEP_ROOTS_SHARE``-th
    of it deeper, where each move costs a search); ``steps`` and ``pair_share`` as
    ``fit_patterns``'s. A board fitted with pairs also gets its calibrated model
    (``learned.calibrated_model``), the same samples fitted to their labels alone."""
    models = {}
    for n in sorted({exact.n for exact in sets}):
        rules = oska_rules(n)
        same = [exact for exact in sets if exact.n == n]
        parts = [exact.kept for exact in same] + [exact.held for exact in same if exact.whole]
        if not pattern_windows(rules):
            models[str(n)] = fit([(joined(parts), 1.0)])
            continue
        if roots != 0:
            parts += [leaf_samples(exact, seed + plies - 2, leaf_roots(roots, plies), plies)
                      for exact in same if exact.exact is not None for plies in leaf_plies]
        samples = joined(parts)
        models[str(n)] = fit_patterns(samples, rules, steps, pair_share)
        if pair_share and samples.pairs is not None and len(samples.pairs):
            models[chances_key(n)] = fit_patterns(samples, rules, steps, 0.0)
    return models


def general_model(args: argparse.Namespace, sets: Sequence[ExactSet],
                  pool: ProcessPoolExecutor) -> Model:
    """Return the general model: fitted to the exact ``sets`` and ``args.rounds`` rounds
    of self-play on ``pool``, then distilled; or the shipped one with ``--keep-general``."""
    if args.keep_general:
        return shipped_model()
    start = time.perf_counter()
    groups = [(exact.kept, EXACT_SHARE / len(sets)) for exact in sets]
    model = fit(groups)
    played: list[Samples] = []
    for round_ in range(1, args.rounds + 1):
        played.append(self_play_samples(model, args.sizes, args.games,
                                        args.seed * 100 + round_, pool))
        games = Samples(np.vstack([s.rows for s in played]),
                        np.concatenate([s.labels for s in played]))
        model = fit(groups + [(games, 1 - EXACT_SHARE)])
        print(f"round {round_}: {len(games.labels):,} self-play positions "
              f"({time.perf_counter() - start:.0f} s)", flush=True)
    if args.distill_rounds:
        from tools.distill import distill  # it builds on this module's self-play

        model = distill(model, args.seed, args.distill_rounds, args.distill_games, pool,
                        timed_printer())
    return model


def _train(args: argparse.Namespace, pool: ProcessPoolExecutor) -> dict[str, Model]:
    """Fit exact labels, play ``args.rounds`` self-play rounds on ``pool``, fit per size."""
    start = time.perf_counter()
    sets = exact_sets(args, pool)
    print(f"exact samples: {', '.join(f'{e.name} {len(e.kept.labels):,}' for e in sets)}"
          f" ({time.perf_counter() - start:.0f} s)", flush=True)
    model = general_model(args, sets, pool)
    boards = board_models([exact for exact in sets if refits(args, exact.n)], args.seed,
                          args.adam_steps, args.leaf_roots, args.pair_share, args.leaf_plies)
    # the models of boards not refitted stay; a refitted board's old ones all go
    kept = {key: old for key, old in shipped_models().items()
            if key == GENERAL or str(board_size(key)) not in boards
            } if args.keep_general or args.boards else {}
    models = {**kept, GENERAL: model, **boards}
    for exact in sets:
        own = models[str(exact.n)]
        fitted = " (which it fits too)" if exact.whole else ""
        for label_, tried in (("general model", model), (f"n = {exact.n} model{fitted}", own)):
            print(report(tried, f"{exact.name}, {label_}", exact.held))
            if exact.data is not None:
                print(one_ply_value_kept(tried, exact.data, 2000))
    return models


def refits(args: argparse.Namespace, n: int) -> bool:
    """Return True if board size ``n``'s own model is fitted again (``--boards``)."""
    return not args.boards or n in args.boards


def whole_numbers(text: str) -> tuple[int, ...]:
    """Return the comma-separated whole numbers of an option (``--sizes 5,6``).

    Raises argparse.ArgumentTypeError otherwise.
    """
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not whole numbers: {text!r}") from None


def leaf_depths(text: str) -> tuple[int, ...]:
    """Return the depths of ``--leaf-plies`` (comma-separated, each at least 1).

    Raises argparse.ArgumentTypeError otherwise.
    """
    depths = whole_numbers(text)
    if min(depths) < 1:
        raise argparse.ArgumentTypeError(f"leaves are at least 1 ply deep: {text!r}")
    return depths


def main(argv: list[str] | None = None) -> int:
    """Train with the command-line ``argv``, write the weights; return 0."""
    parser = argparse.ArgumentParser(prog="python -m tools.train",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=2, help="self-play rounds (default 2)")
    parser.add_argument("--games", type=int, default=500, help="games per board size a round")
    parser.add_argument("--sizes", type=whole_numbers,
                        default=(5, 6, 7, 8), help="self-play board sizes (default 5,6,7,8)")
    parser.add_argument("--exact", type=Path, action="append", default=[], metavar="FILE",
                        help="an exact dataset to fit too (oska solve --n 5 --dataset FILE)")
    parser.add_argument("--solve", type=int, action="append", default=[], metavar="N",
                        help="solve board N with the tablebase first and fit its samples")
    parser.add_argument("--samples", type=int, default=200_000,
                        help="samples of each board solved with --solve (default 200,000)")
    parser.add_argument("--solved", type=int, action="append", default=[], metavar="N",
                        help="fit board N's own model to positions labelled by its saved "
                             "solved game too (oska solve --n N --save): around games, "
                             "children and grandchildren included (tools.solved_samples)")
    parser.add_argument("--solved-games", type=int, default=1500,
                        help="games sampled with --solved (default 1,500)")
    parser.add_argument("--adam-steps", type=int, default=ADAM_STEPS,
                        help=f"steps of the pattern tables' fit (default {ADAM_STEPS})")
    parser.add_argument("--leaf-roots", type=int, default=LEAF_ROOTS,
                        help="positions of a solved board whose moves' reply leaves are "
                             f"ranked (default {LEAF_ROOTS:,}; 0: no leaf pairs)")
    parser.add_argument("--leaf-plies", type=leaf_depths, default=(2,), metavar="D,D",
                        help="how deep below their roots the paired leaves are, each >= 2 "
                             "(default 2: the replies; 2,3 adds the ends of two-ply "
                             "searches below each move, for a third as many roots)")
    parser.add_argument("--pair-share", type=float, default=PAIR_SHARE,
                        help="the leaf pairs' share of a board model's loss, the labels' "
                             f"being 1 (default {PAIR_SHARE:g}; 0: labels only)")
    parser.add_argument("--boards", type=whole_numbers,
                        default=(), metavar="N,N",
                        help="refit only these boards' own models and keep the other "
                             "shipped ones (default: every board with exact labels)")
    parser.add_argument("--keep-general", action="store_true",
                        help="keep the shipped general model (no self-play, no distilling): "
                             "refit the boards' own models only")
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--out", type=Path, default=WEIGHTS_DIR,
                        help="the weights folder to write (default: the package's)")
    from tools.distill import add_arguments

    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        models = train(args)
    except NoSolvedGame as error:
        parser.error(str(error))
    write_weights(models, args.out)
    return 0






if __name__ == "__main__":
    raise SystemExit(main())
