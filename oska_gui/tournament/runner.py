"""Playing a tournament's games in parallel: on local processes or on a Dask cluster.

Both yield each game's result as soon as it ends, in whatever order games finish, so
the caller can store it at once.

Locally a ``ProcessPoolExecutor`` of spawned processes plays one game at a time each,
with at most two games a worker handed out. When the run stops (Ctrl+C, SIGTERM, an
error) the workers are killed at once, and their bots, which watch their parent, end
within half a second, with all they started; copies of bot files that the killed
workers leave are removed once they are gone. A worker whose parent was killed
outright notices as fast and ends too; a worker that dies makes the run stop with an
error instead of waiting for its game for ever.

On a cluster (``--scheduler``) the games go to an existing Dask scheduler as tasks; a
bot given as a file travels inside its task (see ``games``), so the workers need this
package (with the ``cluster`` extra) but no copy of the bots (a bot given as a folder
does not travel: ``command`` refuses it there). At most about twice as many games
as the cluster has worker threads are handed out at a time, so stopping the run leaves
little work behind.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Generator, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from itertools import islice
from typing import Any

from oska_gui.bots.external_worker import watch_parent
from oska_gui.console.options import CliError
from oska_gui.play.bot_loader import remove_orphaned_folders

from .games import play
from .result import GameResult

Finished = tuple[GameResult, str]  # a game's result and its record as JSON text
CONNECT_SECONDS = 10
MIN_IN_FLIGHT = 8
POLL_SECONDS = 0.5
WORKER_END_SECONDS = 1.0  # how long a stopped run waits for each worker before cleaning
WORKER_DIED = ("a worker process died during a game (killed from outside, or out of "
               "memory); the finished games are stored: run the command again to continue")


def local_games(tasks: Sequence[Any], workers: int,
                work: Callable[[Any], Any] = play) -> Generator[Any, None, None]:
    """Play ``tasks`` on ``workers`` local processes; yield each game as it ends.

    ``work`` is what a worker does with a task: ``games.play`` (a GameTask gives a
    ``Finished``) unless another picklable function is given, as for reviews.

    Closing the generator (or leaving the loop over it by an exception) kills the
    workers at once, stopping the games in progress.

    Raises:
        CliError: a worker process died (killed from outside, out of memory).
    """
    if not tasks:
        return
    count = min(workers, len(tasks))
    before = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(count, multiprocessing.get_context("spawn"),
                               initializer=_start_worker, initargs=(os.getpid(),))
    complete = False
    try:
        pending = iter(tasks)
        running = _submit(pool, work, islice(pending, 2 * count))
        while running:
            # Short waits, so this (main) thread handles Ctrl+C and SIGTERM promptly.
            done, running = wait(running, POLL_SECONDS, FIRST_COMPLETED)
            for future in done:
                yield _local_result(future)
            running |= _submit(pool, work, islice(pending, len(done)))
        complete = True
    finally:
        try:
            if not complete:  # SIGTERM: the workers die at once, and their bots follow
                for worker in set(multiprocessing.active_children()) - before:
                    worker.terminate()
            pool.shutdown(wait=True, cancel_futures=True)
        finally:  # also when a second Ctrl+C or SIGTERM cut the lines above short
            _remove_copies_of_workers(before)


def _remove_copies_of_workers(before: set[multiprocessing.process.BaseProcess]) -> None:
    """Wait a moment for the pool's workers (the children not in ``before``) to end,
    then remove the bot copies that those killed before their bot's keeper started
    have left (see ``bot_loader.remove_orphaned_folders``)."""
    for worker in set(multiprocessing.active_children()) - before:
        worker.join(WORKER_END_SECONDS)
    remove_orphaned_folders()


def _submit(pool: ProcessPoolExecutor, work: Callable[[Any], Any],
            tasks: Iterable[Any]) -> set[Future]:
    """Hand ``tasks`` to the pool, each to be done by ``work``; raises CliError when a
    worker process has died."""
    try:
        return {pool.submit(work, task) for task in tasks}
    except BrokenProcessPool:
        raise CliError(WORKER_DIED) from None


def _local_result(future: Future) -> Any:
    """Return a local task's result; raises CliError when its worker process died."""
    try:
        finished = future.result()
    except BrokenProcessPool:
        raise CliError(WORKER_DIED) from None
    return finished


def _start_worker(parent: int) -> None:
    """Set up a local worker: Ctrl+C is the main process's to handle, and the worker
    ends when ``parent`` dies (its bots notice that their parent is gone and end too).

    SIGTERM keeps its default action, ending the worker at once: a Python handler
    could be run late or never, as the signal may reach the watching thread.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=watch_parent, args=(parent,), daemon=True).start()


def cluster_games(tasks: Sequence[Any], address: str,
                  work: Callable[[Any], Any] = play) -> Generator[Any, None, None]:
    """Play ``tasks`` on the Dask cluster whose scheduler is at ``address``.

    Yields each game as it ends (``work`` as in ``local_games``). Raises CliError when
    the ``cluster`` extra is missing or the scheduler cannot be reached.
    """
    distributed = load_distributed()
    if not address.strip():
        raise CliError("--scheduler: give the scheduler's address, e.g. tcp://10.0.0.5:8786")
    try:
        client = distributed.Client(address, timeout=CONNECT_SECONDS)
    except Exception as error:  # noqa: BLE001 - each protocol fails its own way; all mean this
        raise CliError(f"cannot reach the Dask scheduler at {address!r:.200}: {error}") from None
    with client:
        pending = iter(tasks)
        running = distributed.as_completed()
        for task in islice(pending, _in_flight(client)):
            running.add(client.submit(work, task, pure=False))
        for future in running:
            finished = future.result()
            future.release()
            for task in islice(pending, max(_in_flight(client) - running.count(), 0)):
                running.add(client.submit(work, task, pure=False))
            yield finished


def load_distributed() -> Any:
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
