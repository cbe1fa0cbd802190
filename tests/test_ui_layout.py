"""Layout: every cell centre hit-tests to its own cell, for every board and many windows."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oska_gui.engine.registry import GameKind
from oska_gui.games.oska import oska_rules
from oska_gui.play.game import make_game
from oska_gui.session.match import Match
from oska_gui.session.settings import Mode, Settings
from oska_gui.ui.board.board_geometry import offset_polygon
from oska_gui.ui.game.commands import BUTTONS, Command, button_count, buttons_for
from oska_gui.ui.game.game_scene import GameScene
from oska_gui.ui.game.layout import (
    board_area,
    board_aspect,
    board_layout,
    panel_layout,
    split_screen,
)
from oska_gui.ui.kit.rect import Rect
from oska_gui.ui.start.menu_layout import menu_layout

OSKA, HEXAPAWN = GameKind.OSKA, GameKind.HEXAPAWN
BOARDS = [(OSKA, n) for n in range(4, 9)] + [(HEXAPAWN, n) for n in range(3, 9)]
WINDOWS = [(1120, 760), (800, 600), (640, 480), (1920, 1080), (600, 900), (390, 844),
           (320, 240), (2560, 1440), (1000, 1000), (500, 300)]


def cell_count(kind: str, n: int) -> int:
    """Return how many cells the board has, from the rules (Oska) or n*n (Hexapawn)."""
    return oska_rules(n).size if kind == OSKA else n * n


@pytest.mark.parametrize(("kind", "n"), BOARDS)
@pytest.mark.parametrize(("width", "height"), WINDOWS)
def test_every_centre_hits_its_own_cell(kind: str, n: int, width: int, height: int) -> None:
    layout = board_layout(kind, n, width, height)
    assert layout.cell_count == cell_count(kind, n)
    for cell in range(layout.cell_count):
        x, y = layout.center(cell)
        assert layout.cell_at(x, y) == cell
        assert 0 <= x <= width and 0 <= y <= height


@pytest.mark.parametrize(("kind", "n"), BOARDS)
@pytest.mark.parametrize(("width", "height"), WINDOWS)
def test_board_fits_its_area_and_leaves_the_panel_free(kind: str, n: int, width: int,
                                                       height: int) -> None:
    layout = board_layout(kind, n, width, height)
    area = board_area(width, height, board_aspect(kind, n))
    _, panel = split_screen(width, height, board_aspect(kind, n))
    rect = layout.rect
    slack = 1e-6  # the rect holds the frame, the rim and the shadow
    assert rect.x >= area.x - slack and rect.right <= area.right + slack
    assert rect.y >= area.y - slack and rect.bottom <= area.bottom + slack
    for x, y in layout.centers:
        assert not panel.contains(x, y)


@pytest.mark.parametrize(("kind", "n"), BOARDS)
def test_neighbours_are_one_pitch_apart(kind: str, n: int) -> None:
    """Oska's hex grid: a cell's forward neighbours (step targets) are exactly one pitch
    away; Hexapawn's squares are one pitch apart in rows and columns."""
    layout = board_layout(kind, n, 1000, 800)
    if kind == OSKA:
        rules = oska_rules(n)
        for cell in range(rules.size):
            for side in (0, 1):
                for to_bit in rules.steps[side][cell]:
                    to = to_bit.bit_length() - 1
                    dist = math.dist(layout.center(cell), layout.center(to))
                    assert dist == pytest.approx(layout.pitch)
    else:
        assert math.dist(layout.center(0), layout.center(1)) == pytest.approx(layout.pitch)
        assert math.dist(layout.center(0), layout.center(n)) == pytest.approx(layout.pitch)


@pytest.mark.parametrize(("kind", "n"), BOARDS)
def test_points_off_the_cells_hit_nothing(kind: str, n: int) -> None:
    layout = board_layout(kind, n, 1000, 800)
    assert layout.cell_at(-50, -50) is None
    assert layout.cell_at(5000, 5000) is None
    x, y = layout.center(0)
    assert layout.cell_at(x - layout.pitch, y - layout.pitch) is None


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(BOARDS), st.integers(1, 3000), st.integers(1, 2000), st.data())
def test_any_window_any_cell_round_trips(board: tuple[str, int], width: int, height: int,
                                         data: st.DataObject) -> None:
    kind, n = board
    layout = board_layout(kind, n, width, height)
    cell = data.draw(st.integers(0, layout.cell_count - 1))
    if layout.pitch >= 1:  # below a pixel a pitch, hit-testing has no meaning
        assert layout.cell_at(*layout.center(cell)) == cell


def test_pixel_near_a_centre_still_hits_the_cell() -> None:
    layout = board_layout(OSKA, 5, 1120, 760)
    for cell in range(layout.cell_count):
        x, y = layout.center(cell)
        offset = layout.radius * 0.9
        for dx, dy in ((offset, 0), (-offset, 0), (0, offset), (0, -offset)):
            assert layout.cell_at(x + dx, y + dy) == cell


def test_bad_board_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="n >= 4"):
        board_layout(OSKA, 3, 800, 600)
    with pytest.raises(ValueError, match="unknown game"):
        board_layout("chess", 8, 800, 600)
    with pytest.raises(IndexError):
        board_layout(OSKA, 4, 800, 600).center(99)


@pytest.mark.parametrize(("width", "height"), WINDOWS)
@pytest.mark.parametrize("count", [6, 10])
def test_panel_buttons_are_inside_the_panel_and_disjoint(width: int, height: int,
                                                         count: int) -> None:
    names = [f"b{i}" for i in range(count)]
    panel = panel_layout(width, height, names)
    rects = [panel.buttons[name] for name in names]
    for rect in rects:
        assert panel.panel.contains(rect.x, rect.y)
        assert panel.panel.contains(rect.right, rect.bottom)
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert not _overlap(a, b)


