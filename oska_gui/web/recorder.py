"""Drawing recorded in the game's Web Worker, replayed on the page's canvas in one call.

The game runs in a worker so that the page's main thread never waits on Python, and
draws there on the page's canvas (handed over as an ``OffscreenCanvas``). Calling into
JavaScript once per drawing call costs more than the call itself, so ``HtmlCanvas``
draws on a ``RecordingContext``, which writes each call and property change into a
``DrawingLog``; once a frame is done the log's text (JSON) is replayed on the real 2D
contexts in one call (``static/drawing.js``). Off-screen layers are ``RemoteSurface``
objects: ``drawing.js`` keeps a canvas for each, made the first time the log names it.
Text is measured at once on a real context (an ``OffscreenCanvas`` of the worker's).

Each entry of the log is a list ``[surface, name, *arguments]``: surface 0 is the board
(the page's canvas), the others are layers. ``name`` is a context method's name, or a
property's name after ``=`` for an assignment; a layer's ``=width`` and ``=height`` size
its canvas, and ``drawImage``'s first argument is the number of the layer copied.
This module imports nothing from the browser, so it runs in tests as it is.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

BOARD = 0  # the page's canvas in the log; layers count up from 1
# The context methods recorded as they are (their arguments are numbers and strings).
METHODS = frozenset({"beginPath", "moveTo", "lineTo", "arc", "arcTo", "closePath", "fill",
                     "stroke", "fillRect", "fillText", "setTransform"})
SURFACE_SIZE = ("width", "height")


class DrawingLog:
    """The drawing calls of one frame on every surface, in order."""

    def __init__(self, measurer: Any) -> None:
        """Start empty.

        Args:
            measurer: a real 2D context (or a stand-in with ``font`` and
                ``measureText``) that measures text for every recording context.
        """
        self.measurer = measurer
        self.entries: list[list[object]] = []
        self.surfaces = 0  # how many layers have been made

    def add(self, surface: int, name: str, *args: object) -> None:
        """Append one entry: ``name`` (a method, or ``=property``) on ``surface``."""
        self.entries.append([surface, name, *args])

    def take(self) -> str | None:
        """Return the entries so far as JSON text and start a new frame's log; None
        when nothing was drawn."""
        if not self.entries:
            return None
        text = json.dumps(self.entries, separators=(",", ":"))
        self.entries = []
        return text

    def new_surface(self) -> RemoteSurface:
        """Return a new layer, numbered after the ones made before."""
        self.surfaces += 1
        return RemoteSurface(self, self.surfaces)


class RecordingContext:
    """A stand-in for a ``CanvasRenderingContext2D`` that logs what is drawn on it.

    Assigning a property logs it (and a font reaches the measuring context too); the
    methods ``HtmlCanvas`` calls are logged by name; ``measureText`` answers at once.
    """

    log: DrawingLog
    surface: int

    def __init__(self, log: DrawingLog, surface: int) -> None:
        """Log the calls made on ``surface`` (``BOARD`` or a layer's number) in ``log``."""
        object.__setattr__(self, "log", log)
        object.__setattr__(self, "surface", surface)

    def __setattr__(self, name: str, value: object) -> None:
        """Log the assignment of context property ``name``."""
        self.log.add(self.surface, f"={name}", value)
        if name == "font":
            self.log.measurer.font = value

    def __getattr__(self, name: str) -> Any:
        """Return a logging stand-in for the context method ``name``.

        Raises:
            AttributeError: for a name that is not a recorded method.
        """
        if name not in METHODS:
            raise AttributeError(f"the recording context has no method {name!r}")
        return partial(self.log.add, self.surface, name)

    def measureText(self, text: str) -> Any:  # noqa: N802 (the DOM's name)
        """Return the measuring context's ``TextMetrics`` of ``text`` (its ``width``)."""
        return self.log.measurer.measureText(text)

    def drawImage(self, layer: RemoteSurface, x: float, y: float) -> None:  # noqa: N802
        """Log copying ``layer``'s picture to (x, y)."""
        self.log.add(self.surface, "drawImage", layer.number, x, y)


class RemoteSurface:
    """A layer's canvas, kept by the page: sizing it and drawing on it are logged."""

    log: DrawingLog
    number: int
    width: float
    height: float

    def __init__(self, log: DrawingLog, number: int) -> None:
        """Make layer ``number`` of ``log``, 0 x 0 until it is sized."""
        object.__setattr__(self, "log", log)
        object.__setattr__(self, "number", number)
        object.__setattr__(self, "width", 0)
        object.__setattr__(self, "height", 0)

    def __setattr__(self, name: str, value: object) -> None:
        """Log a new ``width`` or ``height`` (a canvas attribute, not the context's).

        Raises:
            AttributeError: for any other attribute.
        """
        if name not in SURFACE_SIZE:
            raise AttributeError(f"a layer has no attribute {name!r} to set")
        object.__setattr__(self, name, value)
        self.log.add(self.number, f"={name}", value)

    def getContext(self, kind: str) -> RecordingContext:  # noqa: N802 (the DOM's name)
        """Return the layer's recording 2D context (``kind`` must be '2d')."""
        if kind != "2d":
            raise ValueError(f"a layer has only a 2d context, not {kind!r}")
        return RecordingContext(self.log, self.number)
