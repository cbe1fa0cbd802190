"""Where everything goes on screen: pure functions of the window size (no pygame).

The window is split into a board area and a side panel (on the right when the window is
wide, at the bottom when it is tall). ``board_layout(kind, n, width, height)`` fits the
board into the board area, turned half round when ``flipped`` (the geometry is in
``board_geometry``); ``panel_layout`` gives the rectangles of the side panel's parts
and buttons (the start screen's are in ``start.menu_layout``, the margin and the
window's way round that every screen shares in ``kit.window``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from oska_gui.session.settings import Mode

from ..board.board_geometry import BoardLayout, fit_board, frame_box
from ..kit.rect import Rect, clamp
from ..kit.typescale import LINE, TOUCH_TARGET, TypeScale, estimated_width, type_scale
from ..kit.widgets import BUTTON_PAD
from ..kit.window import MIN_SIZE, is_portrait, margin
from .commands import button_count

CARD_PAD = 5.0  # above and below a player card's two lines
MOVE_STEP = 1.15  # the move list's line height, in small-text lines
SHORT_LABEL = "Resume"  # the longest short button label (the panel below the board)
MOUSE_BUTTON = 28.0  # the least height of a panel button for the mouse


def board_area(width: float, height: float, aspect: float = 0.0,
               buttons: int | None = None) -> Rect:
    """Return the part of a ``width`` x ``height`` window given to a board whose height
    is ``aspect`` times its width (0: not known) beside a panel of ``buttons`` buttons
    (None: those of a game against the computer)."""
    return split_screen(width, height, aspect, buttons)[0]


def board_layout(kind: str, n: int, width: float, height: float,
                 buttons: int | None = None, flipped: bool = False) -> BoardLayout:
    """Return the layout of the ``kind`` board of size ``n`` in a window of that size.

    Args:
        kind: the game, a ``GameKind`` (or its value).
        n: the board size (one its rules support).
        width: the window width in pixels.
        height: the window height in pixels.
        buttons: how many buttons the panel has (below the board they take room);
            None: those of a game against the computer (``commands.button_count``).
        flipped: whether to turn the board half round (Black's home row at the top).

    Returns:
        A BoardLayout centred in the board area and as big as fits.

    Raises:
        ValueError: for an unknown game or an unsupported size.
    """
    board = fit_board(kind, n, board_area(width, height, board_aspect(kind, n), buttons))
    if not flipped:
        return board
    # Both boards are symmetric under a half turn, which maps cell i onto the place of
    # the last cell but i (reading order reversed): the frame stays, the cells swap.
    return replace(board, centers=board.centers[::-1])


def board_aspect(kind: str, n: int) -> float:
    """Return the height of the ``kind`` board of size ``n`` drawn 1 pixel wide."""
    _, _, w, h = frame_box(kind, n)
    return h / w


def split_screen(width: float, height: float, aspect: float = 0.0,
                 buttons: int | None = None) -> tuple[Rect, Rect]:
    """Return (board area, side panel) for a window of ``width`` x ``height`` pixels.

    A wide window has the panel on the right. A tall one has it below the board, which
    gets the height it takes at the window's full width (``aspect`` times the width)
    as long as the panel keeps room for its parts and ``buttons`` buttons (None: those
    of a game against the computer, counted from the commands' list); the panel gets
    the rest.
    """
    if buttons is None:
        buttons = button_count(Mode.HVC)
    width, height = max(MIN_SIZE, width), max(MIN_SIZE, height)
    m = margin(width, height)
    inner = Rect(0, 0, width, height).inset(m)
    if is_portrait(width, height):
        need = _portrait_panel_needs(inner.w, type_scale(width, height), buttons)
        natural = inner.w * aspect if aspect > 0 else inner.h * 0.64
        board_h = max(inner.h * 0.4, min(natural, inner.h - m - need))
        board, panel = inner.take_top(board_h, m)
    else:
        panel_w = clamp(width * 0.30, 220, 400)
        panel_w = min(panel_w, inner.w * 0.45)
        board = Rect(inner.x, inner.y, max(0.0, inner.w - panel_w - m), inner.h)
        panel = Rect(inner.right - panel_w, inner.y, panel_w, inner.h)
    return board, panel


@dataclass(frozen=True)
class PanelLayout:
    """The side panel's parts: title, the two player cards, status, moves and buttons,
    and the type scale their texts use."""

    panel: Rect
    title: Rect
    players: tuple[Rect, Rect]
    status: Rect
    moves: Rect
    buttons: dict[str, Rect]
    scale: TypeScale


@dataclass(frozen=True)
class _PanelSizes:
    """The heights of the panel's parts at one type scale, and its spacing."""

    title: float
    card: float
    status: float
    moves: float  # the least worth showing: two lines
    gap: float


def _panel_sizes(scale: TypeScale) -> _PanelSizes:
    """Return the panel's part heights for texts of ``scale``."""
    return _PanelSizes(title=scale.title * LINE,
                       card=(scale.label + scale.small) * LINE + CARD_PAD * 2,
                       status=(scale.body + 2 * scale.small) * LINE,
                       moves=2 * scale.small * LINE * MOVE_STEP + CARD_PAD * 2,
                       gap=scale.body * 0.45)


def _panel_pad(panel_w: float) -> float:
    """Return the padding inside a panel ``panel_w`` pixels wide."""
    return clamp(panel_w * 0.05, 8, 16)


def _portrait_panel_needs(panel_w: float, scale: TypeScale, buttons: int) -> float:
    """Return the height a panel below the board needs: its parts, two lines of moves
    and ``buttons`` buttons, a finger's height each."""
    sizes = _panel_sizes(scale)
    pad = _panel_pad(panel_w)
    rows = math.ceil(buttons / _button_columns(panel_w - 2 * pad, buttons, scale, sizes.gap,
                                               SHORT_LABEL))
    grid = rows * TOUCH_TARGET + (rows - 1) * sizes.gap
    return 2 * pad + sizes.title + sizes.card + sizes.status + sizes.moves + grid + 4 * sizes.gap


def _button_columns(width: float, count: int, scale: TypeScale, gap: float,
                    label: str) -> int:
    """Return how many columns ``count`` buttons take in ``width`` pixels: as many as
    fit ``label`` (the longest a button shows) each, spread evenly over the rows."""
    least = max(TOUCH_TARGET, estimated_width(label, scale.label) + BUTTON_PAD)
    fit = max(1, min(count, int((width + gap) // (least + gap))))
    rows = math.ceil(count / fit)
    return math.ceil(count / rows)


def panel_layout(width: float, height: float, buttons: Sequence[str], touch: bool = False,
                 aspect: float = 0.0,
                 widest: tuple[str, str] = (SHORT_LABEL, SHORT_LABEL)) -> PanelLayout:
    """Return the side panel's layout for the window size and the given buttons.

    The buttons go at the bottom; above them the title, the player cards, the status
    and the move list. Where they do not all fit (a small window) the move list goes
    first, then the title, then the cards' second line, then a line of the status.

    Args:
        width: the window width in pixels.
        height: the window height in pixels.
        buttons: button names, in reading order (filled row by row).
        touch: whether the buttons must take a finger (``TOUCH_TARGET`` high; always
            so below the board, where the room for them is kept anyway).
        aspect: the board's height over its width (see ``split_screen``).
        widest: the widest button label with its key, and the widest without one;
            with the keys where two columns of them fit the panel (the mouse's).

    Returns:
        A PanelLayout; ``buttons`` maps each name to its rectangle.
    """
    _, panel = split_screen(width, height, aspect, len(buttons))
    scale = type_scale(width, height)
    gap = _panel_sizes(scale).gap
    inner = panel.inset(_panel_pad(panel.w))
    portrait = is_portrait(width, height)
    big = touch or portrait
    target = TOUCH_TARGET if big else max(scale.label * 2.2, MOUSE_BUTTON)
    cols = _button_columns(inner.w, len(buttons), scale, gap, widest[1])
    if not big:  # labels with their keys, where two columns of them fit
        hinted = _button_columns(inner.w, len(buttons), scale, gap, widest[0])
        cols = hinted if hinted >= 2 else cols
    rows = math.ceil(len(buttons) / cols)
    grid, rest = inner.take_bottom(rows * target + (rows - 1) * gap, gap)
    title_h, card_h, status_h = _panel_parts(rest.h, scale, 1 if portrait else 2)
    title, rest = rest.take_top(title_h, gap if title_h else 0)
    if portrait:  # the two cards side by side
        cards, rest = rest.take_top(card_h, gap)
        white, black = cards.columns(2, gap)
    else:
        white, rest = rest.take_top(card_h, gap * 0.6)
        black, rest = rest.take_top(card_h, gap)
    status, moves = rest.take_top(status_h, gap)
    return PanelLayout(panel, title, (white, black), status, moves,
                       _grid(grid, buttons, cols, target, gap), scale)


def _panel_parts(room: float, scale: TypeScale, card_rows: int) -> tuple[float, float, float]:
    """Return the heights of the title, a player card and the status that fit ``room``
    pixels with ``card_rows`` rows of cards, dropping what matters least first: the
    move list's room (two lines), the title, the cards' second line, a status line."""
    sizes = _panel_sizes(scale)
    one_line_card = scale.label * LINE + 2 * CARD_PAD
    short_status = (scale.body + scale.small) * LINE
    candidates = [(sizes.title, sizes.card, sizes.status, sizes.moves),
                  (sizes.title, sizes.card, sizes.status, 0.0),
                  (0.0, sizes.card, sizes.status, 0.0),
                  (0.0, one_line_card, sizes.status, 0.0),
                  (0.0, one_line_card, short_status, 0.0)]
    for title, card, status, moves in candidates:
        need = (title + (sizes.gap if title else 0) + card_rows * (card + sizes.gap)
                + status + sizes.gap + moves)
        if need <= room:
            return title, card, status
    return candidates[-1][:3]


def _grid(area: Rect, names: Sequence[str], cols: int, row_h: float,
          gap: float) -> dict[str, Rect]:
    """Return name -> rectangle for ``names`` laid out in rows of ``cols`` in ``area``."""
    out = {}
    for i, name in enumerate(names):
        row, col = divmod(i, cols)
        strip = Rect(area.x, area.y + row * (row_h + gap), area.w, row_h)
        out[name] = strip.columns(cols, gap)[col]
    return out
