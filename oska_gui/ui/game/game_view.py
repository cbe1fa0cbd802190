"""Painting the game screen from a view model: board, toast, banner and side panel.

``GameView`` holds everything one frame of the game screen shows, already decided by
the controller (``game_scene.GameScene``): the board's ``BoardView``, the panel's
layout, texts, player cards and buttons, the toast and the game-over banner. ``draw``
paints it and decides nothing about the game, as ``board_view`` does for the board.
"""

from __future__ import annotations

from dataclasses import dataclass

from oska_gui.core.types import SIDE_NAMES

from ..board import board_view
from ..board.board_geometry import BoardLayout
from ..kit import theme
from ..kit.canvas import Canvas
from ..kit.rect import Rect
from ..kit.typescale import LINE, TypeScale
from ..kit.widgets import (
    BUTTON_PAD,
    Wording,
    button,
    card,
    fit_lines,
    keyed,
    spinner,
    text_lines,
    wrap,
)
from .layout import CARD_PAD, MOVE_STEP, PanelLayout
from .panel_text import MoveRow
from .typed_move import LineView

# What the game-over banner says to do next, in the words of the input last used
BANNER_KEYS = {"mouse": ("Click to see the board   N: new game   U: undo",
                         "Click to see the board"),
               "keys": ("Esc: see the board   N: new game   U: undo", "Esc: see the board"),
               "touch": ("Tap to see the board",)}
CARD_INSET = 8.0  # pixels between a player card's edge, piece and texts
TOAST_LINES = 3  # the most lines a toast at the top of the move list takes


@dataclass(frozen=True)
class PlayerCard:
    """One side's card: who plays it (a ``Wording``: the longest that fits is shown),
    its pieces left, whether it moves or thinks now."""

    role: Wording
    count: int
    to_move: bool
    thinking: bool


