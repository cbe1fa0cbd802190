"""External programs as players: any ``oskaplayer``-style bot behind request / poll.

A ``BoardBot`` is a bot answering ``oskaplayer(board, player, depth)`` asynchronously;
``bots.external.ExternalPlayer`` (a bot file in its own process) has this shape.
``BoardBotPlayer`` makes one a ``players.Player``: it sends the board once, looks for
the reply each slice and judges it (a board no legal move produces is a forfeit). In
the window it only looks (a frame must not wait); on the command line it waits up to
the slice. A ``BotSource`` offers such a bot for one side of the window's games
(``desktop.bots``). Nothing here starts a process, so the browser, which has none,
uses this module as it is.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any, Protocol

from oska_gui.bots.reasons import REASONS, LoadError

from .game import GameAdapter, Position
from .players import Player, Turn


class BoardBot(Protocol):
    """A bot answering ``oskaplayer(board, player, depth)`` asynchronously.

    ``poll()`` returns None while the bot thinks, then a reply with ``ok``, ``board``
    (row strings), ``reason`` (a short key), ``seconds`` (the bot's time) and
    ``summary`` (why it forfeits, in one line).
    """

    @property
    def name(self) -> str:
        """Return the bot's name: 'path/bot.py:function'."""

    def request(self, board: list[str], player: str, depth: int) -> None:
        """Ask for the bot's move."""

    def poll(self) -> Any:
        """Return the reply when it has come, else None (without waiting)."""

    def cancel(self) -> None:
        """Abandon the request in progress."""


class WaitingBot(BoardBot, Protocol):
    """A ``BoardBot`` that can also wait for its reply and holds a process."""

    def poll(self, wait: float = 0.0) -> Any:
        """Return the reply when it comes within ``wait`` seconds, else None."""

    def wait_ready(self) -> None:
        """Start the bot and wait until it has loaded; raises ``LoadError`` if it cannot."""

    def close(self) -> None:
        """Stop the bot's process."""


def bot_label(spec: str) -> str:
    """Return a short name of the bot 'path/to/bot.py:function'.

    Args:
        spec: the bot's file and function.

    Returns:
        'bot.py', or 'bot.py:function' when the function is not the usual 'oskaplayer'.
    """
    path, _, function = spec.rpartition(":")
    name = PurePath(path).name
    return name if function == "oskaplayer" else f"{name}:{function}"


def forfeit_sentence(reason: str, detail: str) -> str:
    """Return why a player forfeits as words for people.

    Args:
        reason: a short key ('timeout', 'illegal', ...; see ``bot_process.REASONS``).
        detail: one line on it ('' for none).

    Returns:
        e.g. 'raised an exception: ValueError: boom (bot.py, line 4)'.
    """
    words = REASONS.get(reason, reason)
    return f"{words}: {detail}" if detail else words


class BoardBotPlayer:
    """A player backed by a ``BoardBot`` (e.g. another person's oskaplayer file)."""

    def __init__(self, game: GameAdapter, bot: BoardBot, depth: int,
                 name: str | None = None) -> None:
        """Let ``bot`` play on ``game`` (an Oska board), asking it to search ``depth`` plies.

        Args:
            game: the game played.
            bot: the bot.
            depth: the depth passed on to the bot's function.
            name: the player's name (default 'bot bot.py').
        """
        self.game = game
        self.bot = bot
        self.depth = depth
        self.name = name or f"bot {bot_label(bot.name)}"
        self._asked: Position | None = None  # the position the bot was sent

    def think(self, position: Position, seconds: float) -> Turn | None:
        """Send ``position`` to the bot (once); return its Turn once it has answered.

        Args:
            position: the position to move in; another than the one asked about
                cancels that request and asks anew.
            seconds: the slice (see ``_reply``).

        Returns:
            The Turn with the bot's move, or a forfeit with its reason and a line on
            why (an answer that is not a legal move too), or None while the bot thinks.
        """
        if position != self._asked:
            self.stop()
            self.bot.request(self.game.board_rows(position), "wb"[position[2]], self.depth)
            self._asked = position
        reply = self._reply(seconds)
        if reply is None:
            return None
        self._asked = None
        if not reply.ok:
            return Turn(None, reply.seconds, reply.reason, reply.summary)
        child = self._child_of(position, reply.board)
        if child is None:
            return Turn(None, reply.seconds, "illegal",
                        "it returned a board no legal move produces")
        return Turn(child, reply.seconds)

    def _reply(self, seconds: float) -> Any:
        """Return the bot's reply if it has come, else None, without waiting (a frame).

        Args:
            seconds: unused: the window's frame must not wait for the bot.
        """
        del seconds
        return self.bot.poll()

    def _child_of(self, position: Position, rows: list[str]) -> Position | None:
        """Return the child of ``position`` whose board is ``rows``, or None.

        A forced pass counts: its board is the unchanged one, the answer a bot gives
        when it has no move.
        """
        for child in self.game.children(position):
            if self.game.board_rows(child) == list(rows):
                return child
        return None

    @property
    def status(self) -> str:
        """Return 'waiting for the bot' while a request is open, else ''."""
        return "waiting for the bot" if self._asked is not None else ""

    def stop(self) -> None:
        """Cancel the open request, if any."""
        if self._asked is not None:
            self.bot.cancel()
            self._asked = None

    def close(self) -> None:
        """Cancel the open request; whoever made the bot stops its process."""
        self.stop()


class WaitingBotPlayer(BoardBotPlayer):
    """A bot player of the commands: waits up to a slice for the reply, and stops the
    bot's process when closed."""

    def __init__(self, game: GameAdapter, bot: WaitingBot, depth: int, name: str) -> None:
        """Let ``bot`` play on ``game``, asking it to search ``depth`` plies.

        Args:
            game: the game played.
            bot: the bot, whose process this player owns.
            depth: the depth passed on to the bot's function.
            name: the player's name for records and tables.
        """
        super().__init__(game, bot, depth, name)
        self.waiting = bot

    def _reply(self, seconds: float) -> Any:
        """Wait up to ``seconds`` for the bot's judged reply (nothing else needs the time)."""
        return self.waiting.poll(wait=seconds)

    def close(self) -> None:
        """Stop the bot's process."""
        self._asked = None
        self.waiting.close()


def started_bot(game: GameAdapter, bot: WaitingBot, depth: int, name: str) -> WaitingBotPlayer:
    """Start ``bot`` and return it as a player of the commands.

    Args:
        game: the game played.
        bot: the bot, not started yet.
        depth: the depth passed on to the bot's function.
        name: the player's name for records and tables.

    Returns:
        The player, its bot loaded.

    Raises:
        LoadError: the bot does not load (its process is stopped).
    """
    try:
        bot.wait_ready()
    except LoadError:
        bot.close()
        raise
    return WaitingBotPlayer(game, bot, depth, name)


class BotSource(Protocol):
    """An external bot offered for one side of the window's games (``desktop.bots``).

    ``label`` is its short name (see ``bot_label``) for the start screen.
    """

    label: str

    def player(self, game: GameAdapter) -> Player:
        """Return the bot as the player of a new game of ``game`` (Oska only)."""

    def close(self) -> None:
        """Stop whatever runs the bot (its process); ``player`` may start it again."""
