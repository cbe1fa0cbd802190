"""Review speed and agreement: ``python -m tools.review_bench [options]``.

Two measurements of ``play.review``:

- **Speed**: the first ``--plies`` (40) plies of a seeded n = 5 game between two weak
  players (depth 2, the simple and the race evaluators, after 6 random plies) reviewed
  at the default budget, exact values on as ``oska review`` uses them (the solver's
  endgame budget; a saved n = 5 solution, if kept, is not asked). Prints the
  wall-clock seconds and the load.
- **Agreement** (``--games K``): K seeded random n = 4 games reviewed with exact values
  off, at ``--depth`` D or the default budget, each mark compared with the solver: how
  many moves marked mistake or blunder lose value or speed (a worse result, a slower
  win or a faster loss), and how many of the moves that lose value (a win to a draw
  or loss, a draw to a loss) are marked mistake or blunder. ``--confirm-plies`` sets
  how much deeper a suspected mistake is searched again (0: the first look alone).
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from dataclasses import dataclass

from oska_gui.core.types import Position, Rules
from oska_gui.engine.evaluators import oska_evaluator
from oska_gui.engine.solver import Solution, solver_for
from oska_gui.games.oska import oska_rules
from oska_gui.play.players import DepthPlayer
from oska_gui.play.records import Record, from_positions
from oska_gui.play.review.budget import Budget
from oska_gui.play.review.job import CONFIRM_PLIES, ReviewJob
from oska_gui.play.review.marks import Mark
from oska_gui.play.review.result import Review
from oska_gui.play.selfplay import play_game

FLAGGED = (Mark.MISTAKE, Mark.BLUNDER)


@dataclass
class Agreement:
    """Searched marks against exact values.

    Attributes:
        moves: the moves compared.
        flagged: those marked mistake or blunder.
        flagged_worse: of those, the ones that lose value or speed.
        losing: the moves that lose value.
        losing_flagged: of those, the ones marked mistake or blunder.
    """

    moves: int = 0
    flagged: int = 0
    flagged_worse: int = 0
    losing: int = 0
    losing_flagged: int = 0

    def add(self, review: Review) -> None:
        """Compare every judged move of ``review`` with the solver's values."""
        solver = solver_for(review.record.rules)
        for ply in review.plies:
            before, after = review.positions[ply.ply - 1], review.positions[ply.ply]
            ranked = solver.ranked_children(before)
            best, played = ranked[0][1], dict(ranked)[after]
            flagged = ply.mark in FLAGGED
            self.moves += 1
            self.flagged += flagged
            self.flagged_worse += flagged and worse(best, played)
            self.losing += played.result < best.result
            self.losing_flagged += flagged and played.result < best.result

    @property
    def precision(self) -> float:
        """Return the share of flagged moves that lose value or speed (1 if none)."""
        return self.flagged_worse / self.flagged if self.flagged else 1.0

    @property
    def recall(self) -> float:
        """Return the share of value-losing moves that are flagged (1 if none)."""
        return self.losing_flagged / self.losing if self.losing else 1.0


def worse(best: Solution, played: Solution) -> bool:
    """Return True when ``played`` loses value or speed against ``best``: a worse
    result, a slower win or a faster loss (a shorter draw is not worse)."""
    if played.result != best.result:
        return played.result < best.result
    return best.result * (played.plies - best.plies) > 0


def random_game(rules: Rules, seed: int) -> list[Position]:
    """Return a seeded random game of ``rules`` from the start to its end."""
    rng = random.Random(seed)
    line = [rules.start()]
    while rules.outcome(line[-1]) is None:
        line.append(rng.choice(rules.children(line[-1])))
    return line


def agreement(games: int, budget: Budget, confirm_plies: int = CONFIRM_PLIES) -> Agreement:
    """Return the agreement of searched marks with the solver over random n = 4 games.

    Args:
        games: how many games (seeds 0 to games - 1).
        budget: the search a position may take.
        confirm_plies: how much deeper suspected mistakes are searched again.
    """
    rules, found = oska_rules(4), Agreement()
    for seed in range(games):
        line = random_game(rules, seed)
        job = ReviewJob(from_positions(line, rules, "random", "random", rules.outcome(line[-1])),
                        budget, exact=False, confirm_plies=confirm_plies)
        while not job.advance(1.0):
            pass
        found.add(job.review)
    return found


def long_game(plies: int, seed: int) -> Record:
    """Return the first ``plies`` plies of the first seeded weak n = 5 game that long."""
    rules = oska_rules(5)
    white = DepthPlayer("simple", oska_evaluator(rules, "simple"), 2, rules)
    black = DepthPlayer("race", oska_evaluator(rules, "race"), 2, rules)
    rng = random.Random(seed)
    while True:
        record = play_game(rules, white, black, 6, rng)
        line = record.positions()
        if len(line) > plies:
            cut = line[:plies + 1]
            return from_positions(cut, rules, white.name, black.name, rules.outcome(cut[-1]),
                                  opening_plies=6)


def main() -> None:
    """Measure what the options ask for and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=40, help="plies of the n = 5 game")
    parser.add_argument("--seed", type=int, default=1, help="seed of the n = 5 game")
    parser.add_argument("--games", type=int, default=0,
                        help="random n = 4 games for the agreement (default 0: none)")
    parser.add_argument("--depth", type=int, help="search depth for the agreement")
    parser.add_argument("--nodes", type=int,
                        help="nodes a position (default: the review's default budget)")
    parser.add_argument("--confirm-plies", type=int, default=CONFIRM_PLIES,
                        help="how much deeper a suspected mistake is searched again "
                             f"(default {CONFIRM_PLIES}; 0: never)")
    args = parser.parse_args()
    record = long_game(args.plies, args.seed)
    # The target is without the saved n = 5 solution, which would value every position
    # at once (1-2 s for the whole game) where ``oska solve --n 5 --save`` was run: an
    # empty data folder hides it.
    os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="oska-review-bench-")
    start, cpu = time.perf_counter(), time.process_time()
    job = ReviewJob(record, Budget.chosen(args.nodes))
    while not job.advance(0.05):
        pass
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    exact = sum(ply.exact for ply in job.review.plies)
    print(f"n = 5, {len(record.moves)} plies ({exact} exact), {job.budget.describe()}: "
          f"reviewed in {seconds:.1f} s, {cpu:.1f} s of CPU (load "
          f"{os.getloadavg()[0]:.1f})")
    if args.games:
        start = time.perf_counter()
        budget = Budget.chosen(args.nodes, args.depth)
        found = agreement(args.games, budget, args.confirm_plies)
        how = f"{budget.describe()}, suspected mistakes {args.confirm_plies} plies deeper"
        print(f"n = 4, {args.games} random games, {found.moves} moves, {how}: "
              f"{found.flagged_worse}/{found.flagged} flagged moves lose value or speed "
              f"({100 * found.precision:.1f} %), {found.losing_flagged}/{found.losing} "
              f"value-losing moves flagged ({100 * found.recall:.1f} %); "
              f"{time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
