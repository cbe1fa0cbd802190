"""Tournament throughput: ``python -m tools.tourney_bench [--workers W ...]``.

Plays the same tournament, two bot files that call this project's ``oskaplayer``, 64
games on n = 4 at depth 3 by default, once per worker count on local processes and,
with ``--local-cluster W`` or ``--scheduler ADDRESS``, through Dask (the ``cluster``
extra), and prints games a second for each. Every run starts from an empty database,
so every game is played. The machine's load average is printed beside the figures:
other work on the machine changes them.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

from oska_gui.console.table import render_table
from oska_gui.tournament.entrants import read_entrants
from oska_gui.tournament.games import Conditions, Entrant, GameTask
from oska_gui.tournament.runner import Finished, cluster_games, load_distributed, local_games
from oska_gui.tournament.schedule import TournamentPlan, schedule

BOT = """\
from oska_gui import oskaplayer as ours


def oskaplayer(board, player, depth):
    return ours(board, player, depth)
"""
OPENING_PLIES = 2
TIME_LIMIT = 30.0


def bench_players(folder: Path) -> list[Entrant]:
    """Write two bot files into ``folder``; return them as entrants."""
    for name in ("bench_a.py", "bench_b.py"):
        (folder / name).write_text(BOT, encoding="utf-8")
    return read_entrants([str(folder / "bench_a.py"), str(folder / "bench_b.py")], [])


def measure(play: Callable[[list[GameTask]], Iterator[Finished]],
            tasks: list[GameTask]) -> float:
    """Play every task with ``play``; return the games played a second."""
    start = time.perf_counter()
    played = sum(1 for _ in play(tasks))
    return played / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    """Measure and print the throughput of the tournament runs asked for."""
    parser = argparse.ArgumentParser(prog="python -m tools.tourney_bench",
                                     description=__doc__.splitlines()[0])
    cores = os.cpu_count() or 1
    parser.add_argument("--workers", type=int, nargs="+", default=sorted({1, 2, cores}),
                        help=f"local worker counts to measure (default 1, 2 and {cores})")
    parser.add_argument("--games", type=int, default=64, help="games (default 64)")
    parser.add_argument("--n", type=int, default=4, help="board size (default 4)")
    parser.add_argument("--depth", type=int, default=3, help="the bots' depth (default 3)")
    parser.add_argument("--local-cluster", type=int, metavar="W",
                        help="also measure on a local Dask cluster of W worker processes")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="also measure on the Dask cluster at ADDRESS")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        settings = TournamentPlan(Conditions(args.n, args.depth, TIME_LIMIT), args.games,
                            OPENING_PLIES, seed=1)
        tasks = schedule(bench_players(Path(folder)), settings)
        rows: list[list[object]] = []
        for workers in args.workers:
            rows.append(_row("local processes", workers, tasks,
                             partial(local_games, workers=workers)))
        if args.local_cluster:
            rows.append(_local_cluster_row(args.local_cluster, tasks))
        if args.scheduler:
            rows.append(_row(f"Dask at {args.scheduler}", "-", tasks,
                             partial(cluster_games, address=args.scheduler)))
    print(render_table(["where", "workers", "games", "games/s", "load average"], rows,
                       title=f"{args.games} games, n = {args.n}, bots at depth {args.depth}, "
                             f"{cores} cores"))


def _row(where: str, workers: object, tasks: list[GameTask],
         play: Callable[[list[GameTask]], Iterator[Finished]]) -> list[object]:
    """Measure one way of playing the tasks; return its table row."""
    rate = measure(play, tasks)
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    return [where, workers, len(tasks), f"{rate:.2f}", load]


def _local_cluster_row(workers: int, tasks: list[GameTask]) -> list[object]:
    """Start a local Dask cluster of ``workers`` one-thread processes and measure it."""
    distributed = load_distributed()
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        return _row("local Dask cluster", workers, tasks,
                    partial(cluster_games, address=cluster.scheduler_address))


if __name__ == "__main__":
    main()
