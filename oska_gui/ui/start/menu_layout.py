"""The start screen's layout: a card of option rows and a bar of buttons (no pygame).

``menu_layout`` lays the rows out in one column (labels above the choices when the card
is narrow, else beside them) or in two, whichever first fits the window; the card is
as tall as the most rows the screen can have, so rows never move when others come and
go. A row whose choices would be too narrow side by side becomes a stepper.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from ..kit.rect import Rect, clamp
from ..kit.typescale import LINE, TOUCH_TARGET, type_scale
from ..kit.window import MIN_SIZE, margin

STACK_BELOW = 520  # start-screen cards narrower than this put labels above choices
TWO_COLUMNS_MIN = 340  # the narrowest column of start-screen rows with labels beside
STACKED_COLUMN_MIN = 140  # ... with labels above
LABEL_SHARE = 0.28  # of a row's width, for its label when beside the choices
CHOICE_MIN = 1.3  # side-by-side choices at least this many touch targets wide
ROW_MAX = 46.0  # start-screen rows grow to this height when there is room
CARD_MAX = 760.0  # the start screen's widest card, up to a window of twice that width
CARD_SHARE = 0.5  # of a wider window's width: the longest wordings get their room


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
    card_w = max(0.0, min(width - 2 * m, max(CARD_MAX, width * CARD_SHARE)))
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
