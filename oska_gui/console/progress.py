"""A tiny progress bar for long runs, drawn on one line of stderr.

It draws only where someone watches (stderr is a terminal) unless told otherwise, and
redraws at most ten times a second, so it costs nothing in pipes and logs.
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import TextIO

from .table import plain

REDRAW_SECONDS = 0.1
LINE_WIDTH = 79


class ProgressBar:
    """``[#####.....]  12/40  0:05`` with a label and a note, redrawn in place.

    With a ``unit`` it also shows the rate and the time left: ``1.25 games/s  0:22 left``.
    Use as a context manager; ``advance`` after each unit of work.
    """

    def __init__(self, total: int, label: str, enabled: bool | None = None,
                 stream: TextIO | None = None, width: int = 28, unit: str | None = None) -> None:
        """Prepare a bar for ``total`` units of work.

        Args:
            total: how many units the run has (at least 1 is assumed).
            label: a word or two shown before the bar.
            enabled: draw or not; None draws only when ``stream`` is a terminal.
            stream: where to draw (stderr by default).
            width: the bar's width in characters.
            unit: the units' name for the rate, e.g. 'games'; None shows no rate.
        """
        self.stream = stream if stream is not None else sys.stderr
        self.total = max(total, 1)
        self.label = label
        self.width = width
        self.unit = unit
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.done = 0
        self.started = time.monotonic()
        self._drawn_at = float("-inf")
        self._last_width = 0

    def advance(self, units: int = 1, note: str = "") -> None:
        """Count ``units`` more units done and redraw (throttled), showing ``note``."""
        self.done = min(self.done + units, self.total)
        now = time.monotonic()
        if self.done == self.total or now - self._drawn_at >= REDRAW_SECONDS:
            self._drawn_at = now
            self._draw(note)

    def skip(self, units: int) -> None:
        """Count ``units`` fewer units to do (found done already), so the rate and the
        time left count only the work that is really done now."""
        self.total = max(self.total - units, self.done, 1)

    def render(self, note: str = "") -> str:
        """Return the bar's text for the work done so far."""
        filled = self.width * self.done // self.total
        elapsed = time.monotonic() - self.started
        bar = "#" * filled + "." * (self.width - filled)
        text = f"{self.label} [{bar}] {self.done}/{self.total}  {clock(elapsed)}"
        if self.unit is not None and self.done and elapsed > 0:
            rate = self.done / elapsed
            text += f"  {rate:.2f} {self.unit}/s  {clock((self.total - self.done) / rate)} left"
        return (f"{text}  {plain(note)}" if note else text)[:LINE_WIDTH]

    def _draw(self, note: str) -> None:
        """Write the bar over the previous one."""
        if not self.enabled:
            return
        text = self.render(note)
        self.stream.write("\r" + text.ljust(self._last_width))
        self.stream.flush()
        self._last_width = len(text)

    def close(self) -> None:
        """Finish the bar's line so later output starts on a fresh one."""
        if self.enabled and self._last_width:
            self.stream.write("\n")
            self.stream.flush()
            self._last_width = 0

    def __enter__(self) -> ProgressBar:
        """Return the bar itself."""
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        """Close the bar's line."""
        self.close()


def clock(seconds: float) -> str:
    """Return a duration as minutes and seconds, e.g. '2:05' (hours count as minutes)."""
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"
