"""The tournament's machine-readable result (``oska tournament --json FILE``), for graders.

The fields (version 1) are listed in ``tournament_document``; docs/tournaments.md lists
them too.
Names are written as the console shows them (plain text); numbers are plain JSON
numbers; nothing depends on the order games finished in.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from oska_gui.play.records import from_json

from .result import GameResult
from .schedule import TournamentPlan
from .standings import Standing, first_forfeits

JSON_FORMAT, JSON_VERSION = "oska-tournament", 1
WINNERS = {None: None, 0: "white", 1: "black"}


def tournament_document(settings: TournamentPlan, form: str, rounds: int | None,
                        lines: Sequence[Standing], results: Sequence[GameResult],
                        records: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """Return the tournament's result as JSON-ready data.

    Fields: ``format`` ('oska-tournament'), ``version`` (1); ``settings``: ``n``,
    ``depth``, ``time_limit``, ``games`` (a pair, or a pairing in a Swiss round),
    ``opening_plies``, ``seed``, ``format`` ('round-robin' or 'swiss'), ``rounds``
    (null for a round robin); ``standings``, best first, per entrant: ``rank``, ``name``,
    ``elo``, ``elo_low``, ``elo_high``, ``points``, ``buchholz`` (null outside Swiss),
    ``bye_points``, ``games``, ``wins``, ``losses``, ``draws``, ``forfeits`` ({reason:
    count}), ``first_forfeits`` (per reason the first such game: ``reason``, ``game``,
    ``detail``, ``board`` as row strings and ``to_move``, the board it forfeited on),
    ``mean_seconds`` and ``max_seconds`` a move (null when it never moved); ``games``, in
    schedule order: ``id``, ``white``, ``black``, ``winner`` ('white', 'black' or null for
    a draw), ``reason``, ``forfeit`` (the loser's forfeit reason, or null), ``plies``.

    Args:
        settings: what the tournament played.
        form: the format's name; ``rounds``: a Swiss tournament's rounds.
        lines: the standings, best first.
        results: every game, in schedule order.
        records: (game id, record JSON) of at least the games with a forfeit.
    """
    boards = forfeit_boards(results, records)
    firsts: dict[str, list[dict[str, Any]]] = {}
    for name, reason, game in first_forfeits(lines, results):
        firsts.setdefault(name, []).append({"reason": reason, "game": game.game_id,
                                            "detail": game.reason, **boards[game.game_id]})
    conditions = settings.conditions
    return {
        "format": JSON_FORMAT, "version": JSON_VERSION,
        "settings": {"n": conditions.n, "depth": conditions.depth,
                     "time_limit": conditions.time_limit, "games": settings.games,
                     "opening_plies": settings.opening_plies, "seed": settings.seed,
                     "format": form, "rounds": rounds},
        "standings": [standing_document(rank, line, firsts.get(line.name, []))
                      for rank, line in enumerate(lines, start=1)],
        "games": [{"id": game.game_id, "white": game.white, "black": game.black,
                   "winner": WINNERS[game.winner], "reason": game.reason,
                   "forfeit": game.forfeit, "plies": game.plies} for game in results],
    }


def standing_document(rank: int, line: Standing, firsts: list[dict[str, Any]]
                      ) -> dict[str, Any]:
    """Return one entrant's standing (see ``tournament_document``)."""
    return {"rank": rank, "name": line.name, "elo": round(line.rating.elo, 1),
            "elo_low": round(line.rating.low, 1), "elo_high": round(line.rating.high, 1),
            "points": line.points, "buchholz": line.buchholz, "bye_points": line.bye_points,
            "games": line.games, "wins": line.wins, "losses": line.losses,
            "draws": line.draws, "forfeits": dict(sorted(line.forfeits.items())),
            "first_forfeits": firsts, "mean_seconds": line.mean_seconds,
            "max_seconds": line.longest if line.moves else None}


def forfeit_boards(results: Sequence[GameResult], records: Iterable[tuple[str, str]]
                   ) -> dict[str, dict[str, Any]]:
    """Return, per game with a forfeit, its last board as row strings and the side to move."""
    forfeited = {result.game_id for result in results if result.forfeit is not None}
    boards = {}
    for game_id, text in records:
        if game_id in forfeited:
            record = from_json(json.loads(text))
            last = record.positions()[-1]
            boards[game_id] = {"board": record.rules.to_rows(last),
                               "to_move": "wb"[last.turn]}
    return boards
