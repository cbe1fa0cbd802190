"""Playing one command-line game between two Movers, with forfeits and timing."""

from __future__ import annotations

from collections.abc import Callable

from oska_gui.core.types import SIDE_NAMES, Outcome, Position, Termination
from oska_gui.games.oska import OskaRules
from oska_gui.play.records import Record, from_positions

from .players import Mover, Turn

PlyHook = Callable[[int, Position, Position, Turn | None], None]


def play_game(rules: OskaRules, opening: list[Position], movers: tuple[Mover, Mover],
              on_ply: PlyHook | None = None) -> Record:
    """Play from the end of ``opening`` until the game is over or a player forfeits.

    Args:
        rules: the board size's rules.
        opening: the positions so far, from the start (random opening plies).
        movers: the White and the Black player.
        on_ply: called after each ply (opening plies included) with the ply number,
            the positions before and after and the Turn (None for opening plies).

    Returns:
        The game's Record; a forfeit makes the other side the winner.
    """
    line = list(opening)
    seconds: list[float | None] = [None] * (len(line) - 1)
    if on_ply is not None:
        for ply, (before, after) in enumerate(zip(line, line[1:], strict=False), start=1):
            on_ply(ply, before, after, None)
    names = (movers[0].name, movers[1].name)
    while (outcome := rules.outcome(line[-1])) is None:
        pos = line[-1]
        turn = movers[pos.turn].move(rules, pos)
        if turn.child is None:
            reason = f"{SIDE_NAMES[pos.turn]} forfeits: {turn.reason} ({turn.detail})"
            forfeit = Outcome(1 - pos.turn, reason, Termination.FORFEIT)
            return from_positions(line, rules.n, *names, forfeit,
                                  opening_plies=len(opening) - 1, forfeit=turn.reason,
                                  seconds=(*seconds, turn.seconds))
        line.append(turn.child)
        seconds.append(turn.seconds)
        if on_ply is not None:
            on_ply(len(line) - 1, pos, turn.child, turn)
    return from_positions(line, rules.n, *names, outcome,
                          opening_plies=len(opening) - 1, seconds=tuple(seconds))
