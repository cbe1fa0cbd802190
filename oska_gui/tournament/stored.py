"""Reading a stored game back: which rows of the games table can be trusted.

A row is one finished game: its columns (who played, who won, how, how long) and its
record (the whole game as JSON text, ``play.records``), written together by
``Store.add``; the columns say in short what the record says in full. A row is read
back only when its record is a legal finished game and its columns agree with it.
Anything else (text that is not UTF-8, a record that is not JSON or not a legal game, a
column edited or flipped: a winner of 7, plies 'many', seconds that are words) makes the
row unreadable, with the first disagreement as the reason: the tournament names it and
plays its game again, which replaces the row. Nothing in such a row reaches the
standings, the report or a review.

The check replays the record (about a millisecond a game at n = 4), so each row also
keeps a checksum of its values as written (``digest``): a row that still matches it is
exactly as this program stored it after a game, and is read without the check. A row
without one (written before schema version 3) gets it once it passes.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any

from oska_gui.console.table import plain

from .games import recorded_result
from .result import GameResult, MoveTimes

# A record keeps each move's time rounded to 6 decimals (play.records): the row's sums
# and longest move, taken before the rounding, may differ from the record's by this much
# a move, and by nothing more.
ROUNDING_SECONDS = 1e-6
SHOWN = 60  # characters of a damaged value shown in a reason


def digest(values: tuple[Any, ...]) -> str:
    """Return the checksum of a game row's values (``store.COLUMNS`` and the record) as
    ``Store.add`` writes them and SQLite gives them back: any change to any value, a
    bit of a time included, changes it (32 hex digits)."""
    return hashlib.blake2b(repr(values).encode("utf-8"), digest_size=16).hexdigest()


class Unreadable(Exception):
    """A stored game's row that cannot be used (the message says why)."""


def read_row(row: tuple[Any, ...]) -> GameResult:
    """Return the result a stored game's row holds, once it agrees with its record.

    Args:
        row: the values of ``store.COLUMNS`` and then the record, as SQLite gave them
            (text that is not UTF-8 comes as bytes).

    Raises:
        Unreadable: the record is not a finished legal game, or a column is not what
            the record says.
    """
    game_id, white, black, winner, reason, forfeit, plies = row[:7]
    record = row[13]
    if not isinstance(record, str | bytes):
        raise Unreadable(f"its record is {_shown(record)}, not text")
    try:
        truth = recorded_result(game_id, record)
    except ValueError as error:  # RecordError: not JSON, an illegal move...
        raise Unreadable(str(error)) from None
    for name, value, recorded in (("white", white, truth.white),
                                  ("black", black, truth.black),
                                  ("winner", winner, truth.winner),
                                  ("forfeit", forfeit, truth.forfeit),
                                  ("plies", plies, truth.plies)):
        if type(value) is not type(recorded) or value != recorded:
            raise Unreadable(f"its {name} is {_shown(value)}, its record says "
                             f"{_shown(recorded)}")
    # Databases before the reason was made plain (commit 4972aaf) hold the bot's words
    # as they were: the same reason once printed.
    if not isinstance(reason, str) or plain(reason) != truth.reason:
        raise Unreadable(f"its reason is {_shown(reason)}, its record says "
                         f"{_shown(truth.reason)}")
    times = (_times("white", row[7:10], truth.white_times),
             _times("black", row[10:13], truth.black_times))
    return GameResult(game_id, white, black, winner, reason, forfeit, plies, *times)


def _times(side: str, values: tuple[Any, ...], recorded: MoveTimes) -> MoveTimes:
    """Return one side's stored times (moves, total, longest) once they agree with the
    record's, within its rounding; raises Unreadable naming the first that does not."""
    moves, total, longest = values
    if type(moves) is not int or moves != recorded.moves:
        raise Unreadable(f"its {side}_moves is {_shown(moves)}, its record says "
                         f"{recorded.moves}")
    for name, value, expected in (("seconds", total, recorded.total),
                                  ("longest", longest, recorded.longest)):
        if not (isinstance(value, int | float) and math.isfinite(value)
                and abs(value - expected) <= ROUNDING_SECONDS * (moves + 1)):
            raise Unreadable(f"its {side}_{name} is {_shown(value)}, its record says "
                             f"{expected:.6f}")
    return MoveTimes(moves, float(total), float(longest))


def _shown(value: object) -> str:
    """Return ``value`` as a reason shows it: its repr, cut short, printable."""
    text = repr(value)
    return plain(text if len(text) <= SHOWN else text[:SHOWN - 3] + "...")
