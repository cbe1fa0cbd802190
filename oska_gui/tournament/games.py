"""Playing one tournament game: the only module that uses the game-playing API.

Everything the tournament needs from the rules, the players and the game records goes
through here (reading bot and AI specs, openings, playing a game, a record's final
board), so that a change of that API touches this file alone. ``play`` runs in a
worker process, local or on a cluster: it takes a plain ``GameTask`` and returns a
plain ``GameResult`` with the game record as JSON text, both picklable.

A bot is read and started by ``play.bot_loader``, exactly as in ``oska match``. A bot
given as a file or a zip travels inside the task as its bytes and is staged in a fresh
folder of its own on the worker, so a cluster's machines need no copy of the bots; a
bot given as a folder plays where it is on local processes, and travels packed as a zip
to a cluster (``command``). Each bot runs in its own process and is stopped when the
game ends.

An AI entrant of a level that uses the exact solver (strongest, perfect) reads its moves
from the board's solved game where ``oska solve --save`` kept one on the worker; the
game's record then names the sides that did in its own field ``SOLVED_FIELD`` (a
record's readers leave fields they do not know alone), so the stored games say which
results a solved game made. Depth and time entrants never read it.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from oska_gui.bots.reasons import REASONS as FORFEIT_REASONS
from oska_gui.bots.reasons import LoadError
from oska_gui.console.options import CliError, ai_option
from oska_gui.console.table import plain
from oska_gui.core.types import SIDE_WORDS, Position, Rules
from oska_gui.engine.registry import GameKind, game_info
from oska_gui.play import runner
from oska_gui.play.bot_loader import BotSpec, BotUnusable, bot_path, open_bot, parse_bot
from oska_gui.play.bot_player import started_bot
from oska_gui.play.game import make_game
from oska_gui.play.players import Player as GamePlayer
from oska_gui.play.players import Unloadable
from oska_gui.play.records import Record, RecordError, decode, from_json
from oska_gui.play.search_player import SearchPlayer, ai_player
from oska_gui.play.selfplay import random_opening

from .result import GameResult, MoveTimes

SOLVED_FIELD = "solved_file"  # the record's list of the sides that read a saved solved game

__all__ = ["FORFEIT_REASONS", "Conditions", "GameTask", "Entrant", "final_board", "opening_moves",
           "play", "read_ai", "read_bot", "record_text", "recorded_result"]


@dataclass(frozen=True)
class Entrant:
    """How an entrant plays: a bot (file, folder or zip), or this project's AI by its spec
    text; or, for a bot that was found but cannot be used, why (``unusable``: its games
    are forfeits as 'load'). ``twin`` counts the entrants before it with the same code.
    ``source`` is where a bot is (its file, folder or zip), usable or not: no output
    of the tournament may be written there."""

    name: str
    bot: BotSpec | None = None
    ai: str | None = None
    unusable: str | None = None
    twin: int = 0
    source: str | None = None


@dataclass(frozen=True)
class Conditions:
    """The settings every game of a tournament shares."""

    n: int
    depth: int  # the depth passed to the bots' oskaplayer
    time_limit: float  # seconds per bot move
    echo: bool = False  # show the bots' output on stderr (it does not change the game)


@dataclass(frozen=True)
class GameTask:
    """One game to play: its id, the two players, the opening moves and the conditions."""

    game_id: str
    white: Entrant
    black: Entrant
    opening: tuple[str, ...]
    conditions: Conditions


def read_bot(text: str, name: str | None = None) -> Entrant:
    """Read a bot given as text (``play.bot_loader.SPEC_FORMS``) as an entrant.

    Args:
        text: the bot as given.
        name: the entrant's name (default: the bot's, e.g. 'bots/a.py:oskaplayer').

    Returns:
        The entrant; one that cannot be used (``BotUnusable``: too big, unreadable, a
        broken zip) is still an entrant, whose games are forfeits as 'load'.

    Raises:
        CliError: there is no such bot, or the text is not a bot (a usage error).
    """
    try:
        bot = parse_bot(text)
    except BotUnusable as error:
        return Entrant(name or plain(text), unusable=str(error), source=bot_path(text))
    except ValueError as error:
        raise CliError(f"bot {text!r:.200}: {error}") from None
    return Entrant(name or bot.name, bot=bot, source=bot.path)


def read_ai(text: str) -> str:
    """Return the name of this project's AI given by ``text`` ('3', '2s', 'hard:simple').

    Raises CliError when the spec cannot be read.
    """
    return ai_option(text).describe()


def opening_moves(n: int, plies: int, seed: str) -> tuple[str, ...]:
    """Return ``plies`` random opening moves (fewer if a game would end) drawn from ``seed``."""
    rules = game_info(GameKind.OSKA).rules(n)
    line = random_opening(rules, plies, random.Random(seed))
    return tuple(rules.move_text(rules.move_between(a, b))
                 for a, b in zip(line, line[1:], strict=False))


def play(task: GameTask) -> tuple[GameResult, str]:
    """Play the game ``task`` describes to its end or a forfeit.

    Args:
        task: the game: players, opening and conditions.

    Returns:
        The result and the game's record as JSON text (loadable by ``main.py --replay``
        once saved to a file).
    """
    rules = game_info(GameKind.OSKA).rules(task.conditions.n)
    opening = _line_of(rules, task.opening)
    movers: list[GamePlayer] = []
    try:
        for player in (task.white, task.black):
            movers.append(_mover(player, task.conditions))
        record = runner.play(rules, movers, opening)
    finally:
        for mover in movers:
            mover.close()
    data = record.to_json()
    readers = [SIDE_WORDS[side] for side, mover in enumerate(movers)
               if isinstance(mover, SearchPlayer) and mover.saved_moves]
    if readers:
        data[SOLVED_FIELD] = readers
    return _result(task.game_id, record), json.dumps(data)


def final_board(record_json: str) -> str:
    """Return the picture of a game record's last position (where a forfeit happened)."""
    record = from_json(json.loads(record_json))
    return record.rules.picture(record.positions()[-1])


