"""Where the Games screen's parts go: pure functions of the window size (no pygame).

A wide window has the list of games on the left and, on the right, the chosen game's
board at the move chosen, the move stepper under it and the buttons at the bottom. A
narrow or short window has one column: the title, the board and the stepper when there
is room for the board, the list (then the stepper, without the board) and the buttons.
The list shows as many games as fit (two lines each where there is room, one
otherwise); ``pager`` holds its Newer / Older buttons when it holds more games than fit
(below the rows, or either side of them where the window is too short for that).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..kit.rect import Rect, clamp
from ..kit.typescale import LINE, TOUCH_TARGET, TypeScale, estimated_width, type_scale
from ..kit.widgets import BUTTON_PAD
from ..kit.window import MIN_SIZE, is_portrait, margin

REPLAY, REVIEW, CONTINUE, DELETE, BACK = "replay", "review", "continue", "delete", "back"
SAVE, DOWNLOAD, LINK = "save", "download", "link"  # what a front end may add
BUTTONS = (REPLAY, REVIEW, CONTINUE, DELETE, BACK)
NEWER, OLDER = "newer", "older"
SHORT_LABELS = {REPLAY: "Replay", REVIEW: "Review", CONTINUE: "Continue", DELETE: "Delete",
                BACK: "Back", SAVE: "Save as", DOWNLOAD: "Download", LINK: "Copy link"}
WIDE_MIN = 620.0  # a narrower window has one column
LIST_SHARE = 0.56  # of a wide window's inner width, the list's
BOARD_MIN = 90.0  # a board preview smaller than this is left out
ONE_COLUMN_BOARD = 0.3  # of a one-column window's inner height, the board preview's


@dataclass(frozen=True)
class GamesLayout:
    """The Games screen: title, note line (0 high without notes), the list's rows and
    pager, the board preview (0 wide when left out), the move stepper (back, label,
    forward), the buttons by name, the rows' line count and the type scale."""

    title: Rect
    note: Rect
    rows: tuple[Rect, ...]
    pager: dict[str, Rect]
    board: Rect
    stepper: tuple[Rect, Rect, Rect]
    buttons: dict[str, Rect]
    lines: int
    scale: TypeScale


