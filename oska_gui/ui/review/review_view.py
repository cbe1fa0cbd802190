"""Painting the review screen from a view model: board, graph, marked moves, summaries.

``ReviewView`` holds what one frame of the review screen shows, already decided by the
controller (``review_scene.ReviewScene``); ``draw`` paints it. The board is the game
screen's (``board_view``): before a marked move, its hint arrow shows the better move
over the move played as a red arrow (``replaced``); the graph is White's
win chance along the game, with the marked moves as coloured dots and the position
looked at as a line; the move list gives each move its symbol (?!, ?, ??) in the mark's
colour (``theme.MARK_*``, each readable on the panel's surfaces).
"""

from __future__ import annotations

from dataclasses import dataclass

from oska_gui.core.text import drawable
from oska_gui.play.review.marks import Mark

from ..board import board_view
from ..game.game_view import ButtonView
from ..kit import theme
from ..kit.canvas import Canvas, Color
from ..kit.rect import Rect
from ..kit.typescale import LINE
from ..kit.widgets import Wording, button, card, fit_lines, fitting, keyed
from .review_layout import (
    LIST_PAD,
    ReviewLayout,
    graph_area,
    graph_x,
    graph_y,
    move_cells,
)

MARK_COLORS: dict[Mark, Color] = {Mark.INACCURACY: theme.MARK_INACCURACY,
                                  Mark.MISTAKE: theme.MARK_MISTAKE,
                                  Mark.BLUNDER: theme.MARK_BLUNDER}
TITLE = "Review"
# the graph's caption, from the longest wording to the shortest
GRAPH_CAPTION = ("White's win chance (100 % at the top, 50 % on the middle line)",
                 "White's win chance (50 % on the middle line)", "White's win chance",
                 "White's chance")


@dataclass
class ReviewView:
    """What the review screen shows in one frame.

    ``progress`` is how far the analysis is (its wordings, the longest first; none
    once it is complete); ``status`` is the position looked at in words (its wordings,
    the longest first);
    ``chances`` is White's win chance at each position analysed so far (of ``last``
    + 1), ``marks`` the mark of the move that led to each position (None at the start,
    for a move not analysed yet or a random opening move), ``labels`` each move's text
    with its symbol (index 0 unused), ``cursor`` the position looked at.
    """

    board: board_view.BoardView
    layout: ReviewLayout
    progress: tuple[str, ...]
    status: Wording
    summaries: tuple[str, str]
    chances: list[float]
    marks: list[Mark | None]
    labels: list[str]
    cursor: int
    last: int
    buttons: dict[str, ButtonView]


def draw(canvas: Canvas, view: ReviewView) -> None:
    """Paint the review screen ``view`` on ``canvas``."""
    layout = view.layout
    board = layout.board
    canvas.layer(("review", board, layout.panel), lambda c: _backdrop(c, view))
    board_view.draw(canvas, view.board)
    _title(canvas, view)
    _status(canvas, view)
    _graph(canvas, view)
    _moves(canvas, view)
    keys = all(canvas.text_width(keyed(shown.label, shown.key, False)[0], layout.scale.label)
               <= layout.buttons[name].w - 10 for name, shown in view.buttons.items())
    for name, rect in layout.buttons.items():
        shown = view.buttons[name]
        button(canvas, rect, keyed(shown.label, shown.key, not keys), layout.scale.label,
               hover=shown.hover, enabled=shown.enabled, active=shown.active)


def _backdrop(canvas: Canvas, view: ReviewView) -> None:
    """Paint what stays put: background, empty board, the panel's card."""
    canvas.clear(theme.BACKGROUND)
    board_view.draw_board(canvas, view.layout.board)
    card(canvas, view.layout.panel, theme.PANEL, 14)


def _title(canvas: Canvas, view: ReviewView) -> None:
    """Draw the title and, right of it while the analysis runs, its progress: the
    longest wording that fits beside the title whole. Where none does, the progress
    takes the title's place (it tells more while it changes; the title returns when the
    analysis is done) in the longest wording that fits the row; a wording is never
    cut."""
    rect, scale = view.layout.title, view.layout.scale
    if rect.h <= 0:
        return
    y = rect.center[1]
    room = rect.w - canvas.text_width(TITLE, scale.title, True) - scale.small
    beside = fitting(canvas, view.progress, room, scale.small)
    alone = fitting(canvas, view.progress, rect.w, scale.small)
    if beside is None and alone is not None:
        canvas.text(alone, rect.x, y, scale.small, theme.TEXT_DIM, "left")
        return
    canvas.text(TITLE, rect.x, y, scale.title, theme.TEXT, "left", True)
    if beside is not None:
        canvas.text(beside, rect.right, y, scale.small, theme.TEXT_DIM, "right")


