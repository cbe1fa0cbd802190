"""Are a review's win chances true? ``python -m tools.calibration [options]``.

A review says how likely the side to move is to win. Where a board is solved, that can be
checked: over positions held out of every fit (``exact_dataset.is_held_out``), each is
searched as a review searches it with exact values off (the calibrated evaluator, a ply
at a time, ``--nodes`` a position: the review's default budget), its chance is put in
one of ten 10-point bins, and the share of the bin's positions the side to move wins by
perfect play (a draw counts one half) is set against the bin's mean chance.

Positions are met along seeded games from the start in which each move is a random one
with the game's rate (``RATES``, game after game) and a perfect one otherwise, so that
lopsided and balanced positions alike turn up; each is kept once. A bin takes at most
``--per-bin`` positions (the first met), so the middle bins, which fewer positions
fall in, are filled too: this picks positions by their chance, never by their result,
so each bin's share is still a fair test of its chances.

Needs the board's solved game: n = 4's ships with the package; n = 5's is made by
``oska solve --n 5 --save`` (the ``solve`` extra, about 7 minutes).
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from oska_gui.core.types import Evaluator, Position
from oska_gui.engine.exact_dataset import is_held_out
from oska_gui.engine.registry import GameKind
from oska_gui.engine.search import Thinker, is_game_end
from oska_gui.engine.solved_file import SolvedFile, saved_solution
from oska_gui.games.oska import OskaRules, oska_rules
from oska_gui.play.game import make_game
from oska_gui.play.levels import MAX_DEPTH
from oska_gui.play.review.budget import DEFAULT_NODES
from oska_gui.play.review.chances import SCALES, result_chance, search_chance

RATES = (0.0, 0.1, 0.25, 0.5, 1.0)  # the share of random moves, game after game
BINS = 10
MAX_GAMES = 100_000  # games met before giving up on filling the bins


@dataclass
class Bin:
    """The positions whose chance fell in one bin: their chances and their exact values.

    Attributes:
        chances: the review's win chance of each, for the side to move.
        values: the exact value of each for the side to move: 1, 0.5 or 0.
        scores: the search's score of each.
    """

    chances: list[float] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)

    def add(self, score: int, scale: float, value: float) -> None:
        """Add a position: its search ``score``, read with ``scale``, and exact ``value``."""
        self.scores.append(score)
        self.chances.append(search_chance(score, scale))
        self.values.append(value)

    @property
    def mean_chance(self) -> float:
        """Return the mean chance of the bin's positions, in per cent."""
        return 100 * sum(self.chances) / len(self.chances)

    @property
    def won(self) -> float:
        """Return the share the side to move wins, draws counted one half, in per cent."""
        return 100 * sum(self.values) / len(self.values)


def bin_of(chance: float) -> int:
    """Return the bin, 0..9, of a win chance 0..1 (1 falls in the top bin)."""
    return min(BINS - 1, int(chance * BINS))


def met_positions(rules: OskaRules, solved: SolvedFile, seed: int,
                  held_out: bool) -> Iterator[Position]:
    """Yield unfinished positions with a move, held out or (``held_out`` False) never
    held out, each once, met along seeded games of random and perfect moves (see the
    module text)."""
    rng, seen = random.Random(seed), set()
    for game in range(MAX_GAMES):
        rate, pos = RATES[game % len(RATES)], rules.start()
        while rules.terminal(pos) is None and rules.children(pos):
            if pos not in seen and is_held_out(rules, pos) == held_out:
                seen.add(pos)
                yield pos
            ranked = solved.ranked_children(pos)
            if ranked is None or rng.random() < rate:
                pos = rng.choice(rules.children(pos))
            else:
                pos = rng.choice([kid for kid, value in ranked if value == ranked[0][1]])


def searched_score(rules: OskaRules, evaluate: Evaluator, pos: Position, nodes: int) -> int:
    """Return the score of ``pos`` for the side to move as a review searches it with
    exact values off, within ``nodes`` nodes (new tables)."""
    thinker = Thinker(rules, evaluate, pos, MAX_DEPTH, node_limit=nodes)
    thinker.advance(math.inf)
    return thinker.progress.score


def binned(n: int, per_bin: int, nodes: int, seed: int, held_out: bool = True,
           scale: float = SCALES[GameKind.OSKA]) -> list[Bin]:
    """Return the ten bins of positions of board ``n`` (held out, or never held out), at
    most ``per_bin`` each, their chances read from the search's scores with ``scale``.

    Raises SystemExit when the board's solved game is not kept.
    """
    rules, solved = oska_rules(n), saved_solution(n)
    if solved is None:
        raise SystemExit(f"no solved game of n = {n}: run `oska solve --n {n} --save`")
    evaluate = make_game("oska", n).chance_evaluator()
    bins = [Bin() for _ in range(BINS)]
    for pos in met_positions(rules, solved, seed, held_out):
        value = solved.solution(pos)
        score = searched_score(rules, evaluate, pos, nodes)
        found = bins[bin_of(search_chance(score, scale))]
        if value is None or len(found.chances) >= per_bin:
            continue
        found.add(score, scale, result_chance(value.result))
        if all(len(each.chances) >= per_bin for each in bins):
            break
    return bins


def fitted_scale(bins: list[Bin]) -> float:
    """Return the scale (evaluator units a logit) whose chances fit the bins' exact values
    best: the least log loss over their positions not proven won or lost."""
    pairs = [(score, value) for each in bins
             for score, value in zip(each.scores, each.values, strict=True)
             if not is_game_end(score)]

    def loss(scale: float) -> float:
        """Return the mean log loss of the chances ``scale`` gives."""
        total = 0.0
        for score, value in pairs:
            chance = min(max(search_chance(score, scale), 1e-9), 1 - 1e-9)
            total -= value * math.log(chance) + (1 - value) * math.log(1 - chance)
        return total / len(pairs)

    return min(range(100, 2001, 5), key=loss)


def main() -> None:
    """Measure and print the table (see the module text)."""
    parser = argparse.ArgumentParser(prog="python -m tools.calibration",
                                     description=__doc__.split("\n\n")[1])
    parser.add_argument("--n", type=int, default=5, choices=(4, 5), help="board size (5)")
    parser.add_argument("--per-bin", type=int, default=200, help="positions a bin (200)")
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODES,
                        help=f"nodes a position ({DEFAULT_NODES:,})")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games (1)")
    parser.add_argument("--fit", action="store_true",
                        help="fit the scale on positions never held out (seed + 1) first, "
                             "and bin the held-out ones with it")
    args = parser.parse_args()
    scale = SCALES[GameKind.OSKA]
    if args.fit:
        scale = fitted_scale(binned(args.n, args.per_bin, args.nodes, args.seed + 1, False,
                                    scale))
        print(f"fitted on positions never held out: {scale} units a logit "
              f"(the review's: {SCALES[GameKind.OSKA]:g})")
    bins = binned(args.n, args.per_bin, args.nodes, args.seed, scale=scale)
    print(f"n = {args.n}, held-out positions, {args.nodes:,} nodes a position, exact "
          f"values off, {scale:g} units a logit")
    print("| chance bin | positions | mean chance | side to move wins | off by |")
    print("| --- | --- | --- | --- | --- |")
    for index, each in enumerate(bins):
        if each.chances:
            print(f"| {10 * index}-{10 * index + 10} % | {len(each.chances)} | "
                  f"{each.mean_chance:.1f} % | {each.won:.1f} % | "
                  f"{each.won - each.mean_chance:+.1f} |")
        else:
            print(f"| {10 * index}-{10 * index + 10} % | 0 | | | |")


if __name__ == "__main__":
    main()
