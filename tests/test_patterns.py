"""Pattern windows: indices against a slow reading of the board, and their symmetries.

The fast ``PatternSpace.indices`` reads each window with one table lookup per side;
here every index is rebuilt cell by cell from the rules' own row lists, in the mover's
view (rows from the mover's home row, each read from the mover's left).
"""

from __future__ import annotations

import pytest
from evaluator_helpers import SETTINGS, colour_mirror, positions, side_mirror
from hypothesis import given
from hypothesis import strategies as st

from oska_gui.engine.learned import shipped_models
from oska_gui.engine.patterns import Window, bands, fold_contained, pattern_space, reading_codes
from oska_gui.games.oska import WHITE, OskaRules, Position, oska_rules
from tools.samples import pattern_windows

SIZES = (4, 5, 6)  # a window's lookup table has 2 ** cells entries: small boards only


def slow_indices(rules: OskaRules, pos: Position, windows: tuple) -> tuple[int, ...]:
    """Return every window's index of ``pos``, read cell by cell from its row texts."""
    texts = rules.to_rows(pos)
    own, their = ("w", "b") if pos.turn == WHITE else ("b", "w")
    if pos.turn != WHITE:  # the mover's view: the board turned round
        texts = [text[::-1] for text in reversed(texts)]
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


@pytest.mark.slow
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


@pytest.mark.slow
@SETTINGS
@given(drawn=spaces())
def test_colour_swap_keeps_the_mover_view(drawn: tuple) -> None:
    """Colours and the mover swapped, the board turned round: the mover sees the same
    windows (upside down only, their mirror images)."""
    rules, pos, windows = drawn
    space = pattern_space(rules, windows)
    upside_down = space.indices(colour_mirror(rules, pos))
    assert space.indices(side_mirror(rules, colour_mirror(rules, pos))) == space.indices(pos)
    assert [space.mirror(w, index) for w, index in enumerate(upside_down)] == list(
        space.indices(pos))


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


@st.composite
def nested_windows(draw: st.DrawFn) -> tuple[OskaRules, Position, tuple[Window, ...], tuple]:
    """Draw a position, windows of 1 to 3 rows (some inside others, some twice) and a
    random table for each."""
    rules, pos = draw(positions(SIZES))
    windows = tuple(draw(st.lists(st.sampled_from(bands(rules, 1) + bands(rules, 2)
                                                  + bands(rules, 3, max_cells=9)),
                                  min_size=1, max_size=6)))
    sizes = pattern_space(rules, windows).sizes()
    seed = draw(st.integers(0, 2 ** 32))
    tables = tuple(tuple((seed * 7919 + 104_729 * k + i * i) % 2001 - 1000 for i in range(size))
                   for k, size in enumerate(sizes))
    return rules, pos, windows, tables


@pytest.mark.slow
@SETTINGS
@given(drawn=nested_windows())
def test_folding_windows_into_the_ones_holding_them_keeps_the_score(drawn: tuple) -> None:
    """Fewer tables, the same sum: no kept window lies inside another kept one."""
    rules, pos, windows, tables = drawn
    kept, folded = fold_contained(rules, windows, tables)
    indices = pattern_space(rules, windows).indices(pos)
    kept_indices = pattern_space(rules, kept).indices(pos)
    assert (sum(values[i] for values, i in zip(folded, kept_indices, strict=True))
            == sum(values[i] for values, i in zip(tables, indices, strict=True)))
    assert set(kept) == {window for window in windows
                         if not any(other[0] <= window[0] and sum(window) <= sum(other)
                                    and other != window for other in windows)}
    assert len(kept) == len(set(kept))


@pytest.mark.parametrize(("n", "widest"), [
    (4, {(0, 4), (1, 4)}),  # the 3-row bands lie inside the two 12-cell 4-row ones
    (5, {(0, 3), (4, 3), (1, 4), (2, 4)}),  # 12-cell bands: 2 of 3 rows, 2 of 4
])
def test_the_solved_boards_tables_fold_into_their_widest_windows(
        n: int, widest: set[tuple[int, int]]) -> None:
    """The windows training fits (``samples.pattern_windows``) fold into the widest
    ones, which are what the shipped model's file holds."""
    rules = oska_rules(n)
    windows = pattern_windows(rules)
    zeros = tuple((0,) * size for size in pattern_space(rules, windows).sizes())
    kept, _ = fold_contained(rules, windows, zeros)
    assert set(kept) == widest and len(kept) == len(widest)
    assert kept == shipped_models()[str(n)].windows


@pytest.mark.parametrize("reverse", [False, True])
def test_narrow_windows_read_slices_of_the_widest_codes(reverse: bool) -> None:
    """A window's codes are base-3 numbers of its bits (in reverse order from Black's
    side); a narrower window's are a slice of the widest one's, as ``_slots`` takes."""
    width = 7
    for narrow in range(1, width + 1):
        once, twice = reading_codes(narrow, reverse)
        for bits in range(1 << narrow):
            digits = [narrow - 1 - j if reverse else j for j in range(narrow) if bits >> j & 1]
            assert once[bits] == sum(3 ** d for d in digits) and twice[bits] == 2 * once[bits]
        wide_once, wide_twice = reading_codes(width, reverse)
        taken = (slice(None, None, 1 << (width - narrow)) if reverse
                 else slice(None, 1 << narrow))
        assert (wide_once[taken], wide_twice[taken]) == (once, twice)
