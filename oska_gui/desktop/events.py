"""pygame events -> the UI's front-end-neutral events (``ui.kit.events``)."""

from __future__ import annotations

import pygame

from ..ui.kit.events import Event, KeyPress, PointerDown, PointerMove, PointerUp, Quit, Resize

LEFT_BUTTON = 1
NAMED_KEYS = {
    pygame.K_RETURN: "enter", pygame.K_KP_ENTER: "enter", pygame.K_ESCAPE: "escape",
    pygame.K_SPACE: "space", pygame.K_LEFT: "left", pygame.K_RIGHT: "right",
    pygame.K_UP: "up", pygame.K_DOWN: "down", pygame.K_BACKSPACE: "backspace",
    pygame.K_F1: "f1", pygame.K_KP_PLUS: "+", pygame.K_KP_MINUS: "-",
    pygame.K_HOME: "home", pygame.K_END: "end", pygame.K_DELETE: "delete",
    pygame.K_PAGEUP: "pageup", pygame.K_PAGEDOWN: "pagedown",
}
# Ctrl + key -> the game's key for the same command (familiar editor shortcuts).
CTRL_KEYS = {pygame.K_z: "u", pygame.K_y: "r", pygame.K_q: "q", pygame.K_n: "n"}


def key_name(event: pygame.event.Event) -> str | None:
    """Return the UI key name of a KEYDOWN event ('n', 'enter', '?', ...) or None."""
    if event.mod & pygame.KMOD_CTRL:
        if event.key == pygame.K_z and event.mod & pygame.KMOD_SHIFT:
            return "r"
        return CTRL_KEYS.get(event.key)
    if event.key in NAMED_KEYS:
        return NAMED_KEYS[event.key]
    text = getattr(event, "unicode", "")
    if len(text) == 1 and text.isprintable():
        return text.lower()
    return None


def translate(event: pygame.event.Event) -> list[Event]:
    """Return the UI events for one pygame event (often none, at most one)."""
    kind = event.type
    if kind == pygame.QUIT:
        return [Quit()]
    if kind == pygame.VIDEORESIZE:
        return [Resize(event.w, event.h)]
    touch = bool(getattr(event, "touch", False))  # SDL's mouse events made by a finger
    if kind == pygame.MOUSEMOTION:
        x, y = event.pos
        return [PointerMove(x, y, touch)]
    if kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and event.button == LEFT_BUTTON:
        cls = PointerDown if kind == pygame.MOUSEBUTTONDOWN else PointerUp
        x, y = event.pos
        return [cls(x, y, touch)]
    if kind == pygame.KEYDOWN:
        name = key_name(event)
        shortcut = bool(event.mod & pygame.KMOD_CTRL)  # only Ctrl shortcuts get a name
        return [] if name is None else [KeyPress(name, shortcut)]
    return []
