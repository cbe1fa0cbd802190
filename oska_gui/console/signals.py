"""Signal handlers set for the span of a block, then put back; SIGTERM as an exception
that unwinds (the commands and the window both end that way)."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

Handler = Callable[[int, Any], Any] | int | signal.Handlers
EXIT_TERMINATED = 143  # what a shell reports for a process killed by SIGTERM


class Terminated(BaseException):
    """SIGTERM arrived. A BaseException, like KeyboardInterrupt, so that no ``except
    Exception`` swallows it and every ``finally`` on the way out runs (stopping bots)."""


@contextmanager
def handling(signum: int, handler: Handler) -> Iterator[None]:
    """Within the block, signal ``signum`` goes to ``handler`` (a function, SIG_DFL or
    SIG_IGN); the previous handler comes back after it.

    Outside the main thread (where handlers cannot be set) nothing changes.
    """
    try:
        previous = signal.signal(signum, handler)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signum, previous)


def _raise_terminated(signum: int, frame: object) -> None:
    """Turn SIGTERM into a ``Terminated`` exception in the main thread."""
    raise Terminated


def sigterm_unwinds() -> AbstractContextManager[None]:
    """Return a context within which SIGTERM raises ``Terminated`` instead of killing
    the process.

    Python's default for SIGTERM ends the process at once, without ``finally``
    blocks, and so without stopping the bots' processes. A handler set before SDL
    starts also keeps SDL from taking SIGTERM for a window-close event, which nothing
    sees while the program waits outside its frame loop. Outside the main thread
    (where signal handlers cannot be set) nothing changes.
    """
    return handling(signal.SIGTERM, _raise_terminated)
