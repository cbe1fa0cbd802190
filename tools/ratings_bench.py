"""Rating time: ``python -m tools.ratings_bench [--entrants K ...]``.

Makes a round robin of K entrants with known strengths (normal, 1.5 natural units
apart on average, so some pairs are one-sided), 2 games a pair by default, and times
``ratings.rate`` on numpy (the ``ratings`` extra) and, up to ``--python-up-to``
entrants, in pure Python, printing seconds and the largest difference between the two
backends' ratings. Timings depend on the machine's load, printed beside them.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import time

from oska_gui.console.table import render_table
from oska_gui.tournament.ratings import Rating, rate

Game = tuple[int, int, float]


def round_robin(count: int, per_pair: int, seed: int) -> list[Game]:
    """Return the games of a round robin of ``count`` entrants of random known strengths.

    Each of the ``per_pair`` games of a pair is won by the first entrant with the
    Bradley-Terry chance of its strengths; no draws.
    """
    rng = random.Random(seed)
    strength = [rng.gauss(0.0, 1.5) for _ in range(count)]
    games = []
    for i in range(count):
        for j in range(i + 1, count):
            chance = 1 / (1 + math.exp(strength[j] - strength[i]))
            games += [(i, j, float(rng.random() < chance)) for _ in range(per_pair)]
    return games


def timed(count: int, games: list[Game], backend: str) -> tuple[float, list[Rating]]:
    """Return the seconds ``rate`` takes on ``backend`` and the ratings it gave."""
    start = time.perf_counter()
    ratings = rate(count, games, backend=backend)
    return time.perf_counter() - start, ratings


def main(argv: list[str] | None = None) -> None:
    """Time the ratings for each field size asked for and print a table."""
    parser = argparse.ArgumentParser(prog="python -m tools.ratings_bench",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, nargs="+", default=[100, 300, 1000])
    parser.add_argument("--games-per-pair", type=int, default=2)
    parser.add_argument("--python-up-to", type=int, default=300, metavar="K",
                        help="time the pure-Python backend up to K entrants (default 300)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rate(2, [(0, 1, 1.0)], backend="numpy")  # import numpy before the clock starts
    rows = []
    for count in args.entrants:
        games = round_robin(count, args.games_per_pair, args.seed)
        fast, fast_ratings = timed(count, games, "numpy")
        row: list[object] = [count, len(games), f"{fast:.2f}", "-", "-"]
        if count <= args.python_up_to:
            slow, slow_ratings = timed(count, games, "python")
            gap = max(abs(a.elo - b.elo) + abs(a.low - b.low)
                      for a, b in zip(fast_ratings, slow_ratings, strict=True))
            row[3:] = [f"{slow:.2f}", f"{gap:.1e}"]
        rows.append(row)
    print(render_table(["entrants", "games", "numpy s", "python s", "largest difference"],
                       rows, "Rating time (Bradley-Terry with intervals)"))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
