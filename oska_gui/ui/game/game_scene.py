"""The game screen's controller: everything the players do there.

``GameScene`` turns input into moves and commands for its ``Match``, plays the move
animations, flashes illegal clicks, keeps toasts (passes, messages) and plays the
sounds. Each frame it builds a ``game_view.GameView`` of what the screen shows (board,
side panel, banner, toast; the words come from ``panel_text``), which ``game_view``
paints.
The game's own choices (mode, sides) are its match's; the display preferences
(animation, pace, cell names, sound) are the App's, read through a source and changed
only by asking: ``handle`` returns an intent for the App (``Choose`` new settings, or
the ``Action`` new, menu, help or quit) or None.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from oska_gui.core.types import WHITE
from oska_gui.play.game import GameAdapter, Position
from oska_gui.session.match import Announced, Match, Played
from oska_gui.session.settings import ANIMATION_FACTORS, Animation, Mode, Pace, Settings

from ..board import board_view
from ..board.animation import Flash, MoveAnimation
from ..board.board_geometry import BoardLayout
from ..board.cell_size import small_cells_text
from ..board.keyboard_cursor import DIRECTIONS, neighbour
from ..kit.canvas import Canvas
from ..kit.events import Event, KeyPress, PointerDown, PointerMove, PointerUp
from ..kit.intents import Action, Choose, Intent
from ..kit.sounds import Silence, Speaker, end_cue, move_cue
from ..kit.widgets import keyed
from . import game_view, panel_text
from .commands import (
    APP_ACTIONS,
    HINT_KEYS,
    KEYS,
    LABELS,
    REPLAY_KEYS,
    Command,
    buttons_for,
    enabled,
    reviewable,
)
from .game_view import Banner, ButtonView, GameView, PlayerCard, banner_rect
from .interaction import MoveInput, Play, Reject
from .layout import PanelLayout, board_aspect, board_layout, panel_layout
from .typed_move import ENTER_KEYS, OPEN_KEY, MoveLine, how_to

TOAST_SECONDS = 2.6
SELECT_KEYS = ("enter", "return", "space")  # press the cursor's cell (Space: not in CvC)


class GameScene:
    """A game on screen: its match, input state, animations and drawing."""

    def __init__(self, match: Match, settings: Callable[[], Settings], width: float,
                 height: float, think_budget: Callable[[], float], can_quit: bool = True,
                 speaker: Speaker | None = None,
                 touch: Callable[[], bool] = lambda: False) -> None:
        """Show ``match`` in a ``width`` x ``height`` window.

        Args:
            match: the game to show and play.
            settings: returns the App's current settings (for the display preferences).
            width: the window width in pixels.
            height: the window height in pixels.
            think_budget: returns the seconds the computer may think in this frame.
            can_quit: whether the panel may offer a Quit button (a web page cannot close
                itself).
            speaker: plays the move and game-end sounds (None: silence).
            touch: returns whether the last input was a touch (finger-sized buttons,
                tap wording, no key hints).
        """
        self.match = match
        self.touch = touch
        self.keyboard = False  # whether the last press in the game was a key, not a pointer
        self.can_quit = can_quit
        self.speaker = speaker or Silence()
        self._settings = settings
        self.width, self.height = width, height
        self.think_budget = think_budget
        self.input = MoveInput()
        self.line = MoveLine()  # the typed-move line ('/' opens it)
        self.animation: MoveAnimation | None = None
        self.flashes: list[Flash] = []
        self.toast: tuple[str, float] | None = None
        self.pointer = (-1.0, -1.0)
        self.cursor: int | None = None  # the keyboard cursor's cell, once arrows are used
        self.banner_seen: Position | None = None  # the final position whose banner is put away
        self.clock = 0.0

    @property
    def game(self) -> GameAdapter:
        """Return the game being played."""
        return self.match.game

    @property
    def settings(self) -> Settings:
        """Return the App's current settings (only the display preferences apply here)."""
        return self._settings()

    @property
    def mode(self) -> Mode:
        """Return who plays this game (the match's choice, kept for the whole game)."""
        return self.match.settings.mode

    @property
    def buttons(self) -> tuple[Command, ...]:
        """Return the panel's buttons for this mode (pause reads 'resume' if paused)."""
        return buttons_for(self.mode, self.can_quit, self.match.paused, reviewable(self.match))

    @property
    def flipped(self) -> bool:
        """Return whether the board is shown half turned (Black's home row at the top):
        against the computer your side starts at the bottom, and F turns it over (a
        display preference, kept in the settings for the next games and runs)."""
        match = self.match
        usual = match.settings.mode == Mode.HVC and not match.is_computer(WHITE)
        return usual != self.settings.turned

    def board(self) -> BoardLayout:
        """Return the board layout for the current window size and way up."""
        return board_layout(self.game.kind, self.game.n, self.width, self.height,
                            len(self.buttons), self.flipped)

    def panel(self) -> PanelLayout:
        """Return the side panel layout for the current window size."""
        commands = [Command(name) for name in self.buttons]
        hinted = [keyed(LABELS[c], HINT_KEYS[c], False)[0] for c in commands]
        short = [keyed(LABELS[c], "", False)[-1] for c in commands]
        return panel_layout(self.width, self.height, self.buttons, self.touch(),
                            board_aspect(self.game.kind, self.game.n),
                            (max(hinted, key=len), max(short, key=len)))

    def resize(self, width: float, height: float) -> None:
        """Adopt a new window size (a drag in progress is dropped)."""
        self.width, self.height = width, height
        self.input.reset()

    @property
    def status_text(self) -> str:
        """Return the match's one-line status."""
        return self.match.status_text

    # -- input -------------------------------------------------------------------------

    def handle(self, event: Event) -> Intent | None:
        """Handle an input event; return what the App should do (see ``intents``) or None."""
        if isinstance(event, PointerMove):
            self.pointer = (event.x, event.y)
            self.input.move(event.x, event.y)
        elif isinstance(event, PointerDown):
            self.pointer = (event.x, event.y)
            self.cursor = None  # the pointer is in use: no keyboard cursor on show
            self.keyboard = False
            for name, rect in self.panel().buttons.items():
                if rect.contains(event.x, event.y):
                    return self.command(Command(name))
            if self._banner_shown and banner_rect(self.board(), self.width).contains(
                    event.x, event.y):
                self.banner_seen = self.match.position
                return None
            self._board_press(event.x, event.y)
        elif isinstance(event, PointerUp):
            self.pointer = (event.x, event.y)
            # a cancelled pointer drops nothing: a dragged piece goes back
            cell = None if event.cancel else self.board().cell_at(event.x, event.y)
            self._answer(self.input.release(cell, event.x, event.y, self.match.legal_moves()))
        elif isinstance(event, KeyPress):
            self.keyboard = True
            return self._key(event.key)
        return None

    def clickable(self, x: float, y: float) -> bool:
        """Return True when a press at (x, y) would do something: a usable button, the
        game-over banner (it goes away), or on the human's turn a piece that can move
        or a cell the selected piece can move to (the front ends show a hand there)."""
        for name, rect in self.panel().buttons.items():
            if rect.contains(x, y):
                return enabled(self.match, Command(name))
        if self._banner_shown and banner_rect(self.board(), self.width).contains(x, y):
            return True
        match = self.match
        cell = self.board().cell_at(x, y)
        if not match.human_to_move or cell is None:
            return False
        moves = match.legal_moves()
        return (any(legal.move.frm == cell for legal in moves)
                or cell in self.input.targets(moves, self.input.selected))

    @property
    def typing(self) -> bool:
        """Return True while the typed-move line is open (every key is the line's)."""
        return self.line.open

    def line_help(self) -> str:
        """Return how to use the typed-move line, in a sentence, with an example."""
        return how_to(self._example_move())

    def _example_move(self) -> str:
        """Return a move of the side to move in notation, to show how moves are
        written ('' once the game is over)."""
        moves = self.match.legal_moves() if not self.match.over else []
        return self.game.move_text(moves[0].move) if moves else ""

    def _key(self, key: str) -> Intent | None:
        """Act on a key press: '/' opens the typed-move line (which then takes every
        key), arrows move the cursor (in a replay Left and Right step through it),
        Enter (and Space, but in computer vs computer) press its cell, Escape drops a
        selection or else opens the menu, the rest are commands (see ``KEYS``)."""
        if self.line.open:
            self._line_key(key)
            return None
        if key == OPEN_KEY:
            self.line.start()
            return None
        if key == "escape":
            if self.input.selected is not None:
                self.input.reset()
                return None
            if self._banner_shown:
                self.banner_seen = self.match.position
                return None
            return Action.MENU
        if self.match.replay is not None and key in REPLAY_KEYS:
            return self.command(REPLAY_KEYS[key])
        if key in DIRECTIONS:
            self._move_cursor(key)
            return None
        if key in SELECT_KEYS and not (key == "space" and self.mode == Mode.CVC):
            self._press_cursor()
            return None
        name = KEYS.get(key)
        return None if name is None else self.command(name)

    def _line_key(self, key: str) -> None:
        """Act on a key while the typed-move line is open: Escape closes it, Enter
        plays its move, other keys edit it."""
        if key == "escape":
            self.line.close()
        elif key in ENTER_KEYS:
            self._play_typed()
        else:
            self.line.edit(key)

    def _play_typed(self) -> None:
        """Play the move typed on the line, or keep on the line why it cannot be
        played (the notation parser's words: unreadable, no such cell, not legal)."""
        match, text = self.match, self.line.text
        if match.over:
            self.line.refuse("The game is over: Escape, then N for a new game")
            return
        if not match.human_to_move:
            self.line.refuse(self._why_wait())
            return
        if not text:
            self.line.refuse(self.line_help())
            return
        try:
            move = self.game.rules.parse_move(text, match.position)
        except ValueError as err:
            problem = str(err)
            self.line.refuse(problem[:1].upper() + problem[1:])
            return
        # the parser found it legal: a real move, as a forced pass is not the human's
        legal = {legal.move: legal for legal in match.legal_moves()}[move]
        self.animation = None
        self.line.played()
        self.match.play(legal.child, None)
        self._take_events()

    def _move_cursor(self, key: str) -> None:
        """Show the keyboard cursor, or move it one cell the way of the arrow ``key``.

        It first appears on the selected piece, else on a piece of the side to move.
        """
        board = self.board()
        if self.cursor is None:
            match = self.match
            mine = [cell for cell in range(board.cell_count)
                    if self.game.piece_at(match.position, cell) == match.turn]
            self.cursor = self.input.selected if self.input.selected is not None else (
                mine[0] if mine else 0)
            return
        centers = [board.center(cell) for cell in range(board.cell_count)]
        self.cursor = neighbour(centers, self.cursor, key)

    def _press_cursor(self) -> None:
        """Do what a click on the cursor's cell does (showing the cursor first if hidden);
        on the piece picked up it puts it back (a click does that on release, which a
        key does not have)."""
        if self.cursor is None:
            self._move_cursor("up")
            return
        if self.cursor == self.input.selected:
            self.input.reset()
            return
        self._board_press(*self.board().center(self.cursor))

    def _board_press(self, x: float, y: float) -> None:
        """Handle a press on the board area: the human's move input, if it is their turn."""
        board = self.board()
        cell = board.cell_at(x, y)
        match = self.match
        if not match.human_to_move:
            if cell is not None and not match.over:
                self.say(self._why_wait())
            return
        if self.animation is not None:
            self.animation = None  # a new move starts: show the last one finished
        piece = self.game.piece_at(match.position, cell) if cell is not None else None
        self._answer(self.input.press(cell, x, y, match.legal_moves(), piece, match.turn))

    def _why_wait(self) -> str:
        """Return why the human cannot move now (the game is not over)."""
        match = self.match
        if self.game.pass_child(match.position) is not None:
            return match.status_text
        if self.mode == Mode.CVC:
            return "The computer plays both sides: Space pauses, S steps"
        return "Please wait: the computer is thinking"

    def _answer(self, result: Play | Reject | None) -> None:
        """Carry out what the move input decided: play a move or explain a refusal."""
        if isinstance(result, Play):
            self.match.play(result.legal.child, result.dropped_at)
            self._take_events()
        elif isinstance(result, Reject):
            if result.cell is not None:
                self.flashes.append(Flash(result.cell))
            self.say(result.message)

    def command(self, name: Command) -> Intent | None:
        """Run the command ``name`` (a button or shortcut); return an intent or None."""
        if name == Command.REVIEW and not reviewable(self.match):
            self.say("A review is for a finished game or a replay")
            return None
        if name in APP_ACTIONS:
            return APP_ACTIONS[name]
        match = self.match
        if name in (Command.UNDO, Command.REDO):
            moved = match.undo() if name == Command.UNDO else match.redo()
            if moved:
                self.animation = None
                self.input.reset()
                self.flashes.clear()
            else:
                self.say(f"Nothing to {name}")
        elif name == Command.HINT:
            if not match.request_hint():
                self.say(self._why_no_hint())
        elif name in (Command.PAUSE, Command.RESUME):
            match.toggle_pause()
        elif name == Command.STEP:
            match.single_step()
        elif name in (Command.FASTER, Command.SLOWER):
            return self._change_speed(1 if name == Command.FASTER else -1)
        elif name == Command.ANIMATION:
            animations = tuple(Animation)
            index = (animations.index(self.settings.animation) + 1) % len(animations)
            return self._set(f"Animation: {animations[index]}", animation=animations[index])
        elif name == Command.COORDINATES:
            return self._set("", coordinates=not self.settings.coordinates)
        elif name == Command.FLIP:
            bottom = "Black" if self.flipped else "White"  # the board is about to turn
            return self._set(f"{bottom} at the bottom", turned=not self.settings.turned)
        elif name == Command.SOUND:
            sound = not self.settings.sound
            state = ("on" if self.speaker.available else "on, but there is no sound device"
                     ) if sound else "off"
            return self._set(f"Sound: {state}", sound=sound)
        return None

    def _why_no_hint(self) -> str:
        """Return why H gives no hint now: the game is over (naming the key of the
        Review button that takes Hint's place, when it does), or it is not a human's
        turn."""
        if not self.match.over:
            return "A hint is for a human's turn"
        if reviewable(self.match):
            return f"The game is over: no hint; {HINT_KEYS[Command.REVIEW]} reviews it"
        return "The game is over: no hint"

    def _change_speed(self, delta: int) -> Choose:
        """Return the pace (computer vs computer) or else the animation speed changed by
        a notch."""
        if self.mode == Mode.CVC:
            paces = tuple(Pace)
            pace = paces[max(0, min(len(paces) - 1, paces.index(self.settings.pace) + delta))]
            return self._set(f"Speed: {pace}", pace=pace)
        fastest_first = tuple(Animation)  # off, fast, normal, slow: faster is a step left
        index = max(0, min(len(fastest_first) - 1,
                           fastest_first.index(self.settings.animation) - delta))
        animation = fastest_first[index]
        return self._set(f"Animation: {animation}", animation=animation)

    def _set(self, toast: str, **changes: Any) -> Choose:
        """Return the App's settings with display preferences changed, saying ``toast``."""
        if toast:
            self.say(toast)
        return Choose(replace(self.settings, **changes))

    def say(self, text: str) -> None:
        """Show ``text`` as a toast over the board for a few seconds."""
        self.toast = (text, TOAST_SECONDS)

    # -- time ------------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        """Advance animations, flashes, toasts and the match by ``dt`` seconds."""
        self.clock += dt
        if self.animation is not None and self.animation.advance(dt):
            self.animation = None
        self.flashes = [flash for flash in self.flashes if not flash.advance(dt)]
        if self.toast is not None:
            text, left = self.toast
            self.toast = (text, left - dt) if left > dt else None
        self.match.update(dt, self.think_budget(), busy=self.animation is not None)
        self._take_events()

    def _take_events(self) -> None:
        """Start the animation of a move just played; show announcements as toasts."""
        for event in self.match.take_events():
            if isinstance(event, Announced):
                self.say(event.text)
            elif isinstance(event, Played):
                self.input.reset()
                self._sound(event)
                move = event.move
                if not move.is_pass:
                    factor = ANIMATION_FACTORS[self.settings.animation]
                    self.animation = MoveAnimation.of_move(move.frm, move.to, move.over,
                                                           event.before[2], factor,
                                                           event.dropped_at)

    def _sound(self, played: Played) -> None:
        """Play the sound of a move just played: the end of the game's, if it ended it."""
        if not self.settings.sound or played.move.is_pass:
            return
        match = self.match
        outcome = match.outcome if played.after == match.position else None
        if outcome is not None:
            humans = [not match.is_computer(side) for side in (0, 1)]
            self.speaker.play(end_cue(outcome.winner, humans))
        else:
            self.speaker.play(move_cue(played.move.is_capture))

    @property
    def animating(self) -> bool:
        """Return True while the screen changes by itself: a move, a flash or a toast
        on show, a move played but not yet shown, or the game going on (thinking
        spinner, pass, computer moves)."""
        return (self.animation is not None or bool(self.flashes) or self.toast is not None
                or bool(self.match.events) or self.match.in_motion)

    @property
    def busy(self) -> bool:
        """Return True while the computer (or a hint) is thinking."""
        return self.match.thinking is not None or self.match.hint_pending

    # -- the view ----------------------------------------------------------------------------

    def draw(self, canvas: Canvas) -> None:
        """Paint the game screen."""
        game_view.draw(canvas, self.view())

    @property
    def _banner_shown(self) -> bool:
        """Return True while the game-over banner is on the board: the game is over, its
        last move shown, and the banner not put away (a click on it or Escape)."""
        return (self.match.over and self.animation is None
                and self.banner_seen != self.match.position)

    def view(self) -> GameView:
        """Return what the game screen shows now (see ``game_view.GameView``)."""
        match = self.match
        outcome = match.outcome
        banner = None
        if outcome is not None and self._banner_shown:
            banner = Banner(panel_text.banner_title(match, outcome), outcome.reason)
        cards = (self._card(0), self._card(1))
        touch = self.touch()
        board = self.board()
        detail = panel_text.status_detail(match, self.settings, self.input.selected is not None,
                                          touch, self.keyboard)
        if match.human_to_move and match.replay is None:  # told where clicks may miss
            detail = small_cells_text(board, self.game.info.cell_word, touch,
                                      self.settings.coordinates) or detail
        panel = self.panel()
        return GameView(self._board_view(board), panel, self.width, self.game.title,
                        panel_text.mode_text(match), cards, match.status_text, match.over,
                        detail, panel_text.move_rows(match), match.history.cursor,
                        self._button_views(panel), self.toast, banner, self.clock, touch,
                        self.line.view(self._example_move()), self.keyboard)

    def _board_view(self, board: BoardLayout) -> board_view.BoardView:
        """Collect what the board shows this frame."""
        match, game = self.match, self.game
        history = match.history
        last = None
        if history.previous is not None:
            last = game.move_between(history.previous, history.current)
        selected = self.input.selected
        targets = {to: legal.move.over
                   for to, legal in self.input.targets(match.legal_moves(), selected).items()}
        drag = None
        if self.input.dragged_cell is not None:
            drag = (self.input.dragged_cell, *self.input.pointer)
        return board_view.BoardView(board, game, match.position, last, selected, targets,
                                    match.hint, self.flashes, self.animation, drag,
                                    self.settings.coordinates, self.cursor)

    def _card(self, side: int) -> PlayerCard:
        """Return what ``side``'s player card shows."""
        match = self.match
        to_move = match.turn == side and not match.over
        thinking = match.thinking == side and (not match.paused or match.step_once)
        return PlayerCard(panel_text.role(match, side), self.game.count(match.position, side),
                          to_move, to_move and thinking)

    def _button_views(self, panel: PanelLayout) -> dict[str, ButtonView]:
        """Return each button of ``panel`` as shown: label, hover, usable, highlighted."""
        touch = self.touch()
        return {name: ButtonView(LABELS[Command(name)], "" if touch else HINT_KEYS[Command(name)],
                                 rect.contains(*self.pointer) and not touch,
                                 enabled(self.match, Command(name)),
                                 name == Command.RESUME)
                for name, rect in panel.buttons.items()}
