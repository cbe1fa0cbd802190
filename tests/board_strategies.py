"""Hypothesis strategies for Oska boards, shared by the rules and spec-function tests."""

from __future__ import annotations

from hypothesis import strategies as st
from reference_oska import ref_board_from_cells, ref_row_lengths


@st.composite
def boards(draw: st.DrawFn, min_n: int = 4, max_n: int = 8) -> list[str]:
    """Draw an arbitrary string board: n in [min_n, max_n], up to n pieces per colour
    anywhere, at least one piece (the empty board is a special case tested on its own)."""
    n = draw(st.integers(min_n, max_n))
    size = sum(ref_row_lengths(n))
    white = draw(st.lists(st.integers(0, size - 1), unique=True, max_size=n))
    free = [c for c in range(size) if c not in white]
    black = draw(st.lists(st.sampled_from(free), unique=True, max_size=n))
    if not white and not black:
        white = [draw(st.integers(0, size - 1))]
    return ref_board_from_cells(n, white, black)
