"""Where everything goes on screen: pure functions of the window size (no pygame).

The window is split into a board area and a side panel (on the right when the window is
wide, at the bottom when it is tall). ``board_layout(kind, n, width, height)`` fits the
board into the board area (the geometry is in ``board_geometry``); ``panel_layout`` and
``menu_layout`` give the rectangles of the side panel's parts and buttons and of the
start screen's options.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from .board_geometry import BoardLayout, fit_board, frame_box
from .rect import Rect, clamp
from .typescale import LINE, TOUCH_TARGET, TypeScale, estimated_width, type_scale
from .widgets import BUTTON_PAD

MIN_SIZE = 1
STACK_BELOW = 520  # start-screen cards narrower than this put labels above choices
TWO_COLUMNS_MIN = 340  # the narrowest column of start-screen rows with labels beside
STACKED_COLUMN_MIN = 140  # ... with labels above
LABEL_SHARE = 0.34  # of a row's width, for its label when beside the choices
CHOICE_MIN = 1.3  # side-by-side choices at least this many touch targets wide
ROW_MAX = 46.0  # start-screen rows grow to this height when there is room
CARD_MAX = 760.0  # the start screen's widest card
CARD_PAD = 5.0  # above and below a player card's two lines
MOVE_STEP = 1.15  # the move list's line height, in small-text lines
HVC_BUTTONS = 6  # the panel's buttons in a game against the computer (commands.BUTTONS)
SHORT_LABEL = "Resume"  # the longest short button label (the panel below the board)
MOUSE_BUTTON = 28.0  # the least height of a panel button for the mouse


def board_area(width: float, height: float, aspect: float = 0.0,
               buttons: int = HVC_BUTTONS) -> Rect:
    """Return the part of a ``width`` x ``height`` window given to a board whose height
    is ``aspect`` times its width (0: not known) beside a panel of ``buttons`` buttons."""
    return split_screen(width, height, aspect, buttons)[0]


def board_layout(kind: str, n: int, width: float, height: float,
                 buttons: int = HVC_BUTTONS) -> BoardLayout:
    """Return the layout of the ``kind`` board of size ``n`` in a window of that size.

    Args:
        kind: the game, a ``GameKind`` (or its value).
        n: the board size (one its rules support).
        width: the window width in pixels.
        height: the window height in pixels.
        buttons: how many buttons the panel has (below the board they take room).

    Returns:
        A BoardLayout centred in the board area and as big as fits.

    Raises:
        ValueError: for an unknown game or an unsupported size.
    """
    return fit_board(kind, n, board_area(width, height, board_aspect(kind, n), buttons))


def board_aspect(kind: str, n: int) -> float:
    """Return the height of the ``kind`` board of size ``n`` drawn 1 pixel wide."""
    _, _, w, h = frame_box(kind, n)
    return h / w


def margin(width: float, height: float) -> float:
    """Return the outer margin for a window of this size (bigger windows, more air)."""
    return clamp(min(width, height) * 0.03, 6, 24)


def is_portrait(width: float, height: float) -> bool:
    """Return True when the panel goes below the board (the window is taller than wide)."""
    return width < height


def split_screen(width: float, height: float, aspect: float = 0.0,
                 buttons: int = HVC_BUTTONS) -> tuple[Rect, Rect]:
    """Return (board area, side panel) for a window of ``width`` x ``height`` pixels.

    A wide window has the panel on the right. A tall one has it below the board, which
    gets the height it takes at the window's full width (``aspect`` times the width)
    as long as the panel keeps room for its parts and ``buttons`` buttons; the panel
    gets the rest.
    """
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


class MenuRow(NamedTuple):
    """One start-screen option row: its label's rectangle and its choices' rectangles;
    a ``stepper`` row has three, previous / value / next."""

    label: Rect
    choices: tuple[Rect, ...]
    stepper: bool

    @property
    def targets(self) -> tuple[Rect, ...]:
        """Return what a pointer may hit: each choice, or a stepper's two halves (back,
        forward), each as big as a finger needs even where the arrows are drawn small."""
        if not self.stepper:
            return self.choices
        back, _, forward = self.choices
        return tuple(Rect(back.x, back.y, forward.right - back.x, back.h).columns(2, 0))


@dataclass(frozen=True)
class MenuLayout:
    """The start screen: card, title, subtitle (0 high when there is no room for it),
    one MenuRow per option row, and the buttons by name."""

    card: Rect
    title: Rect
    subtitle: Rect
    rows: tuple[MenuRow, ...]
    buttons: dict[str, Rect]


@dataclass(frozen=True)
class _MenuPlan:
    """How the start screen's rows are arranged: columns, labels above or beside the
    choices, the rows' height and the gap between them."""

    columns: int
    stacked: bool
    row_h: float
    gap: float
    label_h: float

    @property
    def step(self) -> float:
        """Return the height one row takes, gap included."""
        return (self.label_h if self.stacked else 0.0) + self.row_h + self.gap

    def height(self, rows: int) -> float:
        """Return the height ``rows`` rows and the button bar below them take."""
        return math.ceil(rows / self.columns) * self.step + self.gap + self.row_h


