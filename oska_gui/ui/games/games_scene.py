"""The Games screen: the kept games, newest first, to replay, review, continue or delete.

``GamesScene`` lists a ``session.game_history.GameHistory``: each game's players and
levels, game and size, result, length and date. The chosen game's board is shown at the
move chosen (the stepper under it; its end to begin with), from which Continue plays on
and Review starts. Keys: Up/Down choose a game (Page Up/Down a page), Left/Right a move
back or on, Home/End the first position and the last; Enter replays, E reviews, C
continues, Delete (or D) asks, and a second Delete deletes; Escape, Backspace or M go
back to the start screen. Where the front end can, S saves the game's record to a file
(Save as in the window, Download in the page) and L copies its share link (the page);
the front end does it and tells the screen what it did (``done``), which the status
line says. The pointer does the same through the rows and buttons.

The status line (what screen readers hear, each time it changes) names the game chosen
and the move; until the first key it also says which keys do what. A damaged entry of
the history is left out, and the screen says how many were. Opening a game is the App's
business: ``handle`` returns an ``OpenKept`` intent (or ``Action.MENU``).
"""

from __future__ import annotations

from collections.abc import Callable

from oska_gui.core.types import Move
from oska_gui.play.game import GameAdapter, Position, make_game
from oska_gui.play.kept_games import KeptGame, Listing, check
from oska_gui.play.records import RecordError
from oska_gui.session.game_history import GameHistory

from ..board import board_view
from ..board.board_geometry import fit_board
from ..game.layout import board_aspect
from ..kit import theme
from ..kit.canvas import Canvas
from ..kit.events import Event, KeyPress, PointerDown, PointerMove
from ..kit.intents import Action, Intent, OpenKept, Use
from ..kit.rect import Rect
from ..kit.still import StillScene
from ..kit.widgets import Wording, button, card, fit_lines, keyed, text_lines
from .games_layout import (
    BACK,
    CONTINUE,
    DELETE,
    DOWNLOAD,
    LINK,
    NEWER,
    OLDER,
    REPLAY,
    REVIEW,
    SAVE,
    GamesLayout,
    games_layout,
)

LABELS: dict[str, Wording] = {REPLAY: "Replay", REVIEW: "Review",
                              CONTINUE: ("Continue from here", "Continue"),
                              DELETE: "Delete", BACK: ("Back to start", "Back"),
                              NEWER: ("‹ Newer", "‹"), OLDER: ("Older ›", "›"),
                              SAVE: "Save as", DOWNLOAD: "Download", LINK: "Copy link"}
CONFIRM_LABEL: Wording = ("Delete: sure?", "Sure?")
KEYS = {REPLAY: "Enter", REVIEW: "E", CONTINUE: "C", DELETE: "Del", BACK: "Esc",
        SAVE: "S", DOWNLOAD: "S", LINK: "L"}
USES = {REPLAY: Use.REPLAY, REVIEW: Use.REVIEW, CONTINUE: Use.CONTINUE, SAVE: Use.SAVE,
        DOWNLOAD: Use.SAVE, LINK: Use.LINK}
KEY_BUTTONS = {"enter": REPLAY, "return": REPLAY, "e": REVIEW, "c": CONTINUE,
               "delete": DELETE, "d": DELETE, "s": SAVE, "l": LINK}
BACK_KEYS = ("escape", "backspace", "m")
STEPS = {"left": -1, "right": 1}
CHOICE_STEPS = {"up": -1, "down": 1}
EMPTY = ("No games yet. Each finished game, and each game left for a new one, is kept "
         "here.", "No games kept yet.")
KEY_HELP = ("Up and Down choose a game, Left and Right a move; Enter replays, E reviews, "
            "C continues from the move, Delete deletes, Esc goes back")
TOUCH_HELP = "Tap a game, then Replay, Review, Continue or Delete"


