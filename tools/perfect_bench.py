"""The kept solved game at work: ``python -m tools.perfect_bench --dataset FILE``.

Checks and times the file ``oska solve --n N --save`` kept (``engine.solved_file``)
against a dataset the compiled tablebase wrote in another run (``oska solve --n N
--dataset FILE``, needs the ``solve`` extra), and prints:

- values: how many of the dataset's positions (and their children) read from the file
  with another value or plies than the tablebase gave, or not at all (0 expected);
- Perfect: on the samples where the choice matters, how many moves of the Perfect level
  throw the value away (a win into a draw or a loss, a draw into a loss) and how many
  are not perfect to the ply (both 0 expected);
- the time of one position's value and of one Perfect move (median, 99th percentile,
  slowest; the first reads of a file not in the page cache wait for the disk);
- a game of Perfect against Perfect from the start: its winner and length.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

from oska_gui.core.types import SIDE_NAMES, Position
from oska_gui.engine.exact_dataset import ExactDataset, load_dataset
from oska_gui.engine.solved_file import SolvedFile, saved_solution, solved_path
from oska_gui.play import runner
from oska_gui.play.game import make_game
from oska_gui.play.levels import LevelKey
from oska_gui.play.search_player import SearchPlayer, make_player

T = TypeVar("T")


def timed(call: Callable[[], T], times: list[float]) -> T:
    """Return ``call()``; append its wall-clock time in milliseconds to ``times``."""
    start = time.perf_counter()
    value = call()
    times.append((time.perf_counter() - start) * 1000)
    return value


def check_values(saved: SolvedFile, data: ExactDataset, limit: int,
                 times: list[float]) -> tuple[int, int]:
    """Return (positions read, how many disagree with ``data`` or are missing) over the
    first ``limit`` samples and their children; time each sample's read."""
    read = wrong = 0
    for i in range(min(limit, len(data))):
        pos = data.position(i)
        pairs = [(pos, data.solution(i)), *data.children(i)]
        for index, (position, value) in enumerate(pairs):
            found = timed(partial(saved.solution, position), times) if index == 0 \
                else saved.solution(position)
            read += 1
            wrong += found != value
    return read, wrong


def perfect_move(player: SearchPlayer, position: Position) -> Position | None:
    """Return the move ``player`` chooses in ``position`` in its first slice (None if none)."""
    player.start(position)
    return player.advance(0.0)


def check_perfect(data: ExactDataset, limit: int,
                  times: list[float]) -> tuple[int, int, int, int]:
    """Return (choices that matter, value-losing choices, choices not perfect to the ply,
    choices not made at once) of the Perfect level over the first ``limit`` samples;
    time each move."""
    player = make_player(make_game("oska", data.n), LevelKey.PERFECT, "strong")
    matters = losing = imperfect = late = 0
    for i in range(min(limit, len(data))):
        if not data.choice_matters(i):
            continue
        matters += 1
        child = timed(partial(perfect_move, player, data.position(i)), times)
        if child is None:
            late += 1
            player.stop()
            continue
        losing += not data.keeps_value(i, child)
        imperfect += not data.is_perfect(i, child)
    return matters, losing, imperfect, late


def perfect_game(n: int) -> str:
    """Return how a game of Perfect against Perfect from the start of ``n`` ends."""
    game = make_game("oska", n)
    players = [make_player(game, LevelKey.PERFECT, "strong") for _ in range(2)]
    record = runner.play(game.rules, players)
    winner = record.outcome.winner
    who = "a draw" if winner is None else f"{SIDE_NAMES[winner]} wins"
    read = sum(player.saved_moves for player in players)
    return f"{who} in {len(record.moves)} plies ({read} moves read from the file)"


def summary(times: list[float]) -> str:
    """Return 'median x ms, 99th percentile y ms, slowest z ms' of ``times`` (milliseconds)."""
    p99 = statistics.quantiles(times, n=100)[98] if len(times) > 1 else times[0]
    return (f"median {statistics.median(times):.3f} ms, 99th percentile {p99:.3f} ms, "
            f"slowest {max(times):.3f} ms")


def main(argv: list[str] | None = None) -> int:
    """Run the checks the command line asks for; print the figures; return 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", type=Path, required=True,
                        help="a dataset written by 'oska solve --n N --dataset FILE'")
    parser.add_argument("--positions", type=int, default=20_000,
                        help="samples of the dataset to check (default 20,000)")
    args = parser.parse_args(argv)
    data = load_dataset(args.dataset)
    saved = saved_solution(data.n)
    if saved is None:
        parser.error(f"no solved game of n = {data.n} at {solved_path(data.n)}: "
                     f"run 'oska solve --n {data.n} --save'")
    value_times: list[float] = []
    move_times: list[float] = []
    read, wrong = check_values(saved, data, args.positions, value_times)
    print(f"n = {data.n}, {saved.path} ({saved.path.stat().st_size / 2**20:,.0f} MiB)")
    print(f"values:  {read:,} positions read, {wrong} wrong or missing")
    matters, losing, imperfect, late = check_perfect(data, args.positions, move_times)
    print(f"Perfect: {matters:,} choices that matter, {losing} value-losing, "
          f"{imperfect} not perfect to the ply, {late} not read from the file")
    print(f"a value: {summary(value_times)}")
    print(f"a move:  {summary(move_times)}")
    print(f"Perfect against Perfect: {perfect_game(data.n)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
