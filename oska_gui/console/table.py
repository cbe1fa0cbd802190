"""Plain-text tables for the console (a header, a rule and aligned columns), and text
made safe to print: names and reasons that come from files or bots may hold control
characters, which must not reach the terminal."""

from __future__ import annotations

import re
from collections.abc import Sequence

NUMBER = re.compile(r"[+-]?[\d,]*\.?\d+|-")


def render_table(headers: Sequence[str], rows: Sequence[Sequence[object]],
                 title: str | None = None) -> str:
    """Return ``rows`` under ``headers`` as aligned text columns.

    Columns of numbers (also numbers already formatted as text, and '-' for none) are
    right-aligned, the others left-aligned; floats show three decimals. A ``title``
    line goes on top when given.

    Args:
        headers: the column names.
        rows: the rows, each with one value per column.
        title: an optional line above the table.

    Returns:
        The table as lines joined by newlines (no trailing newline).
    """
    headers = [plain(header) for header in headers]
    cells = [[plain(_text(value)) for value in row] for row in rows]
    numeric = [all(NUMBER.fullmatch(row[i]) for row in cells) and bool(cells)
               for i in range(len(headers))]
    widths = [max([len(h)] + [len(row[i]) for row in cells]) for i, h in enumerate(headers)]

    def line(values: Sequence[str]) -> str:
        """Return one row with every value padded to its column's width."""
        parts = (value.rjust(width) if right else value.ljust(width)
                 for value, width, right in zip(values, widths, numeric, strict=True))
        return "  ".join(parts).rstrip()

    out = [title] if title else []
    out += [line(list(headers)), line(["-" * width for width in widths])]
    out += [line(row) for row in cells]
    return "\n".join(out)


def seconds_text(seconds: float | None) -> str:
    """Return a time in seconds with four decimals (moves often take under a millisecond).

    Args:
        seconds: the time, or None for none.

    Returns:
        e.g. '0.0012', or '-' for None.
    """
    return "-" if seconds is None else f"{seconds:.4f}"


def plain(text: str) -> str:
    """Return ``text`` safe to print on a terminal.

    Args:
        text: any text, perhaps from a file or a bot.

    Returns:
        The text with every character that is not printable (control characters such
        as ESC, line breaks, bidirectional overrides) written as its Python escape
        ('\\x1b', '\\n', '\\u202e'), so it shows as one harmless line.
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
                   for ch in text)


def clip(text: str, width: int) -> str:
    """Return ``text`` cut to ``width`` characters, ending in '...' when cut."""
    return text if len(text) <= width else text[:width - 3].rstrip() + "..."


def _text(value: object) -> str:
    """Return a cell's text: floats with three decimals, None as '-'."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)
