"""Translate browser DOM events into the front-end-neutral ``ui.kit.events``.

Only attributes of the standard ``KeyboardEvent`` and ``PointerEvent`` are read, so the
functions work on the copies of those attributes the page sends the game's worker (as
Pyodide proxies) and on plain stand-ins in tests.
Pointer events cover the mouse, touch screens and pens with one code path.
"""

from __future__ import annotations

from typing import Any

from ..ui.kit.events import Event, KeyPress, PointerDown, PointerMove, PointerUp

# KeyboardEvent.key values with a multi-letter name -> the ui.kit.events key name. Tab is
# not one: it stays the browser's, moving the focus to and from the board.
NAMED_KEYS = {
    " ": "space",
    "Enter": "enter",
    "Escape": "escape",
    "Backspace": "backspace",
    "Delete": "delete",
    "Home": "home",
    "End": "end",
    "PageUp": "pageup",
    "PageDown": "pagedown",
    "ArrowLeft": "left",
    "ArrowRight": "right",
    "ArrowUp": "up",
    "ArrowDown": "down",
    **{f"F{i}": f"f{i}" for i in range(1, 13)},
}
POINTER_TYPES: dict[str, type[PointerDown | PointerMove | PointerUp]] = {
    "pointerdown": PointerDown,
    "pointermove": PointerMove,
    "pointerup": PointerUp,
    "pointercancel": PointerUp,  # with ``cancel``: a pinch or scroll took the pointer
}
MOUSE_MAIN_BUTTON = 0


def key_press(event: Any) -> KeyPress | None:
    """Return the ``KeyPress`` for a ``keydown`` event, or None to leave it to the browser.

    Keys held with Ctrl, Alt or Meta are browser shortcuts (reload, copy, ...) and are
    not the game's; neither are lone modifier keys or keys without a name here.

    Args:
        event: a KeyboardEvent (``key``, ``ctrlKey``, ``altKey``, ``metaKey``).

    Returns:
        The key press, or None.
    """
    if event.ctrlKey or event.altKey or event.metaKey:
        return None
    key = str(event.key)
    if key in NAMED_KEYS:
        return KeyPress(NAMED_KEYS[key])
    if len(key) == 1:
        return KeyPress(key.lower())
    return None


def pointer_event(event: Any, left: float, top: float) -> Event | None:
    """Return the ``ui.kit.events`` pointer event for a DOM pointer event, or None to ignore it.

    Only the primary pointer counts (the first finger of a multi-touch), and only the
    main mouse button presses (a right click opens the browser's menu, not a move).

    Args:
        event: a PointerEvent (``type``, ``clientX``, ``clientY``, ``isPrimary``,
            ``pointerType``, ``button``).
        left: the canvas's left edge in client coordinates (CSS pixels).
        top: the canvas's top edge in client coordinates (CSS pixels).

    Returns:
        PointerDown, PointerMove or PointerUp at canvas coordinates (``touch`` for a
        finger; ``cancel`` for a pointercancel), or None.
    """
    kind = POINTER_TYPES.get(str(event.type))
    if kind is None or not event.isPrimary:
        return None
    if kind is PointerDown and event.pointerType == "mouse" and event.button != MOUSE_MAIN_BUTTON:
        return None
    x, y = float(event.clientX) - left, float(event.clientY) - top
    touch = str(event.pointerType) == "touch"
    if str(event.type) == "pointercancel":
        return PointerUp(x, y, touch, cancel=True)
    return kind(x, y, touch=touch)