def _status(canvas: Canvas, view: ReviewView) -> None:
    """Draw the position looked at in words (the longest wording that takes two lines
    of body text at most) and each side's summary (a small line each)."""
    layout = view.layout
    scale, rect = layout.scale, layout.status
    lines = fit_lines(canvas, view.status, rect.w, scale.body, 2)
    if len(lines) > 2:
        lines = [lines[0], _clipped(canvas, " ".join(lines[1:]), rect.w, scale.body)]
    for i, line in enumerate(lines):
        canvas.text(line, rect.x, rect.y + scale.body * LINE * (i + 0.5), scale.body,
                    theme.TEXT, "left")
    summary = layout.summary
    for i, line in enumerate(view.summaries):
        canvas.text(_clipped(canvas, line, summary.w, scale.small), summary.x,
                    summary.y + scale.small * LINE * (i + 0.5), scale.small,
                    theme.TEXT_DIM, "left")


def _clipped(canvas: Canvas, text: str, width: float, size: float) -> str:
    """Return ``text`` (as ``drawable``, so a long one is cut at once rather than a
    character at a time) cut to fit ``width`` at ``size``, ending in '…' if cut."""
    text = drawable(text)
    if canvas.text_width(text, size) <= width:
        return text
    while text and canvas.text_width(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


def _graph(canvas: Canvas, view: ReviewView) -> None:
    """Draw White's win chance along the game under its caption: the area under it,
    the 50 % line, a dot at each marked move and the line of the position looked at.
    The caption says whose chance it is, as the graph always shows White's."""
    rect, caption = view.layout.graph, view.layout.caption
    if rect.h <= 0 or rect.w <= 0:
        return
    size = view.layout.scale.small
    shown = fit_lines(canvas, GRAPH_CAPTION, caption.w, size)[0]
    canvas.text(_clipped(canvas, shown, caption.w, size), caption.x, caption.center[1], size,
                theme.TEXT_DIM, "left")
    canvas.rect(rect.x, rect.y, rect.w, rect.h, theme.BACKGROUND, 8)
    area = graph_area(rect)
    middle = graph_y(rect, 0.5)
    canvas.line(area.x, middle, area.right, middle, theme.PANEL_EDGE, 1)
    points = [(graph_x(rect, i, view.last), graph_y(rect, chance))
              for i, chance in enumerate(view.chances)]
    if len(points) >= 2:
        canvas.polygon([(points[0][0], area.bottom), *points, (points[-1][0], area.bottom)],
                       theme.GRAPH_WHITE)
        for a, b in zip(points, points[1:], strict=False):
            canvas.line(*a, *b, theme.GRAPH_LINE, 2)
    x = graph_x(rect, view.cursor, view.last)
    canvas.line(x, area.y, x, area.bottom, theme.SELECT, 2)
    radius = max(3.0, min(6.0, rect.h * 0.04))
    for i, (px, py) in enumerate(points):
        mark = view.marks[i] if i < len(view.marks) else None
        if mark is not None and mark in MARK_COLORS:
            canvas.circle(px, py, radius + 1.5, theme.BACKGROUND)
            canvas.circle(px, py, radius, MARK_COLORS[mark])


def _moves(canvas: Canvas, view: ReviewView) -> None:
    """Draw the move list, two moves a line with their numbers, each move with its
    mark's symbol in the mark's colour, the move looked at on a card."""
    layout = view.layout
    rect, size = layout.moves, layout.scale.small
    cells = move_cells(rect, layout.scale, view.last, view.cursor)
    if not cells:
        return
    canvas.rect(rect.x, rect.y, rect.w, rect.h, theme.BACKGROUND, 8)
    for index, box in cells:
        y = box.center[1]
        if index % 2 == 1:
            canvas.text(f"{index // 2 + 1}.", box.x - LIST_PAD, y, size, theme.TEXT_FAINT,
                        "right")
        current = index == view.cursor
        if current:
            canvas.rect(box.x, box.y + 1, box.w, box.h - 2, theme.CARD, 5)
        _move(canvas, box, view.labels[index], view.marks[index], size, current)


def _move(canvas: Canvas, box: Rect, label: str, mark: Mark | None, size: float,
          current: bool) -> None:
    """Draw one move of the list in ``box``: its notation, then its symbol coloured."""
    move, _, symbol = label.partition(" ")
    x, y = box.x + LIST_PAD, box.center[1]
    ink = theme.SELECT if current else theme.TEXT
    canvas.text(move, x, y, size, ink, "left", bold=current)
    if symbol and mark in MARK_COLORS:
        x += canvas.text_width(move + " ", size, current)
        canvas.text(symbol, x, y, size, MARK_COLORS[mark], "left", bold=True)
