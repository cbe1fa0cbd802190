"""Pattern windows: indices against a slow reading of the board, and their symmetries.

The fast ``PatternSpace.indices`` reads each window with one table lookup per side;
here every index is rebuilt cell by cell from the rules' own row lists, in the mover's
view (rows from the mover's home row, each read left to right).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_evaluators import SETTINGS, colour_mirror, positions, side_mirror

from oska_gui.engine.learned import shipped_models
from oska_gui.engine.patterns import Window, bands, pattern_space
from oska_gui.games.oska import WHITE, OskaRules, Position, oska_rules

SIZES = (4, 5, 6)  # a window's lookup table has 2 ** cells entries: small boards only


def slow_indices(rules: OskaRules, pos: Position, windows: tuple) -> tuple[int, ...]:
    """Return every window's index of ``pos``, read cell by cell from its row texts."""
    texts = rules.to_rows(pos)
    own, their = ("w", "b") if pos.turn == WHITE else ("b", "w")
    if pos.turn != WHITE:
        texts = texts[::-1]  # the mover's view: counted from Black's home row
    digit = {"-": 0, own: 1, their: 2}
    indices = []
    for first, rows in windows:
        cells = "".join(texts[first:first + rows])
        indices.append(sum(digit[cell] * 3 ** j for j, cell in enumerate(cells)))
    return tuple(indices)


@st.composite
def spaces(draw: st.DrawFn) -> tuple[OskaRules, Position, tuple[Window, ...]]:
    """Draw a position on a small board and a few windows of 1 to 3 rows on it."""
    rules, pos = draw(positions(SIZES))
    height = draw(st.integers(1, 3))
    windows = draw(st.lists(st.sampled_from(bands(rules, height)), min_size=1, max_size=4))
    return rules, pos, tuple(windows)


@SETTINGS
@given(drawn=spaces())
def test_indices_match_the_slow_reading(drawn: tuple) -> None:
    """Each window's index is the base-3 number of its cells in the mover's view."""
    rules, pos, windows = drawn
    assert pattern_space(rules, windows).indices(pos) == slow_indices(rules, pos, windows)


@SETTINGS
@given(drawn=spaces())
def test_mirror_maps_the_index_of_the_mirrored_board(drawn: tuple) -> None:
    """``mirror`` gives the index of the left-right mirror image, and undoes itself."""
    rules, pos, windows = drawn
    space = pattern_space(rules, windows)
    mirrored = space.indices(side_mirror(rules, pos))
    for window, index in enumerate(space.indices(pos)):
        assert space.mirror(window, index) == mirrored[window]
        assert space.mirror(window, mirrored[window]) == index


@SETTINGS
@given(drawn=spaces())
def test_colour_swap_keeps_the_mover_view(drawn: tuple) -> None:
    """Colours, the mover and the board's ends swapped: the mover sees the same windows."""
    rules, pos, windows = drawn
    space = pattern_space(rules, windows)
    assert space.indices(colour_mirror(rules, pos)) == space.indices(pos)


def test_window_sizes_and_bad_windows() -> None:
    """n = 4 in bands of 3 rows: 9, 8 and 9 cells; windows off the board are refused."""
    rules = oska_rules(4)
    assert bands(rules, 3) == ((0, 3), (1, 3), (2, 3))
    assert bands(rules, 2, max_cells=5) == ((1, 2), (2, 2))
    assert pattern_space(rules, bands(rules, 3)).sizes() == (3 ** 9, 3 ** 8, 3 ** 9)
    for window in ((0, 0), (-1, 2), (3, 3)):
        with pytest.raises(ValueError, match="not a band of rows 0..4"):
            pattern_space(rules, (window,))


@pytest.mark.parametrize("key", ["4", "5"])
def test_shipped_tables_give_mirror_images_one_value(key: str) -> None:
    """The solved boards ship tables; every entry equals its mirror image's."""
    model = shipped_models()[key]
    assert model.windows, f"the n = {key} model has no pattern tables"
    space = pattern_space(oska_rules(int(key)), model.windows)
    for window, values in enumerate(model.patterns):
        assert all(values[space.mirror(window, i)] == value for i, value in enumerate(values))
