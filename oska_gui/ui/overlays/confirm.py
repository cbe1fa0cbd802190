"""Asking before leaving a game in progress: a small card over the screen.

Two things leave a game: quitting (which loses nothing: the game is saved and offered
again next time) and starting a new game (which replaces the saved game for good, or,
where games are kept, sends it to the Games screen: ``NEW_GAME_KEPT``). A
stray Q, N or Enter should do neither without a word, so the App shows a ``Question``:
a card that says what happens, with two buttons: 'quit' leaves the game (quits, or
starts the new one), 'stay' keeps it. Each question names its keys; Esc or a press
anywhere off the card keeps playing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..kit import theme
from ..kit.canvas import Canvas
from ..kit.rect import Rect
from ..kit.typescale import TOUCH_TARGET
from ..kit.widgets import button, card, keyed, wrap


@dataclass(frozen=True)
class Question:
    """What a card asks: its title, a sentence of detail, the two buttons' labels and
    the keys they name ('quit' leaves the game, 'stay' keeps it), and the keys that
    answer each way."""

    title: str
    detail: str
    labels: dict[str, str]
    keys: dict[str, str]
    quit_keys: tuple[str, ...]
    stay_keys: tuple[str, ...]

    def answer(self, key: str) -> str | None:
        """Return the answer a key press gives ('quit' or 'stay'), or None for another key."""
        return "quit" if key in self.quit_keys else "stay" if key in self.stay_keys else None

    @property
    def spoken(self) -> str:
        """Return the question in words with its keys, e.g. for a screen reader."""
        return (f"{self.title} {self.detail} {self.keys['quit']}: {self.labels['quit']}, "
                f"{self.keys['stay']}: {self.labels['stay']}.")


QUESTION = "Quit Oska?"
QUIT_KEYS = ("q", "enter", "return", "y")
STAY_KEYS = ("escape", "n")
QUIT = Question(QUESTION, "Your game is saved and will be offered next time.",
                {"quit": "Quit", "stay": "Keep playing"}, {"quit": "Q", "stay": "Esc"},
                QUIT_KEYS, STAY_KEYS)
NEW_GAME = Question("Start a new game?",
                    "The game in progress will be lost: it cannot be resumed or undone.",
                    {"quit": "New game", "stay": "Keep playing"},
                    {"quit": "Enter", "stay": "Esc"}, ("enter", "return", "y"), STAY_KEYS)
# where games are kept (``session.game_history``) the game left is not lost
NEW_GAME_KEPT = replace(NEW_GAME, detail="The game in progress goes to Games (G on the "
                                         "start screen), where it can be continued.")
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
    """Return the layout of a question's card in a ``width`` x ``height`` window: a title
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
                 touch: bool = False, question: Question = QUIT) -> None:
    """Paint a question's card over whatever is on screen.

    Args:
        canvas: where to paint.
        layout: where the card and its buttons go.
        pointer: where the pointer is (its button is highlighted; none after a touch).
        touch: whether the last input was a touch (the buttons name no keys).
        question: what the card asks.
    """
    canvas.rect(0, 0, canvas.width, canvas.height, theme.SCRIM)
    rect, size = layout.card, layout.size
    pad = size * 1.2
    inner = rect.w - 2 * pad
    card(canvas, rect, theme.PANEL, 16)
    y = rect.y + pad + size * 0.8
    canvas.text(question.title, rect.center[0], y, size * 1.5, theme.TEXT, bold=True)
    for line in wrap(canvas, question.detail, inner, size)[:2]:  # the card has room for two
        y += size * 1.6
        canvas.text(line, rect.center[0], y, size, theme.TEXT_DIM)
    for name, area in layout.buttons.items():
        button(canvas, area, keyed(question.labels[name], question.keys[name], touch), size,
               hover=area.contains(*pointer) and not touch, active=name == "quit")