@pytest.mark.parametrize(("width", "height"), WINDOWS)
def test_menu_rows_and_buttons_do_not_overlap(width: int, height: int) -> None:
    menu = menu_layout(width, height, [2, 5, 3, 2, 1, 2, 4], ["start", "help", "quit"])
    rects = [r for row in menu.rows for r in row.choices] + list(menu.buttons.values())
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert not _overlap(a, b)
    for row in menu.rows:
        assert len(row.choices) >= 2


def test_stepper_rows_get_back_value_and_forward() -> None:
    menu = menu_layout(1000, 700, [1], ["start"])
    back, value, forward = menu.rows[0].choices
    assert back.right <= value.x and value.right <= forward.x


def test_offset_square_grows_by_the_distance() -> None:
    square = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
    grown = offset_polygon(square, 2)
    flat = [v for point in grown for v in point]
    assert flat == pytest.approx([-2, -2, 12, -2, 12, 12, -2, 12])
    rounded = offset_polygon(square, 2, round_corners=4)
    assert len(rounded) == 4 * 5
    for x, y in rounded:
        nearest = (min(max(x, 0), 10), min(max(y, 0), 10))
        assert math.dist((x, y), nearest) == pytest.approx(2)


def test_rect_helpers() -> None:
    rect = Rect(10, 20, 100, 50)
    top, rest = rect.take_top(10, 5)
    assert (top.y, top.h, rest.y, rest.h) == (20, 10, 35, 35)
    bottom, rest = rect.take_bottom(10, 5)
    assert (bottom.y, bottom.h, rest.y, rest.h) == (60, 10, 20, 35)
    assert rect.inset(200).w == 0
    assert [c.x for c in rect.columns(2, 10)] == [10, 65]


def _overlap(a: Rect, b: Rect) -> bool:
    """Return True when two rectangles share more than an edge."""
    return a.x < b.right - 1e-9 and b.x < a.right - 1e-9 and a.y < b.bottom - 1e-9 \
        and b.y < a.bottom - 1e-9


@pytest.mark.parametrize(("kind", "n"), [(OSKA, 4), (OSKA, 7), (HEXAPAWN, 3), (HEXAPAWN, 6)])
def test_a_flipped_board_is_the_same_board_turned_half_round(kind: str, n: int) -> None:
    upright = board_layout(kind, n, 1120, 760)
    turned = board_layout(kind, n, 1120, 760, flipped=True)
    cx, cy = upright.rect.center
    assert turned.frame == upright.frame
    for cell in range(upright.cell_count):
        x, y = turned.center(cell)
        ux, uy = upright.center(cell)
        assert (x, y) == pytest.approx((2 * cx - ux, 2 * cy - uy), abs=1.0)
        assert turned.cell_at(x, y) == cell


# Tall windows where one button more or less moves the board: the panel below it gains
# or loses a row of buttons (found by scanning sizes; wide windows never change).
TALL = [(420, 510), (360, 650), (600, 900), (390, 844), (768, 1024)]


@pytest.mark.parametrize("mode", list(Mode))
@pytest.mark.parametrize("can_quit", [True, False])
@pytest.mark.parametrize(("width", "height"), [*TALL, (1120, 760)])
def test_the_game_screen_keeps_room_for_exactly_its_buttons(mode: Mode, can_quit: bool,
                                                            width: int, height: int) -> None:
    """The board and panel of every mode's game are laid out for the commands' own list
    of buttons (Pause reading Resume and Review taking a place change no count), and a
    game against the computer's is the layout's default."""
    settings = Settings(mode=mode)
    scene = GameScene(Match(make_game(OSKA, 4), settings), lambda: settings, width, height,
                      lambda: 0.0, can_quit=can_quit)
    count = button_count(mode, can_quit)
    assert {len(buttons_for(mode, can_quit, paused, review))
            for paused in (False, True) for review in (False, True)} == {count}
    assert list(scene.panel().buttons) == list(buttons_for(mode, can_quit, False))
    assert scene.board() == board_layout(OSKA, 4, width, height, count, scene.flipped)
    if mode != Mode.CVC:
        assert scene.board() == board_layout(OSKA, 4, width, height, flipped=scene.flipped)
    _, panel = split_screen(width, height, board_aspect(OSKA, 4), count)
    assert all(panel.contains(rect.x, rect.y) and panel.contains(rect.right, rect.bottom)
               for rect in scene.panel().buttons.values())


@pytest.mark.parametrize("change", ["add", "remove"])
def test_the_layout_counts_the_buttons_from_the_commands_list(
        monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    """Buttons added to (or taken from) the list of a game against the computer are one
    edit: the default layout follows, and in some tall window the board moves for them
    (two at a time: the buttons sit in rows of two)."""
    before = {size: board_layout(OSKA, 4, *size) for size in TALL}
    listed = BUTTONS[Mode.HVC]
    changed = (*listed, Command.QUIT, Command.STEP) if change == "add" else listed[:-2]
    monkeypatch.setitem(BUTTONS, Mode.HVC, changed)
    assert button_count() == len(changed)
    after = {size: board_layout(OSKA, 4, *size) for size in TALL}
    assert after == {size: board_layout(OSKA, 4, *size, len(changed)) for size in TALL}
    assert after != before
    settings = Settings()
    scene = GameScene(Match(make_game(OSKA, 4), settings), lambda: settings, *TALL[0],
                      lambda: 0.0)
    assert list(scene.panel().buttons) == list(changed)
    assert scene.board() == board_layout(OSKA, 4, *TALL[0], flipped=scene.flipped)
