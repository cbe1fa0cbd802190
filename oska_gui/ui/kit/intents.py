"""What a scene asks of the App: typed intents returned by the scenes' event handlers.

Scenes never change the settings or switch screens themselves. ``handle`` returns an
``Action`` (start a game, resume, a new game, the menu, help, quit), a ``Choose`` with
the settings the player picked, an ``OpenKept`` with a kept game to replay, review or
continue, or None; the App, which owns the settings, carries it out.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from oska_gui.play.kept_games import KeptGame
from oska_gui.session.settings import Settings


class Action(StrEnum):
    """A change of screen or of the program's state that a scene asks for."""

    START = "start"  # a game with the chosen settings (start screen)
    RESUME = "resume"  # back to the game in progress
    NEW = "new"  # a new game with the current settings (game screen)
    MENU = "menu"  # the start screen
    HELP = "help"  # the help overlay
    REVIEW = "review"  # the review of the game on show (game screen)
    BACK = "back"  # from the review back to its game
    OPEN = "open"  # a record file to review (the page: its file picker)
    GAMES = "games"  # the Games screen: the kept games (start screen)
    QUIT = "quit"  # end the program (where it may)


@dataclass(frozen=True)
class Choose:
    """The player chose new settings: the App adopts and saves them."""

    settings: Settings


class Use(StrEnum):
    """What to do with a kept game (the Games screen)."""

    REPLAY = "replay"  # step through it from its start
    REVIEW = "review"  # its review, at the move chosen
    CONTINUE = "continue"  # play on from the move chosen
    SAVE = "save"  # its record written to a file (Save as, Download): the front end's
    LINK = "link"  # its share link put on the clipboard (Copy link): the front end's


@dataclass(frozen=True)
class OpenKept:
    """The player opened a kept game: ``use`` says how, ``ply`` at which move (0: its
    first position)."""

    game: KeptGame
    use: Use
    ply: int


Intent = Action | Choose | OpenKept
