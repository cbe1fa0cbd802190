"""Refit the general learned model to deeper searches: ``python -m tools.distill``.

The general model (``learned.GENERAL``: every board without a model of its own, n >= 6)
is first fitted to exact values of small boards and to who won self-play games
(``train``). A game's result says who tended to win from a position, not what its
leaves hide: fitted that way, the model walked into captures a few plies deep (a side
wiped out, a runner walled in) and lost to a plain race or material count at equal
depth. So each round of this step:

1. plays seeded games on each board size of ``LABEL_DEPTHS`` as ``train``'s self-play
   does (the current model twice in a pool with the sparring evaluators, depths 1-4,
   a random move now and then);
2. labels every contact position where a move is possible by the current model's own
   search ``LABEL_DEPTHS[n]`` plies deep: its score as a winning chance,
   ``sigmoid(score / learned.SCALE)``, or 1 / 0 for a proven or race-decided result;
3. fits the general model to those labels alone (``samples.fit``), each size an equal share.

The next round plays and labels with the model just fitted. Games are played and
labelled on every core and gathered in a fixed order, so the same seed and start give
the same weights. ``train`` ends with this step; run alone, it refits the general model
of an existing weights folder.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from oska_gui.engine.learned import GENERAL, PASSED_WIN, SCALE, Model, learned_evaluator
from oska_gui.engine.models import WEIGHTS_DIR, read_models
from oska_gui.engine.search import analyse
from oska_gui.games.oska import oska_rules
from tools.samples import (
    GameJob,
    feature_rows,
    fit,
    game_samples,
    play_line,
    timed_printer,
    write_weights,
)

LABEL_DEPTHS = {6: 5, 8: 4}  # board size -> plies the labelling search looks ahead
GAMES = {6: 2000, 8: 1000}  # games a round per board size (about 120,000 positions each)
ROUNDS = 2

Row = tuple[int, ...]


def search_label(score: int) -> float:
    """Return the winning chance for the side to move that a search ``score`` means."""
    if abs(score) >= PASSED_WIN:  # a proven end or a decided race
        return 1.0 if score > 0 else 0.0
    return 1 / (1 + math.exp(-score / SCALE))


def labelled_game(job: GameJob) -> list[tuple[Row, float]]:
    """Play ``job``'s game; return the (feature row, search label) of each contact
    position of it where the side to move has a move."""
    rules = oska_rules(job.n)
    evaluate = learned_evaluator(rules, job.model)
    line, _ = play_line(job)
    rows, kept = feature_rows(rules, line[:-1])  # only the last position ends the game
    depth = LABEL_DEPTHS[job.n]
    return [(tuple(row), search_label(analyse(rules, evaluate, line[i], depth).score))
            for row, i in zip(rows, kept, strict=True) if rules.real_children(line[i])]


def distill(model: Model, seed: int, rounds: int, games: dict[int, int],
            pool: ProcessPoolExecutor, report: Callable[[str], None] = print) -> Model:
    """Return the general ``model`` after ``rounds`` rounds of the module text.

    Args:
        model: the start (a model without pattern tables).
        seed: the games' seed.
        rounds: how many rounds to play, label and fit.
        games: games a round per board size (sizes from ``LABEL_DEPTHS``).
        pool: where games are played and labelled.
        report: receives a line per round.

    Returns:
        The refitted model.
    """
    for round_ in range(1, rounds + 1):
        sets = [game_samples(labelled_game, model, (n,), count, seed * 100 + round_, pool, 8)
                for n, count in games.items()]
        model = fit([(samples, 1 / len(sets)) for samples in sets])
        report(f"distill round {round_}: "
               + ", ".join(f"n = {n} {len(s.labels):,} positions"
                           for n, s in zip(games, sets, strict=True)))
    return model


def parse_games(text: str) -> dict[int, int]:
    """Return games a round per board size from text like '6:2000,8:1000'."""
    games: dict[int, int] = {}
    for part in text.split(","):
        size, count = part.split(":")
        games[int(size)] = int(count)
    unknown = set(games) - set(LABEL_DEPTHS)
    if unknown:
        raise argparse.ArgumentTypeError(f"no label depth for n = {sorted(unknown)}; "
                                         f"sizes: {sorted(LABEL_DEPTHS)}")
    return games


def add_arguments(parser: argparse.ArgumentParser, rounds: int = ROUNDS) -> None:
    """Add this step's options (rounds and games) to ``parser``."""
    parser.add_argument("--distill-rounds", type=int, default=rounds,
                        help=f"deep-search label rounds for the general model ({rounds})")
    parser.add_argument("--distill-games", type=parse_games, default=dict(GAMES),
                        help="games a round per size, e.g. 6:2000,8:1000 (the default)")


def main(argv: Sequence[str] | None = None) -> int:
    """Refit the general model of a weights file with the command-line ``argv``; return 0."""
    parser = argparse.ArgumentParser(prog="python -m tools.distill",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--weights", type=Path, default=WEIGHTS_DIR,
                        help="the weights folder to refit and rewrite (default: the package's)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    add_arguments(parser)
    args = parser.parse_args(argv)
    models = read_models(args.weights)
    with ProcessPoolExecutor(args.workers) as pool:
        models[GENERAL] = distill(models[GENERAL], args.seed, args.distill_rounds,
                                  args.distill_games, pool, timed_printer())
    write_weights(models, args.weights)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
