"""Every Oska board size 4..24 in the window: picked on the start screen, laid out,
hit by the pointer, said too small where it is, and kept in the settings."""

from __future__ import annotations

import random

import pytest
from ui_fakes import RecordingCanvas

from oska_gui.engine.registry import LARGEST_CLASSIC, GameKind, game_info
from oska_gui.games.oska import SIZES, oska_rules
from oska_gui.play import records
from oska_gui.play.levels import levels_for
from oska_gui.session.settings import MemoryStorage, Settings
from oska_gui.ui.app import App
from oska_gui.ui.board.cell_size import MOUSE_CELL, TOUCH_CELL, small_cells_text
from oska_gui.ui.game.layout import board_aspect, board_layout, split_screen
from oska_gui.ui.kit.events import KeyPress, PointerDown
from oska_gui.ui.overlays.confirm import NEW_GAME
from oska_gui.ui.speech import describe
from oska_gui.ui.start.start_scene import MORE, Option, rows_for

SHOWN = (4, 8, 12, 16, 24)
FULL_HD = (1920, 1080)


@pytest.mark.parametrize("n", SHOWN)
@pytest.mark.parametrize("flipped", [False, True])
def test_the_board_fits_its_area_and_every_cell_is_hit_at_its_centre(n: int,
                                                                     flipped: bool) -> None:
    board = board_layout(GameKind.OSKA, n, *FULL_HD, flipped=flipped)
    area, panel = split_screen(*FULL_HD, board_aspect(GameKind.OSKA, n))
    rect = board.rect
    assert area.x <= rect.x and rect.right <= area.right + 0.5
    assert area.y <= rect.y and rect.bottom <= area.bottom + 0.5
    assert rect.right <= panel.x  # the board never runs under the side panel
    assert board.cell_count == sum(game_info(GameKind.OSKA).row_lengths(n))
    assert board.pitch >= MOUSE_CELL  # a mouse hits every cell at 1920 x 1080
    for cell in range(board.cell_count):
        x, y = board.center(cell)
        assert board.cell_at(x, y) == cell
        # a point near the disc's edge still belongs to the cell
        assert board.cell_at(x + board.pitch * 0.45, y) == cell


def test_boards_shrink_as_they_grow() -> None:
    pitches = [board_layout(GameKind.OSKA, n, *FULL_HD).pitch for n in SHOWN]
    assert pitches == sorted(pitches, reverse=True) and len(set(pitches)) == len(SHOWN)


@pytest.mark.parametrize(("n", "size", "touch", "small"), [
    (4, (1120, 760), False, False), (24, FULL_HD, False, False),
    (24, (1120, 760), False, True), (8, (390, 844), True, True), (4, (390, 844), True, False)])
def test_too_small_cells_are_said_with_the_least_size_and_what_helps(
        n: int, size: tuple[int, int], touch: bool, small: bool) -> None:
    board = board_layout(GameKind.OSKA, n, *size)
    least = TOUCH_CELL if touch else MOUSE_CELL
    assert (board.pitch < least) is small
    text = small_cells_text(board, "hole", touch)
    assert bool(text) is small
    if small:
        assert f"Holes {board.pitch:.0f} px" in text and f"needs {least:.0f}" in text
        assert ("smaller board" if touch else "enlarge the window") in text


def test_the_game_screen_says_when_the_holes_are_too_small_to_click() -> None:
    app = App(MemoryStorage(), 1120, 760)
    app.start_size(24)
    game = app.game
    assert game is not None and game.game.n == 24
    assert "a mouse needs 24" in game.view().detail
    big = App(MemoryStorage(), *FULL_HD)
    big.start_size(24)
    assert big.game is not None and "needs" not in big.game.view().detail
    named = App(MemoryStorage({"coordinates": True}), *FULL_HD)
    named.start_size(24)  # big enough to click, too small for the names asked for
    assert named.game is not None
    assert "cell names need 34: enlarge the window" in named.game.view().detail
    named.start_size(12)
    assert named.game is not None and "names" not in named.game.view().detail


def keys(app: App, *names: str) -> None:
    """Press the keys ``names`` in order."""
    for name in names:
        app.handle(KeyPress(name))


def test_n_13_is_picked_by_keys_and_said() -> None:
    app = App(MemoryStorage(), 1120, 760)
    keys(app, "down", *["right"] * (LARGEST_CLASSIC - 4 + 1))  # past 8: More, n = 9
    assert app.settings.n == LARGEST_CLASSIC + 1
    keys(app, "right", "right", "right", "right")
    assert app.settings.n == 13
    assert "Oska n = 13" in describe(app)  # what a screen reader is given
    keys(app, "left")
    assert app.settings.n == 12
    keys(app, "enter")
    assert app.game is not None and app.game.game.n == 12


def click_size(app: App, choice: int, touch: bool = False) -> None:
    """Click (or tap, if ``touch``) choice ``choice`` of the board size row (of a
    stepper: 0 back, 1 forward)."""
    app.handle(PointerDown(*app.start.layout().rows[1].targets[choice].center, touch))


def test_n_13_is_picked_by_clicks_and_the_classic_sizes_come_back() -> None:
    app = App(MemoryStorage(), 1120, 760)
    click_size(app, -1)  # More
    assert app.settings.n == LARGEST_CLASSIC + 1 and app.start.layout().rows[1].stepper
    for _ in range(4):
        click_size(app, 1)
    assert app.settings.n == 13 and "Oska n = 13" in app.start.status_text
    for _ in range(13 - LARGEST_CLASSIC):
        click_size(app, 0)
    assert app.settings.n == LARGEST_CLASSIC and not app.start.layout().rows[1].stepper
    click_size(app, 0)
    assert app.settings.n == 4


