"""Signal handlers set for the span of a block, then put back."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

Handler = Callable[[int, Any], Any] | int | signal.Handlers


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
