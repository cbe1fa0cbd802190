"""Plain-text tables for the console (a header, a rule and aligned columns).

Text made safe to print (``plain``: names and reasons that come from files or bots may
hold control characters, which must not reach the terminal) lives in ``core.text``, as
the window and the page need it too; the commands import it from here."""

from __future__ import annotations

import re
from collections.abc import Sequence

from oska_gui.core.text import plain as plain  # the commands print names with it

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