def test_the_screen_stays_in_place_when_the_size_row_becomes_a_stepper() -> None:
    app = App(MemoryStorage(), 1120, 760)
    before = app.start.layout()
    keys(app, "down", "left")  # from 4 back round to More
    after = app.start.layout()
    assert app.settings.n == LARGEST_CLASSIC + 1
    assert after.card == before.card and after.buttons == before.buttons
    assert [row.label for row in after.rows] == [row.label for row in before.rows]


@pytest.mark.parametrize("n", SIZES)
def test_every_size_lists_the_levels_with_how_they_play(n: int) -> None:
    settings = Settings(n=n)
    rows = rows_for(settings)
    level_row = next(row for row in rows if row.key == Option.LEVEL)
    perfect = n in game_info(GameKind.OSKA).perfect_sizes
    for level, name in zip(levels_for(perfect), level_row.names, strict=True):
        assert name[0] == f"{level.name} · {level.describe()}"
    size_row = rows[1]
    classic = tuple(range(4, LARGEST_CLASSIC + 1))
    if n in classic:
        assert size_row.values == (*classic, MORE) and not size_row.stepper
    else:
        assert size_row.values == tuple(SIZES) and size_row.stepper


def test_settings_keep_any_supported_size_and_drop_others() -> None:
    for n in (9, 13, 24):
        assert Settings.from_dict(Settings(n=n).to_dict()).n == n
    assert Settings.from_dict({"kind": "oska", "n": 25}).n == Settings().n


def test_a_record_of_n_12_replays() -> None:
    rules = oska_rules(12)
    rng = random.Random(5)
    line = [rules.start()]
    while (outcome := rules.outcome(line[-1])) is None:
        line.append(rng.choice(rules.children(line[-1])))
    app = App(MemoryStorage(), *FULL_HD)
    app.replay(records.from_positions(line, rules, "a", "b", outcome))
    assert app.game is not None and app.game.game.n == 12
    assert app.game.match.history.positions == line


def test_a_finger_on_a_phone_picks_n_13_with_targets_a_finger_hits() -> None:
    """Six choices are too narrow for a finger on a 390 px phone: the row is a stepper
    through the classic sizes, More (n = 9) and on through every size."""
    app = App(MemoryStorage(), 390, 844, touch=True)
    assert app.start.layout().rows[1].stepper
    seen = []
    for _ in range(13 - 4):
        click_size(app, 1, touch=True)
        seen.append(app.settings.n)
    assert seen == list(range(5, 14))
    stepper = app.start.layout().rows[1]
    assert all(min(t.w, t.h) >= TOUCH_CELL for t in stepper.targets)
    assert "Tap Start" in app.start.status_text and "n = 13" in app.start.status_text


def test_hexapawn_offers_its_larger_squares_the_same_way() -> None:
    app = App(MemoryStorage(), 1120, 760)
    keys(app, "right")  # Hexapawn, 3 x 3
    assert app.settings.kind == GameKind.HEXAPAWN and app.settings.n == 3
    keys(app, "down", "left", "right", "right")  # round to More (9 x 9), then 11 x 11
    assert app.settings.n == 11 and "Hexapawn n = 11" in app.start.status_text
    keys(app, "enter")
    assert app.game is not None and app.game.game.n == 11
    board = app.game.board()
    assert board.cell_count == 11 * 11 and board.pitch >= MOUSE_CELL


def test_starting_a_size_asks_before_it_replaces_a_game_with_moves() -> None:
    app = App(MemoryStorage({"mode": "hvh"}), 1120, 760)
    app.start_size(5)
    assert app.game is not None and app.question is None
    match = app.game.match
    match.play(match.game.children(match.position)[0])
    app.start_size(12)
    assert app.question == NEW_GAME and app.game.game.n == 5


@pytest.mark.parametrize("n", SHOWN)
@pytest.mark.parametrize(("size", "touch"), [((1120, 760), False), ((390, 844), True)])
def test_the_strength_stepper_shows_each_level_with_its_depth_or_time(
        n: int, size: tuple[int, int], touch: bool) -> None:
    for level in levels_for(False):
        stored = {"n": n, "levels": {"white": level.key, "black": level.key}}
        app = App(MemoryStorage(stored), *size, touch=touch)
        canvas = RecordingCanvas(*size)
        app.draw(canvas)
        assert f"{level.name} · {level.describe()}" in canvas.texts()


@pytest.mark.parametrize(("size", "touch", "shown"), [
    ((1120, 760), False, "Hard · looks 5 moves ahead"), ((390, 844), True, "Hard · 5 moves")])
def test_the_computers_card_says_how_it_plays_in_the_words_that_fit(
        size: tuple[int, int], touch: bool, shown: str) -> None:
    """The player card names the level and how it plays; a phone's narrow card keeps
    the number of moves in fewer words rather than dropping it."""
    app = App(MemoryStorage({"levels": {"white": "hard", "black": "hard"}}), *size, touch=touch)
    app.handle(KeyPress("enter"))
    canvas = RecordingCanvas(*size)
    app.draw(canvas)
    assert any(text.endswith(shown) for text in canvas.texts()), canvas.texts()