def record_text(record_json: str) -> str:
    """Return a stored game record (JSON text) as the text of its file, in the form
    ``main.py --replay`` reads."""
    return record_json + "\n"


def recorded_result(game_id: str, record: str | bytes) -> GameResult:
    """Return the result of game ``game_id`` as its stored record (JSON) gives it, the
    same as ``play`` returned with that record.

    Args:
        game_id: the game's id (records do not hold it).
        record: the record as the database gave it: text, or bytes when they are not
            UTF-8 (a damaged row).

    Raises:
        RecordError: the record is not a finished legal game (every check of
            ``play.records.parse``: size, UTF-8, JSON, fields, each move's legality);
            the message starts 'its record'.
    """
    data = decode(record.encode("utf-8") if isinstance(record, str) else record, "its record")
    try:
        parsed = from_json(data)
    except RecordError as error:
        raise RecordError(f"its record: {error}") from None
    if not parsed.finished:
        raise RecordError("its record is of a game in progress")
    return _result(game_id, parsed)


def _line_of(rules: Rules, moves: tuple[str, ...]) -> list[Position]:
    """Return the positions from the start through the opening ``moves``."""
    line = [rules.start()]
    for text in moves:
        line.append(rules.play(line[-1], rules.parse_move(text, line[-1])))
    return line


def _mover(player: Entrant, conditions: Conditions) -> GamePlayer:
    """Return the player of entrant ``player``; a bot is opened by ``play.bot_loader``.

    Records and forfeits name the entrant as it was given.
    """
    game = make_game(GameKind.OSKA, conditions.n)
    if player.unusable is not None:
        return Unloadable(player.name, player.unusable)
    if player.bot is None:
        assert player.ai is not None
        ai = ai_player(game, ai_option(player.ai))
        ai.name = player.name
        return ai
    try:
        external = open_bot(player.bot, conditions.time_limit, echo=conditions.echo)
        return started_bot(game, external, conditions.depth, player.name)
    except (ValueError, LoadError) as error:
        return Unloadable(player.name, str(error))


def _result(game_id: str, record: Record) -> GameResult:
    """Return the GameResult of a finished game's record; its reason as plain text (the
    record keeps the bot's words as they were, escaped in its JSON)."""
    times: tuple[list[float], list[float]] = ([], [])
    # Turns alternate in every game here (a pass is a move): the side of each time is
    # known without replaying the game (a forfeit's extra time is the next side's).
    for ply, seconds in enumerate(record.seconds):
        if seconds is not None:
            times[(record.start_turn + ply) % 2].append(seconds)
    return GameResult(game_id, record.white, record.black, record.outcome.winner,
                      plain(record.outcome.reason), record.forfeit, len(record.moves),
                      MoveTimes.of(times[0]), MoveTimes.of(times[1]))
