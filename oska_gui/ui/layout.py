"""Where everything goes on screen: pure functions of the window size (no pygame).

The window is split into a board area and a side panel (on the right when the window is
wide, at the bottom when it is tall). ``board_layout(kind, n, width, height)`` fits the
board into the board area (the geometry is in ``board_geometry``); ``panel_layout`` and
``menu_layout`` give the rectangles of the side panel's parts and buttons and of the
start screen's options.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .board_geometry import BoardLayout, fit_board
from .rect import Rect, clamp

MIN_SIZE = 1
STACK_BELOW = 560  # start-screen cards narrower than this put labels above choices


def board_area(width: float, height: float) -> Rect:
    """Return the part of a ``width`` x ``height`` window given to the board."""
    return split_screen(width, height)[0]


def board_layout(kind: str, n: int, width: float, height: float) -> BoardLayout:
    """Return the layout of the ``kind`` board of size ``n`` in a window of that size.

    Args:
        kind: the game, a ``GameKind`` (or its value).
        n: the board size (one its rules support).
        width: the window width in pixels.
        height: the window height in pixels.

    Returns:
        A BoardLayout centred in the board area and as big as fits.

    Raises:
        ValueError: for an unknown game or an unsupported size.
    """
    return fit_board(kind, n, board_area(width, height))


def margin(width: float, height: float) -> float:
    """Return the outer margin for a window of this size (bigger windows, more air)."""
    return clamp(min(width, height) * 0.03, 6, 24)


def is_portrait(width: float, height: float) -> bool:
    """Return True when the panel goes below the board (the window is taller than wide)."""
    return width < height


def split_screen(width: float, height: float) -> tuple[Rect, Rect]:
    """Return (board area, side panel) for a window of ``width`` x ``height`` pixels."""
    width, height = max(MIN_SIZE, width), max(MIN_SIZE, height)
    m = margin(width, height)
    inner = Rect(0, 0, width, height).inset(m)
    if is_portrait(width, height):
        panel, board = inner.take_bottom(clamp(height * 0.36, 120, 320), m)
    else:
        panel_w = clamp(width * 0.30, 200, 400)
        panel_w = min(panel_w, inner.w * 0.45)
        board = Rect(inner.x, inner.y, max(0.0, inner.w - panel_w - m), inner.h)
        panel = Rect(inner.right - panel_w, inner.y, panel_w, inner.h)
    return board, panel


@dataclass(frozen=True)
class PanelLayout:
    """The side panel's parts: title, the two player cards, status, moves and buttons."""

    panel: Rect
    title: Rect
    players: tuple[Rect, Rect]
    status: Rect
    moves: Rect
    buttons: dict[str, Rect]
    line_height: float


def panel_layout(width: float, height: float, buttons: Sequence[str]) -> PanelLayout:
    """Return the side panel's layout for the window size and the given buttons.

    Args:
        width: the window width in pixels.
        height: the window height in pixels.
        buttons: button names, in reading order (filled row by row, two per row).

    Returns:
        A PanelLayout; ``buttons`` maps each name to its rectangle.
    """
    _, panel = split_screen(width, height)
    pad = clamp(panel.w * 0.05, 6, 16)
    inner = panel.inset(pad)
    line = clamp(min(width, height) * 0.026, 11, 20)
    gap = line * 0.5
    portrait = is_portrait(width, height)
    cols = 2
    rows = math.ceil(len(buttons) / cols)
    button_h = clamp(line * 2.1, 22, 42)
    grid_h = rows * button_h + (rows - 1) * gap
    if portrait:  # info on the left half; moves above the buttons on the right half
        half = (inner.w - gap) / 2
        top = Rect(inner.x, inner.y, half, inner.h)
        grid, moves = Rect(inner.x + half + gap, inner.y, half, inner.h).take_bottom(grid_h, gap)
    else:
        grid, top = inner.take_bottom(grid_h, gap * 2)
    title, rest = top.take_top(line * 2.0, gap)
    white, rest = rest.take_top(line * 2.9, gap * 0.6)
    black, rest = rest.take_top(line * 2.9, gap)
    status, rest = rest.take_top(line * 2.6, gap)
    if not portrait:
        moves = rest
    return PanelLayout(panel, title, (white, black), status, moves,
                       _grid(grid, buttons, cols, button_h, gap), line)


