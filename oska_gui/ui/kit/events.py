"""Front-end-neutral input events: what a pygame event or a DOM event becomes.

Pointer events say whether a finger made them (``touch``), so the UI can speak of
tapping and make room for fingers after a touch.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class PointerDown:
    """A mouse button or finger went down at (x, y) pixels."""

    x: float
    y: float
    touch: bool = False


@dataclass(frozen=True)
class PointerMove:
    """The pointer moved to (x, y) pixels (with or without a button held)."""

    x: float
    y: float
    touch: bool = False


@dataclass(frozen=True)
class PointerUp:
    """A mouse button or finger was released at (x, y) pixels; ``cancel``: the system
    took the pointer away instead (a pinch or a scroll on a page), so nothing is dropped
    where it was."""

    x: float
    y: float
    touch: bool = False
    cancel: bool = False


@dataclass(frozen=True)
class KeyPress:
    """A key was pressed: ``key`` is a lower-case name such as 'n', 'u', 'space',
    'enter', 'escape', 'left', 'right', 'up', 'down', 'f1' or '?'. ``shortcut``: it
    came from a Ctrl shortcut standing for that key (the desktop's Ctrl+Z for U), so
    it is a command even while a move is typed (not part of the key's identity)."""

    key: str
    shortcut: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class Resize:
    """The drawing surface now measures ``width`` x ``height`` pixels."""

    width: int
    height: int


@dataclass(frozen=True)
class Quit:
    """The user asked to close the program."""


Event = PointerDown | PointerMove | PointerUp | KeyPress | Resize | Quit
