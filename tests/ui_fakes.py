"""Test helpers for the pygame-free UI: a canvas that records calls, and game helpers;
stand-ins for the browser's objects (a 2D context, ``localStorage``)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from types import SimpleNamespace

from oska_gui.games.oska import oska_rules
from oska_gui.ui.kit.canvas import Canvas, Color, Point

TEXT_WIDTH_PER_CHAR = 0.55  # of the text size, roughly a sans-serif average


class RecordingCanvas:
    """A ``Canvas`` that draws nothing and records every call as (method, args)."""

    def __init__(self, width: int = 1024, height: int = 720) -> None:
        """Pretend to be a ``width`` x ``height`` surface."""
        self.width, self.height = width, height
        self.calls: list[tuple[str, tuple]] = []

    def clear(self, color: Color) -> None:
        """Record a clear."""
        self.calls.append(("clear", (color,)))

    def rect(self, x: float, y: float, w: float, h: float, color: Color,
             radius: float = 0, width: float = 0) -> None:
        """Record a rectangle."""
        self.calls.append(("rect", (x, y, w, h, color, radius, width)))

    def circle(self, x: float, y: float, r: float, color: Color, width: float = 0) -> None:
        """Record a circle."""
        self.calls.append(("circle", (x, y, r, color, width)))

    def line(self, x1: float, y1: float, x2: float, y2: float, color: Color,
             width: float = 1) -> None:
        """Record a line."""
        self.calls.append(("line", (x1, y1, x2, y2, color, width)))

    def polygon(self, points: list[Point], color: Color, width: float = 0) -> None:
        """Record a polygon."""
        self.calls.append(("polygon", (tuple(points), color, width)))

    def text(self, s: str, x: float, y: float, size: float, color: Color,
             anchor: str = "center", bold: bool = False) -> None:
        """Record a text."""
        self.calls.append(("text", (s, x, y, size, color, anchor, bold)))

    def text_width(self, s: str, size: float, bold: bool = False) -> float:
        """Return a plausible width for ``s`` at ``size``."""
        return len(s) * size * TEXT_WIDTH_PER_CHAR

    def layer(self, key: Hashable, paint: Callable[[Canvas], None]) -> None:
        """Paint the layer straight onto this canvas (the simplest valid layer)."""
        paint(self)

    def texts(self) -> list[str]:
        """Return every string drawn so far."""
        return [args[0] for name, args in self.calls if name == "text"]


def must_pass_position():
    """Return an n = 4 Oska position where White, to move, has no move and must pass.

    White's only piece on a1 is blocked by Black pieces on b1 (no step) and c1 (no
    jump landing); Black can still move, so White passes.
    """
    rules = oska_rules(4)
    return rules.from_rows(["w---", "b--", "b-", "---", "----"], 0)


class FakeContext:
    """Records the calls made and the properties set on a CanvasRenderingContext2D."""

    def __init__(self) -> None:
        """Start with an empty log."""
        object.__setattr__(self, "log", [])

    def __setattr__(self, name: str, value: object) -> None:
        """Record a property assignment as ('set', name, value)."""
        self.log.append(("set", name, value))

    def __getattr__(self, name: str) -> Callable[..., object]:
        """Return a method that records its call as (name, *args)."""
        def method(*args: object) -> object:
            """Record the call; measureText answers 10 pixels per character."""
            self.log.append((name, *args))
            return SimpleNamespace(width=10.0 * len(args[0])) if name == "measureText" else None
        return method

    def calls(self, name: str) -> list[tuple]:
        """Return the recorded calls of method ``name`` (without the name)."""
        return [entry[1:] for entry in self.log if entry[0] == name]

    def sets(self, name: str) -> list[object]:
        """Return the values assigned to property ``name``, in order."""
        return [entry[2] for entry in self.log if entry[:2] == ("set", name)]


class WebStore:
    """A browser's ``localStorage`` stand-in: strings by key."""

    def __init__(self, items: dict[str, str]) -> None:
        """Hold ``items``."""
        self.items = items

    def getItem(self, key: str) -> str | None:  # noqa: N802 (the Web Storage API's name)
        """Return the string kept under ``key``, or None."""
        return self.items.get(key)

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        """Keep ``value`` under ``key``."""
        self.items[key] = value
