"""The entrants of a tournament: bots (files or folders) and this project's AI at levels."""

from __future__ import annotations

from oska_gui.console.options import CliError
from oska_gui.console.table import plain

from .games import Entrant, read_ai, read_bot


def read_entrants(bots: list[str], ais: list[str]) -> list[Entrant]:
    """Return the entrants given on the command line, bots first, in the order given.

    Args:
        bots: bot specs, 'path/to/bot.py[:function]' or 'path/to/folder[:module.function]'.
        ais: this project's AI levels, as ``oska match --ai`` reads them.

    Returns:
        One Entrant per entrant. A name is shown as plain text everywhere (the console,
        the report, the database): a control character, or a byte of a file name that
        is not UTF-8, is written as its escape ('\\n', '\\udcff').

    Raises:
        CliError: a spec cannot be read, two entrants have the same name, or there
            are fewer than two entrants.
    """
    players = []
    for text in bots:
        name, bot = read_bot(text)
        players.append(Entrant(plain(name), bot=bot))
    players += [Entrant(read_ai(text), ai=text) for text in ais]
    names = [player.name for player in players]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise CliError(f"each entrant may play once; given more than once: {', '.join(twice)}")
    if len(players) < 2:
        raise CliError(f"a tournament needs at least two entrants (bots or --ai levels), "
                       f"got {len(players)}")
    return players


def identity(player: Entrant) -> str:
    """Return what decides how ``player`` plays: its name, and a bot's code hash (of a
    file's source, or of a folder's Python files).

    Game ids are made of it, so a bot that changed between runs plays its games again
    instead of reusing the old results.
    """
    if player.bot is None:
        return player.name
    return f"{player.name}@{player.bot.fingerprint}"
