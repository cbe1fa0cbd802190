"""Asking before quitting a game in progress: a small card over the screen.

Quitting loses nothing (the game is saved and offered again next time), but a stray Q
should not end a game without a word. The card says so and offers two buttons; Q or
Enter quits, Esc or a press anywhere else keeps playing.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import theme
from .canvas import Canvas
from .rect import Rect
from .typescale import TOUCH_TARGET
from .widgets import button, card, keyed, wrap

QUESTION = "Quit Oska?"
DETAIL = "Your game is saved and will be offered next time."
LABELS = {"quit": "Quit", "stay": "Keep playing"}
KEYS = {"quit": "Q", "stay": "Esc"}
QUIT_KEYS = ("q", "enter", "return", "y")
STAY_KEYS = ("escape", "n")
MAX_CARD_WIDTH = 520.0
SIDE_BY_SIDE = 400.0  # a narrower card stacks its buttons


@dataclass(frozen=True)
class ConfirmLayout:
    """Where the card and its two buttons ('quit', 'stay') are, and the text size."""

    card: Rect
    buttons: dict[str, Rect]
    size: float

    def choice_at(self, x: float, y: float) -> str | None:
        """Return the button at (x, y), 'stay' elsewhere off the card, None on the card."""
        for name, rect in self.buttons.items():
            if rect.contains(x, y):
                return name
        return None if self.card.contains(x, y) else "stay"


def confirm_layout(width: float, height: float) -> ConfirmLayout:
    """Return the layout of the quit card in a ``width`` x ``height`` window: a title
    line, two lines of detail, and the buttons side by side or stacked."""
    size = min(18.0, max(14.0, min(width, height) * 0.03))
    pad = size * 1.2
    w = min(MAX_CARD_WIDTH, width - 2 * pad)
    stacked = w < SIDE_BY_SIDE
    button_h = max(TOUCH_TARGET, size * 2.6)
    buttons_h = button_h * (2 if stacked else 1) + (pad * 0.6 if stacked else 0)
    h = pad + size * 2.2 + size * 3.2 + pad * 0.6 + buttons_h + pad
    card_rect = Rect((width - w) / 2, max(0.0, (height - h) / 2), w, h)
    top = card_rect.bottom - pad - buttons_h
    if stacked:
        quit_rect = Rect(card_rect.x + pad, top, w - 2 * pad, button_h)
        stay_rect = Rect(quit_rect.x, quit_rect.bottom + pad * 0.6, quit_rect.w, button_h)
    else:
        half = (w - 3 * pad) / 2
        quit_rect = Rect(card_rect.x + pad, top, half, button_h)
        stay_rect = Rect(quit_rect.right + pad, top, half, button_h)
    return ConfirmLayout(card_rect, {"quit": quit_rect, "stay": stay_rect}, size)


def draw_confirm(canvas: Canvas, layout: ConfirmLayout, pointer: tuple[float, float],
                 touch: bool = False) -> None:
    """Paint the quit card over whatever is on screen.

    Args:
        canvas: where to paint.
        layout: where the card and its buttons go.
        pointer: where the pointer is (its button is highlighted; none after a touch).
        touch: whether the last input was a touch (the buttons name no keys).
    """
    canvas.rect(0, 0, canvas.width, canvas.height, theme.SCRIM)
    rect, size = layout.card, layout.size
    pad = size * 1.2
    inner = rect.w - 2 * pad
    card(canvas, rect, theme.PANEL, 16)
    y = rect.y + pad + size * 0.8
    canvas.text(QUESTION, rect.center[0], y, size * 1.5, theme.TEXT, bold=True)
    for line in wrap(canvas, DETAIL, inner, size)[:2]:  # the card has room for two
        y += size * 1.6
        canvas.text(line, rect.center[0], y, size, theme.TEXT_DIM)
    for name, area in layout.buttons.items():
        button(canvas, area, keyed(LABELS[name], KEYS[name], touch), size,
               hover=area.contains(*pointer) and not touch, active=name == "quit")
