"""Numbers read from text people type (command lines, specs of the AI)."""

from __future__ import annotations

import math


def finite_positive(text: str) -> float | None:
    """Return ``text`` as a float if it reads as a finite number > 0, else None.

    Infinity and NaN are refused: a time limit of 'inf' would let a hung bot hang the
    command for good.

    Args:
        text: the text, e.g. '2.5'.

    Returns:
        The number, or None.
    """
    try:
        value = float(text)
    except ValueError:
        return None
    return value if 0 < value < math.inf else None
