"""The wall-clock time a decision takes when it is worked on in slices, one per frame.

A level that says "up to 2 s" must answer within 2 s of the player's wait, not after
2 s of slices: the time the frames spend drawing between slices counts too. A gap
longer than ``MAX_GAP`` is not waiting for the computer (the game was paused, the tab
hidden, the machine stalled), so it counts as ``MAX_GAP``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

MAX_GAP = 0.25  # seconds: the longest gap between slices that counts in full


class ThinkingClock:
    """Counts the time spent on one decision: its slices and the short gaps between them.

    ``resume()`` at the start of a slice and ``pause()`` at its end; both may be called
    again while already in that state (a slice inside a slice), which changes nothing.
    """

    def __init__(self, now: Callable[[], float] = time.perf_counter) -> None:
        """Start a clock that has counted nothing and is paused.

        Args:
            now: the time source in seconds (tests give a fake one).
        """
        self._now = now
        self._counted = 0.0
        self._mark: float | None = None  # when the last slice ended, or the running one began
        self._running = False

    def resume(self) -> None:
        """Start counting: a slice begins. The gap since the last slice counts, capped."""
        if self._running:
            return
        now = self._now()
        if self._mark is not None:
            self._counted += min(MAX_GAP, now - self._mark)
        self._mark, self._running = now, True

    def pause(self) -> None:
        """Stop counting: the slice ends."""
        if not self._running:
            return
        now = self._now()
        self._counted += now - (self._mark if self._mark is not None else now)
        self._mark, self._running = now, False

    @property
    def elapsed(self) -> float:
        """Return the seconds counted so far, the running slice included."""
        if self._running and self._mark is not None:
            return self._counted + self._now() - self._mark
        return self._counted
