"""Exact training positions from a saved solved game (``oska solve --n 5 --save``).

The solved file (``engine.solved_file``) values any position of its board in
microseconds, so training is not limited to the positions of a dataset sampled along
well-played games: it can label what a search meets at its horizon. A seeded game from
the start is played with moves drawn, per game, from one of: perfect play, or a
search of the shipped model 1 to 3 plies deep; each move is instead a random one with
the game's rate (``RATES``, in turn). Sampled: every position of the game, every child
of it (the position after each move, the weak ones too: a piece walked into a
capture), and for every other position of the game its grandchildren (the reply to
each move). That is where the search's choices are made: fitted only along games, the
n = 5 model misjudged such leaves and lost the value at every depth.

Positions ``exact_dataset.is_held_out`` names are never sampled (they, their mirror
images and colour swaps, measure the fit); a game goes on through them all the same.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from oska_gui.core.types import Position
from oska_gui.engine.exact_dataset import is_held_out
from oska_gui.engine.learned import learned_evaluator
from oska_gui.engine.search import best_child
from oska_gui.engine.solved_file import SolvedFile, saved_solution
from oska_gui.games.oska import OskaRules

RATES = (0.0, 0.1, 0.25, 0.5, 1.0)  # the share of random moves, game after game
SEARCH_DEPTHS = (0, 1, 2, 3)  # how a game's moves are chosen: 0 perfect, else search depth
GRANDCHILDREN_EVERY = 2  # the grandchildren of one position of the game in this many


class NoSolvedGame(Exception):
    """Raised when the board's solved game was not saved (``oska solve --n N --save``)."""


@dataclass(frozen=True)
class SolvedGameJob:
    """One seeded game to sample: the board size and the seed."""

    n: int
    seed: int


def solved_file(n: int) -> SolvedFile:
    """Return the saved solved game of board ``n``; raises NoSolvedGame without one."""
    found = saved_solution(n)
    if found is None:
        raise NoSolvedGame(f"no solved game of n = {n}: make it with oska solve --n {n} --save")
    return found


def game_line(job: SolvedGameJob, solved: SolvedFile, rng: random.Random) -> list[Position]:
    """Return the positions of ``job``'s game where its side to move had a real move.

    The game's way of choosing (``SEARCH_DEPTHS``) and random-move rate (``RATES``)
    come from ``rng`` and the seed; it ends when the game is over.
    """
    rules = solved.rules
    rate = RATES[job.seed % len(RATES)]
    depth = rng.choice(SEARCH_DEPTHS)
    evaluate = learned_evaluator(rules)
    line = []
    pos = rules.start()
    while rules.terminal(pos) is None:
        kids = rules.real_children(pos)
        if not kids:
            passes = rules.children(pos)
            if not passes:  # neither side can move: the game is over
                break
            pos = passes[0]
            continue
        line.append(pos)
        if rng.random() < rate:
            pos = rng.choice(kids)
        elif depth:
            pos = best_child(rules, evaluate, pos, depth)
        else:
            ranked = solved.ranked_children(pos)
            pos = rng.choice([kid for kid, value in ranked if value == ranked[0][1]]
                             if ranked else kids)
    return line


def sampled_positions(rules: OskaRules, line: list[Position],
                      rng: random.Random) -> Iterator[Position]:
    """Yield the positions to sample around a game's ``line`` (repeats possible): each
    position, its children, and for one in ``GRANDCHILDREN_EVERY`` its grandchildren."""
    for pos in line:
        yield pos
        kids = rules.children(pos)
        yield from kids
        if rng.randrange(GRANDCHILDREN_EVERY) == 0:
            for kid in kids:
                if rules.terminal(kid) is None:
                    yield from rules.children(kid)


def solved_game_samples(job: SolvedGameJob) -> dict[Position, int]:
    """Play ``job``'s game; return the exact result (for its side to move) of each
    unfinished position sampled around it that is not held out, in the order met."""
    rng = random.Random(job.seed)
    solved = solved_file(job.n)
    rules = solved.rules
    results: dict[Position, int] = {}
    for pos in sampled_positions(rules, game_line(job, solved, rng), rng):
        if pos in results or rules.terminal(pos) is not None or is_held_out(rules, pos):
            continue
        value = solved.solution(pos)
        if value is not None:
            results[pos] = value.result
    return results


def solved_samples(n: int, games: int, seed: int,
                   pool: ProcessPoolExecutor) -> dict[Position, int]:
    """Return the exact results of the positions sampled around ``games`` seeded games
    of board ``n`` (played on ``pool``; gathered in a fixed order, so a seed gives the
    same samples); raises NoSolvedGame when the board's solved game was not saved."""
    solved_file(n)  # a clear error here rather than in every worker
    results: dict[Position, int] = {}
    jobs = [SolvedGameJob(n, seed * 1_000_003 + i) for i in range(games)]
    for found in pool.map(solved_game_samples, jobs, chunksize=8):
        for pos, result in found.items():
            results.setdefault(pos, result)
    return results


def solved_positions(n: int, games: int, seed: int,
                     pool: ProcessPoolExecutor) -> tuple[list[Position], list[int]]:
    """Return ``solved_samples`` as a list of positions and one of their results."""
    results = solved_samples(n, games, seed, pool)
    return list(results), list(results.values())

