"""Tune the strong evaluator's weights by self-play: ``python -m tools.tune``.

Every candidate weight set plays the same seeded suite of matches at equal depth: for
each board size and depth, ``--games`` random openings (``n - 2`` random plies each),
each played twice with the colours swapped. A score is the share of the points (a draw
is half). The opponents (``--against``) are by default both the simple evaluator and
the best weights so far, and a change is kept if its mean score beats the incumbent's
(its score against simple, and 50 % against itself) by more than ``KEEP_MARGIN``. Why
both: against simple alone every reasonable weight set scores about 90 % and the
differences drown in noise; head to head alone the search drifts to weights that beat
their predecessor but lose more often to simple (it is not transitive).

The search is a plain coordinate search, easy to follow in the printed table: for each
weight in turn, try it divided and multiplied by the current factor and keep the first
change that wins; after a full round without a change the factor shrinks to its square
root. It stops when the factor is below ``MIN_FACTOR`` or after ``--candidates`` tries,
so a run is reproducible (for a given engine: the search's move order decides ties);
``--budget-seconds`` is a safety stop on a slow machine. The winner is then checked on
fresh openings (the next seed), against the simple evaluator and against the start, to
show how much of its edge was fitted to the tuning openings.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, fields, replace

from oska_gui.engine.evaluators import Weights, classic_evaluator, simple_evaluator
from oska_gui.games.oska import oska_rules
from oska_gui.play.players import DepthPlayer
from oska_gui.play.selfplay import MatchResult, match

MIN_FACTOR = 1.15  # stop refining once a step changes a weight by less than 15 %
KEEP_MARGIN = 0.01  # a change must beat the incumbent's score by over 1 point to be kept

# The hand-set first guess the tuning starts from: race counted per move, a piece worth
# 1.5 pieces only while it can still fight (a piece out of reach of every opponent piece
# is just a runner, counted by the race), a big bonus for leading the race.
FIRST_GUESS = Weights(material=150, race=20, lead=100, attack=25, danger=25, blocked=10,
                      free=-150, passed_margin=50)


@dataclass(frozen=True)
class Suite:
    """The matches every candidate plays: board sizes, depths, openings and a seed."""

    sizes: tuple[int, ...]
    depths: tuple[int, ...]
    games: int
    seed: int

    def cells(self) -> Iterator[tuple[int, int, int]]:
        """Yield (n, depth, openings) per cell; n >= 8 gets half the openings (slow)."""
        for n in self.sizes:
            for depth in self.depths:
                yield n, depth, max(1, self.games // 2) if n >= 8 else self.games


def play_suite(weights: Weights, suite: Suite, opponent: Weights | None) -> MatchResult:
    """Return the total result of ``weights`` against ``opponent`` over ``suite``.

    ``opponent`` None means the simple evaluator. Both sides search to equal depth.
    """
    total = MatchResult()
    for n, depth, openings in suite.cells():
        rules = oska_rules(n)
        them = simple_evaluator(rules) if opponent is None else classic_evaluator(rules, opponent)
        candidate = DepthPlayer("candidate", classic_evaluator(rules, weights), depth, rules)
        cell = match(rules, candidate, DepthPlayer("opponent", them, depth, rules), openings, n - 2,
                     seed=suite.seed * 1000 + n * 10 + depth)
        total.add(cell)
    total.games.clear()  # keep only the counts: suites are replayed many times
    return total


def steps(value: int, factor: float) -> tuple[int, int]:
    """Return ``value`` divided and multiplied by ``factor``, rounded, sign kept.

    A value that rounding would not move is moved by 1 instead.
    """
    down, up = round(value / factor), round(value * factor)
    return (down if down != value else value - 1), (up if up != value else value + 1)


def row(label: str, result: MatchResult, bar: float = 1.0) -> str:
    """Return a table line: label, W/D/L, score and a marker when it beats ``bar``."""
    mark = "  <- kept" if result.score > bar else ""
    return (f"{label:<28} {result.wins:>4} {result.draws:>4} {result.losses:>4}"
            f"  {100 * result.score:6.1f}%{mark}")


class CoordinateSearch:
    """The coordinate search over ``Weights``, printing one table line per candidate."""

    def __init__(self, start: Weights, suite: Suite, against: str, limit: int,
                 deadline: float) -> None:
        """Prepare to search from ``start``: at most ``limit`` candidates, until ``deadline``.

        ``against`` names the opponents: 'simple', 'best' (the incumbent) or 'pool' (both).
        """
        self.best = start
        self.suite = suite
        self.use_simple = against in ("simple", "pool")
        self.use_best = against in ("best", "pool")
        self.limit = limit
        self.deadline = deadline
        self.tried = 0
        print(f"{'candidate':<28} {'W':>4} {'D':>4} {'L':>4}  score")
        self.best_vs_simple = play_suite(start, suite, None) if self.use_simple else None
        if self.best_vs_simple is not None:
            print(row("start vs simple", self.best_vs_simple))

    def bar(self) -> float:
        """Return the score a candidate must beat: the incumbent's own, plus the margin.

        The incumbent scores 50 % against itself by definition.
        """
        own = [self.best_vs_simple.score] if self.best_vs_simple is not None else []
        own += [0.5] if self.use_best else []
        return sum(own) / len(own) + KEEP_MARGIN

    def run(self, factor: float) -> Weights:
        """Search with first step ``factor`` until done; return the best weights found."""
        while factor >= MIN_FACTOR and self.can_go_on():
            if not self.round(factor):
                factor = factor ** 0.5
                print(f"-- no change this round: step factor now {factor:.2f}")
        print(f"-- stopped after {self.tried} candidates"
              + ("" if time.monotonic() < self.deadline else
                 ": time budget spent, so this run is not reproducible"))
        return self.best

    def can_go_on(self) -> bool:
        """Return True while candidates and time are left."""
        return self.tried < self.limit and time.monotonic() < self.deadline

    def round(self, factor: float) -> bool:
        """Try each weight divided and multiplied by ``factor``; return True if one was kept."""
        improved = False
        for name in (spec.name for spec in fields(Weights)):
            value = getattr(self.best, name)  # includes this round's changes so far
            for new in steps(value, factor):
                if not self.can_go_on():
                    return improved
                if self.try_candidate(f"{name} {value}->{new}", replace(self.best, **{name: new})):
                    improved = True
                    break  # the other direction from the old value is moot now
        return improved

    def try_candidate(self, label: str, candidate: Weights) -> bool:
        """Play ``candidate``'s matches, print its line; keep it and return True if it wins.

        With two opponents the line adds up both matches (equal in size), so its score
        is the mean of the two scores.
        """
        self.tried += 1
        total = MatchResult()
        vs_simple = play_suite(candidate, self.suite, None) if self.use_simple else None
        if vs_simple is not None:
            total.add(vs_simple)
        if self.use_best:
            total.add(play_suite(candidate, self.suite, self.best))
        bar = self.bar()
        print(row(label, total, bar), flush=True)
        if total.score <= bar:
            return False
        self.best, self.best_vs_simple = candidate, vs_simple
        return True


def parse_ints(text: str) -> tuple[int, ...]:
    """Return the comma-separated integers in ``text`` (e.g. '4,5,6')."""
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected numbers like 4,5,6, got {text!r}") from None


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Return the command-line options (see ``--help``); exits with a message if bad."""
    parser = argparse.ArgumentParser(prog="python -m tools.tune", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=8,
                        help="openings per board size and depth (2 games each; default 8)")
    parser.add_argument("--depths", type=parse_ints, default=(2, 3, 4),
                        help="search depths of both players (default 2,3,4)")
    parser.add_argument("--sizes", type=parse_ints, default=(4, 5, 6, 8),
                        help="board sizes n (default 4,5,6,8; n >= 8 plays half the games)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the openings (default 1)")
    parser.add_argument("--candidates", type=int, default=32,
                        help="try at most this many weight sets (default 32)")
    parser.add_argument("--budget-seconds", type=float, default=1200.0,
                        help="stop the search after this long anyway (default 1200)")
    parser.add_argument("--factor", type=float, default=2.0,
                        help="first step: scale one weight by this (default 2)")
    parser.add_argument("--against", choices=("pool", "best", "simple"), default="pool",
                        help="opponents: the best so far, simple, or both (pool, default)")
    parser.add_argument("--from-defaults", action="store_true",
                        help="start from today's default Weights() instead of FIRST_GUESS")
    args = parser.parse_args(argv)
    if min(args.games, args.candidates, *args.depths) < 1 or min(args.sizes) < 4:
        parser.error("need --games, --candidates and depths >= 1 and sizes >= 4")
    if args.factor <= MIN_FACTOR:
        parser.error(f"need --factor > {MIN_FACTOR}")
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the tuning described by ``argv`` and print the table and the result."""
    args = parse_args(argv)
    began = time.monotonic()
    suite = Suite(args.sizes, args.depths, args.games, args.seed)
    start = Weights() if args.from_defaults else FIRST_GUESS
    search = CoordinateSearch(start, suite, args.against, args.candidates,
                              began + args.budget_seconds)
    best = search.run(args.factor)
    fresh = replace(suite, seed=suite.seed + 1)
    print(row("start vs simple, fresh", play_suite(start, fresh, None)))
    against_simple = play_suite(best, fresh, None)
    print(row("best vs simple, fresh", against_simple))
    against_start = play_suite(best, fresh, start)
    print(row("best vs start, fresh", against_start))
    print(f"best: Weights({', '.join(f'{k}={v}' for k, v in asdict(best).items())})")
    print(f"fresh openings: {100 * against_simple.score:.1f}% against simple, "
          f"{100 * against_start.score:.1f}% against the start; "
          f"{search.tried} candidates, {time.monotonic() - began:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
