"""Where the review screen's parts go: pure functions of the window size (no pygame).

The board takes the game screen's place (``game.layout.split_screen``: beside the panel in
a wide window, above it in a tall one). The panel holds, from the top: the title with
the analysis's progress, the status (the move looked at, its mark, the better move),
a summary line per side, the graph of White's win chance under a caption that says so,
the move list, and a row of
buttons (previous, next, back to the game). ``graph_x``/``graph_index`` and
``move_cells`` place the graph's points and the list's moves, for drawing and for
finding what a click or tap hit alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..board.board_geometry import BoardLayout
from ..game.layout import MOUSE_BUTTON, board_aspect, board_layout, split_screen
from ..kit.rect import Rect, clamp
from ..kit.typescale import LINE, TOUCH_TARGET, TypeScale, estimated_width, type_scale
from ..kit.window import is_portrait

PREVIOUS, NEXT, BACK = "previous", "next", "back"
BUTTONS = (PREVIOUS, NEXT, BACK)
GRAPH_SHARE = 0.4  # of the room left for the graph and the move list, the graph's
GRAPH_MIN, GRAPH_MAX = 48.0, 180.0
MOVE_LINE = 1.2  # the move list's line height, in small-text lines
LIST_PAD = 4.0  # inside the move list's card, around its lines
NUMBER_SAMPLE = "000."  # the widest move number


@dataclass(frozen=True)
class ReviewLayout:
    """The review screen's parts and the type scale of their texts.

    ``title`` has no height where the panel has no room for it; ``caption`` is the
    graph's caption line, above it; ``graph`` and ``moves`` share what the other parts
    leave.
    """

    board: BoardLayout
    panel: Rect
    title: Rect
    status: Rect
    summary: Rect
    caption: Rect
    graph: Rect
    moves: Rect
    buttons: dict[str, Rect]
    scale: TypeScale


def review_layout(kind: str, n: int, width: float, height: float, touch: bool = False,
                  flipped: bool = False) -> ReviewLayout:
    """Return the review screen's layout.

    Args:
        kind: the game, a ``GameKind`` (or its value).
        n: the board size.
        width: the window width in pixels.
        height: the window height in pixels.
        touch: whether the buttons must take a finger (always so below the board).
        flipped: whether the board is turned half round (Black's home row at the top).

    Returns:
        The ReviewLayout.
    """
    board = board_layout(kind, n, width, height, len(BUTTONS), flipped)
    _, panel = split_screen(width, height, board_aspect(kind, n), len(BUTTONS))
    scale = type_scale(width, height)
    gap = scale.body * 0.45
    inner = panel.inset(clamp(panel.w * 0.05, 8, 16))
    big = touch or is_portrait(width, height)
    target = TOUCH_TARGET if big else max(scale.label * 2.2, MOUSE_BUTTON)
    grid, rest = inner.take_bottom(target, gap)
    status_h = 2 * scale.body * LINE
    summary_h = 2 * scale.small * LINE
    title_h = scale.title * LINE
    caption_h = scale.small * LINE
    least = (status_h + summary_h + caption_h + GRAPH_MIN
             + 2 * scale.small * LINE * MOVE_LINE + 4 * gap)
    if rest.h < least + title_h + gap:  # a small panel: the title goes first
        title_h = 0.0
    title, rest = rest.take_top(title_h, gap if title_h else 0)
    status, rest = rest.take_top(status_h, gap)
    summary, rest = rest.take_top(summary_h, gap)
    caption, rest = rest.take_top(caption_h)
    graph, moves = rest.take_top(clamp(rest.h * GRAPH_SHARE, GRAPH_MIN, GRAPH_MAX), gap)
    buttons = dict(zip(BUTTONS, grid.columns(len(BUTTONS), gap), strict=True))
    return ReviewLayout(board, panel, title, status, summary, caption, graph, moves, buttons,
                        scale)


def graph_area(graph: Rect) -> Rect:
    """Return the part of the graph's card the curve spans (inside a small margin)."""
    return graph.inset(min(10.0, graph.w * 0.04), min(6.0, graph.h * 0.08))


def graph_x(graph: Rect, index: int, last: int) -> float:
    """Return the x of position ``index`` (of ``last`` + 1) on the graph."""
    area = graph_area(graph)
    return area.x + area.w * (index / last if last else 0.5)


def graph_y(graph: Rect, chance: float) -> float:
    """Return the y of a win chance (0 at the bottom, 1 at the top) on the graph."""
    area = graph_area(graph)
    return area.bottom - area.h * chance


def graph_index(graph: Rect, x: float, last: int) -> int:
    """Return the position (0 to ``last``) whose point on the graph is nearest ``x``."""
    area = graph_area(graph)
    share = (x - area.x) / area.w if area.w else 0.0
    return round(clamp(share, 0.0, 1.0) * last)


def move_cells(moves: Rect, scale: TypeScale, count: int,
               cursor: int) -> list[tuple[int, Rect]]:
    """Return the moves the list shows and where: (position index, its box).

    The list has two moves a line (White's then Black's, numbered), scrolled so the
    line of ``cursor``'s move is in view; a list with room for fewer than two lines
    shows nothing.

    Args:
        moves: the list's rectangle.
        scale: the text sizes (its lines are small text).
        count: the number of moves in the game.
        cursor: the position looked at (the move that led to it is kept in view).

    Returns:
        For each move shown, the index of the position it led to (1 for the first
        move) and its box; the line's number goes left of its first box.
    """
    step = scale.small * LINE * MOVE_LINE
    visible = int((moves.h - 2 * LIST_PAD) / step + 1e-6)
    if visible < 2 or count == 0:
        return []
    lines = (count + 1) // 2
    current = max(0, (cursor - 1) // 2)
    first = max(0, min(current - visible // 2, lines - visible))
    left = moves.x + estimated_width(NUMBER_SAMPLE, scale.small) + 2 * LIST_PAD
    width = (moves.right - LIST_PAD - left) / 2
    cells = []
    for line in range(first, min(lines, first + visible)):
        y = moves.y + LIST_PAD + (line - first) * step
        for column in range(2):
            index = 2 * line + column + 1
            if index <= count:
                cells.append((index, Rect(left + column * width, y, width - 2, step)))
    return cells


def hit(cells: Sequence[tuple[int, Rect]], x: float, y: float) -> int | None:
    """Return the position index of the move box at (x, y) among ``cells``, or None."""
    return next((index for index, box in cells if box.contains(x, y)), None)
