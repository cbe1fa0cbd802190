"""Value-losing choices at every search depth: ``python -m tools.depths``.

For each depth asked, plays ``oskaplayer``'s choice (the default evaluator, exactly that
many plies deep) on solved positions where the choice matters (the moves do not all
keep the game-theoretic value) and prints how many choices throw the value away: a
won position played into a draw or a loss, a drawn one into a loss.

- n = 4: every position of the whole game where the choice matters (191,057, from the
  pure-Python ``solver``, about a minute), or a seeded sample of ``--positions`` of them.
- n = 5 (or any size with a dataset): the positions of ``--dataset FILE`` (made by
  ``oska solve --n 5 --dataset FILE``, needs the ``solve`` extra) held out of training
  where the choice matters, the first ``--positions`` of them, as ``tools.strength``.

A count that grows with the depth beyond noise points at the search (a deeper search
of the same evaluator should not choose worse); one that stays high at middle depths
points at positions the evaluator misjudges at the horizon.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

from oska_gui.console.table import render_table
from oska_gui.engine.search import run
from oska_gui.engine.solver import parent_score, solution_of, solver_for
from oska_gui.games.oska import oska_rules
from tools.strength import ChoiceJob, choice_jobs, keeps_value, parse_depths

SOLVED_N = 4  # the board whose whole game the pure-Python solver holds
SEED = 23
MAX_SOLVED = 2_000_000  # positions the n = 4 game may have (782,918)


def solved_choices(n: int = SOLVED_N) -> list[ChoiceJob]:
    """Return a job (depth 0: set it before playing) for every position of board ``n``'s
    whole game where the choice matters, with the children that keep its value.

    Raises TooBig when the solver cannot hold the whole game (n > 4).
    """
    rules = oska_rules(n)
    scores = run(solver_for(rules).table_steps(rules.start(), MAX_SOLVED)).scores
    jobs = []
    for pos in scores:
        if rules.terminal(pos) is not None:
            continue
        kids = rules.real_children(pos)
        results = [solution_of(parent_score(scores[kid])).result for kid in kids]
        if len(set(results)) > 1:
            best = max(results)
            kept = frozenset(kid for kid, result in zip(kids, results, strict=True)
                             if result == best)
            jobs.append(ChoiceJob(n, pos, 0, 0.0, kept))
    return jobs


def sample(jobs: list[ChoiceJob], count: int, seed: int = SEED) -> list[ChoiceJob]:
    """Return ``count`` of ``jobs`` drawn with ``seed`` (all of them if ``count`` is 0
    or at least their number), in their original order."""
    if not count or count >= len(jobs):
        return jobs
    chosen = sorted(random.Random(seed).sample(range(len(jobs)), count))
    return [jobs[i] for i in chosen]


def depth_rows(jobs: list[ChoiceJob], depths: Sequence[int],
               pool: ProcessPoolExecutor) -> list[list[str]]:
    """Return one row per depth: positions played, choices that lost the value, share."""
    rows = []
    for depth in depths:
        start = time.perf_counter()
        kept = list(pool.map(keeps_value, [replace(job, depth=depth) for job in jobs],
                             chunksize=64))
        lost = kept.count(False)
        rows.append([str(depth), f"{len(jobs):,}", f"{lost:,}",
                     f"{100 * lost / max(1, len(jobs)):.2f} %",
                     f"{time.perf_counter() - start:.0f} s"])
        print(f"depth {depth}: {lost:,} of {len(jobs):,} lost the value", flush=True)
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    """Print the value-losing choices per depth with the command-line ``argv``; return 0."""
    parser = argparse.ArgumentParser(prog="python -m tools.depths",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--depths", type=parse_depths, default=parse_depths("1-10"),
                        help="depths to play, e.g. 2-10 or 2,4,6 (default 1-10)")
    parser.add_argument("--positions", type=int, default=2000,
                        help="positions to play (a seeded sample; 0: every one)")
    parser.add_argument("--dataset", type=Path,
                        help="an exact dataset (oska solve --n N --dataset FILE) instead of "
                             "the whole n = 4 game")
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    args = parser.parse_args(argv)
    if args.dataset is None:
        everything = solved_choices()
        jobs = sample(everything, args.positions)
        print(f"n = {SOLVED_N}: {len(jobs):,} of the {len(everything):,} positions of the "
              "whole game where the choice matters", flush=True)
    else:
        if not args.dataset.exists():
            parser.error(f"{args.dataset} does not exist: make it with "
                         "oska solve --n 5 --dataset FILE")
        jobs = choice_jobs(args.dataset, args.positions or 1 << 62, 0, 0.0)
        print(f"{args.dataset}: {len(jobs):,} held-out positions where the choice matters",
              flush=True)
    with ProcessPoolExecutor(args.workers) as pool:
        rows = depth_rows(jobs, args.depths, pool)
    print(render_table(["depth", "positions", "value lost", "share", "time"], rows,
                       title="Value-losing choices of oskaplayer per depth"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
