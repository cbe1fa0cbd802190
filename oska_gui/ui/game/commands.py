"""The game screen's commands: what its buttons and shortcut keys do, and when.

A ``Command`` is one thing a player can ask of a game in progress; ``KEYS`` maps keys
to commands, ``buttons_for`` says which buttons the panel shows (``button_count`` how
many: the layout keeps room for that many, and no count is kept anywhere else),
``LABELS`` what they read (``HINT_KEYS`` the key named beside, for keyboard users) and
``enabled`` whether one can be used now. Commands in ``APP_ACTIONS`` are carried out by
the App (``intents.Action``). Review takes the place of Hint (of Slower
in computer vs computer) once the game is over, and in a replay (``reviewable``).
"""

from __future__ import annotations

from enum import StrEnum

from oska_gui.session.match import Match
from oska_gui.session.settings import Mode

from ..kit.intents import Action


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
    FLIP = "flip"
    REVIEW = "review"


BUTTONS = {
    Mode.HVC: (Command.UNDO, Command.REDO, Command.HINT, Command.FLIP, Command.NEW,
               Command.MENU, Command.HELP),
    Mode.CVC: (Command.PAUSE, Command.STEP, Command.SLOWER, Command.FASTER, Command.UNDO,
               Command.REDO, Command.NEW, Command.MENU, Command.HELP, Command.QUIT),
}
LABELS: dict[Command, str | tuple[str, ...]] = {  # wordings, the longest first
    Command.UNDO: "Undo", Command.REDO: "Redo", Command.HINT: "Hint",
    Command.NEW: ("New game", "New"), Command.MENU: "Menu", Command.HELP: "Help",
    Command.PAUSE: "Pause", Command.RESUME: "Resume", Command.STEP: "Step",
    Command.SLOWER: "Slower", Command.FASTER: "Faster", Command.QUIT: "Quit",
    Command.REVIEW: "Review", Command.FLIP: "Flip",
}
HINT_KEYS = {  # the key a button's label names for keyboard users
    Command.UNDO: "U", Command.REDO: "R", Command.HINT: "H", Command.NEW: "N",
    Command.MENU: "M", Command.HELP: "?", Command.PAUSE: "Space", Command.RESUME: "Space",
    Command.STEP: "S", Command.SLOWER: "-", Command.FASTER: "+", Command.QUIT: "Q",
    Command.REVIEW: "E", Command.FLIP: "F",
}
KEYS = {
    "u": Command.UNDO, "backspace": Command.UNDO, "r": Command.REDO,
    "h": Command.HINT, "space": Command.PAUSE, "p": Command.PAUSE,
    "s": Command.STEP, ".": Command.STEP, "+": Command.FASTER, "=": Command.FASTER,
    "-": Command.SLOWER, "n": Command.NEW, "m": Command.MENU, "a": Command.ANIMATION,
    "c": Command.COORDINATES, "v": Command.SOUND, "f": Command.FLIP, "e": Command.REVIEW,
}
# In a replay the arrows step through the record (elsewhere they move the cursor).
REPLAY_KEYS = {"left": Command.UNDO, "right": Command.REDO}
APP_ACTIONS = {Command.NEW: Action.NEW, Command.MENU: Action.MENU, Command.HELP: Action.HELP,
               Command.QUIT: Action.QUIT, Command.REVIEW: Action.REVIEW}
REVIEW_REPLACES = (Command.HINT, Command.SLOWER)  # little use once the game is over


def buttons_for(mode: Mode, can_quit: bool, paused: bool,
                review: bool = False) -> tuple[Command, ...]:
    """Return the panel's buttons, in reading order.

    Args:
        mode: who plays the game (computer vs computer has the pace controls).
        can_quit: whether the program may quit (a web page cannot).
        paused: whether the game is paused (Pause then reads Resume).
        review: whether the game can be reviewed (Review then replaces Hint or Slower).

    Returns:
        The buttons' commands.
    """
    names = BUTTONS.get(mode, BUTTONS[Mode.HVC])
    if not can_quit:
        names = tuple(name for name in names if name != Command.QUIT)
    if paused:
        names = tuple(Command.RESUME if name == Command.PAUSE else name for name in names)
    if review:
        names = tuple(Command.REVIEW if name in REVIEW_REPLACES else name for name in names)
    return names


def button_count(mode: Mode = Mode.HVC, can_quit: bool = True) -> int:
    """Return how many buttons the panel shows in a ``mode`` game: the room the layout
    keeps for them (pausing and the review swap a button, never add one).

    Args:
        mode: who plays the game (computer vs computer has the pace controls).
        can_quit: whether the program may quit (a web page cannot).

    Returns:
        The length of ``buttons_for``'s list.
    """
    return len(buttons_for(mode, can_quit, paused=False))


def reviewable(match: Match) -> bool:
    """Return True when ``match`` can be reviewed: a replay with moves, or a game that
    is over with a move played."""
    if match.replay is not None:
        return bool(match.replay.moves)
    return match.over and match.history.cursor > 0


def enabled(match: Match, command: Command) -> bool:
    """Return whether ``command``'s button can be used now in ``match``."""
    if command == Command.UNDO:
        return match.can_undo()
    if command == Command.REDO:
        return match.can_redo()
    if command == Command.HINT:
        return match.human_to_move and match.hint is None
    if command in (Command.STEP, Command.PAUSE, Command.RESUME):
        return not match.over
    if command == Command.REVIEW:
        return reviewable(match)
    return True
