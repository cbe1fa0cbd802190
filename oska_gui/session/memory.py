"""Memory work spread over frames, so that no frame pays for a finished search at once.

A search (``search.Thinker``) fills its tables with up to hundreds of thousands of
entries. Two costs used to land in the one frame that shows the computer's move:

- freeing the tables when the search is dropped: every entry is deallocated by
  reference counting in one go (about 40 ms on the desktop, 70 ms in the browser);
- a full ``gc.collect()`` after thinking (10-250 ms in the browser).

``Reclaimer`` takes the tables of a finished search and empties them a couple of
milliseconds per frame. ``GcPacer`` keeps Python's cyclic collector away from the big
tables while they exist: it freezes everything while the computer thinks or tables are
being emptied (frozen objects are skipped by collections), then simply unfreezes. No
full collection is forced: the tables hold tuples of ints, not cycles, so reference
counting frees all of them; whatever else is left is the collector's ordinary business
(incremental in the browser's Python 3.14).
"""

from __future__ import annotations

import gc
import time

RECLAIM_SLICE = 0.002  # seconds per frame spent freeing spent search tables
BATCH = 256  # entries freed between two looks at the clock


class Reclaimer:
    """Frees dictionaries nobody uses any more a slice of time at a time."""

    def __init__(self) -> None:
        """Start with nothing to free."""
        self._tables: list[dict] = []

    @property
    def pending(self) -> int:
        """Return how many entries are still waiting to be freed."""
        return sum(len(table) for table in self._tables)

    def take(self, *tables: dict) -> None:
        """Take over ``tables`` to free their entries bit by bit.

        Args:
            tables: dictionaries that no one reads or writes any more (they are emptied).
        """
        self._tables.extend(table for table in tables if table)

    def work(self, seconds: float) -> bool:
        """Free entries for about ``seconds`` (at least one batch); return True while some are left.

        Args:
            seconds: the time budget of this call.
        """
        tables = self._tables
        deadline = time.perf_counter() + seconds
        while tables:
            table = tables[-1]
            for _ in range(min(BATCH, len(table))):
                table.popitem()
            if not table:
                tables.pop()
            if time.perf_counter() >= deadline:
                break
        return bool(tables)


class GcPacer:
    """Keeps the garbage collector's sweeps and the freeing of search tables out of frames.

    ``reclaimer`` is where the computer players leave the tables of finished searches.
    """

    def __init__(self, reclaim_slice: float = RECLAIM_SLICE) -> None:
        """Start with nothing frozen and nothing to free.

        Args:
            reclaim_slice: seconds per frame spent freeing spent search tables.
        """
        self.reclaimer = Reclaimer()
        self.reclaim_slice = reclaim_slice
        self.frozen = False

    @property
    def idle(self) -> bool:
        """Return True when no memory work is left for the coming frames."""
        return not self.frozen and self.reclaimer.pending == 0

    def hold(self) -> None:
        """Freeze everything now: the computer is about to think in this frame, and a
        full collection in its first slice would walk every object of the program."""
        gc.freeze()
        self.frozen = True

    def frame(self, thinking: bool) -> None:
        """Do this frame's share of memory work; call once per frame.

        Args:
            thinking: whether the computer is thinking (its tables are growing).
        """
        reclaiming = self.reclaimer.work(self.reclaim_slice)
        if thinking or reclaiming:
            gc.freeze()
            self.frozen = True
        elif self.frozen:
            gc.unfreeze()
            self.frozen = False
