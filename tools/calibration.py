"""Are a review's win chances true? ``python -m tools.calibration [options]``.

A review says how likely the side to move is to win. Where a board is solved, that can be
checked: held-out positions (``exact_dataset.is_held_out``: no model was fitted on them)
are searched as a review searches them with exact values off (the calibrated evaluator,
a ply at a time, ``--nodes`` a position: the review's default budget), and their chances
set against their exact values from the solved game (a win 1, a draw one half, a loss 0).

The held-out positions are split in two halves by their hash
(``exact_dataset.held_out_half``). On each half the tool fits the scale (evaluator units
a logit) whose chances fit best (``fitted_scale``: least log loss), and prints, for the
other half, ten 10-point bins of the review's chance (``chances.READINGS``): each bin's
mean chance against the share the side to move wins.

Positions are met along seeded games from the start in which each move is a random one
with the game's rate (``exact_dataset.DEFAULT_RATES``, game after game) and a perfect
one otherwise, so that lopsided and balanced positions alike turn up; each is kept once.
A 5-point bin of the evaluator's own chance (1,000 units a logit) takes at most ``--per-
bin`` positions (the first met), so the middle bins, which fewer positions fall in, are
filled too: this picks positions by their chance, never by their result. Positions of
one game are alike, so a bin's share varies more than its count alone says. ``--write
FILE`` keeps up to 200 positions a bin of the second half with their exact values
(``tests/test_calibration.py``'s sample).

Needs the board's solved game: n = 4's ships with the package; n = 5's is made by
``oska solve --n 5 --save`` (the ``solve`` extra, about 6 minutes). ``--pool FILE``
keeps the searched positions (about 40 minutes on two cores for 5,000) for the next run.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from oska_gui.core.files import write_whole
from oska_gui.core.types import Evaluator, Position
from oska_gui.engine.exact_dataset import DEFAULT_RATES, held_out_half, is_held_out
from oska_gui.engine.learned import SCALE as LEARNED_SCALE
from oska_gui.engine.registry import GameKind
from oska_gui.engine.search import Thinker, is_game_end
from oska_gui.engine.solved_file import SolvedFile, saved_solution
from oska_gui.games.oska import OskaRules, oska_rules
from oska_gui.play.game import make_game
from oska_gui.play.levels import MAX_DEPTH
from oska_gui.play.review.budget import DEFAULT_NODES
from oska_gui.play.review.chances import READINGS, Reading, result_chance

BINS = 10  # the check's bins
POOL_BINS = 20  # the sampling's bins of the evaluator's own chance
SAMPLE_BIN = 200  # positions a check bin keeps in the test's sample
MAX_GAMES = 100_000  # games met before giving up on filling the bins


@dataclass(frozen=True)
class Sample:
    """A position searched, with its exact value.

    Attributes:
        pos: the position.
        score: the search's score, for the side to move.
        value: the exact value for the side to move: 1, 0.5 or 0.
    """

    pos: Position
    score: int
    value: float


@dataclass(frozen=True)
class Bin:
    """One bin of the check: its positions' count, mean chance and share won, in per cent."""

    count: int
    mean_chance: float
    won: float


def bin_of(chance: float, bins: int) -> int:
    """Return the bin, 0..bins - 1, of a win chance 0..1 (1 falls in the top bin)."""
    return min(bins - 1, int(chance * bins))


def met_positions(rules: OskaRules, solved: SolvedFile, seed: int) -> Iterator[Position]:
    """Yield held-out unfinished positions with a move, each once, met along seeded
    games of random and perfect moves."""
    rng, seen = random.Random(seed), set()
    for game in range(MAX_GAMES):
        rate, pos = DEFAULT_RATES[game % len(DEFAULT_RATES)], rules.start()
        while rules.terminal(pos) is None and rules.children(pos):
            if pos not in seen and is_held_out(rules, pos):
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


def collect(n: int, nodes: int, seed: int, per_bin: int) -> list[Sample]:
    """Return held-out positions of board ``n`` searched within ``nodes`` nodes, at most
    ``per_bin`` in each 5-point bin of the evaluator's own chance.

    Raises SystemExit when the board's solved game is not kept.
    """
    rules, solved = oska_rules(n), saved_solution(n)
    if solved is None:
        raise SystemExit(f"no solved game of n = {n}: run `oska solve --n {n} --save`")
    evaluate, raw = make_game("oska", n).chance_evaluator(), Reading(LEARNED_SCALE)
    counts, samples = [0] * POOL_BINS, []
    for pos in met_positions(rules, solved, seed):
        value, score = solved.solution(pos), searched_score(rules, evaluate, pos, nodes)
        where = bin_of(raw.chance(score), POOL_BINS)
        if value is not None and counts[where] < per_bin:
            counts[where] += 1
            samples.append(Sample(pos, score, result_chance(value.result)))
            if min(counts) >= per_bin:
                break
    return samples


