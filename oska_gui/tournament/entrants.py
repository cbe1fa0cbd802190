"""The entrants of a tournament: bot files and this project's AI at given levels."""

from __future__ import annotations

import hashlib

from oska_gui.console.options import CliError

from .games import Entrant, read_ai, read_bot


def read_entrants(bots: list[str], ais: list[str]) -> list[Entrant]:
    """Return the entrants given on the command line, bots first, in the order given.

    Args:
        bots: bot specs, 'path/to/bot.py[:function]'.
        ais: this project's AI levels, as ``oska match --ai`` reads them.

    Returns:
        One Entrant per entrant.

    Raises:
        CliError: a spec cannot be read, two entrants have the same name, or there
            are fewer than two entrants.
    """
    players = []
    for text in bots:
        name, bot = read_bot(text)
        players.append(Entrant(name, bot=bot))
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
    """Return what decides how ``player`` plays: its name, and a bot's source hash.

    Game ids are made of it, so a bot file that changed between runs plays its games
    again instead of reusing the old results.
    """
    if player.bot is None:
        return player.name
    digest = hashlib.sha256(player.bot.source.encode("utf-8")).hexdigest()[:16]
    return f"{player.name}@{digest}"
