"""The players of command-line games: this project's AI and external bots, one interface.

A ``Mover`` is a ``runner.Player`` that may hold a process (``close``): asked to think
about a position for a slice of time, it returns a ``Turn`` once decided: the child
position chosen and the time taken, or, for an external bot, why it forfeits.

The AI is written as a short spec: ``4`` (depth 4), ``4:simple`` (depth 4, simple
evaluator), ``2.5s`` (2.5 seconds a move), or a level of the GUI (``hard``,
``expert:simple``, ``perfect``; see ``oska_gui.ui.players.LEVELS``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from oska_gui.bots.bot_process import CallResult, LoadError
from oska_gui.bots.external import ExternalPlayer
from oska_gui.core.types import Position
from oska_gui.engine.evaluators import EVALUATORS
from oska_gui.engine.registry import GameKind
from oska_gui.games.oska import OskaRules
from oska_gui.play.runner import Player, Turn

from ..ui.games import make_game
from ..ui.players import LEVELS_BY_KEY, BoardBotPlayer, Level, SearchPlayer, make_player
from .common import CliError, finite_positive

DEFAULT_EVALUATOR = "strong"
AI_SPEC_HELP = f"""\
an AI is written as:
  DEPTH[:EVALUATOR]     search exactly DEPTH plies, e.g. 4 or 6:simple
  SECONDSs[:EVALUATOR]  think about SECONDS per move, e.g. 2s or 0.5s:strong
  LEVEL[:EVALUATOR]     a level of the GUI: {', '.join(list(LEVELS_BY_KEY)[:5])},
                        {', '.join(list(LEVELS_BY_KEY)[5:])}
  evaluators: {', '.join(sorted(EVALUATORS))}
"""


class Mover(Player, Protocol):
    """A player of command-line games: a runner Player that may hold a process."""

    name: str  # settable: a tournament names its players itself

    def close(self) -> None:
        """Release what the player holds (processes)."""


@dataclass(frozen=True)
class AiSpec:
    """How this project's AI plays: a depth, a time per move or a named level."""

    depth: int | None = None
    seconds: float | None = None
    level: str | None = None
    evaluator: str = DEFAULT_EVALUATOR

    def describe(self) -> str:
        """Return e.g. 'AI depth 4 (strong)', 'AI 2 s/move (strong)', 'AI level hard (strong)'."""
        if self.level is not None:
            how = f"level {self.level}"
        elif self.seconds is not None:
            how = f"{self.seconds:g} s/move"
        else:
            how = f"depth {self.depth}"
        return f"AI {how} ({self.evaluator})"


def parse_ai_spec(text: str, evaluator: str = DEFAULT_EVALUATOR) -> AiSpec:
    """Read an AI spec: 'DEPTH', 'SECONDSs' or 'LEVEL', each optionally ':EVALUATOR'.

    Args:
        text: the spec, e.g. '5', '5:simple', '1.5s', 'hard', 'expert:strong'.
        evaluator: the evaluator when the spec names none.

    Returns:
        The AiSpec.

    Raises:
        CliError: the spec cannot be read.
    """
    how, _, named = text.strip().lower().partition(":")
    evaluator = named or evaluator
    if evaluator not in EVALUATORS:
        raise CliError(f"unknown evaluator {evaluator!r:.80} in {text!r:.80}; "
                       f"choose one of {', '.join(sorted(EVALUATORS))}")
    if _is_positive_int(how):
        return AiSpec(depth=int(how), evaluator=evaluator)
    if how.endswith("s") and finite_positive(how[:-1]) is not None:
        return AiSpec(seconds=float(how[:-1]), evaluator=evaluator)
    if how in LEVELS_BY_KEY:
        return AiSpec(level=how, evaluator=evaluator)
    raise CliError(f"cannot read the AI {text!r:.80}: give a depth (4), a time per move (2s) "
                   f"or a level ({', '.join(LEVELS_BY_KEY)}), optionally ':evaluator'")


def _is_positive_int(text: str) -> bool:
    """Return True when ``text`` is an int >= 1 in ASCII digits (not '²', not 5,000 digits)."""
    try:
        return text.isascii() and text.isdigit() and int(text) >= 1
    except ValueError:  # more digits than int() reads
        return False


class AiMover:
    """This project's AI (the GUI's search player) as a command-line Mover (sliced)."""

    def __init__(self, spec: AiSpec, n: int) -> None:
        """Prepare the AI described by ``spec`` for board size ``n``."""
        self.name = spec.describe()
        game = make_game(GameKind.OSKA, n)
        if spec.level is not None:
            self.player = make_player(game, spec.level, spec.evaluator)
        else:
            level = Level("cli", self.name, depth=spec.depth or 64, seconds=spec.seconds)
            self.player = SearchPlayer(game, level, spec.evaluator)

    def think(self, position: Position, seconds: float) -> Turn | None:
        """Let the search player think about ``position`` for a slice (see SearchPlayer)."""
        return self.player.think(position, seconds)

    def stop(self) -> None:
        """Abandon the search in progress."""
        self.player.stop()

    def close(self) -> None:
        """Nothing to release."""


class BotMover(BoardBotPlayer):
    """An external ``oskaplayer`` file as a command-line Mover: the window's bot player,
    named by its spec, waiting up to a slice for the answer, a forfeit's why in one line."""

    def __init__(self, bot: ExternalPlayer, rules: OskaRules, depth: int) -> None:
        """Wrap ``bot``, asking it to search ``depth`` plies; raises CliError if it won't load.

        Args:
            bot: the bot, not started yet.
            rules: the rules of the board size played.
            depth: the depth passed on to the bot's ``oskaplayer``.
        """
        super().__init__(make_game(GameKind.OSKA, rules.n), bot, depth)
        self.external = bot
        self.name = bot.name
        try:
            bot.wait_ready()
        except LoadError as error:
            bot.close()
            raise CliError(str(error)) from None

    def _reply(self, seconds: float) -> CallResult | None:
        """Wait up to ``seconds`` for the bot's judged reply (nothing else needs the time)."""
        return self.external.poll(wait=seconds)

    def _why(self, reply: CallResult) -> str:
        """Return the forfeit's detail in one line, e.g. 'ValueError: boom (bot.py, line 4)'."""
        return reply.summary

    def close(self) -> None:
        """Stop the bot's process."""
        self._asked = None
        self.external.close()
