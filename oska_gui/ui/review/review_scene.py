"""The review screen's controller: a finished or replayed game, every move marked.

``ReviewScene`` shows a ``session.review.ReviewSession``: it gives the analysis the
frame's thinking time in ``update`` (so the screen fills in while the window keeps
answering), turns input into moves of the cursor, and builds the ``ReviewView`` that
``review_view`` paints. Keys: Left/Right a move back or on, Up/Down the position before
the previous or next marked move (?!, ?, ??), where the board shows the move played as
a red arrow and the better one as a blue arrow, Home/End the start and the end, F
turns the board, Escape, Backspace or E go back to the game. A click or tap on the
graph goes to the nearest position, on a move of the list to that move; the buttons do
the same as Left, Right and Escape.
"""

from __future__ import annotations

from collections.abc import Callable

from oska_gui.session.review import ReviewSession

from ..board import board_view
from ..game.game_view import ButtonView
from ..kit.canvas import Canvas
from ..kit.events import Event, KeyPress, PointerDown, PointerMove
from ..kit.intents import Action, Intent
from ..kit.rect import Rect
from . import review_view
from .review_layout import (
    BACK,
    NEXT,
    PREVIOUS,
    ReviewLayout,
    graph_index,
    hit,
    move_cells,
    review_layout,
)
from .review_view import ReviewView

LABELS = {PREVIOUS: ("Previous", "Prev"), NEXT: "Next", BACK: ("Back to game", "Back")}
BUTTON_KEYS = {PREVIOUS: "Left", NEXT: "Right", BACK: "Esc"}
STEPS = {"left": -1, "right": 1}
MARK_STEPS = {"up": -1, "down": 1}
BACK_KEYS = ("escape", "backspace", "e")


class ReviewScene:
    """The review of one game on screen: its session, the way up, pointer and drawing."""

    def __init__(self, session: ReviewSession, width: float, height: float,
                 think_budget: Callable[[], float], touch: Callable[[], bool] = lambda: False,
                 flipped: bool = False) -> None:
        """Show ``session`` in a ``width`` x ``height`` window.

        Args:
            session: the review to show (its analysis goes on in ``update``).
            width: the window width in pixels.
            height: the window height in pixels.
            think_budget: returns the seconds the analysis may take in this frame.
            touch: returns whether the last input was a touch (finger-sized buttons,
                no key names).
            flipped: whether the board starts turned half round (as the game showed it).
        """
        self.session = session
        self.width, self.height = width, height
        self.think_budget = think_budget
        self.touch = touch
        self.flipped = flipped
        self.pointer = (-1.0, -1.0)
        self.changed = False  # whether the analysis brought news since the last drawing

    def layout(self) -> ReviewLayout:
        """Return the layout for the current window size, input and way up."""
        game = self.session.game
        return review_layout(game.kind, game.n, self.width, self.height, self.touch(),
                             self.flipped)

    def resize(self, width: float, height: float) -> None:
        """Adopt a new window size."""
        self.width, self.height = width, height

    @property
    def status_text(self) -> str:
        """Return the status line: the position looked at, and the analysis's progress."""
        progress = self.session.progress
        sentence = self.calm_status
        return f"{sentence} ({progress})" if progress else sentence

    @property
    def calm_status(self) -> str:
        """Return the position looked at in words (what screen readers are told): the
        move, its mark and the better move; unchanged while the analysis runs elsewhere."""
        return "Review. " + self.session.sentence()

    # -- input -------------------------------------------------------------------------

    def handle(self, event: Event) -> Intent | None:
        """Handle an input event; return what the App should do (back to the game) or None."""
        if isinstance(event, PointerMove):
            self.pointer = (event.x, event.y)
        elif isinstance(event, PointerDown):
            self.pointer = (event.x, event.y)
            return self._press(event.x, event.y)
        elif isinstance(event, KeyPress):
            return self._key(event.key)
        return None

    def _key(self, key: str) -> Intent | None:
        """Act on a key press (see the module text)."""
        session = self.session
        if key in BACK_KEYS:
            return Action.BACK
        if key in STEPS:
            session.step(STEPS[key])
        elif key in MARK_STEPS:
            session.next_bad(MARK_STEPS[key])
        elif key == "home":
            session.go(0)
        elif key == "end":
            session.go(session.last)
        elif key == "f":
            self.flipped = not self.flipped
        elif key == "m":
            return Action.MENU
        return None

    def _press(self, x: float, y: float) -> Intent | None:
        """Act on a click or tap: a button, the graph or a move of the list."""
        layout = self.layout()
        for name, rect in layout.buttons.items():
            if rect.contains(x, y):
                return self._button(name)
        if layout.graph.contains(x, y):
            self.session.go(graph_index(layout.graph, x, self.session.last))
            return None
        index = hit(self._cells(layout), x, y)
        if index is not None:
            self.session.go(index)
        return None

    def _button(self, name: str) -> Intent | None:
        """Do what button ``name`` does."""
        if name == BACK:
            return Action.BACK
        self.session.step(-1 if name == PREVIOUS else 1)
        return None

    def _cells(self, layout: ReviewLayout) -> list[tuple[int, Rect]]:
        """Return the move list's boxes as ``review_layout.move_cells`` gives them."""
        return move_cells(layout.moves, layout.scale, self.session.last, self.session.cursor)

    def clickable(self, x: float, y: float) -> bool:
        """Return True when a press at (x, y) would do something: a usable button, the
        graph, or a move of the list."""
        layout = self.layout()
        for name, rect in layout.buttons.items():
            if rect.contains(x, y):
                return self._enabled(name)
        return layout.graph.contains(x, y) or hit(self._cells(layout), x, y) is not None

    def _enabled(self, name: str) -> bool:
        """Return whether button ``name`` can be used now."""
        cursor = self.session.cursor
        if name == PREVIOUS:
            return cursor > 0
        if name == NEXT:
            return cursor < self.session.last
        return True

    # -- time --------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        """Give the analysis this frame's thinking time (``dt`` itself is not needed:
        nothing on this screen moves by itself but the analysis)."""
        if self.session.advance(self.think_budget()):
            self.changed = True

    @property
    def animating(self) -> bool:
        """Return True while the screen changes by itself: the analysis is running."""
        return not self.session.done or self.changed

    @property
    def busy(self) -> bool:
        """Return True while the analysis runs (the App keeps the collector out)."""
        return not self.session.done

    # -- the view ----------------------------------------------------------------------

    def draw(self, canvas: Canvas) -> None:
        """Paint the review screen."""
        review_view.draw(canvas, self.view())
        self.changed = False

    def view(self) -> ReviewView:
        """Return what the review screen shows now."""
        session, layout = self.session, self.layout()
        last = session.last
        board = board_view.BoardView(layout.board, session.game, session.position,
                                     session.last_move, hint=session.better_move,
                                     replaced=session.replaced_move)
        marks = [session.mark_of(index) for index in range(last + 1)]
        labels = [""] + [session.move_label(index) for index in range(1, last + 1)]
        touch = self.touch()
        buttons = {name: ButtonView(LABELS[name], "" if touch else BUTTON_KEYS[name],
                                    rect.contains(*self.pointer) and not touch,
                                    self._enabled(name), False)
                   for name, rect in layout.buttons.items()}
        summaries = (session.summary(0), session.summary(1))
        status = session.status_wordings()
        return ReviewView(board, layout, session.progress_wordings, status, summaries,
                          session.white_chances(), marks, labels, session.cursor, last,
                          buttons)
