"""Playing a tournament's games in parallel: on local processes or on a Dask cluster.

Both yield each game's result as soon as it ends, in whatever order games finish, so
the caller can store it at once.

Locally a ``multiprocessing`` pool of spawned processes plays one game at a time each.
It is a Pool rather than a ProcessPoolExecutor because a Pool can be terminated: when
the run stops (Ctrl+C, SIGTERM, an error) the workers are told to stop at once, and
each stops the bots of its game on the way out. A worker whose parent was killed
outright notices within half a second and exits too, and so do its bots.

On a cluster (``--scheduler``) the games go to an existing Dask scheduler as tasks; a
bot's file travels inside its task (see ``games``), so the workers need this package
(with the ``cluster`` extra) but no copy of the bots. At most about twice as many games
as the cluster has worker threads are handed out at a time, so stopping the run leaves
little work behind.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Generator
from itertools import islice
from typing import Any

from oska_gui.bots.external_worker import watch_parent

from ..cli.common import CliError
from .games import GameTask, play
from .result import GameResult

Finished = tuple[GameResult, str]  # a game's result and its record as JSON text
CONNECT_SECONDS = 20
MIN_IN_FLIGHT = 8


def local_games(tasks: list[GameTask],
                workers: int) -> Generator[Finished, None, None]:
    """Play ``tasks`` on ``workers`` local processes; yield each game as it ends.

    Closing the generator (or leaving the loop over it by an exception) terminates the
    workers at once, stopping the games in progress.
    """
    if not tasks:
        return
    context = multiprocessing.get_context("spawn")
    with context.Pool(min(workers, len(tasks)), initializer=_start_worker,
                      initargs=(os.getpid(),)) as pool:
        yield from pool.imap_unordered(play, tasks)


def _start_worker(parent: int) -> None:
    """Set up a local worker: Ctrl+C is the main process's to handle, SIGTERM stops the
    game in progress cleanly, and the worker ends when ``parent`` dies."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _exit_cleanly)
    threading.Thread(target=watch_parent, args=(parent,), daemon=True).start()


def _exit_cleanly(signum: int, frame: object) -> None:
    """Leave the worker by SystemExit, so the game's ``finally`` blocks stop its bots."""
    sys.exit(0)


def cluster_games(tasks: list[GameTask],
                  address: str) -> Generator[Finished, None, None]:
    """Play ``tasks`` on the Dask cluster whose scheduler is at ``address``.

    Yields each game as it ends. Raises CliError when the ``cluster`` extra is missing
    or the scheduler cannot be reached.
    """
    distributed = _distributed()
    try:
        client = distributed.Client(address, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError) as error:
        raise CliError(f"cannot reach the Dask scheduler at {address!r:.200}: {error}") from None
    with client:
        pending = iter(tasks)
        running = distributed.as_completed()
        for task in islice(pending, _in_flight(client)):
            running.add(client.submit(play, task, pure=False))
        for future in running:
            finished: Finished = future.result()
            future.release()
            for task in islice(pending, max(_in_flight(client) - running.count(), 0)):
                running.add(client.submit(play, task, pure=False))
            yield finished


def _distributed() -> Any:
    """Return the ``distributed`` module; raises CliError saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise CliError("--scheduler needs Dask: install the cluster extra "
                       "(pip install 'oska-gui[cluster]')") from None
    return distributed


def _in_flight(client: Any) -> int:
    """Return how many games to keep handed out: twice the cluster's worker threads."""
    return max(2 * sum(client.nthreads().values()), MIN_IN_FLIGHT)
