"""The games of a tournament: every pair, G games each, colours alternating.

Games 2k and 2k + 1 of every pair start from the same seeded random opening, once with
each entrant as White, and every pair gets the same openings, so no pair is luckier
than another. Opening k depends only on the seed and k, so a larger ``--games`` keeps
the games already played. The games are listed round by round (game 0 of every pair,
then game 1, ...), so an interrupted run has played every pair about equally often.

Each game has an id derived from its players (their names and bots' source), its
number within the pair and every setting that can change it: the store keys finished
games by it, and a rerun with the same settings finds them.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from itertools import combinations

from .entrants import identity
from .games import Conditions, Entrant, GameTask, opening_moves


@dataclass(frozen=True)
class TournamentPlan:
    """What a tournament plays: the conditions, games per pair and the openings."""

    conditions: Conditions
    games: int  # per pair (per pairing in a Swiss round)
    opening_plies: int
    seed: int


def schedule(players: list[Entrant], settings: TournamentPlan) -> list[GameTask]:
    """Return every game of the tournament, round by round.

    Args:
        players: the entrants (at least two).
        settings: games per pair, openings and the conditions of play.

    Returns:
        ``pairs * settings.games`` GameTasks; in game k of a pair (i, j), i < j, the
        entrant i has White when k is even.
    """
    pairs = list(combinations(players, 2))
    return [game_task(*((first, second) if game % 2 == 0 else (second, first)), game, settings)
            for game in range(settings.games) for first, second in pairs]


def game_task(white: Entrant, black: Entrant, game: int, settings: TournamentPlan) -> GameTask:
    """Return game number ``game`` of a pair, ``white`` against ``black``.

    Games 2k and 2k + 1 of a pair share opening k, drawn from the seed and k alone.
    """
    opening = opening_moves(settings.conditions.n, settings.opening_plies,
                            f"{settings.seed}/{game // 2}")
    return GameTask(game_id(white, black, game, opening, settings), white, black, opening,
                    settings.conditions)


def game_id(white: Entrant, black: Entrant, game: int, opening: tuple[str, ...],
            settings: TournamentPlan) -> str:
    """Return the id of a game: a hash of everything that decides how it is played.

    Args:
        white, black: the players.
        game: the game's number within its pair.
        opening: the opening moves.
        settings: the tournament's settings (the number of games per pair is left out).

    Returns:
        24 hexadecimal digits.
    """
    conditions = settings.conditions
    facts = [identity(white), identity(black), game, list(opening), conditions.n,
             conditions.depth, conditions.time_limit, settings.opening_plies, settings.seed]
    return hashlib.sha256(json.dumps(facts).encode("utf-8")).hexdigest()[:24]
