"""How deep a review's search gets a position: ``python -m tools.review_budget [options]``.

The review's default budget is a number of nodes a position, so that a review is the
same on any machine and under any load. This tool measures what that budget buys,
over ``--games`` seeded n = 6 games (two weak players, depth 2 with the race and the
simple evaluators, after 2 random plies, as ``oska selfplay --n 6 --white 2:race --black
2:simple --opening-plies 2 --seed S``), every position searched (exact values off):

- the median depth completed within ``--seconds`` of this process's CPU time by a search
  of the position alone, with new tables, a ply at a time (CPU time, not wall-clock, so
  other processes do not shorten it; on an idle core the two agree);
- for each of ``--nodes``, a review of each game within that many nodes a position
  (``ReviewJob``, which searches the positions in order with one set of tables): the
  median depth completed, the share of positions that got at least as deep as with the
  time, the processor seconds of the reviews, and how often its marks agree with a
  review of the same games to depth ``--agree-depth`` (8): of the moves either review
  marks inaccuracy, mistake or blunder, the share both give the same mark, and the
  share both mark bad.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Iterator

from oska_gui.core.types import Position
from oska_gui.engine.evaluators import oska_evaluator
from oska_gui.engine.learned import chance_evaluator
from oska_gui.engine.search import AlphaBeta, Progress
from oska_gui.games.oska import OskaRules, oska_rules
from oska_gui.play.players import DepthPlayer
from oska_gui.play.records import Record
from oska_gui.play.review.budget import Budget
from oska_gui.play.review.job import ReviewJob
from oska_gui.play.review.result import Review
from oska_gui.play.selfplay import play_game

MAX_DEPTH = 64


def weak_games(rules: OskaRules, games: int) -> Iterator[Record]:
    """Yield ``games`` seeded weak games (seeds 1..games)."""
    white = DepthPlayer("race", oska_evaluator(rules, "race"), 2, rules)
    black = DepthPlayer("simple", oska_evaluator(rules, "simple"), 2, rules)
    for seed in range(1, games + 1):
        yield play_game(rules, white, black, 2, random.Random(seed))


def searched(rules: OskaRules, record: Record) -> list[Position]:
    """Return the positions of ``record`` a review searches: those with a move to play."""
    return [pos for pos in record.positions()
            if rules.terminal(pos) is None and rules.children(pos)]


def timed_depth(rules: OskaRules, pos: Position, seconds: float) -> int:
    """Return the depth a search of ``pos`` alone, with new tables, completes within
    ``seconds`` of CPU time (the first depth in any case)."""
    search = AlphaBeta(rules, chance_evaluator(rules))
    progress = Progress()
    start = time.process_time()
    for _ in search.deepen(pos, MAX_DEPTH, progress):
        if progress.depth and time.process_time() - start >= seconds:
            break
    return progress.depth


def reviewed(record: Record, budget: Budget) -> Review:
    """Return the review of ``record`` within ``budget``, exact values off."""
    job = ReviewJob(record, budget, exact=False)
    while not job.advance(1.0):
        pass
    return job.review


def agreement(reviews: list[Review], references: list[Review]) -> tuple[int, int, int]:
    """Return (moves both reviews mark alike, moves both mark bad, moves either marks
    bad) over the games."""
    alike = both = either = 0
    for review, reference in zip(reviews, references, strict=True):
        for ply, other in zip(review.plies, reference.plies, strict=True):
            if ply.judged and (ply.mark.bad or other.mark.bad):
                either += 1
                alike += ply.mark is other.mark
                both += ply.mark.bad and other.mark.bad
    return alike, both, either


def main() -> None:
    """Measure and print the depths (see the module text)."""
    parser = argparse.ArgumentParser(prog="python -m tools.review_budget",
                                     description=__doc__.split("\n\n")[1])
    parser.add_argument("--games", type=int, default=20, help="seeded n = 6 games (20)")
    parser.add_argument("--seconds", type=float, default=0.2,
                        help="CPU seconds a position to compare with (0.2)")
    parser.add_argument("--nodes", type=int, nargs="+", default=[20_000, 40_000, 60_000],
                        help="node budgets to measure")
    parser.add_argument("--agree-depth", type=int, default=8,
                        help="the depth of the reference review (8)")
    args = parser.parse_args()
    rules = oska_rules(6)
    records = list(weak_games(rules, args.games))
    depths = [timed_depth(rules, pos, args.seconds)
              for record in records for pos in searched(rules, record)]
    print(f"{len(depths)} positions of {args.games} n = 6 games")
    print(f"{args.seconds:g} s of CPU a position: median depth {statistics.median(depths):g}")
    references = [reviewed(record, Budget(None, args.agree_depth)) for record in records]
    for nodes in args.nodes:
        cpu = time.process_time()
        reviews = [reviewed(record, Budget(nodes)) for record in records]
        cpu = time.process_time() - cpu
        reached = [a.depth for review in reviews for a in review.assessments if a.depth]
        deep = sum(a >= b for a, b in zip(reached, depths, strict=True)) / len(depths)
        alike, both, either = agreement(reviews, references)
        print(f"{nodes:,} nodes a position: median depth {statistics.median(reached):g}, "
              f"as deep as the time in {100 * deep:.0f} % of positions; {cpu:.1f} s of "
              f"CPU; of the {either} moves it or depth {args.agree_depth} marks bad, "
              f"{alike} marked alike ({100 * alike / max(1, either):.1f} %), {both} bad in "
              f"both ({100 * both / max(1, either):.1f} %)")


if __name__ == "__main__":
    main()