@dataclass(frozen=True)
class ButtonView:
    """A panel button as shown: label (its wordings), the key that does the same for
    keyboard users ('' after a touch), pointer over it, usable, highlighted."""

    label: Wording
    key: str
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
    window's (the banner stays inside it); ``touch``: the player uses a finger (the
    banner says 'Tap' and names no keys); ``keyboard``: the last press in the game was
    a key (the banner says Esc, not 'Click'); ``line`` the typed-move line while it is
    open (it takes the toast's place).
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
    touch: bool = False
    line: LineView | None = None
    keyboard: bool = False


def draw(canvas: Canvas, view: GameView) -> None:
    """Paint the game screen ``view`` on ``canvas``."""
    board, panel = view.board.layout, view.panel
    canvas.layer(("game", board, panel.panel), lambda c: _backdrop(c, board, panel.panel))
    board_view.draw(canvas, view.board)
    if view.banner is not None:
        _banner(canvas, view, view.banner)
    _panel(canvas, view)


def _backdrop(canvas: Canvas, board: BoardLayout, panel: Rect) -> None:
    """Paint what stays put during a game: background, empty board, panel card."""
    canvas.clear(theme.BACKGROUND)
    board_view.draw_board(canvas, board)
    card(canvas, panel, theme.PANEL, 14)


def _card_and_list(canvas: Canvas, view: GameView) -> tuple[Rect | None, Rect]:
    """Return where this frame's message card goes (the typed-move line, else the
    toast; None without one) and the part of the move list's box its lines may use.

    The card takes the top of the list's box where it has room (a toast only as many
    lines as its text needs, up to ``TOAST_LINES``), and the list keeps the rest below
    it, so the card hides no move; else the card takes the status lines' place. It
    never goes over the board, whose every cell stays in view.
    """
    panel, scale = view.panel, view.panel.scale
    if view.line is not None:  # the entry and two lines of notes
        height = (scale.body + 2 * scale.small) * LINE + 2 * CARD_PAD
    elif view.toast is not None:
        lines = _toast_lines(canvas, view.toast[0], panel.moves.w, scale.small)
        height = min(len(lines), TOAST_LINES) * scale.small * LINE + 2 * CARD_PAD
    else:
        return None, panel.moves
    if panel.moves.h >= height:
        return panel.moves.take_top(height, CARD_PAD)
    return panel.status, panel.moves


def _toast_lines(canvas: Canvas, text: str, width: float, size: float) -> list[str]:
    """Return the toast ``text`` wrapped to fit a card ``width`` wide (with a margin on
    each side) at ``size``."""
    return wrap(canvas, text, width - size * 1.5, size)


def _toast(canvas: Canvas, area: Rect, scale: TypeScale, text: str, left: float) -> None:
    """Draw ``text`` as a message card over ``area``, fading in its last ``left`` seconds."""
    alpha = min(1.0, left / 0.4)
    size = scale.small
    lines = _toast_lines(canvas, text, area.w, size)
    shown = _clip_lines(lines, max(1, int((area.h - 4) / (size * LINE))))
    canvas.rect(area.x, area.y, area.w, area.h, (*theme.TOAST[:3], int(245 * alpha)), 8)
    canvas.rect(area.x, area.y, area.w, area.h, (*theme.SELECT[:3], int(160 * alpha)), 8, 1)
    text_lines(canvas, shown, *area.center, size, (*theme.TEXT[:3], int(255 * alpha)))


def _line(canvas: Canvas, area: Rect, scale: TypeScale, line: LineView) -> None:
    """Draw the typed-move line over ``area``: the entry in bold, below it the problem
    (in the error colour) or how to use the line, cut to the lines left."""
    canvas.rect(area.x, area.y, area.w, area.h, theme.CARD, 8)
    canvas.rect(area.x, area.y, area.w, area.h, theme.SELECT, 8, 2)
    inner = area.inset(CARD_PAD + CARD_INSET, CARD_PAD / 2)
    body, small = scale.body * LINE, scale.small * LINE
    entry = _clip_lines(wrap(canvas, line.entry, inner.w, scale.body, True), 1)
    canvas.text(entry[0], inner.x, inner.y + body / 2, scale.body, theme.TEXT, "left", True)
    notes = _clip_lines(wrap(canvas, line.note, inner.w, scale.small),
                        int((inner.h - body + 0.5) / small))
    ink = theme.TEXT_ERROR if line.problem else theme.TEXT_DIM
    for index, note in enumerate(notes):
        canvas.text(note, inner.x, inner.y + body + small * (index + 0.5), scale.small, ink,
                    "left")


def _clip_lines(lines: list[str], most: int) -> list[str]:
    """Return ``lines`` cut to ``most`` (none if ``most`` is 0), the last one shown
    ending in '…' if any went."""
    if len(lines) <= most:
        return lines
    if most <= 0:
        return []
    return [*lines[:most - 1], lines[most - 1] + "…"]


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


def _banner(canvas: Canvas, view: GameView, banner: Banner) -> None:
    """Draw the game-over banner across the board: who won, why, what next."""
    band = banner_rect(view.board.layout, view.width)
    scale = view.panel.scale
    canvas.rect(band.x, band.y, band.w, band.h, theme.BANNER, 14)
    canvas.rect(band.x, band.y, band.w, band.h, (*theme.SELECT, 160), 14, 2)
    inner = band.inset(scale.body * 0.8, scale.small * 0.5)
    reason = banner.reason[:1].upper() + banner.reason[1:]
    used = "touch" if view.touch else "keys" if view.keyboard else "mouse"
    keys = fit_lines(canvas, BANNER_KEYS[used], inner.w, scale.small)
    title_h, keys_h = scale.title * LINE, scale.small * LINE
    most = max(1, int((inner.h - title_h - keys_h) / (scale.body * LINE)))
    reasons = _clip_lines(wrap(canvas, reason, inner.w, scale.body), most)
    cx = inner.center[0]
    canvas.text(banner.title, cx, inner.y + title_h / 2, scale.title, theme.SELECT, bold=True)
    middle = inner.y + title_h + (inner.h - title_h - keys_h) / 2
    text_lines(canvas, reasons, cx, middle, scale.body, theme.TEXT)
    canvas.text(keys[0], cx, inner.bottom - keys_h / 2, scale.small, theme.TEXT_DIM)


# -- the side panel ------------------------------------------------------------------------


def _panel(canvas: Canvas, view: GameView) -> None:
    """Draw the side panel's content: title, player cards, status, moves, buttons."""
    panel = view.panel
    scale = panel.scale
    title = panel.title
    if title.h > 0:  # a small window's panel has no room for it
        canvas.text(view.title, title.x, title.center[1], scale.title, theme.TEXT, "left", True)
        room = title.w - canvas.text_width(view.title, scale.title, True) - scale.title
        if canvas.text_width(view.mode, scale.small) <= room:  # else the cards say who plays
            canvas.text(view.mode, title.right, title.center[1], scale.small, theme.TEXT_DIM,
                        "right")
    for side, rect in enumerate(panel.players):
        _player_card(canvas, view, rect, side)
    area, moves = _card_and_list(canvas, view)
    if area != panel.status:  # else the card stands in for the status, which would show through
        _status(canvas, view, panel.status)
    _moves(canvas, view, moves)
    if view.line is not None and area is not None:
        _line(canvas, area, scale, view.line)
    elif view.toast is not None and area is not None:
        _toast(canvas, area, scale, *view.toast)
    hints = _keys_fit(canvas, view)
    for name, rect in panel.buttons.items():
        shown = view.buttons[name]
        label = keyed(shown.label, shown.key, not hints)
        button(canvas, rect, label, scale.label, hover=shown.hover, enabled=shown.enabled,
               active=shown.active)
    if not hints:
        _key_tooltip(canvas, view)


def _key_tooltip(canvas: Canvas, view: GameView) -> None:
    """Name the key of the button under the pointer in a small card just above it,
    for windows whose buttons have no room to show their keys (nothing after a touch:
    those buttons have no key to tell)."""
    name = next((name for name, shown in view.buttons.items() if shown.hover and shown.key),
                None)
    if name is None:
        return
    rect, shown, size = view.panel.buttons[name], view.buttons[name], view.panel.scale.small
    text = keyed(shown.label, shown.key, False)[0]
    w, h = canvas.text_width(text, size) + 2 * CARD_INSET, size * LINE + CARD_INSET
    panel = view.panel.panel
    x = max(0.0, min(max(rect.center[0] - w / 2, panel.x), panel.right - w))
    tip = Rect(x, max(0.0, rect.y - h - 4), w, h)
    card(canvas, tip, theme.CARD, 6)
    canvas.text(text, tip.center[0], tip.center[1], size, theme.TEXT)


def _keys_fit(canvas: Canvas, view: GameView) -> bool:
    """Return True when every button's label fits with its key beside it (all do or
    none does, so the buttons read alike)."""
    size = view.panel.scale.label
    for name, rect in view.panel.buttons.items():
        shown = view.buttons[name]
        if canvas.text_width(keyed(shown.label, shown.key, False)[0], size, True) > (
                rect.w - BUTTON_PAD):
            return False
    return True


def _player_card(canvas: Canvas, view: GameView, rect: Rect, side: int) -> None:
    """Draw one side's card: piece, name, who plays it, pieces left, thinking."""
    shown, scale = view.cards[side], view.panel.scale
    canvas.rect(rect.x, rect.y, rect.w, rect.h, theme.CARD, 10)
    if shown.to_move:
        canvas.rect(rect.x, rect.y, rect.w, rect.h, theme.SELECT, 10, 2)
    r = min(rect.h * 0.3, scale.label * 0.8)
    px, cy = rect.x + CARD_INSET + r, rect.center[1]
    board_view.piece(canvas, view.board.layout.kind, r, px, cy, side)
    left, right = px + r + CARD_INSET, rect.right - CARD_INSET
    two_lines = rect.h >= (scale.label + scale.small) * LINE  # else the role is left out
    name_y = cy - scale.small * LINE / 2 if two_lines else cy
    role_y = cy + scale.label * LINE / 2
    canvas.text(SIDE_NAMES[side], left, name_y, scale.label, theme.TEXT, "left", bold=True)
    name_right = left + canvas.text_width(SIDE_NAMES[side], scale.label, True) + CARD_INSET
    if shown.thinking:
        spinner(canvas, right - scale.small * 0.6, name_y, scale.small * 0.6, view.clock)
    else:
        count = fit_lines(canvas, (f"{shown.count} left", str(shown.count)), right - name_right,
                          scale.small)[0]
        canvas.text(count, right, name_y, scale.small, theme.TEXT_DIM, "right")
    if two_lines:
        role = fit_lines(canvas, shown.role, right - left, scale.small)
        canvas.text(_clip_lines(role, 1)[0], left, role_y, scale.small, theme.TEXT_DIM, "left")


def _status(canvas: Canvas, view: GameView, rect: Rect) -> None:
    """Draw the status (body text, up to two lines) and below it, in the lines left,
    the detail (small text)."""
    scale, over = view.panel.scale, view.over
    body, small = scale.body * LINE, scale.small * LINE
    status = _clip_lines(wrap(canvas, view.status, rect.w, scale.body, over),
                         min(2, int((rect.h + 0.5) / body)))
    y = rect.y
    for line in status:
        canvas.text(line, rect.x, y + body / 2, scale.body,
                    theme.SELECT if over else theme.TEXT, "left", over)
        y += body
    if not view.detail:
        return
    detail = _clip_lines(wrap(canvas, view.detail, rect.w, scale.small),
                         int((rect.bottom - y + 0.5) / small))
    for line in detail:
        canvas.text(line, rect.x, y + small / 2, scale.small, theme.TEXT_DIM, "left")
        y += small


def _moves(canvas: Canvas, view: GameView, rect: Rect) -> None:
    """Draw the move list in notation, two plies a line, the current ply marked; a
    list with room for fewer than two lines is left out."""
    size = view.panel.scale.small
    step = size * LINE * MOVE_STEP
    visible = int((rect.h - CARD_PAD * 2) / step + 1e-6)  # the layout gives whole lines
    if visible < 2:
        return
    canvas.rect(rect.x, rect.y, rect.w, rect.h, theme.BACKGROUND, 8)
    rows = view.moves
    if not rows:
        canvas.text("No moves yet", rect.center[0], rect.center[1], size, theme.TEXT_FAINT)
        return
    current_row = max(0, (view.cursor - 1) // 2)
    first = max(0, min(current_row - visible + 2, len(rows) - visible))
    number_w = canvas.text_width("000.", size)
    ply_w = (rect.w - number_w - CARD_INSET * 3) / 2
    ink = {"past": theme.TEXT, "current": theme.SELECT, "future": theme.TEXT_FAINT}
    for i, (number, plies) in enumerate(rows[first:first + visible]):
        y = rect.y + CARD_PAD + step * (i + 0.5)
        canvas.text(f"{number}.", rect.x + CARD_INSET + number_w, y, size, theme.TEXT_FAINT,
                    "right")
        for j, (text, state) in enumerate(plies):
            x = rect.x + number_w + CARD_INSET * 2 + j * ply_w
            if state == "current":
                canvas.rect(x - 4, y - step / 2 + 1, ply_w - 2, step - 2, theme.CARD, 5)
            canvas.text(text, x, y, size, ink[state], "left", bold=state == "current")
