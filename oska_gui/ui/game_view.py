"""Painting the game screen from a view model: board, toast, banner and side panel.

``GameView`` holds everything one frame of the game screen shows, already decided by
the controller (``game_scene.GameScene``): the board's ``BoardView``, the panel's
layout, texts, player cards and buttons, the toast and the game-over banner. ``draw``
paints it and decides nothing about the game, as ``board_view`` does for the board.
"""

from __future__ import annotations

from dataclasses import dataclass

from oska_gui.core.types import SIDE_NAMES

from . import board_view, theme
from .board_geometry import BoardLayout
from .canvas import Canvas
from .layout import PanelLayout
from .panel_text import MoveRow
from .rect import Rect
from .widgets import break_line, button, card, fit_size, fitted_text, spinner

BANNER_KEYS = "Click to see the board   N: new game   U: undo"


@dataclass(frozen=True)
class PlayerCard:
    """One side's card: who plays it, its pieces left, whether it moves or thinks now."""

    role: str
    count: int
    to_move: bool
    thinking: bool


@dataclass(frozen=True)
class ButtonView:
    """A panel button as shown: label, pointer over it, usable, highlighted."""

    label: str
    hover: bool
    enabled: bool
    active: bool


@dataclass(frozen=True)
class Banner:
    """The game-over banner: who won and why."""

    title: str
    reason: str


@dataclass
class GameView:
    """What the game screen shows in one frame.

    ``toast`` is a message and the seconds it still shows; ``cursor`` the ply the move
    list marks as current; ``clock`` drives the thinking spinner; ``width`` is the
    window's (the banner and toast stay inside it).
    """

    board: board_view.BoardView
    panel: PanelLayout
    width: float
    title: str
    mode: str
    cards: tuple[PlayerCard, PlayerCard]
    status: str
    over: bool
    detail: str
    moves: list[MoveRow]
    cursor: int
    buttons: dict[str, ButtonView]
    toast: tuple[str, float] | None
    banner: Banner | None
    clock: float


def draw(canvas: Canvas, view: GameView) -> None:
    """Paint the game screen ``view`` on ``canvas``."""
    board, panel = view.board.layout, view.panel
    canvas.layer(("game", board, panel.panel), lambda c: _backdrop(c, board, panel.panel))
    board_view.draw(canvas, view.board)
    if view.toast is not None:
        _toast(canvas, board, view.width, *view.toast)
    if view.banner is not None:
        _banner(canvas, board, view.width, view.banner)
    _panel(canvas, view)


def _backdrop(canvas: Canvas, board: BoardLayout, panel: Rect) -> None:
    """Paint what stays put during a game: background, empty board, panel card."""
    canvas.clear(theme.BACKGROUND)
    board_view.draw_board(canvas, board)
    card(canvas, panel, theme.PANEL, 14)


def _toast(canvas: Canvas, board: BoardLayout, window_w: float, text: str, left: float) -> None:
    """Draw ``text`` as a pill at the top of the board area, fading in its last
    ``left`` seconds."""
    alpha = min(1.0, left / 0.4)
    size = max(11.0, min(18.0, board.pitch * 0.3))
    width = canvas.text_width(text, size) + size * 2
    width = min(width, max(board.rect.w, window_w * 0.5))
    x = board.rect.center[0] - width / 2
    y = max(4.0, board.rect.y - size * 0.6)
    canvas.rect(x, y, width, size * 2, (20, 22, 28, int(220 * alpha)), size)
    fitted_text(canvas, text, x + width / 2, y + size, width - size, size,
                (*theme.TEXT[:3], int(255 * alpha)))


def banner_rect(board: BoardLayout, width: float) -> Rect:
    """Return where the game-over banner lies: across the middle of the board.

    Args:
        board: the board's layout.
        width: the window's width (the banner stays inside it).

    Returns:
        The banner's rectangle (screenshot tests skip the cells it hides).
    """
    rect = board.rect
    cx, cy = rect.center
    w = min(max(rect.w * 1.05, 260.0), width - 8)
    h = max(90.0, min(150.0, rect.h * 0.3))
    return Rect(cx - w / 2, cy - h / 2, w, h)


def _banner(canvas: Canvas, board: BoardLayout, window_w: float, banner: Banner) -> None:
    """Draw the game-over banner across the board: who won, why, what next."""
    band = banner_rect(board, window_w)
    cx, w, h = band.center[0], band.w, band.h
    canvas.rect(band.x, band.y, band.w, band.h, theme.BANNER, 14)
    canvas.rect(band.x, band.y, band.w, band.h, (*theme.SELECT, 160), 14, 2)
    big = h * 0.3
    fitted_text(canvas, banner.title, cx, band.y + h * 0.3, w - 20, big, theme.SELECT,
                bold=True)
    reason = banner.reason[:1].upper() + banner.reason[1:]
    fitted_text(canvas, reason, cx, band.y + h * 0.6, w - 20, big * 0.5, theme.TEXT)
    fitted_text(canvas, BANNER_KEYS, cx, band.y + h * 0.83, w - 20, big * 0.38, theme.TEXT_DIM)