def _button_grid(area: Rect, row_h: float, gap: float, scale: TypeScale,
                 touch: bool, names: tuple[str, ...]) -> tuple[dict[str, Rect], float]:
    """Return the buttons ``names`` laid out in a grid at the bottom of ``area`` and the
    height the grid takes: as many columns as their short labels fit (with a key's
    name, for the mouse and keys)."""
    need = max(estimated_width(SHORT_LABELS[name] + ("" if touch else "  (Enter)"),
                               scale.label) for name in names)
    need = max(need + BUTTON_PAD, TOUCH_TARGET if touch else 0.0)
    columns = int(clamp((area.w + gap) // (need + gap), 1, len(names)))
    grid_rows = math.ceil(len(names) / columns)
    columns = math.ceil(len(names) / grid_rows)  # as even as the rows allow
    height = grid_rows * row_h + (grid_rows - 1) * gap
    top = area.bottom - height
    buttons = {}
    for index, name in enumerate(names):
        line, place = divmod(index, columns)
        strip = Rect(area.x, top + line * (row_h + gap), area.w, row_h)
        buttons[name] = strip.columns(columns, gap)[place]
    return buttons, height


def _stepper(area: Rect, row_h: float, gap: float) -> tuple[Rect, Rect, Rect]:
    """Return the move stepper's back arrow, label and forward arrow across ``area``'s
    top ``row_h`` pixels."""
    arrow = min(max(row_h * 1.2, TOUCH_TARGET), area.w / 4)
    back = Rect(area.x, area.y, arrow, row_h)
    forward = Rect(area.right - arrow, area.y, arrow, row_h)
    label = Rect(back.right + gap, area.y, max(0.0, area.w - 2 * (arrow + gap)), row_h)
    return back, label, forward


def _list(area: Rect, count: int, row_h: float, gap: float,
          bar_h: float) -> tuple[tuple[Rect, ...], dict[str, Rect]]:
    """Return the rows that fit ``area`` for a list of ``count`` games, and the pager
    (Newer, Older) at its bottom when not all of them fit (none otherwise)."""
    fits = max(1, int((area.h + gap) // (row_h + gap)))
    pager: dict[str, Rect] = {}
    if count > fits and area.h >= row_h + gap + bar_h:  # the pager below the rows
        bar, area = area.take_bottom(bar_h, gap)
        newer, older = bar.columns(2, gap)
        pager = {NEWER: newer, OLDER: older}
        fits = max(1, int((area.h + gap) // (row_h + gap)))
    elif count > fits:  # no room below: an arrow each side of the rows
        side = min(bar_h, area.w / 5)
        pager = {NEWER: Rect(area.x, area.y, side, row_h),
                 OLDER: Rect(area.right - side, area.y, side, row_h)}
        area = Rect(area.x + side + gap, area.y, max(0.0, area.w - 2 * (side + gap)), area.h)
    rows = tuple(Rect(area.x, area.y + index * (row_h + gap), area.w, row_h)
                 for index in range(min(fits, max(count, 0))))
    return rows, pager


def games_layout(width: float, height: float, count: int, aspect: float,
                 touch: bool = False, notes: bool = False,
                 extra: tuple[str, ...] = ()) -> GamesLayout:
    """Return the Games screen's layout.

    Args:
        width: the window width in pixels.
        height: the window height in pixels.
        count: how many games the list holds.
        aspect: the board preview's height per pixel of width (0: no board to show).
        touch: whether everything to hit must be at least ``TOUCH_TARGET`` pixels.
        notes: whether a note line (damaged games skipped) goes under the title.
        extra: the front end's buttons (``SAVE`` or ``DOWNLOAD``, ``LINK``), put
            before Delete and Back.

    Returns:
        The GamesLayout.
    """
    width, height = max(MIN_SIZE, width), max(MIN_SIZE, height)
    names = (*BUTTONS[:3], *extra, *BUTTONS[3:])
    scale = type_scale(width, height)
    m = margin(width, height)
    gap = max(4.0, m * 0.4)
    inner = Rect(0, 0, width, height).inset(m)
    button_h = TOUCH_TARGET if touch else max(30.0, scale.label * 2.1)
    lines = 2 if height >= 420 else 1
    row_h = max(TOUCH_TARGET if touch else 0.0, lines * scale.small * LINE + 10)
    title, rest = inner.take_top(scale.title * 1.4, gap)
    note, rest = rest.take_top(scale.small * LINE if notes else 0.0, gap if notes else 0.0)
    wide = width >= WIDE_MIN and not is_portrait(width, height)
    if wide:
        list_w = rest.w * LIST_SHARE
        list_area = Rect(rest.x, rest.y, list_w, rest.h)
        side = Rect(list_area.right + m, rest.y, rest.w - list_w - m, rest.h)
        buttons, grid_h = _button_grid(side, button_h, gap, scale, touch, names)
        side = Rect(side.x, side.y, side.w, side.h - grid_h - gap)
        step_area, board_room = side.take_bottom(button_h, gap)
        stepper = _stepper(step_area, button_h, gap)
    else:
        buttons, grid_h = _button_grid(rest, button_h, gap, scale, touch, names)
        rest = Rect(rest.x, rest.y, rest.w, rest.h - grid_h - gap)
        board_room = Rect(rest.x, rest.y, rest.w,
                          rest.h * ONE_COLUMN_BOARD if rest.h > 2 * BOARD_MIN + 3 * row_h
                          else 0.0)
        if board_room.h > 0:  # the stepper under the board, the list below
            _, rest = rest.take_top(board_room.h, gap)
            step_area, list_area = rest.take_top(button_h, gap)
        else:  # the list, the stepper under it
            step_area, list_area = rest.take_bottom(button_h, gap)
        stepper = _stepper(step_area, button_h, gap)
    board = _board(board_room, aspect)
    rows, pager = _list(list_area, count, row_h, gap * 0.5, button_h)
    return GamesLayout(title, note, rows, pager, board, stepper, buttons, lines, scale)


def _board(room: Rect, aspect: float) -> Rect:
    """Return the board preview's rectangle: as big as fits ``room`` at ``aspect``,
    centred; 0 wide when that is under ``BOARD_MIN`` or there is no board."""
    if aspect <= 0 or room.w <= 0 or room.h <= 0:
        return Rect(room.x, room.y, 0.0, 0.0)
    w = min(room.w, room.h / aspect)
    h = w * aspect
    if min(w, h) < BOARD_MIN:
        return Rect(room.x, room.y, 0.0, 0.0)
    return Rect(room.x + (room.w - w) / 2, room.y + (room.h - h) / 2, w, h)