def fitted_scale(samples: Sequence[Sample]) -> float:
    """Return the scale (evaluator units a logit) whose chances fit ``samples``' exact
    values best: the least log loss over those not proven won or lost, to 5 units."""
    pairs = [(sample.score, sample.value) for sample in samples
             if not is_game_end(sample.score)]

    def loss(scale: float) -> float:
        """Return the log loss of the chances ``scale`` gives."""
        reading, total = Reading(scale), 0.0
        for score, value in pairs:
            chance = min(max(reading.chance(score), 1e-9), 1 - 1e-9)
            total -= value * math.log(chance) + (1 - value) * math.log(1 - chance)
        return total

    return min(range(200, 1501, 5), key=loss)


def check(samples: Sequence[Sample], reading: Reading) -> list[Bin]:
    """Return the ten 10-point bins of ``samples`` by the chance ``reading`` gives."""
    bins: list[list[tuple[float, float]]] = [[] for _ in range(BINS)]
    for sample in samples:
        chance = reading.chance(sample.score)
        bins[bin_of(chance, BINS)].append((chance, sample.value))
    return [Bin(len(found), 100 * sum(c for c, _ in found) / max(1, len(found)),
                100 * sum(v for _, v in found) / max(1, len(found))) for found in bins]


def kept_sample(samples: Sequence[Sample], reading: Reading) -> list[Sample]:
    """Return the first ``SAMPLE_BIN`` samples of each 10-point bin of ``reading``'s
    chance (the test's sample)."""
    counts, kept = [0] * BINS, []
    for sample in samples:
        where = bin_of(reading.chance(sample.score), BINS)
        if counts[where] < SAMPLE_BIN:
            counts[where] += 1
            kept.append(sample)
    return kept


def write_sample(path: Path, n: int, samples: Sequence[Sample]) -> None:
    """Write ``samples``' positions with their exact values to ``path`` (JSON)."""
    rows = [[*sample.pos, sample.value] for sample in samples]
    write_whole(path, json.dumps({"n": n, "positions": rows}, separators=(",", ":")) + "\n")


def read_sample(path: Path, nodes: int) -> list[Sample]:
    """Return the positions ``write_sample`` wrote to ``path`` with their exact values,
    each searched again within ``nodes`` nodes."""
    data = json.loads(path.read_text())
    rules = oska_rules(data["n"])
    evaluate = make_game("oska", rules.n).chance_evaluator()
    samples = []
    for white, black, turn, value in data["positions"]:
        pos = Position(white, black, turn)
        samples.append(Sample(pos, searched_score(rules, evaluate, pos, nodes), value))
    return samples


def searched_pool(args: argparse.Namespace) -> list[Sample]:
    """Return the held-out positions searched, or read from ``args.pool`` where an
    earlier run kept them (kept there after searching when it is given)."""
    if args.pool is not None and args.pool.exists():
        return [Sample(Position(white, black, turn), score, value)
                for white, black, turn, score, value in json.loads(args.pool.read_text())]
    found = collect(args.n, args.nodes, args.seed, args.per_bin)
    if args.pool is not None:
        rows = [[*sample.pos, sample.score, sample.value] for sample in found]
        write_whole(args.pool, json.dumps(rows) + "\n")
    return found


def print_table(title: str, bins: list[Bin]) -> None:
    """Print ``title`` and the check's bins as a Markdown table."""
    print(title)
    print("| chance bin | positions | mean chance | side to move wins | off by |")
    print("| --- | --- | --- | --- | --- |")
    for index, each in enumerate(bins):
        print(f"| {10 * index}-{10 * index + 10} % | {each.count} | {each.mean_chance:.1f} % "
              f"| {each.won:.1f} % | {each.won - each.mean_chance:+.1f} |")


def main() -> None:
    """Fit, check and print (see the module text)."""
    parser = argparse.ArgumentParser(prog="python -m tools.calibration",
                                     description=__doc__.split("\n\n")[1])
    parser.add_argument("--n", type=int, default=5, choices=(4, 5), help="board size (5)")
    parser.add_argument("--per-bin", type=int, default=250,
                        help="positions a 5-point bin of the evaluator's chance (250)")
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODES,
                        help=f"nodes a position ({DEFAULT_NODES:,})")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games (1)")
    parser.add_argument("--pool", type=Path, metavar="FILE",
                        help="keep the searched positions in FILE, or read them from it")
    parser.add_argument("--write", type=Path, metavar="FILE",
                        help="write up to 200 positions a bin of the second half with "
                             "their exact values")
    args = parser.parse_args()
    rules, reading = oska_rules(args.n), READINGS[GameKind.OSKA]
    pool = searched_pool(args)
    halves = [[s for s in pool if held_out_half(rules, s.pos) == half] for half in (0, 1)]
    for half, other in ((0, 1), (1, 0)):
        print(f"half {half} ({len(halves[half]):,} positions): fitted scale "
              f"{fitted_scale(halves[half])} units a logit")
        print_table(f"half {other}, n = {args.n}, {args.nodes:,} nodes a position, exact "
                    f"values off, the review's {reading.scale:g} units a logit",
                    check(halves[other], reading))
    print_table(f"the evaluator's own {LEARNED_SCALE:,} units a logit, all halves",
                check(pool, Reading(LEARNED_SCALE)))
    if args.write:
        write_sample(args.write, args.n, kept_sample(halves[1], reading))


if __name__ == "__main__":
    main()
