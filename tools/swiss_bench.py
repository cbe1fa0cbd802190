"""Swiss against round robin: ``python -m tools.swiss_bench [--rounds R ...]``; and the
pairing's speed: ``python -m tools.swiss_bench --pairing 64:26 1000:12``.

Plays a field of known order, by default 16 entrants on n = 5 with 2 games a pairing:
this project's AI at depths 1 to 6, two copies of each, and 4 random movers, first as
a round robin, then as Swiss tournaments of the rounds asked for, once per opening
seed, and prints for each the games played and the Spearman correlation with the
round robin's ranking of the Swiss standings' order (points, then Buchholz) and of the
order by rating, and of the standings with the known order (deeper is stronger, random
movers last). A Swiss game that the round robin already played (same players, colours
and opening) is taken from it rather than played again, so the run is shorter; the
games column counts it anyway.

With ``--pairing COUNT:ROUNDS ...`` it only pairs: fields of COUNT entrants over ROUNDS
rounds of random results (one game a pairing: a win, a draw or a loss), and prints the
time the pairing took (in all, and the slowest round) and the rematches it made against
the fewest a maximum matching of the pairs that never met allows.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from pathlib import Path

from oska_gui.console.table import render_table
from oska_gui.tournament.entrants import number_twins
from oska_gui.tournament.formats import Format, RoundRobin, SwissRounds
from oska_gui.tournament.games import Conditions, Entrant, GameTask, read_bot
from oska_gui.tournament.matching import Matching
from oska_gui.tournament.result import GameResult
from oska_gui.tournament.runner import local_games
from oska_gui.tournament.schedule import TournamentPlan
from oska_gui.tournament.standings import standings
from oska_gui.tournament.swiss import SwissHistory, pair_round

RANDOM_BOT = """\
import random

from oska_gui import movegen


def oskaplayer(board, player, depth):
    moves = movegen(board, player)
    return random.Random(repr((board, player))).choice(moves) if moves else board
"""
TIME_LIMIT = 60.0


def known_field(folder: Path, depths: int, copies: int, randoms: int) -> list[Entrant]:
    """Return the field, strongest first: the AI at each depth (deepest first, ``copies``
    of each), then ``randoms`` random movers written as bot files into ``folder``."""
    field = [Entrant(f"AI depth {depth} #{copy}", ai=str(depth))
             for depth in range(depths, 0, -1) for copy in range(1, copies + 1)]
    for number in range(1, randoms + 1):
        path = folder / f"random_{number}.py"
        path.write_text(RANDOM_BOT, encoding="utf-8")
        field.append(read_bot(str(path)))
    return number_twins(field)


def play_format(plan: Format, cache: dict[str, GameResult], workers: int) -> list[GameTask]:
    """Play every round of ``plan`` (games found in ``cache`` are not played again);
    return every game of the tournament. Results are added to ``cache``."""
    every: list[GameTask] = []
    while (tasks := plan.next_round()) is not None:
        todo = [task for task in tasks if task.game_id not in cache]
        for result, _ in local_games(todo, workers):
            cache[result.game_id] = result
        plan.finish_round(cache)
        every += tasks
    return every


def rankings(plan: Format, tasks: list[GameTask], cache: dict[str, GameResult],
             names: list[str]) -> tuple[list[str], list[str]]:
    """Return the entrants' names in the order of ``plan``'s standings, and by rating."""
    lines = standings(names, [cache[task.game_id] for task in tasks], plan.extras())
    by_rating = sorted(lines, key=lambda line: (-line.rating.elo, -line.points, line.name))
    return [line.name for line in lines], [line.name for line in by_rating]


def spearman(order: list[str], reference: list[str]) -> float:
    """Return Spearman's rank correlation of two orders of the same names (no ties)."""
    count = len(order)
    place = {name: i for i, name in enumerate(reference)}
    squares = sum((i - place[name]) ** 2 for i, name in enumerate(order))
    return 1 - 6 * squares / (count * (count * count - 1))