class GamesScene(StillScene):
    """The Games screen over a history: the list, the game and move chosen, drawing."""

    def __init__(self, history: GameHistory, width: float, height: float,
                 touch: Callable[[], bool] = lambda: False,
                 extra: tuple[str, ...] = ()) -> None:
        """Show the games kept in ``history`` in a ``width`` x ``height`` window.

        Args:
            history: the kept games (read now, and again after a deletion).
            width: the window width in pixels.
            height: the window height in pixels.
            touch: returns whether the last input was a touch (finger-sized targets,
                tap wording, no key names).
            extra: the front end's own buttons: ``SAVE`` (the window) or ``DOWNLOAD``
                (the page), and ``LINK`` (the page).
        """
        self.extra = extra
        self.history = history
        self.width, self.height = width, height
        self.touch = touch
        self.pointer = (-1.0, -1.0)
        self.games: list[KeptGame] = []
        self.notes: list[str] = []
        self.choice = 0  # index into ``games``, newest first
        self.top = 0  # the first game the list shows
        self.ply = 0  # the move on the preview board
        self.arming: str | None = None  # the id of the game a second Delete deletes
        self.message = ""  # what the last action did, said before the rest
        self.keys_pressed = 0
        self._line: tuple[str, list[Position], GameAdapter] | None = None
        self.reload()

    # -- the games ---------------------------------------------------------------------

    def reload(self) -> None:
        """Read the history again (newest first), keeping the choice's place. The moves
        are played only of the game chosen (``_choose``), so that a long history opens
        at once."""
        listing: Listing = self.history.listing(replay=False)
        self.games = listing.games[::-1]
        self.notes = listing.notes
        self._choose(min(self.choice, max(0, len(self.games) - 1)))

    @property
    def chosen(self) -> KeptGame | None:
        """Return the game chosen, or None when there is none."""
        return self.games[self.choice] if self.games else None

    def _positions(self) -> tuple[list[Position], GameAdapter] | None:
        """Return the chosen game's positions and its game (None without a game)."""
        if self._line is None or self.chosen is None:
            return None
        return self._line[1], self._line[2]

    def _choose(self, index: int) -> None:
        """Choose the game at ``index`` (clamped), at its last move, in the list's view,
        its moves played: a game that turns out damaged is left out with a note, and
        the next one is chosen instead."""
        self.arming, self._line = None, None
        while self.games:
            self.choice = max(0, min(index, len(self.games) - 1))
            game = self.games[self.choice]
            try:
                positions = check(game)
            except RecordError as error:
                del self.games[self.choice]
                self.notes.append(f"the game of {game.players_text()} kept "
                                  f"{game.date_text()} is damaged and skipped: "
                                  f"{str(error):.200}")
                continue
            self._line = (game.id, positions, make_game(game.record.game, game.record.n))
            break
        self.choice = max(0, min(index, len(self.games) - 1))
        chosen = self.chosen
        self.ply = 0 if chosen is None else chosen.plies

    def _page(self, delta: int) -> None:
        """Show the list ``delta`` pages on (older) or back (newer), the first game
        shown chosen."""
        page = max(1, len(self.layout().rows))
        top = max(0, min(self.top + delta * page, len(self.games) - 1))
        self._choose(top)
        self.top = top
        self.layout()  # the view keeps to the list's end

    def _step(self, delta: int) -> None:
        """Move the preview ``delta`` moves (within the game)."""
        game = self.chosen
        if game is not None:
            self.ply = max(0, min(game.plies, self.ply + delta))

    # -- words -------------------------------------------------------------------------

    def move_words(self) -> str:
        """Return the move on the preview board, e.g. 'Move 12 of 40' or 'Start, 40
        moves'."""
        game = self.chosen
        if game is None:
            return ""
        if self.ply == 0:
            return f"Start of {game.length_text()}"
        return f"Move {self.ply} of {game.plies}"

    @property
    def status_text(self) -> str:
        """Return the status line: the game chosen and the move (see the module text)."""
        game = self.chosen
        skipped = (f" {len(self.notes)} damaged game{'s' if len(self.notes) != 1 else ''}"
                   " skipped." if self.notes else "")
        lead = f"{self.message} " if self.message else ""
        if game is None:
            return f"{lead}Games: {EMPTY[0]}{skipped}"
        sentence = (f"{lead}Games, {self.choice + 1} of {len(self.games)}: "
                    f"{game.players_text()}, {game.size_text()}, {game.result_text()}, "
                    f"{game.length_text()}, {game.date_text()}. {self.move_words()}."
                    f"{skipped}")
        if self.arming is not None:
            how = "Tap Sure?" if self.touch() else "Press Delete again"
            return f"{sentence} Delete this game? {how} to delete it; anything else keeps it."
        if self.keys_pressed == 0:
            return f"{sentence} {TOUCH_HELP if self.touch() else KEY_HELP}."
        return sentence

    # -- input -------------------------------------------------------------------------

    def handle(self, event: Event) -> Intent | None:
        """Handle an input event; return what the App should do (open a game, go back)
        or None."""
        if isinstance(event, PointerMove):
            self.pointer = (event.x, event.y)
            return None
        if isinstance(event, PointerDown):
            self.pointer = (event.x, event.y)
            return self._press(event.x, event.y)
        if isinstance(event, KeyPress):
            self.keys_pressed += 1
            return self._key(event.key)
        return None

    def _key(self, key: str) -> Intent | None:
        """Act on a key press (see the module text)."""
        if key in KEY_BUTTONS:
            name = KEY_BUTTONS[key]
            return self._button(DOWNLOAD if name == SAVE and DOWNLOAD in self.extra
                                else name)
        self.message, self.arming = "", None
        if key in BACK_KEYS:
            return Action.MENU
        if key in CHOICE_STEPS:
            self._choose(self.choice + CHOICE_STEPS[key])
        elif key in ("pageup", "pagedown"):
            self._page(1 if key == "pagedown" else -1)
        elif key in STEPS:
            self._step(STEPS[key])
        elif key in ("home", "end"):
            self._step(-10**9 if key == "home" else 10**9)
        return None

    def _button(self, name: str) -> Intent | None:
        """Do what button ``name`` does (a disabled one does nothing)."""
        game = self.chosen
        if name != DELETE:
            self.message, self.arming = "", None
        if name == BACK:
            return Action.MENU
        if not self._enabled(name) or game is None:
            return None
        if name in USES:
            return OpenKept(game, USES[name], self.ply)
        if name in (NEWER, OLDER):
            self._page(1 if name == OLDER else -1)
        elif self.arming != game.id:
            self.arming, self.message = game.id, ""
        else:
            self.history.delete(game.id)
            self.message = f"Deleted the game of {game.players_text()}."
            self.reload()
        return None

    def _enabled(self, name: str) -> bool:
        """Return whether button ``name`` can be used now: the game buttons need a game,
        Continue a position that is not over, the pager somewhere to go."""
        game = self.chosen
        if name == BACK:
            return True
        if game is None or (name in (SAVE, DOWNLOAD, LINK) and name not in self.extra):
            return False
        if name == NEWER:
            return self.choice > 0
        if name == OLDER:
            return self.choice < len(self.games) - 1
        if name == CONTINUE:
            line = self._positions()
            return (line is not None and bool(line[0])
                    and line[1].outcome(line[0][self.ply]) is None)
        return True

    def done(self, text: str) -> None:
        """Say ``text`` (what the front end did with a Save as, Download or Copy link)
        first on the status line, until the next key or press."""
        self.message = text

    def _press(self, x: float, y: float) -> Intent | None:
        """Act on a click or tap: a button, the pager, a row of the list, the stepper."""
        layout = self.layout()
        for name, rect in (*layout.buttons.items(), *layout.pager.items()):
            if rect.contains(x, y):
                return self._button(name)
        self.message = ""
        back, _, forward = layout.stepper
        if back.contains(x, y) or forward.contains(x, y):
            self.arming = None
            self._step(-1 if back.contains(x, y) else 1)
            return None
        for offset, rect in enumerate(layout.rows):
            if rect.contains(x, y):
                self._choose(self.top + offset)
                return None
        self.arming = None
        return None

    def clickable(self, x: float, y: float) -> bool:
        """Return True when a press at (x, y) would do something: a usable button, a
        stepper arrow or a game of the list."""
        layout = self.layout()
        for name, rect in (*layout.buttons.items(), *layout.pager.items()):
            if rect.contains(x, y):
                return self._enabled(name)
        back, _, forward = layout.stepper
        return (self.chosen is not None and (back.contains(x, y) or forward.contains(x, y))
                or any(rect.contains(x, y) for rect in layout.rows))

    # -- layout ------------------------------------------------------------------------

    def layout(self) -> GamesLayout:
        """Return the layout for the window, the list and the game chosen; the list's
        view follows the choice."""
        game = self.chosen
        aspect = 0.0 if game is None else board_aspect(game.record.game, game.record.n)
        layout = games_layout(self.width, self.height, len(self.games), aspect,
                              self.touch(), bool(self.notes), self.extra)
        shown = max(1, len(layout.rows))
        self.top = max(0, min(self.top, self.choice, len(self.games) - shown))
        if self.choice >= self.top + shown:
            self.top = self.choice - shown + 1
        return layout

    # -- drawing -----------------------------------------------------------------------

    def draw(self, canvas: Canvas) -> None:
        """Paint the Games screen."""
        canvas.clear(theme.BACKGROUND)
        layout = self.layout()
        scale = layout.scale
        title = f"Games ({len(self.games)})" if self.games else "Games"
        canvas.text(title, layout.title.x, layout.title.center[1], scale.title, theme.TEXT,
                    "left", bold=True)
        if layout.note.h > 0:
            count = len(self.notes)
            lines = fit_lines(canvas, (f"{count} damaged game{'s' if count != 1 else ''} "
                                       "skipped", "Damaged: skipped"), layout.note.w,
                              scale.small)
            text_lines(canvas, lines[:1], layout.note.x, layout.note.center[1], scale.small,
                       theme.TEXT_ERROR, "left")
        self._list(canvas, layout)
        self._preview(canvas, layout)
        touch = self.touch()
        for name, rect in (*layout.buttons.items(), *layout.pager.items()):
            label = CONFIRM_LABEL if name == DELETE and self.arming is not None else LABELS[name]
            button(canvas, rect, keyed(label, KEYS.get(name, ""), touch), scale.label,
                   hover=rect.contains(*self.pointer) and not touch,
                   enabled=self._enabled(name),
                   active=name == DELETE and self.arming is not None)

    def _list(self, canvas: Canvas, layout: GamesLayout) -> None:
        """Draw the list's rows: the chosen one on a card with a ring."""
        scale = layout.scale
        if not self.games:
            area = Rect(layout.title.x, layout.stepper[0].y, layout.title.w,
                        layout.stepper[0].h * 2)
            lines = fit_lines(canvas, EMPTY, area.w, scale.body, 3)
            text_lines(canvas, lines, area.x, area.center[1], scale.body, theme.TEXT_DIM,
                       "left")
            return
        for offset, rect in enumerate(layout.rows):
            game = self.games[self.top + offset]
            chosen = self.top + offset == self.choice
            card(canvas, rect, theme.CARD if chosen else theme.PANEL, 8)
            if chosen:
                canvas.rect(rect.x, rect.y, rect.w, rect.h, theme.SELECT, 8, 2)
            self._row(canvas, rect, game, layout)

    def _row(self, canvas: Canvas, rect: Rect, game: KeptGame, layout: GamesLayout) -> None:
        """Draw one game's row: players, then game, result, length and date (on one
        line, the shortest wording that fits, where a row has room for one)."""
        size = layout.scale.small
        inner = rect.inset(8, 0)
        facts = f"{game.size_text()} · {game.result_text()} · {game.length_text()}"
        if layout.lines >= 2:
            first = fit_lines(canvas, (game.players_text(), game.short_players_text()),
                              inner.w, size, 1, True)[:1]
            second = fit_lines(canvas, (f"{facts} · {game.date_text()}", facts), inner.w,
                               size)[:1]
            step = size * 1.3 / 2
            text_lines(canvas, first, inner.x, rect.center[1] - step, size, theme.TEXT,
                       "left", True)
            text_lines(canvas, second, inner.x, rect.center[1] + step, size, theme.TEXT_DIM,
                       "left")
            return
        short = game.short_players_text()
        wordings = (f"{game.players_text()} · {facts}", f"{short} · {facts}",
                    f"{short} · {game.result_text()}", short)
        line = fit_lines(canvas, wordings, inner.w, size)[:1]
        text_lines(canvas, line, inner.x, rect.center[1], size, theme.TEXT, "left")

    def _preview(self, canvas: Canvas, layout: GamesLayout) -> None:
        """Draw the chosen game's board at the move chosen, and the move stepper."""
        line = self._positions()
        if line is None:
            return
        positions, game = line
        back, label, forward = layout.stepper
        scale = layout.scale
        touch = self.touch()
        button(canvas, back, "‹", scale.label * 1.3, hover=back.contains(*self.pointer)
               and not touch, enabled=self.ply > 0)
        button(canvas, forward, "›", scale.label * 1.3,
               hover=forward.contains(*self.pointer) and not touch,
               enabled=self.chosen is not None and self.ply < self.chosen.plies)
        canvas.rect(label.x, label.y, label.w, label.h, theme.CARD, min(8, label.h / 2))
        words = fit_lines(canvas, (self.move_words(), f"{self.ply}/{len(positions) - 1}"),
                          label.w - 8, scale.label)
        text_lines(canvas, words[:1], *label.center, scale.label, theme.TEXT)
        if layout.board.w <= 0 or not positions:
            return
        board = fit_board(game.kind, game.n, layout.board)
        position = positions[min(self.ply, len(positions) - 1)]
        last: Move | None = (game.move_between(positions[self.ply - 1], position)
                             if self.ply > 0 else None)
        board_view.draw_board(canvas, board)
        board_view.draw(canvas, board_view.BoardView(board, game, position, last))