def _grid(area: Rect, names: Sequence[str], cols: int, row_h: float,
          gap: float) -> dict[str, Rect]:
    """Return name -> rectangle for ``names`` laid out in rows of ``cols`` in ``area``."""
    out = {}
    for i, name in enumerate(names):
        row, col = divmod(i, cols)
        strip = Rect(area.x, area.y + row * (row_h + gap), area.w, row_h)
        out[name] = strip.columns(cols, gap)[col]
    return out


@dataclass(frozen=True)
class MenuLayout:
    """The start screen: title, one (label, option rectangles) pair per row, buttons."""

    card: Rect
    title: Rect
    subtitle: Rect
    rows: tuple[tuple[Rect, tuple[Rect, ...]], ...]
    buttons: dict[str, Rect]
    font: float


def menu_layout(width: float, height: float, rows: Sequence[int],
                buttons: Sequence[str]) -> MenuLayout:
    """Return the start screen's layout.

    Args:
        width: the window width in pixels.
        height: the window height in pixels.
        rows: per option row, the number of choices shown side by side (a row with one
            choice is a stepper: it gets three rectangles, previous / value / next).
        buttons: names of the buttons along the bottom, left to right.

    Returns:
        A MenuLayout with a (label, choices) pair per row and the buttons by name.
    """
    width, height = max(MIN_SIZE, width), max(MIN_SIZE, height)
    m = margin(width, height)
    card_w = min(width - 2 * m, clamp(width * 0.8, 300, 720))
    stacked = card_w < STACK_BELOW  # narrow: each label goes above its choices
    per_row = 1.75 if stacked else 1.0
    slots = len(rows) * per_row + 4.2  # title (2), subtitle, rows, gap, buttons row
    row_h = clamp((height - 2 * m) / slots, 14, 46)
    card_h = min(height - 2 * m, row_h * slots + m)
    card = Rect((width - card_w) / 2, (height - card_h) / 2, max(0.0, card_w), max(0.0, card_h))
    inner = card.inset(clamp(card_w * 0.04, 6, 28), m / 2)
    font = clamp(row_h * 0.42, 9, 19)
    title, rest = inner.take_top(row_h * 1.7)
    subtitle, rest = rest.take_top(row_h * 0.9)
    bar, rest = rest.take_bottom(row_h * 1.05, row_h * 0.35)
    laid = []
    for count in rows:
        strip, rest = rest.take_top(row_h * per_row)
        if stacked:
            label, body = strip.take_top(row_h * 0.75)
            body = body.inset(0, row_h * 0.05)
        else:
            body = strip.inset(0, row_h * 0.1)
            label = Rect(body.x, body.y, body.w * 0.27, body.h)
            body = Rect(body.x + body.w * 0.29, body.y, body.w * 0.71, body.h)
        laid.append((label, _choices(body, count, row_h)))
    bar_buttons = dict(zip(buttons, bar.columns(len(buttons), row_h * 0.3), strict=True))
    return MenuLayout(card, title, subtitle, tuple(laid), bar_buttons, font)


def _choices(area: Rect, count: int, row_h: float) -> tuple[Rect, ...]:
    """Return the rectangles of ``count`` side-by-side choices in ``area``, or for a
    stepper (``count`` 1 or less) its back arrow, value and forward arrow."""
    if count > 1:
        return tuple(area.columns(count, clamp(row_h * 0.12, 2, 6)))
    arrow = min(area.h * 1.3, area.w * 0.2)
    back = Rect(area.x, area.y, arrow, area.h)
    forward = Rect(area.right - arrow, area.y, arrow, area.h)
    value = Rect(back.right + 4, area.y, max(0.0, area.w - 2 * arrow - 8), area.h)
    return (back, value, forward)


def overlay_card(width: float, height: float, lines: int) -> Rect:
    """Return a centred card big enough for ``lines`` lines of text (help, banners)."""
    width, height = max(MIN_SIZE, width), max(MIN_SIZE, height)
    m = margin(width, height)
    w = min(width - 2 * m, clamp(width * 0.7, 260, 620))
    h = min(height - 2 * m, clamp(height * 0.06, 16, 30) * (lines + 3))
    return Rect((width - w) / 2, (height - h) / 2, max(0.0, w), max(0.0, h))
