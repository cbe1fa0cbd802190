"""The start screen: choose game, board size, mode, colour, strengths and display.

The board size row lists the classic sizes and 'More'; choosing More turns the row into
a stepper over every size the rules support (Oska 4 to 24) at the smallest larger size,
so any size is a few arrow presses or clicks away, and stepping back to a classic size
lists them again. The row stays one row, so nothing else on the screen moves.

Every option is a row of choices (or a stepper for the strength levels) that works by
pointer and keyboard: up/down pick a row, left/right change it, Enter starts the game.
The rows depend on the choices already made (only computer sides get a strength).
Where games are kept, Games (G) opens the list of them (``games``).
With a game in progress (or saved by an earlier run) Enter resumes it and N starts a
new one (which the App asks about first), so a stray Enter never loses a game. An
external bot given on the command line is the last step of its side's strength stepper;
it plays Oska only, and the screen says so instead of starting it on Hexapawn.
The screen shows the App's settings and never changes them itself: ``handle`` returns
an intent for the App (``Choose`` new settings, or the ``Action`` start, resume, help
or quit) or None.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from oska_gui.engine.registry import GAMES, GameInfo, game_info
from oska_gui.play.game import make_game
from oska_gui.play.levels import LEVELS_BY_KEY, LevelKey, levels_for
from oska_gui.session.settings import Animation, Mode, Settings, with_side

from ..board.board_view import piece
from ..kit import theme
from ..kit.canvas import Canvas
from ..kit.events import Event, KeyPress, PointerDown, PointerMove
from ..kit.intents import Action, Choose, Intent
from ..kit.rect import Rect
from ..kit.still import StillScene
from ..kit.typescale import LINE, TypeScale, estimated_width, type_scale
from ..kit.widgets import BUTTON_PAD, Wording, button, card, fit_lines, keyed, text_lines
from .menu_layout import MenuLayout, MenuRow, menu_layout

MODE_LABELS = {Mode.HVC: "You vs computer", Mode.CVC: "Computer vs computer",
               Mode.HVH: "Two players"}
MODE_SHORT = {Mode.HVC: "Vs computer", Mode.CVC: "Computers", Mode.HVH: "2 players"}
SIDE_LABELS = ("White", "Black")
EVALUATOR_LABELS = {"strong": "Strong", "classic": "Classic",
                    "simple": "Simple", "race": "Race"}
BUTTON_LABELS: dict[Action, Wording] = {
    Action.START: "Start", Action.RESUME: "Resume", Action.HELP: "Help", Action.QUIT: "Quit",
    Action.OPEN: ("Open game", "Open"), Action.GAMES: "Games"}
NEW_LABEL = ("New game", "New")  # Start's label beside Resume
BUTTON_KEYS = {Action.START: "Enter", Action.RESUME: "Esc", Action.HELP: "?", Action.QUIT: "Q",
               Action.OPEN: "O", Action.GAMES: "G"}
RESUMING_KEYS = {Action.START: "N", Action.RESUME: "Enter"}  # with a game to resume
SUBTITLE = {False: ("Choose your game, then press Enter", "Choose, then press Enter"),
            True: ("Choose your game, then tap Start",)}
RESUME_SUBTITLE = {False: ("Enter resumes your game, N starts a new one",
                           "Enter resumes, N starts anew"),
                   True: ("Tap Resume to go on with your game",)}
BOT_OSKA_ONLY = ("External bots play Oska only: choose Oska, or a built-in strength "
                 "for Hexapawn")
BOT_OSKA_ONLY_SHORT = "Bots play Oska only"
MORE = "more"  # the board size choice that turns the row into a stepper over every size
MORE_NAMES: Wording = ("More sizes", "More")
SOUND_NAMES = ("Off", "On")
NO_SOUND = ("On: no sound device", "No sound device")  # sound on, but it cannot play


class Option(StrEnum):
    """A start-screen option: the setting it changes (levels and evaluators per side)."""

    KIND = "kind"
    N = "n"
    MODE = "mode"
    HUMAN_SIDE = "human_side"
    LEVEL = "levels"
    EVALUATOR = "evaluators"
    ANIMATION = "animation"
    COORDINATES = "coordinates"
    SOUND = "sound"


@dataclass(frozen=True)
class Row:
    """One option row: its ``key``, label, values and their names; ``side`` is the side
    (WHITE = 0, BLACK = 1) whose level or evaluator it sets, None for other options.

    A label or name is a ``Wording``: one text or several, the longest first, the
    shortest shown where space is short. ``keys`` gives the key that picks each value
    ('' for none), shown as a hint to keyboard users.
    """

    key: Option
    label: Wording
    values: tuple[Any, ...]
    names: tuple[Wording, ...]
    stepper: bool = False
    side: int | None = None
    keys: tuple[str, ...] = ()


def current_value(settings: Settings, row: Row) -> Any:
    """Return the value that option ``row`` shows in ``settings``."""
    value = getattr(settings, row.key)
    return value if row.side is None else value[row.side]


def choose(settings: Settings, key: Option, value: Any, side: int | None = None) -> Settings:
    """Return ``settings`` with option ``key`` (of ``side``, for a per-side option) set
    to ``value``, kept consistent.

    Changing the game picks the new game's classic size (``Settings.with_game``);
    choosing More as the size takes the smallest size larger than the classic ones; the
    rest is ``Settings.settled`` (sizes within bounds, 'perfect' only where it is at hand).
    """
    if side is not None and key == Option.LEVEL:
        return replace(settings, levels=with_side(settings.levels, side, value))
    if side is not None:
        return replace(settings, evaluators=with_side(settings.evaluators, side, value))
    if key == Option.KIND:
        return settings if value == settings.kind else settings.with_game(value)
    if key == Option.N and value == MORE:
        value = max(game_info(settings.kind).offered) + 1
    return replace(settings, **{key: value}).settled()


def offer_bots(settings: Settings, sides: Collection[int]) -> Settings:
    """Return ``settings`` ready for the external bots given for ``sides``.

    Each of those sides is played by its bot: the game becomes the first one bots can
    play (Oska) and the mode one in which the computer plays those sides. A side
    without a bot drops the bot level (saved by an earlier run that had one) for the
    default strength.
    """
    levels, default = settings.levels, Settings().levels
    for side in (0, 1):
        if side in sides:
            levels = with_side(levels, side, LevelKey.EXTERNAL)
        elif levels[side] == LevelKey.EXTERNAL:
            levels = with_side(levels, side, default[side])
    settings = replace(settings, levels=levels)
    if not sides:
        return settings
    bot_game = next(info.kind for info in GAMES.values() if info.external_bots)
    settings = choose(settings, Option.KIND, bot_game)
    if len(sides) == 2 or settings.mode == Mode.CVC:
        return replace(settings, mode=Mode.CVC)
    (side,) = sides
    return replace(settings, mode=Mode.HVC, human_side=1 - side)


def bot_problem(settings: Settings) -> str | None:
    """Return why ``settings`` cannot start (a bot chosen for Hexapawn), or None."""
    bot_chosen = any(settings.levels[side] == LevelKey.EXTERNAL
                     for side in settings.computer_sides())
    playable = game_info(settings.kind).external_bots
    return BOT_OSKA_ONLY if bot_chosen and not playable else None


def rows_for(settings: Settings, bots: Mapping[int, str] | None = None,
             sound_available: Callable[[], bool] = lambda: True) -> list[Row]:
    """Return the option rows to show for ``settings`` (they depend on the mode).

    Args:
        settings: the current choices.
        bots: the label of the external bot offered for a side, by side (none if None).
        sound_available: returns whether sound can play (asked only while sound is on,
            whose choice then says when there is no sound device).
    """
    bots = bots or {}
    game = make_game(settings.kind, settings.n)
    rows = [
        Row(Option.KIND, "Game", tuple(GAMES), tuple(info.title for info in GAMES.values())),
        _size_row(game.info, settings.n),
        Row(Option.MODE, "Mode", tuple(Mode), tuple((MODE_LABELS[m], MODE_SHORT[m])
                                                    for m in Mode)),
    ]
    if settings.mode == Mode.HVC:
        rows.append(Row(Option.HUMAN_SIDE, "You play", (0, 1),
                        (("White (moves first)", "White"), "Black")))
    levels = levels_for(game.perfect_available)
    evaluators = game.evaluator_names()
    for side in settings.computer_sides():
        who: Wording = ("Computer" if settings.mode == Mode.HVC
                        else (f"{SIDE_LABELS[side]} computer", SIDE_LABELS[side]))
        keys = [LevelKey(lv.key) for lv in levels]
        names: list[Wording] = [(f"{lv.name} · {lv.describe()}", lv.name) for lv in levels]
        if side in bots:
            keys.append(LevelKey.EXTERNAL)
            suffix = "" if game.info.external_bots else " (Oska only)"
            names.append((f"Bot · {bots[side]}{suffix}", "Bot"))
        rows.append(Row(Option.LEVEL, who, tuple(keys), tuple(names), stepper=True,
                        side=side))
        if len(evaluators) > 1 and settings.levels[side] != LevelKey.EXTERNAL:
            what: Wording = ("Evaluator" if settings.mode == Mode.HVC
                             else (f"{SIDE_LABELS[side]} evaluator", "Evaluator"))
            rows.append(Row(Option.EVALUATOR, what, evaluators,
                            tuple(EVALUATOR_LABELS.get(e, e.title()) for e in evaluators),
                            side=side))
    rows.append(Row(Option.ANIMATION, "Animation", tuple(Animation),
                    tuple(a.title() for a in Animation)))
    rows.append(Row(Option.COORDINATES, "Cell names", (False, True), ("Hidden", "Shown"),
                    keys=("", "C")))
    on = SOUND_NAMES[1] if not settings.sound or sound_available() else NO_SOUND
    rows.append(Row(Option.SOUND, "Sound", (False, True), (SOUND_NAMES[0], on),
                    keys=("", "V")))
    return rows


def _size_row(info: GameInfo, n: int) -> Row:
    """Return the board size row of game ``info`` with size ``n`` chosen: the classic
    sizes and More while ``n`` is one of them, else a stepper over every size."""
    classic = info.offered
    if n in classic:
        return Row(Option.N, "Board size", (*classic, MORE),
                   (*(str(size) for size in classic), MORE_NAMES))
    sizes = tuple(info.sizes)
    return Row(Option.N, "Board size", sizes, tuple(info.size_text(size) for size in sizes),
               stepper=True)


def most_rows(settings: Settings, bots: Mapping[int, str] | None = None) -> int:
    """Return the most option rows the start screen shows for any game and mode with
    the other choices of ``settings`` (the card is made that tall once and for all)."""
    return max(len(rows_for(choose(replace(settings, mode=mode), Option.KIND, kind), bots))
               for kind in GAMES for mode in Mode)


class StartScene(StillScene):
    """The start screen over the App's settings (``settings``, read through a source)."""

    def __init__(self, settings: Callable[[], Settings], width: float, height: float,
                 can_resume: bool = False, bots: Mapping[int, str] | None = None,
                 can_quit: bool = True, touch: Callable[[], bool] = lambda: False,
                 sound_available: Callable[[], bool] = lambda: True,
                 can_open: bool = False, can_list_games: bool = False) -> None:
        """Show the choices of ``settings`` in a ``width`` x ``height`` window.

        Args:
            settings: returns the current choices (the App's settings).
            width: the window width in pixels.
            height: the window height in pixels.
            can_resume: whether a game in progress can be resumed (Enter, Esc).
            bots: the label of the external bot offered for a side, by side.
            can_quit: whether to offer a Quit button (a web page cannot close itself).
            touch: returns whether the last input was a touch (big targets, tap
                wording, no key hints).
            sound_available: returns whether sound can play (no device: the screen
                says so).
            can_open: whether to offer an Open game button (the page: a record file
                to review).
            can_list_games: whether to offer the Games button (G): the kept games.
        """
        self._settings = settings
        self.sound_available = sound_available
        self.touch = touch
        self.bots = dict(bots or {})
        self.width, self.height = width, height
        self.can_resume = can_resume
        self.can_quit = can_quit
        self.can_open = can_open
        self.can_list_games = can_list_games
        self.focus = 0
        self.pointer = (-1.0, -1.0)

    @property
    def settings(self) -> Settings:
        """Return the choices shown: the App's current settings."""
        return self._settings()

    @property
    def rows(self) -> list[Row]:
        """Return the option rows for the current choices."""
        return rows_for(self.settings, self.bots, self.sound_available)

    @property
    def button_names(self) -> tuple[Action, ...]:
        """Return the buttons along the bottom (each is the action it asks for): Resume
        first when there is a game to resume, then Start, Games (where games are kept),
        Help, and Quit and Open game where offered."""
        games = (Action.GAMES,) if self.can_list_games else ()
        last = ((Action.QUIT,) if self.can_quit else ()) + (
            (Action.OPEN,) if self.can_open else ())
        if self.can_resume:
            return (Action.RESUME, Action.START, *games, Action.HELP, *last)
        return (Action.START, *games, Action.HELP, *last)

    @property
    def default(self) -> Action:
        """Return what Enter does: resume the game in progress if any, else start."""
        return Action.RESUME if self.can_resume else Action.START

    def layout(self) -> MenuLayout:
        """Return the layout of the start screen for the current window and rows."""
        rows = self.rows
        counts = [1 if row.stepper else len(row.values) for row in rows]
        size = type_scale(self.width, self.height).label
        needs = [_choice_needs(row, size, self.touch()) for row in rows]
        return menu_layout(self.width, self.height, counts, self.button_names,
                           most_rows(self.settings, self.bots), self.touch(), needs)

    @property
    def status_text(self) -> str:
        """Return the one-line status: what Enter (or a tap on Start) will start, or why
        it cannot; with a game to resume, that Enter (or Resume) resumes it."""
        s = self.settings
        problem = bot_problem(s)
        if problem is not None:
            return f"{problem}."
        bots = "".join(f" ({SIDE_LABELS[side]}: bot {self.bots[side]})"
                       for side in s.computer_sides() if s.levels[side] == LevelKey.EXTERNAL)
        title = game_info(s.kind).title
        chosen = f"{title} n = {s.n}, {MODE_LABELS[s.mode]}{bots}"
        if self.can_resume:
            how = ("Tap Resume to go on with it, or New game for a new one"
                   if self.touch() else "Press Enter to resume it, or N for a new one")
            return f"Start screen: a game is in progress. {how} ({chosen})."
        start = "Tap Start to begin." if self.touch() else "Press Enter to start."
        return f"Start screen: {chosen}. {start}"

    def focus_words(self) -> str:
        """Return the option row the keyboard is on in words, for screen readers: its
        label, its choice and where it is, e.g. 'Computer: Expert · 8 s a move, row 5
        of 9' (each in its longest wording)."""
        rows = self.rows
        index = min(self.focus, len(rows) - 1)
        row = rows[index]
        value = current_value(self.settings, row)
        name = row.names[row.values.index(value)] if value in row.values else ""
        return f"{_longest(row.label)}: {_longest(name)}, row {index + 1} of {len(rows)}"

    # -- input -------------------------------------------------------------------------

    def handle(self, event: Event) -> Intent | None:
        """Handle an input event; return what the App should do (see ``intents``) or None."""
        if isinstance(event, PointerMove):
            self.pointer = (event.x, event.y)
        elif isinstance(event, PointerDown):
            self.pointer = (event.x, event.y)
            return self._click(event.x, event.y)
        elif isinstance(event, KeyPress):
            return self._key(event.key)
        return None

    def clickable(self, x: float, y: float) -> bool:
        """Return True when a press at (x, y) would do something: a usable button or a
        choice (the front ends show a hand there)."""
        layout = self.layout()
        for action, rect in layout.buttons.items():
            if rect.contains(x, y):
                return action != Action.START or self._start() is not None
        return any(rect.contains(x, y) for row in layout.rows for rect in row.targets)

    def _click(self, x: float, y: float) -> Intent | None:
        """Act on a click at (x, y): a choice, a stepper arrow or a button."""
        layout = self.layout()
        for action, rect in layout.buttons.items():
            if rect.contains(x, y):
                return self._start() if action == Action.START else Action(action)
        for index, (row, laid) in enumerate(zip(self.rows, layout.rows, strict=True)):
            for choice, rect in enumerate(laid.targets):
                if rect.contains(x, y):
                    self.focus = index
                    return self._pick(row, choice, laid.stepper)
        return None

    def _pick(self, row: Row, choice: int, stepper: bool) -> Choose:
        """Return the settings after a click on choice ``choice`` of ``row`` (drawn as a
        stepper: 0 is its back half, 1 its forward half)."""
        if stepper:
            return self._step(row, 1 if choice else -1)
        return Choose(choose(self.settings, row.key, row.values[choice], row.side))

    def _step(self, row: Row, delta: int) -> Choose:
        """Return the settings with ``row``'s choice moved ``delta`` places (wrapping,
        except for the strength levels, which stop at the weakest and strongest)."""
        values = row.values
        value = current_value(self.settings, row)
        index = values.index(value) if value in values else 0
        if row.stepper:
            index = max(0, min(len(values) - 1, index + delta))
        else:
            index = (index + delta) % len(values)
        return Choose(choose(self.settings, row.key, values[index], row.side))

    def _start(self) -> Action | None:
        """Return START when the chosen game can start, else None (the screen says why)."""
        return Action.START if bot_problem(self.settings) is None else None

    def _key(self, key: str) -> Intent | None:
        """Act on a key: arrows move and change, Enter resumes the game in progress or
        else starts, N starts, Esc resumes, C cell names, V sound."""
        rows = self.rows
        if key in ("enter", "return"):
            return Action.RESUME if self.can_resume else self._start()
        if key == "n":
            return self._start()
        if key == "c":
            return Choose(replace(self.settings, coordinates=not self.settings.coordinates))
        if key == "v":
            return Choose(replace(self.settings, sound=not self.settings.sound))
        if key == "g" and self.can_list_games:
            return Action.GAMES
        if key == "escape":
            return Action.RESUME if self.can_resume else None
        if key in ("up", "down"):
            self.focus = (self.focus + (1 if key == "down" else -1)) % len(rows)
        elif key in ("left", "right"):
            self.focus = min(self.focus, len(rows) - 1)
            return self._step(rows[self.focus], 1 if key == "right" else -1)
        return None

    # -- drawing ---------------------------------------------------------------------------

    def draw(self, canvas: Canvas) -> None:
        """Paint the start screen."""
        canvas.clear(theme.BACKGROUND)
        layout = self.layout()
        scale = type_scale(self.width, self.height)
        card(canvas, layout.card, theme.PANEL, 16)
        self._title(canvas, layout, scale)
        rows = self.rows
        self.focus = min(self.focus, len(rows) - 1)
        for index, (row, laid) in enumerate(zip(rows, layout.rows, strict=True)):
            # the keyboard's focus is marked for keyboard and mouse users only
            self._row(canvas, row, laid, scale.label, index == self.focus and not self.touch())
        startable = self._start() is not None
        for name, rect in layout.buttons.items():
            action = Action(name)
            button(canvas, rect, self._keyed(*self._button_wording(action)),
                   scale.label, hover=self._hover(rect),
                   active=action == self.default, enabled=startable or action != Action.START)

    def _button_wording(self, action: Action) -> tuple[Wording, str]:
        """Return the label of ``action``'s button and the key it names: beside Resume,
        Start reads 'New game' (N) and Enter is Resume's key."""
        if not self.can_resume:
            return BUTTON_LABELS[action], BUTTON_KEYS[action]
        label = NEW_LABEL if action == Action.START else BUTTON_LABELS[action]
        return label, RESUMING_KEYS.get(action, BUTTON_KEYS[action])

    def _hover(self, rect: Rect) -> bool:
        """Return True when the mouse is over ``rect`` (a finger leaves no hover)."""
        return not self.touch() and rect.contains(*self.pointer)

    def _keyed(self, wording: Wording, key: str) -> tuple[str, ...]:
        """Return ``wording`` with ``key`` as a hint, unless the last input was a touch."""
        return keyed(wording, key, self.touch())

    def _title(self, canvas: Canvas, layout: MenuLayout, scale: TypeScale) -> None:
        """Draw the title with a white and a black piece, and the subtitle (or why the
        choices cannot start)."""
        rect = layout.title
        cx, cy = rect.center
        title = game_info(self.settings.kind).title
        canvas.text(title, cx, cy, scale.title, theme.TEXT, bold=True)
        half = canvas.text_width(title, scale.title, True) / 2
        r = scale.title * 0.3
        kind = self.settings.kind
        piece(canvas, kind, r, cx - half - r * 2.2, cy, 0)
        piece(canvas, kind, r, cx + half + r * 2.2, cy, 1)
        sub = layout.subtitle
        if sub.h <= 0:
            return
        problem = bot_problem(self.settings)
        subtitles = RESUME_SUBTITLE if self.can_resume else SUBTITLE
        wording = subtitles[self.touch()] if problem is None else (problem, BOT_OSKA_ONLY_SHORT)
        lines = fit_lines(canvas, wording, sub.w, scale.body, 1, problem is not None)
        text_lines(canvas, lines[:1], *sub.center, scale.body,
                   theme.TEXT_DIM if problem is None else theme.TEXT_ERROR,
                   bold=problem is not None)

    def _row(self, canvas: Canvas, row: Row, laid: MenuRow, size: float,
             focused: bool) -> None:
        """Draw one option row at text ``size``: its label and its choices (or stepper)."""
        label = laid.label
        ink = theme.SELECT if focused else theme.TEXT_DIM
        if focused:
            canvas.circle(label.x + 3, label.center[1], 3, theme.SELECT)
        lines = fit_lines(canvas, row.label, label.w - 12, size, _lines_in(label.h, size),
                          focused)
        text_lines(canvas, lines, label.x + 12, label.center[1], size, ink, "left", focused)
        value = current_value(self.settings, row)
        if laid.stepper:
            self._stepper(canvas, row, laid, size, value)
            return
        keys = row.keys or ("",) * len(row.values)
        for rect, val, name, key in zip(laid.choices, row.values, row.names, keys, strict=True):
            button(canvas, rect, self._keyed(name, key), size,
                   hover=self._hover(rect), active=val == value)

    def _stepper(self, canvas: Canvas, row: Row, laid: MenuRow, size: float,
                 value: Any) -> None:
        """Draw a stepper: back arrow, the current choice, forward arrow (an arrow lights
        up while the pointer is over its half of the stepper)."""
        back, middle, on = laid.choices
        back_half, on_half = laid.targets
        index = row.values.index(value) if value in row.values else 0
        button(canvas, back, "‹", size * 1.3, hover=self._hover(back_half),
               enabled=index > 0 or not row.stepper)
        button(canvas, on, "›", size * 1.3, hover=self._hover(on_half),
               enabled=index < len(row.values) - 1 or not row.stepper)
        canvas.rect(middle.x, middle.y, middle.w, middle.h, theme.CARD, min(8, middle.h / 2))
        level = LEVELS_BY_KEY.get(value)
        strong = level is not None and level.key in (LevelKey.STRONGEST, LevelKey.PERFECT)
        keys = row.keys or ("",) * len(row.values)
        lines = fit_lines(canvas, self._keyed(row.names[index], keys[index]), middle.w - 10,
                          size, _lines_in(middle.h, size), strong)
        text_lines(canvas, lines, *middle.center, size, theme.TEXT, bold=strong)


def _choice_needs(row: Row, size: float, touch: bool) -> tuple[float, float]:
    """Return the width a choice of ``row`` needs at text ``size`` to show its shortest
    name on one line, and wrapped at spaces (estimated: see ``estimated_width``)."""
    def width(text: str) -> float:
        """Return the estimated width of ``text`` with a button's padding."""
        return estimated_width(text, size) + BUTTON_PAD

    shortest = [name if isinstance(name, str) else name[-1] for name in row.names]
    keys = row.keys or ("",) * len(shortest)
    hinted = [f"{name}  ({key})" if key and not touch else name
              for name, key in zip(shortest, keys, strict=True)]
    one_line = max(width(name) for name in hinted)
    return one_line, max(width(word) for name in hinted for word in name.split())


def _longest(wording: Wording) -> str:
    """Return the longest (first) text of ``wording``."""
    return wording if isinstance(wording, str) else wording[0]


def _lines_in(height: float, size: float) -> int:
    """Return how many lines of text ``size`` fit ``height`` pixels (at least one)."""
    return max(1, int(height / (size * LINE)))
