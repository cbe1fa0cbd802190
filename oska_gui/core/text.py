"""Text that comes from outside the program made safe to show: printed on a terminal,
drawn in the window or the page, said by a screen reader.

Names and reasons from files and bots may hold anything a string can: control
characters (a terminal acts on ESC; pygame refuses NUL), lone surrogates (no UTF-8
encoder takes them), line breaks, bidirectional overrides, and megabytes of it. ``plain``
writes every such character as its Python escape, so it shows and harms nothing;
``drawable`` does the same and cuts what is too long for any screen; ``plain_lines``
keeps line breaks and tabs, for text of several lines such as a traceback.
"""

from __future__ import annotations

LINE_LIMIT = 500  # characters of one drawn text: more than a line of any window holds
PASSAGE_LIMIT = 4000  # characters of a text said or mirrored beside the canvas
ELLIPSIS = "…"


def plain(text: str) -> str:
    """Return ``text`` safe to print on a terminal.

    Args:
        text: any text, perhaps from a file or a bot.

    Returns:
        The text with every character that is not printable (control characters such
        as ESC, line breaks, bidirectional overrides, lone surrogates) written as its
        Python escape ('\\x1b', '\\n', '\\u202e', '\\ud800'), so it shows as one harmless
        line.
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
                   for ch in text)


def plain_lines(text: str) -> str:
    """Return ``text`` of several lines safe to print on a terminal, line by line.

    Args:
        text: any text, perhaps from a bot (the traceback of an error it raised).

    Returns:
        The text with its line breaks ('\\n') and tabs kept, and every other character
        that is not printable written as ``plain`` writes it (a carriage return, which
        would let a line overwrite another, as '\\r'; ESC as '\\x1b').
    """
    return "\n".join("\t".join(plain(part) for part in line.split("\t"))
                     for line in text.split("\n"))


def drawable(text: str, limit: int = LINE_LIMIT) -> str:
    """Return ``text`` as every front end can draw, measure, say and send it.

    Args:
        text: any text, perhaps from a file or a bot.
        limit: the most characters kept (at least 2).

    Returns:
        ``plain(text)`` cut to ``limit`` characters, its last one '…' when anything was
        cut. Only the first ``limit`` characters are looked at, so a text of megabytes
        costs no more than a short one; and ``drawable`` of its own answer is that
        answer, so text cut for laying out measures as it is drawn.
    """
    shown = plain(text[:limit])
    if len(text) > limit or len(shown) > limit:
        return shown[:limit - 1] + ELLIPSIS
    return shown
