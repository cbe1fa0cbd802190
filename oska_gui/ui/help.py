"""The help overlay: how to move, the rules in brief, and every keyboard shortcut."""

from __future__ import annotations

from . import theme
from .canvas import Canvas
from .layout import overlay_card
from .widgets import card, fitted_text

SHORTCUTS = (
    ("Arrows", "move the cursor over the board (a replay: step back and forth)"),
    ("Enter  /  Space", "pick up or put down the piece at the cursor"),
    ("N", "new game with the same choices"),
    ("U  /  Backspace", "undo (against the computer: with its reply)"),
    ("R", "redo"),
    ("H", "hint: the computer suggests a move"),
    ("Space  /  P", "pause or resume (computer vs computer)"),
    ("S", "single step while paused"),
    ("+  /  -", "faster / slower (speed or animation)"),
    ("A", "animation: off, fast, normal, slow"),
    ("C", "cell names on the board: show or hide (kept for next time)"),
    ("M  /  Esc", "menu (start screen); Esc also drops a selection"),
    ("?  /  F1", "this help"),
)
QUIT_SHORTCUT = ("Q", "quit")
HOW_TO = (
    "Click one of your pieces, then a highlighted hole (or drag the piece there).",
    "Oska: step diagonally forward, or jump over an enemy piece to capture it.",
    "Win by capturing every enemy piece, or by bringing all your pieces home first.",
)
TITLE = "How to play"
CLOSE_TEXT = "Click anywhere or press any key to close"


def draw_help(canvas: Canvas, width: float, height: float, can_quit: bool = True) -> None:
    """Paint the help overlay over whatever is on screen.

    Args:
        canvas: where to paint.
        width: the window width in pixels.
        height: the window height in pixels.
        can_quit: whether to list the Q shortcut (the App quits on Q).
    """
    shortcuts = SHORTCUTS + (QUIT_SHORTCUT,) if can_quit else SHORTCUTS
    canvas.rect(0, 0, width, height, theme.SCRIM)
    lines = len(shortcuts) + len(HOW_TO) + 3
    rect = overlay_card(width, height, lines)
    card(canvas, rect, theme.PANEL, 16)
    step = rect.h / (lines + 2.2)
    size = max(8.0, min(step * 0.56, 17.0))
    x = rect.x + step
    inner = rect.w - 2 * step
    y = rect.y + step * 1.1
    fitted_text(canvas, TITLE, rect.center[0], y, inner, size * 1.5, theme.TEXT, bold=True)
    y += step * 1.3
    for text in HOW_TO:
        fitted_text(canvas, text, x, y, inner, size * 0.95, theme.TEXT_DIM, anchor="left")
        y += step
    y += step * 0.4
    for keys, meaning in shortcuts:
        fitted_text(canvas, keys, x, y, inner * 0.3, size, theme.SELECT, anchor="left",
                    bold=True)
        fitted_text(canvas, meaning, x + inner * 0.32, y, inner * 0.68, size, theme.TEXT,
                    anchor="left")
        y += step
    fitted_text(canvas, CLOSE_TEXT, rect.center[0], rect.bottom - step * 0.8, inner,
                size * 0.85, theme.TEXT_FAINT)