def main(argv: list[str] | None = None) -> None:
    """Play the round robin and the Swiss tournaments asked for; print the comparison."""
    parser = argparse.ArgumentParser(prog="python -m tools.swiss_bench",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, nargs="+", default=[4, 5, 6])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3],
                        help="opening seeds, one field each (default 1 2 3)")
    parser.add_argument("--n", type=int, default=5)
    parser.add_argument("--depths", type=int, default=6)
    parser.add_argument("--copies", type=int, default=2)
    parser.add_argument("--randoms", type=int, default=4)
    parser.add_argument("--games", type=int, default=2, help="games a pairing (default 2)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--pairing", nargs="+", metavar="COUNT:ROUNDS",
                        help="only time the pairing of fields of COUNT over ROUNDS rounds")
    args = parser.parse_args(argv)
    if args.pairing:
        print(render_table(["entrants", "rounds", "pairing s", "slowest round s",
                            "rematches", "fewest possible"],
                           [pairing_row(*map(int, field.split(":"))) for field in args.pairing],
                           "Swiss pairing, random results"))
        return
    start = time.perf_counter()
    rows: list[list[object]] = []
    with tempfile.TemporaryDirectory() as folder:
        field = known_field(Path(folder), args.depths, args.copies, args.randoms)
        for seed in args.seeds:
            rows += compare(field, TournamentPlan(Conditions(args.n, 1, TIME_LIMIT),
                                                  args.games, 2, seed), args)
    print(render_table(["seed", "format", "games", "share of games",
                        "Spearman vs round robin", "by rating", "vs known order"], rows,
                       f"{len(field)} entrants, n = {args.n}, {args.games} games a pairing"))
    print(f"{time.perf_counter() - start:.0f} s in all; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def compare(field: list[Entrant], settings: TournamentPlan,
            args: argparse.Namespace) -> list[list[object]]:
    """Play one round robin and the Swiss tournaments of ``args.rounds``; return their
    rows: games, and the Spearman correlations of the standings' order and the rating
    order with the round robin's order (and of the standings with the known order)."""
    cache: dict[str, GameResult] = {}
    names = [entrant.name for entrant in field]
    robin = RoundRobin(field, settings)
    robin_order, _ = rankings(robin, play_format(robin, cache, args.workers), cache, names)
    rows: list[list[object]] = [[settings.seed, "round robin", robin.total_games, "1", "1.00",
                                 "1.00", f"{spearman(robin_order, names):.2f}"]]
    for rounds in args.rounds:
        swiss = SwissRounds(field, settings, rounds)
        order, by_rating = rankings(swiss, play_format(swiss, cache, args.workers), cache,
                                    names)
        rows.append([settings.seed, f"Swiss, {rounds} rounds", swiss.total_games,
                     f"{swiss.total_games / robin.total_games:.2f}",
                     f"{spearman(order, robin_order):.2f}",
                     f"{spearman(by_rating, robin_order):.2f}",
                     f"{spearman(order, names):.2f}"])
    return rows


def pairing_row(count: int, rounds: int, seed: int = 1) -> list[object]:
    """Pair ``rounds`` rounds of ``count`` entrants with random results; return the
    row: the field, the pairing's seconds in all and in its slowest round, and the
    rematches made and the fewest possible (each round's, summed)."""
    rng = random.Random(seed)
    history = SwissHistory(count)
    total = slowest = 0.0
    made = fewest = 0
    for _ in range(rounds):
        start = time.perf_counter()
        paired = pair_round(history)
        seconds = time.perf_counter() - start
        total, slowest = total + seconds, max(slowest, seconds)
        made += sum(history.met[frozenset(pair)] > 0 for pair in paired.pairs)
        paired_ones = [i for pair in paired.pairs for i in pair]
        fewest += len(paired.pairs) - Matching(
            paired_ones, lambda a, b: not history.met[frozenset((a, b))]).size
        history.add_round(paired, {pair: rng.choice([0, 0.5, 1]) for pair in paired.pairs}, 1)
    return [count, rounds, f"{total:.2f}", f"{slowest:.3f}", made, fewest]


if __name__ == "__main__":
    main()