def menu_layout(width: float, height: float, rows: Sequence[int], buttons: Sequence[str],
                capacity: int = 0, touch: bool = False,
                min_widths: Sequence[tuple[float, float]] = ()) -> MenuLayout:
    """Return the start screen's layout.

    The card is as tall as ``capacity`` rows need, so the rows above a choice that adds
    or removes rows stay where they are. Rows go in one column (labels above the choices
    in a narrow card) or, when one column does not fit the height, in two; a row whose
    choices would be too narrow side by side becomes a stepper.

    Args:
        width: the window width in pixels.
        height: the window height in pixels.
        rows: per option row, the number of choices (a row with one choice is a stepper).
        buttons: names of the buttons along the bottom, left to right.
        capacity: the most rows the screen can have (the card's height is for that many).
        touch: whether everything to hit must be at least ``TOUCH_TARGET`` pixels.
        min_widths: per row, the width a choice needs to show its name on one line and
            wrapped onto two (a row whose choices get less becomes a stepper).

    Returns:
        A MenuLayout with a MenuRow per row and the buttons by name.
    """
    width, height = max(MIN_SIZE, width), max(MIN_SIZE, height)
    scale = type_scale(width, height)
    m = margin(width, height)
    card_w = max(0.0, min(width - 2 * m, CARD_MAX))
    pad = clamp(min(card_w, height) * 0.03, 8, 24)
    target = TOUCH_TARGET if touch else scale.label * 1.8
    title_h, subtitle_h = scale.title * 1.5, scale.body * LINE * 1.3
    fixed = title_h + 2 * pad
    room = height - 2 * m - fixed
    plan, subtitle_h = _menu_plan(card_w - 2 * pad, room, subtitle_h, max(capacity, len(rows)),
                                  target, scale.label * LINE)
    card_h = min(height - 2 * m, fixed + subtitle_h + plan.height(max(capacity, len(rows))))
    card = Rect((width - card_w) / 2, (height - card_h) / 2, card_w, max(0.0, card_h))
    inner = card.inset(pad)
    title, rest = inner.take_top(title_h)
    subtitle, rest = rest.take_top(subtitle_h)
    bar, rest = rest.take_bottom(plan.row_h, plan.gap)
    two_lines = plan.row_h >= 2 * scale.label * LINE
    needs = [pair[1 if two_lines else 0] for pair in min_widths] or [0.0] * len(rows)
    laid = _menu_rows(rest, list(zip(rows, needs, strict=True)), plan, target)
    bar_buttons = dict(zip(buttons, bar.columns(len(buttons), plan.gap * 2), strict=True))
    return MenuLayout(card, title, subtitle, laid, bar_buttons)


def _menu_plan(inner_w: float, room: float, subtitle_h: float, count: int, target: float,
               label_h: float) -> tuple[_MenuPlan, float]:
    """Return the arrangement of ``count`` rows in ``room`` pixels below the title (and
    the subtitle's height, 0 when it had to go to make room).

    Tried in turn, with the subtitle and then without it: one column (labels above the
    choices when narrow), one column with the labels beside, two columns; rows grow to
    ``ROW_MAX`` pixels when there is room. If none fits, one column of rows is squeezed
    (never below one line of text), the best that can be done."""
    gap = target * 0.12
    candidates = [_MenuPlan(1, inner_w < STACK_BELOW, target, gap, label_h),
                  _MenuPlan(1, False, target, gap, label_h)]
    if inner_w >= 2 * TWO_COLUMNS_MIN:
        candidates.append(_MenuPlan(2, False, target, gap, label_h))
    elif inner_w >= 2 * STACKED_COLUMN_MIN:
        candidates.append(_MenuPlan(2, True, target, gap, label_h))
    for sub, plan in itertools.product((subtitle_h, 0.0), candidates):
        spare = room - sub - plan.height(count)
        if spare >= 0:
            lines = math.ceil(count / plan.columns) + 1  # the button bar is one more
            grown = clamp(plan.row_h + spare / lines, plan.row_h, max(plan.row_h, ROW_MAX))
            return replace(plan, row_h=grown), sub
    squeezed = max(label_h, room / (count + 1) - gap)
    return _MenuPlan(1, False, min(target, squeezed), gap, label_h), 0.0


def _menu_rows(area: Rect, rows: Sequence[tuple[int, float]], plan: _MenuPlan,
               target: float) -> tuple[MenuRow, ...]:
    """Return the MenuRows of ``rows`` (choices, width a choice needs) laid out by
    ``plan`` in ``area``, filling the columns top to bottom, left to right."""
    per_column = max(1, math.ceil(len(rows) / plan.columns))
    columns = area.columns(plan.columns, target * 0.6)
    laid = []
    for index, (count, need) in enumerate(rows):
        column, place = divmod(index, per_column)
        strip = Rect(columns[column].x, area.y + place * plan.step, columns[column].w,
                     plan.step - plan.gap)
        if plan.stacked:
            label, body = strip.take_top(plan.label_h)
        else:
            label = Rect(strip.x, strip.y, strip.w * LABEL_SHARE, strip.h)
            body = Rect(label.right + plan.gap, strip.y, strip.w - label.w - plan.gap, strip.h)
        laid.append(_menu_row(label, body, count, need, plan.gap, target * CHOICE_MIN))
    return tuple(laid)


def _menu_row(label: Rect, body: Rect, count: int, need: float, gap: float,
              target: float) -> MenuRow:
    """Return the MenuRow of a row of ``count`` choices in ``body``: side by side when
    each gets ``need`` pixels of width (``target`` at least), else a stepper."""
    if count > 1 and (body.w - gap * (count - 1)) / count >= max(need, target):
        return MenuRow(label, tuple(body.columns(count, gap)), False)
    arrow = min(body.h * 1.3, body.w * 0.2)
    back = Rect(body.x, body.y, arrow, body.h)
    forward = Rect(body.right - arrow, body.y, arrow, body.h)
    value = Rect(back.right + gap, body.y, max(0.0, body.w - 2 * (arrow + gap)), body.h)
    return MenuRow(label, (back, value, forward), True)
