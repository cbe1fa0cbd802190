"""Share links: a game record carried in a page address, and read back with every check.

A share link is the page's address with the fragment ``#record=`` followed by the
base64url (no padding, RFC 4648 section 5) of a game record's UTF-8 JSON (the
``play.records`` format). The fragment never reaches a server: the page reads
``location.hash`` and hands it to ``record_from_fragment``, which checks it as a record
file opened from anyone is checked (``records.parse``: every move replayed, the result
agreeing with the final position) after cheap checks of its own: the fragment's length
(``MAX_FRAGMENT``), its alphabet and its base64 length. A link that fails any of them
raises ``ShareError`` with one line saying why, and the caller changes nothing.

A link is written compactly (``fragment``): no spaces in the JSON and without the move
times, which a replay does not need, so a 40-ply game on n = 5 takes about 800
characters. ``shared_words`` says what a link opened (players, result, length) as text
that is safe to show, since the names in a record are anyone's.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from dataclasses import replace

from oska_gui.core.text import drawable
from oska_gui.core.types import SIDE_NAMES
from oska_gui.engine.registry import game_info

from .records import Record, RecordError, parse

PREFIX = "record="  # the fragment's key, after the '#'
# Characters of the fragment's base64 (3 bytes of JSON in 4): about 190 kB of JSON,
# twice the longest real game (a few thousand plies at n = 24, moves only), and well
# inside the 2 MB that Chromium keeps of an address.
MAX_FRAGMENT = 256 * 1024
NAME_LIMIT = 60  # characters of a player's name in the words said about a link
BASE64URL = re.compile(r"[A-Za-z0-9_-]*")
SOURCE = "the link"  # how a record's problem names where it came from


class ShareError(RecordError):
    """A share link that does not hold a game record: damaged, too long or illegal."""


def fragment(record: Record) -> str:
    """Return the fragment (without '#') of ``record``'s share link.

    Args:
        record: the game, finished or in progress.

    Returns:
        'record=' and the base64url, unpadded, of the record's compact JSON (ASCII, so UTF-8)
        (its move times left out).
    """
    data = replace(record, seconds=()).to_json()
    text = json.dumps(data, separators=(",", ":"))  # ASCII: any name, even a lone surrogate
    encoded = base64.urlsafe_b64encode(text.encode("ascii"))
    return PREFIX + encoded.decode("ascii").rstrip("=")


def link(page: str, record: Record) -> str:
    """Return the share link of ``record`` on the page at address ``page``.

    Args:
        page: the page's address; any fragment it has is replaced.
        record: the game.

    Returns:
        The address, '#' and ``fragment(record)``.
    """
    return page.split("#", 1)[0] + "#" + fragment(record)


def is_share(hash_text: str) -> bool:
    """Return whether ``hash_text`` (a page's ``location.hash``, with or without its
    '#') is meant as a share link: it starts with 'record='."""
    return hash_text.removeprefix("#").startswith(PREFIX)


def record_from_fragment(hash_text: str) -> Record:
    """Return the game record in a share link's fragment.

    Args:
        hash_text: the page's ``location.hash`` ('#record=...'; the '#' is optional),
            from anyone.

    Returns:
        The record, its moves replayed and its result checked.

    Raises:
        ShareError: one line saying why the link holds no game (not a share link, too
            long, not base64url, not UTF-8 JSON, not a record, an illegal move...).
            The length is checked before anything is decoded.
    """
    text = hash_text.removeprefix("#")
    if not text.startswith(PREFIX):
        raise ShareError("not a share link (it should start with #record=)")
    payload = text.removeprefix(PREFIX)
    if len(payload) > MAX_FRAGMENT:
        raise ShareError(f"the link is too long ({len(payload):,} characters, "
                         f"at most {MAX_FRAGMENT:,})")
    if not payload:
        raise ShareError("the link holds no game (nothing after #record=)")
    if BASE64URL.fullmatch(payload) is None or len(payload) % 4 == 1:
        raise ShareError("the link is damaged (not base64url): was it cut or changed?")
    try:
        raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    except (binascii.Error, ValueError):
        raise ShareError("the link is damaged (not base64url): was it cut or changed?") \
            from None
    try:
        return parse(raw, SOURCE)
    except RecordError as error:
        message = " ".join(str(error).removeprefix(SOURCE + ": ").split())
        raise ShareError(f"the link holds no playable game: {message}") from None


def shared_words(record: Record) -> str:
    """Return what a share link opened, in words safe to show and say.

    Args:
        record: the game the link held (its names are anyone's).

    Returns:
        e.g. 'Shared game: Ann (White) vs Bob (Black), Oska n = 5, White won in 40
        moves', each name ``drawable`` and cut to ``NAME_LIMIT`` characters.
    """
    white, black = (drawable(name, NAME_LIMIT) or "nobody"
                    for name in (record.white, record.black))
    info = game_info(record.game)
    plies = len(record.moves)
    length = f"{plies} move{'' if plies == 1 else 's'}"
    ending = record.ending
    if ending is None:
        result = f"unfinished after {length}"
    elif ending.winner is None:
        result = f"a draw in {length}"
    else:
        result = f"{SIDE_NAMES[ending.winner]} won in {length}"
    return (f"Shared game: {white} (White) vs {black} (Black), "
            f"{info.title} {info.size_text(record.n)}, {result}")


def file_name(record: Record, kept: str = "") -> str:
    """Return a clear file name for ``record``, made of safe characters only (the
    players' names, which are anyone's, are left out).

    Args:
        record: the game.
        kept: when it was kept ('2025-03-12T14:05:09Z'), '' when unknown.

    Returns:
        e.g. 'oska-n5-2025-03-12-1405-white-won.json'.
    """
    when = re.sub(r"[^0-9]", "", kept)
    stamp = f"-{when[:4]}-{when[4:6]}-{when[6:8]}-{when[8:12]}" if len(when) >= 12 else ""
    result = {"white": "white-won", "black": "black-won", "draw": "draw",
              None: "unfinished"}[record.result]
    return f"{record.game.value}-n{record.n}{stamp}-{result}.json"
