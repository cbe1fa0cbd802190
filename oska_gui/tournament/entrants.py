"""The entrants of a tournament: bots (files, folders, zips) and this project's AI at levels."""

from __future__ import annotations

import os
from collections.abc import Collection
from dataclasses import replace

from oska_gui.console.options import CliError
from oska_gui.console.outputs import real
from oska_gui.console.table import plain
from oska_gui.play.bot_loader import BotFile

from .games import Entrant, read_ai, read_bot


def read_entrants(bots: list[str], ais: list[str], folder: str | None = None,
                  outputs: Collection[str] = ()) -> list[Entrant]:
    """Return the entrants given on the command line: bots, a folder's, then AI levels.

    Args:
        bots: bot specs (``play.bot_loader.SPEC_FORMS``).
        ais: this project's AI levels, as ``oska match --ai`` reads them.
        folder: a folder of submissions (``--bots DIR``): each Python file, folder and
            zip in it is an entrant named after it (see ``folder_entrants``).
        outputs: the tournament's own outputs (the report, its records folder, ...),
            resolved (``console.outputs.real``): never entrants, though in ``folder``.

    Returns:
        One Entrant per entrant. A name is shown as plain text everywhere (the console,
        the report, the database): a control character, or a byte of a file name that
        is not UTF-8, is written as its escape ('\\n', '\\udcff'). A bot that is there
        but cannot be used is an entrant whose games are 'load' forfeits.

    Raises:
        CliError: a spec names no bot or cannot be read as one, two entrants have the
            same name, or there are fewer than two entrants.
    """
    players = [read_bot(text) for text in bots]
    players = [replace(player, name=plain(player.name)) for player in players]
    if folder is not None:
        players += folder_entrants(folder, outputs)
    players += [Entrant(read_ai(text), ai=text) for text in ais]
    names = [player.name for player in players]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise CliError(f"each entrant may play once; given more than once: {', '.join(twice)}")
    if len(players) < 2:
        raise CliError(f"a tournament needs at least two entrants (bots or --ai levels), "
                       f"got {len(players)}")
    return number_twins(players)


def folder_entrants(folder: str, outputs: Collection[str] = ()) -> list[Entrant]:
    """Return an entrant for each submission in ``folder``, in name order.

    A submission is a Python file (``oskaplayer`` in it), a folder or a zip archive
    (``oskaplayer.oskaplayer`` in it); hidden entries, ``__pycache__`` and the
    tournament's own ``outputs`` (resolved paths: a report's records folder kept among
    the submissions would otherwise be an entrant on the next run) are not. Each is
    named after its entry ('alice.py', 'bob', 'carol.zip'); one that does not hold a
    bot where expected plays anyway and forfeits its games as 'load', with the reason.

    Raises:
        CliError: ``folder`` cannot be listed.
    """
    try:
        with os.scandir(folder) as scan:
            entries = sorted(scan, key=lambda entry: entry.name)
    except OSError as error:
        raise CliError(f"--bots {folder!r:.200}: cannot list it "
                       f"({error.strerror or error})") from None
    players = []
    for entry in entries:
        if entry.name.startswith(".") or entry.name == "__pycache__" or \
                real(entry.path) in outputs or not _submission(entry):
            continue
        name = plain(entry.name)
        try:
            players.append(read_bot(entry.path, name))
        except CliError as error:  # e.g. a folder without oskaplayer.py: it forfeits
            players.append(Entrant(name, unusable=str(error), source=entry.path))
    return players


def _submission(entry: os.DirEntry) -> bool:
    """Return True for a folder, a .py file or a .zip file (links followed)."""
    try:
        if entry.is_dir():
            return True
        return entry.is_file() and entry.name.lower().endswith((".py", ".zip"))
    except OSError:  # a link to nowhere: not a submission
        return False


def number_twins(players: list[Entrant]) -> list[Entrant]:
    """Return ``players`` with ``twin`` set: how many entrants before each have its code,
    so that two copies of one bot still play games of their own."""
    seen: dict[str, int] = {}
    numbered = []
    for player in players:
        code = _code(player)
        numbered.append(replace(player, twin=seen.get(code, 0)) if code else player)
        if code:
            seen[code] = seen.get(code, 0) + 1
    return numbered


def _code(player: Entrant) -> str:
    """Return what a bot entrant runs: its function and the hash of all its files ('' for
    an AI or an unusable bot)."""
    if player.bot is None:
        return ""
    call = (player.bot.function if isinstance(player.bot, BotFile)
            else f"{player.bot.module}.{player.bot.function}")
    return f"{call}@{player.bot.fingerprint}"


def identity(player: Entrant) -> str:
    """Return what decides how ``player`` plays, for the ids of its games.

    A bot: the function called and a hash of all its files (``bot_loader``), and which
    copy of that code it is: not its name or where it is, so a renamed or moved bot
    keeps its games, while a change to any of its files plays them again. The AI: its
    level's name. A bot that cannot be used: its name and why.
    """
    if player.bot is None:
        return player.name if player.unusable is None else \
            f"unusable:{player.name}:{player.unusable}"
    return f"bot:{_code(player)}" + (f"#{player.twin}" if player.twin else "")
