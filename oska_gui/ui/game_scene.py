"""The game screen: the board, the side panel, and everything the players do there.

``GameScene`` turns input into moves and commands for its ``Match``, plays the move
animations, flashes illegal clicks, shows toasts (passes, messages), and paints the
board, the side panel (players, status, move list, buttons) and the game-over banner.
The game's own choices (mode, sides) are its match's; the display preferences
(animation, pace, cell names, sound) are the App's, read through a source and changed
only by asking: ``handle`` returns an intent for the App (``Choose`` new settings, or
the ``Action`` new, menu, help or quit) or None.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from enum import StrEnum
from typing import Any

from oska_gui.core.types import SIDE_NAMES, Outcome

from . import board_view, theme
from .animation import Flash, MoveAnimation
from .board_geometry import BoardLayout
from .canvas import Canvas
from .events import Event, KeyPress, PointerDown, PointerMove, PointerUp
from .games import GameAdapter
from .intents import Action, Choose, Intent
from .interaction import MoveInput, Play, Reject
from .layout import PanelLayout, board_layout, panel_layout
from .match import Announced, Match, Played
from .rect import Rect
from .settings import ANIMATION_FACTORS, Animation, Mode, Pace, Settings
from .sounds import Silence, Speaker, end_cue, move_cue
from .widgets import break_line, button, card, fit_size, fitted_text, spinner


class Command(StrEnum):
    """What a panel button or a shortcut key does in a game."""

    UNDO = "undo"
    REDO = "redo"
    HINT = "hint"
    NEW = "new"
    MENU = "menu"
    HELP = "help"
    PAUSE = "pause"
    RESUME = "resume"
    STEP = "step"
    SLOWER = "slower"
    FASTER = "faster"
    QUIT = "quit"
    ANIMATION = "animation"
    COORDINATES = "coordinates"
    SOUND = "sound"


BUTTONS = {
    Mode.HVC: (Command.UNDO, Command.REDO, Command.HINT, Command.NEW, Command.MENU,
               Command.HELP),
    Mode.CVC: (Command.PAUSE, Command.STEP, Command.SLOWER, Command.FASTER, Command.UNDO,
               Command.REDO, Command.NEW, Command.MENU, Command.HELP, Command.QUIT),
}
LABELS = {
    Command.UNDO: "Undo (U)", Command.REDO: "Redo (R)", Command.HINT: "Hint (H)",
    Command.NEW: "New game (N)", Command.MENU: "Menu (M)", Command.HELP: "Help (?)",
    Command.PAUSE: "Pause (Space)", Command.RESUME: "Resume (Space)",
    Command.STEP: "Step (S)", Command.SLOWER: "Slower (-)", Command.FASTER: "Faster (+)",
    Command.QUIT: "Quit (Q)",
}
KEYS = {
    "u": Command.UNDO, "backspace": Command.UNDO, "left": Command.UNDO, "r": Command.REDO,
    "right": Command.REDO, "h": Command.HINT, "space": Command.PAUSE, "p": Command.PAUSE,
    "s": Command.STEP, ".": Command.STEP, "+": Command.FASTER, "=": Command.FASTER,
    "-": Command.SLOWER, "n": Command.NEW, "m": Command.MENU, "a": Command.ANIMATION,
    "c": Command.COORDINATES, "v": Command.SOUND,
}
APP_ACTIONS = {Command.NEW: Action.NEW, Command.MENU: Action.MENU, Command.HELP: Action.HELP,
               Command.QUIT: Action.QUIT}
TOAST_SECONDS = 2.6


class GameScene:
    """A game on screen: its match, input state, animations and drawing."""

    def __init__(self, match: Match, settings: Callable[[], Settings], width: float,
                 height: float, think_slice: float, can_quit: bool = True,
                 speaker: Speaker | None = None) -> None:
        """Show ``match`` in a ``width`` x ``height`` window.

        Args:
            match: the game to show and play.
            settings: returns the App's current settings (for the display preferences).
            width: the window width in pixels.
            height: the window height in pixels.
            think_slice: seconds the computer may think per frame.
            can_quit: whether the panel may offer a Quit button (a web page cannot close
                itself).
            speaker: plays the move and game-end sounds (None: silence).
        """
        self.match = match
        self.can_quit = can_quit
        self.speaker = speaker or Silence()
        self._settings = settings
        self.width, self.height = width, height
        self.think_slice = think_slice
        self.input = MoveInput()
        self.animation: MoveAnimation | None = None
        self.flashes: list[Flash] = []
        self.toast: tuple[str, float] | None = None
        self.pointer = (-1.0, -1.0)
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
        names = BUTTONS.get(self.mode, BUTTONS[Mode.HVC])
        if not self.can_quit:
            names = tuple(name for name in names if name != Command.QUIT)
        if self.match.paused:
            names = tuple(Command.RESUME if name == Command.PAUSE else name for name in names)
        return names

    def board(self) -> BoardLayout:
        """Return the board layout for the current window size."""
        return board_layout(self.game.kind, self.game.n, self.width, self.height)

    def panel(self) -> PanelLayout:
        """Return the side panel layout for the current window size."""
        return panel_layout(self.width, self.height, self.buttons)

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
            for name, rect in self.panel().buttons.items():
                if rect.contains(event.x, event.y):
                    return self.command(Command(name))
            self._board_press(event.x, event.y)
        elif isinstance(event, PointerUp):
            self.pointer = (event.x, event.y)
            cell = self.board().cell_at(event.x, event.y)
            self._answer(self.input.release(cell, event.x, event.y, self.match.legal_moves()))
        elif isinstance(event, KeyPress):
            return self._key(event.key)
        return None

    def _key(self, key: str) -> Intent | None:
        """Act on a key press (see ``KEYS``); Escape drops a selection, else opens the menu."""
        if key == "escape":
            if self.input.selected is not None:
                self.input.reset()
                return None
            return Action.MENU
        name = KEYS.get(key)
        return None if name is None else self.command(name)

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
                self.say("A hint is for a human's turn")
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
        elif name == Command.SOUND:
            sound = not self.settings.sound
            return self._set(f"Sound: {'on' if sound else 'off'}", sound=sound)
        return None

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
        self.match.update(dt, self.think_slice, busy=self.animation is not None)
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

    # -- drawing ---------------------------------------------------------------------------

    def draw(self, canvas: Canvas) -> None:
        """Paint the game screen."""
        board, panel = self.board(), self.panel()
        canvas.layer(("game", board, panel.panel), lambda c: _backdrop(c, board, panel.panel))
        board_view.draw(canvas, self._board_view(board))
        self._toast(canvas, board)
        outcome = self.match.outcome
        if outcome is not None and self.animation is None:
            self._banner(canvas, board, outcome)
        self._panel(canvas, panel)

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
                                    self.settings.coordinates)

    def _toast(self, canvas: Canvas, board: BoardLayout) -> None:
        """Draw the current toast as a pill at the top of the board area."""
        if self.toast is None:
            return
        text, left = self.toast
        alpha = min(1.0, left / 0.4)
        size = max(11.0, min(18.0, board.pitch * 0.3))
        width = canvas.text_width(text, size) + size * 2
        width = min(width, max(board.rect.w, self.width * 0.5))
        x = board.rect.center[0] - width / 2
        y = max(4.0, board.rect.y - size * 0.6)
        canvas.rect(x, y, width, size * 2, (20, 22, 28, int(220 * alpha)), size)
        fitted_text(canvas, text, x + width / 2, y + size, width - size, size,
                    (*theme.TEXT[:3], int(255 * alpha)))

    def _banner(self, canvas: Canvas, board: BoardLayout, outcome: Outcome) -> None:
        """Draw the game-over banner for ``outcome`` across the board: who won, why, what next."""
        band = banner_rect(board, self.width)
        cx, w, h = band.center[0], band.w, band.h
        canvas.rect(band.x, band.y, band.w, band.h, theme.BANNER, 14)
        canvas.rect(band.x, band.y, band.w, band.h, (*theme.SELECT, 160), 14, 2)
        if outcome.winner is None:
            title = "Draw"
        elif self.mode == Mode.HVC:
            won = outcome.winner not in self.match.players
            title = "You win!" if won else f"{SIDE_NAMES[outcome.winner]} wins"
        else:
            title = f"{SIDE_NAMES[outcome.winner]} wins"
        big = h * 0.3
        fitted_text(canvas, title, cx, band.y + h * 0.3, w - 20, big, theme.SELECT, bold=True)
        reason = outcome.reason[:1].upper() + outcome.reason[1:]
        fitted_text(canvas, reason, cx, band.y + h * 0.6, w - 20, big * 0.5, theme.TEXT)
        fitted_text(canvas, "N: new game   U: undo   M: menu", cx, band.y + h * 0.83, w - 20,
                    big * 0.38, theme.TEXT_DIM)

    # -- the side panel ----------------------------------------------------------------------

    def _panel(self, canvas: Canvas, panel: PanelLayout) -> None:
        """Draw the side panel's content: title, player cards, status, moves, buttons."""
        line = panel.line_height
        title = panel.title
        fitted_text(canvas, self.game.title, title.x, title.center[1], title.w * 0.6,
                    line * 1.25, theme.TEXT, anchor="left", bold=True)
        mode = "replay" if self.match.replay is not None else _mode_text(self.match.settings)
        size = fit_size(canvas, mode, title.w * 0.34, line * 0.85)
        if size >= line * 0.6:  # in a narrow panel the title needs the room more
            canvas.text(mode, title.right, title.center[1], size, theme.TEXT_DIM, "right")
        for side, rect in enumerate(panel.players):
            self._player_card(canvas, rect, side, line)
        self._status(canvas, panel.status, line)
        self._moves(canvas, panel.moves, line)
        for name, rect in panel.buttons.items():
            command = Command(name)
            button(canvas, rect, LABELS[command], line * 0.92,
                   hover=rect.contains(*self.pointer), enabled=self._enabled(command),
                   active=command == Command.RESUME)

    def _enabled(self, name: Command) -> bool:
        """Return whether the button ``name`` can be used now."""
        match = self.match
        if name == Command.UNDO:
            return match.can_undo()
        if name == Command.REDO:
            return match.can_redo()
        if name == Command.HINT:
            return match.human_to_move and match.hint is None
        if name == Command.STEP:
            return not match.over
        return True

    def _player_card(self, canvas: Canvas, rect: Rect, side: int, line: float) -> None:
        """Draw one side's card: piece, name, who plays it, pieces left, thinking."""
        match = self.match
        to_move = match.turn == side and not match.over
        canvas.rect(rect.x, rect.y, rect.w, rect.h, theme.CARD, 10)
        if to_move:
            canvas.rect(rect.x, rect.y, rect.w, rect.h, theme.SELECT, 10, 2)
        r = rect.h * 0.3
        px, cy = rect.x + r + rect.h * 0.22, rect.center[1]
        board_view.piece(canvas, self.game.kind, r, px, cy, side)
        left = px + r * 1.8
        name_y, role_y = rect.y + rect.h * 0.32, rect.y + rect.h * 0.7
        canvas.text(SIDE_NAMES[side], left, name_y, line * 1.05, theme.TEXT, "left", bold=True)
        fitted_text(canvas, self._role(side), left, role_y, rect.right - left - 8, line * 0.82,
                    theme.TEXT_DIM, anchor="left")
        right = rect.right - 10
        if to_move and match.thinking == side:
            spinner(canvas, right - line * 0.5, name_y, line * 0.5, self.clock)
        else:
            count = self.game.count(match.position, side)
            canvas.text(f"{count} left", right, name_y, line * 0.85, theme.TEXT_DIM, "right")

    def _role(self, side: int) -> str:
        """Return who plays ``side``: 'You', 'Human', the computer's level or, in a
        replay, the recorded player's name."""
        match = self.match
        player = match.players.get(side)
        if player is not None:
            return f"Computer · {player.name}"
        if match.replay is not None:
            return (match.replay.white, match.replay.black)[side]
        return "You" if self.mode == Mode.HVC else "Human"

    def _status(self, canvas: Canvas, rect: Rect, line: float) -> None:
        """Draw the status line, and the thinking detail or the CvC speed below it; a
        status too long for one line (a forfeit's reason) takes both lines instead."""
        match = self.match
        ink = theme.SELECT if match.over else theme.TEXT
        for size in (line, line * 0.9, line * 0.8, line * 0.72):  # two lines at one size
            first, rest = break_line(canvas, match.status_text, rect.w, size, match.over)
            if canvas.text_width(rest, size, match.over) <= rect.w:
                break
        fitted_text(canvas, first, rect.x, rect.y + line * 0.7, rect.w, size,
                    ink, anchor="left", bold=match.over)
        if rest:
            fitted_text(canvas, rest, rect.x, rect.y + line * 1.9, rect.w, size, ink,
                        anchor="left", bold=match.over)
            return
        detail = ""
        if match.replay is not None:
            history = match.history
            detail = f"Replay: move {history.cursor} of {len(history.positions) - 1}"
        elif self.mode == Mode.CVC:
            detail = f"Speed: {self.settings.pace}" + ("  ·  paused" if match.paused else "")
        elif match.hint is not None:
            detail = "The blue arrow shows the suggested move"
            if match.hint_proof:
                detail += f": {match.hint_proof}"
        elif match.human_to_move and self.input.selected is None:
            detail = f"Click a piece, then a highlighted {self.game.info.cell_word}"
        fitted_text(canvas, detail, rect.x, rect.y + line * 1.9, rect.w, line * 0.82,
                    theme.TEXT_DIM, anchor="left")

    def _moves(self, canvas: Canvas, rect: Rect, line: float) -> None:
        """Draw the move list in notation, two plies a line, the current ply marked."""
        if rect.h < line * 2:
            return
        canvas.rect(rect.x, rect.y, rect.w, rect.h, theme.BACKGROUND, 8)
        size = line * 0.9
        step = size * 1.45
        rows = move_rows(self.match)
        visible = max(1, int((rect.h - step * 0.6) / step))
        current_row = max(0, (self.match.history.cursor - 1) // 2)
        first = max(0, min(current_row - visible + 2, len(rows) - visible))
        if not rows:
            canvas.text("No moves yet", rect.center[0], rect.center[1], size, theme.TEXT_FAINT)
            return
        col = rect.w / 12
        for i, (number, plies) in enumerate(rows[first:first + visible]):
            y = rect.y + step * (i + 0.8)
            canvas.text(f"{number}.", rect.x + col * 1.6, y, size, theme.TEXT_FAINT, "right")
            for j, (text, state) in enumerate(plies):
                x = rect.x + col * (2.3 + j * 4.6)
                if state == "current":
                    canvas.rect(x - 4, y - step / 2 + 1, col * 4.3, step - 2, theme.CARD, 5)
                ink = {"past": theme.TEXT, "current": theme.SELECT, "future": theme.TEXT_FAINT}
                canvas.text(text, x, y, size, ink[state], "left", bold=state == "current")


def move_rows(match: Match) -> list[tuple[int, list[tuple[str, str]]]]:
    """Return the move list: (move number, [(ply text, 'past'|'current'|'future')...]).

    White always moves first, so ply i belongs to move i // 2 + 1; plies after the
    cursor (taken back, can be redone) are 'future'.
    """
    game, history = match.game, match.history
    rows: list[tuple[int, list[tuple[str, str]]]] = []
    for ply, (before, after) in enumerate(history.pairs()):
        text = game.move_text(game.move_between(before, after))
        state = ("current" if ply == history.cursor - 1 else
                 "past" if ply < history.cursor else "future")
        if ply % 2 == 0:
            rows.append((ply // 2 + 1, []))
        rows[-1][1].append((text, state))
    return rows


def banner_rect(board: BoardLayout, width: float) -> Rect:
    """Return where the game-over banner lies: across the middle of the board.

    Args:
        board: the board's layout.
        width: the window's width (the banner stays inside it).

    Returns:
        The banner's rectangle (screenshot tests skip the cells it hides).
    """
    rect = board.rect
    cx, cy = rect.center
    w = min(max(rect.w * 1.05, 260.0), width - 8)
    h = max(90.0, min(150.0, rect.h * 0.3))
    return Rect(cx - w / 2, cy - h / 2, w, h)


def _backdrop(canvas: Canvas, board: BoardLayout, panel: Rect) -> None:
    """Paint what stays put during a game: background, empty board, panel card."""
    canvas.clear(theme.BACKGROUND)
    board_view.draw_board(canvas, board)
    card(canvas, panel, theme.PANEL, 14)


def _mode_text(settings: Settings) -> str:
    """Return a short label of the mode for the panel's title line."""
    if settings.mode == Mode.HVC:
        return f"you play {SIDE_NAMES[settings.human_side]}"
    return "computer vs computer" if settings.mode == Mode.CVC else "two players"
