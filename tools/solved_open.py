"""How fast a solved game answers in a fresh process: ``python -m tools.solved_open``.

Run it as its own process (the first answer is the point): it imports the reader, then
times the first exact answer (``solved_file.solved_children`` of the start: opening the
file, checking its header and checksum table, and ranking the start's moves), then reads
the value of ``--reads`` stored positions of seeded random games twice: the first time
each block a read touches is checked against its checksum, the second time it is not.
For a figure from a cold disk, empty the page cache first (as root: ``sync; echo 3 >
/proc/sys/vm/drop_caches``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from oska_gui.core.types import Position
from oska_gui.engine import solved_file
from oska_gui.games.oska import oska_rules


def stored_positions(n: int, turn: int, count: int, seed: int) -> list[Position]:
    """Return ``count`` positions with ``turn`` to move from seeded random games of size
    ``n`` (the positions a solved file stores)."""
    rules, rng = oska_rules(n), random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        pos = rules.start()
        for _ in range(rng.randrange(0, 8 * n)):
            if rules.outcome(pos) is not None:
                break
            pos = rng.choice(rules.children(pos))
        if pos.turn == turn and rules.outcome(pos) is None:
            found.append(pos)
    return found


def read_times(opened: solved_file.SolvedFile, positions: list[Position]) -> list[float]:
    """Return the seconds each position's stored value took to read."""
    times = []
    for pos in positions:
        start = time.perf_counter()
        opened.solution(pos, 0)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    """Time the first answer and the reads (see the module text) and print them."""
    parser = argparse.ArgumentParser(prog="python -m tools.solved_open",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=5, help="the board size (default 5)")
    parser.add_argument("--reads", type=int, default=2000, help="positions read (2000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random games")
    args = parser.parse_args()
    start = time.perf_counter()
    found = solved_file.solved_children(args.n, oska_rules(args.n).start())
    first = time.perf_counter() - start
    if found is None:
        parser.error(f"no whole solved game of n = {args.n}: oska solve --n {args.n} --save")
    ranked, opened = found
    print(f"{opened.path}: the start is {ranked[0][1]}; first exact answer {1000 * first:.1f} ms")
    positions = stored_positions(args.n, opened.header.turn, args.reads, args.seed)
    for label in ("blocks checked on first touch", "blocks already checked"):
        times = read_times(opened, positions)
        print(f"a stored value, {label}: median {1e6 * statistics.median(times):.1f} us, "
              f"99th percentile {1e6 * statistics.quantiles(times, n=100)[98]:.0f} us")


if __name__ == "__main__":
    main()
