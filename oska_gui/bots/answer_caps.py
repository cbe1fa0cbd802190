"""Caps on what is read from a bot's process, set from the largest legal answer.

The bot's process is capped (2 GB of address space); the process that reads its answers
is not, so what it reads must be: a line of a gigabyte without a newline, or a hundred
megabytes of valid JSON, would otherwise cost the caller gigabytes before it judged a
thing. Both the length of a line and the JSON values in it (every comma and opening
bracket: what parsing turns into Python objects) are capped before it is parsed.

The largest legal answer is a move list of the largest board, n = 24: each of a side's
24 pieces has at most two steps and two jumps, so at most ``MOST_MOVES`` = 96 boards.
As the reply line that carries it, in row strings (the form bots are given), that
answer is 74,782 bytes with 4,422 JSON values. The caps are ``MARGIN`` = 16 times that:
1,196,512 bytes (``ANSWER_BYTES``) and 70,752 values (``ANSWER_VALUES``) an answer. The
same answer as lists of one-character strings (the other form bots return, which the
checks explain rather than refuse unread) is 295,006 bytes with 61,638 values: it fits
too. A batch reply may be as many times longer as it has calls (``BATCH_CALLS`` at
most: 9,572,096 bytes, ``LINE_BYTES``). Parsing an answer at the caps costs a few
megabytes (a full batch, tens), where the 1,000 MB line of a bot cost 2 GB before.

The caller enforces the caps on every line it reads (``bot_process``): a bot may write
to the protocol itself. The bot's host (``external_worker``) is told them too, so that
a result of millions of values is refused once the first of them are counted instead of
being written out whole first, and it cuts an exception's words (``MAX_DETAIL``), so a
bot that raises a gigabyte of text still raised an exception.
"""

from __future__ import annotations

import json

from oska_gui.games.oska import SIZES, row_lengths

MARGIN = 16
BATCH_CALLS = 8  # calls a batch may hold: its reply may be that many answers long


def most_moves(n: int) -> int:
    """Return a bound on the legal moves of a position of board size ``n``: each of a
    side's n pieces has at most two steps and two jumps."""
    return 4 * n


LARGEST_N = SIZES[-1]
MOST_MOVES = most_moves(LARGEST_N)


def values_in(text: str) -> int:
    """Return an upper bound on the JSON values in ``text``: a value other than the
    first of its list or object follows a comma, and a list or object opens with a
    bracket (commas and brackets inside strings count too: it is a bound)."""
    return text.count(",") + text.count("[") + text.count("{") + 1


def largest_answer(lists: bool = False) -> str:
    """Return the reply line carrying the largest legal answer: the ``MOST_MOVES`` boards
    of n = ``LARGEST_N``, as row strings, or with ``lists`` as lists of one-character
    strings."""
    rows = ["w" * length for length in row_lengths(LARGEST_N)]
    board: list = [list(row) for row in rows] if lists else rows
    return json.dumps({"id": 2**31, "status": "ok", "value": [board] * MOST_MOVES,
                       "seconds": 1 / 3, "mutated": False})


ANSWER_BYTES = MARGIN * len(largest_answer())
ANSWER_VALUES = MARGIN * values_in(largest_answer())
LINE_BYTES = BATCH_CALLS * ANSWER_BYTES  # the most the reader takes before a newline


def over_cap(line: str, calls: int) -> str:
    """Return why the reply ``line`` to ``calls`` calls is over the caps, or ''.

    Args:
        line: one line read from the bot's process (at most ``LINE_BYTES`` long).
        calls: the calls the reply answers (a batch's, else 1).
    """
    if len(line) > calls * ANSWER_BYTES:
        return (f"its answer is over {calls * ANSWER_BYTES:,} bytes, {MARGIN} times the "
                f"largest legal one (the {MOST_MOVES} moves of an n = {LARGEST_N} board)")
    values = values_in(line)
    if values > calls * ANSWER_VALUES:
        return (f"its answer holds over {calls * ANSWER_VALUES:,} JSON values ({values:,}), "
                f"{MARGIN} times the largest legal one (the {MOST_MOVES} moves of an "
                f"n = {LARGEST_N} board)")
    return ""


def too_long() -> str:
    """Return why a line that ran past ``LINE_BYTES`` without a newline was not read."""
    return (f"it wrote over {LINE_BYTES:,} bytes without ending its answer, more than "
            f"{BATCH_CALLS} of the largest legal answers")
