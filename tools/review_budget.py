"""How deep a review's search gets a position: ``python -m tools.review_budget [options]``.

The review's default budget is a number of nodes a position, so that a review is the
same on any machine and under any load. This tool measures what that budget buys
against a time a position: over the positions of ``--games`` seeded n = 6 games (two
weak players, depth 2 with the race and the simple evaluators, after 2 random plies, as
``oska selfplay --n 6 --white 2:race --black 2:simple --opening-plies 2 --seed S``), each
position is searched as the review searches it (iterative deepening, a ply at a time, the
calibrated evaluator) and the tool prints:

- the median depth completed within ``--seconds`` of this process's CPU time (CPU time,
  not wall-clock, so other processes do not shorten it; on an idle core the two agree);
- for each of ``--nodes``, the median depth completed within that many nodes, and the
  share of positions that got at least as deep as with the time (one search a position
  serves every budget: the nodes spent when each depth was completed are noted).
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
from oska_gui.play.selfplay import play_game

MAX_DEPTH = 64


def game_positions(rules: OskaRules, games: int) -> Iterator[Position]:
    """Yield every unfinished position of ``games`` seeded weak games (seeds 1..games)."""
    white = DepthPlayer("race", oska_evaluator(rules, "race"), 2, rules)
    black = DepthPlayer("simple", oska_evaluator(rules, "simple"), 2, rules)
    for seed in range(1, games + 1):
        record = play_game(rules, white, black, 2, random.Random(seed))
        for pos in record.positions():
            if rules.terminal(pos) is None and rules.children(pos):
                yield pos


def deepening(rules: OskaRules, pos: Position, seconds: float,
              nodes: int) -> tuple[int, list[tuple[int, int]]]:
    """Search ``pos`` as the review does until both ``seconds`` of CPU time and ``nodes``
    nodes are spent (after a first completed depth).

    Returns:
        The depth completed within the seconds, and (depth, nodes spent when it was
        completed) for every depth completed.
    """
    search = AlphaBeta(rules, chance_evaluator(rules))
    progress = Progress()
    completed: list[tuple[int, int]] = []
    timed = 0
    start = time.process_time()
    for _ in search.deepen(pos, MAX_DEPTH, progress):
        if progress.depth > (completed[-1][0] if completed else 0):
            completed.append((progress.depth, search.nodes))
        if time.process_time() - start < seconds:
            timed = progress.depth
        elif progress.depth and search.nodes >= nodes:
            break
    else:  # the search ended by itself: a proven result, or nothing depth-bound
        timed = progress.depth
        completed.append((progress.depth, search.nodes))
    return timed, completed


def depth_for(completed: list[tuple[int, int]], budget: int) -> int:
    """Return the depth a search stopped at ``budget`` nodes completes: the deepest one
    completed within the budget (the first one in any case)."""
    within = [depth for depth, nodes in completed if nodes <= budget]
    return max(within) if within else completed[0][0]


def main() -> None:
    """Measure and print the depths (see the module text)."""
    parser = argparse.ArgumentParser(prog="python -m tools.review_budget",
                                     description=__doc__.split("\n\n")[1])
    parser.add_argument("--games", type=int, default=20, help="seeded n = 6 games (20)")
    parser.add_argument("--seconds", type=float, default=0.2,
                        help="CPU seconds a position to compare with (0.2)")
    parser.add_argument("--nodes", type=int, nargs="+", default=[20_000, 40_000, 60_000],
                        help="node budgets to measure")
    args = parser.parse_args()
    rules = oska_rules(6)
    positions = list(game_positions(rules, args.games))
    runs = [deepening(rules, pos, args.seconds, max(args.nodes)) for pos in positions]
    depths = [timed for timed, _ in runs]
    print(f"{len(positions)} positions of {args.games} n = 6 games")
    print(f"{args.seconds:g} s of CPU a position: median depth {statistics.median(depths):g}")
    for budget in args.nodes:
        reached = [depth_for(completed, budget) for _, completed in runs]
        deep = sum(a >= b for a, b in zip(reached, depths, strict=True)) / len(positions)
        print(f"{budget:,} nodes a position: median depth {statistics.median(reached):g}, "
              f"as deep as the time in {100 * deep:.0f} % of positions")

if __name__ == "__main__":
    main()