# -- the side panel ------------------------------------------------------------------------


def _panel(canvas: Canvas, view: GameView) -> None:
    """Draw the side panel's content: title, player cards, status, moves, buttons."""
    panel = view.panel
    line = panel.line_height
    title = panel.title
    fitted_text(canvas, view.title, title.x, title.center[1], title.w * 0.6,
                line * 1.25, theme.TEXT, anchor="left", bold=True)
    size = fit_size(canvas, view.mode, title.w * 0.34, line * 0.85)
    if size >= line * 0.6:  # in a narrow panel the title needs the room more
        canvas.text(view.mode, title.right, title.center[1], size, theme.TEXT_DIM, "right")
    for side, rect in enumerate(panel.players):
        _player_card(canvas, view, rect, side, line)
    _status(canvas, view, panel.status, line)
    _moves(canvas, view, panel.moves, line)
    for name, rect in panel.buttons.items():
        shown = view.buttons[name]
        button(canvas, rect, shown.label, line * 0.92, hover=shown.hover,
               enabled=shown.enabled, active=shown.active)


def _player_card(canvas: Canvas, view: GameView, rect: Rect, side: int, line: float) -> None:
    """Draw one side's card: piece, name, who plays it, pieces left, thinking."""
    shown = view.cards[side]
    canvas.rect(rect.x, rect.y, rect.w, rect.h, theme.CARD, 10)
    if shown.to_move:
        canvas.rect(rect.x, rect.y, rect.w, rect.h, theme.SELECT, 10, 2)
    r = rect.h * 0.3
    px, cy = rect.x + r + rect.h * 0.22, rect.center[1]
    board_view.piece(canvas, view.board.layout.kind, r, px, cy, side)
    left = px + r * 1.8
    name_y, role_y = rect.y + rect.h * 0.32, rect.y + rect.h * 0.7
    canvas.text(SIDE_NAMES[side], left, name_y, line * 1.05, theme.TEXT, "left", bold=True)
    fitted_text(canvas, shown.role, left, role_y, rect.right - left - 8, line * 0.82,
                theme.TEXT_DIM, anchor="left")
    right = rect.right - 10
    if shown.thinking:
        spinner(canvas, right - line * 0.5, name_y, line * 0.5, view.clock)
    else:
        canvas.text(f"{shown.count} left", right, name_y, line * 0.85, theme.TEXT_DIM, "right")


def _status(canvas: Canvas, view: GameView, rect: Rect, line: float) -> None:
    """Draw the status line, and the detail line below it; a status too long for one
    line (a forfeit's reason) takes both lines instead."""
    over = view.over
    ink = theme.SELECT if over else theme.TEXT
    for size in (line, line * 0.9, line * 0.8, line * 0.72):  # two lines at one size
        first, rest = break_line(canvas, view.status, rect.w, size, over)
        if canvas.text_width(rest, size, over) <= rect.w:
            break
    fitted_text(canvas, first, rect.x, rect.y + line * 0.7, rect.w, size,
                ink, anchor="left", bold=over)
    if rest:
        fitted_text(canvas, rest, rect.x, rect.y + line * 1.9, rect.w, size, ink,
                    anchor="left", bold=over)
        return
    fitted_text(canvas, view.detail, rect.x, rect.y + line * 1.9, rect.w, line * 0.82,
                theme.TEXT_DIM, anchor="left")


def _moves(canvas: Canvas, view: GameView, rect: Rect, line: float) -> None:
    """Draw the move list in notation, two plies a line, the current ply marked."""
    if rect.h < line * 2:
        return
    canvas.rect(rect.x, rect.y, rect.w, rect.h, theme.BACKGROUND, 8)
    size = line * 0.9
    step = size * 1.45
    rows = view.moves
    visible = max(1, int((rect.h - step * 0.6) / step))
    current_row = max(0, (view.cursor - 1) // 2)
    first = max(0, min(current_row - visible + 2, len(rows) - visible))
    if not rows:
        canvas.text("No moves yet", rect.center[0], rect.center[1], size, theme.TEXT_FAINT)
        return
    col = rect.w / 12
    ink = {"past": theme.TEXT, "current": theme.SELECT, "future": theme.TEXT_FAINT}
    for i, (number, plies) in enumerate(rows[first:first + visible]):
        y = rect.y + step * (i + 0.8)
        canvas.text(f"{number}.", rect.x + col * 1.6, y, size, theme.TEXT_FAINT, "right")
        for j, (text, state) in enumerate(plies):
            x = rect.x + col * (2.3 + j * 4.6)
            if state == "current":
                canvas.rect(x - 4, y - step / 2 + 1, col * 4.3, step - 2, theme.CARD, 5)
            canvas.text(text, x, y, size, ink[state], "left", bold=state == "current")
