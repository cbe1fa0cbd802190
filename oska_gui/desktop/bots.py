"""External ``oskaplayer`` bots as the computer of one side of the desktop game.

Only the desktop can run them: each bot runs in its own process (``external``), which the
browser does not have, so this lives here and the UI sees only its ``BotSource`` face.
The bot is opened by ``play.bot_loader`` as in every command (a file alone, or a folder).
One process per bot serves every game of the session; it starts at the bot's first move
(a bot that cannot load then forfeits that game, with the reason) and is stopped by
``close`` when the window closes.
"""

from __future__ import annotations

from oska_gui.bots.external import ExternalPlayer
from oska_gui.play.bot_loader import BotSpec, open_bot
from oska_gui.play.bot_player import BoardBotPlayer, bot_label
from oska_gui.play.game import GameAdapter

DEFAULT_DEPTH = 4  # plies the bot is asked to search, as in ``oska match``


class ExternalBot:
    """The ``BotSource`` of an external bot file: its label and its players."""

    def __init__(self, spec: BotSpec, time_limit: float, depth: int = DEFAULT_DEPTH) -> None:
        """Offer the bot at ``spec`` (nothing starts yet).

        Args:
            spec: the bot, as ``play.bot_loader.parse_bot`` read it.
            time_limit: seconds the bot may take per move before it forfeits.
            depth: the depth passed to its ``oskaplayer(board, player, depth)``.
        """
        self.spec = spec
        self.time_limit = time_limit
        self.depth = depth
        self.label = bot_label(spec.name)
        self._bot: ExternalPlayer | None = None

    def player(self, game: GameAdapter) -> BoardBotPlayer:
        """Return the bot as the player of a new game of ``game`` (an Oska board)."""
        if self._bot is None:
            self._bot = open_bot(self.spec, self.time_limit)
        return BoardBotPlayer(game, self._bot, self.depth)

    def close(self) -> None:
        """Stop the bot's process, if it runs (a later ``player`` opens the bot anew)."""
        if self._bot is not None:
            self._bot.close()
            self._bot = None
